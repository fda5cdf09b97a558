"""Rules that declare ``rolls_need_conditions`` ask no roll of a combatant bearing no condition
(so a turn change asks only those bearing one: gmkit.encounter._dues), and the rolls due at a
turn change are the same as when every combatant is asked."""

from __future__ import annotations

import pytest

from gmkit.demo import demo_campaign
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.encounter._dues import dues_between
from gmkit.games import game as find_game
from gmkit.systems.acting import Bearer
from gmkit.systems.base import Standing
from gmkit.systems.turns import turn_structure

GAMES = ("dark_heresy", "deathwatch", "necromunda", "wfrp2", "wfb6")
MOMENTS = ("start_of_turn", "end_of_turn", "end_of_round", "start_of_phase")


DECLARED = [g for g in GAMES if getattr(find_game(g).acting, "rolls_need_conditions", False)]


def test_the_games_whose_rolls_all_come_from_conditions() -> None:
    assert DECLARED == ["dark_heresy", "deathwatch", "necromunda"]


@pytest.mark.parametrize("game", DECLARED)
def test_a_bearer_of_no_condition_is_asked_nothing_where_the_rules_say_so(game: str) -> None:
    rules = find_game(game).acting
    phases = turn_structure(game).phases or ("",)
    sheets = [s for roster in demo_campaign().rosters if roster.game == game for s in roster.sheets]
    assert sheets
    for sheet in sheets:
        for moment in MOMENTS:
            for phase in phases:
                bearer = Bearer(sheet, Standing.of(()), 2, phase)
                assert rules.turn_rolls(moment, bearer) == (), (sheet.name, moment, phase)


def test_the_positive_control_a_down_fighter_is_asked_to_recover() -> None:
    rules = find_game("necromunda").acting
    sheet = next(r for r in demo_campaign().rosters if r.game == "necromunda").sheets[0]
    asked = rules.turn_rolls("start_of_phase", Bearer(sheet, Standing.of(["down"]), 2, "recovery"))
    assert [due.rule for due in asked] == ["recovery_roll"]


@pytest.mark.parametrize(
    ("game", "condition"), [("necromunda", "down"), ("dark_heresy", "on_fire")]
)
def test_the_rolls_due_are_those_asked_of_everyone(
    game: str, condition: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fight of 40, a few bearing a condition that asks a roll: every turn change of two
    rounds asks the same rolls of the same combatants either way."""
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    fight = Encounter(game)
    for number in range(40):
        fight.add(roster.sheets[number % len(roster.sheets)])
    if fight.state.sides:
        fight.start()
    else:
        fight.roll_initiative(SeededDice(2))
        fight.start(SeededDice(3))
    for ident in list(fight.state.combatants)[::9]:
        fight.add_condition(ident, condition)
    rules = find_game(game).acting
    changes = 0
    asked = 0
    for _ in range(2 * len(fight.state.combatants) + 8):
        before = fight.state
        fight.next_turn()
        after = fight.state
        monkeypatch.setattr(rules, "rolls_need_conditions", False)
        everyone = dues_between(before, after)
        monkeypatch.setattr(rules, "rolls_need_conditions", True)
        assert dues_between(before, after) == everyone
        changes += 1
        asked += len(everyone)
        if after.round > 2:
            break
    assert changes > 10
    assert asked > 0  # the condition did ask: the comparison saw rolls
