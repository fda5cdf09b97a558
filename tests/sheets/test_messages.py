"""Sheets speak in messages: a refused sheet reads in Spanish, every field has a label.

- A refused sheet's problems are messages; in Spanish they hold no English rule word once the
  names are taken out (the character's name, the field paths, the values typed).
- Every field, derived value and roster-line column of every game's sheet has a label, in
  English the name with spaces ("wounds remaining", what the sheet views print) and in Spanish
  the Spanish books' word (characteristics by the Spanish books' abbreviations).
- The sheets, dice and catalogs catalogs have no problem, and every id the code names exists.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml

from gmkit.errors import SheetError
from gmkit.messages import VERBATIM, Message, catalogs, problems, render
from gmkit.messages._check import english_words
from gmkit.sheets import game_ids, load_sheet
from gmkit.sheets._dark_heresy import DarkHeresyCharacter
from gmkit.sheets._deathwatch import DeathwatchCharacter
from gmkit.sheets._labels import field_label, field_names, label_id, weapon_class
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.sheets._problems import _PYDANTIC
from gmkit.sheets._roster import Roster
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.sheets.base import Sheet

ROOT = Path(__file__).resolve().parents[2]
CLASSES: dict[str, type[Sheet]] = {
    "necromunda": NecromundaFighter,
    "dark_heresy": DarkHeresyCharacter,
    "deathwatch": DeathwatchCharacter,
    "wfrp2": WFRP2Character,
    "wfb6": WFB6Character,
}
PROFILE = {"WS": 35, "BS": 40, "S": 30, "T": 35, "Ag": 33, "Int": 30, "WP": 31, "Fel": 28}
IMPERIAL = {"name": "Tull", "characteristics": {**PROFILE, "Per": 30}, "wounds": 12}
PISTOL = {
    "name": "Laspistol",
    "weapon_class": "pistol",
    "range": 30,
    "rof": "S/2/-",
    "damage": "1d10+2",
    "clip": 30,
}


def refusal(cls: type[Sheet], data: dict[str, Any]) -> SheetError:
    with pytest.raises(SheetError) as caught:
        cls.build(data)
    return caught.value


def typed_values(data: Any) -> Iterator[str]:
    """Every value typed in ``data`` as a refusal shows it (repr'd): names, not words."""
    if isinstance(data, Mapping):
        for value in data.values():
            yield from typed_values(value)
    elif isinstance(data, list | tuple):
        for value in data:
            yield from typed_values(value)
    else:
        yield repr(data)


# (game, data, the Spanish problem expected, names: the field paths and the values the rules
# list, which are names; the typed values are added to them)
REFUSED = [
    (
        "dark_heresy",
        {**IMPERIAL, "characteristics": {**PROFILE, "Per": 30, "WS": 130}},
        "campo 'characteristics.WS': debe estar entre 0 y 100 (valor: 130)",
        ["characteristics.WS"],
    ),
    (
        "dark_heresy",
        {**IMPERIAL, "damage": 14},
        "el daño sufrido no puede superar las heridas (12); lo que pasa de ahí es daño crítico",
        [],
    ),
    (
        "dark_heresy",
        {**IMPERIAL, "weapons": [{**PISTOL, "range": 0}]},
        "un arma de clase pistola necesita un alcance en metros",
        ["weapons[0].range"],
    ),
    (
        "dark_heresy",
        {**IMPERIAL, "weapons": [{**PISTOL, "damage": "1d10+XB"}]},
        "usa XB, que no es una bonificación de este juego",
        ["weapons[0].damage", "AgB", "BSB", "FelB", "IntB", "PerB", "SB", "TB", "WPB", "WSB"],
    ),
    (
        "dark_heresy",
        {**IMPERIAL, "weapons": [{**PISTOL, "damage": "1d10+"}]},
        "se esperaba un dado (d10, 2D6, d%), un número, el nombre de una bonificación",
        ["weapons[0].damage"],
    ),
    (
        "dark_heresy",
        {**IMPERIAL, "weapons": [{**PISTOL, "qualities": ["Reliable", "Unreliable"]}]},
        "Reliable y Unreliable se excluyen entre sí",
        ["weapons[0].qualities"],
    ),
    (
        "dark_heresy",
        {**IMPERIAL, "weapons": [{**PISTOL, "rof": "fast"}]},
        "la cadencia se escribe disparo único/semiautomático/automático",
        ["weapons[0].rof"],
    ),
    (
        "deathwatch",
        {**IMPERIAL, "tier": "elite", "horde": {"magnitude_max": 30}},
        "solo las tropas forman hordas (la categoría es 'elite')",
        [],
    ),
    (
        "deathwatch",
        {**IMPERIAL, "critical_damage": 2},
        "el daño crítico es lo que excede las heridas; el daño es 0 de 12",
        [],
    ),
    (
        "wfrp2",
        {"name": "Hans", "characteristics": PROFILE, "secondary": {"W": 11, "SB": 3}},
        "SB se calcula a partir de F y R",
        [],
    ),
    (
        "wfrp2",
        {
            "name": "Hans",
            "characteristics": PROFILE,
            "secondary": {"W": 11},
            "weapons": [{"name": "Bow", "damage": "3", "range_short": 24}],
        },
        "un arma de proyectiles necesita su alcance largo",
        ["weapons[0].range_long"],
    ),
    (
        "wfrp2",
        {"name": "Hans", "characteristics": PROFILE, "secondary": {"W": 11}, "wounds_current": 12},
        "no puede superar W (11)",
        ["wounds_current"],
    ),
    (
        "necromunda",
        {"name": "Vex", "fighter_type": "boss"},
        "debe ser 'leader', 'heavy', 'ganger', 'juve' o 'hired gun' (valor: 'boss')",
        ["fighter_type", "'leader'", "'heavy'", "'ganger'", "'juve'", "'hired gun'"],
    ),
    (
        "necromunda",
        {"name": "Vex", "WS": "x", "wounds": 2},
        "debe ser un número entero; ese texto no se lee como número entero (valor: 'x')",
        ["WS"],
    ),
    (
        "necromunda",
        {"name": "Vex", "weapons": [{"name": "Knife", "kind": "close combat", "ammo_roll": "4+"}]},
        "un arma de combate cuerpo a cuerpo no hace tirada de munición",
        ["weapons[0].ammo_roll"],
    ),
    (
        "necromunda",
        {"name": "Vex", "WS": 2, "BS": 3, "flesh_wounds": 4},
        "con tantos rasguños el luchador ya está fuera de combate",
        ["flesh_wounds"],
    ),
    ("necromunda", {"side": "Goliaths"}, "campo 'name': es obligatorio", ["name"]),
    (
        "wfb6",
        {"name": "Dieter", "role": "rank and file"},
        "una miniatura de tropa debe indicar la unidad a la que pertenece",
        ["unit"],
    ),
    (
        "wfb6",
        {"name": "Dieter", "troop_type": "cavalry"},
        "el tipo de tropa 'cavalry' debe indicar su montura",
        ["mount"],
    ),
    (
        "wfb6",
        {"name": "Dieter", "weapons": [{"name": "Bow"}, {"name": "bow"}]},
        "el arma 'bow' aparece dos veces",
        ["weapons"],
    ),
]


@pytest.mark.parametrize(("game", "data", "spanish", "names"), REFUSED)
def test_a_refused_sheet_reads_in_spanish_without_english(
    game: str, data: dict[str, Any], spanish: str, names: list[str]
) -> None:
    error = refusal(CLASSES[game], data)
    assert all(isinstance(problem, Message) for _, problem in error.problems)
    text = error.render("es")
    assert spanish in text
    assert text != str(error)
    shown = [*names, *(repr(field) for field, _ in error.problems), *typed_values(data)]
    assert english_words(text, shown) == [], text


def test_the_english_of_a_refusal_is_unchanged() -> None:
    error = refusal(DarkHeresyCharacter, {**IMPERIAL, "weapons": [{**PISTOL, "range": 0}]})
    assert str(error) == (
        "character 'Tull': field 'weapons[0].range': a pistol weapon needs a range in metres "
        "(got 0)"
    )
    assert (
        str(refusal(NecromundaFighter, {})) == "character '(unnamed)': field 'name': Field required"
    )


def test_an_error_pydantic_words_otherwise_keeps_its_text() -> None:
    error = refusal(WFRP2Character, {"name": "Hans", "characteristics": [], "secondary": {"W": 5}})
    (problem,) = [problem for field, problem in error.problems if field == "characteristics"]
    assert problem.id == "sheets.pydantic.model_type"
    assert str(problem) == "Input should be a valid dictionary or instance of Characteristics"


def test_loading_refusals_read_in_spanish() -> None:
    with pytest.raises(SheetError) as caught:
        load_sheet({"name": "Vex"})
    assert caught.value.render("es") == (
        f"personaje 'Vex': campo 'game': falta; debe ser uno de: {', '.join(game_ids())}"
    )
    with pytest.raises(SheetError) as caught:
        load_sheet([1, 2])  # type: ignore[arg-type]
    assert caught.value.render("es") == (
        "personaje '(unnamed)': campo '(sheet)': debe ser un diccionario de campos"
    )


def test_house_rule_warnings_are_messages() -> None:
    flak = {"name": "Flak", "kind": "flak", "points": {"all": 4}}
    power = {"name": "Power", "kind": "power", "points": {"all": 8}}
    sheet = DarkHeresyCharacter.build({**IMPERIAL, "armour": [flak, power]})
    warnings = sheet.house_rule_warnings
    assert str(warnings[1]) == "power armour worn with another layer at right_arm"
    assert render(warnings[1], "es") == "servoarmadura llevada con otra capa en el brazo derecho"
    for warning in warnings:
        assert english_words(render(warning, "es")) == []


# --- labels ------------------------------------------------------------------------------


@cache
def _demo_sheets() -> dict[str, tuple[Sheet, ...]]:
    folder = resources.files("gmkit.demo")
    found = {}
    for game in CLASSES:
        roster = Roster.from_dict(yaml.safe_load(folder.joinpath(f"{game}.yaml").read_text()))
        found[game] = roster.sheets
    return found


KEYED_BY_DATA = {"weapon_strengths"}
"""Derived values keyed by data (a weapon's name), not by names of the rules."""


def _derived_names(values: Mapping[str, Any]) -> Iterator[str]:
    for key, value in values.items():
        yield key
        if isinstance(value, Mapping) and key not in KEYED_BY_DATA:
            yield from _derived_names(value)


@cache
def _every_name(game: str) -> frozenset[str]:
    names = set(field_names(CLASSES[game]))
    for sheet in _demo_sheets()[game]:
        names |= set(_derived_names(sheet.derived()))
        names |= set(sheet.summary())
    return frozenset(names)


@pytest.mark.parametrize("game", list(CLASSES))
def test_every_field_and_derived_value_has_a_label_in_both_languages(game: str) -> None:
    names = _every_name(game)
    assert {"name", "weapons"} <= names
    for name in sorted(names):
        label = field_label(game, name)
        assert label.id != VERBATIM, f"{game}: no label for {name!r}"
        english = str(label)
        assert english == name.replace("_", " ")
        assert catalogs().translated(label.id, "es", english) is not None, label.id
        assert english_words(render(label, "es")) == [], (name, render(label, "es"))


def test_the_demo_sheets_give_the_derived_values_of_every_kind() -> None:
    deathwatch = _every_name("deathwatch")
    assert {"horde", "broken", "resist_bonus", "Mag", "WSB", "half"} <= deathwatch
    assert {"move", "SB", "wound_state", "AP body"} <= _every_name("wfrp2")
    assert {"Sv", "to_hit_needed"} <= _every_name("necromunda")


@pytest.mark.parametrize(
    ("game", "field", "english", "spanish"),
    [
        ("dark_heresy", "characteristics.WS", "WS", "HA"),
        ("deathwatch", "characteristics.BS", "BS", "HP"),
        ("wfrp2", "characteristics.S", "S", "F"),
        ("wfrp2", "characteristics.T", "T", "R"),
        ("wfrp2", "characteristics.WP", "WP", "V"),
        ("dark_heresy", "characteristics.Fel", "Fel", "Em"),
        ("dark_heresy", "characteristics.Ag", "Ag", "Ag"),
        ("wfrp2", "secondary.W", "W", "H"),
        ("wfrp2", "secondary.IP", "IP", "PL"),
        ("wfrp2", "secondary.FP", "FP", "PD"),
        ("necromunda", "Ld", "Ld", "L"),
        ("wfb6", "I", "I", "I"),
        ("dark_heresy", "bonuses.SB", "SB", "BF"),
        ("wfrp2", "wounds_current", "wounds current", "heridas actuales"),
        ("dark_heresy", "wounds_remaining", "wounds remaining", "heridas restantes"),
        ("dark_heresy", "weapons[0].damage", "damage", "daño"),
        ("necromunda", "flesh_wounds", "flesh wounds", "rasguños"),
        ("necromunda", "side", "side", "banda"),
        ("wfb6", "side", "side", "ejército"),
        ("wfrp2", "side", "side", "bando"),
    ],
)
def test_labels_by_name_or_path(game: str, field: str, english: str, spanish: str) -> None:
    label = field_label(game, field)
    assert (str(label), render(label, "es")) == (english, spanish)


def test_a_name_no_catalog_holds_reads_as_it_is() -> None:
    label = field_label("necromunda", "weapon_strengths.Heavy_Stubber")
    assert label.id == VERBATIM
    assert render(label, "es") == "Heavy Stubber"
    assert label_id("AP body") == "sheets.field.AP_body"
    assert label_id("side", "wfb6") == "sheets.field.wfb6.side"


def test_weapon_classes_are_named() -> None:
    assert render(weapon_class("close combat"), "es") == "cuerpo a cuerpo"
    assert str(weapon_class("basic")) == "basic"


# --- the catalogs ------------------------------------------------------------------------

MINE = ("sheets", "dice", "catalogs")
SOURCES = [
    *sorted((ROOT / "gmkit" / "sheets").glob("*.py")),
    *(
        ROOT / "gmkit" / "dice" / name
        for name in ("_parser.py", "_evaluate.py", "_distribution.py")
    ),
    ROOT / "gmkit" / "systems" / "_catalogs.py",
    ROOT / "gmkit" / "systems" / "_tables.py",
]
_ID = re.compile(r'"((?:sheets|dice|catalogs)\.[a-z][a-z_.0-9]*)"')
"""A message id written whole in the code (the ids made with an f-string are listed below)."""


def test_the_catalogs_of_this_area_have_no_problem() -> None:
    assert [p for p in problems() if p.split(".")[0] in MINE] == []


def test_every_message_id_the_code_names_is_in_the_catalogs() -> None:
    named = {found for path in SOURCES for found in _ID.findall(path.read_text(encoding="utf-8"))}
    assert len(named) > 100
    assert sorted(name for name in named if catalogs().english(name) is None) == []


@pytest.mark.parametrize(
    "message_id",
    [
        *(f"sheets.armour_at.{where}" for where in ("head", "right_arm", "body", "left_leg")),
        *(f"sheets.{kind}_no_range_bands" for kind in ("close_combat", "template")),
        *(f"sheets.{role}_needs_unit" for role in ("rank_and_file", "champion")),
        *(f"catalogs.no_such_{kind}" for kind in ("weapons", "armour")),
        *(f"sheets.weapon_class.{kind}" for kind in ("melee", "thrown", "special", "grenade")),
        *_PYDANTIC.values(),
    ],
)
def test_the_ids_the_code_builds_exist(message_id: str) -> None:
    assert catalogs().english(message_id) is not None
