"""Property tests: generated valid expressions print back, arbitrary text only ever raises
DiceError, and rolling generated expressions stays within their exact distribution.

Hypothesis runs derandomized (a fixed seed per test), so every run checks the same cases.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmkit.dice import SeededDice, distribution, parse, roll
from gmkit.dice._parser import MAX_LENGTH
from gmkit.errors import DiceError, DiceSyntaxError, DiceValueError

pytestmark = (
    pytest.mark.slow
)  # the dice parser fuzzed with generated text: not in `scripts/test --quick`

T = TypeVar("T")

DICE_ALPHABET = "0123456789dDkKhHlL%+-*/() SBTB"
TOKENS = ["1", "2", "10", "0", "d", "D", "d6", "2d10", "4d6", "%", "kh", "kl", "dh", "DL", "3"]
TOKENS += ["+", "-", "*", "/", "(", ")", " ", "SB", "TB", "AgB", "\t", "x", "00", "d%"]
PROFILE = {"SB": 4, "TB": 3, "AgB": -2, "Zero": 0, "Big": 1000}

deterministic = settings(derandomize=True, database=None, deadline=None, max_examples=500)


def _names() -> st.SearchStrategy[str]:
    """Bonus names: capital first; a D followed by a digit or % would be a die instead."""
    made_up = st.from_regex(r"\A(?:[A-CE-Z][A-Za-z0-9_]{0,5}|D[A-Za-z_][A-Za-z0-9_]{0,4})\Z")
    return st.one_of(st.sampled_from(sorted(PROFILE)), made_up)


@st.composite
def _dice(draw: st.DrawFn, max_count: int, sides: st.SearchStrategy[str], canonical: bool) -> str:
    count = draw(st.integers(1, max_count))
    written = draw(st.sampled_from(["", str(count)] + ([] if canonical else [f"0{count}"])))
    count = count if written else 1  # "d6" is one die
    text = f"{written}{draw(st.sampled_from('dD'))}{draw(sides)}"
    if draw(st.booleans()):
        mode = draw(st.sampled_from(["kh", "kl", "dh", "dl", "KH", "Kl", "dH", "DL"]))
        text += f"{mode}{draw(st.integers(0, count))}"
    return text


def expressions(
    *, canonical: bool = False, max_count: int = 100, max_sides: int = 1000, max_leaves: int = 8
) -> st.SearchStrategy[str]:
    """Valid dice expressions. Canonical ones have no spaces and no leading zeros."""
    sides = st.one_of(st.integers(2, max_sides).map(str), st.just("%"))
    if max_sides < 100:
        sides = st.integers(2, max_sides).map(str)
    numbers = st.integers(0, 1_000_000 if max_leaves > 4 else 20).map(str)
    if not canonical:
        numbers = st.one_of(numbers, numbers.map(lambda n: "0" + n))
    space = st.just("") if canonical else st.sampled_from(["", "", " ", "  ", "\t"])
    atoms = st.one_of(_dice(max_count, sides, canonical), numbers, _names())

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        join: Callable[..., str] = lambda *parts: "".join(parts)  # noqa: E731
        return st.one_of(
            st.builds(join, inner, space, st.sampled_from("+-*/"), space, inner),
            st.builds(join, st.just("-"), space, inner),
            st.builds(join, st.just("("), space, inner, space, st.just(")")),
        )

    tree = st.recursive(atoms, extend, max_leaves=max_leaves)
    return st.builds(lambda a, t, b: a + t + b, space, tree, space).filter(
        lambda text: len(text) <= MAX_LENGTH
    )


@deterministic
@given(expressions(canonical=True))
def test_canonical_expressions_print_back_unchanged(text: str) -> None:
    assert str(parse(text)) == text


@deterministic
@given(expressions())
def test_any_valid_expression_prints_back_to_an_equal_tree(text: str) -> None:
    parsed = parse(text)
    printed = str(parsed)
    assert parse(printed) == parsed
    assert str(parse(printed)) == printed
    assert not any(c.isspace() for c in printed)


arbitrary_text = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=DICE_ALPHABET, max_size=40),
    st.lists(st.sampled_from(TOKENS), max_size=20).map("".join),
    st.text(alphabet=DICE_ALPHABET, min_size=MAX_LENGTH - 5, max_size=MAX_LENGTH + 5),
    expressions(max_leaves=4),
)


def _attempt(call: Callable[[], T]) -> tuple[T | None, DiceError | None]:
    """``call()``'s result, or the DiceError it raised; anything else propagates and fails."""
    try:
        return call(), None
    except DiceError as error:
        return None, error


@settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=10_000,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(arbitrary_text)
def test_arbitrary_text_only_ever_raises_dice_errors(text: str) -> None:
    parsed, error = _attempt(lambda: parse(text))
    if parsed is None:
        assert isinstance(error, DiceSyntaxError)
        assert error.text == text
        assert 0 <= error.position <= len(text)
        assert f"at position {error.position + 1} found " in str(error)
        assert error.expected
        return
    printed = str(parsed)
    assert parse(printed) == parsed
    assert len(printed) <= len(text)  # printing drops spaces and leading zeros, adds nothing


@settings(derandomize=True, database=None, deadline=None, max_examples=400)
@given(expressions(max_count=3, max_sides=12, max_leaves=4), st.integers(0, 2**32))
def test_rolling_generated_expressions_stays_within_the_distribution(text: str, seed: int) -> None:
    expression = parse(text)
    names = {name: PROFILE.get(name, 1) for name in expression.names}
    source = SeededDice(seed)
    result, error = _attempt(lambda: roll(text, source, "fuzz", names))
    if result is None:
        assert isinstance(error, DiceValueError)
        assert "division by zero" in str(error)
        return
    assert len(result.dice) == sum(term.count for term in expression.dice) == len(source.history)
    assert source.history == list(result.dice)
    if len(result.dice) > 1:
        assert [str(d.purpose) for d in result.dice] == [
            f"fuzz die {n}" for n in range(1, len(result.dice) + 1)
        ]
    odds, error = _attempt(lambda: distribution(expression, names))
    if odds is None:  # only a possible (not actual) division by zero, or too large to count
        assert isinstance(error, DiceValueError)
        assert "division by zero is possible" in str(error) or "too many outcomes" in str(error)
        return
    assert odds.minimum <= result.total <= odds.maximum
    assert odds.probability(result.total) > 0
    assert sum(odds.probabilities().values()) == 1


@deterministic
@given(expressions(max_count=3, max_sides=12, max_leaves=4))
def test_a_division_by_zero_is_always_a_dice_value_error(text: str) -> None:
    names = {name: PROFILE.get(name, 1) for name in parse(text).names}
    zeroed = f"({text})/(Zero*({text}))"
    if len(zeroed) <= MAX_LENGTH:
        with pytest.raises(DiceValueError, match="division by zero"):
            roll(zeroed, SeededDice(0), "fuzz", {**names, "Zero": 0})
