"""Where dice values come from: a seeded generator, or the physical dice the table rolled.

Every rule that rolls takes a :class:`DiceSource`. Each die it produces is a :class:`DieRoll`
that records the die, the value, why it was rolled and whether a person rolled it by hand; the
source keeps them all in ``history``, in order.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from gmkit.errors import DiceValueError


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One die: ``sides``, the ``value`` it showed, its ``purpose``, physical or digital."""

    sides: int
    value: int
    purpose: str
    physical: bool

    @property
    def die(self) -> str:
        return f"d{self.sides}"

    def __str__(self) -> str:
        how = "physical" if self.physical else "digital"
        return f"{self.die}={self.value} ({self.purpose}, {how})"


@runtime_checkable
class DiceSource(Protocol):
    """Anything that can roll one die for a stated purpose and remembers what it rolled."""

    history: list[DieRoll]

    def roll_die(self, sides: int, purpose: str) -> DieRoll: ...


class SeededDice:
    """Digital dice from a seeded generator: the same seed gives the same rolls."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)
        self.history: list[DieRoll] = []

    def roll_die(self, sides: int, purpose: str) -> DieRoll:
        if sides < 1:
            raise DiceValueError(f"{purpose}: a die needs at least one side (got d{sides})")
        roll = DieRoll(sides, self._random.randint(1, sides), purpose, physical=False)
        self.history.append(roll)
        return roll

    def __repr__(self) -> str:
        return f"SeededDice(seed={self.seed!r}, rolled={len(self.history)})"


def read_die(sides: int, typed: int | str, purpose: str) -> int:
    """The value a physical die shows, as a GM types it.

    A d100 typed ``"00"`` (or ``0``) is 100, and a d10 typed ``0`` is 10, as the dice read.
    Anything a die of ``sides`` sides cannot show is refused, naming the die and the purpose.
    """
    text = str(typed).strip()
    # isascii: str.isdigit() also accepts "²" and other digits int() refuses or misreads.
    if isinstance(typed, bool) or not (text.isascii() and text.isdigit()):
        raise DiceValueError(
            f"{purpose}: {typed!r} is not a number a d{sides} can show (type 1 to {sides})"
        )
    value = int(text)
    if value == 0 and sides in (10, 100):
        value = sides
    if not 1 <= value <= sides:
        hint = " ('00' reads 100)" if sides == 100 else (" (0 reads 10)" if sides == 10 else "")
        raise DiceValueError(
            f"{purpose}: {text} cannot come from a d{sides}; type 1 to {sides}{hint}"
        )
    return value


class EnteredDice:
    """Values the GM typed from physical dice, used in order.

    ``EnteredDice([53, "00", 7])``: the first die rolled is 53, then 100, then 7. When the
    values run out, the next roll raises :class:`DiceValueError` saying which die is wanted
    and why, so a panel can ask for it and ``enter`` it.
    """

    def __init__(self, values: Iterable[int | str] = ()) -> None:
        self._pending: deque[int | str] = deque(values)
        self.history: list[DieRoll] = []

    def enter(self, *values: int | str) -> None:
        """Queue more typed values."""
        self._pending.extend(values)

    @property
    def pending(self) -> tuple[int | str, ...]:
        return tuple(self._pending)

    def check(self, dice: Iterable[tuple[int, str]]) -> None:
        """Refuse now, consuming nothing, if the ``(sides, purpose)`` dice cannot all be rolled.

        Raises the :class:`DiceValueError` the first failing ``roll_die`` would raise, so a roll
        of several dice takes all its values or none of them.
        """
        pending = list(self._pending)
        for index, (sides, purpose) in enumerate(dice):
            if index >= len(pending):
                raise DiceValueError(f"{purpose}: roll a d{sides} and enter its value")
            read_die(sides, pending[index], purpose)

    def roll_die(self, sides: int, purpose: str) -> DieRoll:
        if not self._pending:
            raise DiceValueError(f"{purpose}: roll a d{sides} and enter its value")
        value = read_die(sides, self._pending[0], purpose)
        self._pending.popleft()  # only a valid value is consumed
        roll = DieRoll(sides, value, purpose, physical=True)
        self.history.append(roll)
        return roll

    def __repr__(self) -> str:
        return f"EnteredDice(pending={list(self._pending)!r}, rolled={len(self.history)})"
