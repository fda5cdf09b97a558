"""The D6 games' shared charts: to hit (with 7+) and Strength against Toughness."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gmkit.dice import EnteredDice
from gmkit.systems._sixes import chance, roll_needed, to_hit_needed, to_wound_needed
from gmkit.systems.base import Modifier


@pytest.mark.parametrize(("bs", "needed"), [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (6, 2), (9, 2)])
def test_to_hit_is_seven_minus_bs_never_better_than_two(bs, needed):
    assert to_hit_needed(bs) == needed


def test_the_novatos_laspistol_shot_needs_seven():
    # seed 000: BS 2 at long range (-1) against partial cover (-1): 7 - 2 + 1 + 1
    needed = to_hit_needed(2, [Modifier("Long range", -1), Modifier("Partial cover", -1)])
    assert needed == 7
    assert chance(needed) == Fraction(1, 6) * Fraction(3, 6)


@pytest.mark.parametrize(
    ("dice", "needed", "success", "rolled"),
    [
        ([6, 4], 7, True, 2),
        ([6, 3], 7, False, 2),
        ([5], 7, False, 1),
        ([6, 5], 8, True, 2),
        ([6, 4], 8, False, 2),
        ([6, 6], 9, True, 2),
        ([6, 5], 9, False, 2),
        ([1], 2, False, 1),
        ([2], 2, True, 1),
        ([4], 4, True, 1),
        ([3], 4, False, 1),
    ],
)
def test_rolls_against_the_needed_score(dice, needed, success, rolled):
    source = EnteredDice(dice)
    result = roll_needed(needed, source, "to hit")
    assert result.success is success
    assert len(result.rolls) == rolled
    assert source.pending == ()


def test_ten_or_more_cannot_hit_and_rolls_nothing():
    source = EnteredDice([6, 6])
    result = roll_needed(10, source, "to hit")
    assert result.success is False
    assert result.rolls == ()
    assert source.pending == (6, 6)
    assert chance(10) == 0
    assert chance(None) == 0


@pytest.mark.parametrize(
    ("strength", "toughness", "needed"),
    [
        (5, 3, 2),
        (9, 3, 2),
        (4, 3, 3),
        (3, 3, 4),
        (3, 4, 5),
        (3, 5, 6),
        (3, 6, 6),
        (3, 7, None),
        (1, 10, None),
    ],
)
def test_strength_against_toughness(strength, toughness, needed):
    assert to_wound_needed(strength, toughness) == needed


def test_exact_chances():
    assert chance(2) == Fraction(5, 6)
    assert chance(4) == Fraction(1, 2)
    assert chance(6) == Fraction(1, 6)
    assert chance(8) == Fraction(1, 6) * Fraction(2, 6)
    assert chance(9) == Fraction(1, 36)
