"""WFRP 2e attacks (seed 002): the worked example, the test and its modifiers, extra attacks."""

from __future__ import annotations

from typing import Any

import pytest

from gmkit.dice import EnteredDice, SeededDice
from gmkit.errors import GmkitError
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems import system
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Step
from gmkit.systems.wfrp2 import SYSTEM, attack_setup

PROFILE = {"WS": 41, "BS": 35, "S": 38, "T": 42, "Ag": 33, "Int": 30, "WP": 30, "Fel": 30}
HAND = {"name": "Hand Weapon", "damage": "SB"}
BOW = {"name": "Bow", "damage": "3", "range_short": 24, "range_long": 48, "reload": "Half"}


def character(name: str, **fields: Any) -> WFRP2Character:
    """SB 3, TB 4, W 12, A 1, M 4 unless changed."""
    data: dict[str, Any] = {
        "name": name,
        "characteristics": {**PROFILE, **fields.pop("characteristics", {})},
        "secondary": {"A": 1, "W": 12, **fields.pop("secondary", {})},
        "weapons": [HAND, BOW],
    }
    return WFRP2Character.build({**data, **fields})


def attack(dice: list[int | str], weapon: str = "Hand Weapon", **request: Any) -> AttackResult:
    attacker = request.pop("attacker", None) or character("Gunther")
    target = request.pop("target", None) or character("Gor")
    made = AttackRequest(attacker=attacker, weapon=weapon, target=target, **request)
    source = EnteredDice(dice)
    result = SYSTEM.resolve_attack(made, source)
    assert source.pending == ()  # every die typed was used, no more
    return result


def step(result: AttackResult, title: str) -> Step:
    return next(s for s in result.steps if str(s.title) == title)


def damage(result: AttackResult) -> list[Effect]:
    return [effect for effect in result.effects if effect.kind == "damage"]


# --- seed 002's worked example ---------------------------------------------------------------


def test_the_seed_example_53_hits_the_right_arm_for_4_plus_3_damage():
    """002: a bow shot, attack roll 53, damage die 4 + bow 3 = 7; 53 reversed is 35: right arm."""
    archer = character("Archer", characteristics={"BS": 55})
    man = character("Man", characteristics={"T": 30})  # TB 3, no armour
    result = attack([53, 4], "Bow", attacker=archer, target=man, mode="ranged")
    test = step(result, "BS test")
    assert (str(test.outcome), test.target, test.rolls[0].value) == ("hit", 55, 53)
    assert str(step(result, "Hit location").outcome) == "right arm"
    assert str(step(result, "Hit location").detail) == "53 reversed: 35"
    assert str(step(result, "Damage").outcome) == "7"
    assert str(step(result, "Soak").outcome) == "3"
    assert damage(result) == [Effect("damage", "Man", 4, "right_arm", weapon="Bow")]
    assert result.hits == 1


def test_a_roll_over_the_skill_misses_and_rolls_nothing_more():
    result = attack([42])
    assert str(step(result, "WS test").outcome) == "miss"
    assert step(result, "WS test").target == 41
    assert result.hits == 0
    assert result.effects == ()
    assert [roll.value for roll in result.rolls] == [42]


def test_the_registry_gives_this_system():
    assert system("wfrp2") is SYSTEM
    assert SYSTEM.game == "wfrp2"


def test_seeded_dice_resolve_the_same_way_every_time():
    made = AttackRequest(
        attacker=character("Gunther"), weapon="Hand Weapon", target=character("Gor")
    )
    first = SYSTEM.resolve_attack(made, SeededDice(3))
    again = SYSTEM.resolve_attack(made, SeededDice(3))
    assert [roll.value for roll in first.rolls] == [31, 10, 70]
    assert first.explain() == again.explain()
    assert str(step(first, "Hit location").outcome) == "head"  # 31 -> 13
    assert str(step(first, "Ulric's Fury").outcome) == "not confirmed"  # 70 against WS 41
    assert damage(first) == [Effect("damage", "Gor", 9, "head", weapon="Hand Weapon")]  # 10+3-4


# --- the actions' modifiers (002) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "target", "granted"),
    [
        ("standard_attack", 41, ()),
        ("charge_attack", 51, ()),
        ("all_out_attack", 61, ("all_out_attack",)),
        ("cautious_attack", 31, ("cautious_attack",)),
        ("bonus_attack", 41, ()),
    ],
)
def test_each_attack_action_sets_the_ws_target(action, target, granted):
    result = attack([99], action=action)
    assert step(result, "WS test").target == target
    conditions = tuple(e.condition for e in result.effects if e.target == "Gunther")
    assert conditions == granted
    assert all(e.rounds == 1 for e in result.effects)  # until the actor's next turn


def test_a_charge_hits_at_ws_plus_10_for_d10_plus_sb():
    result = attack([51, 5], action="charge_attack", distance=10)
    assert [str(m) for m in step(result, "WS test").modifiers] == ["Charge Attack +10"]
    assert str(step(result, "Hit location").outcome) == "head"  # 51 -> 15
    assert str(step(result, "Damage").outcome) == "8"  # 5 + SB 3
    assert str(step(result, "Wounds").outcome) == "4 lost: 12 -> 8 (lightly wounded)"  # 8 - TB 4


@pytest.mark.parametrize("distance", [3, 17])
def test_a_charge_needs_4_m_and_at_most_the_charge_move(distance):
    with pytest.raises(GmkitError, match="Charge Attack"):
        attack([], action="charge_attack", distance=distance)  # M 4: charge 16 m


def test_a_swift_attack_makes_as_many_attacks_as_a():
    fighter = character("Gunther", secondary={"A": 3})
    result = attack([20, 5, 90, 14, 2], attacker=fighter, action="swift_attack")
    assert [str(s.outcome) for s in result.steps if str(s.title).endswith("WS test")] == [
        "hit",
        "miss",
        "hit",
    ]
    assert [(e.location, e.amount) for e in damage(result)] == [("head", 4), ("left_arm", 1)]
    assert result.hits == 2
    assert str(step(result, "Attack 3: Wounds").outcome) == "1 lost: 8 -> 7 (lightly wounded)"


def test_two_weapons_give_no_extra_attack():
    """002: a weapon in each hand gives no extra attack (only a free parry: the reactions)."""
    axe = {"name": "Axe", "damage": "SB"}
    fighter = character("Gunther", weapons=[HAND, axe])
    result = attack([99], attacker=fighter, action="swift_attack")  # A 1
    assert [str(s.title) for s in result.steps if str(s.title).endswith("test")] == ["WS test"]


def test_a_swift_ranged_attack_notes_the_reload():
    archer = character("Archer", secondary={"A": 2})
    result = attack([99, 99], "Bow", attacker=archer, action="swift_attack", mode="ranged")
    assert any("reloads as Half" in str(s.outcome) for s in result.steps if str(s.title) == "Note")
    assert result.hits == 0


def test_aim_adds_10_to_a_standard_attack_only():
    result = attack([99], circumstances={"aimed": True})
    assert [str(m) for m in step(result, "WS test").modifiers] == [
        "Aimed (the last half action was Aim) +10"
    ]
    with pytest.raises(GmkitError, match="goes with standard_attack"):
        attack([], action="charge_attack", circumstances={"aimed": True})


# --- circumstances (002) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("circumstances", "weapon", "target"),
    [
        ({"target_running": True}, "Hand Weapon", 61),  # melee +20
        ({"target_running": True}, "Bow", 15),  # ranged -20 (BS 35)
        ({"target_defensive_stance": True}, "Hand Weapon", 21),
        ({"target_defensive_stance": True}, "Bow", 35),  # melee only
        ({"target_stunned": True}, "Hand Weapon", 61),
        ({"off_hand": True}, "Hand Weapon", 21),
        ({"off_hand": True}, "Bow", 35),  # 002 gives -20 WS only
        ({"gm_modifier": -15}, "Hand Weapon", 26),
        ({"target_running": False, "gm_modifier": 0}, "Hand Weapon", 41),  # off: nothing
        ({"target_running": True, "target_stunned": True}, "Hand Weapon", 81),  # no cap
    ],
)
def test_circumstances_modify_the_test(circumstances, weapon, target):
    result = attack([99], weapon, circumstances=circumstances)
    tested = next(s for s in result.steps if str(s.title) in ("WS test", "BS test"))
    assert tested.target == target


def test_ambidextrous_or_a_balanced_weapon_waives_the_off_hand_penalty():
    gauche = {
        "name": "Main Gauche",
        "group": "Parrying",
        "damage": "SB-3",
        "qualities": ["Balanced", "Defensive"],
    }
    trained = character(
        "Duellist", weapons=[HAND, gauche], talents=["Specialist Weapon Group (Parrying)"]
    )
    ambidextrous = character("Lefty", talents=["Ambidextrous"])
    balanced = attack([99], "Main Gauche", attacker=trained, circumstances={"off_hand": True})
    assert step(balanced, "WS test").target == 41
    assert str(step(balanced, "Note").outcome).startswith("off hand: no penalty")
    both_hands = attack([99], attacker=ambidextrous, circumstances={"off_hand": True})
    assert step(both_hands, "WS test").target == 41


def test_an_untrained_specialist_weapon_is_at_minus_20():
    rapier = {"name": "Rapier", "group": "Fencing", "damage": "SB-1", "qualities": ["Fast"]}
    result = attack([99], "Rapier", attacker=character("Gunther", weapons=[rapier]))
    assert [str(m) for m in step(result, "WS test").modifiers] == ["untrained (Fencing) -20"]


def test_a_helpless_target_is_hit_automatically_for_an_extra_d10():
    result = attack([99, 4, 6], circumstances={"target_helpless": True})
    assert str(step(result, "WS test").outcome) == "hit automatically"
    assert str(step(result, "Hit location").outcome) == "left leg"  # 99 reversed
    assert str(step(result, "Extra damage").outcome) == "+6"
    assert str(step(result, "Damage total").outcome) == "13"  # 4 + SB 3 + 6
    assert damage(result)[0].amount == 9  # - TB 4


# --- what a request may not ask --------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_fields", "message"),
    [
        ({"action": "fly"}, "unknown WFRP 2e action 'fly'"),
        ({"action": "run"}, "not an attack"),
        ({"weapon": "Halberd"}, "no weapon 'Halberd'"),
        ({"mode": "ranged"}, "Hand Weapon is a melee weapon"),
        ({"weapon": "Bow", "mode": "melee"}, "Bow is a ranged weapon"),
        ({"weapon": "Bow", "action": "charge_attack"}, "not a ranged one"),
        ({"weapon": "Bow", "distance": 49}, "beyond its 48 m"),
        ({"called_location": "head"}, "no called shots"),
        ({"circumstances": {"outnumbering": 2}}, "unknown WFRP 2e circumstance"),
        ({"circumstances": {"gm_modifier": "a lot"}}, "takes a whole number"),
    ],
)
def test_impossible_requests_are_refused_before_any_die(request_fields, message):
    fields = {"weapon": "Hand Weapon", **request_fields}
    made = AttackRequest(attacker=character("Gunther"), target=character("Gor"), **fields)
    source = EnteredDice([1, 1, 1])
    with pytest.raises(GmkitError, match=message):
        SYSTEM.resolve_attack(made, source)
    assert source.history == []


def test_a_swift_attack_with_no_attacks_is_refused():
    with pytest.raises(GmkitError, match="A 0"):
        attack([], attacker=character("Pacifist", secondary={"A": 0}), action="swift_attack")


def test_unarmed_is_always_at_hand_and_the_setup_says_so():
    made = AttackRequest(attacker=character("Gunther"), weapon="unarmed", target=character("Gor"))
    setup = attack_setup(made)
    assert (setup.unarmed, setup.weapon.damage, setup.armour_multiplier) == (True, "SB-4", 2)
    assert (setup.characteristic, setup.base, setup.attacks) == ("WS", 41, 1)
