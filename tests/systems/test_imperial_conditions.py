"""Conditions (004, 001): modifiers to and against their bearer, limits, durations, reminders."""

from __future__ import annotations

from typing import Any

import pytest

from gmkit.errors import RulesError
from gmkit.sheets.dark_heresy import DarkHeresyCharacter
from gmkit.systems.base import AttackRequest, Modifier
from gmkit.systems.imperial.conditions import (
    bearer_modifiers,
    condition_modifiers,
    conditions,
    flags_of,
    reminders,
    tick,
)
from gmkit.systems.imperial.modifiers import attack_setup, defence_modifiers

PROFILE = {
    "WS": 40,
    "BS": 40,
    "S": 40,
    "T": 40,
    "Ag": 40,
    "Int": 30,
    "Per": 30,
    "WP": 30,
    "Fel": 30,
}
SWORD = {"name": "Sword", "weapon_class": "melee", "damage": "1d10"}
LASGUN = {
    "name": "Lasgun",
    "weapon_class": "basic",
    "range": 100,
    "rof": "S/3/-",
    "damage": "1d10+3",
    "clip": 60,
    "reload": "Full",
}
TALENTS = ["Basic Weapon Training", "Melee Weapon Training"]
FROM_004 = {
    "stunned",
    "pinned",
    "prone",
    "on_fire",
    "blood_loss",
    "unconscious",
    "grappled",
    "fatigued",
    "helpless",
    "surprised",
    "unaware",
    "blinded",
    "deafened",
    "lost_hand",
    "lost_arm",
    "lost_eye",
    "lost_foot",
    "lost_leg",
    "useless_limb",
    "dead",
}


def fighter(**fields: Any) -> DarkHeresyCharacter:
    return DarkHeresyCharacter.build(
        {
            "name": "Marr",
            "characteristics": PROFILE,
            "wounds": 10,
            "weapons": [SWORD, LASGUN],
            "talents": TALENTS,
            **fields,
        }
    )


def setup(weapon: str = "Sword", **options: Any) -> Any:
    fields = {"distance": 60} if weapon == "Lasgun" else {}
    request = AttackRequest(fighter(), weapon, fighter(name="Foe"), options=options, **fields)
    return attack_setup(request, "dark_heresy")


def names(found: list[Modifier] | tuple[Modifier, ...]) -> list[str]:
    return [str(modifier) for modifier in found]


@pytest.mark.parametrize("game", ["deathwatch", "dark_heresy"])
def test_every_004_condition_is_in_the_catalog(game):
    found = conditions(game)
    assert set(found) >= FROM_004
    assert all(item.name and item.name_es for item in found.values())


def test_stunned_targets_are_plus_20_to_hit_and_cannot_react_or_act():
    assert names(condition_modifiers([], ["stunned"], test="WS")) == ["Target stunned +20"]
    assert names(condition_modifiers([], ["stunned"], test="BS")) == ["Target stunned +20"]
    assert condition_modifiers([], ["stunned"], test="S") == []
    assert {"no_actions", "no_reactions"} <= flags_of("deathwatch", ["stunned"])


def test_prone_by_game():
    watch = condition_modifiers([], ["prone"], test="BS")
    assert names(watch) == ["Target prone -10"]
    assert condition_modifiers([], ["prone"], test="BS", flags={"point_blank"}) == []
    assert condition_modifiers([], ["prone"], test="BS", game="dark_heresy") == []
    assert names(condition_modifiers([], ["prone"], test="WS", game="dark_heresy")) == [
        "Target prone +10"
    ]
    assert names(condition_modifiers(["prone"], [], test="BS", game="dark_heresy")) == ["Prone -10"]
    assert bearer_modifiers(["prone"], "Dodge") == [Modifier("Prone", -20)]


def test_fatigue_pinning_blindness_weigh_on_the_bearer():
    assert names(condition_modifiers(["fatigued"], [], test="S")) == ["Fatigued -10"]
    assert names(condition_modifiers(["pinned"], [], test="BS")) == ["Pinned -20"]
    assert condition_modifiers(["pinned"], [], test="WS") == []
    assert names(condition_modifiers(["blinded"], [], test="WS")) == ["Blinded -30"]


def test_states_actions_leave_change_attacks_and_reactions():
    assert names(condition_modifiers([], ["defensive_stance"], test="WS")) == [
        "Target in Defensive Stance -20"
    ]
    assert names(condition_modifiers([], ["running"], test="BS")) == ["Target running -20"]
    assert names(condition_modifiers([], ["running"], test="WS")) == ["Target running +20"]
    assert names(condition_modifiers([], ["grappled"], test="WS")) == ["Target in a grapple +20"]
    assert bearer_modifiers(["guarded"], "Parry") == [Modifier("Guarded Attack", 10)]
    assert "no_reactions" in flags_of("deathwatch", ["all_out_attack"])


def test_unknown_conditions_are_refused_naming_the_list():
    with pytest.raises(RulesError, match=r"options\['target_conditions'\].*'frozen'"):
        condition_modifiers([], ["frozen"])
    with pytest.raises(RulesError, match=r"options\['attacker_conditions'\].*not the string"):
        setup(attacker_conditions="stunned")


def test_attack_setup_reads_both_combatants_conditions():
    assert names(
        setup(attacker_conditions=["fatigued"], target_conditions=["prone"]).modifiers
    ) == ["Fatigued -10", "Target prone +10"]
    tired = AttackRequest(fighter(fatigue=1), "Sword", fighter(name="Foe"))
    assert names(attack_setup(tired, "dark_heresy").modifiers) == ["Fatigued -10"]


def test_conditions_that_forbid_the_attack():
    with pytest.raises(RulesError, match=r"attacker_conditions.*Stunned: the attacker can take no"):
        setup(attacker_conditions=["stunned"])
    overruled = setup(attacker_conditions=["stunned"], gm_override=True)
    assert any("Stunned" in warning for warning in overruled.warnings)
    pinned = AttackRequest(
        fighter(),
        "Sword",
        fighter(name="Foe"),
        action="all_out_attack",
        options={"attacker_conditions": ["pinned"]},
    )
    with pytest.raises(RulesError, match=r"Pinned: Half Actions only"):
        attack_setup(pinned, "dark_heresy")
    assert names(setup(attacker_conditions=["pinned"]).modifiers) == []  # a half action, WS
    blind = setup("Lasgun", attacker_conditions=["blinded"])
    assert any("BS tests fail automatically" in warning for warning in blind.warnings)
    assert any(note.startswith("auto_fail") for note in blind.notes)


def test_target_conditions_that_take_away_reactions():
    assert (
        setup(target_conditions=["stunned"]).can_dodge,
        setup(target_conditions=["stunned"]).can_parry,
    ) == (False, False)
    legless = setup(target_conditions=["lost_leg"])
    assert (legless.can_dodge, legless.can_parry) == (False, True)
    unaware = setup("Lasgun", target_conditions=["surprised"])
    assert names(unaware.modifiers) == ["Target unaware +30"]
    assert not unaware.can_dodge
    out = setup(target_conditions=["unconscious"])
    assert (out.auto_hit, out.extra_damage_dice) == (True, 1)


def test_defence_modifiers_of_the_target():
    request = AttackRequest(
        fighter(),
        "Sword",
        fighter(name="Foe", fatigue=1),
        options={"target_conditions": ["prone", "guarded"]},
    )
    assert names(defence_modifiers(request, "dark_heresy", "dodge")) == [
        "Prone -20",
        "Guarded Attack +10",
        "Fatigued -10",
    ]
    assert names(defence_modifiers(request, "dark_heresy", "parry")) == [
        "Guarded Attack +10",
        "Fatigued -10",
    ]
    with pytest.raises(RulesError, match=r"field 'reaction'"):
        defence_modifiers(request, "dark_heresy", "block")


def test_stun_counts_down_at_the_end_of_the_bearers_turn():
    active: dict[str, int | None] = {"stunned": 2, "prone": None}
    assert tick(active, "start_of_turn") == active
    once = tick(active, "end_of_turn")
    assert once == {"stunned": 1, "prone": None}
    assert tick(once, "end_of_round") == once
    assert tick(once, "end_of_turn") == {"prone": None}


def test_surprise_ends_with_the_round_and_action_states_at_the_next_turn():
    assert tick({"surprised": 1}, "end_of_turn") == {"surprised": 1}
    assert tick({"surprised": 1}, "end_of_round") == {}
    states = {"running": None, "defensive_stance": None, "all_out_attack": None, "lost_eye": None}
    assert tick(states, "end_of_round") == states
    assert tick(states, "start_of_turn") == {"lost_eye": None}
    with pytest.raises(RulesError, match=r"field 'when'"):
        tick(states, "dawn")


def test_reminders_for_fire_blood_loss_and_pinning():
    fire = reminders(["on_fire"], "end_of_round")
    assert [(r.roll, "Energy" in r.text) for r in fire] == [("1d10", True)]
    assert reminders(["on_fire"], "start_of_turn")[0].test == "WP +0"
    bleeding = reminders(["blood_loss"], "end_of_round")
    assert [r.chance for r in bleeding] == [10]
    assert [r.when for r in reminders(["pinned"], "end_of_turn")] == ["end_of_turn"]
    assert reminders(["pinned"], "start_of_turn") == []
    heresy = reminders(["pinned"], "start_of_turn", game="dark_heresy")
    assert heresy
    assert "+30" in heresy[0].text
    assert "BS by 10" in str(reminders(["lost_eye"], "on_gain")[0])
