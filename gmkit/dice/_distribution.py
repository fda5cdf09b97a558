"""Exact distributions of dice expressions, counted through icepool, as :class:`Dist`.

Refusals (too many outcomes to count, a division by zero that may happen, a bonus the profile
lacks) are :class:`~gmkit.errors.DiceValueError` with a message of the ``dice`` catalog.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import accumulate

import icepool

from gmkit.dice._ast import Binary, Dice, Group, Literal, Named, Negative, Node
from gmkit.dice._dist import Dist
from gmkit.dice._evaluate import resolve_name
from gmkit.dice._parser import Expression, parse
from gmkit.errors import DiceValueError
from gmkit.messages import Message

# Work limits, so an odds panel answers in about a second or says why it cannot.
MAX_PAIRS = 2_000_000  # outcome pairs combined by one + - * / of two random terms
MAX_KEEP_WORK = 2_000_000  # sides x dice x kept outcomes, icepool's keep/drop evaluation
MAX_KEEP_SIDES = 500  # icepool evaluates a pool recursively, one level per face


def _sum_of_dice(count: int, sides: int) -> icepool.Die:
    """``count``dX summed, counted exactly with running sums (icepool's ``@`` is far slower)."""
    ways = [1]  # ways[i]: the number of ways the dice so far total (their count) + i
    for _ in range(count):
        running = [0, *accumulate(ways)]
        ways = [
            running[min(i + 1, len(ways))] - running[max(i - sides + 1, 0)]
            for i in range(len(ways) + sides - 1)
        ]
    return icepool.Die({count + i: w for i, w in enumerate(ways)})


def _too_large(expression: Expression, part: str) -> DiceValueError:
    if part == str(expression):
        return DiceValueError(Message("dice.too_many_outcomes", expression=str(expression)))
    return DiceValueError(
        Message("dice.too_many_outcomes_at", expression=str(expression), part=part)
    )


def _dice_term(node: Dice, expression: Expression) -> icepool.Die:
    if node.keep is None:
        return _sum_of_dice(node.count, node.sides)
    kept = node.keep.kept_count(node.count)
    if kept == 0:
        return icepool.Die([0])
    work = node.sides * node.count * (kept * (node.sides - 1) + 1)
    if node.sides > MAX_KEEP_SIDES or work > MAX_KEEP_WORK:
        raise _too_large(expression, str(node))
    pool = icepool.d(node.sides).pool(node.count)
    chosen = pool.highest(kept) if node.keep.keeps_highest() else pool.lowest(kept)
    return chosen.sum()


@lru_cache(maxsize=512)
def _distribution(expression: Expression, names: tuple[tuple[str, int], ...]) -> Dist[int]:
    bonuses = dict(names)

    def build(node: Node) -> icepool.Die:
        match node:
            case Dice():
                return _dice_term(node, expression)
            case Literal(value=value):
                return icepool.Die([value])
            case Named(name=name):
                return icepool.Die([resolve_name(name, bonuses, str(expression))])
            case Negative(operand=operand):
                return -build(operand)
            case Group(inner=inner):
                return build(inner)
            case Binary(operator=operator, left=left, right=right):
                a, b = build(left), build(right)
                if len(a) * len(b) > MAX_PAIRS:
                    raise _too_large(expression, str(node))
                if operator == "+":
                    return a + b
                if operator == "-":
                    return a - b
                if operator == "*":
                    return a * b
                if 0 in b:
                    problem = Message("dice.division_by_zero_possible", expression=str(expression))
                    raise DiceValueError(problem)
                return a // b
        raise TypeError(f"not a dice node: {node!r}")  # pragma: no cover

    die = build(expression.root)
    counts = {int(outcome): int(count) for outcome, count in sorted(die.items()) if count}
    return Dist(counts, int(die.denominator()))


def distribution(expression: Expression | str, names: Mapping[str, int] | None = None) -> Dist[int]:
    """The exact distribution of ``expression``'s total, named bonuses read from ``names``."""
    parsed = parse(expression) if isinstance(expression, str) else expression
    bonuses = names or {}
    relevant = tuple(
        (name, resolve_name(name, bonuses, str(parsed)))
        for name in sorted(parsed.names)
        if name in bonuses  # a missing name is refused while building, naming the expression
    )
    return _distribution(parsed, relevant)
