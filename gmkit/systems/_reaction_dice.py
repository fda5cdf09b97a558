"""A reaction chosen after the hit: where its die falls among the attack's dice, and its odds.

A GM resolves an attack without the target's reaction; it hits; the defender (a player, on
their phone) then chooses Dodge, Parry or to take it. The rules resolve a reaction inside the
attack (after the hit, before the damage), so the attack is resolved again with the reaction
chosen and the same dice: :func:`reaction_die` finds where the rules ask for a die the first
resolution did not (the reaction's test), and :class:`AnsweredDice` gives the attack's dice
again with the reaction's die there. Every die after it keeps its value by its purpose (a
hit's damage dice stay that hit's); those the reaction made unneeded (a negated hit's damage)
are skipped; one more than were rolled comes from ``then`` (gmkit's dice) or is asked for
(:class:`~gmkit.errors.NeedDie`, the table's dice).

:func:`reaction_odds`: the chance the reaction negates at least one hit, exactly, by resolving
once per face of its die (no game's rule here: the rules say what each face does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from gmkit.dice import DiceSource, DieRoll, ScriptedDice
from gmkit.errors import DiceValueError, NeedDie
from gmkit.messages import Message, Text
from gmkit.systems._dice_plan import PlannedDie
from gmkit.systems.base import AttackRequest, AttackResult, GameSystem


class _Asked(Exception):
    """The rules asked for a die the first resolution did not roll (at ``index``)."""

    def __init__(self, index: int, die: PlannedDie) -> None:
        super().__init__(index)
        self.index, self.die = index, die


class _Probe:
    """The attack's dice again while the rules ask for the same dice; the first other die
    stops the resolution (:class:`_Asked`)."""

    def __init__(self, used: Sequence[DieRoll]) -> None:
        self.used = tuple(used)
        self.history: list[DieRoll] = []

    def roll_die(self, sides: int, purpose: Text) -> DieRoll:
        index = len(self.history)
        if index < len(self.used):
            roll = self.used[index]
            if (roll.sides, roll.purpose) == (sides, purpose):
                self.history.append(roll)
                return roll
        raise _Asked(index, PlannedDie(sides, purpose))


@dataclass(frozen=True, slots=True)
class ReactionDie:
    """The reaction's die: ``at`` its place among the attack's dice, ``die`` which it is."""

    at: int
    die: PlannedDie


def reaction_die(
    rules: GameSystem, request: AttackRequest, used: Sequence[DieRoll]
) -> ReactionDie | None:
    """Where ``request`` (the attack with the reaction chosen) asks for a die the attack's
    ``used`` dice did not include; None when the reaction rolls nothing (none left, not
    possible against this attack: the rules say so in the result)."""
    try:
        rules.resolve_attack(request, _Probe(used))
    except _Asked as asked:
        return ReactionDie(asked.index, asked.die)
    return None


class AnsweredDice:
    """The attack's ``used`` dice with the reaction's ``roll`` at ``at`` (see the module
    docstring). ``roll`` None: the reaction's die comes from ``then`` too. ``then`` None: a
    die beyond those known raises :class:`~gmkit.errors.NeedDie` (the table rolls it)."""

    def __init__(
        self,
        used: Sequence[DieRoll],
        at: int | None,
        roll: DieRoll | None = None,
        then: DiceSource | None = None,
    ) -> None:
        self._before = tuple(used) if at is None else tuple(used[:at])
        self._after = [] if at is None else list(used[at:])
        self._at, self._roll, self._then = at, roll, then
        self.history: list[DieRoll] = []

    def roll_die(self, sides: int, purpose: Text) -> DieRoll:
        index = len(self.history)
        if index < len(self._before):
            roll = self._before[index]
            if roll.sides != sides:
                raise DiceValueError(Message("dice.replay_mismatch", purpose=purpose))
            return self._keep(DieRoll(sides, roll.value, purpose, roll.physical))
        if index == self._at and self._roll is not None:
            if self._roll.sides != sides:
                raise DiceValueError(Message("dice.replay_mismatch", purpose=purpose))
            return self._keep(DieRoll(sides, self._roll.value, purpose, self._roll.physical))
        if index != self._at:  # a die after the reaction's: the same purpose keeps its value
            for place, roll in enumerate(self._after):
                if (roll.sides, roll.purpose) == (sides, purpose):
                    del self._after[: place + 1]
                    return self._keep(roll)
        if self._then is None:
            raise NeedDie(sides, purpose, index)
        return self._keep(self._then.roll_die(sides, purpose))

    def _keep(self, roll: DieRoll) -> DieRoll:
        self.history.append(roll)
        return roll


def answered(
    rules: GameSystem,
    request: AttackRequest,
    used: Sequence[DieRoll],
    face: int | None,
    then: DiceSource | None,
    *,
    physical: bool = True,
) -> tuple[AttackResult | None, list[DieRoll], NeedDie | None]:
    """``request`` (the reaction chosen) resolved with the attack's ``used`` dice and the
    reaction's die showing ``face`` (None: from ``then``): its result, the dice it took, and
    the die it still needs (then the result is None)."""
    found = reaction_die(rules, request, used)
    roll = None
    if found is not None and face is not None:
        roll = DieRoll(found.die.sides, face, found.die.purpose, physical)
    source = AnsweredDice(used, None if found is None else found.at, roll, then)
    try:
        result = rules.resolve_attack(request, source)
    except NeedDie as need:
        return None, source.history, need
    return result, source.history, None


@dataclass(frozen=True, slots=True)
class ReactionOdds:
    """One reaction open to the defender: its ``odds`` of negating at least one of the hits,
    and its die (None: it rolls none; its odds are then what the rules say without one)."""

    reaction: str
    odds: Fraction
    die: PlannedDie | None


def reaction_odds(
    rules: GameSystem, request: AttackRequest, used: Sequence[DieRoll], hits: int
) -> ReactionOdds:
    """The odds of ``request``'s reaction (the option ``reaction`` set) against the attack
    that ``used`` dice resolved to ``hits`` hits without it: one resolution per face of its
    die, the dice after it shown as rolled (a die more: its lowest face)."""
    reaction = str(getattr(request.options, "reaction", "") or "")
    found = reaction_die(rules, request, used)
    if found is None:
        result = rules.resolve_attack(request, AnsweredDice(used, None, then=ScriptedDice()))
        return ReactionOdds(reaction, Fraction(int(result.hits < hits)), None)
    sides = found.die.sides
    negated = 0
    for face in range(1, sides + 1):
        roll = DieRoll(sides, face, found.die.purpose, False)
        source = AnsweredDice(used, found.at, roll, ScriptedDice())
        negated += rules.resolve_attack(request, source).hits < hits
    return ReactionOdds(reaction, Fraction(negated, sides), found.die)


__all__ = [
    "AnsweredDice",
    "ReactionDie",
    "ReactionOdds",
    "answered",
    "reaction_die",
    "reaction_odds",
]
