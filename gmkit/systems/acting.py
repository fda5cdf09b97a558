"""What a turn holds besides attacks, as the rules see it: the typed seam between a game's rules
and the encounter for restrictions, non-attack actions and the rolls a turn asks for.

- :class:`Restriction`: what a condition forbids its bearer (stunned: no action of any kind;
  Dark Heresy's pinned: one half action a turn; Deathwatch's: half actions only; a down
  Necromunda fighter: crawl or hide). The encounter's permits read them
  (:mod:`gmkit.encounter._permits`); the rules decide them.
- :class:`ActionInfo`: a non-attack action a panel may offer (Aim, Reload, Move...), with the
  budget types it may be taken as, whether it needs a target or a weapon, and the
  :class:`Choice` inputs it takes (a number of inches, a terrain...).
- :class:`ActionRequest` -> ``perform_action`` -> :class:`ActionResult`: the action resolved by
  the rules, its steps explained and the effects the encounter applies (a condition the rules
  read later: ``aimed: full`` carried into the next attack, ``braced``...). One command, one
  event: ``Encounter.act``.
- :class:`Due`: a roll the rules ask for at a moment of the turn (on-fire damage at a round's
  end, the recovery roll of a down fighter, the optional pin escape); the encounter lists it
  and the GM rolls it (or types the die) with ``Encounter.roll_due``. One with no dice is a
  decision the GM owes (``decisions``: a critical no table gives the effect of), listed until
  the GM marks it decided (``Encounter.dismiss_due``), whatever turn changes in between.

:class:`TurnRules` is the protocol (a game's registry entry holds one as ``acting``);
:class:`NoTurnRules` is the base every game's own builds on (no restriction, no action, no
roll due), so a new game needs none of it to run a fight.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from gmkit.dice import DiceSource, DieRoll
from gmkit.errors import RulesError
from gmkit.messages import Message, Text, from_json
from gmkit.sheets.base import Sheet
from gmkit.systems import _initiative as initiative
from gmkit.systems._initiative import Contender
from gmkit.systems.base import NO_STANDING, Choice, Effect, Standing, Step

Moment = Literal["start_of_turn", "end_of_turn", "end_of_round", "start_of_phase"]
MOMENTS: tuple[Moment, ...] = ("start_of_turn", "end_of_turn", "end_of_round", "start_of_phase")


@dataclass(frozen=True, slots=True)
class Restriction:
    """What a condition its bearer holds forbids it, and why (a message naming the condition).

    ``no_actions``: no action of any kind, free ones included. ``types``: only actions of these
    budget types ("half", "free"...). ``caps``: at most this much of each turn pool spent
    ("actions": 1, one half action). ``actions``: only these actions of the game's catalog
    (the down fighter's crawl). ``no_reactions``: no Dodge nor Parry.
    """

    condition: str
    why: Message
    no_actions: bool = False
    types: frozenset[str] | None = None
    caps: Mapping[str, int] = field(default_factory=dict)
    actions: frozenset[str] | None = None
    no_reactions: bool = False

    def forbids(
        self,
        action_type: str,
        action: str = "",
        spent: Mapping[str, int] | None = None,
        costs: Mapping[str, int] | None = None,
    ) -> bool:
        """Whether it forbids an action ``action`` (catalog id, "" for any) of ``action_type``
        costing ``costs``, having ``spent`` these turn pools (none: a fresh turn)."""
        spent, costs = spent or {}, costs or {}
        return (
            self.no_actions
            or (self.types is not None and action_type not in self.types)
            or (self.actions is not None and bool(action) and action not in self.actions)
            or any(
                spent.get(pool, 0) + costs.get(pool, 0) > cap
                for pool, cap in self.caps.items()
                if costs.get(pool, 0)
            )
        )


@dataclass(frozen=True, slots=True)
class ActionInfo:
    """A non-attack action of a game, as a panel offers it (see the module docstring)."""

    id: str
    label: Text
    types: tuple[str, ...]
    help: Text = ""
    target: bool = False  # it acts on another combatant (Ready against..., an opposed test)
    weapon: bool = False  # it acts on one of the actor's weapons (Reload, Clear jam)
    inputs: tuple[Choice, ...] = ()
    phase: str = ""  # the sides games' phase it belongs to ("" any)


@dataclass(frozen=True)
class ActionRequest:
    """Everything a non-attack action needs: who takes which action, as which budget type,
    on whom or with what, the inputs it declares, and what the encounter knows of them."""

    actor: Sheet
    action: str
    action_type: str = ""  # the budget type it is taken as ("half", "full", "move"...)
    target: Sheet | None = None
    weapon: str | None = None
    inputs: Mapping[str, Any] = field(default_factory=dict)
    actor_standing: Standing = NO_STANDING
    target_standing: Standing = NO_STANDING
    round: int = 0
    phase: str = ""  # the sides games' current phase


@dataclass(frozen=True)
class ActionResult:
    """What a non-attack action (or a roll due) resolved to: the steps that explain it, the
    effects to apply, a summary, and what it does to the turn itself (``delays``: the actor's
    turn ends keeping a half action; ``readies``: the action the actor readied)."""

    steps: tuple[Step, ...]
    effects: tuple[Effect, ...] = ()
    summary: Text = ""
    delays: bool = False
    readies: str = ""

    @property
    def rolls(self) -> tuple[DieRoll, ...]:
        return tuple(roll for step in self.steps for roll in step.rolls)

    def explain(self, language: str = "en") -> str:
        return "\n".join(step.render(language) for step in self.steps)


@dataclass(frozen=True, slots=True)
class Due:
    """A roll a moment of the turn asks for (see the module docstring): ``rule`` is the rules'
    own id of it, ``text`` says what it is, ``dice`` the sides of each die it takes;
    ``optional`` ones the GM may pass over (the pin escape, when no friend is near)."""

    rule: str
    text: Message
    dice: tuple[int, ...] = ()
    optional: bool = False
    bearer: str = ""  # the encounter's id of the combatant it is for (set by the encounter)

    def for_bearer(self, ident: str) -> Due:
        return replace(self, bearer=ident)

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "text": self.text.to_json(),
            "dice": list(self.dice),
            "optional": self.optional,
            "bearer": self.bearer,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Due:
        text = from_json(data["text"])
        return cls(
            str(data["rule"]),
            text if isinstance(text, Message) else Message.verbatim(str(text)),
            tuple(int(sides) for sides in data.get("dice", ())),
            bool(data.get("optional", False)),
            str(data.get("bearer", "")),
        )


@dataclass(frozen=True, slots=True)
class Bearer:
    """A combatant as the rules see it for a roll due: its sheet, what the encounter knows of
    it, the round and (sides games) the phase."""

    sheet: Sheet
    standing: Standing = NO_STANDING
    round: int = 0
    phase: str = ""


class TurnRules(Protocol):
    """A game's rules of the turn beyond attacks (see the module docstring)."""

    def restrictions(self, conditions: Iterable[str]) -> tuple[Restriction, ...]:
        """What the conditions (names a combatant bears) forbid it."""
        ...

    def actions(self) -> tuple[ActionInfo, ...]:
        """The non-attack actions a panel offers."""
        ...

    def perform_action(self, request: ActionRequest, source: DiceSource) -> ActionResult:
        """Resolve a non-attack action; RulesError when the rules refuse it."""
        ...

    def lapsed_by_reaction(self, conditions: Iterable[str]) -> tuple[str, ...]:
        """The conditions a reaction ends (Aim's bonus)."""
        ...

    def turn_rolls(self, moment: Moment, bearer: Bearer) -> tuple[Due, ...]:
        """The rolls ``moment`` asks of ``bearer`` (on fire, blood loss, recovery...). Asked of
        every standing combatant at each moment, unless the rules declare a class attribute
        ``rolls_need_conditions = True``: then only of those bearing a condition (a side's
        phase change at 1,000 fighters asks the few that do)."""
        ...

    def roll_due(self, due: Due, bearer: Bearer, source: DiceSource) -> ActionResult:
        """Roll a due roll; its steps and effects."""
        ...

    def decisions(self, effects: Sequence[Effect]) -> tuple[Due, ...]:
        """What the GM must decide once ``effects`` applied (a critical no table gives the
        effect of): each a :class:`Due` with no dice, for the effect's target."""
        ...

    def initiative_order(
        self, contenders: Sequence[Contender], source: DiceSource | None
    ) -> tuple[list[str], list[DieRoll]]:
        """The round's order (ids, first first) and the tie-breaking dice rolled."""
        ...

    def delayed_first(
        self, first: Sheet, second: Sheet, source: DiceSource
    ) -> tuple[int, list[DieRoll]]:
        """Two delayed actions at once: 0 when ``first`` acts first, 1 when ``second`` does,
        and the dice rolled to say so."""
        ...


class NoTurnRules:
    """Turn rules with no restriction, no action, no roll due: a game's own build on it."""

    # a game whose rolls due all come from conditions says so (see TurnRules.turn_rolls)
    rolls_need_conditions = False

    def restrictions(self, conditions: Iterable[str]) -> tuple[Restriction, ...]:
        return ()

    def actions(self) -> tuple[ActionInfo, ...]:
        return ()

    def perform_action(self, request: ActionRequest, source: DiceSource) -> ActionResult:
        raise unknown_action(request.action, self.actions())

    def lapsed_by_reaction(self, conditions: Iterable[str]) -> tuple[str, ...]:
        return ()

    def turn_rolls(self, moment: Moment, bearer: Bearer) -> tuple[Due, ...]:
        return ()

    def roll_due(self, due: Due, bearer: Bearer, source: DiceSource) -> ActionResult:
        raise RulesError(Message("turns.due_unknown", rule=repr(due.rule)))

    def decisions(self, effects: Sequence[Effect]) -> tuple[Due, ...]:
        return ()

    def initiative_order(
        self, contenders: Sequence[Contender], source: DiceSource | None
    ) -> tuple[list[str], list[DieRoll]]:
        return initiative.order(contenders, source)

    def delayed_first(
        self, first: Sheet, second: Sheet, source: DiceSource
    ) -> tuple[int, list[DieRoll]]:
        raise RulesError(Message("turns.delay_no_rule"))


class AgilityTieBreaks:
    """The d100 games' tie-break for two delayed actions: an opposed Agility test
    (:func:`gmkit.systems._initiative.delayed_first`); mixed into their turn rules."""

    def delayed_first(
        self, first: Sheet, second: Sheet, source: DiceSource
    ) -> tuple[int, list[DieRoll]]:
        return initiative.delayed_first(
            (first.name, int(first.characteristics.Ag)),  # type: ignore[attr-defined]
            (second.name, int(second.characteristics.Ag)),  # type: ignore[attr-defined]
            source,
        )


def action_info(rules: TurnRules, action: str) -> ActionInfo:
    """The entry of ``action`` among ``rules.actions()``; RulesError naming the nearest."""
    offered = rules.actions()
    for info in offered:
        if info.id == action:
            return info
    raise unknown_action(action, offered)


def unknown_action(action: str, offered: Iterable[ActionInfo]) -> RulesError:
    known = tuple(info.id for info in offered)
    if not known:
        return RulesError(Message("turns.no_actions_in_game", action=repr(action)))
    near = difflib.get_close_matches(action, known, n=1)
    return RulesError(
        Message(
            "turns.unknown_action",
            action=repr(action),
            nearest=near[0] if near else known[0],
            known=known,
        )
    )


def checked_inputs(info: ActionInfo, given: Mapping[str, Any] | None) -> dict[str, Any]:
    """``given`` checked against the inputs ``info`` declares: an unknown input is refused
    naming the nearest, a flag must be a bool, a number a number, a choice one of its options;
    inputs not given are left out (the rules take their defaults)."""
    declared = {choice.id: choice for choice in info.inputs}
    checked: dict[str, Any] = {}
    for name, value in dict(given or {}).items():
        choice = declared.get(name)
        if choice is None:
            known = tuple(declared) or ("-",)
            near = difflib.get_close_matches(name, tuple(declared), n=1)
            raise RulesError(
                Message(
                    "turns.unknown_input",
                    action=info.label,
                    input=repr(name),
                    nearest=near[0] if near else known[0],
                    known=known,
                )
            )
        if value is None:
            continue
        if choice.kind == "flag" and not isinstance(value, bool):
            raise RulesError(Message("turns.input_flag", input=choice.label, value=repr(value)))
        if choice.kind == "number" and (
            isinstance(value, bool) or not isinstance(value, int | float)
        ):
            raise RulesError(Message("turns.input_number", input=choice.label, value=repr(value)))
        if choice.kind == "choice" and value not in choice.options:
            raise RulesError(
                Message(
                    "turns.input_choice",
                    input=choice.label,
                    value=repr(value),
                    options=choice.options,
                )
            )
        checked[name] = value
    return checked


def restriction_problems(
    restrictions: Iterable[Restriction],
    name: str,
    action_type: str,
    action: str,
    spent: Mapping[str, int],
    costs: Mapping[str, int],
) -> list[Message]:
    """Why the restrictions forbid ``name`` an action ``action`` (catalog id, "" for any) of
    ``action_type`` costing ``costs``, having ``spent`` these turn pools; [] when none does."""
    return [
        Message("turns.permit.restricted", name=name, why=rule.why)
        for rule in restrictions
        if rule.forbids(action_type, action, spent, costs)
    ]


__all__ = [
    "MOMENTS",
    "ActionInfo",
    "ActionRequest",
    "ActionResult",
    "AgilityTieBreaks",
    "Bearer",
    "Due",
    "Moment",
    "NoTurnRules",
    "Restriction",
    "TurnRules",
    "action_info",
    "checked_inputs",
    "restriction_problems",
    "unknown_action",
]
