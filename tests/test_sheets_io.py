"""Sheets in and out without loss: JSON, YAML, CSV, DataFrames; bad input named precisely."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from gmkit.demo import demo_campaign
from gmkit.errors import SheetError
from gmkit.messages._check import english_words
from gmkit.sheets import game_ids, load_sheet
from gmkit.sheets._io import (
    from_csv,
    from_json,
    from_yaml,
    read_roster,
    roster_from_frame,
    roster_to_frame,
    to_csv,
    to_json,
    to_yaml,
    write_roster,
)

ALL = [sheet for roster in demo_campaign().rosters for sheet in roster.sheets]


def test_demo_covers_every_game():
    assert {sheet.game for sheet in ALL} == set(game_ids())


@pytest.mark.parametrize(("dump", "load"), [(to_json, from_json), (to_yaml, from_yaml)])
def test_text_formats_round_trip_every_demo_sheet(dump, load):
    assert load(dump(ALL)) == ALL


def test_dataframe_round_trip_is_lossless():
    frame = roster_to_frame(ALL)
    assert len(frame) == len(ALL)
    assert list(frame.columns[:3]) == ["game", "name", "side"]
    assert roster_from_frame(frame) == ALL


def test_csv_round_trip_is_lossless():
    assert from_csv(to_csv(ALL)) == ALL


@pytest.mark.parametrize("roster", demo_campaign().rosters, ids=lambda r: r.game)
def test_each_roster_round_trips_through_its_own_csv(roster):
    assert from_csv(to_csv(roster.sheets)) == list(roster.sheets)


def test_nested_profiles_become_dotted_columns_and_lists_json():
    frame = roster_to_frame(ALL)
    dotted = [c for c in frame.columns if "." in c]
    assert dotted, "profiles flatten to dotted columns"
    weapons = [c for c in frame.columns if c == "weapons"]
    assert weapons
    cell = next(v for v in frame["weapons"] if isinstance(v, str) and v != "[]")
    assert isinstance(json.loads(cell), list)


@pytest.mark.parametrize("suffix", [".json", ".yaml", ".yml", ".csv"])
def test_files_round_trip(tmp_path, suffix):
    path = write_roster(tmp_path / f"roster{suffix}", ALL)
    assert read_roster(path) == ALL


def test_a_bad_csv_cell_names_the_row_the_character_and_the_field():
    frame = roster_to_frame(ALL).astype(object)  # as a spreadsheet would hold it
    column = next(c for c in frame.columns if c.endswith(".WS"))
    row = next(i for i, v in enumerate(frame[column]) if not pd.isna(v))
    frame.loc[row, column] = "lots"
    with pytest.raises(SheetError) as caught:
        roster_from_frame(frame)
    message = str(caught.value)
    assert f"(row {row + 1})" in message
    assert ALL[row].name in message
    assert column in message


def test_a_broken_json_list_cell_is_refused_by_name():
    frame = roster_to_frame(ALL).astype(object)
    frame.loc[0, "weapons"] = "[{not json"
    with pytest.raises(SheetError, match=r"field 'weapons': is not valid JSON"):
        roster_from_frame(frame)


def test_unknown_game_and_missing_game_are_refused():
    with pytest.raises(SheetError, match="unknown game 'chess'"):
        load_sheet({"game": "chess", "name": "Pawn"})
    with pytest.raises(SheetError, match="'game': is missing"):
        load_sheet({"name": "Nobody"})
    with pytest.raises(SheetError, match="needs a 'game' column"):
        roster_from_frame(pd.DataFrame([{"name": "x"}]))


def test_unknown_field_is_refused_by_name():
    data = ALL[0].model_dump(mode="json")
    data["favourite_colour"] = "red"
    with pytest.raises(SheetError, match=r"field 'favourite_colour': is not a field"):
        load_sheet(data)


def test_a_failed_write_keeps_the_old_file(tmp_path):
    path = write_roster(tmp_path / "roster.json", ALL)
    before = path.read_text()

    class Exploding:
        game = "necromunda"

        def model_dump(self, **_):
            raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError):
        write_roster(path, [*ALL, Exploding()])  # type: ignore[list-item]
    assert path.read_text() == before


def test_invalid_files_are_refused_with_the_reason():
    with pytest.raises(SheetError, match="not valid JSON"):
        from_json("{")
    with pytest.raises(SheetError, match="not valid YAML"):
        from_yaml("a: [")
    with pytest.raises(SheetError, match="list of characters"):
        from_json('"just a string"')
    with pytest.raises(SheetError, match="unknown format"):
        read_roster("roster.txt")


def test_roster_refusals_read_in_spanish(tmp_path):
    with pytest.raises(SheetError) as caught:
        from_json('"just a string"')
    assert caught.value.render("es") == (
        "personaje 'roster': campo '(file)': debe ser una lista de personajes"
    )
    with pytest.raises(SheetError) as caught:
        read_roster("roster.txt")
    assert caught.value.render("es").endswith(
        "formato desconocido; usa uno de ('.json', '.yaml', '.yml', '.csv')"
    )
    with pytest.raises(SheetError) as caught:
        roster_from_frame(pd.DataFrame([{"name": "x"}]))
    assert caught.value.render("es").endswith("la tabla necesita una columna 'game'")
    frame = roster_to_frame(ALL[:1])
    frame["game"] = "chess"
    with pytest.raises(SheetError) as caught:
        roster_from_frame(frame)
    shown = caught.value.render("es")
    assert "juego desconocido 'chess'; se conocen: " in shown
    assert english_words(shown, [ALL[0].name]) == []
