"""The rules of the turn beyond attacks, through the toy game Duel's ``acting``
(tests/plugins/gmkit-duel): restrictions the encounter's permits read, non-attack actions as one
event each, and the rolls a turn change asks for. Nothing in gmkit names the game."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter, event_text
from gmkit.errors import RulesError
from gmkit.store import CampaignStore


@pytest.fixture
def fight(duel) -> Encounter:
    encounter = Encounter("duel")
    encounter.add(duel.Duellist.build(name="Inigo", side="Montoya", skill=8), ident="inigo")
    encounter.add(duel.Duellist.build(name="Rugen", side="Rugen", skill=6), ident="rugen")
    encounter.start()
    return encounter


def test_an_action_is_one_event_that_spends_applies_and_undoes(fight):
    assert [info.id for info in fight.actions()] == ["salute", "feint", "pick_up"]
    result = fight.act("inigo", "feint", EnteredDice([5]), target="rugen", inputs={"side": "right"})
    assert str(result.steps[0]) == "Feint: fooled (5 against 4, to the right)"
    event = fight.effective_events[-1]
    assert (event["kind"], event["action"], event["type"]) == ("action", "feint", "strike")
    assert event["inputs"] == {"side": "right"}
    assert fight.state.combatant("inigo").spent == {"strikes": 1}
    assert "off guard" in fight.state.combatant("rugen").conditions
    assert [roll["value"] for roll in event["rolls"]] == [5]
    refused = fight.may_do("inigo", "feint")
    assert not refused.allowed
    assert str(refused.why) == "Inigo has 0 left this turn (strikes); the strike action needs 1"
    fight.undo()  # the action, its spending and its effect: one command
    assert fight.state.combatant("inigo").spent == {}
    assert "off guard" not in fight.state.combatant("rugen").conditions


def test_a_failed_feint_changes_nothing_but_the_budget(fight):
    fight.act("inigo", "feint", EnteredDice([3]), target="rugen")
    assert "off guard" not in fight.state.combatant("rugen").conditions
    assert fight.state.combatant("inigo").spent == {"strikes": 1}


def test_a_free_action_spends_nothing_and_the_log_names_it(fight):
    fight.act("inigo", "salute")
    assert fight.state.combatant("inigo").spent == {}
    assert event_text(fight.effective_events[-1]) == "Inigo salutes"  # its summary


def test_restrictions_refuse_with_the_conditions_reason_and_the_gm_may_override(fight):
    fight.add_condition("inigo", "stunned", rounds=1)
    refused = fight.may_do("inigo", "salute")  # no action of any kind, free ones included
    assert "Inigo is stunned" in str(refused.why)
    with pytest.raises(RulesError, match="Inigo is stunned"):
        fight.act("inigo", "salute")
    before = len(fight.effective_events)
    with pytest.raises(RulesError, match="Inigo is stunned"):
        fight.spend("inigo", "strike")
    assert len(fight.effective_events) == before  # nothing recorded
    fight.act("inigo", "salute", override="the GM allows it")
    event = fight.effective_events[-1]
    assert event["spent"]["override"] == "the GM allows it"


def test_a_restriction_to_named_actions_allows_only_those(fight):
    fight.add_condition("inigo", "disarmed")
    assert "picks up the sword first" in str(fight.may_do("inigo", "feint").why)
    assert fight.may_do("inigo", "pick_up").allowed
    fight.act("inigo", "pick_up")
    assert "disarmed" not in fight.state.combatant("inigo").conditions


def test_unknown_actions_inputs_and_missing_targets_are_refused_by_name(fight):
    with pytest.raises(RulesError, match=r"'fient'.*feint"):
        fight.act("inigo", "fient")
    with pytest.raises(RulesError, match=r"'sde'.*side"):
        fight.act("inigo", "feint", EnteredDice([5]), target="rugen", inputs={"sde": "left"})
    with pytest.raises(RulesError, match=r"'up'.*left, right"):
        fight.act("inigo", "feint", EnteredDice([5]), target="rugen", inputs={"side": "up"})
    with pytest.raises(RulesError, match=r"Feint.*target"):
        fight.act("inigo", "feint", EnteredDice([5]))
    with pytest.raises(RulesError, match="'half'"):
        fight.act("inigo", "salute", as_type="half")
    assert fight.state.combatant("inigo").spent == {}


def test_a_turn_change_lists_the_rolls_due_and_they_are_rolled_or_dismissed(fight):
    fight.add_condition("inigo", "bleeding")
    fight.next_turn()  # Montoya's turn ends: Inigo bleeds
    assert [(due.rule, due.bearer, due.dice) for due in fight.due] == [("bleeding", "inigo", (6,))]
    assert "Inigo bleeds" in str(fight.due[0].text)
    result = fight.roll_due(0, EnteredDice([2]))
    assert str(result.steps[0]) == "Bleeding: a wound lost"
    assert fight.due == ()
    assert fight.state.combatant("inigo").counters == {"damage": 1}
    fight.undo()  # the roll, back on the list
    assert [due.rule for due in fight.due] == ["bleeding"]
    fight.dismiss_due(0, "bandaged")
    assert fight.due == ()
    assert fight.state.combatant("inigo").counters == {}
    with pytest.raises(RulesError, match="no roll due at position 0"):
        fight.roll_due(0, EnteredDice([1]))
    fight.next_turn()  # Rugen's turn ends: nothing due (Rugen does not bleed)
    assert fight.due == ()


def test_rolls_due_survive_the_campaign_file(duel, tmp_path):
    path = tmp_path / "duel.gmkit"
    with CampaignStore(path, create=True) as store:
        fight = Encounter.create(store, "Cliffs", "duel")
        fight.add(duel.Duellist.build(name="Inigo", side="Montoya"), ident="inigo")
        fight.add(duel.Duellist.build(name="Rugen", side="Rugen"), ident="rugen")
        fight.start()
        fight.add_condition("inigo", "bleeding")
        fight.next_turn()
        due = fight.due
    with CampaignStore(path) as store:
        again = Encounter.open(store, "Cliffs")
        assert again.due == due
        again.roll_due(0, EnteredDice([6]))
        assert again.state.combatant("inigo").counters == {}
        assert again.due == ()
