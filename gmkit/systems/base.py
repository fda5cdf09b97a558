"""What every game's rules share: the attack request, its explained result, and the protocol.

Rules are pure: a rule reads sheets and a request, takes every die from the dice source it is
given, and returns values. Resolving an attack never changes a sheet; it returns the ordered
``steps`` (what was rolled, against what, with which modifiers, why) and the ``effects`` the
encounter applies (damage at a location, a condition, ammunition spent, a jam...).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from gmkit.dice import DiceSource, DieRoll
from gmkit.errors import RulesError
from gmkit.messages import Message, Text, render
from gmkit.sheets.base import Sheet
from gmkit.systems.options import AttackOptions, OpenOptions, options_model

EffectKind = Literal[
    "damage",  # wounds lost (amount) at a location, of a damage type
    "critical",  # critical damage (amount) at a location, of a damage type
    "fatigue",  # levels of fatigue gained
    "condition",  # a named condition, for ``rounds`` (None: until removed)
    "remove_condition",
    "ammo",  # rounds of ammunition spent from ``weapon``
    "jam",  # ``weapon`` jammed
    "magnitude",  # a horde's magnitude lost
    "cover",  # cover at ``location`` loses ``amount`` armour points
    "injury",  # a D6 game's injury result: ``condition`` is flesh wound / down / out of action
    "pinned",
    "reaction",  # a reaction spent (``condition`` names it: dodge, parry)
    "note",  # something the GM must adjudicate; nothing applied automatically
]


@dataclass(frozen=True, slots=True)
class Modifier:
    """A named modifier with its source: ``Modifier(Message.term(...), 20)``."""

    source: Text
    value: int

    def __str__(self) -> str:
        return f"{render(self.source)} {self.value:+d}"

    def render(self, language: str = "en") -> str:
        return f"{render(self.source, language)} {self.value:+d}"


@dataclass(frozen=True, slots=True)
class Step:
    """One explained step of a resolution, as data: each text a message the renderer puts
    into the reader's language (``str(step)`` is the English)."""

    title: Text  # "Ballistic Skill test", "Hit location", "Damage", "Soak"
    outcome: Text  # "hit with 3 degrees of success", "right arm", "9 damage"
    detail: Text = ""  # why: "64 vs 47: 1 degree of failure"
    rolls: tuple[DieRoll, ...] = ()
    target: int | None = None  # the number rolled against (after modifiers), where there is one
    modifiers: tuple[Modifier, ...] = ()

    def render(self, language: str = "en") -> str:
        title, outcome = render(self.title, language), render(self.outcome, language)
        detail = render(self.detail, language)
        return f"{title}: {outcome}" + (f" ({detail})" if detail else "")

    def __str__(self) -> str:
        return self.render()


@dataclass(frozen=True, slots=True)
class Effect:
    """A change for the encounter to apply to ``target`` (a combatant's name)."""

    kind: EffectKind
    target: str
    amount: int = 0
    location: str | None = None
    damage_type: str | None = None
    condition: str | None = None
    rounds: int | None = None
    weapon: str | None = None
    note: Text = ""


@dataclass(frozen=True, slots=True)
class Standing:
    """What the encounter knows of a combatant at the moment of an attack: the conditions it
    bears (``surprised`` too, in the first round, for one the start named), its counters
    (wounds lost in the D6 games, ammunition spent: ``{"damage": 2}``) and the reaction pools
    it spent this round (``{"parry": 1}``)."""

    conditions: tuple[str, ...] = ()
    counters: Mapping[str, int] = field(default_factory=dict)
    reactions: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        conditions: Iterable[str] = (),
        counters: Mapping[str, int] | None = None,
        reactions: Mapping[str, int] | None = None,
    ) -> Standing:
        held = (conditions,) if isinstance(conditions, str) else conditions  # one name
        return cls(tuple(sorted(set(held))), dict(counters or {}), dict(reactions or {}))

    def bears(self, condition: str) -> bool:
        return condition in self.conditions


NO_STANDING = Standing()


@dataclass(frozen=True)
class AttackRequest:
    """Everything an attack needs: who, with what, how, at whom, and under which circumstances.

    ``circumstances`` maps a circumstance id of the game's catalog to its value: ``True`` for a
    flag (``"darkness": True``), a number where it has one (``"cover": 4`` armour points,
    ``"outnumbering": 3`` attackers). ``options`` are the GM's choices and house rules for
    this attack, declared per game (:class:`~gmkit.systems.options.AttackOptions`): a mapping
    given here is validated into the game's model, and an unknown option, a wrong type or an
    out-of-range value is refused by name. ``attacker_standing`` and ``target_standing`` are
    what the encounter knows of the two (their conditions, counters, reactions spent), and
    ``round`` the encounter's round.
    """

    attacker: Sheet
    weapon: str  # the name of a weapon on the attacker's sheet
    target: Sheet
    action: str = "standard_attack"
    mode: str = "single"  # fire mode or attack form: single, semi, full, melee...
    distance: float | None = None  # in the game's unit (metres, inches, centimetres)
    called_location: str | None = None
    circumstances: Mapping[str, Any] = field(default_factory=dict)
    options: Any = field(default_factory=dict)  # AttackOptions once built (see __post_init__)
    attacker_standing: Standing = NO_STANDING
    target_standing: Standing = NO_STANDING
    round: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.options, AttackOptions):
            return
        given = dict(self.options or {})
        for role in ("attacker", "target"):  # the encounter's keys, before typed standings
            keys = [f"{role}_{part}" for part in ("conditions", "counters", "reactions")]
            if any(key in given for key in keys):
                old: Standing = getattr(self, f"{role}_standing")
                standing = Standing.of(
                    given.pop(keys[0], old.conditions) or (),
                    given.pop(keys[1], old.counters) or {},
                    given.pop(keys[2], old.reactions) or {},
                )
                object.__setattr__(self, f"{role}_standing", standing)
        if "round" in given:
            object.__setattr__(self, "round", int(given.pop("round") or 0))
        game = getattr(self.attacker, "game", None)
        if not isinstance(game, str):
            raise RulesError(Message("attack.attacker_not_a_sheet"))
        model = options_model(game)
        if model is OpenOptions:  # the transition: the encounter's keys still readable as options
            for role in ("attacker", "target"):
                standing = getattr(self, f"{role}_standing")
                given.setdefault(f"{role}_conditions", list(standing.conditions))
                given.setdefault(f"{role}_counters", dict(standing.counters))
                given.setdefault(f"{role}_reactions", dict(standing.reactions))
            given.setdefault("round", self.round)
        object.__setattr__(self, "options", model.coerce(given, game))

    def with_options(self, **changes: Any) -> AttackRequest:
        """This request with some options changed (validated again)."""
        return replace(self, options=self.options.changed(**changes))


@dataclass(frozen=True)
class AttackResult:
    """The value an attack resolves to."""

    request: AttackRequest
    steps: tuple[Step, ...]
    effects: tuple[Effect, ...]
    hits: int = 0
    summary: Text = ""

    @property
    def hit(self) -> bool:
        return self.hits > 0

    @property
    def rolls(self) -> tuple[DieRoll, ...]:
        return tuple(roll for step in self.steps for roll in step.rolls)

    def explain(self, language: str = "en") -> str:
        return "\n".join(step.render(language) for step in self.steps)


EffectApplication = tuple[Sheet, tuple[Effect, ...]] | None
"""What ``apply_effect`` answers: the sheet after the effect and the effects it caused (its
follow-ups), or None when the effect is not the sheet's business."""


class GameSystem(Protocol):
    """The rules of one game, as the encounter and the panels use them.

    Besides ``resolve_attack``, a system may have (the encounter looks for it with
    ``getattr``; see :class:`AppliesEffects`):

    ``apply_effect(sheet, effect) -> tuple[Sheet, tuple[Effect, ...]] | None``
        Apply one effect to ``sheet``, purely: the new sheet (``sheet.edit``) and the
        follow-ups the effect caused (a critical hit, a ``dead`` or ``unconscious``
        condition...), which the encounter applies in turn, right after it, to their own
        targets. None says the effect is not the sheet's business: the encounter then applies
        it itself. It applies conditions, ammunition, jams, reactions, cover and notes
        generically, and counts the other kinds, by kind, on the combatant (``damage`` in the
        D6 games, whose sheets keep no wounds: ``counters["damage"]``).

        ``effect.target`` may be the encounter's id for the combatant rather than the sheet's
        name: the effect goes to the ``sheet`` given whatever it names, and follow-ups aimed at
        that combatant keep the target the effect named.

        A follow-up the effects being applied already hold next (same kind, target and
        location: an attack's critical, rolled by the resolver right after the damage that
        caused it) is not applied twice.

        A condition's ``rounds`` count down at the end of the bearer's turns (stunned for 1
        round by a foe: the bearer loses its next turn), or at the start of them when the
        bearer gains it in its own turn (or its side's): an action's "until your next turn"
        is ``rounds=1``.

        The encounter calls it when a command applies effects and records what it changed
        (the sheets after, the effects it applied itself) in the event, so that replaying a
        log never runs the rules again: rules fixed later never rewrite an old fight.

    Per game: the d100 games keep damage on the sheet (WFRP 2e ``wounds_current``, its
    overflow's critical as a follow-up; Dark Heresy and Deathwatch ``damage``,
    ``critical_damage``, ``fatigue`` and a horde's ``magnitude``); Necromunda raises the sheet's
    ``flesh_wounds`` and leaves damage (a counter) and pinned, down, out of action (conditions)
    to the encounter; WFB 6e answers None to everything (wounds are counters).

    The encounter's request options the rules may read: ``attacker_conditions`` and
    ``target_conditions`` (the condition names the combatants bear, ``surprised`` included in
    the first round for a surprised one), ``attacker_counters`` and ``target_counters``
    (``{"damage": 2, "ammo spent: Lasgun": 3}``), ``attacker_reactions`` and
    ``target_reactions`` (the round's reaction pools spent: ``{"parry": 1}``) and ``round``.
    Each system maps them to its own state (Necromunda's ``FighterState``, WFRP's
    circumstances) in its own modules.
    """

    game: str

    def resolve_attack(self, request: AttackRequest, source: DiceSource) -> AttackResult: ...


class AppliesEffects(Protocol):
    """A system with the optional ``apply_effect`` (see :class:`GameSystem`)."""

    def apply_effect(self, sheet: Sheet, effect: Effect) -> EffectApplication: ...


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing a GM can pick for an attack: an action, a fire mode, a circumstance.

    ``kind`` says how a panel asks for it: a ``flag`` (checkbox), a ``number`` (cover's armour
    points, attackers ganging up) or a ``choice`` among ``options``.
    """

    id: str
    label: Text  # a message: the renderer gives it in the GM's language
    kind: Literal["flag", "number", "choice"] = "flag"
    options: tuple[str, ...] = ()
    help: Text = ""
    option_labels: tuple[Text, ...] = ()  # each option's words (the option itself if none)

    def option_label(self, option: str) -> Text:
        """The words for one of ``options``."""
        if option in self.options and len(self.option_labels) == len(self.options):
            return self.option_labels[self.options.index(option)]
        return option


@dataclass(frozen=True)
class AttackChoices:
    """What an attacker with a weapon may do in this game, for a panel to offer."""

    actions: tuple[Choice, ...]
    modes: tuple[Choice, ...]
    circumstances: tuple[Choice, ...]
    reactions: tuple[Choice, ...] = ()
    distance_unit: str = ""  # "m", "in", "cm"; empty when the attack needs no distance


__all__ = [
    "NO_STANDING",
    "AppliesEffects",
    "AttackChoices",
    "AttackRequest",
    "AttackResult",
    "Choice",
    "Effect",
    "EffectApplication",
    "EffectKind",
    "GameSystem",
    "Modifier",
    "Standing",
    "Step",
]
