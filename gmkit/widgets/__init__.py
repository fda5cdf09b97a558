"""Views: ipywidgets that render state and send commands. No rule of any game lives here."""

from gmkit.widgets.roster import RosterBrowser, SheetView

__all__ = ["RosterBrowser", "SheetView"]
