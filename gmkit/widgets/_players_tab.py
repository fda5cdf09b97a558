"""The dashboard's players' tab: what the GM lets the players see of the fight.

The enemy wounds shown (exact, a band, hidden), the sides the players play (they see those
sheets and exact wounds) and revealing a hidden combatant. Each control calls the
dashboard's public method (``set_enemy_wounds``, ``set_player_sides``, ``reveal``), and the
controls show what the encounter's settings hold (:meth:`PlayersControls.render`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from gmkit.encounter._settings import WOUNDS_SHOWN
from gmkit.widgets._i18n import t
from gmkit.widgets._seats_panel import SeatsPanel

if TYPE_CHECKING:
    from gmkit.widgets._dashboard import Dashboard
    from gmkit.widgets._tracker import Shared

__all__ = ["WOUNDS_SHOWN", "PlayersControls"]


def _text(key: str) -> str:
    found = t(f"dashboard.{key}")
    return t(key) if found == f"dashboard.{key}" else found


class PlayersControls(widgets.VBox):
    """The players' tab's controls (see the module docstring)."""

    def __init__(self, dashboard: Dashboard, looks: Shared) -> None:
        self.dashboard = dashboard
        initial = {"description_width": "initial"}
        self.wounds = looks.make(
            widgets.ToggleButtons, options=[(k, k) for k in WOUNDS_SHOWN], style=initial
        )
        self.sides = looks.make(
            widgets.SelectMultiple, rows=3, layout={"width": "26em"}, style=initial
        )
        self.reveal_picker = looks.make(widgets.Dropdown, layout={"width": "22em"})
        self.reveal_button = looks.make(widgets.Button)
        self._syncing = False
        self.seats = SeatsPanel(dashboard)  # each player's seat: their link and its QR code
        super().__init__(
            children=[
                self.wounds,
                self.sides,
                looks.make(widgets.HBox, children=[self.reveal_picker, self.reveal_button]),
                self.seats,
            ]
        )
        self.wounds.observe(self._on_wounds, names="value")
        self.sides.observe(self._on_sides, names="value")
        self.reveal_button.on_click(lambda _b: dashboard.reveal(self.reveal_picker.value or ""))
        self.relabel()

    def relabel(self) -> None:
        self.wounds.description = _text("enemy_wounds")
        self.sides.description = _text("player_sides")
        self.reveal_button.description = _text("reveal")
        self.render()

    def render(self) -> None:
        """The controls as the encounter's settings hold them."""
        encounter = self.dashboard.encounter
        self._syncing = True
        try:
            state = encounter.state if encounter is not None else None
            settings = state.settings if state is not None else {}
            labels = [(_text(key), key) for key in WOUNDS_SHOWN]
            if list(self.wounds.options) != labels:
                self.wounds.options = labels
            shown = str(settings.get("enemy_wounds", "band"))
            if self.wounds.value != shown:
                self.wounds.value = shown
            sides = sorted({c.side for c in state.present}) if state is not None else []
            if list(self.sides.options) != sides:
                self.sides.options = sides
            chosen = tuple(s for s in settings.get("player_sides", ()) if s in sides)
            if tuple(self.sides.value) != chosen:
                self.sides.value = chosen
            hidden = [(c.name, c.id) for c in state.present if c.hidden] if state else []
            if list(self.reveal_picker.options) != hidden:
                self.reveal_picker.options = hidden
            if hidden and self.reveal_picker.value is None:
                self.reveal_picker.value = hidden[0][1]
            self.reveal_button.disabled = not hidden
        finally:
            self._syncing = False
        self.seats.render()

    def _settings(self) -> dict[str, Any]:
        encounter = self.dashboard.encounter
        return dict(encounter.state.settings) if encounter is not None else {}

    def _on_wounds(self, change: dict[str, Any]) -> None:
        if self._syncing or self.dashboard.encounter is None:
            return
        if change["new"] != self._settings().get("enemy_wounds", "band"):
            self.dashboard.set_enemy_wounds(str(change["new"]))

    def _on_sides(self, change: dict[str, Any]) -> None:
        if self._syncing or self.dashboard.encounter is None:
            return
        if tuple(change["new"]) != tuple(self._settings().get("player_sides", ())):
            self.dashboard.set_player_sides(list(change["new"]))
