"""How hurt a combatant is, per game: (left, total), from the sheet and the fight's counters.

The d100 sheets keep their damage (Dark Heresy and Deathwatch ``wounds_remaining``; WFRP
``wounds_current``); in the D6 games wounds lost in a fight are the encounter's ``damage``
counter. A horde counts its magnitude.
"""

from __future__ import annotations

from collections.abc import Mapping

from gmkit.sheets.base import Sheet


def health(sheet: Sheet, counters: Mapping[str, int]) -> tuple[int, int]:
    horde = getattr(sheet, "horde", None)
    if horde is not None:
        return horde.magnitude, horde.magnitude_max
    if sheet.game in ("dark_heresy", "deathwatch"):
        return sheet.wounds_remaining, sheet.wounds  # type: ignore[attr-defined]
    if sheet.game == "wfrp2":
        return sheet.wounds_current, sheet.secondary.W  # type: ignore[attr-defined]
    total = int(getattr(sheet, "W", 1))
    return max(total - counters.get("damage", 0), 0), total
