"""A sixth game is one package and one entry point: the toy game Duel (tests/plugins/gmkit-duel,
installed by the ``duel`` fixture) found through its entry point, then played through the
encounter, the attack form, the odds and the panel, none of which names it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gmkit._forms import AttackForm
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.errors import RulesError
from gmkit.games import game, game_ids
from gmkit.odds import odds
from gmkit.sheets import load_sheet
from gmkit.systems import system


def test_a_registered_game_is_known_everywhere(duel):
    assert "duel" in game_ids()
    assert game("duel").unit == "paces"
    assert system("duel") is duel.GAME.rules
    sheet = load_sheet({"game": "duel", "name": "Inigo", "skill": 8})  # the sheet registry
    assert isinstance(sheet, duel.Duellist)


def test_a_duel_is_fought_through_the_encounter_and_the_form(duel):
    fight = Encounter("duel")
    inigo = fight.add(duel.Duellist.build(name="Inigo", side="Montoya", skill=8))
    rugen = fight.add(duel.Duellist.build(name="Rugen", side="Rugen", skill=6))
    fight.start()
    form = AttackForm(fight, follow_actor=True)
    assert (form.attacker, form.weapon, form.mode, form.action) == (
        inigo,
        "Sword",
        "melee",
        "strike",
    )
    assert form.target == rugen  # the first foe
    assert [field.name for field in form.option_fields] == ["lunge"]
    form.set_option("lunge", True)
    result = form.resolve("5 5")  # 10 against 8 + 2
    assert result is not None
    assert result.hits == 1
    form.apply()
    assert fight.state.combatants[rugen].counters == {"damage": 1}
    assert fight.state.combatants[inigo].spent == {"strikes": 1}  # spent with the attack
    assert not fight.may_take(inigo, "strike").allowed  # one strike a turn
    assert "strike" in form.offered.not_offered
    fight.undo()  # the attack and its action: one command
    assert fight.state.combatants[rugen].counters == {}
    assert fight.state.combatants[inigo].spent == {}


def test_the_options_model_of_the_game_refuses_unknown_options(duel):
    fight = Encounter("duel")
    a = fight.add(duel.Duellist.build(name="A", side="x"))
    b = fight.add(duel.Duellist.build(name="B", side="y"))
    with pytest.raises(RulesError, match=r"option 'lunges': unknown option \(did you mean lunge"):
        fight.attack(a, "Sword", b, EnteredDice([1, 1]), action="strike", mode="melee",
                     options={"lunges": True})  # fmt: skip
    assert fight.events[-1]["kind"] == "added"  # nothing recorded


def test_its_odds_come_from_its_own_engine(duel):
    fight = Encounter("duel")
    a = fight.add(duel.Duellist.build(name="A", side="x", skill=7))
    b = fight.add(duel.Duellist.build(name="B", side="y"))
    request = fight.attack_request(a, "Sword", b, action="strike", mode="melee")
    assert odds(request).hit == Fraction(21, 36)  # 2d6 at or under 7
