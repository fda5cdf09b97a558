"""The Necromunda turn: sides take turns, each turn four phases, moves in a set order.

Data: ``systems/data/necromunda/turn.yaml`` (phases and the order of moves), replaceable by a
GM. The rules expose the sequence; the encounter drives it.

- A side's turn runs movement, shooting, close combat and recovery, each finished before the
  next (seed 000). In close combat fighters of both sides fight, whoever's turn it is.
- Inside the movement phase: charges first, then compulsory moves, then the rest
  (:func:`movement_group`, :func:`order_moves`, :func:`move_order_check`).

Choices where the texts are silent:

- Which side plays first is the scenario's (not in the seed): the encounter passes the sides
  in playing order. :class:`TurnPosition` counts ``round`` from 1: round 2 starts when the
  first side plays again; a side's Nth turn is round N.
- A failed charge moves in the charges group (it was declared as a charge).
- Down fighters' recovery rolls come at the end of the recovery phase
  (:func:`gmkit.systems.necromunda._injuries.recovery_phase`); rallying broken fighters is
  named but not implemented (the seed's rout rules are lost).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.systems._tables import table
from gmkit.systems.necromunda._state import Check

GAME = "necromunda"
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Phase:
    """One phase of a turn: its id, name, whether both sides act, and what it holds."""

    id: str
    name: str
    both_sides: bool
    steps: tuple[str, ...]

    @property
    def label(self) -> Message:
        """The phase's name (the data's: ``necromunda.phase.<id>``)."""
        return Message.term(f"necromunda.phase.{self.id}", self.name)


@dataclass(frozen=True, slots=True)
class MoveGroup:
    """A group of the movement phase's order, and the kinds of move that belong to it."""

    id: str
    name: str
    kinds: tuple[str, ...]

    @property
    def label(self) -> Message:
        """The group's name (the data's: ``necromunda.move_group.<id>``)."""
        return Message.term(f"necromunda.move_group.{self.id}", self.name)


def phases() -> tuple[Phase, ...]:
    """The phases of a turn, in order (data: ``turn.yaml``)."""
    return tuple(
        Phase(
            str(item["id"]),
            str(item["name"]),
            bool(item.get("both_sides", False)),
            tuple(str(step) for step in item.get("steps", ())),
        )
        for item in table(GAME, "turn")["phases"]
    )


def movement_order() -> tuple[MoveGroup, ...]:
    """The groups of the movement phase, in order (data: ``turn.yaml``)."""
    return tuple(
        MoveGroup(str(item["id"]), str(item["name"]), tuple(str(k) for k in item["kinds"]))
        for item in table(GAME, "turn")["movement_order"]
    )


def phase(phase_id: str) -> Phase:
    """The phase ``phase_id`` (``"movement"``, ``"shooting"``, ``"close_combat"``...)."""
    for found in phases():
        if found.id == phase_id:
            return found
    known = tuple(p.id for p in phases())
    raise RulesError(Message("necromunda.turn.unknown_phase", phase=repr(phase_id), known=known))


@dataclass(frozen=True, slots=True)
class TurnPosition:
    """Where the game stands: the round, whose turn (an index into the sides), which phase."""

    round: int
    side: int
    phase: str

    def side_name(self, sides: Sequence[str]) -> str:
        return sides[self.side]

    def acting_sides(self, sides: Sequence[str]) -> tuple[str, ...]:
        """The sides whose fighters act in this phase (both in close combat)."""
        if phase(self.phase).both_sides:
            return (sides[self.side], *(s for i, s in enumerate(sides) if i != self.side))
        return (sides[self.side],)

    def describe(self, sides: Sequence[str]) -> Message:
        """ "round 1, <side>'s turn, Movement phase"."""
        return Message(
            "necromunda.turn.position",
            round=self.round,
            side=sides[self.side],
            phase=phase(self.phase).label,
        )


def _check_sides(sides: Sequence[str]) -> None:
    if len(sides) < 2:
        raise RulesError(Message("necromunda.turn.two_sides", count=len(sides)))
    if len(set(sides)) != len(sides):
        raise RulesError(Message("necromunda.turn.sides_once"))


def start(sides: Sequence[str]) -> TurnPosition:
    """The first phase of the first side's first turn."""
    _check_sides(sides)
    return TurnPosition(1, 0, phases()[0].id)


def advance(position: TurnPosition, sides: Sequence[str]) -> TurnPosition:
    """The next phase; after the last phase, the next side's turn (a new round after all)."""
    _check_sides(sides)
    ids = [p.id for p in phases()]
    index = ids.index(phase(position.phase).id)
    if index + 1 < len(ids):
        return TurnPosition(position.round, position.side, ids[index + 1])
    next_side = (position.side + 1) % len(sides)
    return TurnPosition(position.round + (next_side == 0), next_side, ids[0])


def sequence(sides: Sequence[str], rounds: int) -> Iterator[TurnPosition]:
    """Every phase of ``rounds`` rounds, in playing order."""
    position = start(sides)
    while position.round <= rounds:
        yield position
        position = advance(position, sides)


def movement_group(kind: str) -> int:
    """The index of the movement-order group a move of ``kind`` belongs to."""
    for index, group in enumerate(movement_order()):
        if kind in group.kinds:
            return index
    known = tuple(k for g in movement_order() for k in g.kinds)
    raise RulesError(Message("necromunda.turn.unknown_move", kind=repr(kind), known=known))


def order_moves(moves: Sequence[tuple[T, str]]) -> list[tuple[T, str]]:
    """``(fighter, kind)`` pairs in the order the rules make them: charges, compulsory, rest.

    Within a group the player's order is kept (the rules let them move in any order).
    """
    return sorted(moves, key=lambda move: movement_group(move[1]))


def move_order_check(done: Sequence[str], kind: str) -> Check:
    """May a move of ``kind`` come now, after moves of the kinds ``done`` this phase?"""
    group = movement_group(kind)
    later = [k for k in done if movement_group(k) > group]
    name = movement_order()[group].label
    if later:
        after = movement_order()[movement_group(later[0])].label
        before = Message("necromunda.turn.must_come_before", group=name, after=after)
        return Check("movement order", False, before)
    return Check("movement order", True, Message("necromunda.turn.in_order", group=name))
