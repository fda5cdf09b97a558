"""What the table shows in place of a fight that is no longer in the campaign file.

A prep cell run again with ``replace="played"`` (or a fight deleted elsewhere) takes the
encounter an open table shows out of the file. The table does not go on showing it as if it
were live: its panels go, and this notice says plainly what happened, with a button that opens
the fight now of that name (when there is one). The dashboard decides when; this only renders
and calls back.
"""

from __future__ import annotations

import html
from collections.abc import Callable

import ipywidgets as widgets

from gmkit.messages import Message, render
from gmkit.widgets._i18n import LANGUAGE


class GoneNotice(widgets.VBox):
    """The notice for the fight ``name`` (``events`` of it were read here) that left the file;
    ``reopen`` (None: no fight of that name now) opens the one now of that name."""

    def __init__(self, name: str, events: int, reopen: Callable[[], None] | None) -> None:
        self.name = name
        self.events = events
        self.text = widgets.HTML()
        self.open_button = widgets.Button(button_style="primary", layout={"width": "auto"})
        self.open_button.on_click(lambda _button: reopen() if reopen is not None else None)
        self.open_button.layout.display = "" if reopen is not None else "none"
        super().__init__(children=[self.text, self.open_button])
        self.add_class("gmkit-gone-notice")
        self.relabel()

    def relabel(self) -> None:
        """The notice and the button in the current language."""
        language = LANGUAGE.value
        said = Message("widgets.dashboard.fight_gone", encounter=self.name, events=self.events)
        text = html.escape(render(said, language), quote=False)
        self.text.value = f"<div class='gmkit-error'>{text}</div>"
        opened = Message("widgets.dashboard.open_new", encounter=self.name)
        self.open_button.description = render(opened, language)
