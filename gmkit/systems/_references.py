"""A sheet's data with the names it gives expanded: catalog names in ``weapons`` / ``armour``
into their entries (:mod:`gmkit.systems._catalogs`), ``npc: <name>`` into the bestiary's creature
(:mod:`gmkit.systems._bestiary`) changed by the other fields. A sheet builds through it
(:meth:`gmkit.sheets.base.Sheet.build`), so every reader expands names the same way.
"""

from __future__ import annotations

from typing import Any

from gmkit.errors import SheetError
from gmkit.plugins import known
from gmkit.systems._bestiary import creature
from gmkit.systems._catalogs import Kind, entry_data, in_english


def expand_references(data: dict[str, Any]) -> dict[str, Any]:
    """A sheet's data with catalog names in ``weapons`` / ``armour`` replaced by the entries,
    and ``npc: <name>`` by the bestiary's creature changed by the other fields.

    Hand-written rosters may say ``weapons: [lasgun, knife]``; the sheet then stores the full
    weapon, so a later change to the catalog never silently changes a saved character.
    """
    game = data.get("game")
    if not isinstance(game, str) or known(game) is None:
        return data
    expanded = dict(data)
    if isinstance(data.get("npc"), str):
        expanded = _from_npc(game, expanded)
    data = expanded = in_english(game, expanded)
    fields: tuple[tuple[str, Kind], ...] = (("weapons", "weapons"), ("armour", "armour"))
    for field, kind in fields:
        value = data.get(field)
        if isinstance(value, str):
            expanded[field] = entry_data(data, game, kind, value, field)
        elif isinstance(value, list) and any(isinstance(item, str) for item in value):
            expanded[field] = [
                entry_data(data, game, kind, item, f"{field}[{index}]")
                if isinstance(item, str)
                else item
                for index, item in enumerate(value)
            ]
    return expanded


def _from_npc(game: str, data: dict[str, Any]) -> dict[str, Any]:
    """``{npc: "Cultist", name: "Ban", characteristics: {BS: 30}}``: the bestiary's cultist,
    named Ban, its BS 30 (a nested profile changes only what it names)."""
    changes = {key: value for key, value in data.items() if key != "npc"}
    try:
        base = creature(game, str(data["npc"])).sheet.model_dump(mode="json")
    except SheetError as error:
        raise SheetError(str(data.get("name") or data["npc"]), error.problems) from None
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            value = {**base[key], **value}
        base[key] = value
    return base


__all__ = ["expand_references"]
