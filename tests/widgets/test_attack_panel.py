"""The attack panel on a WFRP 2e fight, driven through the public methods its controls call."""

from __future__ import annotations

from functools import cache

import pytest

from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.games import health
from gmkit.widgets._attack import AttackPanel
from gmkit.widgets._i18n import LANGUAGE


@cache
def roster():
    return next(r for r in demo_campaign().rosters if r.game == "wfrp2")


@pytest.fixture
def fight() -> Encounter:
    encounter = Encounter("wfrp2")
    encounter.add_many(roster().sheets)
    return encounter


@pytest.fixture
def panel(fight: Encounter):
    made = AttackPanel(fight, seed=7)
    yield made
    made.close()


def lost(encounter: Encounter, ident: str) -> int:
    """Wounds lost, whether the rules take them off the sheet or the encounter counts them."""
    combatant = encounter.combatant(ident)
    left, total = health(combatant.sheet, {})
    return total - left + combatant.counters.get("damage", 0)


def step(panel: AttackPanel, title: str):
    assert panel.result is not None, panel.error
    return next(s for s in panel.result.steps if str(s.title) == title)


def aim_the_bow(panel: AttackPanel) -> None:
    panel.select_attacker("elsa-wendt")
    panel.select_target("ungor-snitch")
    panel.set_distance(20)
    panel.set_circumstance("aimed", True)


def test_the_seed_shot_53_hits_the_right_arm_for_4_plus_3(panel: AttackPanel):
    aim_the_bow(panel)
    assert (panel.weapon, panel.mode, panel.action) == ("Bow", "ranged", "standard_attack")
    preview = panel.preview
    assert preview is not None
    assert (str(preview.base), preview.total, preview.target) == ("BS 43", 10, 53)
    assert "Aimed (the last half action was Aim)" in panel.preview_html.value
    result = panel.resolve("53 4")
    assert result is panel.result
    assert panel.error == ""
    test = step(panel, "BS test")
    assert (str(test.outcome), test.target, [r.value for r in test.rolls]) == ("hit", 53, [53])
    assert str(step(panel, "Hit location").outcome) == "right arm"
    assert str(step(panel, "Damage").outcome) == "7"  # 1d10 (4) + Bow 3
    assert str(step(panel, "Soak").outcome) == "3"
    assert str(step(panel, "Wounds").outcome) == "4 lost: 9 -> 5 (lightly wounded)"
    shown = panel.result_html.value
    for text in ("BS test", "right arm", "1d10 (4) + Bow 3", "4 lost: 9 -&gt; 5", "d100=53*"):
        assert text in shown


def test_apply_changes_the_encounter_and_undo_restores_it_exactly(
    panel: AttackPanel, fight: Encounter
):
    aim_the_bow(panel)
    panel.resolve("53 4")
    before = fight.state
    assert panel.apply() is not None
    assert panel.error == ""
    assert lost(fight, "ungor-snitch") == 4
    event = fight.effective_events[-1]
    assert (event["kind"], event["applied"], event["hits"]) == ("attack", True, 1)
    assert [roll["value"] for roll in event["rolls"]] == [53, 4]
    assert panel.apply_button.disabled
    panel.apply()  # a second apply of the same result is refused, and shown
    assert "applied already" in panel.error
    assert lost(fight, "ungor-snitch") == 4
    panel.undo()
    assert panel.error == ""
    assert fight.state == before
    assert lost(fight, "ungor-snitch") == 0


def test_the_physical_dice_are_asked_for_in_turn(panel: AttackPanel):
    aim_the_bow(panel)
    panel.set_dice_mode("physical")
    assert panel.resolve() is None
    assert panel.prompt == "BS test: roll a d100 and enter its value"
    assert "roll a d100" in panel.prompt_html.value
    panel.enter("53")
    assert panel.prompt == "damage: roll a d10 and enter its value"
    assert panel.typed == ["53"]
    panel.enter("11")  # a d10 cannot show 11: refused, shown, and asked again
    assert "cannot come from a d10" in panel.error
    assert panel.typed == ["53"]
    assert panel.result is None
    panel.enter("4")
    assert panel.prompt == ""
    assert panel.error == ""
    assert panel.result is not None
    assert str(step(panel, "Damage").outcome) == "7"
    assert all(roll.physical for roll in panel.result.rolls)


def test_too_many_dice_typed_are_reported(panel: AttackPanel):
    aim_the_bow(panel)
    panel.resolve("53 4 9")
    assert panel.result is not None
    assert panel.warnings == ("not needed: 9",)
    assert "not needed: 9" in panel.error_html.value


def test_gmkit_rolls_seeded_dice_the_same_way_each_time(fight: Encounter):
    results = []
    for _ in range(2):
        encounter = Encounter("wfrp2")
        encounter.add_many(roster().sheets)
        made = AttackPanel(encounter, seed=11)
        aim_the_bow(made)
        assert made.dice_mode == "seeded"
        made.resolve()
        assert made.result is not None
        assert not any(roll.physical for roll in made.result.rolls)
        made.apply()
        assert encounter.effective_events[-1]["rolls"][0]["physical"] is False
        results.append([str(s) for s in made.result.steps])
        made.close()
    assert results[0] == results[1]
    other = AttackPanel(fight, seed=12)
    aim_the_bow(other)
    other.resolve()
    first = other.result
    other.set_seed(12)  # the same seed again gives the same rolls again
    other.resolve()
    assert first is not None
    assert other.result is not None
    assert [r.value for r in other.result.rolls] == [r.value for r in first.rolls]
    other.close()


def test_illegal_actions_are_not_offered_and_say_why(panel: AttackPanel):
    panel.select_attacker("elsa-wendt")
    assert panel.weapons == ("Bow", "Dagger", "Unarmed")
    assert [c.id for c in panel.modes] == ["ranged"]
    assert [c.id for c in panel.actions] == ["swift_attack", "standard_attack"]
    assert "melee attack, not a ranged one" in panel.not_offered["all_out_attack"]
    assert "All Out Attack" in panel.offered_html.value
    panel.select_action("all_out_attack")
    assert "not offered" in panel.error
    assert panel.action == "standard_attack"
    panel.select_weapon("Dagger")
    assert panel.mode == "melee"
    assert "all_out_attack" in [c.id for c in panel.actions]
    assert "aimed" in [c.id for c in panel.circumstance_choices]
    panel.select_action("charge_attack")
    assert "aimed" not in [c.id for c in panel.circumstance_choices]  # standard attacks only


def test_the_budget_offers_what_is_left_and_apply_spends_it(panel: AttackPanel, fight: Encounter):
    order = ["elsa-wendt", "gunther-brandauer", "brother-matthias", "gor-bloodhorn"]
    order += ["ungor-snitch", "bray-shaman-vhorlag"]
    for place, ident in enumerate(order):
        fight.set_initiative(ident, 20 - place)
    fight.start()
    panel.select_attacker("gunther-brandauer")
    assert [c.id for c in panel.actions] == ["bonus_attack"]  # free: out of turn
    assert "it is Elsa Wendt's turn" in panel.not_offered["standard_attack"]
    aim_the_bow(panel)
    assert [c.id for c in panel.actions] == ["swift_attack", "standard_attack"]
    panel.resolve("53 4")
    before = fight.state
    panel.apply()
    assert fight.combatant("elsa-wendt").spent == {"actions": 1}
    assert lost(fight, "ungor-snitch") == 4
    assert [c.id for c in panel.actions] == ["standard_attack"]
    assert (
        "1 left this turn (actions); the full action needs 2" in panel.not_offered["swift_attack"]
    )
    assert "Actions left: actions 1" in panel.offered_html.value
    panel.undo()  # the action spent and the attack, together
    assert fight.state == before
    panel.set_budget(False)
    assert panel.not_offered.get("standard_attack", "") == ""


def test_the_targets_reaction_is_offered_and_passed_to_the_rules(
    panel: AttackPanel, fight: Encounter
):
    panel.select_attacker("gor-bloodhorn")
    panel.select_target("gunther-brandauer")
    # Gunther carries a hand weapon and a shield: a weapon in the other hand (issue 21)
    assert panel.circumstances == {"target_second_weapon": True}
    assert [c.id for c in panel.reactions] == ["parry", "dodge"]
    panel.set_circumstance("target_second_weapon", False)  # the GM: his shield is slung
    assert [c.id for c in panel.reactions] == ["dodge"]
    assert "parry stance" in panel.reactions_refused["parry"]
    panel.select_reaction("parry")
    assert "not offered" in panel.error
    panel.set_circumstance("target_second_weapon", True)
    assert [c.id for c in panel.reactions] == ["parry", "dodge"]
    panel.select_reaction("parry")
    panel.resolve("30 20")
    assert str(step(panel, "WS test").outcome) == "hit"
    parry = step(panel, "Parry")
    assert str(parry.outcome) == "success: the attack is turned aside"
    assert parry.target == 51  # WS 41 + Shield (Defensive) 10
    panel.apply()
    assert fight.combatant("gunther-brandauer").reactions == {"parry": 1}
    assert lost(fight, "gunther-brandauer") == 0


def test_conditions_on_the_combatants_set_their_circumstances(panel: AttackPanel, fight: Encounter):
    fight.add_condition("ungor-snitch", "running", rounds=1)
    fight.add_condition("elsa-wendt", "aiming", rounds=1)
    panel.select_attacker("elsa-wendt")
    panel.select_target("ungor-snitch")
    assert panel.circumstances == {"target_running": True, "aimed": True}
    assert sorted(m.value for m in panel.preview.modifiers) == [-20, 10]
    panel.set_circumstance("target_running", False)
    assert panel.circumstances == {"aimed": True}


def test_errors_are_shown_not_raised(panel: AttackPanel):
    panel.apply()
    assert "resolve the attack first" in panel.error
    panel.select_attacker("nobody")
    assert "no one called 'nobody'" in panel.error
    assert "nobody" in panel.error_html.value
    aim_the_bow(panel)
    panel.set_distance(60)
    assert "60 m is beyond its 48 m" in panel.problem
    assert "beyond its 48 m" in panel.preview_html.value
    assert panel.resolve("53 4") is None
    assert "beyond its 48 m" in panel.error
    panel.set_distance(-1)
    assert "must not be negative" in panel.error
    panel.set_circumstance("gm_modifier", "lots")
    assert "whole number" in panel.error
    panel.set_circumstance("nonsense", True)
    assert "not offered" in panel.error
    panel.set_dice_mode("quantum")
    assert "quantum" in panel.error
    panel.set_distance(20)
    panel.resolve("x")
    assert "'x' is not a number a d100 can show" in panel.error


def test_an_empty_encounter_offers_nothing_and_refuses_politely():
    empty = AttackPanel(Encounter("wfrp2"))
    assert (empty.attackers, empty.actions, empty.targets) == ((), (), ())
    assert empty.resolve() is None
    assert "choose the attacker, weapon, action, target first" in empty.error
    empty.undo()
    assert "nothing to undo" in empty.error
    empty.close()


def test_the_controls_call_the_same_methods(panel: AttackPanel, fight: Encounter):
    panel.attacker_box.value = "elsa-wendt"
    assert panel.attacker == "elsa-wendt"
    panel.target_box.value = "ungor-snitch"
    panel.distance_box.value = "20"
    assert panel.distance == 20
    panel._circumstance_controls["aimed"].value = True
    assert panel.circumstances == {"aimed": True}
    panel.dice_box.value = "physical"
    panel.resolve_button.click()
    assert panel.prompt.startswith("BS test")
    # a box per die, before the first is typed: the BS test's d100, then what may follow
    assert [die.sides for die in panel.dice_entry.dice][:1] == [100]
    assert panel.dice_entry.more
    panel.dice_entry.enter("53")  # the browser sends the whole list as the boxes hold it
    assert panel.result is None
    assert panel.typed == ["53"]
    assert [die.sides for die in panel.dice_entry.dice] == [100, 10]  # the damage die now
    panel.dice_entry.enter("4")
    assert panel.typed == ["53", "4"]
    assert panel.result is not None
    assert str(step(panel, "Wounds").outcome) == "4 lost: 9 -> 5 (lightly wounded)"
    panel.apply_button.click()
    assert lost(fight, "ungor-snitch") == 4
    assert panel.dice_entry.values == ["53", "4"]  # shown with the result it gave
    panel.undo_button.click()
    assert lost(fight, "ungor-snitch") == 0
    panel.select_target(next(t for t in panel.targets if t != "ungor-snitch"))
    assert panel.dice_entry.values == []  # another choice: the boxes are empty again


def test_labels_follow_the_language(panel: AttackPanel):
    try:
        LANGUAGE.value = "es"
        assert panel.attacker_box.description == "Atacante"
        assert panel.resolve_button.description == "Resolver"
        assert panel.dice_box.options[1][0] == "Dados de la mesa"
    finally:
        LANGUAGE.value = "en"
    assert panel.attacker_box.description == "Attacker"


def test_the_panel_follows_the_encounter(panel: AttackPanel, fight: Encounter):
    assert "ungor-snitch" in panel.targets
    fight.remove("ungor-snitch")
    assert "ungor-snitch" not in panel.targets
    assert "ungor-snitch" not in panel.attackers


def test_a_secret_attack_is_kept_from_the_players(panel: AttackPanel, fight: Encounter):
    aim_the_bow(panel)
    panel.set_secret(True)
    panel.resolve("53 4")
    panel.apply()
    assert fight.effective_events[-1]["visibility"] == "gm"
    panel.set_seed("not a number")
    assert panel.error == "seed: 'not a number' is not a whole number"


def test_the_circumstances_are_one_line_until_the_gm_opens_them(panel: AttackPanel):
    panel.select_attacker("elsa-wendt")
    panel.select_target("ungor-snitch")  # a spear alone: no weapon in the other hand
    assert panel.circumstance_grid is None  # no control built for them yet
    assert "Circumstances</b>: none" in panel.circumstance_html.value
    panel.set_circumstance("aimed", True)
    assert "Aimed" in panel.circumstance_html.value
    panel.circumstance_button.value = True  # the toggle: edit_circumstances()
    assert panel.circumstances_open
    assert panel.circumstance_grid in panel.circumstance_box.children
    controls = panel.circumstance_controls
    assert list(controls) == [c.id for c in panel.circumstance_choices]
    assert controls["aimed"].value is True
    controls["aimed"].value = False  # a control calls set_circumstance
    assert panel.circumstances == {}
    assert "Circumstances</b>: none" in panel.circumstance_html.value
    panel.edit_circumstances(False)
    assert panel.circumstance_grid not in panel.circumstance_box.children
    panel.select_action("swift_attack")  # other circumstances: the controls built again
    assert panel.circumstance_grid is None
    assert "aimed" not in panel.circumstance_controls


def turn_order(fight: Encounter) -> list[str]:
    order = ["elsa-wendt", "gunther-brandauer", "brother-matthias", "gor-bloodhorn"]
    order += ["ungor-snitch", "bray-shaman-vhorlag"]
    for place, ident in enumerate(order):
        fight.set_initiative(ident, 20 - place)
    fight.start()
    return order


def test_the_attacker_can_follow_the_turn(fight: Encounter):
    order = turn_order(fight)
    panel = AttackPanel(fight, seed=7, follow_actor=True)
    try:
        fight.next_turn()
        assert panel.attacker == order[1]
        panel.select_target("ungor-snitch")
        assert panel.resolve() is not None
        fight.next_turn()  # as select_attacker: the new actor, the result cleared
        assert panel.attacker == order[2]
        assert panel.result is None
        fight.add_condition(order[0], "prone")  # the same turn: nothing followed
        assert panel.attacker == order[2]
        panel.undo()
        assert panel.attacker == order[2]
        panel.undo()  # the turn back to the sergeant's
        assert panel.attacker == order[1]
    finally:
        panel.close()


def test_what_the_rules_offer_is_worked_out_once_per_attacker(fight: Encounter, monkeypatch):
    from gmkit.systems import _choices as choices

    asked: list[str] = []
    real = choices.attack_choices

    def counted(game, sheet, *args, **kwargs):
        asked.append(sheet.name)
        return real(game, sheet, *args, **kwargs)

    monkeypatch.setattr(choices, "attack_choices", counted)
    order = turn_order(fight)
    panel = AttackPanel(fight, seed=7, follow_actor=True)
    try:
        for _ in order:
            fight.next_turn()
        first_lap = len(asked)
        assert first_lap >= len(order) - 1
        for _ in order:  # the turn comes round again: nothing asked again
            fight.next_turn()
        assert len(asked) == first_lap
        fight.add_condition(order[1], "stunned", rounds=1)
        fight.next_turn()  # the sergeant's conditions changed: asked again
        assert asked[-1] == fight.combatant(order[1]).name
    finally:
        panel.close()


def test_the_panel_offers_exactly_the_options_the_game_declares(panel: AttackPanel):
    from gmkit.games import game
    from gmkit.systems.options import offered_options

    declared = [info.name for info in offered_options(game("wfrp2").options)]
    assert list(panel.option_controls) == declared  # one control per offered option
    fury = panel.option_controls["ulrics_fury"]
    assert fury.value is True  # shown as in effect: the default
    fury.value = False  # the control calls set_option
    assert panel.form.options == {"ulrics_fury": False}
    assert panel.form.request is not None
    assert panel.form.request.options.ulrics_fury is False
    fury.value = True  # back to the default: the option is unset again
    assert panel.form.options == {}
    panel.set_option("ulric_fury", True)  # refused by the game's model, by name
    assert "option 'ulric_fury': unknown option (did you mean ulrics_fury?)" in panel.error
    LANGUAGE.value = "es"
    try:
        assert panel.option_controls["ulrics_fury"].description == "Furia de Ulric"
    finally:
        LANGUAGE.value = "en"


def test_keep_for_the_fight_pins_what_is_set_through_the_next_attacker(panel: AttackPanel):
    """Darkness for the whole fight: set it, Keep for the fight, and another attacker's attack
    still has it (marked pinned on the line); everything else set is cleared."""
    panel.select_attacker("elsa-wendt")
    panel.edit_circumstances(True)
    key = next(iter(panel._circumstance_controls))
    panel._circumstance_controls[key].value = True
    assert panel.form.circumstances == {key: True}
    keep = panel._circumstances.keep
    assert keep.layout.display == ""  # shown while the circumstances are open
    keep.value = True
    assert panel.form.pinned == {key: True}
    other = next(a for a in panel.attackers if a != "elsa-wendt")
    panel.select_attacker(other)
    assert panel.form.circumstances == {key: True}  # the GM's (a shield's are the sheet's)
    assert panel.circumstances[key] is True
    assert "\N{PUSHPIN}" in panel._circumstances.line.value
    assert keep.layout.display == "none"  # the editor folded for the new attacker
    panel.keep_for_the_fight(False)
    panel.select_attacker("elsa-wendt")
    assert panel.form.circumstances == {}
