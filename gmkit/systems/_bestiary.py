"""The bestiary: ready NPCs of each game, to add as they are or as numbered copies.

``systems/data/<game>/bestiary.yaml`` is a YAML list; each entry is a character of that game as
it stands on a roster (weapons and armour may be catalog names), without ``game`` or ``side``,
plus ``source``: where its numbers come from (a seed's own profile, the demo's example, or a
common profile the seeds do not give). Like the catalogs (:mod:`gmkit.systems._catalogs`), the
GM's extra files and ``GMKIT_DATA_PATH`` stack over it: a later entry of the same name replaces
the earlier one, ``{name: ..., remove: true}`` takes it out. An entry's ``name_es`` is its Spanish
name: shown on a Spanish page, and accepted wherever the name is typed (``npc: Cultista``).

>>> npcs("dark_heresy", "Cultist", 3, side="Pale Throne")[2].name
'Cultist 3'
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gmkit.errors import SheetError
from gmkit.messages import Message
from gmkit.systems._catalogs import (
    SPANISH,
    data_files,
    english_name,
    sheet_class,
    stacked_entries,
    stamp,
    unknown_entry,
)

if TYPE_CHECKING:
    from gmkit.sheets.base import Sheet

FILE_NAME = "bestiary.yaml"


@dataclass(frozen=True)
class Creature:
    """One entry of a game's bestiary: its sheet, and where its numbers come from."""

    name: str
    source: str
    sheet: Sheet
    name_es: str = ""
    """Its Spanish name ("" when its data gives none)."""


def bestiary(game: str, *extra: str | Path) -> dict[str, Creature]:
    """Name -> creature, from the packaged file, ``extra`` files and GMKIT_DATA_PATH."""
    return dict(_bestiary(game, stamp(data_files(game, FILE_NAME, extra))))


def creature(game: str, name: str) -> Creature:
    """The creature called ``name`` in English or Spanish (case does not matter), or a
    SheetError listing them."""
    found = bestiary(game)
    wanted = {name.strip().casefold(), english_name(game, name).casefold()}
    for key, entry in found.items():
        if key.casefold() in wanted or (entry.name_es and entry.name_es.casefold() in wanted):
            return entry
    raise SheetError(name, [("npc", unknown_entry("npc", name, list(found), game))])


def npc(game: str, name: str, /, **changes: Any) -> Sheet:
    """The bestiary's ``name`` as a sheet, with ``changes`` (``name="Vex"``, ``side=...``,
    ``characteristics={"BS": 40}``, ``weapons=["Lasgun"]``) made to it."""
    sheet = creature(game, name).sheet
    return sheet.edit(**changes) if changes else sheet


def npcs(game: str, name: str, count: int, /, *, named: str = "", **changes: Any) -> list[Sheet]:
    """``count`` copies of the bestiary's ``name``, called "<named> 1".."<named> N" (``named``
    defaults to the creature's name in the language it was asked by: "Cultista 1" for
    ``"cultista"``), each with ``changes`` made to it."""
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 500:
        problem = Message("catalogs.copies_count", count=str(count))
        raise SheetError(name, [("count", problem)])
    base = npc(game, name, **changes)
    found = creature(game, name)
    spanish = found.name_es and found.name_es.casefold() == name.strip().casefold()
    stem = named.strip() or (found.name_es if spanish else found.name)
    return [base.edit(name=f"{stem} {number}") for number in range(1, count + 1)]


@functools.lru_cache(maxsize=16)
def _bestiary(game: str, files: tuple[tuple[str, int], ...]) -> dict[str, Creature]:
    cls = sheet_class(game)
    found: dict[str, Creature] = {}
    for path, label, item in stacked_entries(files):
        data = {key: value for key, value in item.items() if key not in ("source", SPANISH)}
        source = item.get("source")
        if not isinstance(source, str) or not source.strip():
            raise SheetError(f"{path}: {label}", [("source", Message("catalogs.no_source"))])
        try:
            sheet = cls.build({"game": game, **data})
        except SheetError as error:
            raise SheetError(f"{path}: {label}", error.problems) from None
        spanish = item.get(SPANISH)
        if spanish is not None and (not isinstance(spanish, str) or not spanish.strip()):
            raise SheetError(f"{path}: {label}", [(SPANISH, Message("catalogs.name_es"))])
        found[sheet.name] = Creature(sheet.name, source.strip(), sheet, (spanish or "").strip())
    return found


__all__ = ["Creature", "bestiary", "creature", "npc", "npcs"]
