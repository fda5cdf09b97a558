"""Applying WFRP 2e effects: a new sheet, wounds never below zero, the overflow a critical."""

from __future__ import annotations

from typing import Any

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import GmkitError
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems.base import AttackRequest, Effect
from gmkit.systems.wfrp2 import SYSTEM, apply_effects

PROFILE = {"WS": 41, "BS": 35, "S": 38, "T": 42, "Ag": 33, "Int": 30, "WP": 30, "Fel": 30}


def character(name: str, **fields: Any) -> WFRP2Character:
    data: dict[str, Any] = {
        "name": name,
        "characteristics": PROFILE,
        "secondary": {"W": 12},
        "weapons": [{"name": "Hand Weapon", "damage": "SB"}],
    }
    return WFRP2Character.build({**data, **fields})


GOR = character("Gor")


def test_damage_lowers_wounds_on_a_new_sheet_and_leaves_the_old_one():
    applied = apply_effects(GOR, [Effect("damage", "Gor", 4, "body")])
    assert applied.sheet.wounds_current == 8
    assert applied.sheet.wound_state == "lightly wounded"
    assert GOR.wounds_current == 12
    assert applied.applied == (Effect("damage", "Gor", 4, "body"),)
    assert applied.outstanding == ()
    assert (
        applied.explain()
        == "Damage: 12 -> 8 wounds (4 at the body)\nWound state: lightly wounded (8/12)"
    )


@pytest.mark.parametrize(
    ("amounts", "left", "state"),
    [
        ([0], 12, "unhurt"),
        ([8], 4, "lightly wounded"),
        ([9], 3, "seriously wounded"),
        ([5, 7], 0, "seriously wounded"),
    ],
)
def test_wound_states_follow_the_wounds_left(amounts, left, state):
    applied = apply_effects(GOR, [Effect("damage", "Gor", n, "body") for n in amounts])
    assert (applied.sheet.wounds_current, applied.sheet.wound_state) == (left, state)


def test_damage_past_zero_stops_at_zero_and_becomes_a_critical():
    applied = apply_effects(GOR, [Effect("damage", "Gor", 15, "head", weapon="Axe")])
    assert applied.sheet.wounds_current == 0
    [critical] = applied.outstanding
    assert (critical.kind, critical.amount, critical.location, critical.weapon) == (
        "critical",
        3,
        "head",
        "Axe",
    )
    assert str(critical.note) == "critical value +3: roll it on the critical table"


def test_at_zero_every_wound_is_critical():
    at_zero = character("Gor", wounds_current=0)
    applied = apply_effects(at_zero, [Effect("damage", "Gor", 2, "body")])
    assert applied.sheet is at_zero  # nothing on the sheet changed
    assert [(e.kind, e.amount) for e in applied.outstanding] == [("critical", 2)]


def test_the_resolvers_critical_is_passed_on_not_doubled():
    target = character("Gor", wounds_current=2)
    made = AttackRequest(attacker=character("Gunther"), weapon="Hand Weapon", target=target)
    result = SYSTEM.resolve_attack(made, EnteredDice([26, 8]))  # 7 lost: value +5
    applied = SYSTEM.apply_effects(target, result.effects)
    assert applied.sheet.wounds_current == 0
    # the packaged placeholder rows never apply: the critical alone, asking the GM
    assert [(e.kind, e.amount, e.condition) for e in applied.outstanding] == [
        ("critical", 5, None),
    ]


def test_conditions_reactions_and_other_targets():
    effects = [
        Effect("condition", "Gunther", condition="all_out_attack", rounds=1),
        Effect("reaction", "Gor", condition="parry"),
        Effect("condition", "Gor", condition="stunned", rounds=1),
        Effect("damage", "Gor", 2, "left_arm"),
    ]
    applied = apply_effects(GOR, effects)
    assert applied.sheet.wounds_current == 10
    assert applied.outstanding == (effects[1], effects[2])  # the sheet has no conditions


def test_negative_damage_is_refused():
    with pytest.raises(GmkitError, match="negative"):
        apply_effects(GOR, [Effect("damage", "Gor", -3, "body")])
