"""Panes: a row of buttons, one per pane, and the pane chosen under them (the dashboard's left
column: the turn, the log, the units).

Unlike ``ipywidgets.Tab`` it is a plain box the page's CSS sizes (it scrolls inside its
column, under a tracker that stays in view), and a pane is built the first time it is shown:
``Panes({"turn": build_turn, ...})``, ``show("log")``, ``set_title("turn", "Turn · 2 due")``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import ipywidgets as widgets
from traitlets import Unicode

from gmkit.widgets._tracker import Shared

__all__ = ["Panes"]


class Panes(widgets.VBox):
    """Buttons naming the panes, and the chosen pane (see the module docstring)."""

    shown = Unicode("", help="the name of the pane shown")

    def __init__(self, builders: Mapping[str, Callable[[], widgets.Widget]]) -> None:
        self._builders = dict(builders)
        self._built: dict[str, widgets.Widget] = {}
        self._titles = {name: name for name in builders}
        self._syncing = False
        self._looks = looks = Shared()
        self.buttons = looks.make(
            widgets.ToggleButtons,
            options=[(name, name) for name in builders],
            value=None,
            style={"button_width": "auto"},
        )
        self.buttons.add_class("gmkit-pane-buttons")
        self.body = looks.make(widgets.VBox)
        self.body.add_class("gmkit-pane-body")
        super().__init__(children=[self.buttons, self.body], layout=looks.layout())
        self.add_class("gmkit-panes")
        self.buttons.observe(self._on_pick, names="value")
        if builders:
            self.show(next(iter(builders)))

    def show(self, name: str) -> None:
        """Show the pane ``name`` (building it the first time)."""
        if name not in self._builders:
            raise ValueError(f"pane {name!r}: no such pane; panes: {', '.join(self._builders)}")
        pane = self._built.get(name)
        if pane is None:
            pane = self._built[name] = self._builders[name]()
        if list(self.body.children) != [pane]:
            self.body.children = [pane]
        self.shown = name
        if self.buttons.value != name:
            self.buttons.value = name

    @property
    def names(self) -> tuple[str, ...]:
        """The panes' names, in the buttons' order."""
        return tuple(self._builders)

    def pane(self, name: str) -> widgets.Widget | None:
        """The pane ``name`` if it was built."""
        return self._built.get(name)

    def set_title(self, name: str, title: str) -> None:
        """The words on the pane's button."""
        if self._titles.get(name) == title:
            return
        self._titles[name] = title
        self._syncing = True  # new options reset the value: not a pick
        try:
            self.buttons.options = [(self._titles[key], key) for key in self._builders]
            self.buttons.value = self.shown or None
        finally:
            self._syncing = False

    def close(self) -> None:
        if self.comm is None:
            return
        for pane in self._built.values():
            pane.close()
        self.buttons.close()
        self.body.close()
        super().close()
        self._looks.close()

    def _on_pick(self, change: Mapping[str, object]) -> None:
        name = change["new"]
        if not self._syncing and isinstance(name, str) and name != self.shown:
            self.show(name)
