"""The 40k attack from the test to the effects: cap, jams, extra hits, reactions, locations."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice, SeededDice
from gmkit.errors import GmkitError, RulesError
from gmkit.messages import Message
from gmkit.systems._imperial.resolve import resolve_attack, special_attack
from gmkit.systems._imperial.resolve_reactions import reactions_left
from gmkit.systems._imperial.resolve_test import extra_hits
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems.base import AttackRequest, Effect, Modifier

SINGLE = AttackSetup("BS", (), "single", rounds=1, jam_from=96)
MELEE = AttackSetup("WS", (), "melee")


@pytest.fixture(scope="session")
def shoot(acolyte):
    """The Shooter's attack on the Target with typed dice, every one of them used."""

    def fire(dice: list[int], setup: AttackSetup = SINGLE, weapon: str = "Lasgun", **request):
        arms = ["Lasgun", "Autogun", "Frag Grenade", "Sword"]
        shooter = request.pop("attacker", None) or acolyte("Shooter", arms)
        target = request.pop("target", None) or acolyte("Target", ["Sword", "Maul"])
        source = EnteredDice(dice)
        result = resolve_attack(AttackRequest(shooter, weapon, target, **request), source, setup)
        assert source.pending == (), "every typed die is used"
        return result

    return fire


def kinds(result, kind: str) -> list:
    return [effect for effect in result.effects if effect.kind == kind]


def shown(modifiers) -> list[str]:
    return [str(modifier) for modifier in modifiers]


# --- the test --------------------------------------------------------------------------------


def test_a_miss_rolls_nothing_more_and_spends_the_round(shoot):
    result = shoot([41])
    assert (result.hits, str(result.summary)) == (0, "Shooter fails to hit Target with Lasgun")
    assert [(e.kind, e.amount, e.weapon) for e in result.effects] == [("ammo", 1, "Lasgun")]
    assert str(result.steps[0].outcome) == "miss"
    assert result.steps[0].target == 40


def test_modifiers_are_capped_at_sixty(shoot):
    setup = AttackSetup("BS", (Modifier("Point blank", 30), Modifier("Unaware", 30),
                               Modifier("Aim", 20)), "single", rounds=1, jam_from=96)  # fmt: skip
    result = shoot([95, 5], setup)  # 95 under 40 + 60 = 100; 95 -> 59: body
    assert result.steps[0].target == 100
    assert "(capped)" in str(result.steps[0].detail)
    assert [e.amount for e in kinds(result, "damage")] == [5 + 3 - 3]


def test_a_natural_96_jams_a_single_shot_and_spends_no_ammunition(shoot):
    result = shoot([97])
    assert [(e.kind, e.weapon) for e in result.effects] == [("jam", "Lasgun")]
    assert str(result.summary) == "Shooter's Lasgun jams"
    assert str(result.steps[0].outcome) == "jammed: the attack fails"


def test_bursts_jam_from_94_even_under_the_target(shoot):
    setup = AttackSetup("BS", (Modifier("GM", 60),), "semi", max_hits=3, rounds=3, jam_from=94)
    result = shoot([94], setup, mode="semi")
    assert result.hits == 0
    assert kinds(result, "jam")
    assert not kinds(result, "ammo")


def test_melee_never_jams(shoot):
    setup = AttackSetup("WS", (), "melee", jam_from=96)
    result = shoot([97], setup, weapon="Sword")
    assert not kinds(result, "jam")


# --- extra hits --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "degrees", "extra"),
    [("semi", 1, 0), ("semi", 5, 2), ("full", 3, 3), ("suppressing", 5, 2), ("single", 6, 0)],
)
def test_extra_hits_by_degrees(mode, degrees, extra):
    assert extra_hits(mode, degrees) == extra


def test_semi_auto_one_extra_hit_per_two_degrees_capped_by_rate_of_fire(shoot):
    setup = AttackSetup("BS", (Modifier("Semi-auto", 10),), "semi", max_hits=3, rounds=3,
                        jam_from=94)  # fmt: skip
    result = shoot([9, 1, 1, 1], setup, mode="semi")  # 9 vs 50: 4 degrees -> 3 hits
    assert result.hits == 3
    # 09 reversed 90: left leg; then the leg row: leg, body
    assert [e.location for e in kinds(result, "damage")] == ["left_leg", "left_leg", "body"]
    assert [(e.kind, e.amount) for e in kinds(result, "ammo")] == [("ammo", 3)]


def test_full_auto_one_extra_hit_per_degree_never_beyond_max_hits(shoot):
    setup = AttackSetup("BS", (Modifier("Full auto", 20),), "full", max_hits=4, rounds=10,
                        jam_from=94)  # fmt: skip
    result = shoot([13, 5, 5, 5, 5], setup, weapon="Autogun", mode="full")  # 4 degrees: 5 > 4
    assert result.hits == 4
    # 13 reversed 31: body; then the body row: body, arm, head
    assert [e.location for e in kinds(result, "damage")] == ["body", "body", "right_arm", "head"]
    assert kinds(result, "ammo")[0].amount == 10


def test_fewer_rounds_loaded_fire_what_is_loaded_one_hit_per_round(acolyte, shoot, weapon):
    gun = weapon("Autogun", loaded=2)
    setup = AttackSetup("BS", (Modifier("Full auto", 20),), "full", max_hits=10, rounds=10,
                        jam_from=94)  # fmt: skip
    shooter = acolyte("Shooter", weapons=[gun])
    result = shoot([13, 5, 5], setup, weapon="Autogun", attacker=shooter)
    assert (result.hits, kinds(result, "ammo")[0].amount) == (2, 2)
    assert str(result.steps[0].outcome) == "only 2 of 10 rounds loaded"


def test_an_empty_weapon_rolls_no_dice(acolyte, shoot, weapon):
    shooter = acolyte("Shooter", weapons=[weapon("Lasgun", loaded=0)])
    result = shoot([], attacker=shooter)
    assert (result.hits, str(result.steps[0].outcome), result.effects) == (0, "empty", ())


def test_multiple_melee_attacks_each_have_a_test_and_a_location(shoot):
    setup = AttackSetup("WS", (), "melee", max_hits=2)
    result = shoot([30, 4, 12, 6], setup, weapon="Sword")  # 30 -> 03 head; 12 -> 21 left arm
    assert [str(step.title) for step in result.steps[:1]] == ["Weapon Skill test (attack 1)"]
    assert [(e.amount, e.location) for e in kinds(result, "damage")] == [
        (4 + 3 - 3, "head"),
        (6 + 3 - 3, "left_arm"),
    ]  # melee adds SB 3; TB 3


# --- locations --------------------------------------------------------------------------------


def test_a_called_shot_skips_the_location_roll(shoot):
    setup = AttackSetup("BS", (Modifier("Called shot", -20),), "single", rounds=1, jam_from=96,
                        called_location="head")  # fmt: skip
    result = shoot([15, 6], setup)  # 15 would read 51: body
    assert [e.location for e in kinds(result, "damage")] == ["head"]
    assert any(str(step.detail) == "called shot" for step in result.steps)


def test_a_called_location_must_be_one_of_the_six(shoot):
    setup = AttackSetup("BS", (), "single", rounds=1, called_location="tail")
    with pytest.raises(GmkitError, match="called location"):
        shoot([15], setup)


# --- reactions --------------------------------------------------------------------------------


def test_a_successful_dodge_negates_the_hit(shoot):
    result = shoot([21, 25], options={"reaction": "dodge"})  # Ag 30: 25 succeeds
    assert result.hits == 0
    assert [(e.kind, e.target, e.condition) for e in kinds(result, "reaction")] == [
        ("reaction", "Target", "dodge")
    ]
    assert not kinds(result, "damage")


def test_a_failed_dodge_lets_the_hit_land(shoot):
    result = shoot([21, 45, 5], options={"reaction": "dodge"})
    assert result.hits == 1
    assert kinds(result, "reaction")
    assert kinds(result, "damage")


def test_dodging_full_auto_negates_one_hit_and_one_more_per_degree(shoot):
    setup = AttackSetup("BS", (Modifier("Full auto", 20),), "full", max_hits=4, rounds=10,
                        jam_from=94)  # fmt: skip
    # 4 hits; dodge 10 vs Ag 30: 2 degrees -> 3 hits negated; one left (body)
    result = shoot([13, 10, 5], setup, weapon="Autogun", options={"reaction": "dodge"})
    assert result.hits == 1
    assert [e.location for e in kinds(result, "damage")] == ["body"]


def test_dodging_an_area_attack_fails_without_a_roll_when_the_edge_is_too_far(shoot):
    setup = AttackSetup("BS", (), "single", rounds=0)
    options = {"reaction": "dodge", "dodge_distance": 5}  # AgB 3
    result = shoot([21, 5, 5], setup, weapon="Frag Grenade", options=options)
    assert result.hits == 1
    assert any(
        str(step.outcome) == "failed" and "AgB 3" in str(step.detail) for step in result.steps
    )


def test_dodging_an_area_attack_within_reach_negates_it(shoot):
    setup = AttackSetup("BS", (), "single", rounds=0)
    options = {"reaction": "dodge", "dodge_distance": 2}
    result = shoot([21, 15], setup, weapon="Frag Grenade", options=options)
    assert result.hits == 0


def test_parry_with_a_balanced_weapon_negates_a_melee_hit(shoot):
    result = shoot([30, 45], MELEE, weapon="Sword", options={"reaction": "parry"})
    assert result.hits == 0  # WS 40 + Balanced 10 = 50
    parry = next(step for step in result.steps if str(step.title) == "Parry")
    assert parry.target == 50
    assert shown(parry.modifiers) == ["Balanced (Sword) +10"]


def test_ranged_attacks_cannot_be_parried_and_unwieldy_weapons_cannot_parry(shoot):
    ranged = shoot([21, 5], options={"reaction": "parry"})
    assert any("only melee attacks can be parried" in str(step.detail) for step in ranged.steps)
    options = {"reaction": "parry", "parry_weapon": "Maul"}
    unwieldy = shoot([30, 5], MELEE, weapon="Sword", options=options)
    assert any("Unwieldy" in str(step.detail) for step in unwieldy.steps)
    assert unwieldy.hits == 1


def test_when_the_setup_forbids_reactions_a_step_says_so(shoot):
    setup = AttackSetup("WS", (), "melee", can_dodge=False, can_parry=False,
                        notes=("feinted: no dodge or parry",))  # fmt: skip
    result = shoot([30, 4], setup, weapon="Sword", options={"reaction": "dodge"})
    outcomes = [str(step.outcome) for step in result.steps if str(step.title) == "Reactions"]
    assert outcomes == ["this attack cannot be dodged", "this attack cannot be parried"]
    assert result.hits == 1
    assert not kinds(result, "reaction")


def test_no_reaction_left_this_round(shoot):
    result = shoot([21, 5], options={"reaction": "dodge", "reactions_left": 0})
    assert result.hits == 1
    assert any(str(step.detail) == "no reaction left this round" for step in result.steps)


def test_the_reactions_left_come_from_the_spent_pools_and_the_targets_conditions(shoot):
    # the encounter says what the target spent this round; the rules count what is left
    spent = shoot([21, 5], options={"reaction": "dodge", "target_reactions": {"reaction": 1}})
    assert spent.hits == 1
    assert [str(s) for s in spent.steps if str(s.title) == "Dodge"] == [
        "Dodge: not taken (no reaction left this round)"
    ]
    assert not kinds(spent, "reaction")
    fresh = shoot([21, 5], options={"reaction": "dodge", "target_reactions": {}})
    assert (fresh.hits, len(kinds(fresh, "reaction"))) == (0, 1)  # 5 under Ag 30: negated
    # a Defensive Stance gives a second reaction (004), not a third
    stance = {"reaction": "dodge", "target_conditions": ["defensive_stance"]}
    second = shoot([21, 5], options={**stance, "target_reactions": {"reaction": 1}})
    assert (second.hits, len(kinds(second, "reaction"))) == (0, 1)
    third = shoot([21, 5], options={**stance, "target_reactions": {"reaction": 2}})
    assert third.hits == 1
    # the GM's own count wins
    told = shoot([21, 5], options={"reaction": "dodge", "target_reactions": {"reaction": 1},
                                   "reactions_left": 1})  # fmt: skip
    assert told.hits == 0


def test_reactions_left_for_the_odds_and_the_panels(acolyte):
    def left(**options) -> int:
        request = AttackRequest(acolyte("A", ["Sword"]), "Sword", acolyte("B"), options=options)
        return reactions_left(request, "dark_heresy")

    assert left() == 1
    assert left(target_reactions={"reaction": 1}) == 0
    assert left(target_conditions=["defensive_stance", "behind the pews"]) == 2
    assert left(target_conditions=["all_out_attack"], target_reactions={}) == 0
    assert left(reactions_left=3, target_reactions={"reaction": 1}) == 3


def test_an_attack_that_cannot_be_dodged_says_so_before_counting_reactions(shoot):
    setup = AttackSetup("WS", (), "melee", can_dodge=False, can_parry=False)
    options = {"reaction": "dodge", "target_conditions": ["all_out_attack"]}
    result = shoot([30, 4], setup, weapon="Sword", options=options)
    assert [str(s) for s in result.steps if str(s.title) in ("Reactions", "Dodge")] == [
        "Reactions: this attack cannot be dodged (as the action and circumstances have it)",
        "Reactions: this attack cannot be parried (as the action and circumstances have it)",
    ]
    parried = shoot([30, 4], setup, weapon="Sword", options={**options, "reaction": "parry"})
    assert [str(s) for s in parried.steps if str(s.title) == "Parry"] == [
        "Parry: not possible (this attack cannot be parried)"
    ]


def test_a_reaction_and_its_modifiers_with_fatigue(acolyte, shoot):
    tired = acolyte("Target", fatigue=1)
    gm = {"Dodge (trained)": 0, "Slippery floor": -20}
    options = {"reaction": "dodge", "reaction_modifiers": gm}
    result = shoot([21, 15, 5], target=tired, options=options)  # 30 - 10 - 20 = 0: 15 fails
    dodge = next(step for step in result.steps if str(step.title) == "Dodge")
    assert dodge.target == 0
    assert shown(dodge.modifiers) == [
        "Fatigued -10",  # the sheet's fatigue, as the conditions give it
        "Dodge (trained) +0",
        "Slippery floor -20",
    ]
    assert result.hits == 1


def test_the_defenders_conditions_weigh_on_its_dodge(shoot):
    # Ag 30 - Prone 20 = 10: 15 fails (it would dodge standing); the same by circumstance
    for named in ({"options": {"target_conditions": ["prone"]}},
                  {"circumstances": {"target_prone": True}}):  # fmt: skip
        options = {"reaction": "dodge", **named.get("options", {})}
        circumstances = named.get("circumstances", {})
        result = shoot([21, 15, 5], options=options, circumstances=circumstances)
        dodge = next(step for step in result.steps if str(step.title) == "Dodge")
        assert (dodge.target, shown(dodge.modifiers)) == (10, ["Prone -20"])
        assert result.hits == 1
    standing = shoot([21, 15], options={"reaction": "dodge"})
    assert standing.hits == 0


def test_a_guarded_defender_parries_better(shoot):
    options = {"reaction": "parry", "target_conditions": ["guarded"]}
    result = shoot([30, 55], MELEE, weapon="Sword", options=options)  # WS 40 + 10 + 10 = 60
    parry = next(step for step in result.steps if str(step.title) == "Parry")
    assert shown(parry.modifiers) == ["Guarded Attack +10", "Balanced (Sword) +10"]
    assert (parry.target, result.hits) == (60, 0)


def test_an_unknown_reaction_is_refused(shoot):
    with pytest.raises(RulesError, match=r"option 'reaction': must be one of .*'duck'"):
        shoot([21], options={"reaction": "duck"})


# --- odds and ends ----------------------------------------------------------------------------


def test_an_unknown_weapon_is_refused_naming_the_weapons(shoot):
    with pytest.raises(GmkitError, match="no weapon 'Plasma gun'"):
        shoot([], weapon="Plasma gun")


def test_special_attacks_by_mode_or_action_name():
    assert special_attack("Knock-Down") is special_attack("knock_down")
    assert special_attack("grapple_push") is special_attack("grapple")
    assert special_attack("single") is None


def test_seeded_dice_give_the_same_result_twice(acolyte):
    results = [
        resolve_attack(
            AttackRequest(acolyte("A", weapons=["Autogun"]), "Autogun", acolyte("B")),
            SeededDice(7),
            AttackSetup("BS", (), "full", max_hits=10, rounds=10, jam_from=94),
        ).explain()
        for _ in range(2)
    ]
    assert results[0] == results[1]
    assert "Ballistic Skill test" in results[0]


def test_deathwatch_marines_with_unnatural_toughness(marine, shoot):
    brother = marine("Castor", unnatural={"T": 2}, armour_points={"all": 8})
    result = shoot([21, 9], target=brother)  # 12 - AP 8 - TB 8: nothing
    assert result.hits == 1
    assert not kinds(result, "damage")


def test_with_the_setup_from_the_modifiers_module(acolyte):
    modifiers = pytest.importorskip("gmkit.systems._imperial.modifiers")
    shooter = acolyte("Shooter", weapons=["Lasgun"], talents=["Basic Weapon Training (Las)"])
    request = AttackRequest(shooter, "Lasgun", acolyte("Target"), action="standard_attack")
    setup = modifiers.attack_setup(request, "dark_heresy")
    assert setup.characteristic == "BS"
    source = EnteredDice([21, 9])
    result = resolve_attack(request, source)
    test = next(step for step in result.steps if str(step.title) == "Ballistic Skill test")
    assert (test.rolls[0].value, test.target) == (21, 40)
    assert [(e.kind, e.amount, e.location) for e in result.effects] == [
        ("ammo", 1, None),
        ("damage", 9 + 3 - 3, "right_arm"),
    ]
    untrained = AttackRequest(acolyte("Shooter", weapons=["Lasgun"]), "Lasgun", acolyte("Target"))
    missed = resolve_attack(untrained, EnteredDice([21]))  # untrained: 40 - 20 = 20
    assert missed.hits == 0


def test_a_blinded_shooter_misses_without_a_roll_and_spends_the_round(acolyte):
    shooter = acolyte("Shooter", weapons=["Lasgun"], talents=["Basic Weapon Training"])
    options = {"attacker_conditions": ["blinded"]}
    request = AttackRequest(shooter, "Lasgun", acolyte("Target"), distance=60, options=options)
    source = EnteredDice([])
    result = resolve_attack(request, source)  # the setup from the conditions: no die rolled
    assert source.history == []
    test = next(step for step in result.steps if str(step.title) == "Ballistic Skill test")
    assert (str(test.outcome), str(test.detail)) == (
        "automatic failure",
        "Blinded: BS tests fail automatically",
    )
    assert (result.hits, [(e.kind, e.amount) for e in result.effects]) == (0, [("ammo", 1)])


def test_an_automatic_failure_wins_over_an_automatic_hit(shoot):
    setup = AttackSetup("BS", (), "single", rounds=1, auto_hit=True, auto_fail="Blinded")
    result = shoot([], setup)
    assert (result.hits, str(result.steps[0].outcome)) == (0, "automatic failure")


# --- the states an action leaves on its actor (actions.yaml ``gains``) ----------------------


def test_the_actors_gained_state_is_an_effect_of_the_attack_hit_or_miss(acolyte):
    fighter = acolyte("Fighter", ["Sword"], talents=["Melee Weapon Training (Universal)"])

    def swing(action: str, dice: list[int]):
        request = AttackRequest(fighter, "Sword", acolyte("Foe"), action=action, mode="melee")
        return resolve_attack(request, EnteredDice(dice))

    # WS 40 +20 = 60: 80 misses; the All Out Attack leaves its state all the same
    wild = swing("all_out_attack", [80])
    assert wild.hits == 0
    assert wild.effects == (
        Effect("condition", "Fighter", condition="all_out_attack", rounds=1,
               note=Message("imperial.gains.until_next_turn")),
    )  # fmt: skip
    assert str(wild.effects[0].note) == "until the start of their next turn"
    # WS 40 -10 = 30: 21 hits the right arm (12), 1d10 [6] + SB 3 - TB 3 = 6
    guarded = swing("guarded_attack", [21, 6])
    assert [(e.kind, e.target, e.condition, e.amount, e.rounds) for e in guarded.effects] == [
        ("damage", "Foe", None, 6, None),
        ("condition", "Fighter", "guarded", 0, 1),
    ]
    plain = swing("standard_attack", [80])
    assert plain.effects == ()


def test_overwatch_is_gained_once_when_declared_and_not_again_when_it_fires(acolyte):
    shooter = acolyte("Watcher", ["Autogun"], talents=["Basic Weapon Training (Universal)"])
    options = {"overwatch_mode": "full", "trigger": "anyone comes through the door"}
    request = AttackRequest(
        shooter, "Autogun", acolyte("Victim"), action="overwatch", mode="full", options=options
    )
    declared = resolve_attack(request, EnteredDice([]))
    assert [(e.kind, e.target, e.condition, e.rounds) for e in declared.effects] == [
        ("condition", "Watcher", "overwatch", 1)
    ]
    fired = AttackRequest(
        shooter, "Autogun", acolyte("Victim"), action="overwatch", mode="full",
        distance=60, options={"overwatch": True},
    )  # fmt: skip
    result = resolve_attack(fired, EnteredDice([80, 55]))  # a miss; pinning 55 against WP 30 -20
    assert [(e.kind, e.condition) for e in result.effects] == [
        ("ammo", None),
        ("pinned", "pinned"),
    ]
