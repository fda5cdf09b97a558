"""A panel's folded section: one line of what is set, a toggle, and a grid of controls built
only when the GM opens it (the attack panel's circumstances and options are two).

Cheap at the table: until opened a section costs one HTML line and a toggle; the controls are
built on first use and dropped when what they stand for changes (another action, another
game's options) or the language does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from gmkit.widgets._tracker import Shared


class FoldedSection:
    """The line, the toggle, and (built on first use) the grid of controls by key."""

    def __init__(self, shared: Shared, changed: Callable[[str, Any], None]) -> None:
        self._shared = shared
        self._changed = changed
        self.box = shared.make(widgets.VBox)
        self.line = shared.make(widgets.HTML)
        self.toggle = shared.make(widgets.ToggleButton, layout={"width": "auto"})
        self.row = shared.make(widgets.HBox, children=[self.line, self.toggle])
        self.grid: widgets.GridBox | None = None
        self.controls: dict[str, widgets.Widget] = {}
        self._keys: tuple[str, ...] = ()
        self._syncing = False

    def build(
        self, keys: tuple[str, ...], make: Callable[[str], widgets.Widget], *, now: bool
    ) -> None:
        """The controls for ``keys`` (``make(key)`` each): those built for other keys are
        dropped; built ``now``, or left unbuilt until a later call asks; nothing is built again
        while the keys are the same."""
        if keys != self._keys:
            self.drop()
        if self.controls or not keys or not now:
            return
        self._keys = keys
        self.controls = {key: self.bound(key, make(key)) for key in keys}
        self.grid = self._shared.make(
            widgets.GridBox,
            children=list(self.controls.values()),
            layout={"grid_template_columns": "repeat(auto-fill, minmax(15em, 1fr))"},
        )
        self.grid.add_class("gmkit-fold-grid")

    def bound(self, key: str, control: widgets.Widget) -> widgets.Widget:
        """``control`` calling ``changed(key, value)`` when the GM changes it."""

        def changed(change: dict[str, Any]) -> None:
            if not self._syncing:
                self._changed(key, self.read(key, change["new"]))

        control.observe(changed, names="value")
        return control

    def read(self, key: str, value: Any) -> Any:
        """A control's value as the panel's method takes it (as it is, by default)."""
        return value

    def show(self, open_: bool, offered: bool) -> None:
        """The box: the row when anything is offered, and the grid below it when open."""
        wanted = [self.row] if offered else []
        if open_ and self.grid is not None and offered:
            wanted.append(self.grid)
        if list(self.box.children) != wanted:
            self.box.children = wanted

    def drop(self) -> None:
        """Close the controls (built again when next shown)."""
        for control in self.controls.values():
            control.close()
        self.controls, self._keys = {}, ()
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


__all__ = ["FoldedSection"]
