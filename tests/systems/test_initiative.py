"""Who goes first (gmkit.systems._initiative): the one rule the encounter, Dark Heresy's and
WFRP's explained initiative rolls all use, asked through a game's turn rules."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import RulesError
from gmkit.games import game
from gmkit.systems._initiative import Contender, delayed_first, order
from gmkit.systems.acting import NoTurnRules


def test_ties_go_to_the_base_then_a_roll_off_rolled_again_while_tied() -> None:
    kor, vex = Contender("kor", "Kor", 12, 4), Contender("vex", "Vex", 12, 3)
    ash, ely = Contender("ash", "Ash", 9, 2), Contender("ely", "Ely", 9, 2)
    ids, rolled = order([ash, kor, ely, vex], EnteredDice([5, 5, 3, 7]))
    assert ids == ["kor", "vex", "ely", "ash"]  # Kor's base 4; Ash and Ely: 5-5, then 3-7
    assert [roll.value for roll in rolled] == [5, 5, 3, 7]


def test_a_tie_without_dice_names_the_tied() -> None:
    with pytest.raises(RulesError, match="Ash"):
        order([Contender("ash", "Ash", 9, 2), Contender("ely", "Ely", 9, 2)], None)


def test_two_delayed_actions_an_opposed_agility_test() -> None:
    # Ilse Ag 44 rolls 50 (fails), Tull Ag 35 rolls 20 (succeeds): Tull first
    assert delayed_first(("Ilse", 44), ("Tull", 35), EnteredDice([50, 20]))[0] == 1
    # both fail: the higher Agility first
    winner, rolls = delayed_first(("Ilse", 44), ("Tull", 35), EnteredDice([90, 80]))
    assert (winner, [r.value for r in rolls]) == (0, [90, 80])


def test_the_games_played_by_initiative_settle_delays_by_agility_others_leave_it_to_the_gm() -> (
    None
):
    for name in ("dark_heresy", "deathwatch", "wfrp2"):
        assert type(game(name).acting).delayed_first is not NoTurnRules.delayed_first
    with pytest.raises(RulesError, match="the GM says who acts first"):
        NoTurnRules().delayed_first(None, None, EnteredDice([]))  # type: ignore[arg-type]
