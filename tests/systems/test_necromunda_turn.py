"""The Necromunda turn: four phases per side's turn, and the order of moves."""

from __future__ import annotations

import pytest

from gmkit.errors import RulesError
from gmkit.systems.necromunda import (
    TurnPosition,
    advance,
    move_order_check,
    order_moves,
    phases,
    sequence,
    start,
)
from gmkit.systems.necromunda._turn import movement_group, movement_order, phase

SIDES = ("Ashen Brethren", "Sump Scavvies")


def test_the_four_phases_in_order():
    assert [p.id for p in phases()] == ["movement", "shooting", "close_combat", "recovery"]
    assert [p.both_sides for p in phases()] == [False, False, True, False]
    assert phase("movement").steps == ("charges", "compulsory moves", "the rest")
    assert phase("recovery").steps[-1] == "recovery roll for each down fighter (at the end)"


def test_sides_take_turns_each_running_the_phases():
    played = list(sequence(SIDES, rounds=2))
    assert len(played) == 16
    assert [(p.round, p.side, p.phase) for p in played[3:6]] == [
        (1, 0, "recovery"),
        (1, 1, "movement"),
        (1, 1, "shooting"),
    ]
    assert (played[8].round, played[8].side, played[8].phase) == (2, 0, "movement")
    assert played[-1] == TurnPosition(2, 1, "recovery")


def test_three_sides_rotate():
    position = TurnPosition(1, 2, "recovery")
    assert advance(position, ("A", "B", "C")) == TurnPosition(2, 0, "movement")
    assert advance(TurnPosition(1, 0, "recovery"), ("A", "B", "C")) == TurnPosition(
        1, 1, "movement"
    )


def test_both_sides_fight_in_close_combat():
    position = TurnPosition(1, 1, "close_combat")
    assert position.acting_sides(SIDES) == ("Sump Scavvies", "Ashen Brethren")
    assert TurnPosition(1, 1, "shooting").acting_sides(SIDES) == ("Sump Scavvies",)
    assert str(start(SIDES).describe(SIDES)) == "round 1, Ashen Brethren's turn, Movement phase"


@pytest.mark.parametrize(
    ("sides", "message"), [(("A",), "at least two sides"), (("A", "A"), "appear once")]
)
def test_bad_sides_are_refused(sides, message):
    with pytest.raises(RulesError, match=message):
        start(sides)


def test_unknown_phases_and_moves_are_refused():
    with pytest.raises(RulesError, match="'psychic' is not a phase"):
        phase("psychic")
    with pytest.raises(RulesError, match="'teleport' is not a kind of move"):
        movement_group("teleport")


def test_charges_then_compulsory_moves_then_the_rest():
    assert [g.id for g in movement_order()] == ["charges", "compulsory", "rest"]
    planned = [("Jeb", "run"), ("Tom", "charge"), ("Silas", "compulsory"), ("Kael", "move")]
    planned.append(("Ezekiah", "failed_charge"))
    assert [name for name, _ in order_moves(planned)] == ["Tom", "Ezekiah", "Silas", "Jeb", "Kael"]


def test_a_move_out_of_order_is_refused():
    assert move_order_check(["charge", "compulsory"], "move").passed
    assert move_order_check(["charge"], "charge").passed
    late = move_order_check(["move"], "charge")
    assert not late.passed
    assert str(late.reason) == "Charges must come before the rest"
    assert str(late) == "movement order: no (Charges must come before the rest)"
    assert str(move_order_check([], "run").reason) == "The rest in order"
    assert not move_order_check(["run"], "compulsory").passed
