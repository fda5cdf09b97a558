"""Catalogs are data: every packaged entry validates; a GM extends, overrides and removes."""

from __future__ import annotations

import pytest
import yaml

from gmkit.errors import SheetError
from gmkit.sheets import game_ids, sheet_type
from gmkit.systems.catalogs import catalog, data_file


@pytest.mark.parametrize("game", list(game_ids()))
@pytest.mark.parametrize("kind", ["weapons", "armour"])
def test_packaged_catalogs_validate(game, kind):
    entries = catalog(game, kind)
    if data_file(game, f"{kind}.yaml").exists():
        raw = yaml.safe_load(data_file(game, f"{kind}.yaml").read_text())
        assert len(entries) == len({item["name"] for item in raw})
    model = sheet_type(game).weapon_model if kind == "weapons" else sheet_type(game).armour_model
    assert all(isinstance(entry, model) for entry in entries.values())


@pytest.mark.parametrize("game", list(game_ids()))
def test_every_game_has_a_weapon_catalog(game):
    assert len(catalog(game, "weapons")) >= 5


def _first(game: str) -> dict:
    return yaml.safe_load(data_file(game, "weapons.yaml").read_text())[0]


def test_an_override_file_replaces_adds_and_removes(tmp_path):
    game = "dark_heresy"
    first = _first(game)
    second = yaml.safe_load(data_file(game, "weapons.yaml").read_text())[1]
    renamed = {**first, "name": "Grandfather's " + first["name"]}
    override = tmp_path / "mine.yaml"
    override.write_text(yaml.safe_dump([renamed, {"name": second["name"], "remove": True}]))
    base = catalog(game, "weapons")
    mine = catalog(game, "weapons", override)
    assert renamed["name"] in mine
    assert second["name"] not in mine
    assert len(mine) == len(base)


def test_data_path_folders_are_read(tmp_path, monkeypatch):
    game = "necromunda"
    entry = {**_first(game), "name": "House-made Laspistol"}
    (tmp_path / game).mkdir()
    (tmp_path / game / "weapons.yaml").write_text(yaml.safe_dump([entry]))
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    assert "House-made Laspistol" in catalog(game, "weapons")


def test_a_bad_entry_names_the_file_the_entry_and_the_field(tmp_path):
    game = "wfrp2"
    entry = {**_first(game), "name": "Broken", "unknown_field": 3}
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump([entry]))
    with pytest.raises(SheetError) as caught:
        catalog(game, "weapons", bad)
    message = str(caught.value)
    assert "bad.yaml entry 1 (Broken)" in message
    assert "unknown_field" in message


def test_a_file_that_is_not_a_list_is_refused(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: not a list\n")
    with pytest.raises(SheetError, match="must be a YAML list"):
        catalog("deathwatch", "weapons", bad)
