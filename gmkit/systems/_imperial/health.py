"""How hurt a Dark Heresy or Deathwatch combatant is: the wounds its sheet keeps
(``wounds_remaining`` of ``wounds``: the rules' ``apply_effect`` takes them off), less any damage
the encounter counted; a Deathwatch horde's magnitude."""

from __future__ import annotations

from collections.abc import Mapping

from gmkit.sheets.base import Sheet
from gmkit.systems.health import less_damage, magnitude


def imperial_health(sheet: Sheet, counters: Mapping[str, int]) -> tuple[int, int]:
    """(left, total): wounds, or a horde's magnitude."""
    found = magnitude(sheet, counters)
    if found is not None:
        return found
    return less_damage(sheet.wounds_remaining, sheet.wounds, counters)  # type: ignore[attr-defined]


__all__ = ["imperial_health"]
