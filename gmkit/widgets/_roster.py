"""Browse a campaign's rosters and read any character's sheet."""

from __future__ import annotations

import html

import ipywidgets as widgets
from traitlets import Unicode, observe

from gmkit.games import game as find_game
from gmkit.sheets._roster import Campaign, Roster
from gmkit.sheets.base import Sheet
from gmkit.widgets._i18n import words
from gmkit.widgets._render import STYLE, roster_summary_html, sheet_html


class SheetView(widgets.VBox):
    """One roster: its summary table, a character picker and the picked character's sheet."""

    selected = Unicode("", help="name of the character whose sheet is shown").tag(sync=True)

    def __init__(self, roster: Roster, **kwargs: object) -> None:
        self.roster = roster
        self._by_name: dict[str, Sheet] = {sheet.name: sheet for sheet in roster.sheets}
        self.summary = widgets.HTML(
            f"{STYLE}<h3>{html.escape(words(find_game(roster.game).title))}</h3>"
            f"<p>{roster.summary}</p>"
            f"{roster_summary_html(roster.sheets)}"
        )
        self.picker = widgets.Dropdown(
            options=list(self._by_name), description="Character", layout={"width": "28em"}
        )
        self.card = widgets.HTML()
        self.picker.observe(self._on_pick, names="value")
        super().__init__(children=[self.summary, self.picker, self.card], **kwargs)
        if self._by_name:
            self.select(next(iter(self._by_name)))

    def select(self, name: str) -> None:
        """Show ``name``'s sheet (what the picker does)."""
        if name not in self._by_name:
            raise KeyError(f"no character {name!r} in {self.roster.title!r}")
        self.selected = name

    @observe("selected")
    def _render(self, change: dict[str, object]) -> None:
        name = str(change["new"])
        self.picker.value = name
        self.card.value = sheet_html(self._by_name[name])

    def _on_pick(self, change: dict[str, object]) -> None:
        if change["new"]:
            self.select(str(change["new"]))


class RosterBrowser(widgets.Tab):
    """A tab per roster of the campaign."""

    def __init__(self, campaign: Campaign, **kwargs: object) -> None:
        self.campaign = campaign
        self.views = [SheetView(roster) for roster in campaign.rosters]
        super().__init__(children=self.views, **kwargs)
        for index, roster in enumerate(campaign.rosters):
            self.set_title(index, roster.title)

    def show(self, title: str) -> SheetView:
        """Switch to the roster titled ``title`` and return its view."""
        for index, view in enumerate(self.views):
            if view.roster.title == title:
                self.selected_index = index
                return view
        raise KeyError(f"no roster {title!r}")
