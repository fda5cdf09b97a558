"""Text to dice tree, once. Errors name the position and what was expected there.

Why not avrae's ``d20`` package itself: its last release is from 2021, its dice draw from the
global ``random`` module (gmkit passes a dice source into every roll, seeded or typed in from
physical dice), it has no named bonuses (``1d10+SB``) and reads only a lower-case ``d``. gmkit
keeps d20's grammar shape on Lark, the parser d20 itself is built on.

A refusal's ``expected`` part (what would have been accepted) is a message of the ``dice``
catalog, so a panel shows the whole error in the GM's language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from lark import Lark, Token, Transformer, UnexpectedInput
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken, VisitError

from gmkit.dice._ast import Binary, Dice, Group, Keep, Literal, Named, Negative, Node, walk
from gmkit.errors import DiceSyntaxError
from gmkit.messages import Message

MAX_LENGTH = 200
MAX_DICE = 100
MAX_SIDES = 1000
MAX_LITERAL = 1_000_000

_DICE_PARTS = re.compile(r"([0-9]*)[dD]([0-9]+|%)(?:([kKdD][hHlL])([0-9]+))?")
_ENDS_WITH_DIE = re.compile(r"[dD](?:[0-9]+|%)$")
_KEEP_MODE = re.compile(r"[kKdD][hHlL]")
_SIDES = re.compile(r"[0-9]|%")

# What each terminal is called in an error message (dice.expected.<name>), in this order.
_EXPECTED = {
    "DICE": "dice.expected.die",
    "INT": "dice.expected.number",
    "NAME": "dice.expected.bonus_name",
    "LPAR": "dice.expected.open_parenthesis",
    "PLUS": "dice.expected.plus",
    "MINUS": "dice.expected.minus",
    "TIMES": "dice.expected.times",
    "DIVIDE": "dice.expected.divide",
    "RPAR": "dice.expected.close_parenthesis",
    "$END": "dice.expected.end",
}


def _syntax(text: str, position: int, expected: Message) -> DiceSyntaxError:
    """The refusal of ``text`` at ``position``, ``expected`` saying what would fit there."""
    # DiceSyntaxError formats ``expected`` into its message, so a Message is what it shows;
    # gmkit/errors.py still annotates the parameter as ``str``.
    return DiceSyntaxError(text, position, expected)


@dataclass(frozen=True, slots=True)
class Expression:
    """A parsed dice expression. ``str()`` gives canonical text that parses to an equal tree."""

    root: Node

    def __str__(self) -> str:
        return str(self.root)

    @property
    def dice(self) -> tuple[Dice, ...]:
        """The dice terms in rolling order."""
        return tuple(node for node in walk(self.root) if isinstance(node, Dice))

    @property
    def names(self) -> frozenset[str]:
        """The named bonuses the expression needs from a profile (``{"SB"}``)."""
        return frozenset(node.name for node in walk(self.root) if isinstance(node, Named))

    @property
    def is_constant(self) -> bool:
        return not self.dice


@cache
def _parser() -> Lark:
    grammar = resources.files("gmkit.dice").joinpath("grammar.lark").read_text("utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=False, maybe_placeholders=False)


def _expected(names: set[str] | frozenset[str]) -> Message:
    order = list(_EXPECTED)
    known = sorted((n for n in names if n in _EXPECTED), key=order.index)
    wanted = tuple(Message(_EXPECTED[n]) for n in known)
    if not wanted:
        return Message("dice.expected.expression")
    if len(wanted) == 1:
        return wanted[0]
    return Message("dice.either", items=wanted[:-1], last=wanted[-1])


def _accepted_at(text: str, position: int) -> set[str]:
    """The terminals the grammar accepts at ``position``, after the text before it.

    Lark's own ``expected`` sets come from the LALR state where the error surfaced, after any
    reductions the bad token triggered, so they can both miss ("(1d6": no '*') and over-offer
    ("2x": ')'). Feeding the prefix alone and asking which terminal may come next is exact.
    """
    interactive = _parser().parse_interactive(text[:position])
    interactive.exhaust_lexer()
    return set(interactive.accepts())


def _refusal(text: str, position: int) -> DiceSyntaxError:
    """The error for ``text`` going wrong at ``position``, with a hint for common slips."""
    if _KEEP_MODE.match(text, position) and _ENDS_WITH_DIE.search(text, 0, position):
        # "4d6kh": the keep/drop amount is missing, not an operator.
        return _syntax(text, position + 2, Message("dice.expected.keep_amount"))
    letter = text[position : position + 1]
    after_count = position > 0 and text[position - 1].isdigit()
    if (letter == "d" or (letter == "D" and after_count)) and not _SIDES.match(text, position + 1):
        # "1d", "d", "2D": a die without its sides.
        return _syntax(text, position + 1, Message("dice.expected.sides"))
    return _syntax(text, position, _expected(_accepted_at(text, position)))


class _ToTree(Transformer[Token, Node]):
    def __init__(self, text: str) -> None:
        super().__init__()
        self._text = text

    def dice(self, items: list[Token]) -> Dice:
        (token,) = items
        match = _DICE_PARTS.fullmatch(str(token))
        assert match is not None  # the DICE terminal has this shape
        count_text, sides_text, mode, amount = match.groups()
        start = token.start_pos or 0
        count = int(count_text) if count_text else 1
        if not 1 <= count <= MAX_DICE:
            raise _syntax(self._text, start, Message("dice.expected.dice_count", most=MAX_DICE))
        sides = 100 if sides_text == "%" else int(sides_text)
        if not 2 <= sides <= MAX_SIDES:
            where = start + len(count_text) + 1
            raise _syntax(self._text, where, Message("dice.expected.die_sides", most=MAX_SIDES))
        keep = Keep(mode.lower(), int(amount)) if mode else None  # type: ignore[arg-type]
        if keep is not None and keep.amount > count:
            where = start + len(str(token)) - len(amount)
            raise _syntax(self._text, where, Message("dice.expected.keep_at_most", count=count))
        return Dice(count=count, sides=sides, keep=keep, written=str(token))

    def literal(self, items: list[Token]) -> Literal:
        (token,) = items
        value = int(token)
        if value > MAX_LITERAL:
            expected = Message("dice.expected.number_up_to", most=MAX_LITERAL)
            raise _syntax(self._text, token.start_pos or 0, expected)
        return Literal(value)

    def named(self, items: list[Token]) -> Named:
        (token,) = items
        return Named(str(token))

    def negative(self, items: list[Token | Node]) -> Negative:
        return Negative(items[-1])  # type: ignore[arg-type]

    def group(self, items: list[Node]) -> Group:
        (inner,) = items
        return Group(inner)

    def binary(self, items: list[Token | Node]) -> Binary:
        left, operator, right = items
        return Binary(str(operator), left, right)  # type: ignore[arg-type]


def parse(text: str) -> Expression:
    """Parse ``text`` ("1d10+4", "2d10", "d%", "D6", "4d6kh3", "1d10+SB") into an Expression.

    Raises :class:`~gmkit.errors.DiceSyntaxError` naming the position and what was expected.
    """
    if not isinstance(text, str):
        raise _syntax(repr(text), 0, Message("dice.expected.text"))
    return _parse(text)


@lru_cache(maxsize=1024)
def _parse(text: str) -> Expression:
    if len(text) > MAX_LENGTH:
        expected = Message("dice.expected.length", most=MAX_LENGTH)
        raise _syntax(text, MAX_LENGTH, expected)
    if not text.strip():
        raise _syntax(text, len(text), Message("dice.expected.example"))
    try:
        tree = _parser().parse(text)
        root = _ToTree(text).transform(tree)
    except UnexpectedCharacters as error:
        raise _refusal(text, error.pos_in_stream or 0) from None
    except UnexpectedToken as error:
        at_end = error.token.type == "$END"
        raise _refusal(text, len(text) if at_end else error.token.start_pos or 0) from None
    except UnexpectedEOF:
        raise _refusal(text, len(text)) from None
    except UnexpectedInput as error:  # any other shape Lark may report
        position = getattr(error, "pos_in_stream", 0) or 0
        raise _syntax(text, position, Message("dice.expected.expression")) from None
    except VisitError as error:  # Lark wraps errors raised inside the transformer; unwrap ours.
        if isinstance(error.orig_exc, DiceSyntaxError):
            raise error.orig_exc from None
        raise
    return Expression(root)
