"""Rolling an expression: a result tree that keeps every die, and its one-line rendering.

A roll's ``purpose`` is a message (or a plain name); each die of a roll of several dice is
``Message("dice.die_number", purpose=..., number=N)`` ("damage die 2"), and every refusal (a
bonus the profile lacks, a division by zero) is a message of the ``dice`` catalog.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gmkit.dice._ast import Binary, Dice, Group, Literal, Named, Negative, Node
from gmkit.dice._parser import Expression, parse
from gmkit.dice._sources import DiceSource, DieRoll, EnteredDice
from gmkit.errors import DiceValueError
from gmkit.messages import Message, Text, render


@dataclass(frozen=True, slots=True)
class DiceResult:
    """The dice of one term: every die rolled, and which of them were kept."""

    node: Dice
    rolls: tuple[DieRoll, ...]
    kept: tuple[bool, ...]

    @property
    def total(self) -> int:
        return sum(roll.value for roll, keep in zip(self.rolls, self.kept, strict=True) if keep)

    def __str__(self) -> str:
        shown = ", ".join(
            str(roll.value) if keep else f"~~{roll.value}~~"
            for roll, keep in zip(self.rolls, self.kept, strict=True)
        )
        return f"{self.node} ({shown})"


@dataclass(frozen=True, slots=True)
class ValueResult:
    """A number, or a named bonus as read from the profile (``SB=4``)."""

    node: Literal | Named
    total: int

    def __str__(self) -> str:
        return (
            f"{self.node.name}({self.total})" if isinstance(self.node, Named) else str(self.total)
        )


@dataclass(frozen=True, slots=True)
class OperationResult:
    node: Negative | Group | Binary
    operands: tuple[Result, ...]
    total: int

    def __str__(self) -> str:
        match self.node:
            case Negative():
                return f"-{self.operands[0]}"
            case Group():
                return f"({self.operands[0]})"
            case Binary(operator=operator):
                return f"{self.operands[0]} {operator} {self.operands[1]}"


Result = DiceResult | ValueResult | OperationResult


@dataclass(frozen=True, slots=True)
class Roll:
    """A rolled expression: its total, the result tree and every die in rolling order."""

    expression: Expression
    result: Result
    purpose: Text
    dice: tuple[DieRoll, ...] = field(default=())

    @property
    def total(self) -> int:
        return self.result.total

    def explain(self) -> Message:
        """The roll in one line: "damage: 1d10+SB = 1d10 (7) + SB(4) = 11"."""
        return Message(
            "dice.roll",
            purpose=self.purpose,
            expression=str(self.expression),
            result=str(self.result),
            total=self.total,
        )

    def __str__(self) -> str:
        return render(self.explain())


def _apply(operator: str, left: int, right: int, purpose: Text, term: str) -> int:
    if operator == "+":
        return left + right
    if operator == "-":
        return left - right
    if operator == "*":
        return left * right
    if right == 0:
        raise DiceValueError(Message("dice.division_by_zero", purpose=purpose, term=term))
    return left // right  # the games round down


def resolve_name(name: str, names: Mapping[str, int], purpose: Text) -> int:
    """The value of the bonus ``name`` in ``names``; DiceValueError if it is not there, or not
    a whole number."""
    if name not in names:
        known = tuple(sorted(names))
        if known:
            problem = Message("dice.unknown_bonus", purpose=purpose, name=name, known=known)
        else:
            problem = Message("dice.unknown_bonus_none_known", purpose=purpose, name=name)
        raise DiceValueError(problem)
    value = names[name]
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        number = None
    if number is None or (isinstance(value, float) and number != value):
        raise DiceValueError(
            Message("dice.bonus_not_whole", purpose=purpose, name=name, value=repr(value))
        )
    return number


def roll(
    expression: Expression | str,
    source: DiceSource,
    purpose: Text,
    names: Mapping[str, int] | None = None,
) -> Roll:
    """Roll ``expression`` with dice from ``source``; named bonuses come from ``names``.

    Each die's purpose is ``purpose`` when the expression has one die, else the message
    ``dice.die_number`` ("damage die 2"), numbered across the whole expression. A missing
    bonus, or typed values (:class:`EnteredDice`) too few or wrong for the dice, are refused
    before any die is taken. A division by zero raises :class:`DiceValueError` (after the dice
    were rolled).
    """
    parsed = parse(expression) if isinstance(expression, str) else expression
    bonuses = names or {}
    for name in sorted(parsed.names):  # refuse before any die is consumed
        resolve_name(name, bonuses, purpose)
    sides = [term.sides for term in parsed.dice for _ in range(term.count)]
    purposes: list[Text] = (
        [purpose]
        if len(sides) == 1
        else [
            Message("dice.die_number", purpose=purpose, number=n) for n in range(1, len(sides) + 1)
        ]
    )
    if isinstance(source, EnteredDice):  # all the typed values or none of them
        source.check(zip(sides, purposes, strict=True))
    counter = [0]
    rolled: list[DieRoll] = []

    def die_purpose() -> Text:
        counter[0] += 1
        return purposes[counter[0] - 1]

    def evaluate(node: Node) -> Result:
        match node:
            case Dice(count=count, sides=sides, keep=keep):
                rolls = tuple(source.roll_die(sides, die_purpose()) for _ in range(count))
                rolled.extend(rolls)
                kept = [True] * count
                if keep is not None:
                    order = sorted(
                        range(count), key=lambda i: rolls[i].value, reverse=keep.keeps_highest()
                    )
                    keep_set = set(order[: keep.kept_count(count)])
                    kept = [i in keep_set for i in range(count)]
                return DiceResult(node, rolls, tuple(kept))
            case Literal(value=value):
                return ValueResult(node, value)
            case Named(name=name):
                return ValueResult(node, resolve_name(name, bonuses, purpose))
            case Negative(operand=operand):
                inner = evaluate(operand)
                return OperationResult(node, (inner,), -inner.total)
            case Group(inner=inner_node):
                inner = evaluate(inner_node)
                return OperationResult(node, (inner,), inner.total)
            case Binary(left=left_node, right=right_node):
                left = evaluate(left_node)
                right = evaluate(right_node)
                value = _apply(node.operator, left.total, right.total, purpose, str(node))
                return OperationResult(node, (left, right), value)
        raise TypeError(f"not a dice node: {node!r}")  # pragma: no cover

    result = evaluate(parsed.root)
    return Roll(parsed, result, purpose, tuple(rolled))
