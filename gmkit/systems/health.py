"""How hurt a combatant is: (left, total), from the sheet and the fight's counters.

Each game says it (its registry entry's ``health``, :class:`~gmkit.games.Game`): this module holds
the default and the parts a game's own reading is made of, never a game's rule.

- :func:`default_health`: a horde's magnitude (:func:`magnitude`: ``horde.magnitude`` of
  ``magnitude_max``, less a ``magnitude`` counter), else the profile's ``W`` less the
  encounter's ``damage`` counter (the D6 games keep no wounds on the sheet; a sheet without a
  ``W`` counts one wound).
- :func:`less_damage`: wounds a game keeps on the sheet (the d100 games, through their rules'
  ``apply_effect``), with any ``damage`` counted by the encounter taken off too (a fight folded
  with rules that had no ``apply_effect``), so no wound is ever lost from sight.

Never below 0.
"""

from __future__ import annotations

from collections.abc import Mapping

from gmkit.sheets.base import Sheet


def magnitude(sheet: Sheet, counters: Mapping[str, int]) -> tuple[int, int] | None:
    """(left, total) of a horde's magnitude; None for a sheet that is no horde."""
    horde = getattr(sheet, "horde", None)
    if horde is None:
        return None
    left = horde.magnitude - counters.get("magnitude", 0)
    return max(left, 0), horde.magnitude_max


def less_damage(left: int, total: int, counters: Mapping[str, int]) -> tuple[int, int]:
    """(left, total) with the encounter's ``damage`` counter taken off ``left``."""
    return max(left - counters.get("damage", 0), 0), total


def default_health(sheet: Sheet, counters: Mapping[str, int]) -> tuple[int, int]:
    """(left, total): a horde's magnitude, else the profile's ``W`` less the damage counted."""
    found = magnitude(sheet, counters)
    if found is not None:
        return found
    total = int(getattr(sheet, "W", 1))
    return less_damage(total, total, counters)


__all__ = ["default_health", "less_damage", "magnitude"]
