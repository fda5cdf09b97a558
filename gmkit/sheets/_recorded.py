"""A sheet as an event records it, and back: the one place the encounter turns a changed sheet
into JSON and reads it again.

An effect's command records the sheet it made (``as_record``); the fold of that very event
reads it back (``from_record``) a moment later, and a replay reads it years later. Validating
a sheet is the costly part of an attack's Apply, so the last sheets recorded are kept by
their JSON text: reading back the exact text a sheet of this process was recorded as gives
that sheet (a sheet is immutable, and validating its own record gives an equal one); any
other text is validated as it always was (``load_sheet``).
"""

from __future__ import annotations

import json
from typing import Any

from gmkit.sheets import load_sheet
from gmkit.sheets.base import Sheet

KEPT = 16
"""Sheets recorded by this process kept for the fold that follows (a few per command)."""

_RECORDED: dict[str, Sheet] = {}


def as_record(sheet: Sheet) -> dict[str, Any]:
    """``sheet`` as an event keeps it (JSON-ready)."""
    data: dict[str, Any] = sheet.model_dump(mode="json")
    if len(_RECORDED) >= KEPT:
        _RECORDED.clear()
    _RECORDED[json.dumps(data)] = sheet
    return data


def from_record(data: dict[str, Any]) -> Sheet:
    """The sheet an event recorded (``SheetError`` naming what is wrong, when it is)."""
    found = _RECORDED.get(json.dumps(data))
    return found if found is not None else load_sheet(dict(data))


__all__ = ["KEPT", "as_record", "from_record"]
