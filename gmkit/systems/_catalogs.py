"""Weapon and armour catalogs per game: data files a GM can extend or override.

The catalog of ``weapons`` for ``dark_heresy`` is ``systems/data/dark_heresy/weapons.yaml``
(a YAML list, each entry a weapon exactly as it stands on a sheet), then each extra file the
GM names, then ``<dir>/dark_heresy/weapons.yaml`` in every folder of the ``GMKIT_DATA_PATH``
environment variable (``os.pathsep``-separated). A later entry with the same name replaces the
earlier one; ``{name: ..., remove: true}`` takes an entry out. Every entry is validated with the
game's model; an error names the file, the entry and the field, its problems messages of the
``catalogs`` and ``sheets`` catalogs (a GM reads them in Spanish too).

Names in two languages: an entry of any data file that names a thing (weapons, armour, the
bestiary, qualities, and ``names.yaml``: talents, skills, traits, special rules, weapon groups)
may give its Spanish name as ``name_es`` beside the English ``name``. Sheets, events and the
rules keep the English; :func:`local_name` shows a name in the reader's language, and a Spanish
name is accepted wherever a name is typed (:func:`find_entry`, :func:`english_name`, the names
a sheet is built from). An entry without ``name_es`` shows its English in Spanish too.
"""

from __future__ import annotations

import difflib
import functools
import os
import re
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from gmkit.errors import SheetError
from gmkit.messages import Message
from gmkit.messages import _names as names
from gmkit.plugins import ids, known, loaded
from gmkit.sheets._problems import sheet_error

Kind = Literal["weapons", "armour"]
DATA_PATH_VARIABLE = "GMKIT_DATA_PATH"
SPANISH = "name_es"
"""The field of a data entry that gives its Spanish name."""
NAMED_FILES = ("weapons.yaml", "armour.yaml", "bestiary.yaml", "qualities.yaml", "names.yaml")
"""The data files whose entries name things (each a list of entries with ``name``)."""
NAME_LISTS = ("talents", "traits", "skills", "special_rules", "qualities", "special", "injuries")
"""The fields of a sheet, a weapon or an armour piece that list names."""


DATA = Path(str(resources.files("gmkit.systems").joinpath("data")))
"""gmkit's own data folder: a folder per built-in game, and a family's shared tables
(``percentile``)."""


def data_folder(game: str) -> Path:
    """Where ``game``'s data files are: its registry entry's ``data`` (a game installed as a
    package keeps them in its own package); a family's shared tables in gmkit's own folder."""
    found = loaded(game)
    if found is None and not (DATA / game).is_dir():
        found = known(game)  # a game not loaded yet, and not one of gmkit's own folders
    if found is not None and found.data is not None:
        return found.data
    return DATA / game


def data_file(game: str, name: str) -> Path:
    """The data file ``name`` of ``game`` (in :func:`data_folder`)."""
    return data_folder(game) / name


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
    cls = sheet_class(game)
    model: type[BaseModel] = cls.weapon_model if kind == "weapons" else cls.armour_model
    entries: dict[str, BaseModel] = {}
    for path, label, item in stacked_entries(files):
        item = {key: value for key, value in item.items() if key != SPANISH}
        try:
            entry = model.model_validate(item)
        except ValidationError as error:
            problems = sheet_error(item, error).problems
            raise SheetError(f"{path}: {label}", problems) from None
        entries[str(getattr(entry, "name", label))] = entry
    return entries


def sheet_class(game: str) -> type[Any]:
    """The sheet class of ``game`` (its weapon and armour models; what its bestiary builds):
    :func:`gmkit.sheets.sheet_type`, which this module may not import (sheets build through
    it)."""
    found = known(game)
    if found is None:
        problem = Message("sheets.unknown_game_known", game=repr(game), known=ids())
        raise SheetError("(unnamed)", [("game", problem)])
    return found.sheet


def _read_list(path: Path) -> list[dict[str, Any]]:
    """The entries of a data file, read through :mod:`gmkit.sheets._reading`'s bounds (a GM's
    file in GMKIT_DATA_PATH may come from anywhere); a YAML syntax error keeps its words."""
    from gmkit.sheets._reading import FileRefused, load_yaml, read_text

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


def find_entry(game: str, kind: Kind, name: str) -> BaseModel | None:
    """The catalog's entry called ``name`` in English or Spanish, whatever its case (a GM types
    "lasgun" or "rifle láser" for "Lasgun"); None when there is none (:func:`unknown_entry`
    says so)."""
    entries = catalog(game, kind)
    folded = {key.casefold(): key for key in entries}
    key = folded.get(name.strip().casefold())
    if key is None:
        key = folded.get(english_name(game, name, f"{kind}.yaml").casefold())
    return entries[key] if key is not None else None


def entry_data(
    data: dict[str, Any], game: str, kind: Kind, name: str, field: str
) -> dict[str, Any]:
    """The entry called ``name`` as data (a sheet's ``field``), or SheetError naming the
    character, the field and the entries known."""
    found = find_entry(game, kind, name)
    if found is None:
        character = str(data.get("name") or "(unnamed)")
        known = list(catalog(game, kind))
        raise SheetError(character, [(field, unknown_entry(kind, name, known, game))])
    return found.model_dump(mode="json")


def unknown_entry(kind: str, name: str, entries: list[str], game: str = "") -> Message:
    """The problem of a name no entry of ``kind`` (weapons, armour, npc) has: the nearest
    name when one is close ("Lazgun": did you mean Lasgun?), and the known ones, each in the
    reader's language (``game``'s Spanish names are near too)."""
    shown = sorted(entries)
    known = tuple(Message.named(entry) for entry in shown) or Message("catalogs.none")
    folded = {entry.casefold(): entry for entry in entries}
    if game:  # "Rifle lazer": did you mean Rifle láser?
        spanish = names_of(game).spanish
        folded |= {spanish[key].casefold(): e for key, e in list(folded.items()) if key in spanish}
    near = difflib.get_close_matches(name.strip().casefold(), list(folded), n=1, cutoff=0.75)
    if near:
        nearest = Message.named(folded[near[0]])
        return Message(
            f"catalogs.no_such_{kind}_near", name=repr(name), nearest=nearest, known=known
        )
    return Message(f"catalogs.no_such_{kind}", name=repr(name), known=known)


# --- names in two languages ---------------------------------------------------------------


@dataclass(frozen=True)
class Names:
    """A game's names of data entries in both languages, case folded."""

    spanish: Mapping[str, str]
    """English -> Spanish (an entry with ``name_es``)."""
    by_file: Mapping[str, Mapping[str, str]]
    """File name (``weapons.yaml``) -> Spanish or English -> English, of its entries."""

    @functools.cached_property
    def english(self) -> Mapping[str, str]:
        """Spanish or English -> English, of every file: ``names.yaml``'s first (a talent's
        "(Bólter)" is the group Bolt), then the catalogs' in :data:`NAMED_FILES` order."""
        merged: dict[str, str] = {}
        for file_name in ("names.yaml", *NAMED_FILES):
            for key, value in self.by_file.get(file_name, {}).items():
                merged.setdefault(key, value)
        return merged

    def english_in(self, file_name: str) -> Mapping[str, str]:
        """:attr:`english`, the entries of ``file_name`` first (a weapon's "Bólter" is the
        Boltgun)."""
        return {**self.english, **self.by_file.get(file_name, {})}


def names_of(game: str, *extra: str | Path) -> Names:
    """The names of ``game``'s data files (and ``extra`` files, each read as the file kind of
    its own name), read once per set of files."""
    files = tuple(
        (kind, stamp(data_files(game, kind, tuple(e for e in extra if Path(e).name == kind))))
        for kind in NAMED_FILES
    )
    return _names(files)


@functools.lru_cache(maxsize=32)
def _names(files: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]) -> Names:
    spanish: dict[str, str] = {}
    by_file: dict[str, dict[str, str]] = {}
    for file_name, stacked in files:
        english = by_file.setdefault(file_name, {})
        for path, label, item in stacked_entries(stacked):
            name, given = item.get("name"), item.get(SPANISH)
            if not isinstance(name, str) or not name.strip():
                continue
            english.setdefault(name.strip().casefold(), name.strip())
            if given is None:
                continue
            if not isinstance(given, str) or not given.strip():
                raise SheetError(f"{path}: {label}", [(SPANISH, Message("catalogs.name_es"))])
            spanish.setdefault(name.strip().casefold(), given.strip())
            english.setdefault(given.strip().casefold(), name.strip())
    return Names(spanish, by_file)


_PARTS = re.compile(r"(?P<base>.+?)\s*\((?P<inside>[^()]*)\)")
"""A name with its particulars: "Pistol Training (SP, Las)", "Astartes Bolter (Godwyn)"."""
_NUMBERED = re.compile(r"(?P<base>.+?)\s+(?P<number>[+-]?\d+)")
"""A name with its number: "sustained fire 2"."""


def _translate(name: str, table: Mapping[str, str]) -> str:
    """``name`` through ``table`` (case folded keys): whole, or its base and each particular
    in brackets ("Pistol Training (SP/Las)"), or its base and a number ("sustained fire 2");
    a part the table lacks, or one it gives back but for case, stays as it is."""

    def one(text: str) -> str:
        found = table.get(text.casefold())
        return text if found is None or found.casefold() == text.casefold() else found

    text = name.strip()
    found = one(text)
    if found != text:
        return found
    match = _PARTS.fullmatch(text)
    if match is not None:
        inside = "".join(one(part) for part in re.split(r"(\s*[/,]\s*)", match["inside"]))
        found = f"{one(match['base'])} ({inside})"
    elif (numbered := _NUMBERED.fullmatch(text)) is not None:
        found = f"{one(numbered['base'])} {numbered['number']}"
    return found if found != text else name


def local_name(game: str, name: str, language: str) -> str:
    """A data entry's name (its English: what a sheet stores) in ``language``: its
    ``name_es`` in Spanish, or the name as it is where the data gives none."""
    if language != "es" or not name or known(game) is None:
        return name
    return _translate(name, names_of(game).spanish)


def english_name(game: str, name: str, file_name: str = "") -> str:
    """The English name of an entry called ``name`` in either language (``"Espada"``:
    ``"Sword"``), looked for in ``file_name``'s entries first (``"weapons.yaml"``); a name no
    data file knows as it is."""
    if not name or known(game) is None:
        return name
    table = names_of(game)
    return _translate(name, table.english_in(file_name) if file_name else table.english)


def in_english(game: str, data: dict[str, Any]) -> dict[str, Any]:
    """A sheet's data with the names it lists (talents, skills, a weapon's qualities, the
    name of a weapon or armour given as a record) in English, as sheets keep them."""
    table = names_of(game)
    if not table.spanish:
        return data  # the data gives no Spanish name: nothing typed in Spanish to read

    def record(value: Any, file_name: str = "") -> Any:
        if not isinstance(value, dict):
            return value
        found = dict(value)
        for key in NAME_LISTS:
            if isinstance(value.get(key), list):
                found[key] = [_english(table.english, v) for v in value[key]]
        if file_name:  # a weapon's or armour's own name (in its file first), and its group
            if "name" in value:
                found["name"] = _english(table.english_in(file_name), value["name"])
            if "group" in value:
                found["group"] = _english(table.english, value["group"])
        return found

    found: dict[str, Any] = record(data)
    for key in ("weapons", "armour"):
        if key in data:
            value, file_name = data[key], f"{key}.yaml"
            found[key] = (
                [record(v, file_name) for v in value]
                if isinstance(value, list)
                else record(value, file_name)
            )
    return found


def _english(table: Mapping[str, str], value: Any) -> Any:
    return _translate(value, table) if isinstance(value, str) else value


_ANY_GAME: dict[str, tuple[float, Names]] = {}
_FRESH_FOR = 2.0  # s: how long the messages' lookup trusts the files it read


def _any_game(name: str, language: str) -> str | None:
    """A name in ``language`` as the first game's data gives it (the messages' lookup: a
    rendered message does not know its game). The files are looked at again after a while."""
    if language != "es":
        return None
    now = time.monotonic()
    tables: list[Names] = []
    for game in ids():
        kept = _ANY_GAME.get(game)
        if kept is None or now - kept[0] > _FRESH_FOR:
            kept = _ANY_GAME[game] = (now, names_of(game))
        tables.append(kept[1])
    base = _base(name)
    exact = [table for table in tables if table.english.get(base.casefold()) == base]
    for table in (*exact, *tables):  # a game that writes the name so first ("Bow", not "bow")
        found = _translate(name, table.spanish)
        if found != name:
            return found
    return None


def _base(name: str) -> str:
    """A name without its particulars or its number ("Pistol Training (SP)": Pistol Training)."""
    text = name.strip()
    match = _PARTS.fullmatch(text) or _NUMBERED.fullmatch(text)
    return match["base"] if match is not None else text


names.register(_any_game)
