"""Necromunda wounds and injuries: injury rolls, flesh wounds, down, out of action, recovery."""

from __future__ import annotations

import pytest
import yaml

from gmkit.dice import EnteredDice
from gmkit.errors import RulesError
from gmkit.sheets._necromunda import HIGH_IMPACT, NecromundaFighter
from gmkit.systems._tables import table
from gmkit.systems.necromunda import (
    FighterState,
    injury_rolls,
    injury_table,
    is_high_impact,
    recovery_phase,
    recovery_roll,
    recovery_table,
    resolve_wounds,
)

GANGER = NecromundaFighter.build(name="Tom")
LEADER = NecromundaFighter.build(name="Kael", W=2, WS=4, BS=4)


@pytest.fixture
def fresh_tables():
    table.cache_clear()
    yield
    table.cache_clear()


def test_the_injury_tables():
    assert injury_table() == {
        1: "flesh wound",
        2: "down",
        3: "down",
        4: "down",
        5: "down",
        6: "out of action",
    }
    high = injury_table(high_impact=True)
    assert [high[face] for face in (1, 4, 5, 6)] == [
        "flesh wound",
        "down",
        "out of action",
        "out of action",
    ]
    assert recovery_table() == injury_table()


def test_high_impact_is_strength_seven_or_more_as_on_the_sheet():
    assert HIGH_IMPACT == 7
    assert (is_high_impact(6), is_high_impact(7), is_high_impact(10)) == (False, True, True)


@pytest.mark.parametrize(
    ("wounds", "left", "rolls"),
    [(1, 1, 1), (3, 1, 3), (4, 1, 4), (1, 2, 0), (2, 2, 1), (3, 2, 2), (1, 0, 1), (2, 0, 2)],
)
def test_one_injury_roll_per_wound_from_the_one_that_takes_it_to_zero(wounds, left, rolls):
    assert injury_rolls(wounds, left) == rolls


@pytest.mark.parametrize(
    ("die", "result"),
    [(1, "flesh wound"), (2, "down"), (5, "down"), (6, "out of action")],
)
def test_a_single_injury_roll(die, result):
    source = EnteredDice([die])
    outcome = resolve_wounds(GANGER, FighterState(), 1, source)
    assert outcome.results == (result,)
    assert outcome.effects[0].kind == "damage"
    assert outcome.effects[0].amount == 1
    assert outcome.state.wounds_left == 0
    assert outcome.state.down is (result == "down")
    assert outcome.state.out_of_action is (result == "out of action")


@pytest.mark.parametrize(("die", "result"), [(4, "down"), (5, "out of action")])
def test_a_high_impact_injury_roll(die, result):
    outcome = resolve_wounds(GANGER, FighterState(), 1, EnteredDice([die]), high_impact=True)
    assert outcome.results == (result,)


def test_a_flesh_wounded_fighter_fights_on_at_zero_and_rolls_again_when_wounded():
    first = resolve_wounds(GANGER, FighterState(), 1, EnteredDice([1]))
    assert first.state == FighterState(wounds_left=0, flesh_wounds=1)
    assert str(first.effects[-1].note) == "-1 WS and BS for the rest of the battle (1 in all)"
    second = resolve_wounds(GANGER, first.state, 1, EnteredDice([1]))
    assert [e.kind for e in second.effects] == ["injury"]  # no wounds left to lose
    assert second.state.flesh_wounds == 2
    assert second.state.out_of_action is False  # WS 1 and BS 1 still
    third = resolve_wounds(GANGER, second.state, 1, EnteredDice([1]))
    assert third.results == ("flesh wound", "out of action")  # WS and BS 0: loss of blood
    assert third.state.out_of_action is True


def test_multiple_wounds_roll_each_a_second_down_ignored_flesh_wounds_stacking():
    source = EnteredDice([3, 1, 5, 1])
    outcome = resolve_wounds(LEADER, FighterState(), 5, source)  # W 2: 4 rolls
    assert outcome.effects[0].amount == 2  # never below zero
    assert outcome.results == ("down", "flesh wound", "flesh wound")
    assert [str(s.outcome) for s in outcome.steps[1:]] == [
        "down",
        "flesh wound",
        "down, ignored: already down",
        "flesh wound",
    ]
    assert outcome.state == FighterState(wounds_left=0, flesh_wounds=2, down=True)
    assert source.pending == ()


def test_out_of_action_ends_the_rolls():
    source = EnteredDice([6, 2, 2])
    outcome = resolve_wounds(GANGER, FighterState(), 3, source)
    assert outcome.results == ("out of action",)
    assert str(outcome.steps[-1].outcome) == "2 more not needed"
    assert source.pending == (2, 2)


def test_wounds_short_of_zero_roll_nothing():
    source = EnteredDice([6])
    outcome = resolve_wounds(LEADER, FighterState(), 1, source)
    assert outcome.results == ()
    assert outcome.state.wounds_left == 1
    assert str(outcome.steps[0].detail) == "the fighter fights on"
    assert source.pending == (6,)


def test_a_fighter_already_out_of_action_takes_no_wounds():
    with pytest.raises(RulesError, match="already out of action"):
        resolve_wounds(GANGER, FighterState(out_of_action=True), 1, EnteredDice([3]))


def test_the_sheets_flesh_wounds_count_unless_the_state_gives_them():
    scarred = GANGER.edit(flesh_wounds=2)
    outcome = resolve_wounds(scarred, FighterState(), 1, EnteredDice([1]))
    assert outcome.state.out_of_action is True  # third flesh wound: WS 0, BS 0
    outcome = resolve_wounds(scarred, FighterState(flesh_wounds=0), 1, EnteredDice([1]))
    assert outcome.state.flesh_wounds == 1


@pytest.mark.parametrize(
    ("die", "kinds", "state"),
    [
        (
            1,
            ["injury", "remove_condition", "pinned"],
            FighterState(wounds_left=0, flesh_wounds=1, pinned=True),
        ),
        (3, [], FighterState(wounds_left=0, down=True)),
        (6, ["injury"], FighterState(wounds_left=0, out_of_action=True)),
    ],
)
def test_the_recovery_roll(die, kinds, state):
    outcome = recovery_roll(GANGER, FighterState(wounds_left=0, down=True), EnteredDice([die]))
    assert [e.kind for e in outcome.effects] == kinds
    assert outcome.state == state


def test_a_recovery_to_a_flesh_wound_can_bleed_out():
    weak = NecromundaFighter.build(name="Runt", WS=1, BS=1)
    outcome = recovery_roll(weak, FighterState(wounds_left=0, down=True), EnteredDice([1]))
    assert outcome.results == ("flesh wound", "out of action")
    assert outcome.state.out_of_action is True


def test_only_down_fighters_make_recovery_rolls():
    with pytest.raises(RulesError, match="only a down fighter"):
        recovery_roll(GANGER, FighterState(), EnteredDice([1]))
    source = EnteredDice([1, 6])
    outcomes = recovery_phase(
        [
            (GANGER, FighterState(down=True, wounds_left=0)),
            (LEADER, FighterState()),
            (NecromundaFighter.build(name="Jeb"), FighterState(down=True, wounds_left=0)),
        ],
        source,
    )
    assert [str(o.steps[0].rolls[0].purpose) for o in outcomes] == [
        "recovery roll (Tom)",
        "recovery roll (Jeb)",
    ]
    assert [o.results for o in outcomes] == [("flesh wound",), ("out of action",)]
    assert source.pending == ()


def test_a_gm_injury_table_replaces_the_packaged_one(tmp_path, monkeypatch, fresh_tables):
    (tmp_path / "necromunda").mkdir()
    rows = {
        "high_impact_strength": 6,
        "normal": {1: "flesh wound", 2: "down", 3: "down", 4: "down", 5: "down", 6: "down"},
        "high_impact": {1: "down", 2: "down", 3: "down", 4: "down", 5: "down", 6: "down"},
    }
    (tmp_path / "necromunda" / "injuries.yaml").write_text(yaml.safe_dump(rows))
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    assert resolve_wounds(GANGER, FighterState(), 1, EnteredDice([6])).results == ("down",)
    assert is_high_impact(6) is True


def test_a_broken_injury_table_is_refused(tmp_path, monkeypatch, fresh_tables):
    (tmp_path / "necromunda").mkdir()
    rows = {"normal": {1: "flesh wound", 2: "dead"}}
    (tmp_path / "necromunda" / "injuries.yaml").write_text(yaml.safe_dump(rows))
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    with pytest.raises(RulesError, match="a result for each face 1 to 6"):
        injury_table()
