"""Sheets in and out: JSON, YAML, CSV files and pandas DataFrames, without loss.

A roster is a list of sheets (any games). As a DataFrame it is one row per character: nested
profiles flatten to dotted columns (``characteristics.WS``, ``armour.head``) and lists (weapons,
skills, talents) are JSON text in their cell, so a spreadsheet round trip keeps everything.
Every refusal is a :class:`~gmkit.errors.SheetError` naming the character (and its row), the
field and the problem.

Why over 400 lines: the four formats (JSON, YAML, CSV, DataFrame) share one flattening of a
sheet, one copies budget and one wording of a refusal; reading the bytes safely is
:mod:`gmkit.sheets._reading`.
"""

from __future__ import annotations

import json
import math
import types
import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import yaml
from pydantic import BaseModel

from gmkit.errors import SheetError
from gmkit.messages import Message
from gmkit.sheets import load_sheet, sheet_type
from gmkit.sheets._reading import (
    MAX_COLUMNS,
    FileRefused,
    label,
    load_json,
    load_yaml,
    quote,
    read_csv,
    read_text,
)
from gmkit.sheets.base import Sheet

FORMATS = (".json", ".yaml", ".yml", ".csv")
MAX_CHARACTERS = 2_000
"""The most characters one roster may hold, copies (``count: N``) counted."""
MAX_NAMES_IN_A_CELL = 100
"""The most names one list cell of a CSV roster may give (``Lasgun; Knife``)."""
MAX_NAMES = 40_000
"""The most names the list cells of one CSV roster may give in all (2,000 characters, 20 each)."""
MAX_OUTPUT_BYTES = 8 * 1024 * 1024
"""The most the sheets of one import may take as JSON (a roster of 2,000 is about 2 MB)."""


def dump_sheets(sheets: Iterable[Sheet], *, players_only: bool = False) -> list[dict[str, Any]]:
    """Sheets as plain JSON-ready dicts (derived values are not stored); ``players_only``
    leaves out every field the GM keeps (``gm_only``: notes...)."""
    if players_only:
        return [sheet.public_view() for sheet in sheets]
    return [sheet.model_dump(mode="json") for sheet in sheets]


def load_sheets(items: Any, *, source: str = "roster", budget: Budget | None = None) -> list[Sheet]:
    """Validate a list of dicts (or a mapping with a ``characters`` list) into sheets. More
    than :data:`MAX_CHARACTERS` (copies counted) are refused before any is built; sheets
    (copies and catalog names expanded) larger in all than ``budget`` allows, as soon as the
    first of an entry's copies is built."""
    if isinstance(items, dict) and "characters" in items:
        items = items["characters"]
    if not isinstance(items, list):
        raise SheetError(source, [("(file)", Message("sheets.not_a_list_of_characters"))])
    at_most_characters(sum(_copies_of(item) for item in items), source)
    budget = budget if budget is not None else Budget()
    sheets: list[Sheet] = []
    for number, item in enumerate(items, start=1):
        name = f"{_name_of(item)} (entry {number})"
        if not isinstance(item, dict):
            sheets.append(load_sheet(item, label=name))  # refused: not a mapping
            continue
        made = copies(item, name)
        at_most_characters(len(sheets) + len(made), source)
        sheets.extend(build_copies(made, name, source, budget))
    return sheets


@dataclass
class Budget:
    """What the sheets of one import may take, as JSON bytes (copies and catalog names make
    many bytes of few: ``{npc: Cultist, count: 500}``)."""

    remaining: int = MAX_OUTPUT_BYTES

    def spend(self, sheet: Sheet, copies: int, source: str) -> None:
        size = len(json.dumps(sheet.model_dump(mode="json"), ensure_ascii=False))
        self.remaining -= size * copies
        if self.remaining < 0:
            problem = Message("files.too_much_output", limit=MAX_OUTPUT_BYTES)
            raise SheetError(source, [("characters", problem)])


def build_copies(
    made: list[dict[str, Any]], label: str, source: str, budget: Budget
) -> list[Sheet]:
    """The sheets of one entry's copies (:func:`copies`): the first built from the entry
    (bestiary and catalog names looked up), the last validated too (its name, the longest,
    within the limit), the others the first renamed: the copies differ only in their number."""
    first = load_sheet(made[0], label=label)
    budget.spend(first, len(made), source)
    if len(made) == 1:
        return [first]
    try:
        last = type(first).build({**first.model_dump(), "name": made[-1]["name"]})
    except SheetError as error:
        raise SheetError(label, error.problems) from None
    middle = [first.model_copy(update={"name": copy["name"]}) for copy in made[1:-1]]
    return [first, *middle, last]


def at_most_characters(count: int, source: str, limit: int = MAX_CHARACTERS) -> None:
    """Refuse a roster of more than ``limit`` characters."""
    if count > limit:
        problem = Message("files.too_many_characters", limit=limit)
        raise SheetError(source, [("characters", problem)])


def copies(item: dict[str, Any], label: str) -> list[dict[str, Any]]:
    """A roster entry with ``count: N``: N entries named "<name> 1".."<name> N" (the name is
    the NPC's when the entry names none); without ``count``, the entry itself."""
    if "count" not in item:
        return [item]
    rest = {key: value for key, value in item.items() if key != "count"}
    raw = item["count"]
    count = _whole(raw)
    if not 1 <= count <= 500:
        problem = Message("catalogs.copies_count", count=quote(raw).strip("'"))
        raise SheetError(label, [("count", problem)])
    named = rest.get("name") or rest.get("npc") or ""
    stem = named.strip() if isinstance(named, str) else ""
    if not stem and named:
        raise SheetError(label, [("name", Message("sheets.pydantic.string_type"))])
    if not stem:
        raise SheetError(label, [("name", Message("sheets.pydantic.missing"))])
    return [{**rest, "name": f"{stem} {number}"} for number in range(1, count + 1)]


def to_json(sheets: Iterable[Sheet], *, players_only: bool = False) -> str:
    data = dump_sheets(sheets, players_only=players_only)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def from_json(text: str, *, source: str = "roster") -> list[Sheet]:
    """The sheets of JSON text (see :func:`gmkit.sheets._reading.load_json` for its bounds)."""
    return load_sheets(load_json(text, source), source=source)


def to_yaml(sheets: Iterable[Sheet], *, players_only: bool = False) -> str:
    data = dump_sheets(sheets, players_only=players_only)
    text: str = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    return text


def from_yaml(text: str, *, source: str = "roster") -> list[Sheet]:
    """The sheets of YAML text (see :func:`gmkit.sheets._reading.load_yaml` for its bounds:
    aliases, depth, size...)."""
    data = load_yaml(text, source)
    return load_sheets(data if data is not None else [], source=source)


# --- DataFrames and CSV ---------------------------------------------------------------


def roster_to_frame(sheets: Iterable[Sheet], *, players_only: bool = False) -> pd.DataFrame:
    """One row per character; dotted columns for nested values, JSON text for lists;
    ``players_only`` leaves the GM's fields out."""
    rows = [_flatten(data) for data in dump_sheets(sheets, players_only=players_only)]
    columns: list[str] = []
    for row in rows:
        columns.extend(key for key in row if key not in columns)
    return pd.DataFrame(rows, columns=columns)


def with_game(frame: pd.DataFrame, game: str | None) -> pd.DataFrame:
    """A copy of ``frame`` whose rows that name no game (no column, a blank or missing cell)
    take ``game``; the frame itself when no game is given."""
    if not game:
        return frame
    frame = frame.copy()
    if "game" not in frame.columns:
        frame["game"] = game
    frame["game"] = frame["game"].where(frame["game"].notna() & (frame["game"] != ""), game)
    return frame


def roster_from_frame(frame: pd.DataFrame, *, source: str = "roster") -> list[Sheet]:
    """The sheets of a frame made by :func:`roster_to_frame` (or typed by hand); more than
    :data:`MAX_CHARACTERS` rows (copies counted) are refused."""
    if "game" not in frame.columns:
        raise SheetError(source, [("game", Message("sheets.no_game_column"))])
    at_most_characters(len(frame), source)
    if len(frame.columns) > MAX_COLUMNS:
        problem = Message("files.too_many_columns", count=len(frame.columns), limit=MAX_COLUMNS)
        raise SheetError(source, [("(file)", problem)])
    _at_most_names(frame, source)  # a cell of 20,000 catalog names: refused before building
    budget = Budget()
    sheets: list[Sheet] = []
    for number, (_, row) in enumerate(frame.iterrows(), start=1):
        cells = {str(k): v for k, v in row.items() if not _blank(v)}
        label = f"{_name_of(cells)} (row {number})"
        game = str(cells.get("game", ""))
        try:
            cls = sheet_type(game)
        except SheetError as error:
            raise SheetError(label, error.problems) from None
        made = copies(_unflatten(cells, cls, label), label)
        at_most_characters(len(sheets) + len(made), source)
        sheets.extend(build_copies(made, label, source, budget))
    return sheets


def _at_most_names(frame: pd.DataFrame, source: str) -> None:
    """Refuse, before any sheet is built, a list cell typed as names (``Lasgun; Knife``) of
    more than :data:`MAX_NAMES_IN_A_CELL` names, or a roster of more than :data:`MAX_NAMES` in
    all: each name becomes a whole catalog entry (a 2 MB file of them took 26 s and 189 MiB
    to build before the output's budget refused it)."""
    containers: dict[str, set[str]] = {}
    total = 0
    games = [str(game) for game in frame["game"].tolist()]  # the caller checked the column
    for column in frame.columns:
        parts = str(column).split(".")
        for index, value in enumerate(frame[column].tolist()):
            if not isinstance(value, str) or value.lstrip().startswith(("[", "{")):
                continue
            game = games[index]
            if game not in containers:
                containers[game] = _container_columns(game, frame.columns)
            if str(column) not in containers[game]:
                continue
            count = value.count(_separator(value)) + 1
            if count > MAX_NAMES_IN_A_CELL:
                label = f"{source} (row {index + 1})"
                problem = Message("files.too_many_names", count=count, limit=MAX_NAMES_IN_A_CELL)
                raise SheetError(label, [(".".join(parts), problem)])
            total += count
    if total > MAX_NAMES:
        problem = Message("files.too_many_names_in_all", count=total, limit=MAX_NAMES)
        raise SheetError(source, [("characters", problem)])


def _container_columns(game: str, columns: Iterable[Any]) -> set[str]:
    """The columns that hold lists on ``game``'s sheets (none for an unknown game: its rows
    are refused by name when built)."""
    try:
        cls = sheet_type(game)
    except SheetError:
        return set()
    return {str(c) for c in columns if _is_container(cls, str(c).split("."))}


def to_csv(sheets: Iterable[Sheet], *, players_only: bool = False) -> str:
    text: str = roster_to_frame(sheets, players_only=players_only).to_csv(index=False)
    return text


def from_csv(text: str, *, source: str = "roster") -> list[Sheet]:
    """The sheets of CSV text: one row per character (see :func:`roster_from_frame`)."""
    return roster_from_frame(read_csv(text, source), source=source)


# --- files ---------------------------------------------------------------------------


def write_roster(path: str | Path, sheets: Sequence[Sheet], *, players_only: bool = False) -> Path:
    """Write ``sheets`` to ``path`` in the format its suffix names (.json, .yaml, .csv);
    ``players_only`` leaves out every field the GM keeps (a roster to hand the players).

    The file is written beside and then moved into place, so a failed write never leaves half
    a roster where a good one was.
    """
    target = Path(path)
    writers = {".json": to_json, ".yaml": to_yaml, ".yml": to_yaml, ".csv": to_csv}
    if target.suffix.lower() not in writers:
        raise SheetError(str(target), [("(file)", _unknown_format())])
    text = writers[target.suffix.lower()](sheets, players_only=players_only)
    temporary = target.with_name(f".{target.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(target)
    return target


def read_roster(path: str | Path) -> list[Sheet]:
    """Read a roster file in the format its suffix names; a refusal names the file."""
    source = Path(path)
    readers = {".json": from_json, ".yaml": from_yaml, ".yml": from_yaml, ".csv": from_csv}
    if source.suffix.lower() not in readers:
        raise SheetError(str(source), [("(file)", _unknown_format())])
    text = read_text(source)
    try:
        return readers[source.suffix.lower()](text, source=str(source))
    except FileRefused:
        raise
    except SheetError as error:
        raise in_file(str(source), error) from None


def in_file(file: str, error: SheetError) -> FileRefused:
    """``error`` (a character's, or the roster's) as a refusal of the file it came from."""
    if isinstance(error, FileRefused):
        return error
    return FileRefused(file, None, error.message)


# --- helpers -------------------------------------------------------------------------


def not_valid(file_format: str, error: Exception) -> Message:
    """A file that is not valid ``file_format`` (JSON, YAML, CSV), with the parser's words."""
    return Message("sheets.not_valid_file", format=file_format, detail=str(error))


def _unknown_format() -> Message:
    return Message("sheets.unknown_format", formats=str(FORMATS))


def _whole(value: Any) -> int:
    """A count as typed: 5, "5", or 5.0 (pandas makes a column with blanks float); else -1."""
    if isinstance(value, bool):
        return -1
    if isinstance(value, float):
        return int(value) if value.is_integer() else -1
    try:
        return int(str(value).strip().removesuffix(".0"))
    except ValueError:
        return -1


def _copies_of(item: Any) -> int:
    """How many characters an entry makes (a count out of range is refused later)."""
    count = _whole(item.get("count")) if isinstance(item, dict) and "count" in item else 1
    return count if 1 <= count <= 500 else 1


def _name_of(item: Any) -> str:
    """An entry's name for an error: its name or npc as text, at most 80 characters."""
    if not isinstance(item, dict):
        return "(unnamed)"
    return label(item.get("name") or item.get("npc"), 80)


def _blank(value: Any) -> bool:
    if value is None or (isinstance(value, str) and value == ""):
        return True
    return isinstance(value, float) and math.isnan(value)


def _flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        column = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flat.update(_flatten(value, f"{column}."))
        elif isinstance(value, dict | list):
            flat[column] = json.dumps(value, ensure_ascii=False)
        else:
            flat[column] = value
    return flat


def _unflatten(cells: dict[str, Any], cls: type[BaseModel], label: str) -> dict[str, Any]:
    nested: dict[str, Any] = {}
    for column, value in cells.items():
        parts = column.split(".")
        if _is_container(cls, parts) and isinstance(value, str):
            value = _cell_list(value, column, label)
        node = nested
        for part in parts[:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise SheetError(label, [(column, Message("sheets.column_clash"))])
            node = child
        node[parts[-1]] = value
    return nested


def _separator(names: str) -> str:
    """What names typed in a cell are split at: ``;``, else ``,``."""
    return ";" if ";" in names else ","


def _cell_list(text: str, column: str, label: str) -> Any:
    """A list cell: JSON text (as written by :func:`roster_to_frame`), or names typed by hand,
    split at ``;`` (else at ``,``): ``Lasgun; Knife``. Names stand for catalog entries."""
    if not text.lstrip().startswith(("[", "{")):
        return [part.strip() for part in text.split(_separator(text)) if part.strip()]
    try:
        return load_json(text, column)
    except FileRefused as error:
        problem = error.problem
        if isinstance(problem, Message) and problem.id == "files.not_valid":
            problem = Message("sheets.cell_not_json", detail=problem.arguments["detail"])
        raise SheetError(label, [(column, problem)]) from None


def _is_container(cls: type[BaseModel], parts: list[str]) -> bool:
    """Whether the field at ``parts`` holds a list or a mapping (written as JSON text)."""
    annotation: Any = cls
    for part in parts:
        model = _model_in(annotation)
        if model is None or part not in model.model_fields:
            return False  # inside a dict keyed by names: a leaf value
        annotation = model.model_fields[part].annotation
    return _model_in(annotation) is None and _container_in(annotation)


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation) if _is_union(annotation) else ():
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _container_in(annotation: Any) -> bool:
    origin = typing.get_origin(annotation)
    if origin in (list, tuple, set, frozenset, dict):
        return True
    if _is_union(annotation):
        return any(_container_in(arg) for arg in typing.get_args(annotation))
    if origin is typing.Annotated:
        return _container_in(typing.get_args(annotation)[0])
    return False


def _is_union(annotation: Any) -> bool:
    return typing.get_origin(annotation) in (typing.Union, types.UnionType)
