"""gmkit's own errors: every refusal names what was wrong, where, and why.

A GM types fast; an error must say which field (or which character of a dice expression)
is wrong and what was expected, in one line. An error carries its text as a
:class:`~gmkit.messages.Message` (``error.message``), so a panel shows it in the GM's language;
``str(error)`` is the English.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gmkit.messages import Message, Text, render


class GmkitError(Exception):
    """Base of every error gmkit raises on purpose. ``message`` is the text as data."""

    message: Text

    def __init__(self, message: Text = "") -> None:
        self.message = message
        super().__init__(render(message))

    def render(self, language: str = "en") -> str:
        """The error in ``language``."""
        return render(self.message, language)


class DiceError(GmkitError):
    """A dice expression or a die's value was refused."""


class DiceSyntaxError(DiceError, ValueError):
    """A dice expression could not be parsed.

    ``position`` is the 0-based index in ``text`` where parsing failed; ``expected`` says
    what would have been accepted there.
    """

    def __init__(self, text: str, position: int, expected: Text) -> None:
        self.text = text
        self.position = position
        self.expected = expected
        at_end = position >= len(text)
        found = Message("dice.end_of_expression") if at_end else repr(text[position])
        super().__init__(
            Message(
                "dice.syntax",
                text=repr(text),
                position=position + 1,
                found=found,
                expected=expected,
            )
        )


class DiceValueError(DiceError, ValueError):
    """A value entered for a physical die cannot come from that die, or a name is unknown."""


class NeedDie(DiceValueError):
    """The rules need one more physical die: a typed signal, not a failure.

    ``sides`` and ``purpose`` say which die to roll and why; ``index`` is how many dice were
    rolled before it (0 for the first). A panel asks the table for that die and resolves again.
    """

    def __init__(self, sides: int, purpose: Text, index: int = 0) -> None:
        self.sides = sides
        self.purpose = purpose
        self.index = index
        super().__init__(Message("dice.need_die", purpose=purpose, sides=sides))


class NeedDice(NeedDie):
    """:class:`NeedDie` from an attack given too few typed dice, saying what it needs now
    and what may follow (``plan``: a :class:`~gmkit.systems._dice_plan.DicePlan` after the
    values typed), so the dice can be typed in one go rather than one failure at a time."""

    def __init__(self, sides: int, purpose: Text, index: int, plan: Any) -> None:
        super().__init__(sides, purpose, index)
        self.plan = plan
        if plan.summary is not None:
            GmkitError.__init__(
                self, Message("dice.need_dice", need=self.message, plan=plan.summary)
            )


class LeftoverDice(DiceError, ValueError):
    """An attack given more typed dice than it took: ``values`` left over, ``used`` taken."""

    def __init__(self, values: Sequence[int | str], used: int) -> None:
        self.values = tuple(values)
        self.used = used
        shown = tuple(str(value) for value in self.values)
        super().__init__(Message("dice.left_over", count=len(shown), values=shown, used=used))


PROBLEMS_SHOWN = 10
"""The most problems of one sheet an error lists (``problems`` keeps them all)."""


class SheetError(GmkitError, ValueError):
    """A character sheet (or roster row) was refused.

    ``problems`` lists ``(field, message)`` pairs; ``character`` names the sheet.
    """

    def __init__(self, character: Text, problems: Sequence[tuple[str, Text]]) -> None:
        self.character = character
        self.problems = list(problems)
        listed: tuple[Text, ...] = tuple(
            Message("sheets.field_problem", field=repr(field)[:60], problem=problem)
            for field, problem in self.problems[:PROBLEMS_SHOWN]
        )
        if len(self.problems) > PROBLEMS_SHOWN:  # a file of 998 wrong columns: a line, not 115 KB
            listed += (Message("sheets.more_problems", count=len(self.problems) - PROBLEMS_SHOWN),)
        named = repr(character) if isinstance(character, str) else character
        super().__init__(Message("sheets.character_problems", character=named, problems=listed))


class RulesError(GmkitError, ValueError):
    """A request the rules refuse: an illegal action, weapon mode or circumstance.

    The message names the field of the request and the problem.
    """


__all__ = [
    "PROBLEMS_SHOWN",
    "DiceError",
    "DiceSyntaxError",
    "DiceValueError",
    "GmkitError",
    "LeftoverDice",
    "NeedDice",
    "NeedDie",
    "RulesError",
    "SheetError",
]
