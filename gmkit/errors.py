"""gmkit's own errors: every refusal names what was wrong, where, and why.

A GM types fast; an error must say which field (or which character of a dice expression)
is wrong and what was expected, in one line.
"""

from __future__ import annotations


class GmkitError(Exception):
    """Base of every error gmkit raises on purpose."""


class DiceError(GmkitError):
    """A dice expression or a die's value was refused."""


class DiceSyntaxError(DiceError, ValueError):
    """A dice expression could not be parsed.

    ``position`` is the 0-based index in ``text`` where parsing failed; ``expected`` says
    what would have been accepted there.
    """

    def __init__(self, text: str, position: int, expected: str) -> None:
        self.text = text
        self.position = position
        self.expected = expected
        found = text[position] if position < len(text) else "end of expression"
        shown = repr(found) if position < len(text) else found
        super().__init__(
            f"dice expression {text!r}: at position {position + 1} found {shown}, "
            f"expected {expected}"
        )


class DiceValueError(DiceError, ValueError):
    """A value entered for a physical die cannot come from that die, or a name is unknown."""


class SheetError(GmkitError, ValueError):
    """A character sheet (or roster row) was refused.

    ``problems`` lists ``(field, message)`` pairs; ``character`` names the sheet.
    """

    def __init__(self, character: str, problems: list[tuple[str, str]]) -> None:
        self.character = character
        self.problems = problems
        listed = "; ".join(f"field {field!r}: {message}" for field, message in problems)
        super().__init__(f"character {character!r}: {listed}")


class RulesError(GmkitError, ValueError):
    """A request the rules refuse: an illegal action, weapon mode or circumstance.

    The message names the field of the request and the problem.
    """
