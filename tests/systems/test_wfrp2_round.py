"""The WFRP 2e round (seed 002): initiative Ag + 1d10, surprise, the actions that do not attack."""

from __future__ import annotations

import doctest
from typing import Any

import pytest

from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice, SeededDice
from gmkit.errors import GmkitError
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems import wfrp2
from gmkit.systems.base import Effect
from gmkit.systems.wfrp2 import SYSTEM, perform_action

PROFILE = {"WS": 41, "BS": 35, "S": 38, "T": 42, "Ag": 33, "Int": 30, "WP": 30, "Fel": 30}


def character(name: str, ag: int = 33, ws: int = 41, **fields: Any) -> WFRP2Character:
    data = {
        "name": name,
        "characteristics": {**PROFILE, "Ag": ag, "WS": ws},
        "secondary": {"W": 12},
    }
    return WFRP2Character.build({**data, **fields})


# --- initiative and surprise -----------------------------------------------------------------


def test_initiative_is_agility_plus_a_d10_highest_first():
    fighters = [character("Gunther", 33), character("Elsa", 41), character("Ungor", 35)]
    result = SYSTEM.initiative(fighters, EnteredDice([8, 10, 2]))
    assert [(e.name, e.score) for e in result.order] == [
        ("Elsa", 51),
        ("Gunther", 41),
        ("Ungor", 37),
    ]
    assert str(result.steps[0]) == "Initiative: Gunther: 41 (Ag 33 + d10 8)"
    assert result.effects == ()


def test_a_tied_score_goes_to_the_higher_agility():
    fighters = [character("Gunther", 33), character("Ungor", 35)]
    result = SYSTEM.initiative(fighters, EnteredDice([8, 6]))  # 41 and 41
    assert result.names == ("Ungor", "Gunther")


def test_a_tie_in_score_and_agility_is_rolled_off():
    fighters = [character("Gunther", 33), character("Hans", 33), character("Ungor", 30)]
    source = EnteredDice([5, 5, 1, 3, 9])  # 38, 38, 31; roll-off Gunther 3, Hans 9
    result = SYSTEM.initiative(fighters, source)
    assert result.names == ("Hans", "Gunther", "Ungor")
    assert str(result.steps[3]) == (
        "Roll-off: Gunther 3, Hans 9 (tied score and Agility: d10, higher first)"
    )
    assert source.pending == ()


def test_the_demo_fight_with_a_seed_and_a_surprised_priest():
    roster = next(r for r in demo_campaign().rosters if r.game == "wfrp2")
    result = SYSTEM.initiative(
        list(roster.sheets), SeededDice(2002), surprised=["Brother Matthias"]
    )
    assert [(e.name, e.base, e.score) for e in result.order] == [
        ("Elsa Wendt", 41, 50),
        ("Bray-shaman Vhorlag", 35, 40),  # ties Gor at 40: higher Agility first
        ("Gor Bloodhorn", 30, 40),
        ("Ungor Snitch", 35, 37),
        ("Brother Matthias", 30, 36),
        ("Gunther Brandauer", 33, 34),
    ]
    assert result.effects == (
        Effect("condition", "Brother Matthias", condition="surprised", rounds=1),
    )


def test_surprise_and_names_are_checked():
    with pytest.raises(GmkitError, match="not in the combat: Ghost"):
        SYSTEM.initiative([character("Gunther")], EnteredDice([1]), surprised=["Ghost"])
    with pytest.raises(GmkitError, match="share a name: Hans"):
        SYSTEM.initiative([character("Hans"), character("Hans")], EnteredDice([1, 2]))


# --- actions that do not attack --------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "metres", "conditions"),
    [
        ("move", "up to 8 m", ()),  # M 4: 2 x M
        ("run", "up to 24 m", ("running",)),  # 6 x M
        ("disengage", "up to 8 m", ()),
        ("defensive_stance", None, ("defensive_stance",)),
        ("parry_stance", None, ("parry_stance",)),
        ("aim", None, ("aiming",)),
        ("delay", None, ("delayed_half_action",)),
        ("ready", None, ()),
    ],
)
def test_actions_move_and_grant_conditions_until_the_next_turn(action, metres, conditions):
    result = perform_action(action, character("Gunther"), EnteredDice([]))
    moved = [str(s.outcome) for s in result.steps if str(s.title) == "Movement"]
    assert moved == ([metres] if metres else [])
    assert tuple(e.condition for e in result.effects) == conditions
    # aim holds for the next action, into the next turn if need be (rounds 2)
    assert all(e.rounds == (2 if action == "aim" else 1) for e in result.effects)
    assert all(e.target == "Gunther" for e in result.effects)


def test_a_feint_won_makes_the_next_attack_unparriable():
    result = perform_action(
        "feint", character("Gunther"), EnteredDice([20, 50]), target=character("Gor", ws=30)
    )
    assert result.won is True
    assert result.effects == (Effect("condition", "Gunther", condition="feint", rounds=2),)


@pytest.mark.parametrize("dice", [[60, 10], [60, 70], [21, 15]])
def test_a_feint_lost_or_tied_gives_nothing(dice):
    # lost; both fail; both succeed by 2 degrees with the same WS 41: a tie wins nothing
    result = perform_action(
        "feint", character("Gunther"), EnteredDice(dice), target=character("Gor")
    )
    assert result.won is False
    assert result.effects == ()


def test_a_manoeuvre_won_pushes_the_target():
    result = perform_action(
        "manoeuvre", character("Gunther"), EnteredDice([5, 99]), target=character("Gor")
    )
    assert result.effects[0].kind == "note"
    assert result.effects[0].target == "Gor"
    assert "2 m" in str(result.effects[0].note)


def test_perform_action_refuses_attacks_and_a_missing_opponent():
    with pytest.raises(GmkitError, match="resolve_attack"):
        perform_action("charge_attack", character("Gunther"), EnteredDice([]))
    with pytest.raises(GmkitError, match="name its target"):
        perform_action("feint", character("Gunther"), EnteredDice([]))


def test_the_module_example_runs():
    failures, tried = doctest.testmod(wfrp2, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert (failures, tried > 5) == (0, True)
