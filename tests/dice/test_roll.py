"""Rolling expressions: totals, every die recorded, keep/drop, named bonuses, division."""

from __future__ import annotations

import doctest

import pytest

import gmkit.dice
from gmkit.dice import DieRoll, EnteredDice, SeededDice, parse, roll
from gmkit.dice._ast import Keep
from gmkit.dice._evaluate import DiceResult
from gmkit.errors import DiceValueError
from gmkit.messages import Message


def _dice_results(result: object) -> list[DiceResult]:
    if isinstance(result, DiceResult):
        return [result]
    found: list[DiceResult] = []
    for operand in getattr(result, "operands", ()):
        found.extend(_dice_results(operand))
    return found


@pytest.mark.parametrize(
    ("text", "typed", "names", "total"),
    [
        ("1d10+4", [7], {}, 11),
        ("1d10+SB", [7], {"SB": 4}, 11),
        ("1d10+SB", [0], {"SB": 4}, 14),  # a d10 typed 0 is a 10
        ("d100", ["00"], {}, 100),
        ("d%", [0], {}, 100),
        ("d%", [37], {}, 37),
        ("2d10", [4, 9], {}, 13),
        ("1d5-3", [1], {}, -2),
        ("1d5-3", [5], {}, 2),
        ("D6", [6], {}, 6),
        ("D3", [2], {}, 2),
        ("(1d6+2)*3", [4], {}, 18),
        ("2*3+4", [], {}, 10),
        ("5*SB-TB", [], {"SB": 3, "TB": 4}, 11),
        ("1d6/2", [5], {}, 2),
        ("-1d6/2", [5], {}, -3),  # floor division: -5/2 is -3
        ("(1d6-7)/2", [2], {}, -3),
        ("1d10+-SB", [1], {"SB": 4}, -3),
        ("4d6kh3", [3, 6, 1, 5], {}, 14),
        ("4d6kl3", [3, 6, 1, 5], {}, 9),
        ("2d10kl1", [8, 3], {}, 3),
        ("2d10kh1", [8, 3], {}, 8),
        ("3d6dh1", [6, 1, 4], {}, 5),
        ("4d6dl1", [2, 2, 5, 6], {}, 13),
        ("3d6dh3", [6, 6, 6], {}, 0),
        ("4D6KH3", [1, 1, 1, 1], {}, 3),
    ],
)
def test_entered_dice_give_the_rules_total(
    text: str, typed: list[int | str], names: dict[str, int], total: int
) -> None:
    source = EnteredDice(typed)
    assert roll(text, source, "damage", names=names).total == total
    assert source.pending == ()


def test_a_single_die_is_recorded_with_the_purpose_itself() -> None:
    source = EnteredDice([7])
    result = roll("1d10+SB", source, "damage", names={"SB": 4})
    assert result.dice == (DieRoll(10, 7, "damage", physical=True),)
    assert source.history == list(result.dice)
    assert str(result) == "damage: 1d10+SB = 1d10 (7) + SB(4) = 11"


def test_several_dice_are_numbered_across_the_whole_expression() -> None:
    source = EnteredDice([4, 9, 2, "0"])
    result = roll("2d10+1d6+1d10", source, "damage")
    each = [Message("dice.die_number", purpose="damage", number=n) for n in range(1, 5)]
    assert result.dice == (
        DieRoll(10, 4, each[0], physical=True),
        DieRoll(10, 9, each[1], physical=True),
        DieRoll(6, 2, each[2], physical=True),
        DieRoll(10, 10, each[3], physical=True),
    )
    assert [str(die.purpose) for die in result.dice] == [f"damage die {n}" for n in range(1, 5)]
    assert source.history == list(result.dice)
    assert result.total == 25


def test_keep_highest_keeps_the_highest_dice() -> None:
    result = roll("4d6kh3", EnteredDice([3, 6, 1, 5]), "characteristic")
    (dice,) = _dice_results(result.result)
    assert [r.value for r in dice.rolls] == [3, 6, 1, 5]
    assert dice.kept == (True, True, False, True)
    assert str(dice) == "4d6kh3 (3, 6, ~~1~~, 5)"


def test_keep_lowest_keeps_the_lowest_die() -> None:
    result = roll("2d10kl1", EnteredDice([8, 3]), "to hit")
    (dice,) = _dice_results(result.result)
    assert dice.kept == (False, True)
    assert [str(r.purpose) for r in result.dice] == ["to hit die 1", "to hit die 2"]


def test_drop_highest_and_drop_lowest() -> None:
    (dropped_high,) = _dice_results(roll("3d6dh1", EnteredDice([6, 1, 4]), "x").result)
    assert dropped_high.kept == (False, True, True)
    (dropped_low,) = _dice_results(roll("4d6dl1", EnteredDice([2, 2, 5, 6]), "x").result)
    assert sorted(
        r.value for r, k in zip(dropped_low.rolls, dropped_low.kept, strict=True) if not k
    ) == [2]
    assert dropped_low.kept.count(True) == 3


def test_keep_counts() -> None:
    assert Keep("kh", 3).kept_count(4) == 3
    assert Keep("kl", 5).kept_count(3) == 3
    assert Keep("dh", 1).kept_count(4) == 3
    assert Keep("dl", 5).kept_count(3) == 0
    assert [Keep(mode, 1).keeps_highest() for mode in ("kh", "dl", "kl", "dh")] == [
        True,
        True,
        False,
        False,
    ]


def test_seeded_rolls_are_reproducible() -> None:
    first, second = SeededDice(2024), SeededDice(2024)
    rolls_a = [roll("4d6kh3+2d10", first, "stats") for _ in range(20)]
    rolls_b = [roll("4d6kh3+2d10", second, "stats") for _ in range(20)]
    assert [r.dice for r in rolls_a] == [r.dice for r in rolls_b]
    assert [r.total for r in rolls_a] == [r.total for r in rolls_b]
    assert first.history == [die for r in rolls_a for die in r.dice]
    assert len(first.history) == 20 * 6
    assert not any(die.physical for die in first.history)
    assert {str(die.purpose) for die in first.history} == {f"stats die {n}" for n in range(1, 7)}


def test_a_roll_takes_text_or_a_parsed_expression() -> None:
    expression = parse("2d6+1")
    by_text = roll("2d6+1", SeededDice(5), "x")
    by_tree = roll(expression, SeededDice(5), "x")
    assert by_text == by_tree
    assert by_tree.expression is expression


def test_a_missing_bonus_is_refused_before_any_die_is_consumed() -> None:
    source = EnteredDice([7, 3])
    with pytest.raises(
        DiceValueError, match=r"^damage: the bonus SB is not on this profile \(known: none\)$"
    ):
        roll("1d10+SB", source, "damage")
    assert source.pending == (7, 3)
    assert source.history == []
    seeded = SeededDice(1)
    with pytest.raises(DiceValueError, match=r"the bonus TB is not on this profile \(known: SB\)"):
        roll("2d6+1d10+TB", seeded, "soak", names={"SB": 4})
    assert seeded.history == []


@pytest.mark.parametrize("value", [4.5, "four", None, [4]])
def test_a_bonus_that_is_not_a_whole_number_is_refused(value: object) -> None:
    source = EnteredDice([7])
    with pytest.raises(DiceValueError, match=r"^damage: the bonus SB must be a whole number"):
        roll("1d10+SB", source, "damage", names={"SB": value})  # type: ignore[dict-item]
    assert source.pending == (7,)


def test_a_whole_float_bonus_counts() -> None:
    assert roll("1d10+SB", EnteredDice([7]), "damage", names={"SB": 4.0}).total == 11


def test_entered_dice_are_taken_all_or_none() -> None:
    source = EnteredDice([7])
    with pytest.raises(DiceValueError, match=r"^damage die 2: roll a d10 and enter its value$"):
        roll("2d10", source, "damage")
    assert source.pending == (7,)
    assert source.history == []
    source.enter(11)
    with pytest.raises(DiceValueError, match=r"^damage die 2: 11 cannot come from a d10"):
        roll("2d10", source, "damage")
    assert source.pending == (7, 11)
    source.enter(4)
    with pytest.raises(DiceValueError, match=r"^damage die 2: 11 cannot come from a d10"):
        roll("2d10", source, "damage")
    assert source.pending == (7, 11, 4)


def test_division_by_zero_is_a_dice_value_error_naming_the_expression() -> None:
    with pytest.raises(DiceValueError, match=r"^damage: 1d6/\(1d2-1\): division by zero$"):
        roll("1d6/(1d2-1)", EnteredDice([4, 1]), "damage")
    with pytest.raises(DiceValueError, match="division by zero"):
        roll("SB/TB", EnteredDice(), "x", names={"SB": 1, "TB": 0})
    assert roll("1d6/(1d2-1)", EnteredDice([4, 2]), "damage").total == 4


def test_the_rendering_shows_every_step() -> None:
    result = roll("(2d10kl1+SB)*2-1", EnteredDice([8, 3]), "to hit", names={"SB": 4})
    assert result.total == 13
    assert str(result) == "to hit: (2d10kl1+SB)*2-1 = (2d10kl1 (~~8~~, 3) + SB(4)) * 2 - 1 = 13"
    assert str(roll("-D6", EnteredDice([2]), "x")) == "x: -D6 = -D6 (2) = -2"


def test_the_package_docstring_examples_hold() -> None:
    assert doctest.testmod(gmkit.dice).failed == 0
    assert doctest.testmod(gmkit.dice).attempted >= 3
