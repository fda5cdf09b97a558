"""Special attacks and fire discipline in the 40k games, with typed dice."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import GmkitError, RulesError
from gmkit.sheets._dark_heresy import DarkHeresyCharacter
from gmkit.systems._imperial.resolve import resolve_attack
from gmkit.systems._imperial.resolve_fire import (
    clear_jam,
    first_to_act,
    overwatch_of,
    pinning,
    recover_from_pinning,
)
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems.base import AttackRequest, Modifier


@pytest.fixture(scope="session")
def person(acolyte):
    """An acolyte, the Victim unless named."""

    def make(name: str = "Victim", **fields: object) -> DarkHeresyCharacter:
        return acolyte(name, **fields)

    return make


@pytest.fixture(scope="session")
def brawler(acolyte, weapon):
    arms = ["Sword", weapon("Lasgun", loaded=20), "Autogun", "Flamer"]
    return acolyte("Brawler", arms, chars={"S": 45})


@pytest.fixture(scope="session")
def attack(brawler, person):
    """The Brawler's attack (unarmed unless told) on the Victim, head armour 2; every die used."""

    def strike(dice: list[int], setup: AttackSetup, weapon: str = "Unarmed", **request):
        attacker = request.pop("attacker", None) or brawler
        target = request.pop("target", None) or person(armour_points={"head": 2})
        source = EnteredDice(dice)
        result = resolve_attack(AttackRequest(attacker, weapon, target, **request), source, setup)
        assert source.pending == (), "every typed die is used"
        return result

    return strike


def effects(result) -> list[tuple]:
    return [(e.kind, e.target, e.condition or e.amount) for e in result.effects]


STUN = AttackSetup("WS", (Modifier("Stun", -20),), "stun")


# --- stun ------------------------------------------------------------------------------------


def test_stun_beats_toughness_and_doubled_head_armour_for_the_difference_in_rounds(attack):
    # WS 40 - 20: 15 hits; 1d10 8 + SB 4 = 12 against 1d10 2 + TB 3 + head AP 2 x2 = 9
    result = attack([15, 8, 2], STUN)
    assert effects(result) == [("condition", "Victim", "stunned"), ("fatigue", "Victim", 1)]
    assert result.effects[0].rounds == 3
    assert str(result.summary) == "Brawler stuns Victim for 3 rounds"


def test_a_tied_stun_roll_stuns_for_one_round(attack):
    result = attack([15, 5, 2], STUN)  # 9 against 9
    assert result.effects[0].rounds == 1


def test_a_weapon_that_is_not_primitive_does_not_double_head_armour(attack):
    result = attack([15, 4, 2], STUN, weapon="Sword")  # 8 against 2 + 3 + 2 = 7
    assert result.effects[0].rounds == 1
    assert attack([15, 2, 2], STUN, weapon="Sword").effects == ()  # 6 against 7


def test_stun_misses_or_is_dodged(attack):
    assert attack([25], STUN).effects == ()
    dodged = attack([15, 20], STUN, options={"reaction": "dodge"})
    assert effects(dodged) == [("reaction", "Victim", "dodge")]


# --- knock-down, feint, manoeuvre -------------------------------------------------------------

KNOCK = AttackSetup("S", (), "knock_down")


def test_knock_down_with_two_degrees_also_deals_unarmed_damage_and_fatigue(attack):
    # S 45: 20 is 2 degrees; S 35: 50 fails; d10 7 -> d5 4: 4 - 3 + SB 4 = 5 - TB 3 = 2
    result = attack([20, 50, 7], KNOCK)
    assert effects(result) == [
        ("condition", "Victim", "prone"),
        ("damage", "Victim", 2),
        ("fatigue", "Victim", 1),
    ]
    assert result.effects[1].location == "body"


def test_knock_down_with_one_degree_only_knocks_down(attack):
    assert effects(attack([35, 50], KNOCK)) == [("condition", "Victim", "prone")]


def test_a_target_winning_by_two_degrees_knocks_the_attacker_down(attack):
    result = attack([60, 10], KNOCK)
    assert effects(result) == [("condition", "Brawler", "prone")]
    assert str(result.summary) == "Victim stays on its feet"


def test_feint_and_manoeuvre_are_opposed_weapon_skill_tests(attack):
    feint = attack([10, 50], AttackSetup("WS", (), "feint"), weapon="Sword")
    assert effects(feint) == [("condition", "Victim", "feinted")]
    assert feint.effects[0].rounds == 1
    assert attack([50, 10], AttackSetup("WS", (), "feint"), weapon="Sword").effects == ()
    push = attack([10, 50], AttackSetup("WS", (), "manoeuvre"), weapon="Sword")
    assert effects(push) == [("note", "Victim", 1)]


def test_the_defenders_conditions_weigh_on_its_opposed_test(attack):
    feint = AttackSetup("WS", (), "feint")
    # 35 vs WS 40 and 35 vs 40: 0 degrees each, equal WS: nobody wins
    assert attack([35, 35], feint, weapon="Sword").effects == ()
    # prone (001: -10 to WS): 35 vs 30 fails, and the feint works
    prone = attack([35, 35], feint, weapon="Sword", options={"target_conditions": ["prone"]})
    assert effects(prone) == [("condition", "Victim", "feinted")]
    assert "Victim: WS 40 -10 = 30 [Prone -10]" in str(prone.steps[-1].detail)


def test_an_opposed_tie_goes_to_the_higher_characteristic(attack):
    result = attack([45, 35], AttackSetup("S", (), "knock_down"))  # both 0 degrees; S 45 > 35
    assert effects(result) == [("condition", "Victim", "prone")]


# --- grapple ---------------------------------------------------------------------------------


def test_grapple_starts_with_an_attack_the_target_may_dodge(attack):
    result = attack([30], AttackSetup("WS", (), "grapple"))
    assert effects(result) == [  # both in the grapple (004), the attacker controlling it
        ("condition", "Victim", "grappled"),
        ("condition", "Brawler", "grappled"),
        ("condition", "Brawler", "grappling"),
    ]
    dodged = attack([30, 20], AttackSetup("WS", (), "grapple"), options={"reaction": "dodge"})
    assert effects(dodged) == [("reaction", "Victim", "dodge")]


def test_grapple_damage_option_from_the_setup_mode(attack):
    result = attack([20, 50, 7], AttackSetup("S", (), "grapple_damage"))
    assert effects(result) == [("damage", "Victim", 2), ("fatigue", "Victim", 1)]
    assert attack([60, 10], AttackSetup("S", (), "grapple_damage")).effects == ()


def test_grapple_push_one_metre_and_one_per_degree_at_most_a_half_move(attack):
    result = attack([5, 50], AttackSetup("S", (), "grapple"), options={"grapple": "push"})
    assert effects(result) == [("note", "Victim", 3)]  # 1 + 4 degrees, AgB 3


def test_size_adds_degrees_to_the_larger_in_a_grapple(attack):
    # S 45: 44 is 0 degrees; S 35: 15 is 2 degrees; 3 sizes larger: 3 beats 2
    setup = AttackSetup("S", (), "grapple_throw")
    assert attack([44, 15], setup).effects == ()
    thrown = attack([44, 15], setup, options={"size_difference": 3})
    assert effects(thrown) == [("condition", "Victim", "prone")]


def test_the_grappled_breaks_free_takes_control_or_wriggles_out(attack):
    ended = [
        ("remove_condition", "Brawler", "grappled"),
        ("remove_condition", "Victim", "grappled"),
        ("remove_condition", "Victim", "grappling"),
    ]
    assert effects(attack([20, 50], AttackSetup("S", (), "grapple_break_free"))) == ended
    control = attack([20, 50], AttackSetup("S", (), "grapple_take_control"))
    assert effects(control) == [  # both stay in the grapple; control changes hands
        ("remove_condition", "Victim", "grappling"),
        ("condition", "Brawler", "grappling"),
    ]
    assert effects(attack([20], AttackSetup("Ag", (), "grapple_wriggle"))) == ended
    released = attack([], AttackSetup("S", (), "grapple"), options={"grapple": "release"})
    assert effects(released) == [
        ("remove_condition", "Victim", "grappled"),
        ("remove_condition", "Brawler", "grappled"),
        ("remove_condition", "Brawler", "grappling"),
    ]


def test_an_unknown_grapple_option_is_refused(attack):
    with pytest.raises(RulesError, match=r"option 'grapple': must be one of .*'bite'"):
        attack([], AttackSetup("S", (), "grapple"), options={"grapple": "bite"})
    with pytest.raises(GmkitError, match="grapple option 'bite'"):  # a setup's own mode
        attack([], AttackSetup("S", (), "grapple_bite"))


# --- unarmed and flame -----------------------------------------------------------------------


def test_deathwatch_unarmed_blow_armour_counts_double_and_tires_at_tb(attack, marine):
    brother = marine("Castor", unnatural={"S": 2})
    cultist = marine("Cultist", wounds=10, armour_points={"body": 4})
    # 13 -> 31: body; d10 7 -> d5 4: 4 - 3 + SB 8 = 9 - AP 4 x2 - TB 4: nothing; 9 >= TB 4
    result = attack([13, 7], AttackSetup("WS", (), "melee"), attacker=brother, target=cultist)
    assert effects(result) == [("fatigue", "Cultist", 1)]
    soak = next(step for step in result.steps if str(step.title).startswith("Soak"))
    assert str(soak.detail) == "9 damage - AP 4x2 - TB 4 = 0 (none goes through)"


def test_a_flame_hit_calls_for_an_agility_test_against_catching_fire(attack):
    setup = AttackSetup("BS", (), "single", rounds=1, auto_hit=True)
    # no test: location d100 40 -> 04 head; 5 + 4 = 9 - TB 3 = 6; Agility 70: catches fire
    result = attack([40, 5, 70], setup, weapon="Flamer")
    assert effects(result) == [
        ("ammo", "Brawler", 1),
        ("damage", "Victim", 6),
        ("condition", "Victim", "on_fire"),
    ]
    assert str(result.steps[0].outcome) == "automatic hit"


# --- suppressing fire, pinning, overwatch ----------------------------------------------------

SUPPRESS = AttackSetup("BS", (Modifier("Suppressing fire", -20),), "suppressing", max_hits=10,
                       rounds=10, jam_from=94)  # fmt: skip


def test_suppressing_fire_hits_at_random_and_pins_at_minus_twenty(attack):
    # 5 vs 20: 1 degree, 1 hit; 05 -> 50: body; 4 + 2 = 6 - 3 = 3; pinning 55 vs 10: pinned
    result = attack([5, 4, 55], SUPPRESS, weapon="Autogun", mode="suppressing")
    assert effects(result) == [("ammo", "Brawler", 10), ("damage", "Victim", 3),
                               ("pinned", "Victim", "pinned")]  # fmt: skip
    pin = next(step for step in result.steps if str(step.title).startswith("Pinning"))
    assert pin.target == 10


def test_suppressing_fire_pins_even_when_it_misses(attack):
    result = attack([50, 9], SUPPRESS, weapon="Autogun", mode="suppressing")
    assert effects(result) == [("ammo", "Brawler", 10)]  # 9 vs 10: holds firm
    assert any(str(step.outcome) == "holds firm" for step in result.steps)


def test_a_horde_adds_its_magnitude_to_resist_pinning(marine):
    horde = {"magnitude_max": 20, "magnitude": 15}
    mob = marine("Mob", chars={"WP": 30}, wounds=10, tier="troop", horde=horde)
    steps, found = pinning(mob, EnteredDice([24]))  # 30 - 20 + 15 = 25
    assert (steps[0].target, found) == (25, [])


def test_recovering_from_pinning_is_easier_out_of_fire(person):
    victim = person()
    _, step, lifted = recover_from_pinning(victim, EnteredDice([35]), under_fire=True)
    assert (str(step.outcome), lifted) == ("still pinned", ())
    test, step, lifted = recover_from_pinning(victim, EnteredDice([35]), under_fire=False)
    assert (test.target, str(step.outcome)) == (60, "no longer pinned")
    assert [(e.kind, e.condition) for e in lifted] == [("remove_condition", "pinned")]


def test_overwatch_is_declared_then_queued_and_fired_with_pinning(brawler, person):
    options = {"overwatch_mode": "full", "trigger": "anyone comes through the door"}
    request = AttackRequest(brawler, "Autogun", person(), action="overwatch", options=options)
    declared = resolve_attack(request, EnteredDice([]), AttackSetup("BS", (), "full"))
    assert effects(declared) == [("condition", "Brawler", "overwatch")]
    assert str(declared.steps[0].outcome) == "full fire when anyone comes through the door"
    watch = overwatch_of(request)
    assert (watch.watcher, watch.weapon, watch.mode) == ("Brawler", "Autogun", "full")
    fired = watch.request(brawler, person())
    assert fired.options.overwatch is True
    setup = AttackSetup("BS", (Modifier("Full auto", 20),), "full", max_hits=10, rounds=10,
                        jam_from=94)  # fmt: skip
    source = EnteredDice([80, 55])  # a miss; the target still tests pinning at -20
    result = resolve_attack(fired, source, setup)
    assert effects(result) == [("ammo", "Brawler", 10), ("pinned", "Victim", "pinned")]


def test_who_acts_first_when_overwatch_meets_an_action(brawler, person):
    quick = person("Quick", chars={"Ag": 40})
    assert first_to_act(brawler, quick, EnteredDice([]))[0] == "Quick"
    name, steps = first_to_act(brawler, person(), EnteredDice([10, 50]))
    assert name == "Brawler"
    assert len(steps[0].rolls) == 2
    assert first_to_act(brawler, person(), EnteredDice([50, 10]))[0] == "Victim"


# --- jams ------------------------------------------------------------------------------------


def test_clearing_a_jam_in_dark_heresy_loses_a_las_clip_or_one_solid_round(brawler):
    cleared = clear_jam(brawler, "Lasgun", EnteredDice([30]))
    assert cleared.success
    assert [(e.kind, e.condition, e.amount) for e in cleared.effects] == [
        ("remove_condition", "jammed", 0),
        ("ammo", None, 20),
    ]
    solid = clear_jam(brawler, "Autogun", EnteredDice([30]))
    assert [e.amount for e in solid.effects if e.kind == "ammo"] == [1]
    failed = clear_jam(brawler, "Autogun", EnteredDice([41]))
    shown = str(failed.steps[0].outcome)
    assert (failed.success, failed.effects, shown) == (False, (), "still jammed")


def test_clearing_a_jam_in_deathwatch_empties_the_weapon(marine, weapon):
    brother = marine("Castor", [weapon("Autogun", loaded=12)])
    cleared = clear_jam(brother, "Autogun", EnteredDice([30]))
    assert [e.amount for e in cleared.effects if e.kind == "ammo"] == [12]


def test_a_standard_attack_may_grapple_instead_of_dealing_damage(attack):
    setup = AttackSetup("WS", (), "melee")
    result = attack([30], setup, action="standard_attack", options={"grapple": True})
    assert [e[2] for e in effects(result)] == ["grappled", "grappled", "grappling"]
