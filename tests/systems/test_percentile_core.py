"""The d100 family's shared mechanics, with typed dice and the seed README's numbers."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.systems._initiative import ranked
from gmkit.systems._percentile import (
    Initiative,
    capped,
    degrees,
    hit_location,
    multiple_hit_locations,
    opposed_winner,
    reverse_digits,
    roll_initiative,
    roll_test,
)
from gmkit.systems.base import Modifier


@pytest.mark.parametrize(
    ("target", "roll", "expected"),
    [
        (47, 47, (True, 0)),
        (47, 27, (True, 2)),
        (47, 1, (True, 4)),
        (47, 48, (False, 0)),
        (47, 64, (False, 1)),
        (47, 100, (False, 5)),
        (0, 1, (False, 0)),
        (100, 100, (True, 0)),
    ],
)
def test_degrees_are_whole_tens_between_target_and_roll(target, roll, expected):
    assert degrees(target, roll) == expected


def test_modifiers_are_capped_at_sixty_both_ways():
    assert (
        capped([Modifier("Aim (full)", 20), Modifier("Point blank", 30), Modifier("x", 30)], 60)
        == 60
    )
    assert capped([Modifier("Darkness", -30), Modifier("Fog", -20), Modifier("y", -30)], 60) == -60
    assert capped([Modifier("a", 50), Modifier("b", 50)], None) == 100


def test_a_test_lists_each_modifier_and_applies_the_capped_total():
    result = roll_test(
        "BS",
        42,
        [
            Modifier("Aim (full)", 20),
            Modifier("Point blank", 30),
            Modifier("Semi-auto", 10),
            Modifier("Unaware", 30),
        ],
        EnteredDice([97]),
        "to hit",
    )
    assert result.modifier == 60
    assert result.target == 102
    assert (result.success, result.degrees) == (True, 0)
    assert "(capped)" in str(result.explain())
    assert result.roll.purpose == "to hit"
    assert result.roll.physical is True


def test_degrees_of_failure_from_a_typed_roll():
    result = roll_test("WS", 35, [Modifier("Darkness", -20)], EnteredDice(["64"]), "attack")
    assert (result.target, result.value, result.success) == (15, 64, False)
    assert result.degrees_of_failure == 4
    assert result.degrees_of_success == 0


@pytest.mark.parametrize(
    ("roll", "reversed_roll"), [(53, 35), (5, 50), (10, 1), (100, 100), (1, 10), (99, 99), (90, 9)]
)
def test_location_roll_reverses_the_digits(roll, reversed_roll):
    assert reverse_digits(roll) == reversed_roll


@pytest.mark.parametrize(
    ("roll", "location"),
    [
        (1, "head"),  # 01 -> 10
        (10, "head"),  # 10 -> 01
        (91, "right_arm"),  # 19
        (82, "left_arm"),  # 28
        (53, "body"),  # 35
        (5, "body"),  # 50
        (28, "right_leg"),  # 82
        (68, "left_leg"),  # 86
        (100, "left_leg"),  # 100 reads 100
    ],
)
def test_forty_k_hit_locations(roll, location):
    assert hit_location(roll, "dark_heresy") == location
    assert hit_location(roll, "deathwatch") == location


def test_wfrp_hit_locations_include_the_seed_example():
    assert hit_location(53, "wfrp2") == "right_arm"  # 35: right arm (16-35), seed 002
    assert hit_location(51, "wfrp2") == "head"  # 15
    assert hit_location(55, "wfrp2") == "left_arm"  # 55
    assert hit_location(65, "wfrp2") == "body"  # 56
    assert hit_location(98, "wfrp2") == "right_leg"  # 89
    assert hit_location(19, "wfrp2") == "left_leg"  # 91


def test_multiple_hits_follow_the_first_hits_row():
    assert multiple_hit_locations("head", 6) == [
        "head",
        "head",
        "right_arm",
        "body",
        "right_arm",
        "body",
    ]
    assert multiple_hit_locations("left_arm", 4) == ["left_arm", "left_arm", "body", "head"]
    assert multiple_hit_locations("body", 3) == ["body", "body", "right_arm"]
    assert multiple_hit_locations("right_leg", 8) == [
        "right_leg",
        "right_leg",
        "body",
        "right_arm",
        "head",
        "body",
        "body",
        "body",
    ]


def test_opposed_tests():
    dice = EnteredDice([20, 35, 60, 70, 30, 30])
    strong = roll_test("S", 50, [], dice, "grapple")  # 3 DoS
    weak = roll_test("S", 40, [], dice, "grapple")  # 0 DoS
    assert opposed_winner(strong, weak) == 0
    fail_a = roll_test("S", 50, [], dice, "a")
    fail_b = roll_test("S", 40, [], dice, "b")
    assert opposed_winner(fail_a, fail_b) is None
    tie_a = roll_test("S", 50, [], dice, "c")  # 2 DoS
    tie_b = roll_test("S", 45, [], dice, "d")  # 1 DoS
    assert opposed_winner(tie_b, tie_a) == 1


def test_initiative_ties_go_to_the_higher_base_then_a_roll_off():
    dice = EnteredDice([7, 6, 5, 9, 3])
    kor = roll_initiative("Kor", 3, dice)  # 10
    vex = roll_initiative("Vex", 4, dice)  # 10, higher AgB
    ash = roll_initiative("Ash", 5, dice)  # 10, highest AgB
    order, roll_offs = ranked([kor, vex, ash], dice)
    assert [entry.name for entry in order] == ["Ash", "Vex", "Kor"]
    assert roll_offs == []
    twins = [Initiative("A", 3, None, 9), Initiative("B", 3, None, 9)]
    order, roll_offs = ranked(twins, EnteredDice([2, 8]))
    assert [entry.name for entry in order] == ["B", "A"]
    assert [roll.value for roll in roll_offs] == [2, 8]
    assert str(roll_offs[0].purpose) == "initiative roll-off: A"
