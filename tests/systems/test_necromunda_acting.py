"""Necromunda's rules of the turn (gmkit/systems/necromunda/_acting.py, moves.py) through the
encounter: the movement actions with their allowances, what running, charging, pinned and down
forbid, how long a pin lasts, the pin escape and the recovery roll as rolls due (seed 000 and
the seed README's rulings)."""

from __future__ import annotations

import pytest

from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice
from gmkit.encounter import Condition, Encounter
from gmkit.errors import RulesError
from gmkit.systems.necromunda._acting import NecromundaTurns
from gmkit.systems.necromunda._state import Settings, state_from_encounter

SCAVVIES = "The Sump Scavvies"


@pytest.fixture
def fight() -> Encounter:
    """The demo gangs, the Scavvies playing first, in their movement phase."""
    roster = next(r for r in demo_campaign().rosters if r.game == "necromunda")
    scavvies = [s for s in roster.sheets if s.side == SCAVVIES]
    brethren = [s for s in roster.sheets if s.side != SCAVVIES]
    encounter = Encounter("necromunda")
    encounter.add_many([*scavvies, *brethren])
    encounter.start()
    return encounter


def to_phase(fight: Encounter, side: str, phase: str) -> None:
    for _ in range(12):
        if (fight.state.current_side, fight.phase) == (side, phase):
            return
        fight.next_turn()
    raise AssertionError(f"never reached {side} {phase}")


def texts(result) -> list[str]:
    return [str(step) for step in result.steps]


# --- 1. the movement actions ------------------------------------------------------------------


def test_the_actions_offered_with_their_budget_types():
    offered = {info.id: info.types for info in NecromundaTurns().actions()}
    assert offered == {
        "move": ("move",),
        "run": ("run",),
        "charge": ("charge",),
        "crawl": ("move",),
        "hide": ("move",),
    }


def test_a_move_is_up_to_m_and_difficult_ground_costs_double(fight):
    result = fight.act("rotgut", "move", inputs={"inches": 1, "difficult": 1.5})
    assert texts(result) == [
        'Move: move: up to 4" (M 4)',
        'Path: costs 4" of 4" (1.5" of difficult costs x2)',
    ]
    assert fight.combatant("rotgut").spent == {"move": 1}
    refused = 'Mange may not move: the path costs 5", more than the 4" allowed'
    with pytest.raises(RulesError, match=refused):
        fight.act("mange", "move", inputs={"inches": 3, "difficult": 1})


def test_a_run_doubles_m_marks_the_runner_and_the_shot_is_refused(fight):
    result = fight.act("rotgut", "run", inputs={"inches": 7})
    assert texts(result)[0] == 'Move: run: up to 8" (double M 4)'
    assert str(result.summary) == 'Rotgut runs 7"'
    assert fight.combatant("rotgut").conditions == {
        "run": Condition("run", 1, "start_of_turn")  # ends before its next turn
    }
    fight.next_turn()  # shooting
    permit = fight.may("rotgut", "shoot")
    assert "Rotgut is running this turn: no shooting" in str(permit.why)
    with pytest.raises(RulesError, match="no shooting in a turn the fighter ran or charged"):
        fight.attack("rotgut", "stub gun", "mordecai", EnteredDice([5]), distance=6)
    to_phase(fight, SCAVVIES, "movement")  # the next turn: the run is over
    assert "run" not in fight.combatant("rotgut").conditions


def test_a_run_stops_within_8_of_a_seen_enemy(fight):
    result = fight.act("rotgut", "run", inputs={"inches": 8, "stop_at": 3})
    assert str(result.summary) == 'Rotgut runs 3"'


def test_a_charge_is_double_m_at_its_target_and_engages_both(fight):
    result = fight.act("rotgut", "charge", target="mordecai", inputs={"inches": 6})
    assert texts(result)[0] == 'Charge: declared at Mordecai (up to 8" (double M 4))'
    assert str(result.summary) == "Rotgut charges Mordecai"
    assert set(fight.combatant("rotgut").conditions) == {"charging", "engaged"}
    assert set(fight.combatant("mordecai").conditions) == {"engaged"}
    fight.next_turn()
    assert "Rotgut is charging this turn: no shooting" in str(fight.may("rotgut", "shoot").why)


def test_a_charge_that_falls_short_does_nothing_else(fight):
    result = fight.act("rotgut", "charge", target="mordecai", inputs={"inches": 9})
    assert str(result.summary) == "Rotgut falls short charging Mordecai"
    assert "failed_charge" in fight.combatant("rotgut").conditions


def test_hiding_is_declared_with_a_move_or_instead_of_one(fight):
    fight.act("scabby-tom", "hide")
    assert "hidden" in fight.combatant("scabby-tom").conditions
    assert not fight.may_do("scabby-tom", "move").allowed  # hiding used its move
    fight.act("rotgut", "move", inputs={"inches": 2, "hide": True})
    assert "hidden" in fight.combatant("rotgut").conditions
    with pytest.raises(RulesError, match=r"Mange may not hide: .*sees it anyway"):
        fight.act("mange", "hide", inputs={"enemy_near": True})
    with pytest.raises(RulesError, match=r"Mange may not hide: .*where a person could hide"):
        fight.act("mange", "hide", inputs={"no_cover": True})


def test_running_or_moving_into_view_loses_hiding_and_a_runner_cannot_hide(fight):
    for ident in ("scabby-tom", "rotgut", "mange"):
        fight.add_condition(ident, "hidden")
    ran = fight.act("scabby-tom", "run", inputs={"inches": 8})
    assert texts(ran)[-1] == "Hidden: no longer hidden (it ran or charged)"
    assert "hidden" not in fight.combatant("scabby-tom").conditions
    fight.act("rotgut", "move", inputs={"inches": 4, "in_view": True})
    assert "hidden" not in fight.combatant("rotgut").conditions
    kept = fight.act("mange", "move", inputs={"inches": 4})
    assert texts(kept)[-1] == "Hidden: stays hidden"
    assert "hidden" in fight.combatant("mange").conditions


def test_movement_actions_belong_to_the_movement_phase(fight):
    fight.next_turn()  # shooting
    assert "belongs to the movement phase" in str(fight.may_do("rotgut", "move").why)


# --- 2. restrictions --------------------------------------------------------------------------


def test_a_down_fighter_may_only_crawl_2(fight):
    fight.add_condition("rotgut", "down")
    fight.add_condition("rotgut", "pinned")  # pinned before it went down: down counts
    refused = fight.may_do("rotgut", "move")
    assert 'Rotgut is down: it may only crawl 2"' in str(refused.why)
    assert not fight.may_do("rotgut", "run").allowed
    assert not fight.may_do("rotgut", "hide").allowed
    crawled = fight.act("rotgut", "crawl", inputs={"inches": 2})
    assert texts(crawled)[0] == 'Move: crawl: up to 2" (as if M were 2")'
    fight.add_condition("mange", "down")
    with pytest.raises(RulesError, match='Mange may not crawl: the path costs 3", more than'):
        fight.act("mange", "crawl", inputs={"inches": 3})
    with pytest.raises(RulesError, match="Grubnose the Scavvy Boss may not crawl: only down"):
        fight.act("grubnose-the-scavvy-boss", "crawl", inputs={"inches": 1})


def test_a_pinned_fighter_does_nothing(fight):
    fight.add_condition("rotgut", "pinned")
    for action in ("move", "run", "hide"):
        assert "Rotgut is pinned: no move, no shot this turn" in str(
            fight.may_do("rotgut", action).why
        )
    with pytest.raises(RulesError, match="Rotgut is pinned"):
        fight.spend("rotgut", "move")
    overridden = fight.act("rotgut", "move", inputs={"inches": 1}, override="the GM's call")
    assert str(overridden.summary) == 'Rotgut moves 1"'
    assert fight.effective_events[-1]["spent"]["override"] == "the GM's call"
    fight.next_turn()
    with pytest.raises(RulesError, match="Rotgut is pinned"):
        fight.attack("rotgut", "stub gun", "mordecai", EnteredDice([5]), distance=6, spend=True)


# --- 3. how long a pin lasts, and the escape roll --------------------------------------------


def test_a_shots_pin_lasts_through_the_targets_next_turn_and_ends_at_its_end(fight):
    to_phase(fight, SCAVVIES, "shooting")
    fight.attack("rotgut", "stub gun", "mordecai", EnteredDice([5, 1]), distance=6)  # no wound
    assert fight.combatant("mordecai").conditions == {
        "pinned": Condition("pinned", 1, "end_of_turn")
    }
    to_phase(fight, "The Ashen Brethren", "movement")
    assert "pinned" in fight.combatant("mordecai").conditions  # its whole turn
    assert not fight.may_do("mordecai", "move").allowed
    to_phase(fight, "The Ashen Brethren", "recovery")
    assert "pinned" in fight.combatant("mordecai").conditions
    fight.next_turn()  # the end of its turn: stands up
    assert "pinned" not in fight.combatant("mordecai").conditions


def test_the_escape_roll_is_an_optional_roll_due_at_the_start_of_the_pinned_turn(fight):
    to_phase(fight, SCAVVIES, "shooting")
    fight.attack("rotgut", "stub gun", "little-jeb", EnteredDice([5, 1]), distance=6)
    fight.attack(
        "grubnose-the-scavvy-boss",
        "shotgun (solid slug)",
        "mordecai",
        EnteredDice([5, 1]),
        distance=10,
    )
    to_phase(fight, "The Ashen Brethren", "movement")
    dues = {(due.bearer, due.rule, due.optional) for due in fight.due}
    assert dues == {("little-jeb", "pin_escape", True), ("mordecai", "pin_escape", True)}
    jeb = next(i for i, due in enumerate(fight.due) if due.bearer == "little-jeb")
    assert str(fight.due[jeb].text) == (
        'pinned: with a friend within 2" neither pinned nor down, a D6 of 3 or less escapes '
        "(dismiss it when no friend is near)"
    )
    escaped = fight.roll_due(jeb, EnteredDice([3]))  # I 3: 3 escapes
    assert texts(escaped) == [
        "Pin escape: escapes the pin: acts normally (3 against I 3: at or under escapes)"
    ]
    assert "pinned" not in fight.combatant("little-jeb").conditions
    assert fight.may_do("little-jeb", "move").allowed
    mordecai = next(i for i, due in enumerate(fight.due) if due.bearer == "mordecai")
    stays = fight.roll_due(mordecai, EnteredDice([4]))  # I 3: 4 fails
    assert str(stays.summary) == "Mordecai stays pinned"
    assert "pinned" in fight.combatant("mordecai").conditions


def test_the_escape_roll_follows_its_setting():
    off = NecromundaTurns(Settings(pin_escape=False))
    roster = next(r for r in demo_campaign().rosters if r.game == "necromunda")
    from gmkit.systems.acting import Bearer
    from gmkit.systems.base import Standing

    pinned = Bearer(roster.sheets[0], Standing.of(["pinned"], {}, {}))
    assert off.turn_rolls("start_of_turn", pinned) == ()
    assert [due.rule for due in NecromundaTurns().turn_rolls("start_of_turn", pinned)] == [
        "pin_escape"
    ]
    assert Settings.packaged().pin_escape is True  # settings.yaml: on by default


# --- 4. the recovery phase --------------------------------------------------------------------


def test_each_down_fighter_of_the_side_rolls_to_recover_in_its_recovery_phase(fight):
    for ident in ("scabby-tom", "rotgut", "mange"):
        fight.add_condition(ident, "down")
    fight.add_condition("mordecai", "down")  # the other side: not in the Scavvies' phase
    to_phase(fight, SCAVVIES, "recovery")
    assert [(due.bearer, due.rule) for due in fight.due] == [
        ("scabby-tom", "recovery_roll"),
        ("rotgut", "recovery_roll"),
        ("mange", "recovery_roll"),
    ]
    assert str(fight.due[0].text) == (
        "down: the recovery roll (D6 on the recovery table)"  # shown after the fighter's name
    )
    recovered = fight.roll_due(0, EnteredDice([1]))
    assert str(recovered.summary) == "Scabby Tom's recovery roll: recovers with a flesh wound"
    tom = fight.combatant("scabby-tom")
    assert tom.sheet.flesh_wounds == 1
    assert tom.conditions == {"pinned": Condition("pinned", 2, "start_of_turn")}
    stays = fight.roll_due(0, EnteredDice([3]))  # the list shrinks: Rotgut is next
    assert str(stays.summary) == "Rotgut's recovery roll: stays down"
    assert "down" in fight.combatant("rotgut").conditions
    fight.roll_due(0, EnteredDice([6]))
    assert "out of action" in fight.combatant("mange").conditions
    # the recovered fighter is pinned through its next turn, and stands up at its end
    to_phase(fight, SCAVVIES, "movement")
    assert [due.rule for due in fight.due if due.bearer == "scabby-tom"] == ["pin_escape"]
    assert "Scabby Tom is pinned" in str(fight.may_do("scabby-tom", "move").why)
    to_phase(fight, SCAVVIES, "recovery")
    assert "pinned" in fight.combatant("scabby-tom").conditions
    fight.next_turn()
    fight.next_turn()  # the Brethren's shooting: Tom still shown pinned, stands up...
    to_phase(fight, SCAVVIES, "movement")  # ...before his side's next turn
    assert "pinned" not in fight.combatant("scabby-tom").conditions


def test_state_from_the_encounter_reads_how_the_fighter_moved(fight):
    tom = fight.combatant("scabby-tom").sheet
    assert state_from_encounter(tom, ["run"]).moved == "run"
    assert state_from_encounter(tom, ["charging", "engaged"]).moved == "charge"
    assert state_from_encounter(tom, ["hidden"]).moved is None
