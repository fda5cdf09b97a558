"""Deathwatch sheets: unnatural bonuses, critical damage, tiers, hordes, catalogs as data."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from gmkit.errors import SheetError
from gmkit.sheets import load_sheet
from gmkit.sheets._deathwatch import (
    DEATHWATCH_QUALITIES,
    HORDE_RULES,
    Armour,
    DeathwatchCharacter,
    Horde,
    HordeRules,
    Weapon,
)


@pytest.fixture
def bolter() -> dict[str, Any]:
    return {
        "name": "Astartes Bolter",
        "weapon_class": "basic",
        "group": "Bolt",
        "range": 100,
        "rof": "S/2/4",
        "damage": "2d10+5",
        "damage_type": "X",
        "pen": 5,
        "clip": 28,
        "loaded": 20,
        "reload": "Full",
        "qualities": ["Tearing"],
    }


@pytest.fixture
def data(bolter: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": "Brother Aurelius",
        "side": "Kill-team Aquila",
        "characteristics": {
            "WS": 42,
            "BS": 44,
            "S": 45,
            "T": 43,
            "Ag": 41,
            "Int": 35,
            "Per": 38,
            "WP": 40,
            "Fel": 32,
        },
        "unnatural": {"S": 2, "T": 2},
        "wounds": 18,
        "fate_total": 3,
        "fate_current": 2,
        "armour_points": {"all": 8, "body": 10},
        "weapons": [bolter],
        "talents": ["Astartes Weapon Training", "Ambidextrous"],
        "traits": ["Unnatural Strength (x2)", "Unnatural Toughness (x2)"],
    }


@pytest.fixture
def marine(data: dict[str, Any]) -> DeathwatchCharacter:
    return DeathwatchCharacter.build(data)


@pytest.fixture
def boyz(data: dict[str, Any]) -> DeathwatchCharacter:
    profile = {"WS": 35, "BS": 25, "S": 40, "T": 40, "Ag": 30}
    profile |= {"Int": 20, "Per": 30, "WP": 30, "Fel": 20}
    return DeathwatchCharacter.build(
        name="Ork Boyz mob",
        characteristics=profile,
        unnatural={"T": 2},
        wounds=12,
        tier="troop",
        horde={"magnitude_max": 30, "armour": 2},
    )


def refused(data: dict[str, Any], **changes: Any) -> SheetError:
    with pytest.raises(SheetError) as caught:
        DeathwatchCharacter.build(data, **changes)
    return caught.value


# --- validation --------------------------------------------------------------------------


def test_a_good_sheet_builds(marine):
    assert marine.game == "deathwatch"
    assert marine.tier == "character"
    assert marine.horde is None
    assert marine.weapons[0].loaded == 20
    assert marine.weapons[0].damage_type == "Explosive"


def test_ws_130_names_the_character_the_field_and_the_range(data):
    error = refused({**data, "characteristics": {**data["characteristics"], "WS": 130}})
    assert "Brother Aurelius" in str(error)
    assert "characteristics.WS" in str(error)
    assert "must be from 0 to 100" in str(error)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"unnatural": {"S": 0}}, "unnatural.S", "from 1 to 10"),
        ({"damage": 19}, "damage", "cannot exceed wounds (18)"),
        ({"damage": 10, "critical_damage": 3}, "critical_damage", "damage is 10 of 18"),
        ({"fate_current": 4}, "fate_current", "cannot exceed fate_total (3)"),
        ({"tier": "boss"}, "tier", "troop"),
        ({"horde": {"magnitude_max": 20}}, "horde", "only troops form hordes"),
        ({"tier": "troop", "horde": {"magnitude_max": 0}}, "horde.magnitude_max", "1 to 1000"),
        (
            {"tier": "troop", "horde": {"magnitude_max": 20, "magnitude": 21}},
            "horde.magnitude",
            "cannot exceed magnitude_max (20)",
        ),
        (
            {"tier": "troop", "horde": {"magnitude_max": 20, "armour": 99}},
            "horde.armour",
            "0 to 50",
        ),
    ],
)
def test_bad_fields_are_refused_by_name(data, changes, field, message):
    error = refused(data, **changes)
    assert field in [problem[0] for problem in error.problems], error
    assert message in str(error)


def test_critical_damage_comes_only_beyond_wounds(data):
    sheet = DeathwatchCharacter.build(data, damage=18, critical_damage=4)
    assert sheet.damage_state == "critically damaged"
    assert sheet.wounds_remaining == 0


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"loaded": 29}, "weapons[0].loaded", "cannot load more than the clip holds (28)"),
        ({"qualities": ["Volatile", "Proven(3)"]}, None, None),
        ({"qualities": ["Proven"]}, "weapons[0].qualities", "Proven needs a number"),
        ({"damage": "2d10+PR"}, "weapons[0].damage", "uses PR, not a bonus of this game"),
    ],
)
def test_weapons(data, bolter, changes, field, message):
    if field is None:
        sheet = DeathwatchCharacter.build(data, weapons=[{**bolter, **changes}])
        assert sheet.weapons[0].quality("Proven") == 3
        return
    error = refused(data, weapons=[{**bolter, **changes}])
    assert field in [problem[0] for problem in error.problems], error
    assert message in str(error)


def test_deathwatch_qualities_extend_dark_heresy():
    assert DEATHWATCH_QUALITIES["Felling"] is True
    assert DEATHWATCH_QUALITIES["Razor Sharp"] is False
    assert DEATHWATCH_QUALITIES["Concussive"] is True


# --- derived values ----------------------------------------------------------------------


def test_unnatural_strength_x2_makes_s45_sb8(marine):
    bonuses = marine.bonuses()
    assert bonuses["SB"] == 8
    assert bonuses["TB"] == 8
    assert bonuses["AgB"] == 4
    assert set(bonuses) == {"WSB", "BSB", "SB", "TB", "AgB", "IntB", "PerB", "WPB", "FelB"}


def test_typed_armour_points(marine):
    assert marine.armour_at("body") == 10
    assert marine.armour_at("head") == 8


def test_movement_from_agility_bonus(marine, data):
    assert marine.movement == {"half": 4, "full": 8, "charge": 12, "run": 24}
    fast = DeathwatchCharacter.build(data, unnatural={"Ag": 2})
    assert fast.movement["half"] == 8


@pytest.mark.parametrize(
    ("damage", "state"),
    [(0, "unharmed"), (16, "lightly damaged"), (17, "heavily damaged")],  # TB 8: 2 x 8 = 16
)
def test_damage_states_use_the_unnatural_toughness_bonus(data, damage, state):
    assert DeathwatchCharacter.build(data, damage=damage).damage_state == state


def test_fatigue_beyond_tb_knocks_out_for_at_least_a_minute(data):
    tired = DeathwatchCharacter.build(data, fatigue=8)
    assert tired.fatigue_penalty == -10
    assert not tired.unconscious_from_fatigue
    out = DeathwatchCharacter.build(data, fatigue=9)
    assert out.unconscious_from_fatigue
    assert out.unconscious_minutes == 2  # 10 - TB 8
    assert DeathwatchCharacter.build(data, unnatural={"T": 3}).unconscious_minutes == 1


def test_astartes_weapon_training_trains_everything(marine, data):
    assert marine.trained(marine.weapons[0])
    assert marine.weapon_training["heavy"] == ["*"]
    untrained = DeathwatchCharacter.build(data, talents=[])
    assert untrained.untrained_penalty(untrained.weapons[0]) == -20
    assert marine.off_hand_penalty == 0


# --- hordes ------------------------------------------------------------------------------


def test_a_horde_starts_at_full_magnitude(boyz):
    assert boyz.is_horde
    assert boyz.horde.magnitude == 30
    assert boyz.horde.armour == 2
    assert boyz.derived()["horde"] == {
        "destroyed": False,
        "broken": False,
        "willpower_modifier": 0,
        "break_test_loss": 8,  # 25 % of 30, rounded up
        "resist_bonus": 30,
    }


@pytest.mark.parametrize(
    ("magnitude", "broken", "willpower"),
    [(30, False, 0), (15, False, 0), (14, False, -10), (8, False, -10), (7, True, -10)],
)
def test_horde_breaking_thresholds(magnitude, broken, willpower):
    horde = Horde(magnitude_max=30, magnitude=magnitude)
    assert horde.broken is broken  # below 25 % of 30 (7.5)
    assert horde.willpower_modifier == willpower  # below 50 % of 30
    assert horde.resist_bonus == magnitude


def test_a_destroyed_horde():
    assert Horde(magnitude_max=10, magnitude=0).destroyed


def test_horde_damage_facts_are_data():
    assert HORDE_RULES.magnitude_per_damaging_hit == 1
    assert HORDE_RULES.melee_degrees_per_extra_hit == 2
    assert HORDE_RULES.explosive_extra_hits == 1
    assert HORDE_RULES.flame_hits(20, 3) == 8  # ceil(20 / 4) + 1d5 of 3
    assert HORDE_RULES.flame_hits(30, 1) == 9
    assert not HORDE_RULES.uses_hit_locations
    assert HordeRules.model_validate(HORDE_RULES.model_dump()) == HORDE_RULES


def test_horde_edit_and_round_trip(boyz):
    hit = boyz.edit(horde={**boyz.horde.model_dump(), "magnitude": 21})
    assert hit.horde.magnitude == 21
    assert boyz.horde.magnitude == 30
    assert DeathwatchCharacter.build(json.loads(json.dumps(hit.model_dump(mode="json")))) == hit


# --- edits, round trips ------------------------------------------------------------------


def test_edit_leaves_the_original_untouched(marine):
    spent = marine.edit(fate_current=0)
    assert spent.fate_current == 0
    assert marine.fate_current == 2
    with pytest.raises(SheetError, match="critical_damage"):
        marine.edit(critical_damage=2)
    assert marine.critical_damage == 0


def test_json_round_trip_is_exact(marine):
    text = json.dumps(marine.model_dump(mode="json"))
    assert DeathwatchCharacter.build(json.loads(text)) == marine
    assert load_sheet(json.loads(text)) == marine
    derived = marine.derived()
    assert json.loads(json.dumps(derived)) == derived


def test_class_vars_name_the_models():
    assert DeathwatchCharacter.weapon_model is Weapon
    assert DeathwatchCharacter.armour_model is Armour
    assert DeathwatchCharacter.GAME_TITLE == "Deathwatch"


# --- catalogs --------------------------------------------------------------------------


@pytest.mark.catalog("deathwatch", "weapons.yaml")
def test_every_catalog_weapon_validates_and_round_trips(entry):
    weapon = Weapon.model_validate(entry)
    assert Weapon.model_validate(weapon.model_dump(mode="json")) == weapon


@pytest.mark.catalog("deathwatch", "armour.yaml")
def test_every_catalog_armour_validates(entry):
    assert Armour.model_validate(entry).points.covered


def test_the_catalog_has_the_common_weapons_with_their_numbers(catalog_entries):
    entries = catalog_entries("deathwatch", "weapons.yaml")
    weapons = {entry["name"]: Weapon.model_validate(entry) for entry in entries}
    for wanted in ("Bolter", "Bolt Pistol", "Combat Knife", "Chainsword", "Heavy Bolter"):
        assert any(wanted in name for name in weapons), wanted
    for wanted in ("Flamer", "Plasma Gun", "Choppa", "Slugga", "Shoota"):
        assert any(wanted in name for name in weapons), wanted
    heavy = weapons["Astartes Heavy Bolter"]
    assert (heavy.weapon_class, heavy.rof, heavy.damage, heavy.pen) == (
        "heavy",
        "-/-/10",
        "2d10+10",
        6,
    )
    assert heavy.full == 10


def test_the_power_armour_is_heavier_on_the_body(catalog_entries):
    entries = catalog_entries("deathwatch", "armour.yaml")
    armour = {entry["name"]: Armour.model_validate(entry) for entry in entries}
    aquila = armour["Astartes Power Armour (Mark VII Aquila)"]
    assert (aquila.points.at("head"), aquila.points.at("body")) == (8, 10)


def test_a_weapon_alone_is_refused_with_pydantic_errors():
    with pytest.raises(ValidationError):
        Weapon.model_validate({"name": "Nothing", "weapon_class": "basic", "damage": "1d10"})


# --- properties ----------------------------------------------------------------------------

KEYS = ("WS", "BS", "S", "T", "Ag", "Int", "Per", "WP", "Fel")


@st.composite
def sheets(draw: st.DrawFn) -> dict[str, Any]:
    wounds = draw(st.integers(1, 40))
    damage = draw(st.integers(0, wounds))
    fate_total = draw(st.integers(0, 5))
    return {
        "name": draw(st.text("abcdefgh ", min_size=1, max_size=12).filter(str.strip)),
        "characteristics": {key: draw(st.integers(0, 100)) for key in KEYS},
        "unnatural": {key: draw(st.integers(1, 4)) for key in KEYS},
        "wounds": wounds,
        "damage": damage,
        "critical_damage": draw(st.integers(0, 10)) if damage == wounds else 0,
        "fatigue": draw(st.integers(0, 20)),
        "fate_total": fate_total,
        "fate_current": draw(st.integers(0, fate_total)),
    }


@given(sheets())
def test_any_valid_sheet_round_trips_and_derives(data):
    sheet = DeathwatchCharacter.build(data)
    assert DeathwatchCharacter.build(json.loads(json.dumps(sheet.model_dump(mode="json")))) == sheet
    for key in KEYS:
        expected = data["characteristics"][key] // 10 * data["unnatural"][key]
        assert sheet.bonuses()[f"{key}B"] == expected
    assert sheet.movement["run"] == 6 * sheet.bonuses()["AgB"]
    assert sheet.wounds_remaining >= 0
    derived = sheet.derived()
    assert json.loads(json.dumps(derived)) == derived
