"""The players' tab's seats: the GM gives each player a seat (their combatants) and its link.

Give: the player's name and the combatants they play (those of the players' sides first), then
*Give a seat*. Each open seat is a row: the player, their combatants, the link a phone opens
(the players' page with the seat's key: ``gmkit players`` tells the seats file where it
serves) and its QR code, drawn here (:func:`gmkit.seats._links.qr_svg`), and *Revoke*, which
closes the link at once. Each button calls the dashboard's public method (``give_seat``,
``revoke_seat``).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import ipywidgets as widgets

from gmkit.errors import GmkitError
from gmkit.seats import Seat
from gmkit.seats._links import qr_svg, seat_link
from gmkit.widgets._i18n import t, words

if TYPE_CHECKING:
    from gmkit.widgets._dashboard import Dashboard


class SeatsPanel(widgets.VBox):
    """The seats of the dashboard's encounter (see the module docstring)."""

    def __init__(self, dashboard: Dashboard) -> None:
        self.dashboard = dashboard
        self.title = widgets.HTML()
        self.player = widgets.Text(layout={"width": "12em"})
        self.combatants = widgets.SelectMultiple(rows=4, layout={"width": "18em"})
        self.give_button = widgets.Button()
        self.give_button.on_click(lambda _b: self.give())
        self.message = widgets.HTML()
        self.rows = widgets.VBox()
        super().__init__(
            children=[
                self.title,
                widgets.HBox([self.player, self.combatants, self.give_button]),
                self.message,
                self.rows,
            ]
        )
        self.add_class("gmkit-seats")
        self.render()

    def give(self) -> bool:
        """A seat for the name typed, playing the combatants chosen."""
        try:
            self.dashboard.give_seat(self.player.value, list(self.combatants.value))
        except GmkitError as error:
            self.message.value = (
                f"<div class='gmkit-error'>{html.escape(words(error.message))}</div>"
            )
            return False
        self.player.value = ""
        self.combatants.value = ()
        self.message.value = ""
        self.render()
        return True

    def revoke(self, key: str) -> None:
        self.dashboard.revoke_seat(key)
        self.render()

    def render(self) -> None:
        dashboard = self.dashboard
        self.title.value = f"<b>{html.escape(t('seats'))}</b>"
        self.player.placeholder = t("seat_player")
        self.give_button.description = t("give_seat")
        encounter = dashboard.encounter
        if encounter is None:
            self.combatants.options = ()
            self.rows.children = []
            return
        state = encounter.state
        sides = set(state.settings.get("player_sides", ()))
        present = sorted(state.present, key=lambda c: c.side not in sides)
        options = [(f"{c.name} ({c.side})", c.id) for c in present if not c.hidden]
        if list(self.combatants.options) != options:
            self.combatants.options = options
        for row in self.rows.children:
            row.close()
        self.rows.children = [self._row(seat) for seat in dashboard.seats()]

    def _row(self, seat: Seat) -> widgets.Widget:
        state = self.dashboard.encounter.state if self.dashboard.encounter else None
        names = [
            state.combatants[i].name if state and i in state.combatants else i
            for i in seat.combatants
        ]
        url = self.dashboard.players_url
        link = seat_link(url, seat.key) if url else f"?seat={seat.key}"
        text = (
            f"<b>{html.escape(seat.player)}</b>: {html.escape(', '.join(names))}<br>"
            f"<code class='gmkit-seat-link'>{html.escape(link)}</code>"
        )
        if not url:
            text += f"<br><i>{html.escape(t('seat_no_players_page'))}</i>"
        revoke = widgets.Button(description=t("revoke_seat"), button_style="warning")
        revoke.on_click(lambda _b, key=seat.key: self.revoke(key))
        shown = [widgets.HTML(text), revoke]
        if url:
            shown.insert(1, widgets.HTML(qr_svg(link)))
        return widgets.HBox(shown, layout={"align_items": "center"})


__all__ = ["SeatsPanel"]
