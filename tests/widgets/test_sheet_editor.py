"""The sheet editor: refusals beside their fields, derived values live, save through a callback."""

from __future__ import annotations

from functools import cache

import pytest

from gmkit.demo import demo_campaign
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._sheet_editor import GENERAL, SheetEditor, owner, parse


@cache
def sheet(game: str, name: str):
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    return next(s for s in roster.sheets if s.name == name)


@pytest.fixture
def gunther():
    saved: list = []
    editor = SheetEditor(sheet("wfrp2", "Gunther Brandauer"), on_save=saved.append)
    yield editor, saved
    editor.close()


def test_every_typed_field_has_an_input_by_its_path(gunther):
    editor, _ = gunther
    for path in ("name", "notes", "characteristics.WS", "secondary.W", "wounds_current"):
        assert path in editor.inputs
    assert "game" not in editor.inputs
    assert editor.value("characteristics.WS") == "41"
    assert editor.value("skills") == "Dodge Blow"
    assert "Mail Shirt" in editor.value("armour")
    assert editor.valid
    assert editor.errors == {}


def test_a_bad_value_is_shown_beside_its_field_and_nothing_changes(gunther):
    editor, saved = gunther
    original = editor.sheet
    assert editor.set_value("characteristics.WS", "150") is False
    assert editor.errors == {"characteristics.WS": "must be from 0 to 100 (got 150)"}
    assert "must be from 0 to 100" in editor.messages["characteristics.WS"].value
    assert editor.messages["wounds_current"].value == ""
    assert editor.save_button.disabled
    assert editor.save() is None
    assert saved == []
    assert editor.sheet is original
    assert original.characteristics.WS == 41


def test_a_refusal_naming_another_field_is_shown_there(gunther):
    editor, _ = gunther
    editor.set_value("wounds_current", "99")
    assert editor.errors == {"wounds_current": "cannot exceed W (13) (got 99)"}
    editor.set_value("characteristics.WS", "abc")
    assert "valid integer" in editor.errors["characteristics.WS"]
    editor.set_value("weapons", "- {name: Axe, damage: 2d10}")
    assert editor.errors["weapons"].startswith("weapons[0].damage:")
    editor.set_value("weapons", "- {name: Axe")
    assert editor.errors["weapons"] == (
        "file 'sheet', line 2, column 1: not valid YAML: did not find expected ',' or '}"
    )
    assert "cannot exceed W" in editor.errors["wounds_current"]  # the rest is still checked


def test_derived_values_follow_what_is_typed(gunther):
    editor, _ = gunther
    assert "unhurt" in editor.derived_html.value
    editor.set_value("wounds_current", 5)
    assert "lightly wounded" in editor.derived_html.value
    editor.set_value("characteristics.S", "52")
    assert "SB 5" in editor.derived_html.value
    editor.set_value("characteristics.S", "520")  # refused: the last valid values stay
    assert "SB 3" in editor.derived_html.value
    assert "last valid values" in editor.derived_html.value


def test_a_good_edit_saves_the_new_sheet(gunther):
    editor, saved = gunther
    original = editor.sheet
    editor.set_value("wounds_current", 5)
    editor.set_value("skills", "Dodge Blow, Strike to Stun")
    editor.set_value("notes", "lost his helmet")
    assert editor.dirty
    new = editor.save()
    assert new is not None
    assert saved == [new]
    assert (new.wounds_current, new.skills, new.notes) == (
        5,
        ["Dodge Blow", "Strike to Stun"],
        "lost his helmet",
    )
    assert editor.sheet is new
    assert not editor.dirty
    assert original.wounds_current == 13  # sheets are values: the old one is untouched


def test_reset_puts_the_saved_values_back(gunther):
    editor, _ = gunther
    editor.set_value("characteristics.WS", "150")
    editor.reset()
    assert editor.valid
    assert editor.value("characteristics.WS") == "41"


def test_the_controls_validate_as_typed(gunther):
    editor, saved = gunther
    editor.inputs["characteristics.BS"].value = "-3"
    assert "must be from 0 to 100" in editor.errors["characteristics.BS"]
    editor.inputs["characteristics.BS"].value = "33"
    assert editor.valid
    editor.save_button.click()
    assert saved[-1].characteristics.BS == 33


@pytest.mark.parametrize(
    ("game", "name", "path", "bad", "problem"),
    [
        ("necromunda", "Little Jeb", "BS", "11", "must be from 0 to 10"),
        ("dark_heresy", "Sergeant Varro Tull", "damage", "20", "cannot exceed wounds"),
        ("deathwatch", "Brother Castor", "characteristics.T", "101", "must be from 0 to 100"),
        ("wfb6", "Father Anselm", "role", "boss", "Input should be 'rank and file'"),
    ],
)
def test_each_game_refuses_by_field(game, name, path, bad, problem):
    editor = SheetEditor(sheet(game, name))
    assert editor.set_value(path, bad) is False
    assert problem in editor.errors[path]
    assert editor.save() is None
    editor.close()


def test_derived_values_of_a_dark_heresy_sheet_are_live():
    editor = SheetEditor(sheet("dark_heresy", "Sergeant Varro Tull"))
    editor.set_value("damage", 3)
    assert editor.valid
    assert "wounds remaining</th><td>10" in editor.derived_html.value
    editor.close()


def test_errors_outside_any_input_are_shown_for_the_sheet():
    assert owner(["name", "weapons", "characteristics.WS"], "weapons[1].name") == "weapons"
    assert owner(["name"], "(sheet)") == GENERAL
    assert parse("int", " 7 ") == 7
    assert parse("int", "seven") == "seven"  # the sheet refuses it, naming the field
    assert parse("list", "a, b,, c") == ["a", "b", "c"]


def test_labels_follow_the_language(gunther):
    editor, _ = gunther
    try:
        LANGUAGE.value = "es"
        assert editor.save_button.description == "Guardar"
        assert "Derivados" in editor.derived_html.value
    finally:
        LANGUAGE.value = "en"
    assert editor.save_button.description == "Save"
