"""The d100 family's shared pieces: ranges, armour points, weapon text, talent reading."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gmkit.sheets._percentile import (
    IMPERIAL_BONUS_NAMES,
    IMPERIAL_QUALITIES,
    LOCATIONS,
    ArmourPoints,
    ImperialArmour,
    ImperialCharacteristics,
    Unnatural,
    bonus_of,
    check_damage,
    check_qualities,
    parse_rof,
    quality_table,
    quality_value,
    reload_half_actions,
    talent_specialities,
)

PROFILE = {
    "WS": 40,
    "BS": 35,
    "S": 30,
    "T": 35,
    "Ag": 35,
    "Int": 30,
    "Per": 30,
    "WP": 30,
    "Fel": 30,
}


@pytest.mark.parametrize(("value", "bonus"), [(0, 0), (9, 0), (35, 3), (45, 4), (99, 9), (100, 10)])
def test_the_bonus_is_the_tens_digit(value, bonus):
    assert bonus_of(value) == bonus


@pytest.mark.parametrize("value", [0, 100])
def test_characteristics_accept_their_range(value):
    assert value == ImperialCharacteristics(**{**PROFILE, "WS": value}).WS


@pytest.mark.parametrize("value", [-1, 101, 130])
def test_characteristics_outside_zero_to_hundred_are_refused(value):
    with pytest.raises(ValidationError, match="must be from 0 to 100"):
        ImperialCharacteristics(**{**PROFILE, "WS": value})


@pytest.mark.parametrize("value", [True, "forty", 35.5])
def test_characteristics_must_be_whole_numbers(value):
    with pytest.raises(ValidationError):
        ImperialCharacteristics(**{**PROFILE, "BS": value})


def test_unnatural_multipliers_default_to_one_and_run_to_ten():
    assert Unnatural().S == 1
    assert Unnatural(S=2).S == 2
    with pytest.raises(ValidationError, match="must be from 1 to 10"):
        Unnatural(S=0)


def test_armour_points_shorthands_expand_broad_to_narrow():
    points = ArmourPoints.model_validate({"all": 8, "body": 10, "arms": 9, "left_arm": 7})
    assert points.model_dump() == {
        "head": 8,
        "right_arm": 9,
        "left_arm": 7,
        "body": 10,
        "right_leg": 8,
        "left_leg": 8,
    }
    assert points.at("body") == 10
    assert points.covered == LOCATIONS


def test_armour_points_cover_only_where_they_give_points():
    points = ArmourPoints.model_validate({"legs": 5})
    assert points.covered == ("right_leg", "left_leg")
    assert ArmourPoints().covered == ()


@pytest.mark.parametrize("bad", [{"body": -1}, {"head": 51}, {"tail": 2}])
def test_armour_points_are_refused_out_of_range_or_place(bad):
    with pytest.raises(ValidationError):
        ArmourPoints.model_validate(bad)


def test_armour_must_cover_something():
    assert ImperialArmour(name="Flak Vest", kind="Flak", points={"body": 3}).kind == "flak"
    with pytest.raises(ValidationError, match="one location at least"):
        ImperialArmour(name="Nothing", points={})


@pytest.mark.parametrize(
    ("written", "canonical"),
    [("1d10+3", "1d10+3"), ("1d10 + 3", "1d10+3"), ("2d10+SB", "2d10+SB"), ("1d5", "1d5")],
)
def test_damage_is_parsed_and_written_canonically(written, canonical):
    assert check_damage(written, IMPERIAL_BONUS_NAMES, dice=True) == canonical


def test_damage_refuses_names_the_game_lacks():
    with pytest.raises(ValueError, match="uses SBX, not a bonus of this game"):
        check_damage("1d10+SBX", IMPERIAL_BONUS_NAMES, dice=True)


def test_damage_refuses_bad_syntax_naming_the_position():
    with pytest.raises(ValueError, match="position 6"):
        check_damage("1d10+", IMPERIAL_BONUS_NAMES, dice=True)


def test_damage_with_or_without_dice():
    with pytest.raises(ValueError, match="must roll dice"):
        check_damage("5", IMPERIAL_BONUS_NAMES, dice=True)
    with pytest.raises(ValueError, match="the attack rolls the d10"):
        check_damage("1d10+SB", frozenset({"SB"}), dice=False)
    assert check_damage("SB-1", frozenset({"SB"}), dice=False) == "SB-1"


@pytest.mark.parametrize(
    ("written", "modes"),
    [
        ("S/3/-", (True, 3, 0)),
        ("s / - / 10", (True, 0, 10)),
        ("–/–/10", (False, 0, 10)),
        ("-/-/-", (False, 0, 0)),
    ],
)
def test_rate_of_fire_reads_single_semi_full(written, modes):
    assert parse_rof(written) == modes


@pytest.mark.parametrize("bad", ["S3", "S/0/-", "X/3/-", "S/3/4/5", "S/101/-"])
def test_rate_of_fire_refuses_other_shapes(bad):
    with pytest.raises(ValueError, match="rate"):
        parse_rof(bad)


@pytest.mark.parametrize(
    ("reload", "half_actions"), [("-", None), ("Free", 0), ("Half", 1), ("Full", 2), ("3 Full", 6)]
)
def test_reload_in_half_actions(reload, half_actions):
    assert reload_half_actions(reload) == half_actions


def test_qualities_are_canonical_and_checked():
    written = ["tearing", "blast (3)", "twin linked", "Felling 2"]
    assert check_qualities(written, IMPERIAL_QUALITIES) == [
        "Tearing",
        "Blast(3)",
        "Twin-Linked",
        "Felling(2)",
    ]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (["Explodey"], "unknown quality"),
        (["Blast"], "Blast needs a number"),
        (["Tearing(2)"], "Tearing takes no number"),
        (["Blast(0)"], "from 1 to 99"),
        (["Tearing", "tearing"], "listed twice"),
        (["Reliable", "Unreliable"], "exclude each other"),
    ],
)
def test_qualities_refused(bad, message):
    exclusive = [("Reliable", "Unreliable")]
    with pytest.raises(ValueError, match=message):
        check_qualities(bad, IMPERIAL_QUALITIES, exclusive)


def test_quality_value_reads_numbers_and_flags():
    qualities = ["Tearing", "Blast(3)"]
    assert quality_value(qualities, "Blast") == 3
    assert quality_value(qualities, "Tearing") is True
    assert quality_value(qualities, "Flame") is False


def test_quality_table_marks_numbered_qualities():
    assert quality_table("Fast, Slow", numbered="Blast") == {
        "Fast": False,
        "Slow": False,
        "Blast": True,
    }


def test_talent_specialities():
    talents = ["Two-Weapon Wielder (Melee)", "two weapon wielder (Ballistic)", "Ambidextrous"]
    assert talent_specialities(talents, "Two-Weapon Wielder") == {"melee", "ballistic"}
    assert talent_specialities(talents, "Ambidextrous") == frozenset()
    assert talent_specialities(talents, "Lightning Attack") is None
    assert talent_specialities(["Pistol Training (Las/SP)"], "Pistol Training") == {"las", "sp"}
