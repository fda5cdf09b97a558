"""The table a mass-battle game's rules read: the units on it and the distances measured, as a
fight holds them (any state with ``units``, ``combatants`` and ``distance(a, b)``: the
encounter's :class:`~gmkit.encounter._state.EncounterState`; :mod:`gmkit.encounter._units` sets
them). Generic: a game's table hook (``Game.table``, WFB 6e's :mod:`gmkit.systems.wfb6._table`)
reads them into its own rules' situation.

- A combatant is in the unit that names it (a character who joined it, its trooper), else in
  the unit its sheet names when it is rank and file or a champion.
- A distance from a unit may be measured under the unit's name or its trooper's id; from a
  combatant under its id, its unit's name or its unit's trooper.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gmkit.encounter._state import Combatant, EncounterState, Unit


def role(combatant: Combatant) -> str:
    return str(getattr(combatant.sheet, "role", ""))


def sheet_unit(combatant: Combatant) -> str:
    return str(getattr(combatant.sheet, "unit", ""))


def unit_of(state: EncounterState, combatant: Combatant) -> Unit | None:
    """The unit ``combatant`` is in, as the encounter holds it (see the module docstring)."""
    for unit in state.units.values():
        if combatant.id in unit.characters or combatant.id == unit.trooper:
            return unit
    if role(combatant) in ("rank and file", "champion"):
        return state.units.get(sheet_unit(combatant))
    return None


def keys(state: EncounterState, end: str) -> tuple[str, ...]:
    """The names a distance from ``end`` may be measured under (see the module docstring)."""
    held = state.units.get(end)
    if held is not None:
        return (end, held.trooper) if held.trooper else (end,)
    unit = unit_of(state, state.combatants[end])
    if unit is None:
        return (end,)
    return tuple(key for key in (end, unit.name, unit.trooper) if key)


def measured(state: EncounterState, a: Iterable[str], b: Iterable[str]) -> float | None:
    """The first distance measured between one of ``a`` and one of ``b``, or None."""
    ends = tuple(b)
    for one in a:
        for other in ends:
            if one != other and (found := state.distance(one, other)) is not None:
                return found
    return None


def models_left(state: EncounterState, unit: Unit) -> int:
    """The rank and file ``unit`` has left: as set, less one for every ``W`` wounds its
    trooper lost since."""
    model = state.combatants.get(unit.trooper) if unit.trooper else None
    if model is None:
        return unit.rank_and_file
    wounds = int(getattr(model.sheet, "W", 1))
    return unit.rank_and_file_left(model.counters.get("damage", 0), wounds)


__all__ = ["keys", "measured", "models_left", "role", "sheet_unit", "unit_of"]
