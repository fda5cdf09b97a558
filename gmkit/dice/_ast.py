"""The dice expression tree. Every node prints back to canonical text (``str(node)``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal as TypingLiteral

Operator = TypingLiteral["+", "-", "*", "/"]
KeepMode = TypingLiteral["kh", "kl", "dh", "dl"]


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep (``kh``/``kl``) or drop (``dh``/``dl``) the highest or lowest ``amount`` dice."""

    mode: KeepMode
    amount: int

    def kept_count(self, rolled: int) -> int:
        """How many of ``rolled`` dice count towards the total."""
        if self.mode in ("kh", "kl"):
            return min(self.amount, rolled)
        return max(rolled - self.amount, 0)

    def keeps_highest(self) -> bool:
        return self.mode in ("kh", "dl")

    def __str__(self) -> str:
        return f"{self.mode}{self.amount}"


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice of ``sides`` sides, e.g. ``2d10``, ``D6``, ``d%`` (100 sides), ``4d6kh3``.

    ``written`` keeps how the die was typed (``"D6"``, ``"d%"``, ``"1d10"``) so the tree prints
    back to what the GM wrote.
    """

    count: int
    sides: int
    keep: Keep | None = None
    written: str = ""

    def __str__(self) -> str:
        if self.written:
            return self.written
        face = "%" if self.sides == 100 and self.count == 1 else str(self.sides)
        return f"{self.count}d{face}{self.keep or ''}"


@dataclass(frozen=True, slots=True)
class Literal:
    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Named:
    """A bonus read from the character's profile when rolled: ``SB``, ``TB``, ``AgB``."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Negative:
    operand: Node

    def __str__(self) -> str:
        return f"-{self.operand}"


@dataclass(frozen=True, slots=True)
class Group:
    """Parentheses as written; kept so the expression prints back unchanged."""

    inner: Node

    def __str__(self) -> str:
        return f"({self.inner})"


@dataclass(frozen=True, slots=True)
class Binary:
    operator: Operator
    left: Node
    right: Node

    def __str__(self) -> str:
        return f"{self.left}{self.operator}{self.right}"


Node = Dice | Literal | Named | Negative | Group | Binary


def children(node: Node) -> tuple[Node, ...]:
    match node:
        case Negative(operand=operand):
            return (operand,)
        case Group(inner=inner):
            return (inner,)
        case Binary(left=left, right=right):
            return (left, right)
        case _:
            return ()


def walk(node: Node) -> Iterator[Node]:
    """Every node, depth first, left to right (the order dice are rolled in)."""
    yield node
    for child in children(node):
        yield from walk(child)
