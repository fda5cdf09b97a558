"""Dice speak in messages: a refused expression, a refused roll and a roll read in Spanish.

The English of every refusal is the one the other dice tests pin; here the same refusals are
rendered in Spanish and hold no English rule word once the expression typed is taken out.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gmkit.dice import EnteredDice, distribution, parse, roll
from gmkit.errors import DiceSyntaxError, DiceValueError
from gmkit.messages import Message, render
from gmkit.messages._check import english_words


@pytest.mark.parametrize(
    ("text", "spanish"),
    [
        ("1d10+", "hay el final de la expresión, se esperaba un dado (d10, 2D6, d%), un número"),
        ("2x", "se esperaba '+', '-', '*', '/' o el final de la expresión"),
        ("(1d6", "se esperaba '+', '-', '*', '/' o ')'"),
        ("0d6", "se esperaba un número de dados de 1 a 100"),
        ("1d1", "se esperaba un dado de 2 a 1000 caras"),
        ("3d6kh4", "se esperaba como mucho 3, los dados que se tiran"),
        ("4d6kh", "se esperaba cuántos dados conservar o descartar, como en 4d6kh3"),
        ("1d", "se esperaba el número de caras tras la 'd', como en d6 o d%"),
        ("2+1000001", "se esperaba un número hasta 1000000"),
        ("   ", "se esperaba una expresión de dados como 1d10+4"),
        ("1" * 201, "se esperaba una expresión de como mucho 200 caracteres"),
        ("1d6+sb", "el nombre de una bonificación (SB, empezando por letra capital), '(' o '-'"),
    ],
)
def test_a_refused_expression_reads_in_spanish(text: str, spanish: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    error = caught.value
    shown = error.render("es")
    assert shown.startswith(f"expresión de dados {text!r}: en la posición {error.position + 1}")
    assert spanish in shown
    assert english_words(shown, [repr(text)]) == [], shown
    assert isinstance(error.expected, Message)


def test_text_that_is_not_text_is_refused_in_spanish() -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(6)  # type: ignore[arg-type]
    assert caught.value.render("es").endswith(
        "se esperaba una expresión de dados escrita como texto"
    )


@pytest.mark.parametrize(
    ("attempt", "english", "spanish"),
    [
        (
            lambda: roll("1d10+SB", EnteredDice([5]), "damage", names={}),
            "damage: the bonus SB is not on this profile (known: none)",
            "damage: la bonificación SB no está en este perfil (no tiene ninguna)",
        ),
        (
            lambda: roll("1d10+TB", EnteredDice([5]), "damage", names={"SB": 3, "AgB": 4}),
            "damage: the bonus TB is not on this profile (known: AgB, SB)",
            "damage: la bonificación TB no está en este perfil (se conocen: AgB, SB)",
        ),
        (
            lambda: roll("1d10+SB", EnteredDice([5]), "damage", names={"SB": 2.5}),
            "damage: the bonus SB must be a whole number, not 2.5",
            "damage: la bonificación SB debe ser un número entero, no 2.5",
        ),
        (
            lambda: roll("1d6/(1d2-1)", EnteredDice([4, 1]), "damage"),
            "damage: 1d6/(1d2-1): division by zero",
            "damage: 1d6/(1d2-1): división por cero",
        ),
        (
            lambda: distribution("1d6/(1d2-1)"),
            "1d6/(1d2-1): division by zero is possible",
            "1d6/(1d2-1): puede haber una división por cero",
        ),
        (
            lambda: distribution("2d1000kh1"),
            "2d1000kh1: too many outcomes for an exact distribution",
            "2d1000kh1: demasiados resultados posibles para una distribución exacta",
        ),
        (
            lambda: distribution("20d100kh20+1"),
            "20d100kh20+1: too many outcomes for an exact distribution (at 20d100kh20)",
            "20d100kh20+1: demasiados resultados posibles para una distribución exacta "
            "(en 20d100kh20)",
        ),
    ],
)
def test_a_refused_roll_reads_in_spanish(
    attempt: Callable[[], object], english: str, spanish: str
) -> None:
    with pytest.raises(DiceValueError) as caught:
        attempt()
    error = caught.value
    assert (str(error), error.render("es")) == (english, spanish)
    assert english_words(error.render("es"), ["damage"]) == []


def test_the_dice_of_a_roll_are_numbered_in_the_readers_language() -> None:
    purpose = Message("dice.expected.number")  # any message stands for a rule's purpose
    result = roll("2d6+1", EnteredDice([3, 5]), purpose)
    assert [render(die.purpose, "es") for die in result.dice] == [
        "un número, dado 1",
        "un número, dado 2",
    ]
    assert result.dice[1].purpose == Message("dice.die_number", purpose=purpose, number=2)
    assert str(result) == "a number: 2d6+1 = 2d6 (3, 5) + 1 = 9"
    assert render(result.explain(), "es") == "un número: 2d6+1 = 2d6 (3, 5) + 1 = 9"


def test_a_missing_die_is_asked_for_in_spanish() -> None:
    with pytest.raises(DiceValueError) as caught:
        roll("2d10", EnteredDice([4]), Message.verbatim("Bruno"))
    assert caught.value.render("es") == "Bruno, dado 2: tira un d10 y escribe su valor"
