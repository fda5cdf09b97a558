"""WFRP 2e damage (seed 002): 1d10 + weapon, soak, unarmed, qualities, Ulric's Fury, criticals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from gmkit.dice import EnteredDice
from gmkit.errors import GmkitError
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems._tables import table
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Step
from gmkit.systems.wfrp2 import SYSTEM, roll_critical

PROFILE = {"WS": 41, "BS": 35, "S": 38, "T": 42, "Ag": 33, "Int": 30, "WP": 30, "Fel": 30}
WEAPONS = [
    {"name": "Hand Weapon", "damage": "SB"},
    {"name": "Dagger", "damage": "SB-3"},
    {
        "name": "Great Weapon",
        "group": "Two-handed",
        "damage": "SB",
        "qualities": ["Impact", "Slow"],
    },
    {"name": "Flail", "group": "Flail", "damage": "SB+1", "qualities": ["Impact", "Tiring"]},
    {"name": "Foil", "group": "Fencing", "damage": "SB-2", "qualities": ["Fast", "Precise"]},
    {"name": "Shield", "damage": "SB-2", "qualities": ["Defensive", "Pummelling"]},
    {
        "name": "Longbow",
        "group": "Longbow",
        "damage": "3",
        "range_short": 30,
        "range_long": 60,
        "reload": "Half",
        "qualities": ["Armour Piercing"],
    },
]
TALENTS = [f"Specialist Weapon Group ({g})" for g in ("Two-handed", "Flail", "Fencing", "Longbow")]
MAIL = [
    {"name": "Mail Shirt", "kind": "mail", "points": {"body": 2}},
    {"name": "Leather Jack", "kind": "leather", "points": {"arms": 1, "body": 1}},
]


def character(name: str, **fields: Any) -> WFRP2Character:
    """WS 41, BS 35, SB 3, TB 4, W 12 unless changed."""
    data: dict[str, Any] = {
        "name": name,
        "characteristics": {**PROFILE, **fields.pop("characteristics", {})},
        "secondary": {"A": 1, "W": 12, **fields.pop("secondary", {})},
        "weapons": WEAPONS,
        "talents": TALENTS,
    }
    return WFRP2Character.build({**data, **fields})


def attack(dice: list[int | str], weapon: str = "Hand Weapon", **fields: Any) -> AttackResult:
    attacker = fields.pop("attacker", None) or character("Gunther")
    target = fields.pop("target", None) or character("Gor")
    source = EnteredDice(dice)
    made = AttackRequest(attacker=attacker, weapon=weapon, target=target, **fields)
    result = SYSTEM.resolve_attack(made, source)
    assert source.pending == ()
    return result


def step(result: AttackResult, title: str) -> Step:
    return next(s for s in result.steps if str(s.title) == title)


def lost(result: AttackResult) -> list[int]:
    return [effect.amount for effect in result.effects if effect.kind == "damage"]


@pytest.fixture
def fresh_tables():
    table.cache_clear()
    yield
    table.cache_clear()


# --- the damage roll -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "die", "total", "wounds"),
    [
        ("Hand Weapon", 6, 9, 5),  # 6 + SB 3, - TB 4
        ("Dagger", 6, 6, 2),  # 6 + SB-3
        ("Dagger", 3, 3, 0),  # below the soak: no wound, no negative damage
    ],
)
def test_damage_is_a_d10_plus_the_weapon_relative_to_sb(weapon, die, total, wounds):
    result = attack([20, die], weapon)
    assert str(step(result, "Damage").outcome) == str(total)
    assert lost(result) == [wounds]


def test_impact_rolls_two_d10_and_keeps_the_higher():
    result = attack([20, 3, 8], "Great Weapon")
    assert str(step(result, "Damage").outcome) == "11"  # 8 + SB 3
    assert (
        str(step(result, "Damage").detail) == "2d10, the highest kept (3, 8) + Great Weapon SB = 3"
    )


def test_a_tiring_weapon_has_impact_only_on_the_charge():
    standard = attack([20, 3], "Flail")
    assert str(step(standard, "Damage").outcome) == "7"  # one die: 3 + SB+1
    assert any("works only with a charge" in str(s.outcome) for s in standard.steps)
    charge = attack([20, 3, 8], "Flail", action="charge_attack")
    assert str(step(charge, "Damage").outcome) == "12"  # 8 + 4


def test_an_uncovered_quality_is_named_for_the_gm():
    result = attack([20, 5], "Shield")
    assert "Pummelling: a quality gmkit does not apply; the GM adjudicates" in [
        str(s.outcome) for s in result.steps if str(s.title) == "Note"
    ]


# --- Ulric's Fury (the book's rule) ----------------------------------------------------------


def test_a_natural_10_confirmed_adds_a_d10():
    result = attack([20, 10, 30, 6])
    fury = step(result, "Ulric's Fury")
    assert (str(fury.outcome), fury.target) == ("+6 (6)", 41)  # the attack test again
    assert str(step(result, "Damage total").outcome) == "19"  # 10 + SB 3 + 6
    assert lost(result) == [15]


def test_ulrics_fury_chains_on_each_further_10():
    result = attack([20, 10, 30, 10, 10, 4])  # 33 lost: a critical, the GM asked
    assert str(step(result, "Ulric's Fury").outcome) == "+24 (10 + 10 + 4)"
    assert str(step(result, "Damage total").outcome) == "37"
    assert str(step(result, "Critical hit").outcome) == (
        "critical value +10 at the head: the GM gives the effect"
    )


def test_an_unconfirmed_fury_adds_nothing():
    result = attack([20, 10, 42])
    assert str(step(result, "Ulric's Fury").outcome) == "not confirmed"
    assert lost(result) == [9]  # 10 + 3 - 4


def test_the_confirmation_keeps_the_attacks_modifiers():
    result = attack([20, 10, 51, 1], action="charge_attack")
    assert step(result, "Ulric's Fury").target == 51  # WS 41 + charge 10


def test_against_a_helpless_target_the_fury_needs_no_confirmation():
    result = attack([99, 10, 7, 5], circumstances={"target_helpless": True})
    assert str(step(result, "Ulric's Fury").outcome) == "+7 (7)"
    assert str(step(result, "Damage total").outcome) == "25"  # 10 + 3 + 7 + helpless 5


def test_with_impact_the_kept_die_decides_the_fury_and_it_can_be_switched_off():
    fury = step(attack([20, 10, 2, 30, 1], "Great Weapon"), "Ulric's Fury")
    assert str(fury.outcome) == "+1 (1)"
    off = attack([20, 10], options={"ulrics_fury": False})
    assert [str(s.title) for s in off.steps if "Fury" in str(s.title)] == []
    assert lost(off) == [9]


# --- soak ------------------------------------------------------------------------------------


def test_soak_is_tb_plus_the_armour_at_the_location():
    result = attack([26, 9], target=character("Gor", armour=MAIL))  # 62: body, 3 points
    assert str(step(result, "Soak").outcome) == "7"
    assert str(step(result, "Soak").detail) == "TB 4 + armour 3 at the body"
    assert lost(result) == [5]  # 9 + 3 - 7
    head = attack([10, 9], target=character("Gor", armour=MAIL))  # 01: head, unarmoured
    assert lost(head) == [8]


def test_unarmed_is_sb_minus_4_against_doubled_armour():
    result = attack([26, 9], "Unarmed", target=character("Gor", armour=MAIL))
    assert str(step(result, "Damage").outcome) == "8"  # 9 + SB 3 - 4
    assert str(step(result, "Soak").outcome) == "10"  # TB 4 + 2 x 3
    assert lost(result) == [0]


def test_armour_piercing_ignores_a_point_never_below_zero():
    body = attack([26, 5], "Longbow", target=character("Gor", armour=MAIL))  # 62: body
    assert str(step(body, "Soak").outcome) == "6"  # TB 4 + 3 - 1
    bare = attack([10, 5], "Longbow", target=character("Gor", armour=MAIL))  # head: 0 points
    assert str(step(bare, "Soak").outcome) == "4"


# --- critical hits ---------------------------------------------------------------------------


def test_a_hit_below_zero_wounds_is_a_critical_the_gm_gives_the_effect_of():
    target = character("Gor", wounds_current=2)
    result = attack([26, 8], target=target)  # 11 - 4 = 7 lost: 5 below zero
    assert str(step(result, "Wounds").outcome) == "7 lost: 2 -> 0, a critical hit"
    critical = step(result, "Critical hit")
    assert str(critical.outcome) == "critical value +5 at the body: the GM gives the effect"
    assert str(critical.detail).startswith("no critical table is loaded")
    # the packaged rows are placeholders: they never apply
    assert [(e.kind, e.amount, e.location, e.condition, e.rounds) for e in result.effects[1:]] == [
        ("critical", 5, "body", None, None),
    ]


def book_like(folder: Path) -> Path:
    """The packaged rows as a GM's own table (placeholder: false), for the reading rules."""
    mine = {**table("wfrp2", "criticals"), "placeholder": False}
    path = folder / "mine.yaml"
    path.write_text(yaml.safe_dump(mine))
    return path


def test_the_location_specific_row_wins_over_any(tmp_path):
    critical = roll_critical("Gor", 5, "head", EnteredDice([70]), table_path=book_like(tmp_path))
    assert critical.result == 5
    assert critical.effects[1] == Effect(
        "condition", "Gor", location="head", condition="stunned", rounds=3
    )


def test_a_critical_value_without_a_chart_row_asks_for_the_book_and_rolls_nothing(tmp_path):
    source = EnteredDice([])
    critical = roll_critical("Gor", 3, "body", source, table_path=book_like(tmp_path))
    assert (critical.value, critical.roll, critical.result) == (3, None, None)
    assert critical.effects == (Effect("critical", "Gor", 3, "body", note=critical.prompt.note),)
    assert "read the book" in str(critical.text)
    assert source.history == []


def test_values_above_the_maximum_read_its_column(tmp_path):
    critical = roll_critical(
        "Gor", 14, "left_leg", EnteredDice([1]), table_path=book_like(tmp_path)
    )
    assert critical.value == 10
    assert critical.effects[1] == Effect("condition", "Gor", location="left_leg", condition="dead")


def test_precise_adds_one_to_the_critical_value_and_zero_wounds_count_as_zero():
    target = character("Gor", wounds_current=0)
    result = attack([20, 5], "Foil", target=target)  # 5 + 1 = 6 - 4 = 2 lost
    assert str(step(result, "Wounds").detail) == "2 below zero (+1 Precise): critical value +3"
    assert str(step(result, "Critical hit").outcome) == (
        "critical value +3 at the head: the GM gives the effect"
    )


def test_a_swift_attack_runs_the_wounds_down_hit_by_hit():
    attacker = character("Gunther", secondary={"A": 2})
    target = character("Gor", wounds_current=5)
    result = attack([20, 6, 30, 5], attacker=attacker, target=target, action="swift_attack")
    assert str(step(result, "Attack 1: Wounds").outcome) == "5 lost: 5 -> 0 (seriously wounded)"
    assert str(step(result, "Attack 2: Critical hit").outcome) == (
        "critical value +4 at the head: the GM gives the effect"
    )
    assert str(result.summary) == (
        "Gunther (Swift Attack, Hand Weapon): 2 of 2 hits; Gor loses 9 wounds (0 left)"
    )


def test_a_gm_critical_table_replaces_the_placeholder(tmp_path, monkeypatch, fresh_tables):
    (tmp_path / "wfrp2").mkdir()
    mine = {
        "placeholder": False,
        "max_value": 3,
        "chart": [{"value": 3, "upto": 100, "result": 7}],
        "results": [
            {
                "result": 7,
                "location": "arm",
                "text": "arm broken",
                "effects": [{"kind": "note", "note": "arm useless"}],
            }
        ],
    }
    (tmp_path / "wfrp2" / "criticals.yaml").write_text(yaml.safe_dump(mine))
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    critical = roll_critical("Gor", 9, "left_arm", EnteredDice([55]))
    assert (critical.value, critical.result, str(critical.text)) == (3, 7, "arm broken")
    assert str(critical.steps[0].detail) == "arm broken"
    note = critical.effects[1]
    assert (note.kind, note.location, str(note.note)) == ("note", "left_arm", "arm useless")


def test_a_broken_critical_table_is_named(tmp_path, monkeypatch, fresh_tables):
    (tmp_path / "wfrp2").mkdir()
    (tmp_path / "wfrp2" / "criticals.yaml").write_text("- just a list\n")
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    with pytest.raises(GmkitError, match=r"criticals\.yaml"):
        roll_critical("Gor", 1, "body", EnteredDice([1]))
