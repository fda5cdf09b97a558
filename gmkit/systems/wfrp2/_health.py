"""How hurt a WFRP 2e combatant is: the wounds its sheet keeps (``wounds_current`` of the
profile's W: the rules' ``apply_effect`` takes them off), less any damage the encounter
counted."""

from __future__ import annotations

from collections.abc import Mapping

from gmkit.sheets.base import Sheet
from gmkit.systems.health import less_damage


def wfrp2_health(sheet: Sheet, counters: Mapping[str, int]) -> tuple[int, int]:
    """(left, total): wounds."""
    left, total = sheet.wounds_current, sheet.secondary.W  # type: ignore[attr-defined]
    return less_damage(left, total, counters)


__all__ = ["wfrp2_health"]
