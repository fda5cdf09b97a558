"""Where dice values come from: every :class:`DiceSource` gmkit has, in one place.

Every rule that rolls takes a source. Each die it produces is a :class:`DieRoll` that records
the die, the value, why it was rolled (``purpose``, a message) and whether a person rolled it
by hand; the source keeps them all in ``history``, in order.

- :class:`SeededDice`: digital dice from a seeded generator (the same seed, the same rolls).
- :class:`EnteredDice`: the values the table rolled, typed; when they run out, the next die
  raises :class:`~gmkit.errors.NeedDie` (a typed "roll this die" signal a panel asks for).
- :class:`ReplayedDice`: the dice of a result already shown, given again in order (applying a
  shown result never rolls anew); past them, :class:`~gmkit.errors.NeedDie`.
- :class:`ScriptedDice`: values a program chooses, then a fill value, recording the size of
  every die asked for: how the odds engines run a rule over every face of its dice.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from gmkit.errors import DiceValueError, NeedDie
from gmkit.messages import Message, Text, render


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One die: ``sides``, the ``value`` it showed, its ``purpose``, physical or digital."""

    sides: int
    value: int
    purpose: Text
    physical: bool

    @property
    def die(self) -> str:
        return f"d{self.sides}"

    def __str__(self) -> str:
        how = "physical" if self.physical else "digital"
        return f"{self.die}={self.value} ({render(self.purpose)}, {how})"


@runtime_checkable
class DiceSource(Protocol):
    """Anything that can roll one die for a stated purpose and remembers what it rolled."""

    history: list[DieRoll]

    def roll_die(self, sides: int, purpose: Text) -> DieRoll: ...


class SeededDice:
    """Digital dice from a seeded generator: the same seed gives the same rolls."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)
        self.history: list[DieRoll] = []

    def roll_die(self, sides: int, purpose: Text) -> DieRoll:
        if sides < 1:
            raise DiceValueError(Message("dice.no_sides", purpose=purpose, sides=sides))
        roll = DieRoll(sides, self._random.randint(1, sides), purpose, physical=False)
        self.history.append(roll)
        return roll

    def __repr__(self) -> str:
        return f"SeededDice(seed={self.seed!r}, rolled={len(self.history)})"


def read_die(sides: int, typed: int | str, purpose: Text) -> int:
    """The value a physical die shows, as a GM types it.

    A d100 typed ``"00"`` (or ``0``) is 100, and a d10 typed ``0`` is 10, as the dice read.
    Anything a die of ``sides`` sides cannot show is refused, naming the die and the purpose.
    """
    text = str(typed).strip()
    # isascii: str.isdigit() also accepts "²" and other digits int() refuses or misreads.
    if isinstance(typed, bool) or not (text.isascii() and text.isdigit()):
        raise DiceValueError(
            Message("dice.not_a_number", purpose=purpose, typed=repr(typed), sides=sides)
        )
    value = int(text)
    if value == 0 and sides in (10, 100):
        value = sides
    if not 1 <= value <= sides:
        which = {100: "dice.cannot_show_d100", 10: "dice.cannot_show_d10"}.get(sides)
        raise DiceValueError(
            Message(which or "dice.cannot_show", purpose=purpose, typed=text, sides=sides)
        )
    return value


class EnteredDice:
    """Values the GM typed from physical dice, used in order.

    ``EnteredDice([53, "00", 7])``: the first die rolled is 53, then 100, then 7. When the
    values run out, the next roll raises :class:`~gmkit.errors.NeedDie` saying which die is
    wanted and why, so a panel can ask for it and ``enter`` it.
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

    def check(self, dice: Iterable[tuple[int, Text]]) -> None:
        """Refuse now, consuming nothing, if the ``(sides, purpose)`` dice cannot all be rolled.

        Raises what the first failing ``roll_die`` would raise, so a roll of several dice
        takes all its values or none of them.
        """
        pending = list(self._pending)
        for index, (sides, purpose) in enumerate(dice):
            if index >= len(pending):
                raise NeedDie(sides, purpose, len(self.history) + index)
            read_die(sides, pending[index], purpose)

    def roll_die(self, sides: int, purpose: Text) -> DieRoll:
        if not self._pending:
            raise NeedDie(sides, purpose, len(self.history))
        value = read_die(sides, self._pending[0], purpose)
        self._pending.popleft()  # only a valid value is consumed
        roll = DieRoll(sides, value, purpose, physical=True)
        self.history.append(roll)
        return roll

    def __repr__(self) -> str:
        return f"EnteredDice(pending={list(self._pending)!r}, rolled={len(self.history)})"


class ReplayedDice:
    """Dice given again in order: each ``(sides, value)`` (or :class:`DieRoll`, keeping whether
    it was physical) as it was rolled. A die of other sides than recorded is refused (the rules
    asked for other dice: the situation changed); past the last, :class:`NeedDie`."""

    def __init__(self, rolls: Iterable[DieRoll | tuple[int, int]]) -> None:
        self._rolls: deque[tuple[int, int, bool]] = deque(
            (r.sides, r.value, r.physical) if isinstance(r, DieRoll) else (r[0], r[1], False)
            for r in rolls
        )
        self.history: list[DieRoll] = []

    @property
    def left(self) -> int:
        return len(self._rolls)

    def roll_die(self, sides: int, purpose: Text) -> DieRoll:
        if not self._rolls:
            raise NeedDie(sides, purpose, len(self.history))
        wanted, value, physical = self._rolls[0]
        if wanted != sides:
            raise DiceValueError(Message("dice.replay_mismatch", purpose=purpose))
        self._rolls.popleft()
        roll = DieRoll(sides, value, purpose, physical)
        self.history.append(roll)
        return roll


class ScriptedDice:
    """Dice showing the ``values`` a program chooses, then ``rest``, recording every die.

    The odds engines drive it to run a rule function once per combination of faces
    (:func:`gmkit.odds._percentile.outcomes`), or once per face of one die (``faces``). Past
    ``limit`` dice it stops choosing: each further die reads ``rest``, is recorded as a
    one-sided die in ``sides`` and counts in ``cut`` (a chain followed only so far). A value
    beyond a die's faces is shown as the nearest face.
    """

    def __init__(self, values: Sequence[int] = (), rest: int = 1, limit: int | None = None) -> None:
        self.values: list[int] = list(values)
        self.rest = rest
        self.limit = limit
        self.sides: list[int] = []
        self.index = 0
        self.cut = 0
        self.history: list[DieRoll] = []

    def play(self, values: Sequence[int]) -> ScriptedDice:
        """Start again with ``values`` (the same source, reused)."""
        self.values, self.sides, self.index, self.cut = list(values), [], 0, 0
        self.history = []
        return self

    def roll_die(self, sides: int, purpose: Text) -> DieRoll:
        index = self.index
        beyond = self.limit is not None and index >= self.limit
        if beyond:
            self.cut += 1
        if index < len(self.values):
            value = self.values[index]
        else:
            value = self.rest
            self.values.append(value)
        if index < len(self.sides):
            self.sides[index] = 1 if beyond else sides
        else:
            self.sides.append(1 if beyond else sides)
        self.index += 1
        roll = DieRoll(sides, min(max(value, 1), sides), purpose, physical=False)
        self.history.append(roll)
        return roll


def check_dice(source: DiceSource, dice: Iterable[tuple[int, Text]]) -> None:
    """Refuse now, consuming nothing, when typed dice cannot cover ``dice`` (a source with a
    ``check``: :class:`EnteredDice`); any other source rolls what it is asked."""
    check = getattr(source, "check", None)
    if check is not None:
        check(list(dice))


__all__ = [
    "DiceSource",
    "DieRoll",
    "EnteredDice",
    "ReplayedDice",
    "ScriptedDice",
    "SeededDice",
    "check_dice",
    "read_die",
]
