"""The dice tray, driven through roll(), its fields and its buttons, with seeded or typed dice."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gmkit.dice import SeededDice, distribution, roll
from gmkit.widgets._dice_tray import HISTORY, DiceTray, parse_bonuses
from gmkit.widgets._i18n import LANGUAGE

pytestmark = pytest.mark.usefixtures("english")  # tests/conftest.py: English, then again


@pytest.fixture
def tray() -> Iterator[DiceTray]:
    made = DiceTray(seed=0)
    yield made
    made.close()


def test_a_seeded_roll_shows_dice_total_mean_and_the_chance_of_that_or_more(tray):
    expected = roll("2d10+3", SeededDice(0), "2d10+3")
    assert expected.total == 17  # seed 0: 7 and 7

    result = tray.roll("2d10+3")

    assert result is not None
    assert result.total == 17
    assert [die.value for die in result.dice] == [7, 7]
    shown = tray.history_area.value
    assert "<span class='gmkit-total'>17</span>" in shown
    assert "2d10 (7, 7) + 3" in shown
    assert distribution("2d10+3").at_least(17) * 100 == 28
    assert "mean 14 · P(≥ 17) 28.0%" in shown
    assert tray.expression.value == "2d10+3"
    assert tray.error_area.value == ""


def test_the_roll_button_rolls_the_fields_expression(tray):
    tray.expression.value = "d100"
    tray.roll_button.click()
    assert len(tray.history) == 1
    assert str(tray.history[0].expression) == "d100"
    assert not tray.history[0].dice[0].physical


def test_a_syntax_error_is_shown_at_its_position_and_nothing_is_rolled(tray):
    assert tray.roll("2d10+*3") is None
    shown = tray.error_area.value
    assert "position 6" in shown
    assert "<code>2d10+<span class='gmkit-caret'>*</span>3</code>" in shown
    assert tray.history == ()
    assert tray.dice.history == []
    assert tray.roll("1d6") is not None
    assert tray.error_area.value == ""  # the next good roll clears it


def test_physical_mode_uses_the_typed_values_and_marks_the_roll(tray):
    tray.mode_picker.value = "physical"
    assert tray.mode == "physical"
    assert tray.values.layout.display == ""
    tray.values.value = "3, 6"
    result = tray.roll("2d6")
    assert result is not None
    assert result.total == 9
    assert all(die.physical for die in result.dice)
    assert tray.values.value == ""
    assert "Table&#x27;s dice" in tray.history_area.value
    assert tray.dice.history == []  # gmkit's dice were not touched


def test_physical_mode_asks_for_missing_values_and_reports_extra_ones(tray):
    tray.mode = "physical"
    tray.values.value = "4"
    assert tray.roll("2d6") is None
    assert "roll a d6 and enter its value" in tray.error_area.value
    assert tray.values.value == "4"  # kept, to complete
    tray.values.value = "4 5 6"
    result = tray.roll("2d6")
    assert result is not None
    assert result.total == 9
    assert "unused" in tray.error_area.value
    assert "6" in tray.error_area.value


def test_a_value_the_die_cannot_show_is_refused():
    tray = DiceTray()
    tray.mode = "physical"
    tray.values.value = "7"
    assert tray.roll("1d6") is None
    assert "cannot come from a d6" in tray.error_area.value
    tray.close()


def test_named_bonuses():
    tray = DiceTray(seed=1, names={"SB": 4})
    assert tray.bonuses.value == "SB=4"
    result = tray.roll("1d10+SB")
    assert result is not None
    assert result.total == result.dice[0].value + 4
    assert "SB(4)" in tray.history_area.value
    assert tray.roll("1d10+TB") is None
    assert "TB" in tray.error_area.value
    tray.bonuses.value = "SB=four"
    assert tray.roll("1d10") is None
    assert "NAME=number" in tray.error_area.value
    tray.close()


def test_parse_bonuses():
    assert parse_bonuses("SB=4, TB=-1;AB=+2") == {"SB": 4, "TB": -1, "AB": 2}
    assert parse_bonuses("  ") == {}
    with pytest.raises(ValueError, match="SB"):
        parse_bonuses("SB")


def test_dropped_dice_are_struck_and_odds_that_cannot_be_counted_say_why(tray):
    assert tray.roll("3d6kh2") is not None
    assert "<s>" in tray.history_area.value
    assert tray.roll("100d100*100d100") is not None
    assert "too many outcomes" in tray.history_area.value


def test_history_is_newest_first_and_bounded(tray):
    for sides in range(2, HISTORY + 5):
        tray.roll(f"1d{sides}")
    assert len(tray.history) == HISTORY
    assert str(tray.history[0].expression) == f"1d{HISTORY + 4}"
    assert tray.history_area.value.index(f"1d{HISTORY + 4}") < tray.history_area.value.index(
        f"1d{HISTORY + 3}"
    )


def test_the_same_seed_gives_the_same_rolls():
    first, second = DiceTray(seed="table"), DiceTray(seed="table")
    assert [first.roll("3d6").total for _ in range(5)] == [
        second.roll("3d6").total for _ in range(5)
    ]
    first.close()
    second.close()


def test_spanish_labels_keep_the_mode(tray):
    tray.roll("2d10+3")
    tray.mode = "physical"
    LANGUAGE.value = "es"
    assert tray.roll_button.description == "Tirar"
    assert [label for label, _ in tray.mode_picker.options] == ["Tira gmkit", "Dados de la mesa"]
    assert tray.mode == "physical"
    assert tray.mode_picker.value == "physical"
    assert "2d10 (7, 7) + 3" in tray.history_area.value  # the history is drawn again
    LANGUAGE.value = "en"
    assert tray.roll_button.description == "Roll"
