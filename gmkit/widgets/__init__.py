"""Views: ipywidgets that render state and send commands. No rule of any game lives here.

Each panel is its own module, imported when first named here (``from gmkit.widgets import
Dashboard``), so a notebook that needs one panel does not load them all.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_WHERE = {
    "AttackPanel": "gmkit.widgets._attack",
    "CombatLog": "gmkit.widgets._combat_log",
    "Dashboard": "gmkit.widgets._dashboard",
    "DiceTray": "gmkit.widgets._dice_tray",
    "InitiativeTracker": "gmkit.widgets._tracker",
    "PlayerView": "gmkit.widgets._player",
    "RosterBrowser": "gmkit.widgets._roster",
    "SheetEditor": "gmkit.widgets._sheet_editor",
    "SheetView": "gmkit.widgets._roster",
    "export_player_notebook": "gmkit.widgets._player_notebook",
    "odds_plot": "gmkit.widgets._odds_plot",
    "players_page": "gmkit.widgets._players_page",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'gmkit.widgets' has no attribute {name!r}")
    value = getattr(import_module(_WHERE[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
