"""How hurt a combatant is, per game: (left, total), from the sheet and the fight's counters.

What the encounter's effects leave behind, game by game (the systems' ``apply_effect``):

- The d100 games keep their damage on the sheet: Dark Heresy and Deathwatch
  ``wounds_remaining`` of ``wounds``, WFRP ``wounds_current`` of W. Should damage have been
  counted instead (``counters["damage"]``: a fight folded with rules that had no
  ``apply_effect``), it is taken off too, so no wound is ever lost from sight.
- A Deathwatch horde counts its magnitude (``horde.magnitude`` of ``magnitude_max``, less a
  ``magnitude`` counter likewise).
- The D6 games (Necromunda, WFB 6e) keep no wounds on the sheet: the wounds lost are the
  encounter's ``damage`` counter, taken from the profile's W.

Never below 0.
"""

from __future__ import annotations

from collections.abc import Mapping

from gmkit.sheets.base import Sheet


def health(sheet: Sheet, counters: Mapping[str, int]) -> tuple[int, int]:
    """(left, total): wounds, or a horde's magnitude."""
    horde = getattr(sheet, "horde", None)
    if horde is not None:
        left = horde.magnitude - counters.get("magnitude", 0)
        return max(left, 0), horde.magnitude_max
    lost = counters.get("damage", 0)
    if sheet.game in ("dark_heresy", "deathwatch"):
        left, total = sheet.wounds_remaining, sheet.wounds  # type: ignore[attr-defined]
    elif sheet.game == "wfrp2":
        left, total = sheet.wounds_current, sheet.secondary.W  # type: ignore[attr-defined]
    else:
        total = int(getattr(sheet, "W", 1))
        left = total
    return max(left - lost, 0), total
