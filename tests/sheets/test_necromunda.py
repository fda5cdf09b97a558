"""Necromunda fighter sheets: validation, derived values from the rules, catalogs as data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gmkit.errors import SheetError
from gmkit.sheets._necromunda import (
    Armour,
    GangType,
    NecromundaFighter,
    Weapon,
    resolve_strength,
)

CatalogEntries = Callable[[str, str], list[dict[str, Any]]]
"""The ``catalog_entries`` fixture (tests/sheets/conftest.py)."""


@pytest.fixture
def laspistol() -> dict[str, Any]:
    return {
        "name": "laspistol",
        "kind": "pistol",
        "short_range": 8,
        "long_range": 16,
        "to_hit_short": 2,
        "to_hit_long": -1,
        "strength": 3,
        "damage": "1",
        "ammo_roll": "2+",
    }


@pytest.fixture
def fighter(laspistol: dict[str, Any]) -> NecromundaFighter:
    return NecromundaFighter.build(
        name="Kal Jerico",
        side="Jerico's Boys",
        fighter_type="leader",
        WS=4,
        BS=4,
        I=4,
        Ld=8,
        weapons=[
            laspistol,
            {"name": "sword", "kind": "close combat", "special": ["parry"]},
            {"name": "club", "kind": "close combat", "strength": "user+1"},
        ],
        armour={"name": "flak armour", "save": "6+"},
        skills=["Quick Draw"],
        injuries=["Old Battle Wound"],
        notes="owes the Guild",
    )


def refused(data: dict[str, Any]) -> SheetError:
    with pytest.raises(SheetError) as caught:
        NecromundaFighter.build(data)
    return caught.value


def english(error: SheetError) -> list[tuple[str, str]]:
    """The problems of ``error`` as the English a GM reads (each problem is a message)."""
    return [(field, str(problem)) for field, problem in error.problems]


# --- the profile -------------------------------------------------------------------------


def test_defaults_are_the_texts_average_ganger() -> None:
    ganger = NecromundaFighter.build(name="Ganger")
    profile = [ganger.M, ganger.WS, ganger.BS, ganger.S, ganger.T, ganger.W, ganger.I]
    assert profile == [4, 3, 3, 3, 3, 1, 3]
    assert (ganger.A, ganger.Ld, ganger.game, ganger.fighter_type) == (1, 7, "necromunda", "ganger")


@pytest.mark.parametrize("stat", ["M", "WS", "BS", "S", "T", "W", "I", "A", "Ld"])
@pytest.mark.parametrize("value", [0, 10])
def test_profile_accepts_0_to_10(stat: str, value: int) -> None:
    assert getattr(NecromundaFighter.build(name="Vex", **{stat: value}), stat) == value


@pytest.mark.parametrize("stat", ["M", "WS", "BS", "S", "T", "W", "I", "A", "Ld"])
@pytest.mark.parametrize("value", [-1, 11])
def test_profile_refuses_out_of_range_naming_character_field_and_range(
    stat: str, value: int
) -> None:
    error = refused({"name": "Vex", stat: value})
    assert error.character == "Vex"
    assert english(error) == [(stat, f"must be from 0 to 10 (got {value})")]
    assert "'Vex'" in str(error)
    assert f"'{stat}'" in str(error)
    assert "0 to 10" in str(error)


def test_ws_11_message() -> None:
    assert str(refused({"name": "Vex", "WS": 11})) == (
        "character 'Vex': field 'WS': must be from 0 to 10 (got 11)"
    )


@pytest.mark.parametrize("value", [True, "three", 2.5, None])
def test_profile_refuses_non_numbers(value: Any) -> None:
    assert refused({"name": "Vex", "BS": value}).problems[0][0] == "BS"


def test_unknown_fields_and_game_and_fighter_type_are_refused() -> None:
    assert english(refused({"name": "Vex", "wounds": 2})) == [
        ("wounds", "is not a field of this sheet")
    ]
    assert refused({"name": "Vex", "game": "wfb6"}).problems[0][0] == "game"
    problem = refused({"name": "Vex", "fighter_type": "boss"}).problems[0]
    assert problem[0] == "fighter_type"
    assert "juve" in str(problem[1])


def test_name_is_required_and_not_blank() -> None:
    assert refused({"name": "  "}).problems[0][0] == "name"
    assert english(refused({})) == [("name", "Field required")]


@pytest.mark.parametrize("fighter_type", ["leader", "heavy", "ganger", "juve", "hired gun"])
def test_fighter_types(fighter_type: str) -> None:
    sheet = NecromundaFighter.build(name="Vex", fighter_type=fighter_type)
    assert sheet.fighter_type == fighter_type


def test_skills_and_injuries_may_not_repeat() -> None:
    assert english(refused({"name": "Vex", "skills": ["Dodge", "dodge"]})) == [
        ("skills", "skill 'dodge' appears twice")
    ]
    assert refused({"name": "Vex", "injuries": ["Blinded", "Blinded"]}).problems[0][0] == (
        "injuries"
    )


# --- to hit and flesh wounds --------------------------------------------------------------


@pytest.mark.parametrize(
    ("bs", "target", "needed"),
    [(0, 7, 7), (1, 6, 6), (2, 5, 5), (3, 4, 4), (4, 3, 3), (5, 2, 2), (6, 1, 2), (10, -3, 2)],
)
def test_to_hit_is_7_minus_bs_never_better_than_2(bs: int, target: int, needed: int) -> None:
    sheet = NecromundaFighter.build(name="Shooter", BS=bs)
    assert sheet.to_hit_target == target
    assert sheet.to_hit_needed == needed


def test_ganger_bs_3_needs_4_and_juve_bs_2_needs_5() -> None:
    assert NecromundaFighter.build(name="Ganger").to_hit_needed == 4
    assert NecromundaFighter.build(name="Juve", fighter_type="juve", BS=2).to_hit_needed == 5


def test_flesh_wounds_lower_ws_and_bs() -> None:
    sheet = NecromundaFighter.build(name="Vex", WS=3, BS=3, flesh_wounds=2)
    assert (sheet.effective_ws, sheet.effective_bs) == (1, 1)
    assert sheet.to_hit_target == 6
    assert not sheet.out_of_action
    assert (sheet.WS, sheet.BS) == (3, 3)  # the profile itself is unchanged


def test_both_at_zero_is_out_of_action() -> None:
    sheet = NecromundaFighter.build(name="Vex", WS=3, BS=3, flesh_wounds=3)
    assert (sheet.effective_ws, sheet.effective_bs, sheet.out_of_action) == (0, 0, True)


def test_one_at_zero_is_not_out_of_action() -> None:
    sheet = NecromundaFighter.build(name="Vex", WS=2, BS=4, flesh_wounds=2)
    assert (sheet.effective_ws, sheet.effective_bs, sheet.out_of_action) == (0, 2, False)
    assert sheet.to_hit_needed == 5


def test_zero_ws_and_bs_without_flesh_wounds_is_not_out_of_action() -> None:
    assert not NecromundaFighter.build(name="Drone", WS=0, BS=0).out_of_action
    assert NecromundaFighter.build(name="Drone", WS=0, BS=0, flesh_wounds=1).out_of_action


def test_flesh_wounds_beyond_out_of_action_are_refused() -> None:
    error = refused({"name": "Vex", "WS": 3, "BS": 2, "flesh_wounds": 4})
    assert error.problems[0][0] == "flesh_wounds"
    assert "at most 3" in str(error.problems[0][1])
    assert refused({"name": "Vex", "flesh_wounds": -1}).problems[0][0] == "flesh_wounds"


# --- weapons and armour ---------------------------------------------------------------------


def test_laspistol_at_12_inches_is_long_range_minus_1(laspistol: dict[str, Any]) -> None:
    weapon = Weapon.model_validate(laspistol)
    assert weapon.range_band(12) == "long"
    assert weapon.range_modifier(12) == -1
    assert weapon.range_band(8) == "short"
    assert weapon.range_modifier(4) == 2
    assert weapon.range_band(16) == "long"
    assert weapon.range_band(16.5) == "out of range"
    assert weapon.range_modifier(17) is None
    with pytest.raises(ValueError, match="negative"):
        weapon.range_band(-1)


def test_the_seeds_juve_example_needs_7(laspistol: dict[str, Any]) -> None:
    juve = NecromundaFighter.build(name="Juve", fighter_type="juve", BS=2, weapons=[laspistol])
    partial_cover = -1
    assert juve.to_hit_target - juve.weapons[0].range_modifier(12) - partial_cover == 7


def test_weapon_fields_are_read_as_the_rules_print_them(laspistol: dict[str, Any]) -> None:
    weapon = Weapon.model_validate({**laspistol, "strength": " User + 2 ", "ammo_roll": "auto"})
    assert (weapon.strength, weapon.ammo_roll) == ("user+2", "auto")
    assert Weapon.model_validate({**laspistol, "ammo_roll": "-"}).ammo_roll is None
    assert Weapon.model_validate({**laspistol, "strength": "4"}).strength == 4
    assert Weapon.model_validate({**laspistol, "strength": "user+0"}).strength == "user"


def test_template_and_close_combat_weapons_have_no_bands() -> None:
    flamer = Weapon.model_validate({"name": "flamer", "kind": "special", "template": True})
    knife = Weapon.model_validate({"name": "knife", "kind": "close combat"})
    assert flamer.range_band(5) is None
    assert knife.range_modifier(1) == 0


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"short_range": 16}, "long_range", "more than short_range (16)"),
        ({"short_range": None}, "short_range", "needs short_range and long_range"),
        ({"long_range": 121}, "long_range", "from 1 to 120"),
        ({"to_hit_short": 4}, "to_hit_short", "from -3 to 3"),
        ({"strength": 11}, "strength", "from 1 to 10"),
        ({"strength": "users"}, "strength", "'user'"),
        ({"damage": "D6+"}, "damage", "dice expression 'D6+'"),
        ({"save_modifier": -7}, "save_modifier", "from -6 to 6"),
        ({"ammo_roll": "7+"}, "ammo_roll", "from 2 to 6"),
        ({"ammo_roll": "often"}, "ammo_roll", "'auto'"),
        ({"kind": "rifle"}, "kind", "pistol"),
        ({"template": True}, "short_range", "a template weapon has no range bands"),
        ({"range": 12}, "range", "not a field"),
    ],
)
def test_weapon_errors_name_character_and_field(
    laspistol: dict[str, Any], change: dict[str, Any], field: str, words: str
) -> None:
    error = refused({"name": "Vex", "weapons": [{**laspistol, **change}]})
    assert error.character == "Vex"
    fields = [where for where, _ in error.problems]
    assert f"weapons[0].{field}" in fields
    assert words in str(error)


def test_close_combat_weapons_refuse_ranges_and_ammo() -> None:
    knife = {"name": "knife", "kind": "close combat"}
    error = refused({"name": "Vex", "weapons": [{**knife, "long_range": 3}]})
    assert error.problems[0][0] == "weapons[0].long_range"
    error = refused({"name": "Vex", "weapons": [{**knife, "ammo_roll": 4}]})
    assert english(error) == [
        ("weapons[0].ammo_roll", "a close combat weapon takes no ammo roll (got 4)")
    ]


def test_weapon_names_are_unique(laspistol: dict[str, Any]) -> None:
    error = refused({"name": "Vex", "weapons": [laspistol, {**laspistol, "name": "Laspistol"}]})
    assert english(error) == [("weapons", "weapon 'Laspistol' appears twice")]


def test_armour_save_is_the_number_needed() -> None:
    assert Armour.model_validate({"name": "mesh", "save": "5+"}).save == 5
    assert Armour.model_validate({"name": "rags", "save": "-"}).save is None
    assert Armour.model_validate({"name": "mesh", "save": "5.0"}).save == 5  # a CSV cell
    error = refused({"name": "Vex", "armour": {"name": "plate", "save": 1}})
    assert english(error) == [("armour.save", "must be from 2 to 6 (got 1)")]
    assert refused({"name": "Vex", "armour": {"name": "x", "save": "auto"}}).problems[0][0] == (
        "armour.save"
    )


def test_weapon_strengths_resolve_user(fighter: NecromundaFighter) -> None:
    assert fighter.weapon_strengths == {"laspistol": 3, "sword": 3, "club": 4}
    assert fighter.high_impact_weapons == []
    strong = fighter.edit(S=6)
    assert strong.weapon_strengths["club"] == 7
    assert strong.high_impact_weapons == ["club"]
    assert resolve_strength("user-1", 3) == 2


def test_derived_values(fighter: NecromundaFighter) -> None:
    assert fighter.derived() == {
        "effective_ws": 4,
        "effective_bs": 4,
        "out_of_action": False,
        "to_hit_target": 3,
        "to_hit_needed": 3,
        "run_distance": 8,
        "armour_save": 6,
        "weapon_strengths": {"laspistol": 3, "sword": 3, "club": 4},
        "high_impact_weapons": [],
    }
    assert fighter.bonuses() == {"S": 3}
    assert fighter.spotting_range() == 4
    assert fighter.spotting_range(3) == 12
    assert NecromundaFighter.build(name="Bare").armour_save is None


# --- immutability, round trips, visibility ------------------------------------------------


def test_edit_returns_a_validated_copy(fighter: NecromundaFighter) -> None:
    wounded = fighter.edit(flesh_wounds=1)
    assert (wounded.flesh_wounds, wounded.effective_bs) == (1, 3)
    assert (fighter.flesh_wounds, fighter.effective_bs) == (0, 4)
    with pytest.raises(SheetError, match=r"'Kal Jerico'.*'WS'.*0 to 10"):
        fighter.edit(WS=11)
    assert fighter.WS == 4


def test_sheet_is_frozen(fighter: NecromundaFighter) -> None:
    with pytest.raises(ValueError, match="frozen"):
        fighter.WS = 5  # type: ignore[misc]


def test_json_round_trip(fighter: NecromundaFighter) -> None:
    data = fighter.model_dump(mode="json")
    assert NecromundaFighter.build(data) == fighter
    assert "effective_ws" not in data
    assert data["armour"] == {"name": "flak armour", "save": 6, "special": []}
    assert data["weapons"][2]["strength"] == "user+1"


def test_notes_are_gm_only(fighter: NecromundaFighter) -> None:
    assert "notes" not in fighter.public_view()
    assert fighter.public_view()["name"] == "Kal Jerico"


def test_class_vars() -> None:
    assert NecromundaFighter.weapon_model is Weapon
    assert NecromundaFighter.armour_model is Armour
    assert NecromundaFighter.GAME_TITLE == "Necromunda"


# --- catalogs -------------------------------------------------------------------------------


@pytest.mark.catalog("necromunda", "weapons.yaml")
def test_every_catalog_weapon_validates_and_round_trips(entry: dict[str, Any]) -> None:
    weapon = Weapon.model_validate(entry)
    assert Weapon.model_validate(weapon.model_dump(mode="json")) == weapon
    NecromundaFighter.build(name="Armed", weapons=[entry])


def test_weapon_catalog_holds_the_briefs_weapons(catalog_entries: CatalogEntries) -> None:
    entries = catalog_entries("necromunda", "weapons.yaml")
    names = {entry["name"] for entry in entries}
    wanted = {"laspistol", "lasgun", "autopistol", "stub gun", "bolt pistol", "boltgun"}
    wanted |= {"autogun", "heavy stubber", "flamer", "knife", "club", "chain sword", "sword"}
    assert wanted <= names
    assert any(name.startswith("shotgun") for name in names)
    laspistol = next(entry for entry in entries if entry["name"] == "laspistol")
    assert Weapon.model_validate(laspistol).range_modifier(12) == -1


@pytest.mark.catalog("necromunda", "armour.yaml")
def test_every_catalog_armour_validates(entry: dict[str, Any]) -> None:
    armour = Armour.model_validate(entry)
    assert NecromundaFighter.build(name="Armoured", armour=entry).armour_save == armour.save


def test_armour_catalog_saves(catalog_entries: CatalogEntries) -> None:
    entries = catalog_entries("necromunda", "armour.yaml")
    saves = {entry["name"]: Armour.model_validate(entry).save for entry in entries}
    assert saves == {"flak armour": 6, "mesh armour": 5, "carapace armour": 4}


def test_gangs_of_the_seed_are_listed_and_valid(catalog_entries: CatalogEntries) -> None:
    entries = catalog_entries("necromunda", "gangs.yaml")
    gangs = {entry["id"]: GangType.model_validate(entry) for entry in entries}
    assert {"scavvies", "pit_slaves", "redemptionists", "spyrers", "house_cawdor"} <= set(gangs)
    assert gangs["redemptionists"].leader == "Redemptionist Priest"
    assert all(gang.nature for gang in gangs.values())


def test_only_the_seeds_numbers_are_unmarked_stat_lines(catalog_entries: CatalogEntries) -> None:
    entries = catalog_entries("necromunda", "gangs.yaml")
    lines = [line for entry in entries for line in GangType.model_validate(entry).profiles]
    unmarked = [line for line in lines if not line.example]
    # the only stat line the seed gives: its attribute averages, the ganger's profile
    assert [(line.fighter_type, line.M, line.WS, line.BS, line.Ld) for line in unmarked] == [
        ("ganger", 4, 3, 3, 7)
    ]
    juve = next(line for line in lines if line.fighter_type == "juve")
    assert juve.BS == 2


def test_gang_type_ids_and_stat_lines_are_validated() -> None:
    with pytest.raises(ValueError, match="lower-case"):
        GangType.model_validate({"id": "Pit Slaves", "name": "Pit Slaves"})
    line = {"fighter_type": "ganger", "title": "G", "M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3}
    with pytest.raises(ValueError, match="Field required"):
        GangType.model_validate({"id": "x", "name": "X", "profiles": [line]})
