"""The rolls a 40k turn asks for (gmkit.systems._imperial.acting_dues), listed by the encounter
at each turn change and rolled with the table's typed dice: on fire, blood loss, pinning."""

from __future__ import annotations

from gmkit.dice import EnteredDice
from gmkit.messages import render
from gmkit.systems._imperial.acting import DARK_HERESY, DEATHWATCH
from gmkit.systems.acting import Bearer
from gmkit.systems.base import Standing


def dues(fight) -> list[tuple[str, str, bool]]:
    return [(due.bearer, due.rule, due.optional) for due in fight.due]


def test_a_pinned_acolyte_tests_willpower_at_the_start_of_its_turn(fight_of) -> None:
    fight = fight_of("dark_heresy", "Cultist Lorn", "Sergeant Varro Tull")
    fight.add_condition("sergeant-varro-tull", "pinned")
    fight.next_turn()
    assert dues(fight) == [
        ("sergeant-varro-tull", "pinned.start_of_turn", False),
        ("sergeant-varro-tull", "pinned.start_of_turn.bonus", True),
    ]
    assert render(fight.due[1].text) == (
        "Pinned: Willpower test to recover (+30 if no longer shot at or threatened), at +30"
    )
    assert fight.due[0].dice == (100,)
    failed = fight.roll_due(0, EnteredDice([31]))  # WP 30
    assert str(failed.steps[0]).startswith("Pinned: failed (WP 30 +0 = 30")
    assert "pinned" in fight.combatant("sergeant-varro-tull").conditions
    fight.undo()
    easier = fight.roll_due(1, EnteredDice([60]))  # the GM's call: nobody shoots at him now
    assert str(easier.steps[0]).startswith(
        "Pinned: passed: no longer pinned (WP 30 +30 = 60 [Easier case +30]"
    )
    assert "pinned" not in fight.combatant("sergeant-varro-tull").conditions
    fight.dismiss_due(0)
    assert fight.due == ()


def test_a_pinned_marine_tests_at_the_end_of_its_turn(fight_of) -> None:
    fight = fight_of("deathwatch", "Brother Castor", "Nob Gritfang")
    fight.add_condition("brother-castor", "pinned")
    assert dues(fight) == []  # nothing at the start of his turn
    fight.next_turn()
    assert dues(fight) == [
        ("brother-castor", "pinned.end_of_turn", False),
        ("brother-castor", "pinned.end_of_turn.bonus", True),
    ]
    fight.roll_due(0, EnteredDice([42]))  # WP 42
    assert "pinned" not in fight.combatant("brother-castor").conditions


def test_on_fire_asks_willpower_at_the_start_of_the_turn_and_burns_at_the_rounds_end(
    fight_of,
) -> None:
    fight = fight_of("dark_heresy", "Cultist Lorn", "Jessa Kell")
    fight.add_condition("jessa-kell", "on_fire")
    fight.next_turn()
    assert dues(fight) == [("jessa-kell", "on_fire.start_of_turn", False)]
    failed = fight.roll_due(0, EnteredDice([32]))  # WP 31
    assert str(failed.steps[0]).startswith("On fire: failed (WP 31 +0 = 31")
    assert "runs screaming" in str(failed.steps[0])
    fight.next_turn()  # the round ends
    assert dues(fight) == [("jessa-kell", "on_fire.end_of_round", False)]
    assert fight.due[0].dice == (10,)
    burnt = fight.roll_due(0, EnteredDice([7]))
    assert str(burnt.steps[0]) == (
        "On fire: 4 Energy damage (7 rolled - AP 0 - TB 3 = 4; 1 level of fatigue)"
    )
    assert [(e.kind, e.amount, e.location, e.damage_type) for e in burnt.effects] == [
        ("damage", 4, "body", "Energy"),
        ("fatigue", 1, None, None),
    ]
    jessa = fight.combatant("jessa-kell").sheet
    assert (jessa.damage, jessa.fatigue) == (4, 1)  # type: ignore[attr-defined]
    assert burnt.steps[0].render("es") == (
        "En llamas: 4 de daño de energía (7 en la tirada - PA 0 - BR 3 = 4; 1 nivel de fatiga)"
    )


def test_fatigue_weighs_on_the_willpower_test(fight_of) -> None:
    fight = fight_of("dark_heresy", "Cultist Lorn", "Jessa Kell")
    fight.add_condition("jessa-kell", "on_fire")
    fight.next_turn()
    fight.next_turn()
    fight.roll_due(0, EnteredDice([1]))  # burnt: a level of fatigue
    fight.next_turn()  # Jessa's turn
    passed = fight.roll_due(0, EnteredDice([21]))  # WP 31 - 10 = 21
    assert str(passed.steps[0]).startswith("On fire: passed (WP 31 -10 = 21 [Fatigued -10]")


def test_blood_loss_kills_on_10_or_less_at_the_end_of_the_round(fight_of) -> None:
    fight = fight_of("dark_heresy", "Cultist Lorn", "Jessa Kell")
    fight.add_condition("cultist-lorn", "blood_loss")
    fight.next_turn()
    fight.next_turn()
    assert dues(fight)[0] == ("cultist-lorn", "blood_loss.end_of_round", False)
    spared = fight.roll_due(0, EnteredDice([11]))
    assert str(spared.steps[0]) == "Blood loss: spared (rolled 11 against 10%)"
    assert "dead" not in fight.combatant("cultist-lorn").conditions
    fight.undo()
    died = fight.roll_due(0, EnteredDice([10]))
    assert str(died.steps[0]) == "Blood loss: dead (rolled 10 against 10%)"
    assert "dead" in fight.combatant("cultist-lorn").conditions
    fight.next_turn()
    assert fight.state.current.id == "jessa-kell"  # Next passes over the dead


def test_the_medicine_test_is_no_roll_due_and_other_moments_ask_nothing(demo_sheet) -> None:
    sheet = demo_sheet("deathwatch", "Brother Castor")
    bearer = Bearer(sheet, Standing.of(["blood_loss", "on_fire", "stunned"]))
    assert [due.rule for due in DEATHWATCH.turn_rolls("start_of_turn", bearer)] == [
        "on_fire.start_of_turn"
    ]
    assert DEATHWATCH.turn_rolls("start_of_phase", bearer) == ()
    assert DARK_HERESY.turn_rolls("end_of_turn", Bearer(sheet, Standing.of(["pinned"]))) == ()


def test_a_marine_on_fire_in_sealed_armour_passes_willpower_without_a_die(fight_of) -> None:
    """004: in completely sealed armour the Willpower test to act is passed automatically (issue
    21, item 5): the roll due says so, and rolling it takes no die (a 99 typed is not read)."""
    fight = fight_of("deathwatch", "Nob Gritfang", "Brother Castor")
    castor = fight.combatant("brother-castor").sheet
    assert castor.in_sealed_armour  # type: ignore[attr-defined]  # Astartes power armour
    fight.add_condition("brother-castor", "on_fire")
    fight.next_turn()  # Castor's turn begins
    assert dues(fight) == [("brother-castor", "on_fire.start_of_turn", False)]
    assert render(fight.due[0].text) == (
        "On fire: test passed without a die (sealed armour); nothing to roll"
    )
    assert render(fight.due[0].text, "es") == (
        "En llamas: tirada superada sin dado (armadura sellada); no hay nada que tirar"
    )
    passed = fight.roll_due(0, EnteredDice([99]))
    assert passed.rolls == ()
    assert str(passed.steps[0]).startswith("On fire: passed without a die: sealed armour")
    spanish = passed.steps[0].render("es")
    assert spanish.startswith("En llamas: superada sin tirar dado: armadura sellada")
    assert str(passed.summary) == "Brother Castor: passed without a die: sealed armour"
    logged = fight.log_frame("es").iloc[-1]
    assert (logged["kind"], logged["rolls"]) == ("due_rolled", "")
    assert logged["outcome"] == "Brother Castor: superada sin tirar dado: armadura sellada"
    assert "on_fire" in fight.combatant("brother-castor").conditions  # it still burns


def test_what_counts_as_sealed_is_the_armour_worn_or_the_gms_word(fight_of, demo_sheet) -> None:
    castor = demo_sheet("deathwatch", "Brother Castor")
    [armour] = castor.armour  # type: ignore[attr-defined]
    assert armour.sealed  # the catalog's power armour is sealed
    opened = castor.edit(sealed_armour=False)  # the GM: his helmet is off
    bearer = Bearer(opened, Standing.of(["on_fire"]))
    [due] = DEATHWATCH.turn_rolls("start_of_turn", bearer)
    assert render(due.text).startswith("On fire: Willpower test to act normally")
    failed = DEATHWATCH.roll_due(due, bearer, EnteredDice([99]))
    assert str(failed.steps[0]).startswith("On fire: failed (WP 42 +0 = 42")
    nob = demo_sheet("deathwatch", "Nob Gritfang")
    assert not nob.in_sealed_armour  # type: ignore[attr-defined]  # ork flak
    sealed = nob.edit(sealed_armour=True)  # a stat block the GM marks sealed
    sealed_bearer = Bearer(sealed, Standing.of(["on_fire"]))
    assert DEATHWATCH.roll_due(due, sealed_bearer, EnteredDice([])).rolls == ()
    acolyte = demo_sheet("dark_heresy", "Jessa Kell").edit(
        armour=[{"name": "Void suit", "kind": "other", "sealed": True, "points": {"all": 1}}]
    )
    [dh_due] = DARK_HERESY.turn_rolls("start_of_turn", Bearer(acolyte, Standing.of(["on_fire"])))
    assert render(dh_due.text).startswith("On fire: test passed without a die (sealed armour)")
