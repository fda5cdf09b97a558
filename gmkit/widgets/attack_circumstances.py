"""The attack panel's circumstances: one line of those in effect, and a control per
circumstance of the game once the GM opens them (built then, in the GM's language).

Cheap at the table: until opened, the circumstances cost one HTML line and a toggle; the
controls (one per circumstance of the game's catalog) are built on first use and dropped when
the circumstances offered change (another action) or the language does.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from gmkit.forms import AttackForm
from gmkit.messages import Message
from gmkit.systems.base import Choice
from gmkit.widgets.i18n import t, words
from gmkit.widgets.sync import assign as _set
from gmkit.widgets.tracker import Shared


class CircumstanceEditor:
    """The line, the toggle, and (built on first use) the grid of controls."""

    def __init__(self, shared: Shared, changed: Callable[[str, Any], None]) -> None:
        self._shared = shared
        self._changed = changed
        self.box = shared.make(widgets.VBox)
        self.line = shared.make(widgets.HTML)
        self.toggle = shared.make(widgets.ToggleButton, layout={"width": "auto"})
        self.row = shared.make(widgets.HBox, children=[self.line, self.toggle])
        self.grid: widgets.GridBox | None = None
        self.controls: dict[str, widgets.Widget] = {}
        self._ids: tuple[str, ...] = ()
        self._syncing = False

    def sync(self, form: AttackForm, open_: bool) -> None:
        """Show what ``form`` holds: the line, the toggle, and the controls when open."""
        offered = form.offered.circumstances
        names = {choice.id: words(choice.label) for choice in offered}
        chosen = [
            names[key] if value is True else f"{names[key]} {value}"
            for key, value in form.in_effect.items()
            if key in names
        ]
        summary = html.escape(", ".join(chosen) or words(Message("widgets.none_set")))
        _set(self.line, value=f"<b>{html.escape(t('circumstances'))}</b>: {summary}")
        _set(self.toggle, description=words(Message("widgets.edit_circumstances")))
        _set(self.toggle, value=open_)
        self.sync_controls(form, build=open_)
        wanted = [self.row] if offered else []
        if open_ and self.grid is not None and offered:
            wanted.append(self.grid)
        if list(self.box.children) != wanted:
            self.box.children = wanted

    def sync_controls(self, form: AttackForm, *, build: bool) -> None:
        """The controls to the circumstances offered and their values; built if ``build``
        (or already built), else left unbuilt."""
        offered = form.offered.circumstances
        ids = tuple(choice.id for choice in offered)
        if ids != self._ids:
            self.drop()
        if not self.controls and not build:
            return
        if not self.controls and ids:
            self._ids = ids
            self.controls = {choice.id: self._control(choice) for choice in offered}
            self.grid = self._shared.make(
                widgets.GridBox,
                children=list(self.controls.values()),
                layout={"grid_template_columns": "repeat(2, 26em)"},
            )
        self._syncing = True
        try:
            for choice in offered:
                control = self.controls.get(choice.id)
                if control is None:
                    continue
                value = form.in_effect.get(choice.id)
                if choice.kind == "flag":
                    _set(control, value=bool(value))
                elif choice.kind == "number":
                    _set(control, value=int(value or 0))
                else:
                    _set(control, value=value or "")
        finally:
            self._syncing = False

    def drop(self) -> None:
        """Close the controls (built again when next shown)."""
        for control in self.controls.values():
            control.close()
        self.controls, self._ids = {}, ()
        grid, self.grid = self.grid, None
        if grid is not None:
            kept = tuple(child for child in self.box.children if child is not grid)
            if kept != tuple(self.box.children):
                self.box.children = kept
            grid.close()

    def close(self) -> None:
        self.drop()
        for part in (self.line, self.toggle, self.row, self.box):
            part.close()

    def _control(self, choice: Choice) -> widgets.Widget:
        text, tip = words(choice.label), words(choice.help)
        initial = {"description_width": "initial"}
        make = self._shared.make
        if choice.kind == "flag":
            control: widgets.Widget = make(
                widgets.Checkbox, description=text, indent=False, tooltip=tip
            )
        elif choice.kind == "number":
            control = make(widgets.IntText, description=text, style=initial, tooltip=tip)
        else:
            control = make(
                widgets.Dropdown,
                description=text,
                options=[("", ""), *((words(choice.option_label(o)), o) for o in choice.options)],
                style=initial,
                tooltip=tip,
            )

        def changed(change: dict[str, Any]) -> None:
            if not self._syncing:
                self._changed(choice.id, change["new"])

        control.observe(changed, names="value")
        return control


__all__ = ["CircumstanceEditor"]
