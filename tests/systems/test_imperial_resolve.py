"""The 40k attack from the test to the effects: cap, jams, extra hits, reactions, locations."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice, SeededDice
from gmkit.errors import GmkitError
from gmkit.sheets.dark_heresy import DarkHeresyCharacter
from gmkit.sheets.deathwatch import DeathwatchCharacter
from gmkit.systems.base import AttackRequest, Modifier
from gmkit.systems.imperial.resolve import resolve_attack, special_attack
from gmkit.systems.imperial.resolve_test import extra_hits
from gmkit.systems.imperial.setup import AttackSetup

PROFILE = {
    "WS": 40,
    "BS": 40,
    "S": 35,
    "T": 30,
    "Ag": 30,
    "Int": 30,
    "Per": 30,
    "WP": 30,
    "Fel": 30,
}
LASGUN = {
    "name": "Lasgun", "weapon_class": "basic", "range": 100, "rof": "S/3/-",
    "damage": "1d10+3", "damage_type": "E", "clip": 60, "reload": "Full",
}  # fmt: skip
AUTOGUN = {
    "name": "Autogun", "weapon_class": "basic", "group": "SP", "range": 90, "rof": "S/3/10",
    "damage": "1d10+2", "damage_type": "I", "clip": 30, "reload": "Full",
}  # fmt: skip
SWORD = {"name": "Sword", "weapon_class": "melee", "damage": "1d10", "damage_type": "R",
         "qualities": ["Balanced"]}  # fmt: skip
MAUL = {"name": "Maul", "weapon_class": "melee", "damage": "2d10", "qualities": ["Unwieldy"]}
GRENADE = {
    "name": "Frag grenade", "weapon_class": "thrown", "group": "Grenade", "range": 9,
    "rof": "S/-/-", "damage": "2d10", "damage_type": "X", "qualities": ["Blast(3)"],
}  # fmt: skip
SINGLE = AttackSetup("BS", (), "single", rounds=1, jam_from=96)
MELEE = AttackSetup("WS", (), "melee")


def person(name: str, **fields: object) -> DarkHeresyCharacter:
    chars = {**PROFILE, **fields.pop("chars", {})}  # type: ignore[dict-item]
    return DarkHeresyCharacter.build(name=name, characteristics=chars, wounds=12, **fields)


def shoot(dice: list[int], setup: AttackSetup = SINGLE, weapon: str = "Lasgun", **request):
    shooter = request.pop("attacker", person("Shooter", weapons=[LASGUN, AUTOGUN, GRENADE, SWORD]))
    target = request.pop("target", person("Target", weapons=[SWORD, MAUL]))
    source = EnteredDice(dice)
    result = resolve_attack(AttackRequest(shooter, weapon, target, **request), source, setup)
    assert source.pending == (), "every typed die is used"
    return result


def kinds(result, kind: str) -> list:
    return [effect for effect in result.effects if effect.kind == kind]


# --- the test --------------------------------------------------------------------------------


def test_a_miss_rolls_nothing_more_and_spends_the_round():
    result = shoot([41])
    assert (result.hits, result.summary) == (0, "Shooter fails to hit Target with Lasgun")
    assert [(e.kind, e.amount, e.weapon) for e in result.effects] == [("ammo", 1, "Lasgun")]
    assert result.steps[0].outcome == "miss"
    assert result.steps[0].target == 40


def test_modifiers_are_capped_at_sixty():
    setup = AttackSetup("BS", (Modifier("Point blank", 30), Modifier("Unaware", 30),
                               Modifier("Aim", 20)), "single", rounds=1, jam_from=96)  # fmt: skip
    result = shoot([95, 5], setup)  # 95 under 40 + 60 = 100; 95 -> 59: body
    assert result.steps[0].target == 100
    assert "(capped)" in result.steps[0].detail
    assert [e.amount for e in kinds(result, "damage")] == [5 + 3 - 3]


def test_a_natural_96_jams_a_single_shot_and_spends_no_ammunition():
    result = shoot([97])
    assert [(e.kind, e.weapon) for e in result.effects] == [("jam", "Lasgun")]
    assert result.summary == "Shooter's Lasgun jams"
    assert result.steps[0].outcome == "jammed: the attack fails"


def test_bursts_jam_from_94_even_under_the_target():
    setup = AttackSetup("BS", (Modifier("GM", 60),), "semi", max_hits=3, rounds=3, jam_from=94)
    result = shoot([94], setup, mode="semi")
    assert result.hits == 0
    assert kinds(result, "jam")
    assert not kinds(result, "ammo")


def test_melee_never_jams():
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


def test_semi_auto_one_extra_hit_per_two_degrees_capped_by_rate_of_fire():
    setup = AttackSetup("BS", (Modifier("Semi-auto", 10),), "semi", max_hits=3, rounds=3,
                        jam_from=94)  # fmt: skip
    result = shoot([9, 1, 1, 1], setup, mode="semi")  # 9 vs 50: 4 degrees -> 3 hits
    assert result.hits == 3
    # 09 reversed 90: left leg; then the leg row: leg, body
    assert [e.location for e in kinds(result, "damage")] == ["left_leg", "left_leg", "body"]
    assert [(e.kind, e.amount) for e in kinds(result, "ammo")] == [("ammo", 3)]


def test_full_auto_one_extra_hit_per_degree_never_beyond_max_hits():
    setup = AttackSetup("BS", (Modifier("Full auto", 20),), "full", max_hits=4, rounds=10,
                        jam_from=94)  # fmt: skip
    result = shoot([13, 5, 5, 5, 5], setup, weapon="Autogun", mode="full")  # 4 degrees: 5 > 4
    assert result.hits == 4
    # 13 reversed 31: body; then the body row: body, arm, head
    assert [e.location for e in kinds(result, "damage")] == ["body", "body", "right_arm", "head"]
    assert kinds(result, "ammo")[0].amount == 10


def test_fewer_rounds_loaded_fire_what_is_loaded_one_hit_per_round():
    gun = {**AUTOGUN, "loaded": 2}
    setup = AttackSetup("BS", (Modifier("Full auto", 20),), "full", max_hits=10, rounds=10,
                        jam_from=94)  # fmt: skip
    shooter = person("Shooter", weapons=[gun])
    result = shoot([13, 5, 5], setup, weapon="Autogun", attacker=shooter)
    assert (result.hits, kinds(result, "ammo")[0].amount) == (2, 2)
    assert result.steps[0].outcome == "only 2 of 10 rounds loaded"


def test_an_empty_weapon_rolls_no_dice():
    shooter = person("Shooter", weapons=[{**LASGUN, "loaded": 0}])
    result = shoot([], attacker=shooter)
    assert (result.hits, result.steps[0].outcome, result.effects) == (0, "empty", ())


def test_multiple_melee_attacks_each_have_a_test_and_a_location():
    setup = AttackSetup("WS", (), "melee", max_hits=2)
    result = shoot([30, 4, 12, 6], setup, weapon="Sword")  # 30 -> 03 head; 12 -> 21 left arm
    assert [step.title for step in result.steps[:1]] == ["Weapon Skill test (attack 1)"]
    assert [(e.amount, e.location) for e in kinds(result, "damage")] == [
        (4 + 3 - 3, "head"),
        (6 + 3 - 3, "left_arm"),
    ]  # melee adds SB 3; TB 3


# --- locations --------------------------------------------------------------------------------


def test_a_called_shot_skips_the_location_roll():
    setup = AttackSetup("BS", (Modifier("Called shot", -20),), "single", rounds=1, jam_from=96,
                        called_location="head")  # fmt: skip
    result = shoot([15, 6], setup)  # 15 would read 51: body
    assert [e.location for e in kinds(result, "damage")] == ["head"]
    assert any(step.detail == "called shot" for step in result.steps)


def test_a_called_location_must_be_one_of_the_six():
    setup = AttackSetup("BS", (), "single", rounds=1, called_location="tail")
    with pytest.raises(GmkitError, match="called location"):
        shoot([15], setup)


# --- reactions --------------------------------------------------------------------------------


def test_a_successful_dodge_negates_the_hit():
    result = shoot([21, 25], options={"reaction": "dodge"})  # Ag 30: 25 succeeds
    assert result.hits == 0
    assert [(e.kind, e.target, e.condition) for e in kinds(result, "reaction")] == [
        ("reaction", "Target", "dodge")
    ]
    assert not kinds(result, "damage")


def test_a_failed_dodge_lets_the_hit_land():
    result = shoot([21, 45, 5], options={"reaction": "dodge"})
    assert result.hits == 1
    assert kinds(result, "reaction")
    assert kinds(result, "damage")


def test_dodging_full_auto_negates_one_hit_and_one_more_per_degree():
    setup = AttackSetup("BS", (Modifier("Full auto", 20),), "full", max_hits=4, rounds=10,
                        jam_from=94)  # fmt: skip
    # 4 hits; dodge 10 vs Ag 30: 2 degrees -> 3 hits negated; one left (body)
    result = shoot([13, 10, 5], setup, weapon="Autogun", options={"reaction": "dodge"})
    assert result.hits == 1
    assert [e.location for e in kinds(result, "damage")] == ["body"]


def test_dodging_an_area_attack_fails_without_a_roll_when_the_edge_is_too_far():
    setup = AttackSetup("BS", (), "single", rounds=0)
    options = {"reaction": "dodge", "dodge_distance": 5}  # AgB 3
    result = shoot([21, 5, 5], setup, weapon="Frag grenade", options=options)
    assert result.hits == 1
    assert any(step.outcome == "failed" and "AgB 3" in step.detail for step in result.steps)


def test_dodging_an_area_attack_within_reach_negates_it():
    setup = AttackSetup("BS", (), "single", rounds=0)
    options = {"reaction": "dodge", "dodge_distance": 2}
    result = shoot([21, 15], setup, weapon="Frag grenade", options=options)
    assert result.hits == 0


def test_parry_with_a_balanced_weapon_negates_a_melee_hit():
    result = shoot([30, 45], MELEE, weapon="Sword", options={"reaction": "parry"})
    assert result.hits == 0  # WS 40 + Balanced 10 = 50
    parry = next(step for step in result.steps if step.title == "Parry")
    assert parry.target == 50
    assert parry.modifiers == (Modifier("Balanced (Sword)", 10),)


def test_ranged_attacks_cannot_be_parried_and_unwieldy_weapons_cannot_parry():
    ranged = shoot([21, 5], options={"reaction": "parry"})
    assert any("only melee attacks can be parried" in step.detail for step in ranged.steps)
    options = {"reaction": "parry", "parry_weapon": "Maul"}
    unwieldy = shoot([30, 5], MELEE, weapon="Sword", options=options)
    assert any("Unwieldy" in step.detail for step in unwieldy.steps)
    assert unwieldy.hits == 1


def test_when_the_setup_forbids_reactions_a_step_says_so():
    setup = AttackSetup("WS", (), "melee", can_dodge=False, can_parry=False,
                        notes=("feinted: no dodge or parry",))  # fmt: skip
    result = shoot([30, 4], setup, weapon="Sword", options={"reaction": "dodge"})
    outcomes = [step.outcome for step in result.steps if step.title == "Reactions"]
    assert outcomes == ["this attack cannot be dodged", "this attack cannot be parried"]
    assert result.hits == 1
    assert not kinds(result, "reaction")


def test_no_reaction_left_this_round():
    result = shoot([21, 5], options={"reaction": "dodge", "reactions_left": 0})
    assert result.hits == 1
    assert any(step.detail == "no reaction left this round" for step in result.steps)


def test_a_reaction_and_its_modifiers_with_fatigue():
    tired = person("Target", fatigue=1)
    options = {"reaction": "dodge", "reaction_modifiers": {"Dodge (trained)": 0, "Prone": -20}}
    result = shoot([21, 15, 5], target=tired, options=options)  # 30 - 20 - 10 = 0: 15 fails
    dodge = next(step for step in result.steps if step.title == "Dodge")
    assert dodge.target == 0
    assert result.hits == 1


def test_an_unknown_reaction_is_refused():
    with pytest.raises(GmkitError, match="dodge, parry or none"):
        shoot([21], options={"reaction": "duck"})


# --- odds and ends ----------------------------------------------------------------------------


def test_an_unknown_weapon_is_refused_naming_the_weapons():
    with pytest.raises(GmkitError, match="no weapon 'Plasma gun'"):
        shoot([], weapon="Plasma gun")


def test_special_attacks_by_mode_or_action_name():
    assert special_attack("Knock-Down") is special_attack("knock_down")
    assert special_attack("grapple_push") is special_attack("grapple")
    assert special_attack("single") is None


def test_seeded_dice_give_the_same_result_twice():
    results = [
        resolve_attack(
            AttackRequest(person("A", weapons=[AUTOGUN]), "Autogun", person("B")),
            SeededDice(7),
            AttackSetup("BS", (), "full", max_hits=10, rounds=10, jam_from=94),
        ).explain()
        for _ in range(2)
    ]
    assert results[0] == results[1]
    assert "Ballistic Skill test" in results[0]


def test_deathwatch_marines_with_unnatural_toughness():
    brother = DeathwatchCharacter.build(
        name="Castor", characteristics={**PROFILE, "T": 43}, unnatural={"T": 2}, wounds=20,
        armour_points={"all": 8},
    )  # fmt: skip
    result = shoot([21, 9], target=brother)  # 12 - AP 8 - TB 8: nothing
    assert result.hits == 1
    assert not kinds(result, "damage")


def test_with_the_setup_from_the_modifiers_module():
    modifiers = pytest.importorskip("gmkit.systems.imperial.modifiers")
    shooter = person("Shooter", weapons=[LASGUN], talents=["Basic Weapon Training (Las)"])
    request = AttackRequest(shooter, "Lasgun", person("Target"), action="standard_attack")
    setup = modifiers.attack_setup(request, "dark_heresy")
    assert setup.characteristic == "BS"
    source = EnteredDice([21, 9])
    result = resolve_attack(request, source)
    test = next(step for step in result.steps if step.title == "Ballistic Skill test")
    assert (test.rolls[0].value, test.target) == (21, 40)
    assert [(e.kind, e.amount, e.location) for e in result.effects] == [
        ("ammo", 1, None),
        ("damage", 9 + 3 - 3, "right_arm"),
    ]
    untrained = AttackRequest(person("Shooter", weapons=[LASGUN]), "Lasgun", person("Target"))
    missed = resolve_attack(untrained, EnteredDice([21]))  # untrained: 40 - 20 = 20
    assert missed.hits == 0
