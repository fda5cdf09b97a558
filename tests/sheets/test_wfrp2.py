"""WFRP 2e sheets: derived SB/TB, wound states from seed 002, weapons, catalogs as data."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gmkit.errors import SheetError
from gmkit.sheets import load_sheet
from gmkit.sheets._io import load_sheets
from gmkit.sheets._wfrp2 import UNARMED_DAMAGE, Armour, Secondary, Weapon, WFRP2Character


@pytest.fixture
def data() -> dict[str, Any]:
    return {
        "name": "Gunther Klein",
        "side": "The Black Boar",
        "characteristics": {
            "WS": 41,
            "BS": 33,
            "S": 37,
            "T": 42,
            "Ag": 35,
            "Int": 29,
            "WP": 31,
            "Fel": 30,
        },
        "secondary": {"A": 1, "W": 12, "M": 4, "Mag": 0, "IP": 0, "FP": 2},
        "armour": [
            {"name": "Full Leather Armour", "kind": "leather", "points": {"all": 1}},
            {"name": "Mail Shirt", "kind": "mail", "points": {"body": 2}},
        ],
        "weapons": [
            {"name": "Hand Weapon", "damage": "SB"},
            {"name": "Bow", "damage": "3", "range_short": 24, "range_long": 48, "reload": "Half"},
            {"name": "Rapier", "group": "fencing", "damage": "SB-1", "qualities": ["fast"]},
        ],
        "skills": ["Dodge Blow"],
        "talents": ["Specialist Weapon Group (Fencing)"],
    }


@pytest.fixture
def soldier(data: dict[str, Any]) -> WFRP2Character:
    return WFRP2Character.build(data)


def refused(data: dict[str, Any], **changes: Any) -> SheetError:
    with pytest.raises(SheetError) as caught:
        WFRP2Character.build(data, **changes)
    return caught.value


def test_a_good_sheet_builds(soldier):
    assert soldier.game == "wfrp2"
    assert soldier.wounds_current == 12  # absent: W
    assert soldier.fortune == 2  # absent: FP
    assert soldier.weapons[2].group == "Fencing"
    assert soldier.weapons[2].qualities == ["Fast"]


def test_ws_130_names_the_character_the_field_and_the_range(data):
    error = refused({**data, "characteristics": {**data["characteristics"], "WS": 130}})
    assert "Gunther Klein" in str(error)
    assert "characteristics.WS" in str(error)
    assert "must be from 0 to 100" in str(error)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"wounds_current": 13}, "wounds_current", "cannot exceed W (12)"),
        ({"wounds_current": -1}, "wounds_current", "from 0 to 200"),
        ({"fortune": 3}, "fortune", "cannot exceed FP (2)"),
        ({"secondary": {"W": 0}}, "secondary.W", "from 1 to 200"),
        ({"secondary": {"W": 12, "A": 11}}, "secondary.A", "from 0 to 10"),
        ({"secondary": {"W": 12, "SB": 3}}, "secondary", "SB is derived from S and T"),
        ({"secondary": {"W": 12, "SB": 3, "TB": 4}}, "secondary", "SB and TB are derived"),
        ({"skills": ["Dodge Blow", "dodge blow"]}, "skills", "appears twice"),
        ({"armour_points": {"head": -1}}, "armour_points.head", "from 0 to 50"),
        (
            {"armour": [{"name": "Hat", "kind": "felt", "points": {"head": 1}}]},
            "armour[0].kind",
            "leather",
        ),
    ],
)
def test_bad_fields_are_refused_by_name(data, changes, field, message):
    error = refused(data, **changes)
    assert field in [problem[0] for problem in error.problems], error
    assert message in str(error)


@pytest.mark.parametrize(
    ("weapon", "field", "message"),
    [
        ({"damage": "1d10+SB"}, "damage", "the attack rolls the d10"),
        ({"damage": "SB-"}, "damage", "position 4"),
        ({"damage": "AB+1"}, "damage", "uses AB, not a bonus of this game"),
        ({"damage": "SB", "group": "Polearm"}, "group", "unknown weapon group"),
        ({"damage": "SB", "qualities": ["Fast", "Slow"]}, "qualities", "exclude each other"),
        ({"damage": "SB", "qualities": ["Sharp"]}, "qualities", "unknown quality"),
        ({"damage": "3", "range_short": 24}, "range_long", "needs its long range"),
        ({"damage": "3", "range_short": 30, "range_long": 20}, "range_long", "cannot be shorter"),
        ({"damage": "SB", "reload": "Half"}, "reload", "not reloaded"),
    ],
)
def test_bad_weapons_are_refused_by_field(data, weapon, field, message):
    error = refused(data, weapons=[{"name": "Test", **weapon}])
    assert f"weapons[0].{field}" in [problem[0] for problem in error.problems], error
    assert message in str(error)


# --- derived values ----------------------------------------------------------------------


def test_sb_and_tb_are_derived_not_typed(soldier):
    assert (soldier.SB, soldier.TB) == (3, 4)
    assert "SB" not in soldier.model_dump()["secondary"]
    bonuses = soldier.bonuses()
    assert (bonuses["SB"], bonuses["TB"]) == (3, 4)
    assert set(bonuses) == {"WSB", "BSB", "SB", "TB", "AgB", "IntB", "WPB", "FelB"}


def test_seed_002_bow_example(soldier):
    # a damage roll of 4 plus the bow's 3 makes 7 damage (002's example)
    bow = soldier.weapons[1]
    assert 4 + int(bow.damage) == 7
    assert bow.is_ranged
    assert not bow.specialist


def test_unarmed_damage_is_sb_minus_4():
    assert UNARMED_DAMAGE == "SB-4"


def test_worn_armour_adds_up(soldier):
    assert soldier.armour_at("body") == 3  # leather 1 + mail 2
    assert soldier.armour_at("head") == 1
    assert soldier.edit(armour_points={"all": 4}).armour_at("head") == 4


def test_catalog_names_in_a_roster_expand_to_entries(data):
    entry = {**data, "game": "wfrp2", "weapons": ["Hand Weapon", "Crossbow"]}
    entry["armour"] = ["Full Leather Armour", "Mail Shirt", "Breastplate"]
    (sheet,) = load_sheets([entry])
    assert sheet.weapons[1].reload == "Full"
    assert sheet.armour_at("body") == 5


def test_movement_and_initiative(soldier):
    assert soldier.movement == {"move": 8, "charge": 16, "run": 24}
    assert soldier.initiative_base == 35


@pytest.mark.parametrize(
    ("wounds", "state", "healing"),
    [
        (12, "unhurt", "-"),
        (11, "lightly wounded", "1 a day"),
        (4, "lightly wounded", "1 a day"),
        (3, "seriously wounded", "1 a week"),
        (0, "seriously wounded", "1 a week"),
    ],
)
def test_wound_states_from_seed_002(data, wounds, state, healing):
    sheet = WFRP2Character.build(data, wounds_current=wounds)
    assert sheet.wound_state == state
    assert sheet.natural_healing == healing
    assert sheet.wounds_lost == 12 - wounds


def test_a_secondary_profile_model_fills_the_defaults(data):
    sheet = WFRP2Character.build({**data, "secondary": Secondary(W=9, FP=1)})
    assert (sheet.wounds_current, sheet.fortune) == (9, 1)


def test_a_small_creature_at_full_wounds_is_unhurt(data):
    rat = WFRP2Character.build(data, secondary={"W": 3})
    assert rat.wound_state == "unhurt"
    assert rat.edit(wounds_current=2).wound_state == "seriously wounded"


def test_specialist_weapons_need_their_talent(soldier, data):
    hand, _bow, rapier = soldier.weapons
    assert soldier.trained(hand)
    assert soldier.trained(rapier)
    assert soldier.specialist_groups == ("Fencing",)
    untrained = WFRP2Character.build(data, talents=[])
    assert untrained.untrained_penalty(rapier) == -20
    assert untrained.untrained_penalty(hand) == 0


def test_off_hand_and_dodge(soldier, data):
    assert soldier.off_hand_penalty == -20
    assert soldier.can_dodge
    nimble = WFRP2Character.build(data, talents=["Ambidextrous"], skills=[])
    assert nimble.off_hand_penalty == 0
    assert not nimble.can_dodge


def test_derived_is_json_friendly(soldier):
    derived = soldier.derived()
    assert json.loads(json.dumps(derived)) == derived
    assert derived["wound_state"] == "unhurt"


# --- edits, round trips ------------------------------------------------------------------


def test_edit_leaves_the_original_untouched(soldier):
    hurt = soldier.edit(wounds_current=2, fortune=0)
    assert (hurt.wounds_current, hurt.fortune) == (2, 0)
    assert (soldier.wounds_current, soldier.fortune) == (12, 2)
    with pytest.raises(SheetError, match="wounds_current"):
        soldier.edit(wounds_current=40)


def test_json_round_trip_is_exact(soldier):
    text = json.dumps(soldier.model_dump(mode="json"))
    assert WFRP2Character.build(json.loads(text)) == soldier
    assert load_sheet(json.loads(text)) == soldier


def test_class_vars_name_the_models():
    assert WFRP2Character.weapon_model is Weapon
    assert WFRP2Character.armour_model is Armour
    assert "Warhammer Fantasy Roleplay" in WFRP2Character.GAME_TITLE


# --- catalogs --------------------------------------------------------------------------


@pytest.mark.catalog("wfrp2", "weapons.yaml")
def test_every_catalog_weapon_validates_and_round_trips(entry):
    weapon = Weapon.model_validate(entry)
    assert Weapon.model_validate(weapon.model_dump(mode="json")) == weapon


@pytest.mark.catalog("wfrp2", "armour.yaml")
def test_every_catalog_armour_validates(entry):
    assert Armour.model_validate(entry).points.covered


def test_the_catalog_has_the_common_weapons(catalog_entries):
    entries = catalog_entries("wfrp2", "weapons.yaml")
    weapons = {entry["name"]: Weapon.model_validate(entry) for entry in entries}
    wanted = {"Hand Weapon", "Great Weapon", "Dagger", "Spear", "Bow", "Crossbow", "Pistol"}
    assert wanted | {"Shield"} <= set(weapons)
    assert weapons["Dagger"].damage == "SB-3"
    assert weapons["Great Weapon"].quality("Impact") is True
    assert weapons["Bow"].damage == "3"  # the seed's example bow
    assert weapons["Crossbow"].specialist


def test_the_armour_catalog_has_full_plate_at_5(catalog_entries):
    entries = catalog_entries("wfrp2", "armour.yaml")
    armour = {entry["name"]: Armour.model_validate(entry) for entry in entries}
    assert armour["Full Plate Armour"].points.covered == (
        "head",
        "right_arm",
        "left_arm",
        "body",
        "right_leg",
        "left_leg",
    )
    assert armour["Full Plate Armour"].points.at("head") == 5
