"""The table's dice, typed: a box per die, kept by the browser (an anywidget).

The rules' dice plan (:class:`~gmkit._forms.dice.DicePlan`) says which dice an attack needs now,
after those typed so far, and what may follow and why: :meth:`DiceEntry.follow` shows a box per
certain die, labelled with the die and its purpose ("d100 · to hit"), the dice the rules asked
for, a spare box while the rules may ask for more, and under them the plan's lines ("now: d10
damage (hit 1)", "if the d10 damage (hit 1) shows 10: up to 20 d100 Righteous Fury
confirmation (hit 1)") until the result is in. The browser keeps what is typed and sends the
whole list (``values``) each time a box is left, so no entry is lost at any typing speed; Python
never overwrites what the browser holds except on :meth:`clear`. A value the die cannot show is
marked in its box, by the browser as it is typed and by the rules (``marks``) once resolved.

Wiring (what a panel does)::

    entry = DiceEntry()
    entry.follow(form.dice.plan(game, request), form.dice)
    entry.observe(lambda change: ..., names="values")  # then form.dice.take(game, request,
    # entry.values) and entry.follow(form.dice.plan(game, request), form.dice) again
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import anywidget
from traitlets import Bool, Dict, List, Unicode

from gmkit._forms.dice import DicePlan, DiceState, PlannedDie
from gmkit.messages import Message, Text
from gmkit.widgets._i18n import LANGUAGE, t, words

STATIC = Path(__file__).parent / "static"


class DiceEntry(anywidget.AnyWidget):
    """A box per physical die; ``values`` holds what was typed in them, in order."""

    _esm = STATIC / "dice_entry.js"
    _css = STATIC / "dice_entry.css"

    slots = List(
        Dict(), help="the dice the boxes are for, in order: {'sides': int, 'label': str}"
    ).tag(sync=True)
    values = List(
        Unicode(), help="what the browser's boxes hold, in order (the browser owns it)"
    ).tag(sync=True)
    more = Bool(False, help="offer a spare box: the rules may ask for more dice").tag(sync=True)
    marks = Dict(
        help="the boxes whose value was refused: their index (a str) -> why, in words"
    ).tag(sync=True)
    texts = Dict(help="the browser's words in the current language").tag(sync=True)
    note = Unicode(
        "", help="the lines under the boxes: the dice needed now, those that may follow and why"
    ).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._dice: tuple[PlannedDie, ...] = ()
        self._why: dict[int, Text] = {}
        self._later: tuple[Text, ...] = ()
        self._relabel()
        LANGUAGE.observe(self._on_language, names="value")

    # --- what the browser shows ---------------------------------------------------------------

    @property
    def dice(self) -> tuple[PlannedDie, ...]:
        """The dice the boxes are for."""
        return self._dice

    @property
    def entered(self) -> list[str]:
        """The values typed, up to the first empty box."""
        found: list[str] = []
        for value in self.values:
            if not value.strip():
                break
            found.append(value.strip())
        return found

    def show(
        self,
        dice: Iterable[PlannedDie],
        more: bool = False,
        later: Text | Iterable[Text] | None = None,
    ) -> None:
        """A box for each of ``dice`` (and a spare one when ``more``), ``later`` said under
        them, a line each (the dice needed now, those that may follow); what is typed stays."""
        self._dice = tuple(dice)
        if later is None:
            self._later = ()
        elif isinstance(later, str | Message):
            self._later = (later,)
        else:
            self._later = tuple(later)
        self.more = bool(more)
        self._relabel()

    def follow(self, plan: DicePlan, state: DiceState) -> None:
        """The boxes of ``plan`` (worked out after the values ``state`` took) and of the dice
        ``state`` was asked for, its refused value marked; while the result is not in, a spare
        box when the rules may ask for more, and the plan's lines under the boxes: what is
        needed now, what may follow and why."""
        self._why = {state.refused[0]: state.refused[1]} if state.refused else {}
        waiting = state.result is None
        more = waiting and plan.more
        self.show(plan.slots(state.asked), more=more, later=plan.lines if waiting else None)

    def mark(self, index: int, why: Text | None) -> None:
        """Mark box ``index`` as refused, saying ``why`` (a message); None removes the mark."""
        if index < 0:
            raise ValueError(f"index: {index} is not a box (the first is 0)")
        self._why = {k: v for k, v in self._why.items() if k != index}
        if why is not None:
            self._why[index] = why
        self._relabel()

    # --- the GM's actions (the browser does the same) ------------------------------------------

    def enter(self, values: Sequence[int | str] | int | str) -> None:
        """Type ``values`` into the next empty boxes, as the GM does in the browser."""
        listed = [values] if isinstance(values, int | str) else list(values)
        typed = [str(value).strip() for value in listed]
        if any(not value for value in typed):
            raise ValueError("values: an empty value is not a die's value")
        self.values = [*self.entered, *typed]

    def clear(self) -> None:
        """Empty every box (the only time Python changes what the browser holds)."""
        self._why = {}
        self.values = []
        self._relabel()
        self.send({"type": "clear"})

    def focus(self) -> None:
        """Put the cursor in the first empty box."""
        self.send({"type": "focus"})

    def close(self) -> None:
        if self.comm is None:  # closed already (a panel closes its parts, then their boxes)
            return
        LANGUAGE.unobserve(self._on_language, names="value")
        super().close()

    # --- below ---------------------------------------------------------------------------------

    def _relabel(self) -> None:
        language = LANGUAGE.value
        self.slots = [{"sides": die.sides, "label": die.label(language)} for die in self._dice]
        self.marks = {str(index): words(why) for index, why in sorted(self._why.items())}
        self.note = "\n".join(words(line) for line in self._later)
        self.texts = {
            "next": t("dice_entry_next"),
            "unused": t("unused_dice"),
            "bad": t("dice_entry_bad"),
            "group": t("dice_entry"),
        }

    def _on_language(self, _change: dict[str, Any]) -> None:
        self._relabel()


__all__ = ["DiceEntry"]
