"""The d100 odds machinery: exact weights, rules run on scripted dice, tests and locations."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from gmkit.dice import roll
from gmkit.odds._percentile import (
    Grid,
    OddsError,
    Residues,
    ScriptedDice,
    Weights,
    chances,
    location_chances,
    location_table,
    mix,
    mix_rows,
    outcomes,
    remap_rows,
    roll_table,
    stack,
    success_chance,
    to_dist,
    weighted,
)


def d6() -> Weights:
    return Weights.from_counts({v: 1 for v in range(1, 7)}, 6)


def test_weights_of_two_dice_are_exact_and_sum_to_one():
    two = d6().conv(d6())
    assert two.probability(7) == Fraction(1, 6)
    assert two.probability(2) == Fraction(1, 36)
    assert two.mass == 1
    assert two.at_least(11) == Fraction(3, 36)
    assert two.at_most(3) == Fraction(3, 36)
    assert two.mean() == 7
    assert to_dist(two).total() == 1
    assert to_dist(two)[12] == Fraction(1, 36)


def test_weights_switch_to_python_integers_past_int64_and_stay_exact():
    many = Weights.point(0)
    for _ in range(30):  # 6**30 is past 2**63
        many = many.conv(d6())
    assert many.counts.dtype == object
    assert many.mass == 1
    assert many.probability(30) == Fraction(1, 6**30)
    # the middle, counted again with Python's own integers: the ways 30 d6 sum to 105
    ways = [1]
    for _ in range(30):
        ways = [
            sum(ways[k - face] for face in range(1, 7) if 0 <= k - face < len(ways))
            for k in range(len(ways) + 6)
        ]
    assert many.probability(105) == Fraction(ways[105], 6**30)
    assert many.probability(104) == many.probability(106)  # symmetric about the middle
    assert sum(many.probabilities().values()) == 1


def test_mixtures_scaling_and_remapping_keep_every_weight():
    half = d6().scaled(Fraction(1, 2)) + Weights.point(10, Fraction(1, 2))
    assert half.mass == 1
    assert half.probability(10) == Fraction(1, 2)
    assert half.probability(3) == Fraction(1, 12)
    soaked = d6().remap(lambda v: max(0, v - 4))
    assert soaked.probabilities() == {0: Fraction(2, 3), 1: Fraction(1, 6), 2: Fraction(1, 6)}
    assert d6().where(lambda v: v > 4).mass == Fraction(1, 3)
    assert d6().where(lambda v: v > 4).conditional().probability(5) == Fraction(1, 2)
    assert Weights.empty().conv(d6()).is_empty
    assert (Weights.empty() + d6()) == d6()


def test_grids_mix_many_distributions_in_one_product():
    grid = stack([d6(), Weights.point(3), d6().shifted(2)])
    assert isinstance(grid, Grid)
    assert grid.rows.shape[0] == 3
    mixed = mix([Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], grid)
    assert mixed.mass == 1
    assert mixed.probability(3) == Fraction(1, 12) + Fraction(1, 4) + Fraction(1, 24)
    rows = mix_rows([[ONE_HALF, ONE_HALF, 0], [0, 0, Fraction(1)]], grid)
    assert rows.row(1) == d6().shifted(2)
    moved = remap_rows(
        rows, np.array([max(0, v - 3) for v in range(grid.lo, grid.lo + grid.width)])
    )
    assert moved.row(1).probability(0) == Fraction(1, 6)


ONE_HALF = Fraction(1, 2)


def test_residues_convolve_past_int64_and_come_back_exact():
    big = Weights.point(0)
    for _ in range(12):
        big = big.conv(d6().scaled(Fraction(7, 9)) + Weights.point(20, Fraction(2, 9)))
    assert big.counts.dtype == object
    other = d6().conv(d6()).conv(big)
    primes = Residues.primes_for(big.den * other.den)
    found = Residues.of(big, 1, primes).conv(Residues.of(other, 1, primes), primes)
    assert found.exact(big.den * other.den, primes) == big.conv(other)
    doubled = Residues.of(big, 3, primes).plus(Residues.of(big, 5, primes), primes)
    assert doubled.exact(big.den * 8, primes) == big


def test_outcomes_run_the_rule_on_every_combination_of_its_dice():
    found, den = weighted(outcomes(lambda dice: roll("2d6", dice, "damage").total))
    assert Fraction(found[7], den) == Fraction(1, 6)
    assert sum(found.values()) == den

    def branching(dice: ScriptedDice) -> int:  # a die rolled only on one branch
        first = dice.roll_die(10, "first").value
        return first if first < 10 else 10 + dice.roll_die(10, "again").value

    found, den = weighted(outcomes(branching))
    assert Fraction(found[3], den) == Fraction(1, 10)
    assert Fraction(found[15], den) == Fraction(1, 100)
    assert len(outcomes(branching)) == 19


def test_a_chain_is_cut_at_its_limit_and_the_cut_is_reported():
    def chain(dice: ScriptedDice) -> tuple[int, bool]:
        values = [dice.roll_die(10, "chain").value]
        while values[-1] == 10 and len(values) < 20:
            values.append(dice.roll_die(10, "chain").value)
        return sum(dice.values[: min(dice.index, 2)]), dice.cut > 0

    found, den = weighted(outcomes(chain, dice=ScriptedDice(limit=2)))
    assert Fraction(found.get((10, True), 0), den) == 0
    assert Fraction(found[(20, True)], den) == Fraction(1, 100)  # two 10s: cut after
    assert Fraction(found[(15, False)], den) == Fraction(1, 100)
    assert sum(found.values()) == den


def test_too_many_combinations_are_refused():
    with pytest.raises(OddsError, match="too many"):
        outcomes(lambda dice: roll("6d10", dice, "x").total, limit=1000)


def test_a_d100_test_per_roll():
    table = roll_table(40)
    assert success_chance(40) == Fraction(40, 100)
    assert table[0] == (True, 3)  # 1 against 40: 3 degrees of success
    assert table[39] == (True, 0)
    assert table[40] == (False, 0)
    assert table[99] == (False, 6)
    assert success_chance(0) == 0
    assert success_chance(130) == 1
    counts = {d: sum(1 for ok, n in table if ok and n == d) for d in range(4)}
    assert counts == {0: 10, 1: 10, 2: 10, 3: 10}


def test_locations_per_roll_read_the_game_tables():
    assert location_table("dark_heresy")[52] == "body"  # 53 reads 35
    assert location_table("dark_heresy")[99] == "left_leg"  # 100 reads 100
    assert location_chances("dark_heresy")["head"] == Fraction(10, 100)
    assert location_chances("wfrp2")["right_arm"] == Fraction(20, 100)  # 16-35
    assert location_chances("wfrp2")["head"] == Fraction(15, 100)
    assert sum(location_chances("wfrp2").values()) == 1


def test_named_chances_make_a_distribution():
    found = chances({"a": Fraction(1, 3), "b": Fraction(2, 3)})
    assert found.total() == 1
    assert found["a"] == Fraction(1, 3)
