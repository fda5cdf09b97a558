"""Dark Heresy sheets: validation, derived values from the rules, catalogs as data."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from gmkit.errors import SheetError
from gmkit.sheets import load_sheet
from gmkit.sheets._dark_heresy import Armour, DarkHeresyCharacter, Weapon
from gmkit.sheets._io import load_sheets


@pytest.fixture
def lasgun() -> dict[str, Any]:
    return {
        "name": "Lasgun",
        "weapon_class": "basic",
        "group": "Las",
        "range": 100,
        "rof": "S/3/-",
        "damage": "1d10+3",
        "damage_type": "Energy",
        "clip": 60,
        "reload": "Full",
        "qualities": ["Reliable"],
    }


@pytest.fixture
def data(lasgun: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": "Interrogator Vell",
        "side": "Ordo Hereticus",
        "notes": "secretly a heretic",
        "characteristics": {
            "WS": 38,
            "BS": 42,
            "S": 31,
            "T": 35,
            "Ag": 35,
            "Int": 40,
            "Per": 36,
            "WP": 41,
            "Fel": 33,
        },
        "wounds": 12,
        "fate_total": 3,
        "armour": [{"name": "Imperial Guard Flak Armour", "kind": "flak", "points": {"all": 4}}],
        "weapons": [
            lasgun,
            {"name": "Chainsword", "weapon_class": "melee", "damage": "1d10+2", "pen": 2},
        ],
        "talents": ["Basic Weapon Training (Las)", "Melee Weapon Training (Chain)"],
        "traits": [],
    }


@pytest.fixture
def acolyte(data: dict[str, Any]) -> DarkHeresyCharacter:
    return DarkHeresyCharacter.build(data)


def refused(data: dict[str, Any], **changes: Any) -> SheetError:
    with pytest.raises(SheetError) as caught:
        DarkHeresyCharacter.build(data, **changes)
    return caught.value


def with_profile(data: dict[str, Any], **values: int) -> dict[str, Any]:
    return {**data, "characteristics": {**data["characteristics"], **values}}


# --- validation --------------------------------------------------------------------------


def test_a_good_sheet_builds(acolyte):
    assert acolyte.game == "dark_heresy"
    assert acolyte.weapons[0].loaded == 60  # an absent "loaded" is a full clip
    assert acolyte.fate_current == 3  # an absent "fate_current" is every fate point
    assert acolyte.armour[0].kind == "flak"
    assert acolyte.armour_points is None
    assert acolyte.armour_at("head") == 4  # from the flak armour worn


def test_ws_130_names_the_character_the_field_and_the_range(data):
    error = refused(with_profile(data, WS=130))
    assert error.character == "Interrogator Vell"
    assert error.problems[0][0] == "characteristics.WS"
    assert "Interrogator Vell" in str(error)
    assert "characteristics.WS" in str(error)
    assert "must be from 0 to 100" in str(error)
    assert "130" in str(error)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"name": " "}, "name", "at least 1 character"),
        ({"wounds": 0}, "wounds", "from 1 to 1000"),
        ({"damage": 13}, "damage", "cannot exceed wounds (12)"),
        ({"damage": -1}, "damage", "from 0 to 1000"),
        ({"critical_damage": 11}, "critical_damage", "from 0 to 10"),
        ({"fatigue": 21}, "fatigue", "from 0 to 20"),
        ({"fate_current": 4}, "fate_current", "cannot exceed fate_total (3)"),
        ({"armour_points": {"body": 60}}, "armour_points.body", "from 0 to 50"),
        ({"armour": [{"name": "Rags", "points": {}}]}, "armour[0].points", "one location"),
        ({"talents": ["Ambidextrous", "ambidextrous"]}, "talents", "appears twice"),
        ({"game": "deathwatch"}, "game", "dark_heresy"),
        ({"hit_points": 3}, "hit_points", "is not a field"),
        ({"minion": "maybe"}, "minion", "boolean"),
    ],
)
def test_bad_fields_are_refused_by_name(data, changes, field, message):
    error = refused(data, **changes)
    fields = [problem[0] for problem in error.problems]
    assert field in fields, error
    assert message in str(error)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"loaded": 61}, "weapons[0].loaded", "cannot load more than the clip holds (60)"),
        ({"damage": "1d10+XB"}, "weapons[0].damage", "uses XB, not a bonus of this game"),
        ({"damage": "1d10+"}, "weapons[0].damage", "position 6"),
        ({"damage": "7"}, "weapons[0].damage", "must roll dice"),
        ({"qualities": ["Sparkly"]}, "weapons[0].qualities", "unknown quality"),
        ({"qualities": ["Blast"]}, "weapons[0].qualities", "Blast needs a number"),
        ({"rof": "S/3"}, "weapons[0].rof", "rate of fire"),
        ({"rof": "-/-/-"}, "weapons[0].rof", "needs a fire mode"),
        ({"range": 0}, "weapons[0].range", "needs a range in metres"),
        ({"clip": 0, "loaded": 0}, "weapons[0].clip", "clip of at least 1"),
        ({"damage_type": "Plasma"}, "weapons[0].damage_type", "Energy"),
        ({"weapon_class": "artillery"}, "weapons[0].weapon_class", "melee"),
        ({"reload": "soon"}, "weapons[0].reload", "reload is"),
        ({"pen": 31}, "weapons[0].pen", "from 0 to 30"),
    ],
)
def test_bad_weapons_are_refused_by_field(data, lasgun, changes, field, message):
    error = refused(data, weapons=[{**lasgun, **changes}])
    assert field in [problem[0] for problem in error.problems], error
    assert message in str(error)


def test_melee_weapons_have_no_clip_and_no_fire_mode_unless_thrown():
    with pytest.raises(ValidationError, match="no clip"):
        Weapon.model_validate({"name": "Axe", "weapon_class": "melee", "damage": "1d10", "clip": 3})
    with pytest.raises(ValidationError, match="no rate of fire"):
        Weapon.model_validate(
            {"name": "Axe", "weapon_class": "melee", "damage": "1d10", "rof": "S/-/-"}
        )
    knife = Weapon.model_validate(
        {"name": "Knife", "weapon_class": "melee", "damage": "1d5", "range": 5, "rof": "S/-/-"}
    )
    assert knife.range == 5
    assert knife.adds_strength_bonus


def test_weapon_text_is_stored_canonically(data, lasgun):
    written = {**lasgun, "weapon_class": "Basic", "rof": "s/3/–", "damage": "1d10 + 3"}
    written |= {"damage_type": "e", "reload": "full", "qualities": ["reliable"]}
    weapon = DarkHeresyCharacter.build(data, weapons=[written]).weapons[0]
    assert (weapon.weapon_class, weapon.rof, weapon.damage) == ("basic", "S/3/-", "1d10+3")
    assert (weapon.damage_type, weapon.reload, weapon.qualities) == ("Energy", "Full", ["Reliable"])


def test_weapon_derived_values(acolyte):
    lasgun, chainsword = acolyte.weapons
    assert (lasgun.single, lasgun.semi, lasgun.full) == (True, 3, 0)
    assert lasgun.is_ranged
    assert lasgun.two_handed
    assert not lasgun.adds_strength_bonus
    assert lasgun.reload_half_actions == 2
    assert lasgun.quality("Reliable") is True
    assert not chainsword.is_ranged
    assert chainsword.adds_strength_bonus
    assert chainsword.reload_half_actions is None


# --- derived values ----------------------------------------------------------------------


def test_bonuses_are_tens_digits(acolyte):
    assert acolyte.bonuses() == {
        "WSB": 3,
        "BSB": 4,
        "SB": 3,
        "TB": 3,
        "AgB": 3,
        "IntB": 4,
        "PerB": 3,
        "WPB": 4,
        "FelB": 3,
    }


def test_every_catalog_damage_names_only_bonuses_the_sheet_gives(acolyte, catalog_entries):
    for entry in catalog_entries("dark_heresy", "weapons.yaml"):
        assert Weapon.model_validate(entry).damage  # parses
    assert {"SB", "TB", "AgB"} <= set(acolyte.bonuses())


def test_agility_35_moves_3_6_9_18(acolyte):
    assert acolyte.movement == {"half": 3, "full": 6, "charge": 9, "run": 18}
    assert acolyte.derived()["initiative_bonus"] == 3


def test_unnatural_strength_doubles_the_bonus(data):
    brute = DarkHeresyCharacter.build(with_profile(data, S=45), unnatural={"S": 2})
    assert brute.bonuses()["SB"] == 8


@pytest.mark.parametrize(
    ("damage", "critical", "state", "serious"),
    [
        (0, 0, "unharmed", False),
        (6, 0, "lightly damaged", False),  # 6 = 2 x TB 3
        (7, 0, "heavily damaged", True),
        (12, 2, "critically damaged", True),
        (0, 1, "critically damaged", True),  # 001's house Righteous Fury: crit without wounds
    ],
)
def test_damage_states(data, damage, critical, state, serious):
    sheet = DarkHeresyCharacter.build(data, damage=damage, critical_damage=critical)
    assert sheet.damage_state == state
    assert sheet.seriously_wounded is serious
    assert sheet.critically_damaged is (critical > 0)
    assert sheet.wounds_remaining == 12 - damage


def test_seed_001_damage_example_uses_tb_3(acolyte):
    # 10 damage - 5 armour (carapace greaves) - 3 (Toughness 35) = 2
    assert 10 - 5 - acolyte.bonuses()["TB"] == 2


@pytest.mark.parametrize(
    ("fatigue", "penalty", "out"), [(0, 0, False), (1, -10, False), (3, -10, False), (4, -10, True)]
)
def test_fatigue(data, fatigue, penalty, out):
    sheet = DarkHeresyCharacter.build(data, fatigue=fatigue)
    assert sheet.fatigue_penalty == penalty
    assert sheet.unconscious_from_fatigue is out
    assert sheet.unconscious_minutes == 7  # 10 - TB 3


def test_unconscious_minutes_never_below_one(data):
    sheet = DarkHeresyCharacter.build(with_profile(data, T=60), unnatural={"T": 2})
    assert sheet.unconscious_minutes == 1


def test_training_by_class_and_group(data, acolyte):
    lasgun, chainsword = acolyte.weapons
    assert acolyte.trained(lasgun)
    assert acolyte.untrained_penalty(lasgun) == 0
    assert acolyte.trained(chainsword)  # a weapon with no group needs only its class
    assert acolyte.weapon_training == {"melee": ["chain"], "basic": ["las"]}
    stubber = Weapon.model_validate(
        {"name": "Autogun", "weapon_class": "basic", "group": "SP", "range": 90}
        | {"rof": "S/3/10", "damage": "1d10+2", "clip": 30, "reload": "Full"}
    )
    assert not acolyte.trained(stubber)
    assert acolyte.untrained_penalty(stubber) == -20
    grenade = Weapon.model_validate(
        {"name": "Frag Grenade", "weapon_class": "thrown", "group": "Grenade", "range": 9}
        | {"rof": "S/-/-", "damage": "2d10", "damage_type": "X", "qualities": ["Blast(4)"]}
    )
    assert acolyte.trained(grenade)  # grenades need no training (001)
    assert grenade.quality("Blast") == 4
    plain = DarkHeresyCharacter.build(data, talents=["Basic Weapon Training"])
    assert plain.trained(stubber)


def test_two_weapons_and_the_off_hand(data, acolyte):
    assert acolyte.off_hand_penalty == -20
    assert acolyte.two_weapon_wielder == ()
    both = DarkHeresyCharacter.build(
        data, talents=["Ambidextrous", "Two-Weapon Wielder (Melee/Ballistic)"]
    )
    assert both.ambidextrous
    assert both.off_hand_penalty == 0
    assert both.two_weapon_wielder == ("Ballistic", "Melee")
    assert both.two_weapon_penalty == -10
    assert acolyte.two_weapon_penalty == -20


def test_a_minion_dies_at_one_critical_damage(data):
    assert not DarkHeresyCharacter.build(data, critical_damage=1).dead
    assert DarkHeresyCharacter.build(data, minion=True, critical_damage=1).dead
    assert not DarkHeresyCharacter.build(data, minion=True).dead


def test_house_rule_warnings_for_carrying_too_much(data, lasgun):
    assert DarkHeresyCharacter.build(data).house_rule_warnings == []
    flak = {"name": "Flak", "kind": "flak", "points": {"all": 4}}
    power = {"name": "Power Armour", "kind": "power", "points": {"all": 8}}
    skin = {"name": "Synskin", "kind": "synthskin", "points": {"body": 2}}
    heavy = DarkHeresyCharacter.build(
        data,
        weapons=[lasgun, {**lasgun, "name": "Second Lasgun"}],
        armour=[flak, flak, power, skin, skin],
    )
    warnings = [str(warning) for warning in heavy.house_rule_warnings]
    assert "more than one main ranged weapon (basic or heavy)" in warnings
    assert "more than one synthskin" in warnings
    assert "power armour worn with another layer at head" in warnings
    layered = DarkHeresyCharacter.build(data, armour=[flak, flak, flak])
    assert "more than two armour layers at body" in map(str, layered.house_rule_warnings)
    assert heavy.derived()["house_rule_warnings"] == heavy.house_rule_warnings


def test_armour_points_are_typed_or_the_best_piece_worn(data):
    helmet = {"name": "Carapace Helm", "kind": "carapace", "points": {"head": 5}}
    vest = {"name": "Flak Vest", "kind": "flak", "points": {"body": 3}}
    coat = {"name": "Flak Coat", "kind": "flak", "points": {"arms": 3, "body": 3, "legs": 3}}
    worn = DarkHeresyCharacter.build(data, armour=[helmet, vest, coat])
    assert worn.effective_armour.model_dump() == {
        "head": 5,
        "right_arm": 3,
        "left_arm": 3,
        "body": 3,  # the best piece, not 3 + 3
        "right_leg": 3,
        "left_leg": 3,
    }
    typed = worn.edit(armour_points={"all": 7})
    assert typed.armour_at("body") == 7
    assert typed.derived()["armour_points"]["head"] == 7
    assert DarkHeresyCharacter.build(data, armour=[]).armour_at("body") == 0


def test_catalog_names_in_a_roster_expand_to_entries(data):
    entry = {**data, "game": "dark_heresy", "weapons": ["Lasgun", "Chainsword"]}
    entry["armour"] = ["Flak Vest", "Carapace Greaves"]
    (sheet,) = load_sheets([entry])
    assert sheet.weapons[0].clip == 60
    assert sheet.armour_at("left_leg") == 5


def test_derived_is_json_friendly_and_not_serialised(acolyte):
    derived = acolyte.derived()
    assert json.loads(json.dumps(derived)) == derived
    assert derived["movement"]["run"] == 18
    dumped = acolyte.model_dump(mode="json")
    assert "movement" not in dumped
    assert "bonuses" not in dumped


# --- edits, round trips, visibility --------------------------------------------------------


def test_edit_returns_a_new_sheet_and_leaves_the_original(acolyte):
    hurt = acolyte.edit(damage=5, fatigue=1)
    assert (hurt.damage, hurt.fatigue) == (5, 1)
    assert (acolyte.damage, acolyte.fatigue) == (0, 0)
    with pytest.raises(SheetError, match="damage"):
        acolyte.edit(damage=99)
    assert acolyte.damage == 0


def test_json_round_trip_is_exact(acolyte):
    text = json.dumps(acolyte.model_dump(mode="json"))
    assert DarkHeresyCharacter.build(json.loads(text)) == acolyte
    assert load_sheet(json.loads(text)) == acolyte


def test_gm_notes_are_not_public(acolyte):
    assert "notes" not in acolyte.public_view()
    assert acolyte.public_view()["name"] == "Interrogator Vell"


def test_class_vars_name_the_models():
    assert DarkHeresyCharacter.weapon_model is Weapon
    assert DarkHeresyCharacter.armour_model is Armour
    assert DarkHeresyCharacter.GAME_TITLE == "Dark Heresy"


# --- catalogs --------------------------------------------------------------------------


@pytest.mark.catalog("dark_heresy", "weapons.yaml")
def test_every_catalog_weapon_validates_and_round_trips(entry):
    weapon = Weapon.model_validate(entry)
    assert Weapon.model_validate(weapon.model_dump(mode="json")) == weapon
    assert weapon.loaded == weapon.clip


@pytest.mark.catalog("dark_heresy", "armour.yaml")
def test_every_catalog_armour_validates(entry):
    armour = Armour.model_validate(entry)
    assert armour.points.covered


def test_the_catalog_has_the_common_weapons_with_their_numbers(catalog_entries):
    entries = catalog_entries("dark_heresy", "weapons.yaml")
    weapons = {entry["name"]: Weapon.model_validate(entry) for entry in entries}
    wanted = ["Lasgun", "Laspistol", "Autogun", "Bolt Pistol", "Chainsword", "Flamer"]
    wanted += ["Shotgun", "Stub Automatic"]
    assert set(wanted) <= set(weapons)
    lasgun = weapons["Lasgun"]
    assert (lasgun.range, lasgun.rof, lasgun.damage, lasgun.clip) == (100, "S/3/-", "1d10+3", 60)
    assert weapons["Bolt Pistol"].damage_type == "Explosive"
    assert weapons["Bolt Pistol"].quality("Tearing") is True


def test_the_armour_catalog_has_seed_001s_carapace_greaves(catalog_entries):
    entries = catalog_entries("dark_heresy", "armour.yaml")
    armour = {entry["name"]: Armour.model_validate(entry) for entry in entries}
    assert armour["Carapace Greaves"].points.at("right_leg") == 5


def test_universal_training_trains_every_group_of_its_class():
    from gmkit.sheets._dark_heresy import DarkHeresyCharacter, Weapon

    profile = dict(WS=35, BS=40, S=30, T=35, Ag=30, Int=30, Per=30, WP=30, Fel=30)
    plasma = Weapon.model_validate(
        {
            "name": "Plasma Gun",
            "weapon_class": "basic",
            "group": "plasma",
            "range": 90,
            "rof": "S/2/-",
            "damage": "1d10+6",
            "damage_type": "E",
            "pen": 6,
            "clip": 10,
            "reload": "Full",
        }
    )
    veteran = DarkHeresyCharacter.build(
        name="Vet",
        characteristics=profile,
        wounds=10,
        talents=["Basic Weapon Training (Universal)"],
    )
    assert veteran.weapon_training["basic"] == ["*"]
    assert veteran.trained(plasma)
    assert veteran.untrained_penalty(plasma) == 0
