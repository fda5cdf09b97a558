"""Parsing dice expressions: the trees, printing back, and errors that say where and what."""

from __future__ import annotations

import pytest

from gmkit.dice import Expression, parse
from gmkit.dice._ast import Binary, Dice, Group, Keep, Literal, Named, Negative
from gmkit.errors import DiceError, DiceSyntaxError

OPERAND = "a die (d10, 2D6, d%), a number, a bonus name (SB, capital first), '(' or '-'"
OPERATOR_OR_END = "'+', '-', '*', '/' or the end of the expression"
OPERATOR_OR_CLOSE = "'+', '-', '*', '/' or ')'"
SIDES = "the number of sides after 'd', as in d6 or d%"


@pytest.mark.parametrize(
    ("text", "root"),
    [
        ("d100", Dice(1, 100, written="d100")),
        ("d%", Dice(1, 100, written="d%")),
        ("2d%", Dice(2, 100, written="2d%")),
        ("2d10", Dice(2, 10, written="2d10")),
        ("D6", Dice(1, 6, written="D6")),
        ("D3", Dice(1, 3, written="D3")),
        ("4d6kh3", Dice(4, 6, Keep("kh", 3), written="4d6kh3")),
        ("2d10kl1", Dice(2, 10, Keep("kl", 1), written="2d10kl1")),
        ("3d6dh1", Dice(3, 6, Keep("dh", 1), written="3d6dh1")),
        ("4D6DL1", Dice(4, 6, Keep("dl", 1), written="4D6DL1")),
        ("1d10+4", Binary("+", Dice(1, 10, written="1d10"), Literal(4))),
        ("1d5-3", Binary("-", Dice(1, 5, written="1d5"), Literal(3))),
        ("1d10+SB", Binary("+", Dice(1, 10, written="1d10"), Named("SB"))),
        ("7", Literal(7)),
        ("SB", Named("SB")),
        ("AgB", Named("AgB")),
        ("-2", Negative(Literal(2))),
        ("--2", Negative(Negative(Literal(2)))),
        ("(D6)", Group(Dice(1, 6, written="D6"))),
    ],
)
def test_parses_to_the_expected_tree(text: str, root: object) -> None:
    assert parse(text) == Expression(root)  # type: ignore[arg-type]


def test_multiplication_binds_tighter_than_addition() -> None:
    two, three, four = Literal(2), Literal(3), Literal(4)
    assert parse("2+3*4").root == Binary("+", two, Binary("*", three, four))
    assert parse("2*3+4").root == Binary("+", Binary("*", two, three), four)
    assert parse("(2+3)*4").root == Binary("*", Group(Binary("+", two, three)), four)


def test_operators_of_one_level_group_to_the_left() -> None:
    one, two, three = Literal(1), Literal(2), Literal(3)
    assert parse("1-2-3").root == Binary("-", Binary("-", one, two), three)
    assert parse("8/2/2").root == Binary("/", Binary("/", Literal(8), Literal(2)), Literal(2))
    assert parse("1-2+3").root == Binary("+", Binary("-", one, two), three)


def test_unary_minus_binds_tighter_than_multiplication() -> None:
    assert parse("-1d6*2").root == Binary("*", Negative(Dice(1, 6, written="1d6")), Literal(2))
    assert parse("3--SB").root == Binary("-", Literal(3), Negative(Named("SB")))


@pytest.mark.parametrize(
    "text",
    [
        "d100",
        "d%",
        "1d10+4",
        "2d10",
        "1d5-3",
        "D6",
        "D3",
        "4d6kh3",
        "2d10kl1",
        "4d6dl1",
        "3d6dh1",
        "4D6KH3",
        "1d10+SB",
        "2d10kh1+AgB-3",
        "(1d6+2)*3",
        "(2d6+SB)/2",
        "-(1d6)",
        "1--2",
        "((1))",
        "01d6",
        "4d6kh03",
        "1000000",
        "100d1000",
    ],
)
def test_canonical_text_prints_back_unchanged(text: str) -> None:
    assert str(parse(text)) == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (" 1d10 + 4 ", "1d10+4"),
        ("2d6\t*\t3", "2d6*3"),
        ("007", "7"),
        ("( 1d6 + SB ) / 2", "(1d6+SB)/2"),
        ("- 2", "-2"),
    ],
)
def test_spacing_and_leading_zeros_print_canonically(text: str, canonical: str) -> None:
    assert str(parse(text)) == canonical
    assert parse(canonical) == parse(text)


def test_the_die_prints_as_it_was_written() -> None:
    assert parse("d6") != parse("1d6")  # same die, but each prints back as the GM wrote it
    assert str(parse("1D6")) == "1D6"
    assert str(Dice(1, 100)) == "1d%"
    assert str(Dice(4, 6, Keep("kh", 3))) == "4d6kh3"
    assert parse(str(Dice(1, 100))).root == Dice(1, 100, written="1d%")


def test_expression_lists_its_dice_in_rolling_order_and_its_names() -> None:
    expression = parse("(2d10kl1+SB)*D6-TB+3")
    assert [(d.count, d.sides) for d in expression.dice] == [(2, 10), (1, 6)]
    assert expression.names == frozenset({"SB", "TB"})
    assert not expression.is_constant
    assert parse("(3+SB)*2").is_constant


@pytest.mark.parametrize(
    ("text", "position", "expected"),
    [
        ("1d10+", 5, OPERAND),
        ("2x", 1, OPERATOR_OR_END),
        ("0d6", 0, "a number of dice from 1 to 100"),
        ("1d1", 2, "a die of 2 to 1000 sides"),
        ("3d6kh4", 5, "at most 3, the number of dice rolled"),
        ("(1d6", 4, OPERATOR_OR_CLOSE),
        ("1d10 SB", 5, OPERATOR_OR_END),
        ("", 0, "a dice expression such as 1d10+4"),
        ("   ", 3, "a dice expression such as 1d10+4"),
        ("1d6+" * 75, 200, "an expression of at most 200 characters"),
        ("d", 1, SIDES),
        ("1d10++", 5, OPERAND),
        ("1d6)", 3, OPERATOR_OR_END),
        ("((1d6)", 6, OPERATOR_OR_CLOSE),
        ("(1d6 SB)", 5, OPERATOR_OR_CLOSE),
        ("4d6kh", 5, "how many dice to keep or drop, as in 4d6kh3"),
        ("2d10KL x", 6, "how many dice to keep or drop, as in 4d6kh3"),
        ("101d6", 0, "a number of dice from 1 to 100"),
        ("1d1001", 2, "a die of 2 to 1000 sides"),
        ("2+1000001", 2, "a number up to 1000000"),
        ("1d6+sb", 4, OPERAND),
        ("1d6\n", 3, OPERATOR_OR_END),
        ("*2", 0, OPERAND),
        ("1dd6", 2, SIDES),
        ("1d", 2, SIDES),
        ("1D+3", 2, SIDES),
        ("SB D", 3, OPERATOR_OR_END),
        ("1d6d6", 3, OPERATOR_OR_END),
        ("()", 1, OPERAND),
    ],
)
def test_bad_input_names_the_position_and_what_was_expected(
    text: str, position: int, expected: str
) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    error = caught.value
    assert (error.position, str(error.expected), error.text) == (position, expected, text)
    message = str(error)
    assert f"at position {position + 1} found " in message  # 1-based for the GM
    assert message.endswith(f"expected {expected}")
    found = "end of expression" if position >= len(text) else repr(text[position])
    assert f"found {found}," in message


def test_syntax_errors_are_dice_errors_and_value_errors() -> None:
    with pytest.raises(DiceError):
        parse("1d")
    with pytest.raises(ValueError, match="at position 3 found end of expression"):
        parse("1d")


@pytest.mark.parametrize("value", [None, 6, ["1d6"], b"1d6"])
def test_non_text_is_refused_as_a_syntax_error(value: object) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(value)  # type: ignore[arg-type]
    assert str(caught.value.expected) == "a dice expression as text"


def test_a_refused_text_stays_refused_and_a_good_one_parses_the_same_twice() -> None:
    for _ in range(2):
        with pytest.raises(DiceSyntaxError):
            parse("1d10+")
    assert parse("1d10+4") is parse("1d10+4")  # parsed once, then cached
