"""Weapon and armour catalogs per game: data files a GM can extend or override.

The catalog of ``weapons`` for ``dark_heresy`` is ``systems/data/dark_heresy/weapons.yaml``
(a YAML list, each entry a weapon exactly as it stands on a sheet), then each extra file the
GM names, then ``<dir>/dark_heresy/weapons.yaml`` in every folder of the ``GMKIT_DATA_PATH``
environment variable (``os.pathsep``-separated). A later entry with the same name replaces the
earlier one; ``{name: ..., remove: true}`` takes an entry out. Every entry is validated with the
game's model; an error names the file, the entry and the field, its problems messages of the
``catalogs`` and ``sheets`` catalogs (a GM reads them in Spanish too).
"""

from __future__ import annotations

import difflib
import functools
import os
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from gmkit.errors import SheetError
from gmkit.messages import Message
from gmkit.sheets import game_ids, sheet_type
from gmkit.sheets.base import sheet_error

Kind = Literal["weapons", "armour"]
DATA_PATH_VARIABLE = "GMKIT_DATA_PATH"


def data_file(game: str, name: str) -> Path:
    """The packaged data file ``systems/data/<game>/<name>``."""
    return Path(str(resources.files("gmkit.systems").joinpath("data", game, name)))


def catalog(game: str, kind: Kind, *extra: str | Path) -> dict[str, BaseModel]:
    """Name -> validated model, from the packaged file, ``extra`` files and GMKIT_DATA_PATH.

    Read once per set of files (a file edited since is read again)."""
    return dict(_catalog(game, kind, stamp(data_files(game, f"{kind}.yaml", extra))))


def data_files(game: str, file_name: str, extra: tuple[str | Path, ...] = ()) -> list[Path]:
    """The files a data kind of ``game`` stacks: packaged, then ``extra``, then each folder of
    GMKIT_DATA_PATH that has one (a later entry of the same name wins)."""
    files = [data_file(game, file_name), *map(Path, extra)]
    for folder in filter(None, os.environ.get(DATA_PATH_VARIABLE, "").split(os.pathsep)):
        candidate = Path(folder) / game / file_name
        if candidate.exists():
            files.append(candidate)
    return files


def stamp(files: list[Path]) -> tuple[tuple[str, int], ...]:
    """The files with their modification times: what a cached read is keyed on."""
    return tuple((str(path), path.stat().st_mtime_ns if path.exists() else -1) for path in files)


def stacked_entries(
    files: tuple[tuple[str, int], ...],
) -> Iterator[tuple[Path, str, dict[str, Any]]]:
    """``(file, label, entry)`` of each entry the stacked files leave standing, in order."""
    entries: dict[str, tuple[Path, str, dict[str, Any]]] = {}
    for name, _ in files:
        path = Path(name)
        for number, item in enumerate(_read_list(path), start=1):
            label = f"{path.name} entry {number} ({item.get('name', '(unnamed)')})"
            key = str(item.get("name", label)).strip().casefold()  # "heretek" is "Heretek"
            if item.get("remove") is True:
                entries.pop(key, None)
                continue
            entries[key] = (path, label, item)
    yield from entries.values()


@functools.lru_cache(maxsize=64)
def _catalog(game: str, kind: Kind, files: tuple[tuple[str, int], ...]) -> dict[str, BaseModel]:
    cls = sheet_type(game)
    model: type[BaseModel] = cls.weapon_model if kind == "weapons" else cls.armour_model  # type: ignore[attr-defined]
    entries: dict[str, BaseModel] = {}
    for path, label, item in stacked_entries(files):
        try:
            entry = model.model_validate(item)
        except ValidationError as error:
            problems = sheet_error(item, error).problems
            raise SheetError(f"{path}: {label}", problems) from None
        entries[str(getattr(entry, "name", label))] = entry
    return entries


def _read_list(path: Path) -> list[dict[str, Any]]:
    """The entries of a data file, read through :mod:`gmkit.sheets.reading`'s bounds (a GM's
    file in GMKIT_DATA_PATH may come from anywhere); a YAML syntax error keeps its words."""
    from gmkit.sheets.reading import FileRefused, load_yaml, read_text

    if not path.exists():
        return []
    try:
        data = load_yaml(read_text(path), str(path))
    except FileRefused as error:
        if isinstance(error.problem, Message) and error.problem.id == "files.not_valid":
            detail = f"{error.place}: {error.problem.arguments['detail']}"
            problem = Message("sheets.not_valid_file", format="YAML", detail=detail)
            raise SheetError(str(path), [("(file)", problem)]) from None
        raise
    if data is None:
        return []
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise SheetError(str(path), [("(file)", Message("catalogs.not_a_list"))])
    return data


def expand_references(data: dict[str, Any]) -> dict[str, Any]:
    """A sheet's data with catalog names in ``weapons`` / ``armour`` replaced by the entries,
    and ``npc: <name>`` by the bestiary's creature changed by the other fields.

    Hand-written rosters may say ``weapons: [lasgun, knife]``; the sheet then stores the full
    weapon, so a later change to the catalog never silently changes a saved character.
    """
    game = data.get("game")
    if not isinstance(game, str) or game not in game_ids():
        return data
    expanded = dict(data)
    if isinstance(data.get("npc"), str):
        expanded = _from_npc(game, expanded)
    fields: tuple[tuple[str, Kind], ...] = (("weapons", "weapons"), ("armour", "armour"))
    for field, kind in fields:
        value = data.get(field)
        if isinstance(value, str):
            expanded[field] = _entry(data, game, kind, value, field)
        elif isinstance(value, list) and any(isinstance(item, str) for item in value):
            expanded[field] = [
                _entry(data, game, kind, item, f"{field}[{index}]")
                if isinstance(item, str)
                else item
                for index, item in enumerate(value)
            ]
    return expanded


def _from_npc(game: str, data: dict[str, Any]) -> dict[str, Any]:
    """``{npc: "Cultist", name: "Ban", characteristics: {BS: 30}}``: the bestiary's cultist,
    named Ban, its BS 30 (a nested profile changes only what it names)."""
    from gmkit.systems.bestiary import creature  # the bestiary reads the catalogs

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


def find_entry(game: str, kind: Kind, name: str) -> BaseModel | None:
    """The catalog's entry called ``name``, whatever its case (a GM types "lasgun" for
    "Lasgun"); None when there is none (:func:`unknown_entry` says so)."""
    entries = catalog(game, kind)
    folded = {key.casefold(): key for key in entries}
    key = folded.get(name.strip().casefold())
    return entries[key] if key is not None else None


def _entry(data: dict[str, Any], game: str, kind: Kind, name: str, field: str) -> dict[str, Any]:
    found = find_entry(game, kind, name)
    if found is None:
        character = str(data.get("name") or "(unnamed)")
        known = list(catalog(game, kind))
        raise SheetError(character, [(field, unknown_entry(kind, name, known))])
    return found.model_dump(mode="json")


def unknown_entry(kind: str, name: str, entries: list[str]) -> Message:
    """The problem of a name no entry of ``kind`` (weapons, armour, npc) has: the nearest
    name when one is close ("Lazgun": did you mean Lasgun?), and the known ones."""
    known = tuple(sorted(entries)) or Message("catalogs.none")
    folded = {entry.casefold(): entry for entry in entries}
    near = difflib.get_close_matches(name.strip().casefold(), list(folded), n=1, cutoff=0.75)
    if near:
        return Message(
            f"catalogs.no_such_{kind}_near", name=repr(name), nearest=folded[near[0]], known=known
        )
    return Message(f"catalogs.no_such_{kind}", name=repr(name), known=known)
