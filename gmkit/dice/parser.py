"""Text to dice tree, once. Errors name the position and what was expected there.

Why not avrae's ``d20`` package itself: its last release is from 2021, its dice draw from the
global ``random`` module (gmkit passes a dice source into every roll, seeded or typed in from
physical dice), it has no named bonuses (``1d10+SB``) and reads only a lower-case ``d``. gmkit
keeps d20's grammar shape on Lark, the parser d20 itself is built on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from lark import Lark, Token, Transformer, UnexpectedInput
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from gmkit.dice.ast import Binary, Dice, Group, Keep, Literal, Named, Negative, Node, walk
from gmkit.errors import DiceSyntaxError

MAX_LENGTH = 200
MAX_DICE = 100
MAX_SIDES = 1000
MAX_LITERAL = 1_000_000

_DICE_PARTS = re.compile(r"([0-9]*)[dD]([0-9]+|%)(?:([kKdD][hHlL])([0-9]+))?")

_EXPECTED = {
    "DICE": "a die such as d10 or 2D6",
    "INT": "a number",
    "NAME": "a bonus name such as SB (capital first)",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "TIMES": "'*'",
    "DIVIDE": "'/'",
    "LPAR": "'('",
    "RPAR": "')'",
    "$END": "the end of the expression",
}


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


def _expected(names: set[str] | frozenset[str]) -> str:
    wanted = sorted({_EXPECTED.get(name, repr(name)) for name in names if not name.startswith("_")})
    if not wanted:
        return "a dice expression"
    return ", ".join(wanted[:-1]) + (" or " if len(wanted) > 1 else "") + wanted[-1]


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
            raise DiceSyntaxError(self._text, start, f"a number of dice from 1 to {MAX_DICE}")
        sides = 100 if sides_text == "%" else int(sides_text)
        if not 2 <= sides <= MAX_SIDES:
            where = start + len(count_text) + 1
            raise DiceSyntaxError(self._text, where, f"a die of 2 to {MAX_SIDES} sides")
        keep = Keep(mode.lower(), int(amount)) if mode else None  # type: ignore[arg-type]
        if keep is not None and keep.amount > count:
            where = start + len(str(token)) - len(amount)
            raise DiceSyntaxError(self._text, where, f"at most {count}, the number of dice rolled")
        return Dice(count=count, sides=sides, keep=keep, written=str(token))

    def literal(self, items: list[Token]) -> Literal:
        (token,) = items
        value = int(token)
        if value > MAX_LITERAL:
            raise DiceSyntaxError(self._text, token.start_pos or 0, f"a number up to {MAX_LITERAL}")
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


@lru_cache(maxsize=1024)
def parse(text: str) -> Expression:
    """Parse ``text`` ("1d10+4", "2d10", "d%", "D6", "4d6kh3", "1d10+SB") into an Expression.

    Raises :class:`~gmkit.errors.DiceSyntaxError` naming the position and what was expected.
    """
    if not isinstance(text, str):
        raise DiceSyntaxError(repr(text), 0, "a dice expression as text")
    if len(text) > MAX_LENGTH:
        raise DiceSyntaxError(text, MAX_LENGTH, f"an expression of at most {MAX_LENGTH} characters")
    if not text.strip():
        raise DiceSyntaxError(text, len(text), "a dice expression such as 1d10+4")
    try:
        tree = _parser().parse(text)
        root = _ToTree(text).transform(tree)
    except UnexpectedCharacters as error:
        raise DiceSyntaxError(text, error.pos_in_stream, _expected(error.allowed)) from None
    except UnexpectedToken as error:
        position = error.token.start_pos if error.token.type != "$END" else len(text)
        raise DiceSyntaxError(text, position or 0, _expected(error.expected)) from None
    except UnexpectedEOF as error:
        raise DiceSyntaxError(text, len(text), _expected(set(error.expected))) from None
    except UnexpectedInput as error:  # any other shape Lark may report
        raise DiceSyntaxError(text, getattr(error, "pos_in_stream", 0) or 0, "a dice expression")
    except Exception as error:
        # Lark wraps errors raised inside the transformer; unwrap ours.
        inner = getattr(error, "orig_exc", None)
        if isinstance(inner, DiceSyntaxError):
            raise inner from None
        raise
    if isinstance(root, Token):  # a lone token the grammar inlined
        root = _ToTree(text).transform(tree)
    return Expression(root)
