"""Character sheets per game: validated, immutable models with derived values.

``sheet_type("dark_heresy")`` gives a game's sheet class; ``load_sheet(data)`` validates a dict
into the right one by its ``game`` field. Import and export (JSON, YAML, CSV, DataFrames) live
in :mod:`gmkit.sheets._io`.
"""

from __future__ import annotations

from typing import Any

from gmkit.errors import SheetError
from gmkit.messages import Message
from gmkit.plugins import ids, known
from gmkit.sheets.base import Model, Sheet


def game_ids() -> tuple[str, ...]:
    """The games a sheet may be of (the registry's, through :mod:`gmkit.plugins`)."""
    return ids()


def sheet_type(game: str) -> type[Sheet]:
    """The sheet class of ``game`` (its registry entry's)."""
    found = known(game)
    if found is None:
        problem = Message("sheets.unknown_game_known", game=repr(game), known=game_ids())
        raise SheetError("(unnamed)", [("game", problem)])
    return found.sheet


def _label(value: Any, limit: int) -> str:
    from gmkit.sheets._reading import label  # the reader imports the sheets' errors

    return label(value, limit) if value else ""


def load_sheet(data: dict[str, Any], *, label: str | None = None) -> Sheet:
    """Validate ``data`` into the sheet of its ``game``; SheetError names what is wrong.

    ``label`` overrides how the character is named in errors (e.g. ``"Vex (row 3)"``).
    """
    if not isinstance(data, dict):
        problem = Message("sheets.not_a_mapping")
        raise SheetError(label or "(unnamed)", [("(sheet)", problem)])
    name = label or _label(data.get("name"), 80) or "(unnamed)"  # never str() a huge value
    game = data.get("game")
    known = game_ids()
    if not game:
        raise SheetError(name, [("game", Message("sheets.game_missing", known=known))])
    if game not in known:
        problem = Message("sheets.unknown_game_one_of", game=repr(game), known=known)
        raise SheetError(name, [("game", problem)])
    try:
        return sheet_type(str(game)).build(data)
    except SheetError as error:
        if label is None:
            raise
        raise SheetError(label, error.problems) from None


__all__ = ["Model", "Sheet", "SheetError", "game_ids", "load_sheet", "sheet_type"]
