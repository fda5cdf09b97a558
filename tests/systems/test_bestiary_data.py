"""The packaged bestiaries (``systems/data/<game>/bestiary.yaml``): honest, complete, valid.

Every entry says where its numbers come from; the creatures the prep issue names are there;
the numbers taken from a seed are the seed's and those taken from the demo roster are the
demo's; every entry validates as a sheet of its game, read as a roster would read it and
through :func:`gmkit.systems._bestiary.bestiary`.

The seed numbers asserted here (seed 000, Necromunda): every attribute's average, which the
text gives as a ganger's profile (M 4; WS, BS, S, T, I 3; W 1; A 1; Ld 7); a ganger of BS 3
hits on 4+ (7 - BS); a juve ("Novato") has BS 2 and, in the shooting example, a laspistol, so
needs 5+. The other seeds give no creature's profile, so no other entry may claim a seed.
"""

from __future__ import annotations

from importlib import resources
from typing import Any, TypeVar

import pytest
import yaml

from gmkit.sheets._dark_heresy import DarkHeresyCharacter
from gmkit.sheets._deathwatch import DeathwatchCharacter
from gmkit.sheets._io import load_sheets
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.sheets.base import Sheet
from gmkit.systems._bestiary import bestiary

GAMES = ("necromunda", "dark_heresy", "deathwatch", "wfrp2", "wfb6")
SOURCES = ("seed ", "gmkit demo roster", "common profile")
SEEDLESS = ("dark_heresy", "deathwatch", "wfrp2", "wfb6")
"""Games whose seed gives no creature's profile: no entry of theirs may cite a seed."""

MUST_HAVE = {
    "necromunda": ("Hive ganger", "Juve", "Heavy", "Gang leader", "Scavvy", "Scavvy boss"),
    "dark_heresy": ("Cultist", "Cult demagogue", "Hive ganger", "Heretek", "Enforcer"),
    "deathwatch": ("Ork boy", "Ork boyz horde", "Ork nob", "Cultist horde", "Heretic"),
    "wfrp2": ("Gor", "Ungor", "Bray-shaman", "Goblin", "Orc", "Bandit", "Skaven clanrat"),
    "wfb6": ("Knight of the Realm", "Swordsman", "Night goblin archer", "Orc boy"),
}

PLAYER_SIDE = {
    "necromunda": ("Gang leader", "Heavy", "Hive ganger", "Juve"),
    "dark_heresy": (
        "Guardsman",
        "Assassin",
        "Adept",
        "Scum",
        "Arbitrator",
        "Cleric",
        "Imperial psyker",
        "Tech-priest",
    ),
    "deathwatch": ("Tactical Marine", "Assault Marine", "Devastator Marine", "Apothecary"),
    "wfrp2": ("Soldier", "Hunter", "Initiate", "Mercenary", "Watchman", "Apprentice wizard"),
    "wfb6": ("General of the Empire", "Battle wizard", "Bretonnian lord", "Orc warboss"),
}
"""The players' side of each game (issue 21): the archetypes a GM stats a player's character
from (Dark Heresy's careers, Deathwatch's battle-brothers...), each with its Spanish name."""

DEMO_TWINS = {
    "necromunda": {"Scavvy": "Rotgut", "Scavvy boss": "Grubnose the Scavvy Boss"},
    "dark_heresy": {
        "Cultist": "Cultist Ban",
        "Cult demagogue": "Demagogue Ostrava",
        "Guardsman": "Sergeant Varro Tull",
        "Assassin": "Ilse Marr",
        "Adept": "Adept Cornelius Fenn",
        "Scum": "Jessa Kell",
    },
    "deathwatch": {
        "Ork boyz horde": "Ork Boyz mob",
        "Ork nob": "Nob Gritfang",
        "Tactical Marine": "Brother Castor",
        "Assault Marine": "Brother Ilarion",
        "Devastator Marine": "Brother Varek",
    },
    "wfrp2": {
        "Gor": "Gor Bloodhorn",
        "Ungor": "Ungor Snitch",
        "Bray-shaman": "Bray-shaman Vhorlag",
        "Soldier": "Gunther Brandauer",
        "Hunter": "Elsa Wendt",
        "Initiate": "Brother Matthias",
    },
    "wfb6": {"Swordsman": "Swordsman", "Night goblin archer": "Night Goblin Archer"},
}
"""Bestiary entry -> the demo character its ``gmkit demo roster`` numbers were taken from."""
S = TypeVar("S", bound=Sheet)
IGNORED = {"name", "name_es", "side", "notes", "unit", "game"}
"""Fields a bestiary entry may set apart from its demo twin (the GM's choices, not numbers)."""


def entries(game: str) -> list[dict[str, Any]]:
    path = resources.files("gmkit.systems").joinpath("data", game, "bestiary.yaml")
    data = yaml.safe_load(path.read_text("utf-8"))
    assert isinstance(data, list), f"{game}: the bestiary is not a list"
    assert data, f"{game}: the bestiary is empty"
    assert all(isinstance(item, dict) for item in data)
    return data


def sheets(game: str) -> dict[str, Sheet]:
    items = [
        {**{k: v for k, v in item.items() if k not in ("source", "name_es")}, "game": game}
        for item in entries(game)
    ]
    return {sheet.name: sheet for sheet in load_sheets(items, source=f"{game} bestiary")}


def sheet(game: str, name: str, cls: type[S]) -> S:
    """The bestiary's ``name`` read as a roster reads it, as the game's sheet class."""
    found = sheets(game)[name]
    assert isinstance(found, cls)
    return found


def demo_character(game: str, name: str) -> dict[str, Any]:
    path = resources.files("gmkit.demo").joinpath(f"{game}.yaml")
    roster = yaml.safe_load(path.read_text("utf-8"))
    found = [item for item in roster["characters"] if item["name"] == name]
    assert len(found) == 1, f"{game}: no demo character {name!r}"
    return dict(found[0])


@pytest.fixture(autouse=True)
def _packaged_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GMKIT_DATA_PATH", raising=False)


@pytest.mark.parametrize("game", GAMES)
def test_every_entry_names_its_source_and_no_game_or_side(game: str) -> None:
    for item in entries(game):
        source = item.get("source")
        assert isinstance(source, str), f"{item.get('name')}: no source"
        assert source.strip(), f"{item.get('name')}: a blank source"
        assert source.startswith(SOURCES), f"{item['name']}: source {source!r}"
        assert not {"game", "side"} & set(item), item["name"]
        if game in SEEDLESS:
            assert not source.startswith("seed "), f"{item['name']} cites a seed that has none"


@pytest.mark.parametrize("game", GAMES)
def test_names_are_unique_and_the_issue_creatures_are_there(game: str) -> None:
    names = [item["name"] for item in entries(game)]
    assert len(names) == len({name.casefold() for name in names})
    assert 5 <= len(names) <= 20
    missing = [name for name in MUST_HAVE[game] if name not in names]
    assert missing == []


@pytest.mark.parametrize("game", GAMES)
def test_seed_creatures_come_first(game: str) -> None:
    sources = [item["source"] for item in entries(game)]
    order = [SOURCES.index(next(p for p in SOURCES if s.startswith(p))) for s in sources]
    seeds = [index for index in order if index == 0]
    assert order[: len(seeds)] == seeds  # every seed entry before any other


@pytest.mark.parametrize("game", GAMES)
def test_every_entry_validates_as_a_roster_and_through_the_bestiary(game: str) -> None:
    loaded = sheets(game)
    assert len(loaded) == len(entries(game))
    creatures = bestiary(game)
    assert list(creatures) == list(loaded)
    for name, sheet in loaded.items():
        assert creatures[name].sheet.model_dump() == sheet.model_dump()
    by_name = {item["name"]: item["source"] for item in entries(game)}
    assert {name: creature.source for name, creature in creatures.items()} == by_name


def test_necromunda_ganger_is_the_seed_average_profile() -> None:
    ganger = sheet("necromunda", "Hive ganger", NecromundaFighter)
    profile = {key: getattr(ganger, key) for key in ("M", "WS", "BS", "S", "T", "W", "I", "A")}
    assert profile == dict(M=4, WS=3, BS=3, S=3, T=3, W=1, I=3, A=1)
    assert (ganger.Ld, ganger.fighter_type, ganger.to_hit_needed) == (7, "ganger", 4)
    assert entries("necromunda")[0]["source"].startswith("seed 000")


def test_necromunda_juve_has_the_seed_example_bs_and_laspistol() -> None:
    juve = sheet("necromunda", "Juve", NecromundaFighter)
    assert (juve.fighter_type, juve.BS, juve.to_hit_needed) == ("juve", 2, 5)
    assert [weapon.name for weapon in juve.weapons] == ["laspistol", "knife"]
    assert juve.weapons[0].range_modifier(12) == -1  # the seed's example: 12" is long range


def test_necromunda_fighter_types_and_scavvy_gang() -> None:
    loaded = {
        name: sheet("necromunda", name, NecromundaFighter) for name in MUST_HAVE["necromunda"]
    }
    kinds = {name: (fighter.fighter_type, fighter.gang_type) for name, fighter in loaded.items()}
    assert kinds == {
        "Hive ganger": ("ganger", "house_gang"),
        "Juve": ("juve", "house_gang"),
        "Heavy": ("heavy", "house_gang"),
        "Gang leader": ("leader", "house_gang"),
        "Scavvy": ("ganger", "scavvies"),
        "Scavvy boss": ("leader", "scavvies"),
    }
    assert [w.name for w in loaded["Heavy"].weapons] == ["heavy stubber", "knife"]


def test_dark_heresy_cultist_is_a_minion_and_the_heretek_has_a_laspistol() -> None:
    def of(name: str) -> DarkHeresyCharacter:
        return sheet("dark_heresy", name, DarkHeresyCharacter)

    assert (of("Cultist").minion, of("Cult demagogue").minion) == (True, False)
    heretek = of("Heretek")
    laspistol = heretek.weapons[0]
    assert (laspistol.name, laspistol.damage, laspistol.range) == ("Laspistol", "1d10+2", 30)
    assert [heretek.trained(weapon) for weapon in heretek.weapons] == [True, True]
    assert of("Enforcer").armour_at("body") == 5


def test_deathwatch_tiers_and_hordes() -> None:
    def of(name: str) -> DeathwatchCharacter:
        return sheet("deathwatch", name, DeathwatchCharacter)

    mob = of("Ork boyz horde")
    assert (mob.is_horde, mob.tier, mob.horde_armour) == (True, "troop", 2)
    assert mob.horde is not None
    assert (mob.horde.magnitude, mob.horde.magnitude_max) == (30, 30)
    cultists = of("Cultist horde").horde
    assert cultists is not None
    assert cultists.magnitude == 20
    assert (of("Ork boy").tier, of("Ork boy").is_horde) == ("troop", False)
    assert (of("Ork nob").tier, of("Ork nob").bonus("S")) == ("elite", 10)


@pytest.mark.parametrize("game", GAMES)
def test_demo_roster_entries_carry_the_demo_numbers(game: str) -> None:
    items = {item["name"]: item for item in entries(game)}
    for name, twin in DEMO_TWINS[game].items():
        assert items[name]["source"].startswith("gmkit demo roster"), name
        demo = demo_character(game, twin)
        mine = {k: v for k, v in items[name].items() if k not in IGNORED | {"source"}}
        theirs = {k: v for k, v in demo.items() if k not in IGNORED}
        if game == "wfrp2":  # the demo types wounds_current/fortune and zero secondaries
            theirs.pop("wounds_current", None)
            theirs["secondary"] = {k: v for k, v in theirs["secondary"].items() if v}
            mine["secondary"] = {k: v for k, v in mine["secondary"].items() if v}
        if "horde" in theirs:  # a full horde: magnitude is filled from magnitude_max
            theirs["horde"] = {"magnitude_max": theirs["horde"]["magnitude_max"]}
        assert mine == theirs, name


def test_wfb6_knight_is_cavalry_with_the_published_save() -> None:
    knight = sheet("wfb6", "Knight of the Realm", WFB6Character)
    assert (knight.troop_type, knight.role, knight.mount, knight.M) == (
        "cavalry",
        "rank and file",
        "barded warhorse",
        20,
    )
    assert (knight.armour_save, knight.weapon_strengths) == (2, {"lance": 5})
    archer = sheet("wfb6", "Night goblin archer", WFB6Character)
    assert (archer.weapons[0].range_cm, archer.BS) == (40, 3)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_its_players_side_each_with_a_spanish_name(game: str) -> None:
    found = bestiary(game)
    for name in PLAYER_SIDE[game]:
        assert name in found, f"{game}: no {name!r} for the players' side"
        assert found[name].name_es, f"{game}: {name!r} has no Spanish name"


def test_the_battle_brothers_are_power_armoured_with_unnatural_strength_and_toughness() -> None:
    for name in PLAYER_SIDE["deathwatch"]:
        brother = sheet("deathwatch", name, DeathwatchCharacter)
        assert brother.tier == "character", name
        assert (brother.unnatural.S, brother.unnatural.T) == (2, 2), name
        assert [piece.name for piece in brother.armour] == [
            "Astartes Power Armour (Mark VII Aquila)"
        ], name
    marine = sheet("deathwatch", "Tactical Marine", DeathwatchCharacter)
    assert (marine.bonus("S"), marine.bonus("T")) == (8, 8)  # S 45, T 43: bonus 4, doubled
    assert [w.name for w in marine.weapons] == ["Astartes Bolter (Godwyn)", "Astartes Combat Knife"]
