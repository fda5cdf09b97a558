"""Catalogs are data: every packaged entry validates; a GM extends, overrides and removes.

A refused catalog or table file says why in the GM's language (Spanish below).
"""

from __future__ import annotations

import re

import pytest
import yaml

from gmkit.errors import GmkitError, SheetError
from gmkit.messages import Message
from gmkit.messages._check import english_words
from gmkit.sheets import game_ids, sheet_type
from gmkit.systems._catalogs import catalog, data_file
from gmkit.systems._references import expand_references
from gmkit.systems._tables import table


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


# --- refusals in the GM's language -------------------------------------------------------


def _refused_in_spanish(attempt, names=()):
    with pytest.raises(GmkitError) as caught:
        attempt()
    shown = caught.value.render("es")
    assert shown != str(caught.value)
    assert english_words(shown, names) == [], shown
    return shown


def test_a_bad_entry_reads_in_spanish(tmp_path):
    entry = {**_first("wfrp2"), "name": "Broken", "unknown_field": 3, "range_short": -2}
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump([entry]))
    label = f"{bad}: bad.yaml entry 1 (Broken)"
    shown = _refused_in_spanish(
        lambda: catalog("wfrp2", "weapons", bad), [repr(label), "'range_short'", "'unknown_field'"]
    )
    assert shown.startswith(f"personaje {label!r}: ")
    assert "campo 'range_short': debe estar entre 0 y 1000 (valor: -2)" in shown
    assert "campo 'unknown_field': no es un campo de esta hoja" in shown


def test_a_file_that_is_not_a_list_reads_in_spanish(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: not a list\n")
    shown = _refused_in_spanish(lambda: catalog("deathwatch", "weapons", bad), [repr(str(bad))])
    assert shown.endswith("campo '(file)': debe ser una lista YAML de entradas")


def test_a_file_that_is_not_yaml_reads_in_spanish(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [\n")
    with pytest.raises(SheetError) as caught:
        catalog("deathwatch", "weapons", bad)
    ((field, problem),) = caught.value.problems
    assert (field, problem.id) == ("(file)", "sheets.not_valid_file")
    detail = problem.arguments["detail"]
    assert str(caught.value).endswith(f"not valid YAML: {detail}")
    shown = _refused_in_spanish(lambda: catalog("deathwatch", "weapons", bad), [str(bad), detail])
    assert "no es YAML válido" in shown


def test_a_weapon_the_catalog_lacks_reads_in_spanish():
    data = {"game": "necromunda", "name": "Vex", "weapons": ["Plasma Cannon of Doom"]}
    english = "no weapon 'Plasma Cannon of Doom' in the catalog; known: "
    with pytest.raises(SheetError, match=re.escape(english)):
        expand_references(data)
    known = list(catalog("necromunda", "weapons"))
    shown = _refused_in_spanish(
        lambda: expand_references(data),
        ["'Vex'", "'weapons[0]'", "'Plasma Cannon of Doom'", *known],
    )
    assert "no hay ningún arma 'Plasma Cannon of Doom' en el catálogo; se conocen: " in shown


def test_a_missing_or_broken_table_reads_in_spanish(tmp_path, monkeypatch):
    path = data_file("wfrp2", "nothing.yaml")
    shown = _refused_in_spanish(
        lambda: table("wfrp2", "nothing"), ["'nothing'", "'wfrp2'", str(path)]
    )
    assert shown == f"no hay tabla 'nothing' para 'wfrp2' (se buscó {path})"
    (tmp_path / "wfrp2").mkdir()
    broken = tmp_path / "wfrp2" / "broken.yaml"
    broken.write_text("a: [\n")
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    table.cache_clear()
    try:
        with pytest.raises(GmkitError) as caught:
            table("wfrp2", "broken")
    finally:
        table.cache_clear()
    message = caught.value.message
    assert isinstance(message, Message)
    detail = str(message.arguments["detail"])
    assert str(caught.value) == f"table {broken}: not valid YAML: {detail}"
    assert caught.value.render("es") == f"tabla {broken}: no es YAML válido: {detail}"
