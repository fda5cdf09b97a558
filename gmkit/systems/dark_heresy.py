"""Dark Heresy (1st edition, with seed 001's house rules) combat rules (``SYSTEM``).

>>> from gmkit.dice import EnteredDice
>>> from gmkit.sheets._dark_heresy import DarkHeresyCharacter
>>> from gmkit.systems.base import AttackRequest
>>> from gmkit.systems.dark_heresy import SYSTEM
>>> from gmkit.systems._imperial.setup import AttackSetup
>>> profile = dict(WS=35, BS=40, S=30, T=35, Ag=30, Int=30, Per=30, WP=30, Fel=30)
>>> pistol = dict(name="Laspistol", weapon_class="pistol", range=30, rof="S/2/-",
...               damage="1d10+2", damage_type="E", clip=30, reload="Half")
>>> shooter = DarkHeresyCharacter.build(name="Acolyte", characteristics=profile,
...                                     wounds=10, weapons=[pistol])
>>> heretic = DarkHeresyCharacter.build(name="Heretic", characteristics=profile, wounds=10,
...                                     armour_points={"legs": 5})
>>> request = AttackRequest(shooter, "Laspistol", heretic)
>>> result = SYSTEM.resolve_attack(request, EnteredDice([18, 8]), AttackSetup("BS", (), "single"))
>>> str(result.summary)  # 18 reversed is 81: right leg; 8 + 2 = 10 damage - AP 5 - TB 3 = 2
'Acolyte hits Heretic once with Laspistol: 2 damage'
>>> result.steps[-1].render("es")  # every text is a message, in the GM's language
'Absorción (impacto 1): 2 de daño sufrido (10 de daño - PA 5 - BR 3 = 2)'

``SYSTEM.resolve_attack(request, source)`` builds the attack's setup from the action and the
circumstances (``gmkit.systems._imperial.modifiers``); pass ``setup`` to skip that.
``SYSTEM.apply_effect(sheet, effect)`` is what the encounter calls for each effect: the new
sheet and the effects that follow, or None for the effects it applies itself. The rules live
in :mod:`gmkit.systems._imperial` (shared with Deathwatch; its docstring maps its modules).

Dark Heresy's own choices (001): Righteous Fury adds the weapon's damage again, each time
confirmed, or (the option ``righteous_fury_house_rule``) deals 1d5 critical damage at once;
degrees of success do not raise damage; clearing a jam costs a las, plasma or melta weapon its
clip and solid ammunition one round. Initiative is 1d10 + Agility Bonus, ties to the higher
bonus, then a roll-off; 001 lets the GM roll it by groups (``group_initiative``): one d10 per
group plus the best Agility Bonus in it (001 does not say whose bonus; the best is a choice),
every member acting on the group's score.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from gmkit.dice import DiceSource, DieRoll
from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.sheets._dark_heresy import ImperialCharacter
from gmkit.systems._conditions import ConditionBook
from gmkit.systems._imperial import effects as imperial_effects
from gmkit.systems._imperial.kinds import book as condition_book
from gmkit.systems._imperial.resolve import resolve_attack
from gmkit.systems._imperial.resolve_fire import JamClearing, clear_jam
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems._initiative import ranked
from gmkit.systems._percentile import Initiative, roll_initiative
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Step


@dataclass(frozen=True, slots=True)
class InitiativeResult:
    """The order of play, explained, and the roll-off dice if any tie needed them."""

    order: tuple[Initiative, ...]
    steps: tuple[Step, ...]
    roll_offs: tuple[DieRoll, ...] = ()

    @property
    def names(self) -> list[str]:
        return [entry.name for entry in self.order]


def initiative(combatants: Sequence[ImperialCharacter], source: DiceSource) -> InitiativeResult:
    """1d10 + Agility Bonus each (unnatural Agility included); ties by bonus, then a roll-off."""
    names = [sheet.name for sheet in combatants]
    if len(set(names)) != len(names):
        raise GmkitError(Message("imperial.initiative.shared_name"))
    rolled = [roll_initiative(sheet.name, sheet.bonus("Ag"), source) for sheet in combatants]
    return _ordered(rolled, source, Message("imperial.initiative.agility_bonus"))


def _ordered(rolled: list[Initiative], source: DiceSource, base: Message) -> InitiativeResult:
    steps = [
        Step(
            Message("imperial.initiative.title", name=entry.name),
            Message.verbatim(str(entry.score)),
            Message(
                "imperial.initiative.detail",
                die=str(entry.roll.value) if entry.roll else "-",
                base=base,
                bonus=entry.base,
            ),
            (entry.roll,) if entry.roll else (),
        )
        for entry in rolled
    ]
    order, roll_offs = ranked(rolled, source)
    if roll_offs:
        shown = tuple(
            Message("imperial.initiative.roll_off_die", name=_rolled_for(roll), value=roll.value)
            for roll in roll_offs
        )
        steps.append(
            Step(
                Message("imperial.initiative.roll_off"),
                Message("common.list", items=shown),
                Message("imperial.initiative.tied", base=base),
                tuple(roll_offs),
            )
        )
    listed = tuple(entry.name for entry in order)
    steps.append(Step(Message("imperial.initiative.order"), Message("common.list", items=listed)))
    return InitiativeResult(tuple(order), tuple(steps), tuple(roll_offs))


def _rolled_for(roll: DieRoll) -> str:
    """Whose roll-off die ``roll`` is (its purpose names them)."""
    purpose = roll.purpose
    if isinstance(purpose, Message):
        return str(purpose.arguments.get("name", ""))
    return purpose.split(": ")[-1]


def group_initiative(
    groups: Mapping[str, Sequence[ImperialCharacter]], source: DiceSource
) -> tuple[InitiativeResult, dict[str, tuple[str, ...]]]:
    """001's option: one d10 per group, plus the best AgB in it; members act together.

    Returns the groups' order and each group's members (in the order given).
    """
    rolled = []
    for group, members in groups.items():
        if not members:
            raise GmkitError(Message("imperial.initiative.empty_group", group=repr(group)))
        rolled.append(roll_initiative(group, max(sheet.bonus("Ag") for sheet in members), source))
    result = _ordered(rolled, source, Message("imperial.initiative.best_agility_bonus"))
    return result, {group: tuple(sheet.name for sheet in groups[group]) for group in groups}


class ImperialSystem:
    """The rules Dark Heresy and Deathwatch share, behind ``GameSystem``."""

    game = ""

    def resolve_attack(
        self, request: AttackRequest, source: DiceSource, setup: AttackSetup | None = None
    ) -> AttackResult:
        """Resolve ``request`` (:func:`gmkit.systems._imperial.resolve.resolve_attack`)."""
        for side, sheet in (("attacker", request.attacker), ("target", request.target)):
            if sheet.game != self.game:
                problem = Message(
                    f"imperial.system.other_game_{side}",
                    name=sheet.name,
                    sheet_game=sheet.game,
                    game=self.game,
                )
                raise GmkitError(problem)
        return resolve_attack(request, source, setup)

    @property
    def conditions(self) -> ConditionBook:
        """The game's conditions, from its conditions.yaml
        (:mod:`gmkit.systems._imperial.kinds`)."""
        return condition_book(self.game)

    def initiative(
        self, combatants: Sequence[ImperialCharacter], source: DiceSource
    ) -> InitiativeResult:
        return initiative(combatants, source)

    def clear_jam(
        self, character: ImperialCharacter, weapon: str, source: DiceSource
    ) -> JamClearing:
        """A full action and a Ballistic Skill test to clear ``weapon``'s jam."""
        return clear_jam(character, weapon, source)

    def apply_effects(
        self, sheet: ImperialCharacter, effects: Iterable[Effect]
    ) -> imperial_effects.Applied[ImperialCharacter]:
        """A new sheet with ``effects`` applied, and what is left for the encounter."""
        return imperial_effects.apply_effects(sheet, effects)

    def apply_effect(
        self, sheet: ImperialCharacter, effect: Effect
    ) -> tuple[ImperialCharacter, tuple[Effect, ...]] | None:
        """The encounter's call: ``effect`` on ``sheet`` (whatever its ``target`` says) if it
        is the sheet's business (damage, critical damage, fatigue, magnitude), with the effects
        it caused (unconscious, dead, the critical table's); None for the rest, which the
        encounter applies itself (:func:`gmkit.systems._imperial.effects.apply_for_encounter`).
        """
        return imperial_effects.apply_for_encounter(sheet, effect)


class DarkHeresySystem(ImperialSystem):
    """Dark Heresy's rules."""

    game = "dark_heresy"

    def group_initiative(
        self, groups: Mapping[str, Sequence[ImperialCharacter]], source: DiceSource
    ) -> tuple[InitiativeResult, dict[str, tuple[str, ...]]]:
        return group_initiative(groups, source)


SYSTEM = DarkHeresySystem()
"""Dark Heresy's rules, as :func:`gmkit.systems.system` returns them."""

__all__ = [
    "SYSTEM",
    "DarkHeresySystem",
    "ImperialSystem",
    "InitiativeResult",
    "group_initiative",
    "initiative",
]
