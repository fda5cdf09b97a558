"""Conditions (004, 001): modifiers to and against their bearer, limits, durations, reminders."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from gmkit.errors import RulesError
from gmkit.messages import catalogs
from gmkit.sheets._dark_heresy import DarkHeresyCharacter
from gmkit.systems._imperial.conditions import (
    bearer_modifiers,
    condition_modifiers,
    conditions,
    flags_of,
    gain,
    lose,
    reminders,
)
from gmkit.systems._imperial.kinds import book
from gmkit.systems._imperial.modifiers import attack_setup, clear_caches, defence_modifiers
from gmkit.systems._tables import table
from gmkit.systems.base import AttackRequest, Effect, Modifier, Standing

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


@pytest.fixture(scope="session")
def fighter(veteran):
    """Marr (or another name) with a sword and a lasgun, ten wounds."""

    def make(name: str = "Marr", **fields: Any) -> DarkHeresyCharacter:
        return veteran("dark_heresy", "Sword", "Lasgun", name=name, wounds=10, **fields)

    return make


@pytest.fixture(scope="session")
def setup(fighter):
    """Marr's attack on a Foe with ``weapon`` (the lasgun at 60 m), ``options`` given."""

    def make(weapon: str = "Sword", **options: Any) -> Any:
        fields = {"distance": 60} if weapon == "Lasgun" else {}
        request = AttackRequest(fighter(), weapon, fighter(name="Foe"), options=options, **fields)
        return attack_setup(request, "dark_heresy")

    return make


def names(found: list[Modifier] | tuple[Modifier, ...]) -> list[str]:
    return [str(modifier) for modifier in found]


def texts(found: Any) -> list[str]:
    return [str(text) for text in found]


@pytest.mark.parametrize("game", ["deathwatch", "dark_heresy"])
def test_every_004_condition_is_in_the_catalog(game):
    found = conditions(game)
    assert set(found) >= FROM_004
    spanish = catalogs().translations["es"]
    assert all(
        item.name and spanish[f"{game}.condition.{item.id}"].translated for item in found.values()
    )


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
    assert names(bearer_modifiers(["prone"], "Dodge")) == ["Prone -20"]


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
    assert names(bearer_modifiers(["guarded"], "Parry")) == ["Guarded Attack +10"]
    assert "no_reactions" in flags_of("deathwatch", ["all_out_attack"])


def test_unknown_condition_ids_are_refused_naming_the_list(setup):
    # the functions taking ids are the rules' own: a typo there fails loudly
    with pytest.raises(RulesError, match=r"options\['target_conditions'\].*'frozen'"):
        condition_modifiers([], ["frozen"])
    with pytest.raises(RulesError, match=r"options\['attacker_conditions'\].*not the string"):
        condition_modifiers("stunned", [])


def test_names_on_the_combatants_the_rules_do_not_know_are_ignored_with_a_warning(setup):
    # the GM's own ("behind the pews"), another game's word ("aiming"): never a refusal
    found = setup(
        attacker_conditions=["behind the pews", "fatigued"],
        target_conditions=["aiming", "prone", "jammed: Lasgun"],
    )
    assert names(found.modifiers) == ["Fatigued -10", "Target prone +10"]
    assert texts(found.warnings) == [
        "not a rule condition: 'behind the pews' (Marr, the attacker): the rules ignore it",
        "not a rule condition: 'aiming' (Foe, the target): the rules ignore it",
    ]
    assert setup(target_conditions=["prone"]).warnings == ()


def test_an_actions_gained_state_must_be_a_condition_of_the_catalog(tmp_path, monkeypatch, fighter):
    def setup() -> Any:
        request = AttackRequest(fighter(), "Sword", fighter(name="Foe"), "all_out_attack")
        return attack_setup(request, "dark_heresy")

    folder = tmp_path / "deathwatch"
    folder.mkdir()
    original = table("deathwatch", "actions")
    changed = [
        {**item, "effects": [{"gains": "frenzied"}]} if item["id"] == "all_out_attack" else item
        for item in original["actions"]
    ]
    text = yaml.safe_dump({**original, "actions": changed})
    (folder / "actions.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    clear_caches()
    try:
        with pytest.raises(RulesError, match=r"all_out_attack gains.*unknown condition 'frenzied'"):
            setup()
    finally:
        monkeypatch.delenv("GMKIT_DATA_PATH")
        clear_caches()
    assert setup().gains == ("all_out_attack",)


def test_attack_setup_reads_both_combatants_conditions(fighter, setup):
    assert names(
        setup(attacker_conditions=["fatigued"], target_conditions=["prone"]).modifiers
    ) == ["Fatigued -10", "Target prone +10"]
    tired = AttackRequest(fighter(fatigue=1), "Sword", fighter(name="Foe"))
    assert names(attack_setup(tired, "dark_heresy").modifiers) == ["Fatigued -10"]


def test_conditions_that_forbid_the_attack(fighter, setup):
    with pytest.raises(RulesError, match=r"attacker_conditions.*Marr is stunned: no actions"):
        setup(attacker_conditions=["stunned"])
    overruled = setup(attacker_conditions=["stunned"], gm_override=True)
    assert any("stunned: no actions" in warning for warning in texts(overruled.warnings))
    pinned = AttackRequest(
        fighter(),
        "Sword",
        fighter(name="Foe"),
        action="all_out_attack",
        options={"attacker_conditions": ["pinned"]},
    )
    with pytest.raises(RulesError, match=r"pinned: one half action a turn"):
        attack_setup(pinned, "dark_heresy")
    assert names(setup(attacker_conditions=["pinned"]).modifiers) == []  # a half action, WS
    blind = setup("Lasgun", attacker_conditions=["blinded"])
    assert str(blind.auto_fail) == "Blinded: BS tests fail automatically"
    assert blind.auto_fail in blind.warnings  # the GM sees it before the dice
    swing = setup("Sword", attacker_conditions=["blinded"])
    assert (swing.auto_fail, names(swing.modifiers)) == (None, ["Blinded -30"])


def test_target_conditions_that_take_away_reactions(setup):
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


def test_defence_modifiers_of_the_target(fighter):
    request = AttackRequest(
        fighter(),
        "Sword",
        fighter(name="Foe", fatigue=1),
        target_standing=Standing.of(conditions=["prone", "guarded"]),
    )
    assert names(defence_modifiers(request, "dark_heresy", "dodge")) == [
        "Guarded Attack +10",  # the standing's conditions, in their order (by id)
        "Prone -20",
        "Fatigued -10",
    ]
    assert names(defence_modifiers(request, "dark_heresy", "parry")) == [
        "Guarded Attack +10",
        "Fatigued -10",
    ]
    with pytest.raises(RulesError, match=r"field 'reaction'"):
        defence_modifiers(request, "dark_heresy", "block")


def test_stun_counts_down_at_the_end_of_the_bearers_turn():
    # the book says when each ends; the encounter ticks them (tests/encounter/test_expiry.py)
    kinds = book("dark_heresy").kinds
    assert (kinds["stunned"].ends, kinds["stunned"].ticks) == (("end_of_turn",), "end_of_turn")
    assert (kinds["prone"].ends, kinds["prone"].ticks) == (("removed",), None)


def test_surprise_ends_with_the_round_and_action_states_at_the_next_turn():
    kinds = book("deathwatch").kinds
    assert kinds["surprised"].ticks == "end_of_round"
    states = ("running", "defensive_stance", "all_out_attack")
    assert [kinds[key].ends for key in states] == [("start_of_turn",)] * 3
    assert kinds["lost_eye"].ends == ("removed",)
    assert kinds["aimed"].ends == ("start_of_turn", "when_acts")


def test_reminders_for_fire_blood_loss_and_pinning():
    fire = reminders(["on_fire"], "end_of_round")
    assert [(r.roll, "Energy" in str(r.text)) for r in fire] == [("1d10", True)]
    assert reminders(["on_fire"], "start_of_turn")[0].test == "WP +0"
    bleeding = reminders(["blood_loss"], "end_of_round")
    assert [r.chance for r in bleeding] == [10]
    assert [r.when for r in reminders(["pinned"], "end_of_turn")] == ["end_of_turn"]
    assert reminders(["pinned"], "start_of_turn") == []
    heresy = reminders(["pinned"], "start_of_turn", game="dark_heresy")
    assert heresy
    assert "+30" in str(heresy[0].text)
    assert "BS by 10" in str(reminders(["lost_eye"], "on_gain")[0])


# --- one vocabulary: every condition the rules give is in the catalog -------------------------

FROM_THE_RULES = {
    "grappled": "resolve_special: both sides of a grapple",
    "grappling": "resolve_special: the side that controls it",
    "feinted": "resolve_special: a won feint",
    "prone": "resolve_special: knock-down, throw down",
    "stunned": "resolve_special: stun",
    "on_fire": "resolve: a flame hit",
    "pinned": "resolve_fire: a failed pinning test",
    "overwatch": "resolve_fire: declared overwatch",
    "jammed": "resolve_fire: clearing a jam lifts it",
    "broken": "hordes: a failed break test",
    "unconscious": "effects: fatigue beyond TB",
    "dead": "effects: critical damage, a minion",
}


@pytest.mark.parametrize("game", ["deathwatch", "dark_heresy"])
def test_every_condition_the_rules_give_is_in_the_catalog(game):
    assert set(FROM_THE_RULES) <= set(conditions(game))
    assert gain(game, "Marr", "feinted", 1) == Effect(
        "condition", "Marr", condition="feinted", rounds=1
    )
    assert lose(game, "Marr", "jammed", weapon="Lasgun") == Effect(
        "remove_condition", "Marr", condition="jammed", weapon="Lasgun"
    )
    with pytest.raises(RulesError, match=r"field 'condition'.*unknown condition 'frozen'"):
        gain(game, "Marr", "frozen")


def test_the_new_conditions_tick_and_remind():
    kinds = book("dark_heresy").kinds
    assert [kinds[key].ticks for key in ("feinted", "grappled", "grappling")] == [
        "end_of_round",
        None,
        None,
    ]
    assert "Full Action" in str(reminders(["grappling"], "start_of_turn")[0].text)
    assert str(reminders(["jammed"], "on_gain")[0].text).startswith("the weapon cannot fire")
    assert "flees" in str(reminders(["broken"], "on_gain")[0].text)


def test_the_controller_of_a_grapple_takes_the_grapple_action_and_the_broken_only_run(
    fighter, setup
):
    options = {"attacker_conditions": ["grappled", "grappling"], "grapple_option": "damage"}
    request = AttackRequest(fighter(), "unarmed", fighter(name="Foe"), "grapple", options=options)
    assert attack_setup(request, "dark_heresy").mode == "grapple_damage"
    with pytest.raises(RulesError, match=r"Marr is broken: only Run"):
        setup(attacker_conditions=["broken"])


def test_a_jam_as_the_encounter_names_it_refuses_that_weapon_only(fighter):
    jammed = book("dark_heresy").of("jammed: Lasgun")
    assert (jammed.kind.id, jammed.value, jammed.kind.ends) == ("jammed", "Lasgun", ("removed",))

    def setup(weapon: str, **options: Any) -> Any:
        options = {"attacker_conditions": ["jammed: Lasgun"], **options}
        request = AttackRequest(
            fighter(), weapon, fighter(name="Foe"), distance=60, options=options
        )
        return attack_setup(request, "dark_heresy")

    with pytest.raises(RulesError, match=r"field 'weapon'.*Lasgun is jammed"):
        setup("Lasgun")
    assert setup("Sword").characteristic == "WS"  # the sword is not jammed
    assert any(
        "Lasgun is jammed" in warning
        for warning in texts(setup("Lasgun", gm_override=True).warnings)
    )
