"""Issue 11, critical damage per the seeds' README ruling: placeholder rows never apply, a
critical without a GM's table is a typed prompt the GM answers, a GM's table file replaces the
prompt, and the seeds' death thresholds (004: usually 8 or more; 001: a minion at 1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gmkit.errors import GmkitError
from gmkit.systems._imperial import criticals
from gmkit.systems._imperial import effects as fx
from gmkit.systems._imperial.criticals import CriticalPrompt, death_threshold
from gmkit.systems.base import Effect

EXAMPLE = Path(__file__).parents[2] / "examples" / "criticals" / "deathwatch_energy_head.yaml"


@pytest.fixture(autouse=True)
def no_loaded_tables():
    criticals.clear_tables()
    yield
    criticals.clear_tables()


def test_a_placeholder_row_is_never_applied_the_gm_is_prompted(marine):
    # deathwatch/criticals.yaml has a placeholder row Impact head 2 (stunned a round)
    brother = marine("Castor", damage=20)  # at full wounds: the 2 is critical damage
    applied = fx.apply(brother, Effect("damage", "Castor", 2, "head", "Impact"))
    assert applied.sheet.critical_damage == 2
    assert [e.kind for e in applied.follow_up] == ["note"]  # no stunned condition
    assert applied.criticals == (CriticalPrompt("deathwatch", "Castor", 2, "head", "Impact", 8),)
    assert str(applied.follow_up[0].note) == (
        "2 critical damage (Impact, head): no critical table provided: the GM decides the effect"
    )


def test_the_prompt_at_the_seeds_death_threshold_says_it_may_kill(marine):
    brother = marine("Castor", damage=20, critical_damage=6)
    applied = fx.apply(brother, Effect("damage", "Castor", 2, "right_arm", "Rending"))
    (prompt,) = applied.criticals
    assert (prompt.total, prompt.location, prompt.damage_type, prompt.may_kill) == (
        8,
        "right_arm",
        "Rending",
        True,
    )
    assert str(prompt.message) == (
        "8 critical damage (Rending, right arm): no critical table provided: the GM decides the "
        "effect; from 8 critical damage it may kill"
    )
    assert not [e for e in applied.follow_up if e.condition == "dead"]  # the GM decides


def test_death_thresholds_per_game():
    assert death_threshold("deathwatch", "head", "Energy") == 8  # 004: usually 8 or more
    assert death_threshold("dark_heresy", "head", "Energy") is None  # 001 gives none


def test_no_prompt_when_the_character_dies_anyway(acolyte):
    minion = acolyte(damage=1, minion=True)  # 001's house Fury: a minion dies at 1
    applied = fx.apply(minion, Effect("critical", "Acolyte", 1, "body", "Energy"))
    assert [e.condition for e in applied.follow_up] == ["dead"]
    assert applied.criticals == ()
    past = fx.apply(acolyte(damage=12, critical_damage=9), Effect("damage", "Acolyte", 3))
    assert [e.condition for e in past.follow_up] == ["dead"]  # past the tables' 10


def test_the_gm_answers_the_prompt_with_effects(marine):
    prompt = CriticalPrompt.of("deathwatch", "Castor", 3, "left_leg", "I")
    assert prompt.damage_type == "Impact"
    assert not prompt.may_kill
    found = prompt.answer("the knee gives way", [("prone", None), ("stunned", 1)], fatigue=1)
    assert [(e.kind, e.condition, e.rounds, e.amount) for e in found] == [
        ("condition", "prone", None, 0),
        ("condition", "stunned", 1, 0),
        ("fatigue", None, None, 1),
        ("note", None, None, 0),
    ]
    assert str(found[-1].note) == "critical damage 3, the GM's effect: the knee gives way"
    dead = prompt.answer("the leg is torn off", dead=True)
    assert [e.condition for e in dead if e.kind == "condition"] == ["dead"]


def test_the_prompt_round_trips_through_its_note_effect():
    prompt = CriticalPrompt.of("deathwatch", "c1", 9, "head", "Energy")
    effect = prompt.to_effect()
    assert (effect.kind, effect.amount, effect.location, effect.damage_type) == (
        "note",
        9,
        "head",
        "Energy",
    )
    assert CriticalPrompt.from_effect(effect, "deathwatch") == prompt
    assert CriticalPrompt.from_effect(Effect("note", "c1", note="hello"), "deathwatch") is None


def test_a_gm_table_file_replaces_the_prompt(marine):
    assert criticals.load_tables(EXAMPLE) == "deathwatch"
    brother = marine("Castor", damage=20, critical_damage=1)
    applied = fx.apply(brother, Effect("damage", "Castor", 1, "head", "Energy"))  # total 2
    assert [(e.condition, e.rounds) for e in applied.follow_up if e.kind == "condition"] == [
        ("stunned", 1)
    ]
    (row,) = applied.criticals
    assert (row.value, row.placeholder, str(row.message)) == (
        2,
        False,
        "Seared eyes: stunned for a round",
    )
    # a location the file lacks still prompts (the packaged placeholder is not applied)
    other = fx.apply(brother, Effect("damage", "Castor", 2, "body", "Energy"))
    assert isinstance(other.criticals[0], CriticalPrompt)
    deadly = fx.apply(brother, Effect("damage", "Castor", 7, "head", "Energy"))  # total 8
    assert [e.condition for e in deadly.follow_up if e.kind == "condition"] == ["dead"]
    criticals.clear_tables("deathwatch")
    again = fx.apply(brother, Effect("damage", "Castor", 1, "head", "Energy"))
    assert isinstance(again.criticals[0], CriticalPrompt)


def test_a_bad_table_file_is_refused(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: deathwatch\ntables: {Sonic: {head: []}}\n", encoding="utf-8")
    with pytest.raises(GmkitError, match="bad critical table entry Sonic"):
        criticals.load_tables(bad)
    (tmp_path / "list.yaml").write_text("- 1\n", encoding="utf-8")
    with pytest.raises(GmkitError, match="no critical table file"):
        criticals.load_tables(tmp_path / "list.yaml")
    with pytest.raises(GmkitError, match="cannot read"):
        criticals.load_tables(tmp_path / "missing.yaml")
