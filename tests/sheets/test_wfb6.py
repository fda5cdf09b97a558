"""Warhammer Fantasy Battle 6e sheets: validation, the size ladder, shooting at characters."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gmkit.errors import SheetError
from gmkit.sheets._wfb6 import (
    Armour,
    TroopType,
    Weapon,
    WFB6Character,
    WFB6Model,
    size_rank,
    troop_types,
)

CatalogEntries = Callable[[str, str], list[dict[str, Any]]]
"""The ``catalog_entries`` fixture (tests/sheets/conftest.py)."""


@pytest.fixture
def captain() -> WFB6Character:
    return WFB6Character.build(
        name="Captain Dieter",
        side="Reikland",
        WS=5,
        BS=5,
        S=4,
        T=4,
        W=2,
        I=5,
        A=3,
        Ld=8,
        weapons=[
            {"name": "long bow", "range_cm": 75, "strength": 3},
            {"name": "throwing axes", "range_cm": 15, "strength": "user+1"},
            {"name": "great weapon", "strength": "user+2"},
        ],
        armour=[{"name": "heavy armour", "save": "5+"}, {"name": "shield", "improves": 1}],
        special_rules=["Hold your ground"],
        notes="secretly a cultist",
    )


def refused(data: dict[str, Any]) -> SheetError:
    with pytest.raises(SheetError) as caught:
        WFB6Character.build(data)
    return caught.value


def english(error: SheetError) -> list[tuple[str, str]]:
    """The problems of ``error`` as the English a GM reads (each problem is a message)."""
    return [(field, str(problem)) for field, problem in error.problems]


# --- profile -------------------------------------------------------------------------------


def test_defaults() -> None:
    model = WFB6Character.build(name="Soldier")
    assert (model.M, model.WS, model.BS, model.Ld) == (10, 3, 3, 7)
    assert (model.game, model.troop_type, model.role) == ("wfb6", "infantry", "character")
    assert WFB6Model is WFB6Character


@pytest.mark.parametrize("stat", ["WS", "BS", "S", "T", "W", "I", "A", "Ld"])
@pytest.mark.parametrize("value", [-1, 11])
def test_profile_range_is_named(stat: str, value: int) -> None:
    error = refused({"name": "Dieter", stat: value})
    assert error.character == "Dieter"
    assert english(error) == [(stat, f"must be from 0 to 10 (got {value})")]


def test_ws_11_message() -> None:
    assert str(refused({"name": "Dieter", "WS": 11})) == (
        "character 'Dieter': field 'WS': must be from 0 to 10 (got 11)"
    )


def test_movement_is_in_centimetres() -> None:
    assert WFB6Character.build(name="Eagle", M=50).M == 50
    assert english(refused({"name": "Eagle", "M": 61})) == [("M", "must be from 0 to 60 (got 61)")]
    assert refused({"name": "Eagle", "M": True}).problems[0][0] == "M"


def test_unknown_troop_type_lists_the_ladder() -> None:
    problem = refused({"name": "Dieter", "troop_type": "horde"}).problems[0]
    assert problem[0] == "troop_type"
    assert "swarm, infantry, cavalry" in str(problem[1])


def test_unknown_role_and_field() -> None:
    assert refused({"name": "Dieter", "role": "hero"}).problems[0][0] == "role"
    assert english(refused({"name": "Dieter", "unit_size": 5})) == [
        ("unit_size", "is not a field of this sheet")
    ]


# --- troop types -----------------------------------------------------------------------------


def test_troop_type_order_follows_the_text() -> None:
    assert list(troop_types()) == [
        "swarm",
        "infantry",
        "cavalry",
        "war_beast",
        "monstrous_infantry",
        "monstrous_cavalry",
        "monstrous_beast",
        "war_machine",
        "chariot",
        "monster",
    ]
    ranks = {name: size_rank(name) for name in troop_types()}
    assert ranks["swarm"] < ranks["infantry"] < ranks["cavalry"] < ranks["monstrous_infantry"]
    assert ranks["monstrous_infantry"] < ranks["chariot"] < ranks["monster"]
    assert ranks["cavalry"] == ranks["war_beast"]
    assert ranks["war_machine"] == ranks["monstrous_cavalry"] == ranks["monstrous_beast"]


def test_a_large_target_is_on_the_top_rung() -> None:
    assert size_rank("chariot") == 5
    assert size_rank("chariot", large_target=True) == 6
    assert size_rank("monster") == 6
    assert size_rank("war_machine", large_target=True) == 6


@pytest.mark.catalog("wfb6", "troop_types.yaml", id_key="id")
def test_every_troop_type_entry_validates(entry: dict[str, Any]) -> None:
    assert TroopType.model_validate(entry).id == entry["id"]


def test_troop_type_entries_are_checked() -> None:
    with pytest.raises(ValueError, match="from 1 to 6"):
        TroopType.model_validate({"id": "titan", "name": "Titan", "size": 7})
    with pytest.raises(ValueError, match="pattern"):
        TroopType.model_validate({"id": "Big Thing", "name": "Big", "size": 6})


# --- large targets, units, mounts ------------------------------------------------------------


def test_large_target_is_derived_from_troop_type_and_overridable() -> None:
    dragon_rider = WFB6Character.build(name="Elector", troop_type="monster", mount="Griffon")
    assert dragon_rider.is_large_target
    assert dragon_rider.size_rank == 6
    small_monster = dragon_rider.edit(large_target=False)
    assert not small_monster.is_large_target
    giant_chariot = WFB6Character.build(
        name="War altar", troop_type="chariot", mount="altar", large_target=True
    )
    assert (giant_chariot.is_large_target, giant_chariot.size_rank) == (True, 6)
    assert WFB6Character.build(name="Foot").is_large_target is False


def test_rank_and_file_and_champions_belong_to_a_unit() -> None:
    for role in ("rank and file", "champion"):
        error = refused({"name": "Hans", "role": role})
        assert error.problems[0][0] == "unit"
        assert "must name the unit" in str(error.problems[0][1])
    hans = WFB6Character.build(name="Hans", role="champion", unit="Altdorf Swordsmen")
    assert hans.look_out_sir_candidate
    assert not hans.is_lone_character


def test_mounts_must_fit_the_troop_type() -> None:
    error = refused({"name": "Dieter", "mount": "warhorse"})
    assert error.problems[0][0] == "mount"
    assert "'infantry' rides no mount" in str(error.problems[0][1])
    error = refused({"name": "Dieter", "troop_type": "cavalry"})
    assert english(error) == [("mount", "troop type 'cavalry' must name its mount (got '')")]
    knight = WFB6Character.build(name="Knight", troop_type="cavalry", mount="barded warhorse")
    assert (knight.mounted, knight.size_rank) == (True, 3)


def test_lone_infantry_character_is_minus_1_to_hit(captain: WFB6Character) -> None:
    assert captain.is_lone_character
    assert captain.counts_as_infantry_character
    assert captain.shot_at_modifier == -1


def test_character_in_a_unit_gets_no_lone_modifier(captain: WFB6Character) -> None:
    joined = captain.edit(unit="Altdorf Swordsmen")
    assert not joined.is_lone_character
    assert joined.counts_as_infantry_character
    assert joined.shot_at_modifier == 0
    assert joined.look_out_sir_candidate
    assert not captain.look_out_sir_candidate


def test_mounted_or_larger_characters_are_not_infantry(captain: WFB6Character) -> None:
    mounted = captain.edit(troop_type="cavalry", mount="warhorse")
    assert not mounted.counts_as_infantry_character
    assert mounted.shot_at_modifier == 0
    ogre = captain.edit(troop_type="monstrous_infantry")
    assert not ogre.counts_as_infantry_character
    on_dragon = captain.edit(troop_type="monster", mount="Dragon")
    assert on_dragon.shot_at_modifier == 1


def test_rank_and_file_is_never_a_character() -> None:
    trooper = WFB6Character.build(name="Trooper", role="rank and file", unit="Spearmen")
    assert not trooper.counts_as_infantry_character
    assert not trooper.look_out_sir_candidate
    assert trooper.shot_at_modifier == 0


def test_same_size_or_larger(captain: WFB6Character) -> None:
    assert captain.same_size_or_larger(size_rank("infantry"))
    assert captain.same_size_or_larger(size_rank("cavalry"))
    assert not captain.same_size_or_larger(size_rank("swarm"))
    knight = captain.edit(troop_type="cavalry", mount="warhorse")
    assert not knight.same_size_or_larger(size_rank("infantry"))
    assert knight.same_size_or_larger(size_rank("war_beast"))


# --- weapons and armour ------------------------------------------------------------------


def test_derived_values(captain: WFB6Character) -> None:
    assert captain.derived() == {
        "is_large_target": False,
        "size_rank": 2,
        "mounted": False,
        "is_lone_character": True,
        "counts_as_infantry_character": True,
        "shot_at_modifier": -1,
        "look_out_sir_candidate": False,
        "weapon_strengths": {"long bow": 3, "throwing axes": 5, "great weapon": 6},
        "armour_save": 4,
    }
    assert captain.bonuses() == {"S": 4}


def test_weapon_range_and_kind(captain: WFB6Character) -> None:
    bow, _axes, great_weapon = captain.weapons
    assert bow.is_missile
    assert bow.in_range(75)
    assert not bow.in_range(76)
    assert not great_weapon.is_missile
    assert not great_weapon.in_range(1)
    with pytest.raises(ValueError, match="negative"):
        bow.in_range(-1)


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"range_cm": 0}, "range_cm", "from 1 to 500"),
        ({"strength": 0}, "strength", "from 1 to 10"),
        ({"strength": "strong"}, "strength", "'user'"),
        ({"shots": 11}, "shots", "from 1 to 10"),
        ({"special": [""]}, "special[0]", "at least 1 character"),
        ({"damage": "D6"}, "damage", "not a field"),
    ],
)
def test_weapon_errors_name_character_and_field(
    change: dict[str, Any], field: str, words: str
) -> None:
    weapon = {"name": "bow", "range_cm": 60, "strength": 3, **change}
    error = refused({"name": "Dieter", "weapons": [weapon]})
    assert error.character == "Dieter"
    assert f"weapons[0].{field}" in [where for where, _ in error.problems]
    assert words in str(error)


def test_weapon_and_rule_names_are_unique() -> None:
    bow = {"name": "bow", "range_cm": 60, "strength": 3}
    assert english(refused({"name": "D", "weapons": [bow, bow]})) == [
        ("weapons", "weapon 'bow' appears twice")
    ]
    assert refused({"name": "D", "special_rules": ["Fear", "fear"]}).problems[0][0] == (
        "special_rules"
    )


def test_armour_saves() -> None:
    def save(*pieces: dict[str, Any]) -> int | None:
        return WFB6Character.build(name="A", armour=list(pieces)).armour_save

    assert save() is None
    assert save({"name": "light armour", "save": "6+"}) == 6
    assert save({"name": "shield", "improves": 1}) == 6
    assert save({"name": "heavy armour", "save": 5}, {"name": "shield", "improves": 1}) == 4
    error = refused({"name": "A", "armour": [{"name": "a", "save": 5}, {"name": "b", "save": 6}]})
    assert english(error) == [
        ("armour", "at most one piece may give a save; the others improve it")
    ]
    assert english(refused({"name": "A", "armour": [{"name": "x", "save": "1+"}]})) == [
        ("armour[0].save", "must be from 2 to 6 (got 1)")
    ]
    assert refused({"name": "A", "armour": [{"name": "x", "improves": 4}]}).problems[0][0] == (
        "armour[0].improves"
    )


# --- immutability, round trips ----------------------------------------------------------------


def test_edit_leaves_the_original(captain: WFB6Character) -> None:
    joined = captain.edit(unit="Greatswords")
    assert captain.unit == ""
    assert joined.unit == "Greatswords"
    with pytest.raises(SheetError, match=r"'Captain Dieter'.*'WS'.*0 to 10"):
        captain.edit(WS=11)
    with pytest.raises(SheetError, match="'mount'"):
        captain.edit(troop_type="cavalry")


def test_json_round_trip(captain: WFB6Character) -> None:
    data = captain.model_dump(mode="json")
    assert WFB6Character.build(data) == captain
    assert "size_rank" not in data
    assert data["weapons"][1]["strength"] == "user+1"
    flagged = captain.edit(troop_type="chariot", mount="chariot", large_target=True)
    assert WFB6Character.build(flagged.model_dump(mode="json")) == flagged


def test_notes_are_gm_only(captain: WFB6Character) -> None:
    assert "notes" not in captain.public_view()


def test_class_vars() -> None:
    assert WFB6Character.weapon_model is Weapon
    assert WFB6Character.armour_model is Armour
    assert "6th" in WFB6Character.GAME_TITLE


# --- catalog -----------------------------------------------------------------------------------


@pytest.mark.catalog("wfb6", "weapons.yaml")
def test_every_catalog_weapon_validates(entry: dict[str, Any]) -> None:
    weapon = Weapon.model_validate(entry)
    assert weapon.is_missile
    assert Weapon.model_validate(weapon.model_dump(mode="json")) == weapon
    WFB6Character.build(name="Archer", weapons=[entry])


def test_weapon_catalog_holds_the_briefs_weapons(catalog_entries: CatalogEntries) -> None:
    names = {entry["name"] for entry in catalog_entries("wfb6", "weapons.yaml")}
    assert {"bow", "crossbow", "handgun", "long bow", "short bow", "throwing weapons"} <= names
