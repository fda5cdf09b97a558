"""Character sheets per game: validated, immutable models with derived values.

``sheet_type("dark_heresy")`` gives a game's sheet class; ``load_sheet(data)`` validates a dict
into the right one by its ``game`` field. Import and export (JSON, YAML, CSV, DataFrames) live
in :mod:`gmkit.sheets.io`.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from gmkit.errors import SheetError
from gmkit.sheets.base import Model, Sheet

# game id -> (module, sheet class). Modules load on first use.
GAMES: dict[str, tuple[str, str]] = {
    "necromunda": ("gmkit.sheets.necromunda", "NecromundaFighter"),
    "dark_heresy": ("gmkit.sheets.dark_heresy", "DarkHeresyCharacter"),
    "deathwatch": ("gmkit.sheets.deathwatch", "DeathwatchCharacter"),
    "wfrp2": ("gmkit.sheets.wfrp2", "WFRP2Character"),
    "wfb6": ("gmkit.sheets.wfb6", "WFB6Character"),
}


def sheet_type(game: str) -> type[Sheet]:
    """The sheet class of ``game`` (one of :data:`GAMES`)."""
    if game not in GAMES:
        known = ", ".join(GAMES)
        raise SheetError("(unnamed)", [("game", f"unknown game {game!r}; known: {known}")])
    module, name = GAMES[game]
    cls: type[Sheet] = getattr(import_module(module), name)
    return cls


def load_sheet(data: dict[str, Any], *, label: str | None = None) -> Sheet:
    """Validate ``data`` into the sheet of its ``game``; SheetError names what is wrong.

    ``label`` overrides how the character is named in errors (e.g. ``"Vex (row 3)"``).
    """
    if not isinstance(data, dict):
        raise SheetError(label or "(unnamed)", [("(sheet)", "must be a mapping of fields")])
    name = label or str(data.get("name") or "(unnamed)")
    game = data.get("game")
    if not game:
        raise SheetError(name, [("game", f"is missing; one of {', '.join(GAMES)}")])
    if game not in GAMES:
        raise SheetError(name, [("game", f"unknown game {game!r}; one of {', '.join(GAMES)}")])
    try:
        return sheet_type(str(game)).build(data)
    except SheetError as error:
        if label is None:
            raise
        raise SheetError(label, error.problems) from None


__all__ = ["GAMES", "Model", "Sheet", "SheetError", "load_sheet", "sheet_type"]
