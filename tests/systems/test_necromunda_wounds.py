"""Necromunda shots that hit: to wound (S vs T), wounds caused, injuries, saves (fixed dice)."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice, SeededDice
from gmkit.systems.necromunda import (
    SYSTEM,
    FighterState,
    shot_setup,
)

from ..shared.necromunda import fighter, shot, step


@pytest.mark.parametrize(
    ("weapon", "toughness", "needed"),
    [
        ("autogun", 3, 4),
        ("boltgun", 3, 3),
        ("autogun", 4, 5),
        ("autogun", 6, 6),
        ("lascannon", 3, 2),
    ],
)
def test_strength_against_toughness(weapon, toughness, needed):
    target = fighter("Ogryn", T=toughness)
    assert shot_setup(shot(weapon=weapon, target=target)).to_wound == needed


def test_no_wound_is_possible_four_below():
    target = fighter("Brute", T=7)
    source = EnteredDice([4])
    result = SYSTEM.resolve_attack(shot(target=target), source)
    assert str(step(result, "To wound").outcome) == "no wound"
    assert step(result, "To wound").rolls == ()
    assert [e.kind for e in result.effects] == ["pinned"]  # a hit pins even without a wound


def test_a_wounding_hit_on_a_one_wound_fighter_calls_the_injury_roll():
    source = EnteredDice([5, 4, 3])  # hit, wound, injury 3: down
    result = SYSTEM.resolve_attack(shot(), source)
    assert [(e.kind, e.condition) for e in result.effects] == [
        ("pinned", None),
        ("damage", None),
        ("injury", "down"),
    ]
    assert str(result.summary) == "Mordecai hits Tom: down"


def test_damage_dice_cause_several_wounds_each_rolling_for_injury():
    request = shot(weapon="lascannon", distance=30)  # S 9: high impact, D6 wounds
    source = EnteredDice([4, 2, 3, 2, 4, 1])  # hit, wound, 3 wounds, injuries 2, 4, 1
    result = SYSTEM.resolve_attack(request, source)
    assert str(step(result, "Wounds caused").outcome) == "3"
    assert str(step(result, "Wounds caused").detail) == "wounds: D6 = D6 (3) = 3"
    assert [(e.kind, e.amount, e.condition) for e in result.effects] == [
        ("pinned", 0, None),
        ("damage", 1, None),
        ("injury", 0, "down"),
        ("injury", 0, "flesh wound"),  # the second down is ignored
    ]
    assert source.pending == ()


@pytest.mark.parametrize(
    ("weapon", "condition"), [("lascannon", "out of action"), ("boltgun", "down")]
)
def test_high_impact_takes_a_fighter_out_on_a_five(weapon, condition):
    source = EnteredDice([4, 6, 1, 5] if weapon == "lascannon" else [4, 6, 5])
    result = SYSTEM.resolve_attack(shot(weapon=weapon, distance=10), source)
    assert result.effects[-1].condition == condition
    assert source.pending == ()


def test_a_fighter_with_wounds_left_fights_on():
    sergeant = fighter("Sarge", W=2)
    source = EnteredDice([5, 5])
    result = SYSTEM.resolve_attack(shot(target=sergeant), source)
    assert [(e.kind, e.amount) for e in result.effects] == [("pinned", 0), ("damage", 1)]
    assert str(result.summary) == "Mordecai hits Sarge: 1 wound left"
    source = EnteredDice([5, 5, 1])  # wounds_left 1: this wound takes him to 0
    result = SYSTEM.resolve_attack(shot(target=sergeant, wounds_left=1), source)
    assert result.effects[-1].condition == "flesh wound"


def test_a_down_target_is_not_pinned_again_and_a_second_down_is_ignored():
    state = FighterState(wounds_left=0, down=True)
    source = EnteredDice([5, 5, 3])
    result = SYSTEM.resolve_attack(shot(target_state=state), source)
    assert [e.kind for e in result.effects] == []
    assert str(step(result, "Pinned").outcome) == "not pinned: already down"
    assert str(step(result, "Injury roll").outcome) == "down, ignored: already down"


def test_armour_saves_only_when_turned_on():
    armoured = fighter("Goliath", armour={"name": "carapace", "save": 4})
    source = EnteredDice([5, 5, 4])  # boltgun S 4 (save -1): hit, wound; 4+ becomes 5+
    result = SYSTEM.resolve_attack(shot(weapon="boltgun", target=armoured), source)
    assert result.effects[-1].condition == "down"  # no save: the seed has none
    source = EnteredDice([5, 5, 4, 3])
    request = shot(weapon="boltgun", target=armoured, armour_saves=True)
    result = SYSTEM.resolve_attack(request, source)
    assert step(result, "Armour save").target == 5
    assert str(step(result, "Armour save").outcome) == "failed"
    result = SYSTEM.resolve_attack(request, EnteredDice([5, 5, 5]))
    assert [e.kind for e in result.effects] == ["pinned"]
    lascannon = shot(weapon="lascannon", target=armoured, armour_saves=True)
    result = SYSTEM.resolve_attack(lascannon, EnteredDice([5, 2, 1, 6]))
    assert str(step(result, "Armour save").outcome) == "no save possible"


def test_a_seeded_shot_is_reproducible():
    source = SeededDice(19)
    result = SYSTEM.resolve_attack(shot(), source)
    # to hit 6 (3+), ammo roll 1 (4+) fails, to wound 5 (4+), injury roll 1: flesh wound
    assert [r.value for r in result.rolls] == [6, 1, 5, 1]
    assert [r.value for r in source.history] == [6, 1, 5, 1]
    assert [e.kind for e in result.effects] == ["pinned", "jam", "damage", "injury"]
    assert str(result.summary) == "Mordecai hits Tom: flesh wound"
    assert SYSTEM.resolve_attack(shot(), SeededDice(19)).explain() == result.explain()
