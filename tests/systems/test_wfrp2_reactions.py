"""WFRP 2e parry and dodge (seed 002): who may, with what, once a round, against melee only."""

from __future__ import annotations

from typing import Any

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import GmkitError
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Step
from gmkit.systems.wfrp2 import SYSTEM, reactions_available

PROFILE = {"WS": 41, "BS": 35, "S": 38, "T": 42, "Ag": 33, "Int": 30, "WP": 30, "Fel": 30}
HAND = {"name": "Hand Weapon", "damage": "SB"}
SHIELD = {"name": "Shield", "damage": "SB-2", "qualities": ["Defensive", "Pummelling"]}
BOW = {"name": "Bow", "damage": "3", "range_short": 24, "range_long": 48, "reload": "Half"}
RAPIER = {"name": "Rapier", "group": "Fencing", "damage": "SB-1", "qualities": ["Fast"]}
GREAT = {
    "name": "Great Weapon",
    "group": "Two-handed",
    "damage": "SB",
    "qualities": ["Impact", "Slow"],
}
STANCE = {"target_parry_stance": True}


def character(name: str, **fields: Any) -> WFRP2Character:
    """WS 41, Ag 33, SB 3, TB 4, W 12; a hand weapon and a bow unless changed."""
    data: dict[str, Any] = {
        "name": name,
        "characteristics": {**PROFILE, **fields.pop("characteristics", {})},
        "secondary": {"A": 1, "W": 12, **fields.pop("secondary", {})},
        "weapons": [HAND, BOW],
        "talents": ["Specialist Weapon Group (Fencing)", "Specialist Weapon Group (Two-handed)"],
    }
    return WFRP2Character.build({**data, **fields})


DEFENDER = character("Gor", weapons=[HAND, SHIELD], skills=["Dodge Blow"])


def request(weapon: str = "Hand Weapon", **fields: Any) -> AttackRequest:
    attacker = fields.pop("attacker", None) or character(
        "Gunther", weapons=[HAND, BOW, RAPIER, GREAT]
    )
    target = fields.pop("target", None) or DEFENDER
    return AttackRequest(attacker=attacker, weapon=weapon, target=target, **fields)


def attack(dice: list[int | str], weapon: str = "Hand Weapon", **fields: Any) -> AttackResult:
    source = EnteredDice(dice)
    result = SYSTEM.resolve_attack(request(weapon, **fields), source)
    assert source.pending == ()
    return result


def step(result: AttackResult, title: str) -> Step:
    return next(s for s in result.steps if str(s.title) == title)


def test_a_successful_parry_with_a_defensive_shield_stops_the_blow():
    result = attack([20, 51], circumstances=STANCE, options={"reaction": "parry"})
    parry = step(result, "Parry")
    assert (str(parry.outcome), parry.target) == ("success: the attack is turned aside", 51)
    assert [str(m) for m in parry.modifiers] == ["Shield (Defensive) +10"]  # WS 41 + 10
    assert result.hits == 0
    assert result.effects == (Effect("reaction", "Gor", condition="parry"),)  # spent


def test_a_failed_parry_is_spent_and_the_blow_lands():
    result = attack([20, 60, 5], circumstances=STANCE, options={"reaction": "parry"})
    assert str(step(result, "Parry").outcome) == "failure: the blow lands"
    assert result.effects == (
        Effect("reaction", "Gor", condition="parry"),
        Effect("damage", "Gor", 4, "head", weapon="Hand Weapon"),  # 5 + SB 3 - TB 4
    )


def test_the_parry_weapon_can_be_chosen_and_a_bow_cannot_parry():
    chosen = attack(
        [20, 41],
        circumstances={"target_second_weapon": True},
        options={"reaction": "parry", "parry_weapon": "hand weapon"},
    )
    assert step(chosen, "Parry").target == 41  # no Defensive bonus with the hand weapon
    with pytest.raises(GmkitError, match="cannot parry with Bow"):
        reactions_available(
            request(
                circumstances=STANCE, options={"parry_weapon": "Bow"}, target=character("Archer")
            )
        )


def test_a_parry_needs_a_parry_stance_or_a_second_weapon():
    one_sword = character("Gor", weapons=[HAND, BOW], skills=["Dodge Blow"])
    result = attack([20, 5], target=one_sword, options={"reaction": "parry"})
    assert str(step(result, "Parry").outcome).startswith("not possible: needs a parry stance")
    assert [e.kind for e in result.effects] == ["damage"]  # no reaction spent, no die for it


def test_a_shield_on_the_sheet_is_a_weapon_in_the_other_hand_so_the_target_parries():
    """Issue 21: Gunther (Hand Weapon + Shield) read "parry not possible" unless the GM ticked
    the circumstance on every attack; 002 gives the parry to a weapon in the other hand."""
    result = attack([20, 51], options={"reaction": "parry"})  # DEFENDER: Hand Weapon + Shield
    parry = step(result, "Parry")
    assert (str(parry.outcome), parry.target) == ("success: the attack is turned aside", 51)
    assert result.request.circumstances["target_second_weapon"] is True  # as resolved
    assert result.hits == 0


@pytest.mark.parametrize(
    ("weapons", "parries"),
    [
        ([HAND, SHIELD], True),
        ([HAND, HAND | {"name": "Dagger", "damage": "SB-3"}], True),  # a weapon in each hand
        ([RAPIER, {"name": "Main Gauche", "group": "Parrying", "damage": "SB-3"}], True),
        ([HAND, BOW], False),  # a bow is no weapon for the other hand
        ([GREAT, SHIELD], False),  # a great weapon takes both hands
        ([HAND], False),
    ],
)
def test_the_sheet_says_whether_a_weapon_is_in_the_other_hand(weapons, parries):
    target = character("Gor", weapons=weapons)
    options = SYSTEM.reactions_available(request(target=target))
    assert options["parry"].available is parries


def test_the_gm_turns_the_sheets_second_weapon_off():
    result = attack(
        [20, 5], circumstances={"target_second_weapon": False}, options={"reaction": "parry"}
    )
    assert str(step(result, "Parry").outcome).startswith("not possible: needs a parry stance")
    assert [e.kind for e in result.effects] == ["damage"]


def test_a_parry_needs_a_melee_weapon_ready():
    archer = character("Archer", weapons=[BOW])
    parry = reactions_available(request(target=archer, circumstances=STANCE))["parry"]
    assert (parry.available, str(parry.reason)) == (False, "Archer has no melee weapon ready")


def test_a_dodge_needs_dodge_blow_and_tests_agility():
    untrained = reactions_available(request(target=character("Ungor")))["dodge"]
    assert (untrained.available, str(untrained.reason)) == (False, "Ungor lacks Dodge Blow")
    result = attack([20, 33], options={"reaction": "dodge"})
    dodge = step(result, "Dodge")
    assert (str(dodge.outcome), dodge.target) == ("success: the attack is turned aside", 33)
    assert result.effects == (Effect("reaction", "Gor", condition="dodge"),)


@pytest.mark.parametrize(
    ("weapon", "circumstances", "parry", "dodge"),
    [
        ("Rapier", STANCE, 41, 23),  # Fast: -10 to both (Shield +10 to parry)
        ("Great Weapon", STANCE, 61, 43),  # Slow: +10 to both
        ("Hand Weapon", {**STANCE, "target_cautious": True}, 61, 43),  # cautious attack +10
    ],
)
def test_fast_slow_and_cautious_change_parry_and_dodge(weapon, circumstances, parry, dodge):
    options = reactions_available(request(weapon, circumstances=circumstances))
    assert options["parry"].base + sum(m.value for m in options["parry"].modifiers) == parry
    assert "Shield (Defensive) +10" in [str(m) for m in options["parry"].modifiers]
    assert options["dodge"].base + sum(m.value for m in options["dodge"].modifiers) == dodge


@pytest.mark.parametrize(
    "circumstance",
    ["target_all_out", "target_stunned", "target_helpless", "target_unaware", "target_surprised"],
)
def test_some_targets_can_neither_parry_nor_dodge(circumstance):
    options = reactions_available(request(circumstances={**STANCE, circumstance: True}))
    assert not options["parry"].available
    assert not options["dodge"].available


def test_a_feint_won_leaves_no_parry_or_dodge():
    options = reactions_available(request(circumstances={**STANCE, "feinted": True}))
    assert str(options["dodge"].reason) == "Feint won (the last half action)"
    assert not options["parry"].available


def test_ranged_attacks_can_be_neither_parried_nor_dodged():
    result = attack([20, 4], "Bow", circumstances=STANCE, options={"reaction": "dodge"})
    assert str(step(result, "Reactions").outcome).count("not available") == 2
    assert str(step(result, "Dodge").outcome).startswith("not possible: ranged")
    assert result.hits == 1


def test_one_parry_and_one_dodge_a_round():
    parried = reactions_available(request(circumstances={**STANCE, "target_parried": True}))
    assert not parried["parry"].available
    assert parried["dodge"].available
    dodged = reactions_available(request(circumstances={**STANCE, "target_dodged": True}))
    assert (dodged["parry"].available, dodged["dodge"].available) == (True, False)


def test_in_a_swift_attack_the_defender_parries_once_then_dodges_once():
    attacker = character("Gunther", secondary={"A": 3})
    result = attack(
        [20, 10, 30, 20, 14, 6],  # hit, parried; hit, dodged; hit, 6 damage
        attacker=attacker,
        action="swift_attack",
        circumstances=STANCE,
        options={"reaction": ["parry", "dodge", "parry"]},
    )
    assert str(step(result, "Attack 1: Parry").outcome).startswith("success")
    assert str(step(result, "Attack 2: Dodge").outcome).startswith("success")
    assert str(step(result, "Attack 3: Parry").outcome) == "already used this round"
    assert result.hits == 1
    assert [e.kind for e in result.effects] == ["reaction", "reaction", "damage"]


def test_a_standing_choice_is_used_on_the_first_hit_only():
    attacker = character("Gunther", secondary={"A": 2})
    result = attack(
        [20, 80, 5, 30, 6],  # hit, failed parry, 5 damage; hit, no parry left, 6 damage
        attacker=attacker,
        action="swift_attack",
        circumstances=STANCE,
        options={"reaction": "parry"},
    )
    assert str(step(result, "Attack 2: Parry").outcome) == "already used this round"
    assert [e.amount for e in result.effects if e.kind == "damage"] == [4, 5]


def test_the_result_reports_what_was_available():
    result = attack([99], circumstances={"target_second_weapon": False})
    assert str(step(result, "Reactions").outcome) == (
        "parry not available (needs a parry stance or a weapon in the other hand (002)); "
        "dodge available (Ag 33)"
    )


def test_one_reaction_per_attack_or_the_list_is_refused():
    with pytest.raises(GmkitError, match="one reaction per attack"):
        attack([], options={"reaction": ["parry", "dodge"]})
