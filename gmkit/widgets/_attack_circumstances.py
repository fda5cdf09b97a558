"""The attack panel's circumstances: one line of those in effect, and a control per
circumstance of the game once the GM opens them (a :class:`~gmkit.widgets._folded.FoldedSection`),
labelled in the GM's language; and, open, *Keep for the fight*: the circumstances set now are
pinned (darkness, a storm) and survive every reset, marked so on the line."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from gmkit._forms import AttackForm
from gmkit.messages import Message
from gmkit.systems.base import Choice
from gmkit.widgets._folded import FoldedSection
from gmkit.widgets._i18n import t, words
from gmkit.widgets._sync import assign as _set
from gmkit.widgets._tracker import Shared


class CircumstanceEditor(FoldedSection):
    """The circumstances' line, toggle and controls, and the toggle that pins them."""

    def __init__(self, shared: Shared, changed: Callable[[str, Any], None]) -> None:
        super().__init__(shared, changed)
        # shown only while open: its own layout
        self.keep = widgets.ToggleButton(
            layout=widgets.Layout(width="auto"), style=shared.style(widgets.ToggleButton)
        )
        self.row.children = [self.line, self.toggle, self.keep]

    def close(self) -> None:
        self.keep.layout.close()
        self.keep.close()
        super().close()

    def sync(self, form: AttackForm, open_: bool) -> None:
        """Show what ``form`` holds: the line, the toggle, and the controls when open."""
        offered = form.offered.circumstances
        by_id = {choice.id: choice for choice in offered}
        pin = " \N{PUSHPIN}"  # kept for the fight
        chosen = [
            (
                words(by_id[key].label)
                if value is True
                else f"{words(by_id[key].label)} {_value(by_id[key], value)}"
            )
            + (pin if key in form.pinned else "")
            for key, value in form.in_effect.items()
            if key in by_id
        ]
        summary = html.escape(", ".join(chosen) or words(Message("widgets.none_set")))
        _set(self.line, value=f"<b>{html.escape(t('circumstances'))}</b>: {summary}")
        _set(self.toggle, description=words(Message("widgets.edit_circumstances")))
        _set(self.toggle, value=open_)
        _set(self.keep, description=t("keep_for_fight"), tooltip=t("keep_for_fight_help"))
        set_now = {k for k, v in form.circumstances.items() if v not in (None, False, 0, "")}
        _set(self.keep, value=bool(set_now) and set_now <= set(form.pinned))
        _set(self.keep.layout, display="" if open_ else "none")
        self.sync_controls(form, build=open_)
        self.show(open_, bool(offered))

    def sync_controls(self, form: AttackForm, *, build: bool) -> None:
        """The controls to the circumstances offered and their values; built if ``build``
        (or already built), else left unbuilt."""
        offered = {choice.id: choice for choice in form.offered.circumstances}
        self.build(tuple(offered), lambda key: self._control(offered[key]), now=build)
        self._syncing = True
        try:
            for key, control in self.controls.items():
                value = form.in_effect.get(key)
                kind = offered[key].kind if key in offered else "flag"
                if kind == "flag":
                    _set(control, value=bool(value))
                elif kind == "number":
                    _set(control, value=int(value or 0))
                else:
                    _set(control, value=value or "")
        finally:
            self._syncing = False

    def _control(self, choice: Choice) -> widgets.Widget:
        text, tip = words(choice.label), words(choice.help)
        initial = {"description_width": "initial"}
        make = self._shared.make
        if choice.kind == "flag":
            return make(widgets.Checkbox, description=text, indent=False, tooltip=tip)
        if choice.kind == "number":
            return make(widgets.IntText, description=text, style=initial, tooltip=tip)
        options = [("", ""), *((words(choice.option_label(o)), o) for o in choice.options)]
        return make(widgets.Dropdown, description=text, options=options, style=initial, tooltip=tip)


def _value(choice: Choice, value: Any) -> str:
    """A circumstance's value as the line shows it: a choice's option in the GM's words
    ("Hulking", "Corpulento"; not its id), a number as it is."""
    if choice.kind == "choice" and value in choice.options:
        return words(choice.option_label(str(value)))
    return str(value)


__all__ = ["CircumstanceEditor"]
