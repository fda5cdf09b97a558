"""Critical effect tables: the format, its placeholder rows, and what a row applies."""

from __future__ import annotations

import pytest
import yaml

from gmkit.errors import RulesError
from gmkit.systems._imperial import modifiers
from gmkit.systems._imperial.actions import game_data
from gmkit.systems._imperial.conditions import conditions
from gmkit.systems._imperial.criticals import critical_effect
from gmkit.systems.base import Effect


def test_a_row_gives_its_text_and_machine_readable_effects():
    found = critical_effect("deathwatch", "head", "Impact", 2)
    assert found is not None
    assert (found.location, found.damage_type, found.value) == ("head", "Impact", 2)
    assert found.conditions == (("stunned", 1),)
    assert found.placeholder
    assert "PLACEHOLDER" in found.text
    assert not found.dead


def test_a_side_reads_its_location_class_and_a_letter_its_damage_type():
    found = critical_effect("deathwatch", "left_arm", "R", 3)
    assert found is not None
    assert (found.location, found.damage_type) == ("arm", "Rending")
    assert found.conditions == (("blood_loss", None),)
    assert found.fatigue == 1


def test_damage_beyond_the_table_reads_its_last_row_and_missing_rows_give_none():
    beyond = critical_effect("deathwatch", "head", "energy", 14)
    assert beyond is not None
    assert (beyond.value, beyond.dead) == (10, True)
    assert beyond.conditions == (("dead", None),)
    assert critical_effect("deathwatch", "head", "Energy", 5) is None
    assert critical_effect("dark_heresy", "leg", "Impact", 1) is None


def test_effects_for_the_encounter():
    found = critical_effect("deathwatch", "arm", "Explosive", 5)
    assert found is not None
    effects = found.to_effects("Brother Cassius", "right_arm")
    assert effects[0] == Effect(
        "condition",
        "Brother Cassius",
        location="right_arm",
        condition="lost_hand",
        note=effects[0].note,
    )
    assert str(effects[0].note) == "critical Explosive arm 5"
    assert effects[1].condition == "blood_loss"
    assert effects[-1].kind == "note"
    assert str(effects[-1].note).startswith("PLACEHOLDER row")
    leg = critical_effect("deathwatch", "leg", "Impact", 4)
    assert leg is not None
    notes = [str(e.note) for e in leg.to_effects("Brother Cassius") if e.kind == "note"]
    assert "critical Impact leg 4: roll Toughness or the leg is useless" in notes
    tired = critical_effect("dark_heresy", "right_leg", "Rending", 1)
    assert tired is not None
    first = tired.to_effects("Ilse")[0]
    assert first == Effect("fatigue", "Ilse", amount=1, note=first.note)
    assert str(first.note) == "critical Rending leg 1"


def test_bad_arguments_are_refused_naming_the_field():
    with pytest.raises(RulesError, match=r"field 'damage_type'"):
        critical_effect("deathwatch", "head", "Sonic", 1)
    with pytest.raises(RulesError, match=r"field 'location'"):
        critical_effect("deathwatch", "tail", "Impact", 1)
    with pytest.raises(RulesError, match=r"field 'value'"):
        critical_effect("deathwatch", "head", "Impact", 0)
    with pytest.raises(RulesError, match=r"field 'game'"):
        critical_effect("wfrp2", "head", "Impact", 1)


@pytest.mark.parametrize("game", ["deathwatch", "dark_heresy"])
def test_every_condition_a_table_names_exists(game):
    tables = game_data(game, "criticals")["tables"]
    named = set()
    for by_place in tables.values():
        for rows in by_place.values():
            for row in rows:
                named |= {str(e["condition"]) for e in row["effects"] if "condition" in e}
                named |= {f"lost_{e['lost']}" for e in row["effects"] if "lost" in e}
    assert named
    assert named <= set(conditions(game))


def test_a_gm_fills_the_table_from_the_book(tmp_path, monkeypatch):
    folder = tmp_path / "dark_heresy"
    folder.mkdir()
    table = {
        "max_value": 10,
        "tables": {
            "Energy": {"body": [{"value": 1, "text": "winded", "effects": [{"fatigue": 1}]}]}
        },
    }
    (folder / "criticals.yaml").write_text(yaml.safe_dump(table), encoding="utf-8")
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    modifiers.clear_caches()
    try:
        found = critical_effect("dark_heresy", "body", "Energy", 1)
        assert found is not None
        assert (found.text, found.placeholder, found.fatigue) == ("winded", False, 1)
        assert str(found.to_effects("Fenn")[-1].note) == "winded"
    finally:
        monkeypatch.delenv("GMKIT_DATA_PATH")
        modifiers.clear_caches()
    assert critical_effect("dark_heresy", "body", "Energy", 1) is None
