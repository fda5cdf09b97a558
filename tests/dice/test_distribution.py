"""Exact distributions, checked against hand-computed fractions and against seeded rolling."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction as F

import pytest

from gmkit.dice import SeededDice, distribution, parse, roll
from gmkit.errors import DiceValueError


def test_two_d6() -> None:
    expected = {total: F(6 - abs(total - 7), 36) for total in range(2, 13)}
    assert distribution("2d6").probabilities() == expected
    assert distribution("2d6").probability(7) == F(1, 6)
    assert distribution("2d6").probability(1) == 0


def test_one_d5_minus_three_is_uniform_from_minus_two_to_two() -> None:
    odds = distribution("1d5-3")
    assert odds.probabilities() == {n: F(1, 5) for n in range(-2, 3)}
    assert (odds.minimum, odds.maximum, odds.mean()) == (-2, 2, 0)


def test_four_d6_keep_highest_three() -> None:
    odds = distribution("4d6kh3")
    # 18 needs three or four sixes: 4 * 5 ways with exactly three, 1 with four.
    assert odds.probability(18) == F(21, 1296)
    # 17 is exactly two sixes (6 placings) with a five among the other two (25 - 16 pairs).
    assert odds.probability(17) == F(6 * 9, 1296)
    assert odds.probability(3) == F(1, 1296)  # four ones
    assert odds.mean() == F(15869, 1296)
    assert (odds.minimum, odds.maximum) == (3, 18)


def test_two_d10_keep_lowest_one() -> None:
    odds = distribution("2d10kl1")
    assert odds.probability(1) == F(19, 100)  # 1 - (9/10)^2
    assert odds.probabilities() == {k: F(21 - 2 * k, 100) for k in range(1, 11)}
    assert distribution("2d10kh1").probabilities() == {k: F(2 * k - 1, 100) for k in range(1, 11)}


def test_drop_lowest_is_keep_highest_and_dropping_all_is_zero() -> None:
    assert distribution("2d6dl1").probability(6) == F(11, 36)
    assert distribution("2d6dl1").probabilities() == distribution("2d6kh1").probabilities()
    assert distribution("3d6dh1").probabilities() == distribution("3d6kl2").probabilities()
    assert distribution("3d6dh3").probabilities() == {0: F(1)}


def test_percentile_die() -> None:
    for text in ("d%", "d100", "1d100"):
        odds = distribution(text)
        assert odds.mean() == F(101, 2)
        assert odds.probabilities() == {n: F(1, 100) for n in range(1, 101)}
    assert distribution("d%").at_most(35) == F(7, 20)
    assert distribution("d%").at_least(96) == F(1, 20)


def test_named_bonus_from_the_profile() -> None:
    odds = distribution("1d10+SB", {"SB": 4, "TB": 3})
    assert (odds.minimum, odds.maximum) == (5, 14)
    assert odds.probabilities() == {n: F(1, 10) for n in range(5, 15)}
    assert odds.mean() == F(19, 2)
    assert distribution("1d10+SB", {"SB": 0}).maximum == 10  # not the cached SB=4 answer


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3d6", {3: F(1, 216), 10: F(27, 216), 18: F(1, 216)}),
        ("1d6/2", {0: F(1, 6), 1: F(1, 3), 2: F(1, 3), 3: F(1, 6)}),
        ("-1d6/2", {-1: F(1, 3), -2: F(1, 3), -3: F(1, 3)}),
        ("1d6*1d6", {1: F(1, 36), 12: F(4, 36), 36: F(1, 36), 7: F(0)}),
        ("1d6-1d6", {0: F(1, 6), 5: F(1, 36), -5: F(1, 36)}),
        ("(1d4+1)*2", {4: F(1, 4), 10: F(1, 4), 5: F(0)}),
        ("2*3+SB", {7: F(1)}),
        ("100d100", {100: F(1, 100**100), 10_000: F(1, 100**100), 101: F(100, 100**100)}),
    ],
)
def test_hand_computed_points(text: str, expected: dict[int, F]) -> None:
    odds = distribution(text, {"SB": 1})
    assert {n: odds.probability(n) for n in expected} == expected


def _enumerate(dice: list[int], total: object) -> dict[int, F]:
    """Every face combination counted by hand, for a callable computing the total."""
    combos = list(itertools.product(*(range(1, s + 1) for s in dice)))
    counts = Counter(total(*faces) for faces in combos)  # type: ignore[operator]
    return {t: F(c, len(combos)) for t, c in counts.items()}


@pytest.mark.parametrize(
    ("text", "dice", "total"),
    [
        ("3d6kh2+1d4", [6, 6, 6, 4], lambda a, b, c, d: a + b + c - min(a, b, c) + d),
        ("2d6dl1-1d3", [6, 6, 3], lambda a, b, c: max(a, b) - c),
        ("(1d4+1)*1d3", [4, 3], lambda a, b: (a + 1) * b),
        ("1d8/1d3", [8, 3], lambda a, b: a // b),
        ("-1d8/1d3", [8, 3], lambda a, b: -a // b),
        ("1d6-(1d4-2)*2", [6, 4], lambda a, b: a - (b - 2) * 2),
        ("4d4dh1", [4, 4, 4, 4], lambda *f: sum(f) - max(f)),
    ],
)
def test_small_expressions_match_full_enumeration(
    text: str, dice: list[int], total: object
) -> None:
    assert distribution(text).probabilities() == _enumerate(dice, total)


@pytest.mark.parametrize(
    "text", ["2d6", "4d6kh3", "2d10kl1", "d%", "1d5-3", "3d6dh1*2-D3", "(2d8+1d20)/3", "5"]
)
def test_probabilities_sum_to_exactly_one(text: str) -> None:
    odds = distribution(text)
    assert sum(odds.probabilities().values()) == 1
    assert list(odds) == sorted(odds.probabilities())  # a Dist: its outcomes, in order
    assert odds.at_least(odds.minimum) == 1 == odds.at_most(odds.maximum)


@pytest.mark.parametrize(
    ("text", "names", "seed"),
    [("4d6kh3", {}, 11), ("2d10kl1+SB", {"SB": 4}, 12), ("1d6*1d6-1d4", {}, 13), ("d%/7", {}, 14)],
)
def test_a_large_seeded_sample_agrees_with_the_exact_distribution(
    text: str, names: dict[str, int], seed: int
) -> None:
    rolls = 20_000
    odds = distribution(text, names)
    source = SeededDice(seed)
    counts = Counter(roll(text, source, "sample", names).total for _ in range(rolls))
    assert set(counts) <= set(odds.probabilities())
    for outcome, p in odds.items():
        standard_error = math.sqrt(rolls * p * (1 - p))
        assert abs(counts[outcome] - rolls * p) <= 4.5 * standard_error + 1, outcome
    mean = odds.mean()
    variance = sum((o - mean) ** 2 * p for o, p in odds.items())
    sample_mean = F(sum(o * c for o, c in counts.items()), rolls)
    assert abs(sample_mean - mean) <= 4 * math.sqrt(variance / rolls)


def test_a_parsed_expression_is_accepted() -> None:
    assert distribution(parse("2d6")).probability(7) == F(1, 6)


def test_a_missing_bonus_is_refused() -> None:
    with pytest.raises(DiceValueError, match=r"^1d10\+SB: the bonus SB is not on this profile"):
        distribution("1d10+SB")
    with pytest.raises(DiceValueError, match="must be a whole number"):
        distribution("1d10+SB", {"SB": "x"})  # type: ignore[dict-item]


def test_a_possible_division_by_zero_is_refused() -> None:
    with pytest.raises(DiceValueError, match=r"^1d6/\(1d2-1\): division by zero is possible$"):
        distribution("1d6/(1d2-1)")
    with pytest.raises(DiceValueError, match="division by zero"):
        distribution("1d6/0")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2d1000kh1", r"^2d1000kh1: too many outcomes for an exact distribution$"),
        ("20d100kh20+1", r"^20d100kh20\+1: too many .* \(at 20d100kh20\)$"),
        ("50d100+50d100", r"^50d100\+50d100: too many outcomes for an exact distribution$"),
        ("((1d1000-1d1000)*2d1000)+1", r"too many .* \(at \(1d1000-1d1000\)\*2d1000\)$"),
    ],
)
def test_expressions_too_large_to_count_are_refused(text: str, message: str) -> None:
    with pytest.raises(DiceValueError, match=message):
        distribution(text)
