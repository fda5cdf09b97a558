"""The systems' protocol: every game resolves attacks, and ``apply_effect(sheet, effect)``
answers (new sheet, follow-ups) for what is the sheet's business, None for the rest.

The sheets are the demo rosters'; the effects name the combatant by an encounter id, as the
encounter sends them (the rules apply them to the sheet given whatever they name)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gmkit.demo import demo_campaign
from gmkit.errors import GmkitError
from gmkit.games import game_ids
from gmkit.systems import system
from gmkit.systems.base import AttackRequest, Effect, Standing
from gmkit.systems.necromunda import (
    CONDITION_FIELDS,
    FighterState,
    state_from_encounter,
    with_encounter_states,
)
from gmkit.systems.wfrp2 import encounter_circumstances, with_encounter_state

ROSTERS = {roster.game: {s.name: s for s in roster.sheets} for roster in demo_campaign().rosters}


def sheet(game: str, name: str):
    return ROSTERS[game][name]


@pytest.mark.parametrize("game", list(game_ids()))
def test_every_system_resolves_attacks_and_applies_effects(game):
    rules = system(game)
    assert rules.game == game
    assert callable(rules.resolve_attack)
    assert callable(getattr(rules, "apply_effect", None)), f"{game} has no apply_effect"
    some = next(iter(ROSTERS[game].values()))
    note = Effect("note", "someone", note="the GM decides")
    assert rules.apply_effect(some, note) is None  # a note is never the sheet's business


@pytest.mark.parametrize("game", list(game_ids()))
def test_conditions_jams_and_reactions_are_the_encounters(game):
    rules = system(game)
    some = next(iter(ROSTERS[game].values()))
    for effect in (
        Effect("condition", "x", condition="prone", rounds=1),
        Effect("remove_condition", "x", condition="prone"),
        Effect("jam", "x", weapon="gun"),
        Effect("reaction", "x", condition="dodge"),
        Effect("cover", "x", 2, "pew"),
    ):
        assert rules.apply_effect(some, effect) is None, (game, effect.kind)


# --- WFRP 2e --------------------------------------------------------------------------------


def test_wfrp_damage_lowers_the_wounds_of_the_sheet_given():
    ungor = sheet("wfrp2", "Ungor Snitch")  # W 9
    new, follow = system("wfrp2").apply_effect(
        ungor, Effect("damage", "ungor-snitch", 4, "right_arm", weapon="Bow")
    )
    assert (new.wounds_current, new.wound_state, follow) == (5, "lightly wounded", ())
    assert ungor.wounds_current == 9  # sheets are values
    same, follow = system("wfrp2").apply_effect(ungor, Effect("damage", "ungor-snitch", 0))
    assert same is ungor
    assert follow == ()


def test_wfrp_damage_below_zero_gives_the_critical_as_a_follow_up():
    gor = sheet("wfrp2", "Gor Bloodhorn").edit(wounds_current=2)
    new, follow = system("wfrp2").apply_effect(
        gor, Effect("damage", "gor-bloodhorn", 7, "head", weapon="Bow")
    )
    assert new.wounds_current == 0
    assert tuple(replace(effect, note=str(effect.note)) for effect in follow) == (
        Effect(
            "critical",
            "gor-bloodhorn",  # aimed where the damage was: the encounter's id
            5,
            "head",
            weapon="Bow",
            note="critical value +5: roll it on the critical table",
        ),
    )


def test_wfrp_refuses_negative_damage_and_leaves_criticals_to_the_encounter():
    gunther = sheet("wfrp2", "Gunther Brandauer")
    with pytest.raises(GmkitError, match="negative"):
        system("wfrp2").apply_effect(gunther, Effect("damage", "g", -3))
    assert system("wfrp2").apply_effect(gunther, Effect("critical", "g", 5, "head")) is None


def test_wfrp_maps_the_encounters_conditions_to_its_circumstances():
    gunther, gor = sheet("wfrp2", "Gunther Brandauer"), sheet("wfrp2", "Gor Bloodhorn")
    request = AttackRequest(
        gunther,
        "Hand Weapon",
        gor,
        options={
            "attacker_conditions": ["aiming", "prone"],
            "target_conditions": ["stunned", "surprised", "running", "prone"],
            "target_reactions": {"parry": 1, "dodge": 0},
        },
    )
    # prone: 002 prices no prone target (gm_modifier); a reaction spent: no second one; Gor's
    # sheet carries a hand weapon and a shield: a weapon in the other hand (issue 21)
    assert encounter_circumstances(request) == {
        "aimed": True,
        "target_parried": True,
        "target_running": True,
        "target_second_weapon": True,
        "target_stunned": True,
        "target_surprised": True,
    }
    charge = AttackRequest(
        gunther,
        "Hand Weapon",
        gor,
        action="charge_attack",
        circumstances={"target_stunned": False, "target_second_weapon": False},  # the GM's word
        options={"attacker_conditions": ["aiming"], "target_conditions": ["stunned"]},
    )
    assert encounter_circumstances(charge) == {}  # aimed goes with a standard attack only
    assert with_encounter_state(charge) is charge


def test_wfrp_resolves_with_the_mapped_circumstances():
    from gmkit.dice import EnteredDice

    gunther, gor = sheet("wfrp2", "Gunther Brandauer"), sheet("wfrp2", "Gor Bloodhorn")
    request = AttackRequest(
        gunther, "Hand Weapon", gor, options={"target_conditions": ["stunned"], "reaction": "parry"}
    )
    parry = system("wfrp2").reactions_available(request)["parry"]
    assert str(parry.reason) == "Target is stunned"
    result = system("wfrp2").resolve_attack(request, EnteredDice([61, 5]))
    test = next(step for step in result.steps if str(step.title) == "WS test")
    assert (str(test.outcome), test.target) == ("hit", 61)  # WS 41 +20 against a stunned target
    assert [str(m) for m in test.modifiers] == ["Target is stunned +20"]
    # 61 reversed is 16: the right arm; 5 + SB 3 = 8, less TB 4 and the leather jack's 1
    assert result.effects == (
        Effect("damage", "Gor Bloodhorn", 3, "right_arm", weapon="Hand Weapon"),
    )


# --- Necromunda -----------------------------------------------------------------------------


def test_necromunda_flesh_wounds_go_on_the_sheet_and_stop_at_what_it_can_bear():
    jeb = sheet("necromunda", "Little Jeb")  # WS 2, BS 2
    rules = system("necromunda")
    wound = Effect("injury", "little-jeb", condition="flesh wound")
    once, follow = rules.apply_effect(jeb, wound)
    assert (once.flesh_wounds, once.effective_bs, follow) == (1, 1, ())
    twice, _ = rules.apply_effect(once, wound)
    assert (twice.flesh_wounds, twice.out_of_action) == (2, True)
    again, _ = rules.apply_effect(twice, wound)
    assert again.flesh_wounds == 2  # the sheet holds no more than WS and BS allow


def test_necromunda_leaves_damage_down_and_out_of_action_to_the_encounter():
    tom = sheet("necromunda", "Scabby Tom")
    rules = system("necromunda")
    for effect in (
        Effect("damage", "scabby-tom", 1),
        Effect("injury", "scabby-tom", condition="down"),
        Effect("injury", "scabby-tom", condition="out of action"),
    ):
        assert rules.apply_effect(tom, effect) is None, effect


def test_necromunda_pinned_by_a_shot_lasts_through_the_fighters_next_turn():
    tom = sheet("necromunda", "Scabby Tom")
    shot = Effect("pinned", "scabby-tom", note="hit by a shot: face up")
    same, follow = system("necromunda").apply_effect(tom, shot)
    assert same is tom
    assert follow == (
        Effect(
            "condition", "scabby-tom", condition="pinned", rounds=1, note="hit by a shot: face up"
        ),
    )


def test_necromunda_pinned_for_a_turn_by_recovery_lasts_through_the_next_turn():
    tom = sheet("necromunda", "Scabby Tom")
    recovered = Effect("pinned", "scabby-tom", rounds=1, note="recovered from down")
    same, follow = system("necromunda").apply_effect(tom, recovered)
    assert same is tom
    assert follow == (
        Effect("condition", "scabby-tom", condition="pinned", rounds=2, note="recovered from down"),
    )


def test_necromunda_reads_its_fighter_state_from_the_encounters_options():
    kael, tom = sheet("necromunda", "Brother Kael"), sheet("necromunda", "Scabby Tom")
    assert set(CONDITION_FIELDS) == {"pinned", "down", "out of action", "hidden", "engaged"}
    assert state_from_encounter(tom, ["down", "pinned", "jammed: autopistol"], {"damage": 1}) == (
        FighterState(wounds_left=0, pinned=True, down=True)
    )
    assert state_from_encounter(tom, [], {"damage": 3}).wounds_left == 0  # never below 0
    assert state_from_encounter(tom, ["hidden", "engaged"], {}) == FighterState(
        hidden=True, engaged=True
    )
    request = AttackRequest(
        kael,
        "bolt pistol",
        tom,
        distance=4,
        options={
            "attacker_conditions": ["out of action"],
            "target_conditions": ["hidden"],
            "target_counters": {"damage": 1},
        },
    )
    filled = with_encounter_states(request)
    assert filled.options.attacker_state == FighterState(out_of_action=True)
    assert filled.options.target_state == FighterState(wounds_left=0, hidden=True)
    given = AttackRequest(
        kael,
        "bolt pistol",
        tom,
        options={"target_state": FighterState(down=True)},
        target_standing=Standing.of(conditions=["hidden"]),
    )
    assert with_encounter_states(given) is given  # a state given is the GM's


def test_necromunda_shots_read_the_encounters_state():
    from gmkit.dice import EnteredDice
    from gmkit.errors import RulesError

    kael, tom = sheet("necromunda", "Brother Kael"), sheet("necromunda", "Scabby Tom")
    pinned = AttackRequest(
        kael, "bolt pistol", tom, distance=6, options={"attacker_conditions": ["pinned"]}
    )
    with pytest.raises(RulesError, match="a pinned fighter does not shoot"):
        system("necromunda").resolve_attack(pinned, EnteredDice([4]))
    down = AttackRequest(
        kael,
        "bolt pistol",
        tom,
        distance=6,
        options={"target_conditions": ["down"], "target_counters": {"damage": 1}},
    )
    # short range +2: 7 - 4 - 2 = 1, never better than 2+; S 4 against T 3: 3+
    result = system("necromunda").resolve_attack(down, EnteredDice([2, 3, 6]))
    assert [str(step) for step in result.steps[1:4]] == [
        "To hit: hit (7 - BS 4 = 3; short range (bolt pistol) +2; 2 against 2+: success)",
        "Pinned: not pinned: already down",
        "To wound: wounds (S 4 against T 3; 3 against 3+: success)",
    ]
    # no wounds left to lose: no damage, straight to the injury roll (6: out of action)
    assert [(e.kind, e.condition) for e in result.effects] == [("injury", "out of action")]


# --- WFB 6e ---------------------------------------------------------------------------------


def test_wfb_applies_nothing_to_a_sheet():
    anselm = sheet("wfb6", "Father Anselm")
    rules = system("wfb6")
    for effect in (Effect("damage", "father-anselm", 1), Effect("injury", "x", condition="x")):
        assert rules.apply_effect(anselm, effect) is None


# --- Dark Heresy and Deathwatch -------------------------------------------------------------


def test_forty_k_damage_goes_on_the_sheet_and_a_minion_dies_of_critical_damage():
    rules = system("dark_heresy")
    tull = sheet("dark_heresy", "Sergeant Varro Tull")  # 13 wounds
    hurt, follow = rules.apply_effect(tull, Effect("damage", "tull", 5, "body", "Energy"))
    assert (hurt.damage, hurt.wounds_remaining, follow) == (5, 8, ())
    ban = sheet("dark_heresy", "Cultist Ban")  # a minion of 8 wounds
    dead, follow = rules.apply_effect(ban, Effect("damage", "cultist-ban", 10, "head", "Impact"))
    assert (dead.damage, dead.critical_damage) == (8, 2)
    assert [(e.kind, e.target, e.condition) for e in follow] == [
        ("condition", "cultist-ban", "dead")
    ]
    assert rules.apply_effect(tull, Effect("ammo", "tull", 3, weapon="Lasgun")) is None


def test_deathwatch_hordes_lose_magnitude_on_the_sheet():
    mob = sheet("deathwatch", "Ork Boyz mob")
    thinned, follow = system("deathwatch").apply_effect(mob, Effect("magnitude", "mob", 4))
    assert (thinned.horde.magnitude, thinned.horde.magnitude_max, follow) == (26, 30, ())
