"""Conditions that count down at the start or end of the bearer's turn or at the end of the
round, with reminders after each turn change; declared triggers (overwatch) that fire, are
cancelled or expire at the end of their round; effects applied by hand."""

from __future__ import annotations

import pytest

from gmkit.encounter import Condition, Encounter, Trigger
from gmkit.systems.base import Effect

ON_FIRE = "on fire: 1d10 damage, WP test to act"


def three(sheet) -> tuple[Encounter, str, str, str]:
    """Ilse (30), Tull (20), Ban (10) in Dark Heresy; round 1, Ilse's turn."""
    fight = Encounter("dark_heresy")
    a, b, c = (
        fight.add(sheet("dark_heresy", name))
        for name in ("Ilse Marr", "Sergeant Varro Tull", "Cultist Ban")
    )
    for ident, score in ((a, 30), (b, 20), (c, 10)):
        fight.set_initiative(ident, score)
    fight.start()
    return fight, a, b, c


def test_end_of_turn_conditions_tick_when_the_bearer_ends_a_turn(sheet):
    fight, _ilse, tull, ban = three(sheet)
    fight.add_condition(tull, "on fire", rounds=2, reminder=ON_FIRE)
    assert fight.state.combatant(tull).conditions["on fire"] == Condition(
        "on fire", 2, "end_of_turn", ON_FIRE
    )
    fight.next_turn()  # Ilse's turn ends, Tull's begins
    assert fight.state.reminder_texts() == ()
    fight.next_turn()  # Tull's turn ends
    assert fight.state.reminder_texts() == (f"Sergeant Varro Tull: {ON_FIRE}",)
    assert fight.state.combatant(tull).conditions["on fire"].rounds == 1
    fight.spend(ban, "half")  # reminders stay until the next turn change
    assert fight.state.reminder_texts() == (f"Sergeant Varro Tull: {ON_FIRE}",)
    fight.next_turn()  # round 2, Ilse
    assert fight.state.reminder_texts() == ()
    fight.next_turn()
    fight.next_turn()  # Tull's second turn ends
    assert fight.state.reminder_texts() == (
        f"Sergeant Varro Tull: {ON_FIRE}",
        "Sergeant Varro Tull: on fire ends",
    )
    assert "on fire" not in fight.state.combatant(tull).conditions


def test_start_of_turn_conditions_tick_when_the_bearer_begins_a_turn(sheet):
    fight, _ilse, _tull, ban = three(sheet)
    fight.add_condition(ban, "stunned", rounds=1, ticks="start_of_turn", reminder="no actions")
    fight.next_turn()
    assert fight.state.reminder_texts() == ()
    assert fight.state.combatant(ban).conditions["stunned"].rounds == 1
    fight.next_turn()  # Ban's turn begins
    assert fight.state.reminder_texts() == ("Cultist Ban: no actions", "Cultist Ban: Stunned ends")
    assert fight.state.combatant(ban).conditions == {}


def test_end_of_round_conditions_tick_for_everyone_when_the_round_ends(sheet):
    fight, ilse, _tull, ban = three(sheet)
    fight.add_condition(ilse, "blessed", rounds=2, ticks="end_of_round", reminder="+10 WP")
    fight.add_condition(ban, "pinned", ticks="end_of_round", reminder="WP test to recover")
    fight.next_turn()
    fight.next_turn()
    assert fight.state.reminder_texts() == ()
    fight.next_turn()  # round 1 ends
    assert fight.state.round == 2
    assert fight.state.reminder_texts() == ("Ilse Marr: +10 WP", "Cultist Ban: WP test to recover")
    for _ in range(3):
        fight.next_turn()
    assert fight.state.reminder_texts() == (
        "Ilse Marr: +10 WP",
        "Ilse Marr: blessed ends",
        "Cultist Ban: WP test to recover",
    )
    assert fight.state.combatant(ban).conditions["pinned"].rounds is None  # until removed
    fight.remove_condition("Cultist Ban", "pinned")
    assert fight.state.combatant(ban).conditions == {}


def test_reminders_of_one_turn_change_come_in_order(sheet):
    fight, ilse, tull, ban = three(sheet)
    fight.next_turn()
    fight.next_turn()  # Ban's turn
    fight.add_condition(ban, "bleeding", rounds=3, reminder="1 wound")
    fight.add_condition(tull, "fatigued", ticks="end_of_round", reminder="-10 to all tests")
    fight.add_condition(ilse, "aiming", rounds=1, ticks="start_of_turn", reminder="+10 BS")
    fight.next_turn()
    assert fight.state.reminder_texts() == (
        "Cultist Ban: 1 wound",  # end of Ban's turn
        "Sergeant Varro Tull: -10 to all tests",  # end of the round
        "Ilse Marr: +10 BS",  # start of Ilse's turn
        "Ilse Marr: aiming ends",
    )


def test_a_condition_that_never_ticks_stays(sheet):
    fight, ilse, *_ = three(sheet)
    fight.add_condition(ilse, "jammed: Laspistol", rounds=2, ticks="never")
    for _ in range(9):
        fight.next_turn()
    assert fight.state.combatant(ilse).conditions["jammed: Laspistol"].rounds == 2
    assert fight.state.reminder_texts() == ()


def test_bad_conditions_are_refused(sheet, refused):
    fight, ilse, *_ = three(sheet)
    refused(fight, lambda: fight.add_condition(ilse, "stunned", rounds=0), "rounds: must be 1")
    refused(
        fight,
        lambda: fight.add_condition(ilse, "stunned", ticks="sometimes"),  # type: ignore[arg-type]
        "add_condition: the argument ticks: 'sometimes' is not one of 'start_of_turn', "
        "'end_of_turn', 'end_of_round', 'never'",
    )
    refused(fight, lambda: fight.add_condition(ilse, "  "), "condition: the name is blank")
    refused(fight, lambda: fight.remove_condition(ilse, "prone"), "Ilse Marr is not Prone")
    refused(fight, lambda: fight.add_condition("nobody", "prone"), "no one called 'nobody'")


def test_undo_puts_a_ticked_condition_back_exactly(sheet):
    fight, ilse, _tull, _ = three(sheet)
    fight.add_condition(ilse, "on fire", rounds=1, reminder=ON_FIRE)
    before = fight.state
    fight.next_turn()
    assert "on fire" not in fight.state.combatant(ilse).conditions
    assert fight.undo() == before
    assert fight.state.combatant(ilse).conditions["on fire"].rounds == 1


def test_sides_games_tick_at_their_side_s_turn_and_round(sheet):
    fight = Encounter("necromunda")
    kael = fight.add(sheet("necromunda", "Brother Kael"))
    tom = fight.add(sheet("necromunda", "Scabby Tom"))
    fight.add_condition(kael, "pinned", rounds=1, reminder="test to recover")
    fight.add_condition(tom, "down", rounds=2, ticks="start_of_turn", reminder="roll to recover")
    fight.add_condition(tom, "smoke", rounds=1, ticks="end_of_round")
    fight.start()
    assert fight.state.reminder_texts() == ()
    for _ in range(3):
        fight.next_turn()
    assert fight.state.reminder_texts() == ()  # phases change, the turn goes on
    fight.next_turn()  # the Brethren's turn ends, the Scavvies' begins
    assert fight.state.reminder_texts() == (
        "Brother Kael: test to recover",
        "Brother Kael: pinned ends",
        "Scabby Tom: roll to recover",
    )
    assert fight.state.combatant(tom).conditions["down"].rounds == 1
    for _ in range(4):
        fight.next_turn()  # the round ends
    assert fight.state.round == 2
    assert fight.state.reminder_texts() == ("Scabby Tom: smoke ends",)


# --- triggers ----------------------------------------------------------------------------


def test_a_trigger_waits_until_the_end_of_its_round(sheet, refused):
    fight, _ilse, tull, _ban = three(sheet)
    fight.next_turn()
    fight.spend(tull, "full", action="overwatch")
    fight.declare_trigger(tull, "overwatch", "the chapel door, full auto")
    assert fight.state.triggers == (
        Trigger(tull, "overwatch", "the chapel door, full auto", expires_round=2),
    )
    for _ in range(2):
        fight.next_turn()
    assert fight.state.round == 2
    assert len(fight.state.triggers) == 1
    fight.next_turn()
    assert fight.state.current.id == tull  # the GM fires or cancels it by hand
    assert len(fight.state.triggers) == 1
    fight.next_turn()
    fight.next_turn()  # round 2 ends
    assert fight.state.round == 3
    assert fight.state.triggers == ()
    assert fight.state.reminder_texts() == ("Sergeant Varro Tull: overwatch expires",)
    fight.undo()
    assert len(fight.state.triggers) == 1


def test_triggers_fire_or_are_cancelled(sheet, refused):
    fight, ilse, _tull, ban = three(sheet)
    fight.declare_trigger(ilse, "ready", "shoot whoever opens the door", rounds=None)
    fight.declare_trigger(ban, "overwatch", rounds=2)
    assert [t.expires_round for t in fight.state.triggers] == [None, 3]
    fight.fire_trigger(1)
    assert fight.effective_events[-1]["outcome"] == "fired"
    assert [t.owner for t in fight.state.triggers] == [ilse]
    refused(fight, lambda: fight.cancel_trigger(1), "trigger: there is no trigger 1")
    for _ in range(12):
        fight.next_turn()
    assert [t.kind for t in fight.state.triggers] == ["ready"]  # no expiry
    fight.cancel_trigger(0)
    assert fight.effective_events[-1]["outcome"] == "cancelled"
    assert fight.state.triggers == ()
    refused(fight, lambda: fight.declare_trigger(ilse, "overwatch", rounds=0), "rounds: must be")
    refused(fight, lambda: fight.declare_trigger(ilse, " "), "kind of trigger is blank")


def test_a_trigger_declared_before_the_start_lasts_the_first_round(sheet):
    fight = Encounter("necromunda")
    kael = fight.add(sheet("necromunda", "Brother Kael"))
    fight.add(sheet("necromunda", "Rotgut"))
    fight.declare_trigger(kael, "overwatch", "the pipes")
    fight.start()
    for _ in range(7):
        fight.next_turn()
    assert len(fight.state.triggers) == 1
    fight.next_turn()
    assert fight.state.round == 2
    assert fight.state.triggers == ()
    assert fight.state.reminder_texts() == ("Brother Kael: overwatch expires",)


def test_ready_records_the_readied_action(sheet):
    fight, ilse, *_ = three(sheet)
    fight.ready(ilse, "sword")
    assert fight.state.combatant(ilse).readied == "sword"


# --- effects by hand ---------------------------------------------------------------------


def test_generic_effects_apply_without_the_rules(sheet, refused):
    fight, ilse, tull, ban = three(sheet)
    fight.apply_effects(
        [
            Effect("condition", "Cultist Ban", condition="pinned", rounds=2),
            Effect("ammo", "Sergeant Varro Tull", amount=3, weapon="Lasgun"),
            Effect("ammo", tull, amount=1, weapon="Lasgun"),
            Effect("jam", "Sergeant Varro Tull", weapon="Lasgun"),
            Effect("reaction", "Cultist Ban", condition="reaction"),
            Effect("cover", "Cultist Ban", amount=1, location="pew"),
            Effect("note", "Ilse Marr", note="the GM decides"),
        ],
        note="Tull's burst",
    )
    state = fight.state
    assert state.combatant(ban).conditions == {"pinned": Condition("pinned", 2, "end_of_turn")}
    assert state.combatant(ban).reactions == {"reaction": 1}
    assert state.combatant(ban).counters == {"cover lost: pew": 1}
    assert state.combatant(tull).counters == {"ammo spent: Lasgun": 4}
    assert state.combatant(tull).conditions == {
        "jammed: Lasgun": Condition("jammed: Lasgun", None, "never")
    }
    assert state.combatant(ilse) == fight.undo().combatant(ilse)
    assert fight.state.combatant(ban).conditions == {}  # one command, one undo
    fight.redo()
    refused(fight, lambda: fight.react(ban, "dodge"), "Cultist Ban has no reaction left")
    fight.apply_effects([Effect("remove_condition", "Cultist Ban", condition="pinned")])
    assert fight.state.combatant(ban).conditions == {}
    refused(
        fight,
        lambda: fight.apply_effects([Effect("ammo", "Nobody", amount=1, weapon="Lasgun")]),
        "no one called 'Nobody'",
    )


@pytest.mark.parametrize("kind", ["condition", "jam", "ammo"])
def test_generic_effects_apply_in_every_game(kind, demo_sheets):
    for game, sheets in demo_sheets.items():
        fight = Encounter(game)
        ident = fight.add(sheets[0])
        fight.apply_effects([Effect(kind, ident, amount=2, weapon="gun", condition="prone")])
        combatant = fight.state.combatant(ident)
        expected = {
            "condition": ({"prone"}, {}),
            "jam": ({"jammed: gun"}, {}),
            "ammo": (set(), {"ammo spent: gun": 2}),
        }[kind]
        assert (set(combatant.conditions), dict(combatant.counters)) == expected, game
