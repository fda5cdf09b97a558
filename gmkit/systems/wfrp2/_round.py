"""The WFRP 2e combat round outside the attack: initiative, surprise and the other actions.

- Initiative is Agility + 1d10, rolled once at the start of the combat and kept for every
  round (002); the order runs from the highest score down; ties go to the higher Agility, then
  to a d10 roll-off (seed README), through :func:`gmkit.systems._initiative.ranked`.
- Surprise: the combatants the GM names as surprised lose their first round (002). 002 gives no
  test for it, so who is surprised is the GM's call; each gets a "surprised" condition for one
  round (circumstance ``target_surprised`` while it lasts: no parry or dodge).
- :func:`perform_action` takes an action that is not an attack: it reports how far the actor
  may move (the sheet's movement: move 2 x M, charge 4 x M, run 6 x M metres), the conditions
  the action grants until the actor's next turn (running, defensive stance, parry stance...)
  and, for feint and manoeuvre, rolls the opposed WS test (002) with
  :func:`gmkit.systems._percentile.opposed_winner`: a tie wins nothing.

Choices where seed 002 is silent: the roll-off is a d10 (higher first); the opposed tests take
no modifiers (002 lists none); disengaging moves the actor's ordinary move (2 x M).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gmkit.dice import DiceSource, DieRoll
from gmkit.errors import RulesError
from gmkit.messages import Message, Text
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems._initiative import ranked
from gmkit.systems._percentile import (
    Initiative,
    opposed_winner,
    roll_initiative,
    roll_test,
)
from gmkit.systems.base import Effect, Step
from gmkit.systems.wfrp2._catalogs import Action, Grant, action
from gmkit.systems.wfrp2._terms import action_type, movement_name, number, rated


@dataclass(frozen=True)
class InitiativeResult:
    """The acting order (first to act first), how it was rolled, and the surprise effects."""

    order: tuple[Initiative, ...]
    steps: tuple[Step, ...]
    effects: tuple[Effect, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """The combatants' names in acting order."""
        return tuple(entry.name for entry in self.order)

    def explain(self, language: str = "en") -> str:
        """The steps, one a line."""
        return "\n".join(step.render(language) for step in self.steps)


def _rolled_for(roll: DieRoll) -> Text:
    """Whose roll-off die ``roll`` is (its purpose names them)."""
    purpose = roll.purpose
    if isinstance(purpose, Message):
        name = purpose.arguments.get("name")
        return name if isinstance(name, str) else purpose
    return purpose.split(": ")[-1]


def initiative(
    combatants: Sequence[WFRP2Character],
    source: DiceSource,
    *,
    surprised: Iterable[str] = (),
) -> InitiativeResult:
    """Roll Ag + 1d10 for each combatant and order them; ``surprised`` names lose round one."""
    names = [sheet.name for sheet in combatants]
    twice = sorted(name for name, count in Counter(names).items() if count > 1)
    if twice:
        raise RulesError(Message("wfrp2.refusal.shared_name", names=tuple(twice)))
    lost = list(surprised)
    unknown = sorted(set(lost) - set(names))
    if unknown:
        raise RulesError(Message("wfrp2.refusal.surprised_unknown", names=tuple(unknown)))
    rolled = [roll_initiative(sheet.name, sheet.initiative_base, source) for sheet in combatants]
    steps = [
        Step(
            Message("wfrp2.step.initiative", name=entry.name),
            number(entry.score),
            Message(
                "wfrp2.detail.initiative",
                rated=rated("Ag", entry.base),
                roll=entry.roll.value if entry.roll else "-",
            ),
            (entry.roll,) if entry.roll else (),
        )
        for entry in rolled
    ]
    order, roll_offs = ranked(rolled, source)
    if roll_offs:
        shown = tuple(
            Message("wfrp2.outcome.roll_off", name=_rolled_for(roll), value=roll.value)
            for roll in roll_offs
        )
        steps.append(
            Step(
                Message("wfrp2.step.roll_off"),
                Message("common.list", items=shown),
                Message("wfrp2.detail.roll_off"),
                tuple(roll_offs),
            )
        )
    in_order = tuple(entry.name for entry in order)
    steps.append(Step(Message("wfrp2.step.order"), Message("common.list", items=in_order)))
    effects = tuple(Effect("condition", name, condition="surprised", rounds=1) for name in lost)
    if lost:
        steps.append(
            Step(
                Message("wfrp2.step.surprise"),
                Message("common.list", items=tuple(lost)),
                Message("wfrp2.detail.surprise"),
            )
        )
    return InitiativeResult(tuple(order), tuple(steps), effects)


@dataclass(frozen=True)
class ActionResult:
    """A non-attack action taken: what it allowed and the effects it leaves."""

    action: Action
    steps: tuple[Step, ...]
    effects: tuple[Effect, ...] = ()
    won: bool | None = None  # the opposed test's outcome (feint, manoeuvre); None without one

    def explain(self, language: str = "en") -> str:
        """The steps, one a line."""
        return "\n".join(step.render(language) for step in self.steps)


def perform_action(
    action_id: str,
    actor: WFRP2Character,
    source: DiceSource,
    *,
    target: WFRP2Character | None = None,
) -> ActionResult:
    """Take the non-attack action ``action_id`` (attacks go through ``resolve_attack``)."""
    chosen = action(action_id)
    if chosen.is_attack:
        raise RulesError(Message("wfrp2.refusal.is_an_attack", action=chosen.label))
    taken = Message(
        "wfrp2.outcome.action_taken", action=chosen.label, type=action_type(chosen.type)
    )
    steps = [Step(Message("wfrp2.step.action"), taken, chosen.note_text or "")]
    if chosen.distance is not None:
        metres = actor.movement[chosen.distance]
        steps.append(
            Step(
                Message("wfrp2.step.movement"),
                Message("wfrp2.outcome.up_to", metres=metres),
                Message(
                    "wfrp2.detail.movement",
                    move=movement_name(chosen.distance),
                    M=actor.secondary.M,
                ),
            )
        )
    effects = [
        Effect("condition", actor.name, condition=grant.condition, rounds=grant.rounds)
        for grant in chosen.grants
    ]
    won: bool | None = None
    if chosen.opposed is not None:
        if target is None:
            raise RulesError(Message("wfrp2.refusal.opposed_needs_target", action=chosen.label))
        key = chosen.opposed
        tests = [
            roll_test(
                key,
                int(getattr(sheet.characteristics, key)),
                (),
                source,
                Message("wfrp2.step.opposed", action=chosen.label, name=sheet.name),
                cap=None,
            )
            for sheet in (actor, target)
        ]
        for sheet, test in zip((actor, target), tests, strict=True):
            steps.append(
                Step(
                    Message("wfrp2.step.opposed", action=chosen.label, name=sheet.name),
                    Message("wfrp2.outcome.success" if test.success else "wfrp2.outcome.failure"),
                    test.explain(),
                    (test.roll,),
                    test.target,
                )
            )
        won = opposed_winner(tests[0], tests[1]) == 0
        outcome = Message("wfrp2.outcome.wins" if won else "wfrp2.outcome.no_win", name=actor.name)
        steps.append(Step(chosen.label, outcome))
        if won and chosen.won_note is not None:
            effects.append(Effect("note", target.name, note=chosen.won_note))
        elif won and isinstance(chosen.on_win, Grant):
            grant = chosen.on_win
            effects.append(
                Effect("condition", actor.name, condition=grant.condition, rounds=grant.rounds)
            )
    return ActionResult(chosen, tuple(steps), tuple(effects), won)
