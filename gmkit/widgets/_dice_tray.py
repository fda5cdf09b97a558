"""The dice tray: free rolls of any dice expression, from gmkit's dice or the table's.

Type an expression (``2d10kh1+3``, ``1d10+SB``), press Roll: the history shows the dice, the
total, the exact distribution's mean and the chance of rolling that total or more. Named
bonuses (``SB=4, TB=3``) are optional. In the "table's dice" mode the GM types the values the
physical dice showed, in order. A mistake is shown beside the field (for a syntax error, the
place where it went wrong), never raised into the notebook.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
from traitlets import Enum, observe

from gmkit.dice import DiceSource, EnteredDice, Roll, SeededDice, distribution, roll
from gmkit.errors import DiceSyntaxError, GmkitError
from gmkit.widgets._i18n import LANGUAGE, t
from gmkit.widgets._style import THEME_CLASS, style_widget
from gmkit.widgets._tracker import parse_values

__all__ = ["DiceTray", "parse_bonuses"]

HISTORY = 50
"""Rolls kept in the history (newest first)."""


def parse_bonuses(text: str) -> dict[str, int]:
    """Named bonuses as typed: ``"SB=4, TB=3"`` -> ``{"SB": 4, "TB": 3}``."""
    bonuses: dict[str, int] = {}
    for part in (p for p in re.split(r"[,;\s]+", text.strip()) if p):
        name, equals, value = part.partition("=")
        if not equals or not name or not re.fullmatch(r"[+-]?\d+", value):
            raise ValueError(f"bonuses: {part!r} is not NAME=number (e.g. SB=4)")
        bonuses[name] = int(value)
    return bonuses


class DiceTray(widgets.VBox):
    """An expression field, a Roll button, the dice mode, and the history of rolls.

    ``DiceTray(seed=7)`` rolls with ``SeededDice(7)`` (or pass ``dice``); ``names`` prefills
    the named bonuses.
    """

    mode = Enum(
        ("digital", "physical"),
        default_value="digital",
        help="'digital': gmkit rolls; 'physical': the GM types the values the table's dice show",
    )

    def __init__(
        self,
        *,
        seed: int | str | None = None,
        dice: DiceSource | None = None,
        names: Mapping[str, int] | None = None,
        **kwargs: Any,
    ) -> None:
        self.dice: DiceSource = dice if dice is not None else SeededDice(seed)
        self._history: list[tuple[Roll, tuple[Fraction, Fraction] | str]] = []
        self._relabelling = False
        self.expression = widgets.Text(placeholder="2d10+3", layout=widgets.Layout(width="16em"))
        self.roll_button = widgets.Button()
        self.roll_button.on_click(lambda _button: self.roll())
        self.bonuses = widgets.Text(
            value=", ".join(f"{k}={v}" for k, v in (names or {}).items()),
            placeholder="SB=4, TB=3",
            layout=widgets.Layout(width="14em"),
        )
        self.mode_picker = widgets.ToggleButtons()
        self.values = widgets.Text(placeholder="7, 4, 9", layout=widgets.Layout(width="14em"))
        self.error_area = widgets.HTML()
        self.history_area = widgets.HTML()
        self.history_area.add_class("gmkit-dice-history")
        row = widgets.HBox(
            [self.expression, self.roll_button, self.error_area],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        options = widgets.HBox(
            [self.mode_picker, self.values, self.bonuses],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        super().__init__(children=[style_widget(), row, options, self.history_area], **kwargs)
        self.add_class(THEME_CLASS)
        self.add_class("gmkit-dice-tray")
        self._relabel()
        self.mode_picker.observe(self._on_pick, names="value")
        LANGUAGE.observe(self._on_language, names="value")
        self._following = True
        self._show_mode()

    # --- the user's actions -------------------------------------------------------------

    def roll(self, expression: str | None = None) -> Roll | None:
        """Roll ``expression`` (default: the field's), with the bonuses typed and the dice of
        the current mode. Returns the roll, or None if refused (the reason is shown)."""
        text = self.expression.value if expression is None else expression
        self.error_area.value = ""
        try:
            names = parse_bonuses(self.bonuses.value)
            source: DiceSource = self.dice
            if self.mode == "physical":
                source = EnteredDice(parse_values(self.values.value))
            result = roll(text, source, text.strip() or "roll", names)
        except DiceSyntaxError as error:
            self._refuse(str(error), error)
            return None
        except (GmkitError, ValueError) as error:
            self._refuse(str(error))
            return None
        if expression is not None:
            self.expression.value = expression
        note = ""
        if isinstance(source, EnteredDice):
            self.values.value = ""  # the typed dice have been read
            if source.pending:
                note = f"{t('unused_values')}: {', '.join(str(v) for v in source.pending)}"
        self._history.insert(0, (result, self._odds(result, names)))
        del self._history[HISTORY:]
        self._render_history()
        if note:
            self.error_area.value = f"<span class='gmkit-message'>{html.escape(note)}</span>"
        return result

    @property
    def history(self) -> tuple[Roll, ...]:
        """The rolls shown, newest first."""
        return tuple(entry for entry, _ in self._history)

    def close(self) -> None:
        if not getattr(self, "_following", False):
            return
        self._following = False
        LANGUAGE.unobserve(self._on_language, names="value")
        for box in self.children[1:3]:
            for part in box.children:
                part.close()
        for part in self.children:
            part.close()
        super().close()

    # --- helpers ------------------------------------------------------------------------

    def _refuse(self, message: str, syntax: DiceSyntaxError | None = None) -> None:
        shown = f"<span class='gmkit-error'>{html.escape(message)}</span>"
        if syntax is not None:
            before = html.escape(syntax.text[: syntax.position])
            at = html.escape(syntax.text[syntax.position : syntax.position + 1] or "_")
            after = html.escape(syntax.text[syntax.position + 1 :])
            shown += f"<br><code>{before}<span class='gmkit-caret'>{at}</span>{after}</code>"
        self.error_area.value = shown

    @staticmethod
    def _odds(result: Roll, names: Mapping[str, int]) -> tuple[Fraction, Fraction] | str:
        """The exact mean and the chance of this total or more, or why they are not known."""
        try:
            exact = distribution(result.expression, names)
        except GmkitError as error:
            return str(error)
        return exact.mean(), exact.at_least(result.total)

    def _render_history(self) -> None:
        items = []
        for result, odds in self._history:
            if isinstance(odds, str):
                shown = html.escape(odds)
            else:
                mean, chance = odds
                shown = f"{html.escape(t('mean'))} {_number(mean)} · "
                shown += f"P(≥ {result.total}) {_percent(chance)}"
            mark = ""
            if any(die.physical for die in result.dice):
                label = html.escape(t("physical_dice"))
                mark = f" <span class='gmkit-badge gmkit-marker'>{label}</span>"
            items.append(
                f"<div class='gmkit-dice-roll'><span class='gmkit-total'>{result.total}</span> "
                f"<code>{html.escape(str(result.expression))}</code> = "
                f"{_struck(html.escape(str(result.result)))}{mark}"
                f"<div class='gmkit-odds'>{shown}</div></div>"
            )
        self.history_area.value = "".join(items)

    def _on_pick(self, change: Mapping[str, Any]) -> None:
        if not self._relabelling:
            self.mode = str(change["new"])

    @observe("mode")
    def _on_mode(self, _change: object) -> None:
        self._show_mode()

    def _show_mode(self) -> None:
        if self.mode_picker.value != self.mode:
            self.mode_picker.value = self.mode
        self.values.layout.display = "" if self.mode == "physical" else "none"

    def _on_language(self, _change: object) -> None:
        self._relabel()
        self._render_history()

    def _relabel(self) -> None:
        self.roll_button.description = t("roll")
        self.expression.description = t("expression")
        self.bonuses.description = t("modifiers")
        self.values.description = t("dice")
        for field in (self.expression, self.bonuses, self.values):
            field.style.description_width = "initial"
        self._relabelling = True  # new labels reset the picker: keep the mode
        try:
            self.mode_picker.options = [
                (t("gmkit_rolls"), "digital"),
                (t("physical_dice"), "physical"),
            ]
            self.mode_picker.value = self.mode
        finally:
            self._relabelling = False


def _struck(text: str) -> str:
    """Dice a keep/drop left out are written ``~~3~~``: struck through."""
    return re.sub(r"~~(.*?)~~", r"<s>\1</s>", text)


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


def _percent(value: Fraction) -> str:
    shown = float(value) * 100
    if 0 < shown < 0.1:
        return "< 0.1%"
    return f"{shown:.1f}%"
