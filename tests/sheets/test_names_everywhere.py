"""Catalog names, ``npc:`` entries and ``count:`` copies expand the same way wherever a sheet
is built: Python (``Cls.build``), a list of dicts (``load_sheets``), YAML text, JSON text, CSV
text (names typed "Lasgun; Knife", or a JSON cell), a DataFrame, and ``gmkit.prep.roster``.

Every demo character of the five games (``gmkit/demo/*.yaml``, whose weapons and armour are
catalog names) is built each way and the sheets compared for equality. Then the refusals (an
unknown name names its field and lists the known entries; a bad count), and the players-only
roster exports (no GM field in JSON, YAML or CSV; ``gmkit export ... --players``).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml

from gmkit import prep
from gmkit._cli import main
from gmkit.demo import DEMO_FILES, demo_campaign
from gmkit.errors import SheetError
from gmkit.sheets import sheet_type
from gmkit.sheets._io import (
    dump_sheets,
    from_csv,
    from_json,
    from_yaml,
    load_sheets,
    read_roster,
    roster_from_frame,
    roster_to_frame,
    to_csv,
    to_json,
    to_yaml,
    write_roster,
)
from gmkit.sheets.base import Sheet
from gmkit.systems._bestiary import npc
from gmkit.systems._catalogs import catalog


def demo_entries() -> list[tuple[str, dict[str, Any]]]:
    """``(game, entry)`` of every demo character, as its YAML file holds it."""
    found: list[tuple[str, dict[str, Any]]] = []
    for file_name in DEMO_FILES:
        text = resources.files("gmkit.demo").joinpath(file_name).read_text("utf-8")
        document = yaml.safe_load(text)
        found.extend((document["game"], entry) for entry in document["characters"])
    return found


ENTRIES = demo_entries()
EVERY_DEMO_CHARACTER = pytest.mark.parametrize(
    ("game", "entry"), ENTRIES, ids=[f"{game}-{entry['name']}" for game, entry in ENTRIES]
)


def flat(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested profiles as dotted columns (``characteristics.BS``); lists as they are."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out.update(flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def cell(value: Any, *, json_lists: bool) -> str:
    """A CSV cell as a GM types it: names joined by "; " (or a JSON list), true/false."""
    if isinstance(value, list):
        if json_lists or not all(isinstance(item, str) for item in value):
            return json.dumps(value)
        return "; ".join(value)
    if isinstance(value, bool):
        return str(value).lower()
    return "" if value is None else str(value)


def csv_text(rows: list[dict[str, Any]], *, json_lists: bool = False) -> str:
    flats = [{k: cell(v, json_lists=json_lists) for k, v in flat(row).items()} for row in rows]
    return pd.DataFrame(flats).fillna("").to_csv(index=False)


def built_every_way(game: str, entry: dict[str, Any]) -> dict[str, Sheet]:
    """The entry (catalog names and all) built by each way a roster reaches a sheet."""
    full = {"game": game, **entry}
    cls = sheet_type(game)
    ways: dict[str, Sheet] = {
        "python build(dict)": cls.build(entry),
        "python build(**fields)": cls.build(**entry),
        "load_sheets": load_sheets([full])[0],
        "yaml": from_yaml(yaml.safe_dump([full], sort_keys=False))[0],
        "json": from_json(json.dumps([full]))[0],
        "csv, names typed": from_csv(csv_text([full]))[0],
        "csv, JSON cells": from_csv(csv_text([full], json_lists=True))[0],
        "dataframe": roster_from_frame(pd.DataFrame([flat(full)]))[0],
        "prep.roster(dicts)": prep.roster([entry], game=game)[0],
        "prep.roster(dataframe)": prep.roster(pd.DataFrame([flat(entry)]), game=game)[0],
    }
    return ways


@EVERY_DEMO_CHARACTER
def test_the_same_character_is_the_same_sheet_every_way(game: str, entry: dict[str, Any]) -> None:
    ways = built_every_way(game, entry)
    reference = ways["python build(dict)"]
    assert reference.name == entry["name"]
    for way, sheet in ways.items():
        assert sheet == reference, way


@EVERY_DEMO_CHARACTER
def test_catalog_names_became_the_catalog_entries(game: str, entry: dict[str, Any]) -> None:
    sheet = sheet_type(game).build(entry)
    weapons: dict[str, Any] = catalog(game, "weapons")
    folded = {name.casefold(): model for name, model in weapons.items()}
    named = [item for item in entry.get("weapons", []) if isinstance(item, str)]
    stored = {w.name.casefold(): w for w in sheet.weapons}  # type: ignore[attr-defined]
    for name in named:
        assert stored[folded[name.casefold()].name.casefold()] == folded[name.casefold()]


def test_the_dark_heresy_csv_as_the_issue_types_it() -> None:
    text = (
        "game,name,side,characteristics.WS,characteristics.BS,characteristics.S,"
        "characteristics.T,characteristics.Ag,characteristics.Int,characteristics.Per,"
        "characteristics.WP,characteristics.Fel,wounds,fate_total,armour,weapons,talents\n"
        "dark_heresy,Sergeant Varro Tull,Acolytes,38,42,35,40,33,28,31,30,27,13,2,"
        "Imperial Guard Flak Armour,Lasgun; Knife,"
        '"Basic Weapon Training (Las); Melee Weapon Training (Primitive); Sound Constitution"\n'
    )
    (sheet,) = from_csv(text)
    demo = next(s for s in demo_campaign().rosters[1].sheets if s.name == "Sergeant Varro Tull")
    assert sheet == demo
    assert [(w.name, w.clip, w.loaded) for w in sheet.weapons] == [  # type: ignore[attr-defined]
        ("Lasgun", 60, 60),
        ("Knife", 0, 0),
    ]


def test_names_split_at_commas_when_no_semicolon() -> None:
    text = (
        "game,npc,name,weapons\n"
        'dark_heresy,Cultist,Ban,"lasgun, KNIFE"\n'
        "dark_heresy,Cultist,Hesk,Laspistol\n"
    )
    ban, hesk = from_csv(text)
    assert [w.name for w in ban.weapons] == ["Lasgun", "Knife"]  # type: ignore[attr-defined]
    assert [w.name for w in hesk.weapons] == ["Laspistol"]  # type: ignore[attr-defined]


# --- unknown names -------------------------------------------------------------------------

TULL = {
    "name": "Tull",
    "characteristics": {k: 30 for k in ("WS", "BS", "S", "T", "Ag", "Int", "Per", "WP", "Fel")},
    "wounds": 10,
}


def _refusal(build: Any) -> SheetError:
    with pytest.raises(SheetError) as refused:
        build()
    return refused.value


def _unknown_weapon_every_way() -> dict[str, Any]:
    bad = {**TULL, "weapons": ["Lasgun", "Bolter"]}
    full = {"game": "dark_heresy", **bad}
    return {
        "python": lambda: sheet_type("dark_heresy").build(bad),
        "load_sheets": lambda: load_sheets([full]),
        "yaml": lambda: from_yaml(yaml.safe_dump([full])),
        "json": lambda: from_json(json.dumps([full])),
        "csv": lambda: from_csv(csv_text([full])),
        "dataframe": lambda: roster_from_frame(pd.DataFrame([flat(full)])),
        "prep.roster": lambda: prep.roster([bad], game="dark_heresy"),
    }


@pytest.mark.parametrize("way", list(_unknown_weapon_every_way()))
def test_an_unknown_weapon_names_its_field_and_lists_the_catalog(way: str) -> None:
    error = _refusal(_unknown_weapon_every_way()[way])
    assert [field for field, _ in error.problems] == ["weapons[1]"]
    text = str(error)
    known = ", ".join(sorted(catalog("dark_heresy", "weapons")))
    # "Bolter" is near Boltgun's Spanish name, Bólter
    assert f"'Bolter' in the catalog (did you mean Boltgun?); known: {known}" in text
    assert "Tull" in str(error.character)


def test_an_unknown_weapon_reads_as_english() -> None:
    error = _refusal(lambda: sheet_type("dark_heresy").build({**TULL, "weapons": ["Bolter"]}))
    assert "no weapon 'Bolter' in the catalog" in str(error)


@pytest.mark.parametrize("way", ["python", "yaml", "csv", "dataframe", "prep.roster"])
def test_a_near_miss_names_the_nearest_entry_every_way(way: str) -> None:
    full = {"game": "dark_heresy", **TULL, "weapons": ["Lazgun"]}
    builds = {
        "python": lambda: sheet_type("dark_heresy").build({**TULL, "weapons": ["Lazgun"]}),
        "yaml": lambda: from_yaml(yaml.safe_dump([full])),
        "csv": lambda: from_csv(csv_text([full])),
        "dataframe": lambda: roster_from_frame(pd.DataFrame([flat(full)])),
        "prep.roster": lambda: prep.roster([full]),
    }
    error = _refusal(builds[way])
    assert [field for field, _ in error.problems] == ["weapons[0]"]
    assert "'Lazgun' in the catalog (did you mean Lasgun?); known: Autogun," in str(error)


def test_an_unknown_armour_names_the_field() -> None:
    error = _refusal(lambda: sheet_type("dark_heresy").build({**TULL, "armour": "Plate"}))
    assert error.character == "Tull"
    assert [field for field, _ in error.problems] == ["armour"]
    assert "'Plate' in the catalog; known: Carapace Greaves, Chain Coat" in str(error)


def test_an_unknown_npc_names_the_field_and_lists_the_bestiary() -> None:
    error = _refusal(lambda: load_sheets([{"game": "dark_heresy", "npc": "Dragon"}]))
    assert [field for field, _ in error.problems] == ["npc"]
    assert str(error).endswith(
        "field 'npc': no NPC 'Dragon' in the bestiary; known: Adept, Arbitrator, Assassin, "
        "Cleric, Cult demagogue, Cultist, Enforcer, Guardsman, Hab militia trooper, Heretek, "
        "Hive ganger, Imperial psyker, Mutant brute, Scum, Tech-priest"
    )


def test_an_npc_entry_without_a_name_is_labelled_by_its_npc_in_yaml_too() -> None:
    """Found by this file (labelled '(unnamed) (entry 1)'); fixed in fd26d34."""
    error = _refusal(lambda: load_sheets([{"game": "dark_heresy", "npc": "Dragon"}]))
    assert error.character == "Dragon (entry 1)"


# --- npc: and count: in every format ------------------------------------------------------

GANGERS: dict[str, Any] = {
    "npc": "cultist",
    "name": "Ganger",
    "count": 3,
    "side": "Red Hand",
    "characteristics": {"BS": 40},
    "weapons": ["lasgun", "Knife"],
}
VORN: dict[str, Any] = {"npc": "Heretek", "name": "Magos Vorn", "side": "Red Hand"}


def _npc_rows_every_way() -> dict[str, Any]:
    rows = [GANGERS, VORN]
    full = [{"game": "dark_heresy", **row} for row in rows]
    frame_rows = [flat(row) for row in full]
    return {
        "load_sheets": lambda: load_sheets(full),
        "yaml": lambda: from_yaml(yaml.safe_dump(full)),
        "json": lambda: from_json(json.dumps(full)),
        "csv": lambda: from_csv(csv_text(full)),
        "csv, JSON cells": lambda: from_csv(csv_text(full, json_lists=True)),
        "dataframe, one row each": lambda: [
            sheet for row in frame_rows for sheet in roster_from_frame(pd.DataFrame([row]))
        ],
        "prep.roster(dicts)": lambda: prep.roster(rows, game="dark_heresy"),
    }


def _expected_npc_rows() -> list[Sheet]:
    gangers = [
        npc(
            "dark_heresy",
            "Cultist",
            name=f"Ganger {n}",
            side="Red Hand",
            characteristics={"BS": 40},
            weapons=["Lasgun", "Knife"],
        )
        for n in (1, 2, 3)
    ]
    return [*gangers, npc("dark_heresy", "Heretek", name="Magos Vorn", side="Red Hand")]


@pytest.mark.parametrize("way", list(_npc_rows_every_way()))
def test_npc_entries_with_changes_and_copies_are_the_same_every_way(way: str) -> None:
    sheets = _npc_rows_every_way()[way]()
    assert [s.name for s in sheets] == ["Ganger 1", "Ganger 2", "Ganger 3", "Magos Vorn"]
    assert sheets == _expected_npc_rows()
    ganger: Any = sheets[0]
    cultist: Any = npc("dark_heresy", "Cultist")
    assert ganger.characteristics.BS == 40
    assert ganger.characteristics.WS == cultist.characteristics.WS == 28
    assert ganger.wounds == cultist.wounds == 8
    assert ganger.minion is True


def test_a_dataframe_with_a_count_on_some_rows_only() -> None:
    """Found by this file (count 3.0 refused); fixed in fd26d34."""
    frame = pd.DataFrame([flat({"game": "dark_heresy", **GANGERS}), flat(dict(VORN))])
    frame["game"] = "dark_heresy"
    assert frame["count"].dtype == "float64"  # what pandas does with the missing count
    assert roster_from_frame(frame) == _expected_npc_rows()


def test_an_npc_built_in_python_takes_its_changes() -> None:
    ban = sheet_type("dark_heresy").build(npc="Cultist", name="Ban", characteristics={"BS": 30})
    assert ban.name == "Ban"
    assert ban.characteristics.BS == 30  # type: ignore[attr-defined]
    assert ban.characteristics.Fel == 20  # type: ignore[attr-defined]
    assert ban == npc("dark_heresy", "Cultist", name="Ban", characteristics={"BS": 30})


def test_copies_of_an_unnamed_npc_take_its_name() -> None:
    sheets = load_sheets([{"game": "wfrp2", "npc": "Goblin", "count": "2"}])
    assert [s.name for s in sheets] == ["Goblin 1", "Goblin 2"]


@pytest.mark.parametrize(
    ("count", "shown"),
    [(0, "0"), (501, "501"), (-2, "-2"), ("many", "many"), (True, "True"), ("2.5", "2.5")],
)
def test_a_bad_count_is_refused_naming_it(count: Any, shown: str) -> None:
    error = _refusal(
        lambda: load_sheets([{"game": "dark_heresy", "npc": "Cultist", "count": count}])
    )
    assert [field for field, _ in error.problems] == ["count"]
    assert str(error).endswith(
        f"field 'count': the number of copies must be a whole number from 1 to 500 (got {shown})"
    )


def test_a_bad_count_in_a_csv_names_the_row() -> None:
    error = _refusal(lambda: from_csv("game,npc,count\ndark_heresy,Cultist,x\n"))
    assert error.character == "Cultist (row 1)"
    assert [field for field, _ in error.problems] == ["count"]


def test_copies_without_a_name_or_npc_are_refused_on_the_name() -> None:
    error = _refusal(lambda: load_sheets([{"game": "dark_heresy", "count": 2, **TULL, "name": ""}]))
    assert [field for field, _ in error.problems] == ["name"]


# --- players-only roster exports ----------------------------------------------------------

SECRET = "a hidden stub revolver under the altar cloth"


@pytest.fixture
def cult() -> list[Sheet]:
    sheets = list(demo_campaign().rosters[1].sheets)
    assert any(SECRET in s.notes for s in sheets)
    return sheets


@pytest.mark.parametrize("writer", [to_json, to_yaml, to_csv])
def test_a_players_only_export_holds_no_gm_note(writer: Any, cult: list[Sheet]) -> None:
    assert SECRET in writer(cult)  # the GM's export keeps it: this test can fail
    text = writer(cult, players_only=True)
    assert SECRET not in text
    assert "notes" not in text
    assert "Demagogue Ostrava" in text


def test_players_only_dicts_and_frames_drop_exactly_the_gm_fields(cult: list[Sheet]) -> None:
    games = ("necromunda", "dark_heresy", "deathwatch", "wfrp2", "wfb6")
    assert {game: sheet_type(game).gm_only_fields() for game in games} == {
        game: frozenset({"notes"}) for game in games
    }
    for full, public in zip(dump_sheets(cult), dump_sheets(cult, players_only=True), strict=True):
        assert public == {k: v for k, v in full.items() if k != "notes"}
    frame = roster_to_frame(cult, players_only=True)
    assert "notes" not in frame.columns
    assert list(frame.columns) == [c for c in roster_to_frame(cult).columns if c != "notes"]


@pytest.mark.parametrize("suffix", [".json", ".yaml", ".csv"])
def test_a_players_only_file_reads_back_without_the_notes(
    suffix: str, cult: list[Sheet], tmp_path: Path
) -> None:
    path = write_roster(tmp_path / f"roster{suffix}", cult, players_only=True)
    assert SECRET not in path.read_text(encoding="utf-8")
    assert read_roster(path) == [sheet.edit(notes="") for sheet in cult]


@pytest.mark.parametrize("suffix", [".json", ".yaml", ".csv"])
def test_gmkit_export_players(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gmkit.campaign import demo_campaign_file

    campaign = demo_campaign_file(tmp_path / "c")
    title = "The Chapel of the Pale Throne"
    full, players = tmp_path / f"gm{suffix}", tmp_path / f"players{suffix}"
    assert main(["export", str(campaign), title, str(full)]) == 0
    assert main(["export", str(campaign), title, str(players), "--players"]) == 0
    out = capsys.readouterr().out
    assert f"gmkit export: wrote 8 characters to {players}" in out
    assert SECRET in full.read_text(encoding="utf-8")
    text = players.read_text(encoding="utf-8")
    assert SECRET not in text
    assert "notes" not in text
    assert [s.name for s in read_roster(players)] == [s.name for s in read_roster(full)]


def test_gmkit_export_players_is_refused_for_an_event_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gmkit.campaign import demo_campaign_file

    campaign = demo_campaign_file(tmp_path / "c")
    target = tmp_path / "all.json"
    assert main(["export", str(campaign), "--all", str(target), "--players"]) == 2
    assert "--players is for a roster" in capsys.readouterr().err
    assert not target.exists()
