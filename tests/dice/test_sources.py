"""Dice sources: seeded digital dice, and the physical dice a GM types in."""

from __future__ import annotations

import pytest

from gmkit.dice import DiceSource, DieRoll, EnteredDice, SeededDice, read_die
from gmkit.errors import DiceError, DiceValueError


def _values(source: SeededDice, sides: int, rolls: int) -> list[int]:
    return [source.roll_die(sides, "test").value for _ in range(rolls)]


def test_the_same_seed_gives_the_same_rolls() -> None:
    assert _values(SeededDice(1234), 100, 50) == _values(SeededDice(1234), 100, 50)
    assert _values(SeededDice("night raid"), 10, 50) == _values(SeededDice("night raid"), 10, 50)


def test_different_seeds_give_different_rolls() -> None:
    assert _values(SeededDice(1), 100, 20) != _values(SeededDice(2), 100, 20)


def test_seeded_dice_show_every_face_and_only_faces() -> None:
    for sides in (2, 3, 5, 6, 10, 100):
        values = _values(SeededDice(sides), sides, 60 * sides)
        assert set(values) == set(range(1, sides + 1))


def test_seeded_dice_record_each_die_as_digital() -> None:
    source = SeededDice(7)
    first = source.roll_die(10, "hit location")
    second = source.roll_die(100, "to hit")
    assert source.history == [first, second]
    assert (first.sides, first.purpose, first.physical, first.die) == (
        10,
        "hit location",
        False,
        "d10",
    )
    assert (second.sides, second.purpose, second.physical) == (100, "to hit", False)
    assert str(first) == f"d10={first.value} (hit location, digital)"


def test_seeded_dice_refuse_a_die_without_sides() -> None:
    with pytest.raises(DiceValueError, match=r"^fear: .*d0"):
        SeededDice(1).roll_die(0, "fear")


def test_both_sources_are_dice_sources() -> None:
    assert isinstance(SeededDice(1), DiceSource)
    assert isinstance(EnteredDice(), DiceSource)


@pytest.mark.parametrize(
    ("sides", "typed", "value"),
    [
        (100, "00", 100),
        (100, 0, 100),
        (100, "0", 100),
        (100, 100, 100),
        (100, "53", 53),
        (100, " 07 ", 7),
        (10, 0, 10),
        (10, "0", 10),
        (10, "00", 10),
        (10, 10, 10),
        (10, 1, 1),
        (6, "6", 6),
        (6, 1, 1),
        (5, 5, 5),
        (3, "2", 2),
    ],
)
def test_read_die_reads_what_the_die_shows(sides: int, typed: int | str, value: int) -> None:
    assert read_die(sides, typed, "to hit") == value


@pytest.mark.parametrize(
    ("sides", "typed", "message"),
    [
        (6, 0, r"^damage: 0 cannot come from a d6; type 1 to 6$"),
        (6, 7, r"^damage: 7 cannot come from a d6; type 1 to 6$"),
        (10, 11, r"^damage: 11 cannot come from a d10; type 1 to 10 \(0 reads 10\)$"),
        (100, 101, r"^damage: 101 cannot come from a d100; type 1 to 100 \('00' reads 100\)$"),
        (5, "0", r"^damage: 0 cannot come from a d5"),
        (6, -1, r"^damage: -1 is not a number a d6 can show \(type 1 to 6\)$"),
        (6, "", r"^damage: '' is not a number a d6 can show"),
        (6, "six", r"^damage: 'six' is not a number a d6 can show"),
        (6, 2.0, r"^damage: 2.0 is not a number a d6 can show"),
        (6, True, r"^damage: True is not a number a d6 can show"),
        (6, "²", r"^damage: '²' is not a number a d6 can show"),
        (10, "٣", r"^damage: '٣' is not a number a d10 can show"),
        (6, "1e0", r"^damage: '1e0' is not a number"),
    ],
)
def test_read_die_refuses_what_the_die_cannot_show(
    sides: int, typed: int | str, message: str
) -> None:
    with pytest.raises(DiceValueError, match=message):
        read_die(sides, typed, "damage")


def test_entered_dice_are_used_in_order_and_recorded_as_physical() -> None:
    source = EnteredDice([53, "00", 7])
    rolls = [
        source.roll_die(100, "to hit"),
        source.roll_die(100, "fear"),
        source.roll_die(10, "damage"),
    ]
    assert rolls == [
        DieRoll(100, 53, "to hit", physical=True),
        DieRoll(100, 100, "fear", physical=True),
        DieRoll(10, 7, "damage", physical=True),
    ]
    assert source.history == rolls
    assert source.pending == ()
    assert str(rolls[1]) == "d100=100 (fear, physical)"


def test_an_invalid_entered_value_is_not_consumed() -> None:
    source = EnteredDice([11, 4])
    with pytest.raises(DiceValueError, match=r"^damage: 11 cannot come from a d10"):
        source.roll_die(10, "damage")
    assert source.pending == (11, 4)
    assert source.history == []
    assert source.roll_die(20, "damage").value == 11  # the same value fits a bigger die
    assert source.pending == (4,)


def test_running_out_of_entered_dice_asks_for_the_die_by_purpose() -> None:
    source = EnteredDice([3])
    source.roll_die(6, "damage die 1")
    with pytest.raises(DiceValueError, match=r"^damage die 2: roll a d6 and enter its value$"):
        source.roll_die(6, "damage die 2")
    source.enter(5, "0")
    assert source.pending == (5, "0")
    assert source.roll_die(6, "damage die 2").value == 5
    assert source.roll_die(10, "location").value == 10
    assert [roll.value for roll in source.history] == [3, 5, 10]


def test_check_refuses_without_consuming_anything() -> None:
    source = EnteredDice([4, 12, 9])
    source.check([(6, "a"), (20, "b")])
    with pytest.raises(DiceValueError, match=r"^b: 12 cannot come from a d10"):
        source.check([(6, "a"), (10, "b"), (10, "c")])
    with pytest.raises(DiceValueError, match=r"^d: roll a d6 and enter its value$"):
        source.check([(6, "a"), (20, "b"), (10, "c"), (6, "d")])
    assert source.pending == (4, 12, 9)
    assert source.history == []


def test_dice_value_errors_are_dice_errors() -> None:
    with pytest.raises(DiceError):
        EnteredDice().roll_die(6, "x")


def test_reprs_say_what_is_left() -> None:
    source = EnteredDice([1, "00"])
    source.roll_die(6, "x")
    assert repr(source) == "EnteredDice(pending=['00'], rolled=1)"
    seeded = SeededDice(9)
    seeded.roll_die(6, "x")
    assert repr(seeded) == "SeededDice(seed=9, rolled=1)"
