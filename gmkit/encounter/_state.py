"""The encounter's state: plain immutable values, the fold of the event log.

Texts the state carries for the GM (a condition's ``reminder``, the ``reminders`` of the last
turn change) are :data:`~gmkit.messages.Text`: messages, rendered in the reader's language
(:meth:`EncounterState.reminder_texts`), or plain strings (what a GM typed, or a log written
before messages).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeVar

from gmkit.messages import Text, render
from gmkit.sheets.base import Sheet
from gmkit.systems.acting import Due

Tick = Literal["start_of_turn", "end_of_turn", "end_of_round", "never"]


_T = TypeVar("_T")


def evolve(value: _T, **changes: Any) -> _T:
    """``dataclasses.replace`` for the state's frozen values, without re-running ``__init__``.

    Folding calls this for nearly every event; copying the instance dict (or, for a slotted
    value, its slots) is several times faster than ``replace`` (bench/bench_fold.py). An
    unknown field name is refused, as ``replace`` refuses it.
    """
    try:
        current = value.__dict__
    except AttributeError:  # a slotted value (a condition, a trigger)
        return _evolve_slotted(value, changes)
    new = object.__new__(value.__class__)
    copied = new.__dict__
    copied.update(current)
    copied.update(changes)
    if len(copied) != len(current):
        unknown = ", ".join(sorted(changes.keys() - current.keys()))
        raise TypeError(f"{type(value).__name__} has no field {unknown}")
    return new


_new = object.__new__
_set = object.__setattr__


def _evolve_slotted(value: _T, changes: dict[str, Any]) -> _T:
    kind = value.__class__
    names: tuple[str, ...] = getattr(kind, "__slots__", ())
    if hasattr(kind, "__post_init__") or not names:  # one that checks itself: replace
        return replace(value, **changes)  # type: ignore[type-var]
    new = _new(kind)
    used = 0
    for name in names:
        if name in changes:
            _set(new, name, changes[name])
            used += 1
        else:
            _set(new, name, getattr(value, name))
    if used != len(changes):
        unknown = ", ".join(sorted(changes.keys() - set(names)))
        raise TypeError(f"{kind.__name__} has no field {unknown}")
    return new


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition on a combatant: ``rounds`` left (None: until removed), when it ticks."""

    name: str
    rounds: int | None = None
    ticks: Tick = "end_of_turn"
    reminder: Text = ""  # shown when it ticks: "on fire: 1d10 damage, WP test to act"


@dataclass(frozen=True, slots=True)
class Trigger:
    """A declared trigger (overwatch, a readied action) waiting to fire or expire."""

    owner: str
    kind: str
    detail: str = ""
    expires_round: int | None = None


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit of a mass-battle game on the table (WFB), as the GM set it
    (:mod:`gmkit.encounter._units`): its rank and file and champions when set, its troop type
    (``large_target`` None: the type's default), whether it is engaged in combat or in sight,
    the ``characters`` that joined it (combatant ids) and its ``trooper`` (the id of the
    combatant whose sheet is its rank and file's profile, "" for none). ``losses_from``: the
    wounds the trooper had lost when the unit was set (the models lost since are counted from
    the trooper's ``damage`` counter: :meth:`rank_and_file_left`)."""

    name: str
    side: str
    rank_and_file: int = 0
    champions: int = 0
    troop_type: str = "infantry"
    engaged: bool = False
    visible: bool = True
    characters: tuple[str, ...] = ()
    trooper: str = ""
    large_target: bool | None = None
    losses_from: int = 0

    def rank_and_file_left(self, trooper_damage: int, wounds_each: int = 1) -> int:
        """The rank and file left once the trooper has lost ``trooper_damage`` wounds in all:
        one model for every ``wounds_each`` wounds lost since the unit was set."""
        lost = max(0, trooper_damage - self.losses_from) // max(wounds_each, 1)
        return max(0, self.rank_and_file - lost)


@dataclass(frozen=True)
class Combatant:
    id: str
    sheet: Sheet
    side: str
    hidden: bool = False
    removed: bool = False
    group: str = ""
    initiative: int | None = None
    initiative_base: int = 0
    surprised: bool = False
    delayed: bool = False
    readied: str = ""
    conditions: Mapping[str, Condition] = field(default_factory=dict)
    counters: Mapping[str, int] = field(default_factory=dict)
    spent: Mapping[str, int] = field(default_factory=dict)  # turn pools spent
    reactions: Mapping[str, int] = field(default_factory=dict)  # round pools spent

    @property
    def name(self) -> str:
        return self.sheet.name

    def with_condition(self, condition: Condition) -> Combatant:
        return evolve(self, conditions={**self.conditions, condition.name: condition})

    def without_condition(self, name: str) -> Combatant:
        return evolve(self, conditions={k: v for k, v in self.conditions.items() if k != name})

    def counted(self, key: str, amount: int) -> Combatant:
        return evolve(self, counters={**self.counters, key: self.counters.get(key, 0) + amount})


@dataclass(frozen=True)
class EncounterState:
    """Everything the table needs to know, computed from the events alone."""

    game: str
    combatants: Mapping[str, Combatant] = field(default_factory=dict)
    order: tuple[str, ...] = ()  # initiative order (initiative games)
    sides: tuple[str, ...] = ()  # side order (sides games)
    round: int = 0  # 0: not started
    turn: int = 0  # index into order (initiative) or sides (sides)
    phase: int = 0  # index into the game's phases (sides games)
    triggers: tuple[Trigger, ...] = ()
    settings: Mapping[str, Any] = field(default_factory=dict)
    reminders: tuple[Text, ...] = ()  # what the last turn change asks the GM to do
    due: tuple[Due, ...] = ()  # the rolls the last turn change asks for, not yet rolled
    units: Mapping[str, Unit] = field(default_factory=dict)  # by name (mass-battle games)
    # what the GM measured, in the game's unit: {(a, b): distance}, a and b unit names or
    # combatant ids, the pair sorted
    distances: Mapping[tuple[str, str], float] = field(default_factory=dict)
    events: int = 0  # effective events folded

    @property
    def started(self) -> bool:
        return self.round > 0

    def reminder_texts(self, language: str = "en") -> tuple[str, ...]:
        """The :attr:`reminders` in ``language`` ("Sergeant Varro Tull: on fire ends")."""
        return tuple(render(reminder, language) for reminder in self.reminders)

    @property
    def present(self) -> list[Combatant]:
        return [c for c in self.combatants.values() if not c.removed]

    @property
    def current(self) -> Combatant | None:
        """Whose turn it is (initiative games), or None."""
        if self.round <= 0 or not self.order:  # (not started; read on every turn folded)
            return None
        return self.combatants[self.order[self.turn]]

    @property
    def current_side(self) -> str | None:
        if not self.started or not self.sides:
            return None
        return self.sides[self.turn]

    def combatant(self, ident: str) -> Combatant:
        return self.combatants[ident]

    def distance(self, a: str, b: str) -> float | None:
        """The distance the GM measured between ``a`` and ``b`` (either order), or None."""
        return self.distances.get((a, b) if a <= b else (b, a))

    def with_combatant(self, combatant: Combatant) -> EncounterState:
        return evolve(self, combatants={**self.combatants, combatant.id: combatant})
