"""Names of the data in both languages (issue 21, item 18): every entry of every data file that
names a thing (weapons, armour, the bestiary, qualities, ``names.yaml``) gives its Spanish name
beside the English; a Spanish page shows the Spanish; a Spanish name is accepted wherever a
name is typed (``find_entry``, ``prep.weapon``, a roster's ``weapons: Espada; Cuchillo``, a
sheet's talents, ``npc: Cultista``); sheets and events keep the English; a GM's own data file
without Spanish names still loads (and shows its English), and one that gives them is read."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
import yaml

from gmkit import prep
from gmkit.errors import SheetError
from gmkit.messages import Message, catalogs, render
from gmkit.sheets import sheet_type
from gmkit.sheets._io import from_csv
from gmkit.systems._bestiary import creature, npcs
from gmkit.systems._catalogs import (
    NAMED_FILES,
    catalog,
    english_name,
    find_entry,
    local_name,
    names_of,
)

GAMES = ("dark_heresy", "deathwatch", "necromunda", "wfrp2", "wfb6")
DATA = Path(str(resources.files("gmkit.systems").joinpath("data")))


@pytest.fixture(autouse=True)
def _packaged_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GMKIT_DATA_PATH", raising=False)


def named_files() -> Iterator[Path]:
    for game in GAMES:
        for kind in NAMED_FILES:
            if (DATA / game / kind).exists():
                yield DATA / game / kind


NAMED = list(named_files())


@pytest.mark.parametrize("path", NAMED, ids=[f"{p.parent.name}/{p.name}" for p in NAMED])
def test_every_entry_of_every_data_file_has_a_spanish_name(path: Path) -> None:
    entries = yaml.safe_load(path.read_text("utf-8"))
    missing = [e["name"] for e in entries if not str(e.get("name_es") or "").strip()]
    assert missing == [], f"{path}: entries without name_es"


def test_every_game_has_its_names_file_and_every_kind_is_covered() -> None:
    kinds = {(p.parent.name, p.name) for p in NAMED}
    for game in GAMES:
        assert (game, "weapons.yaml") in kinds
        assert (game, "bestiary.yaml") in kinds
        assert (game, "names.yaml") in kinds
    assert len(NAMED) >= 20


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", ["weapons", "armour"])
def test_each_entry_is_found_by_its_spanish_name_and_shown_by_it(game: str, kind: str) -> None:
    path = DATA / game / f"{kind}.yaml"
    if not path.exists():
        pytest.skip(f"{game} has no {kind} catalog")
    for entry in yaml.safe_load(path.read_text("utf-8")):
        spanish = entry["name_es"]
        found = find_entry(game, kind, spanish.upper())  # in either case too
        assert found is not None, spanish
        assert found.name == entry["name"], spanish  # type: ignore[attr-defined]
        assert local_name(game, entry["name"], "es") == spanish
        assert local_name(game, entry["name"], "en") == entry["name"]
        assert english_name(game, spanish, f"{kind}.yaml") == entry["name"]


def test_the_briefs_examples_a_spanish_name_wherever_a_name_is_typed() -> None:
    sword = prep.weapon("dark_heresy", "Espada")
    assert sword.name == "Sword"  # type: ignore[attr-defined]
    assert prep.armour("wfrp2", "peto").name == "Breastplate"  # type: ignore[attr-defined]
    text = "game,npc,name,weapons\ndark_heresy,Cultist,Ban,Espada; Cuchillo\n"
    (ban,) = from_csv(text)
    assert [w.name for w in ban.weapons] == ["Sword", "Knife"]  # type: ignore[attr-defined]
    gunther = sheet_type("wfrp2").build(
        {
            "name": "Gunther",
            "characteristics": dict.fromkeys(("WS", "BS", "S", "T", "Ag", "Int", "WP", "Fel"), 30),
            "secondary": {"W": 12},
            "weapons": ["Arma de mano", "Escudo"],
            "talents": ["Golpe poderoso", "Especialista en armas (A dos manos)"],
            "skills": ["Esquivar"],
        }
    )
    assert [w.name for w in gunther.weapons] == ["Hand Weapon", "Shield"]  # type: ignore[attr-defined]
    assert gunther.talents == ["Strike Mighty Blow", "Specialist Weapon Group (Two-handed)"]  # type: ignore[attr-defined]
    assert gunther.skills == ["Dodge Blow"]  # type: ignore[attr-defined]
    assert gunther.specialist_groups == ("Two-handed",)  # type: ignore[attr-defined]


def test_a_talent_typed_in_spanish_is_the_talent_the_rules_read() -> None:
    tull = sheet_type("dark_heresy").build(
        {
            "name": "Tull",
            "characteristics": dict.fromkeys(
                ("WS", "BS", "S", "T", "Ag", "Int", "Per", "WP", "Fel"), 30
            ),
            "wounds": 10,
            "weapons": ["Pistola láser"],
            "talents": ["Entrenamiento con pistolas (Láser)"],
        }
    )
    assert tull.talents == ["Pistol Training (Las)"]  # type: ignore[attr-defined]
    assert tull.trained(tull.weapons[0])  # type: ignore[attr-defined]
    assert local_name("dark_heresy", "Pistol Training (Las)", "es") == (
        "Entrenamiento con pistolas (Láser)"
    )
    assert local_name("dark_heresy", "Two-Weapon Wielder (Melee/Ballistic)", "es") == (
        "Combate con dos armas (Cuerpo a cuerpo/Proyectiles)"
    )
    assert local_name("necromunda", "sustained fire 2", "es") == "fuego sostenido 2"


def test_a_bestiary_creature_by_its_spanish_name_and_copies_named_so() -> None:
    assert creature("dark_heresy", "cultista").name == "Cultist"
    assert creature("dark_heresy", "Cultist").name_es == "Cultista"
    assert [s.name for s in npcs("dark_heresy", "Cultista", 2)] == ["Cultista 1", "Cultista 2"]
    assert [s.name for s in npcs("dark_heresy", "Cultist", 1)] == ["Cultist 1"]
    roster = sheet_type("deathwatch").build({"npc": "Noble orko", "name": "Gritfang"})
    assert roster.name == "Gritfang"
    with pytest.raises(SheetError) as refused:
        creature("dark_heresy", "Cultistaa")
    assert "Cultist" in str(refused.value)  # the nearest, by either name


def test_a_message_names_the_weapon_in_the_readers_language_and_keeps_the_english() -> None:
    shot = Message("imperial.setup.jammed", weapon="Lasgun")
    assert render(shot, "es") == "Rifle láser está encasquillada: desencasquíllala primero"
    assert "Lasgun" in render(shot, "en")
    assert shot.to_json()["params"]["weapon"] == "Lasgun"  # the event keeps the English
    assert render(Message.named("Hand Weapon"), "es") == "Arma de mano"
    assert render(Message.named("Klaw of Nob"), "es") == "Klaw of Nob"  # the GM's own
    assert render(Message.named("Bow"), "es") == "Arco"  # WFRP's "Bow", not WFB's "bow"


def test_the_qualities_spanish_names_are_the_rules_terms() -> None:
    found = catalogs()
    for game in ("dark_heresy", "deathwatch", "wfrp2"):
        table = names_of(game).spanish
        for message_id, entry in found.templates.items():
            if message_id.startswith(f"{game}.quality.") and entry.english.casefold() in table:
                spanish = found.translated(message_id, "es", entry.english)
                assert table[entry.english.casefold()] == spanish, (game, entry.english)


GM_WEAPONS = """
- name: Klaw of Gritfang
  weapon_class: melee
  damage: 1d10+4
  damage_type: Rending
  pen: 2
- name: Heirloom Laspistol
  name_es: Pistola láser heredada
  weapon_class: pistol
  range: 30
  rof: S/-/-
  damage: 1d10+2
  damage_type: Energy
  pen: 0
  clip: 30
  reload: Full
"""


def test_a_gms_file_without_spanish_names_still_loads_and_one_with_them_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "dark_heresy"
    folder.mkdir()
    (folder / "weapons.yaml").write_text(GM_WEAPONS, encoding="utf-8")
    (folder / "names.yaml").write_text("- name: Blessed\n", encoding="utf-8")
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    weapons = catalog("dark_heresy", "weapons")
    assert "Klaw of Gritfang" in weapons
    assert "Lasgun" in weapons
    assert local_name("dark_heresy", "Klaw of Gritfang", "es") == "Klaw of Gritfang"
    assert local_name("dark_heresy", "Blessed", "es") == "Blessed"
    assert find_entry("dark_heresy", "weapons", "klaw of gritfang") is not None
    heirloom = find_entry("dark_heresy", "weapons", "Pistola láser heredada")
    assert heirloom is not None
    assert heirloom.name == "Heirloom Laspistol"  # type: ignore[attr-defined]
    assert local_name("dark_heresy", "Heirloom Laspistol", "es") == "Pistola láser heredada"
    assert local_name("dark_heresy", "Lasgun", "es") == "Rifle láser"  # the packaged still


def test_a_blank_spanish_name_is_refused_naming_the_file_and_the_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "wfrp2"
    folder.mkdir()
    (folder / "names.yaml").write_text("- {name: Frenzy, name_es: ''}\n", encoding="utf-8")
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    with pytest.raises(SheetError) as refused:
        names_of("wfrp2")
    assert "names.yaml" in str(refused.value)
    assert refused.value.problems[0][0] == "name_es"


def test_prep_lists_each_entry_with_its_spanish_name() -> None:
    weapons = prep.catalog("dark_heresy", "weapons")
    assert list(weapons.columns[:2]) == ["name", "name_es"]
    assert weapons.set_index("name").loc["Lasgun", "name_es"] == "Rifle láser"
    creatures = prep.bestiary("necromunda").set_index("name")
    assert creatures.loc["Juve", "name_es"] == "Novato"  # seed 000's word
