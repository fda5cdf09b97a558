"""Size by name (issue 21, item 6): the categories of the seeds' README ruling as data
(sizes.yaml), on sheets (a category in English or Spanish, or a number as before) and as the
attack's ``size`` circumstance (a dropdown of names; a typed number still works)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from gmkit.errors import RulesError, SheetError
from gmkit.messages import render
from gmkit.systems._imperial import sizes
from gmkit.systems._imperial.modifiers import attack_setup, clear_caches
from gmkit.systems._imperial.offers import ImperialOffers
from gmkit.systems._tables import table
from gmkit.systems.base import AttackRequest

RULING = {
    "miniscule": -30,
    "puny": -20,
    "scrawny": -10,
    "average": 0,
    "hulking": 10,
    "enormous": 20,
    "massive": 30,
}


def modifiers(request: AttackRequest, game: str = "dark_heresy") -> list[str]:
    return [str(m) for m in attack_setup(request, game).modifiers]


@pytest.mark.parametrize("game", ["dark_heresy", "deathwatch"])
def test_the_categories_are_the_rulings_table(game: str) -> None:
    found = {key: item.modifier for key, item in sizes.sizes(game).items()}
    assert found == RULING
    assert list(found) == list(RULING)  # smallest first, as the dropdown lists them
    assert sizes.default(game) == "average"


def test_a_sheet_takes_a_category_in_english_or_spanish_or_a_number(veteran) -> None:
    for typed, kept in (
        ("Hulking", "hulking"),
        ("corpulento", "hulking"),
        ("Tamaño (Enorme)", "enormous"),
        ("MINUSCULO", "miniscule"),
        ("Size (Puny)", "puny"),
        (10, 10),
        ("+20", 20),
        (-10, -10),
        (None, None),
        ("", None),
    ):
        assert veteran("deathwatch", size=typed).size == kept, typed


@pytest.mark.parametrize("typed", ["Gigantic", 99, True, "10 metres"])
def test_a_sheet_refuses_what_is_no_size_naming_the_field(veteran, typed: Any) -> None:
    with pytest.raises(SheetError) as refused:
        veteran("dark_heresy", size=typed)
    assert [field for field, _ in refused.value.problems] == ["size"]
    english, spanish = refused.value.render("en"), refused.value.render("es")
    assert "field 'size': no size category: give one of Miniscule, Puny, Scrawny" in english
    assert "or a whole number from -60 to 60" in english
    assert "no es una categoría de tamaño: da una de Minúsculo, Diminuto, Pequeño" in spanish
    assert "Corpulento" in spanish
    assert "Hulking" not in spanish


def test_the_target_sheets_size_weighs_on_every_attack_at_it(veteran) -> None:
    shooter = veteran("dark_heresy", "Lasgun")
    for size, shown in (("hulking", "Size: Hulking +10"), ("scrawny", "Size: Scrawny -10")):
        target = veteran("dark_heresy", "Sword", name="Ogryn", size=size)
        found = modifiers(AttackRequest(shooter, "Lasgun", target, distance=60))
        assert found == [shown]
    average = veteran("dark_heresy", "Sword", name="Guard", size="Average")
    assert modifiers(AttackRequest(shooter, "Lasgun", average, distance=60)) == []
    typed = veteran("dark_heresy", "Sword", name="Beast", size=20)
    assert modifiers(AttackRequest(shooter, "Lasgun", typed, distance=60)) == ["Size +20"]
    ogre = veteran("dark_heresy", name="O", size="enorme")
    [size] = attack_setup(
        AttackRequest(shooter, "Lasgun", ogre, distance=60), "dark_heresy"
    ).modifiers
    assert render(size.source, "es") == "Tamaño: Enorme"


def test_the_attacks_size_circumstance_wins_over_the_sheet(veteran) -> None:
    shooter = veteran("deathwatch", "Lasgun")
    ogryn = veteran("deathwatch", "Sword", name="Ogryn", size="hulking")

    def shot(size: Any) -> list[str]:
        request = AttackRequest(shooter, "Lasgun", ogryn, distance=60, circumstances={"size": size})
        return modifiers(request, "deathwatch")

    assert shot("Massive") == ["Size: Massive +30"]
    assert shot("diminuto") == ["Size: Puny -20"]
    assert shot(10) == ["Size +10"]  # a typed number, as before the categories
    assert shot("average") == []  # the GM's call: no modifier, whatever the sheet says
    with pytest.raises(RulesError) as refused:
        shot("Gigantic")
    assert "circumstances['size']" in str(refused.value)
    assert "Size takes a size category (Miniscule, Puny" in str(refused.value)
    assert "not 'Gigantic'" in str(refused.value)


def test_the_panel_offers_the_categories_as_a_dropdown() -> None:
    offered = {c.id: c for c in ImperialOffers("deathwatch").circumstances(None)}
    size = offered["size"]
    assert (size.kind, size.options) == ("choice", tuple(RULING))
    assert [render(size.option_label(o), "es") for o in size.options] == [
        "Minúsculo",
        "Diminuto",
        "Pequeño",
        "Normal",
        "Corpulento",
        "Enorme",
        "Descomunal",
    ]
    assert render(size.help) == "a size category; none chosen: the target sheet's size"


def test_a_gm_overrides_the_categories(tmp_path, monkeypatch, veteran) -> None:
    folder = tmp_path / "dark_heresy"
    folder.mkdir()
    mine = {"extends": "deathwatch", "changes": {"sizes": [
        {"id": "hulking", "modifier": 15},
        {"id": "immense", "name": "Immense", "modifier": 40},
    ]}}  # fmt: skip
    (folder / "sizes.yaml").write_text(yaml.safe_dump(mine), encoding="utf-8")
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    table.cache_clear()
    clear_caches()
    try:
        shooter = veteran("dark_heresy", "Lasgun")
        titan = veteran("dark_heresy", name="Titan", size="Immense")
        assert titan.size == "immense"
        ogryn = veteran("dark_heresy", name="Ogryn", size="hulking")
        assert modifiers(AttackRequest(shooter, "Lasgun", titan, distance=60)) == [
            "Size: Immense +40"
        ]
        assert modifiers(AttackRequest(shooter, "Lasgun", ogryn, distance=60)) == [
            "Size: Hulking +15"
        ]
    finally:
        monkeypatch.delenv("GMKIT_DATA_PATH")
        table.cache_clear()
        clear_caches()
    assert sizes.sizes("dark_heresy")["hulking"].modifier == 10
