"""Sheets in and out: JSON, YAML, CSV files and pandas DataFrames, without loss.

A roster is a list of sheets (any games). As a DataFrame it is one row per character: nested
profiles flatten to dotted columns (``characteristics.WS``, ``armour.head``) and lists (weapons,
skills, talents) are JSON text in their cell, so a spreadsheet round trip keeps everything.
Every refusal is a :class:`~gmkit.errors.SheetError` naming the character (and its row), the
field and the problem.
"""

from __future__ import annotations

import io
import json
import math
import types
import typing
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import yaml
from pydantic import BaseModel

from gmkit.errors import SheetError
from gmkit.messages import Message
from gmkit.sheets import load_sheet, sheet_type
from gmkit.sheets.base import Sheet

FORMATS = (".json", ".yaml", ".yml", ".csv")


def dump_sheets(sheets: Iterable[Sheet], *, players_only: bool = False) -> list[dict[str, Any]]:
    """Sheets as plain JSON-ready dicts (derived values are not stored); ``players_only``
    leaves out every field the GM keeps (``gm_only``: notes...)."""
    if players_only:
        return [sheet.public_view() for sheet in sheets]
    return [sheet.model_dump(mode="json") for sheet in sheets]


def load_sheets(items: Any, *, source: str = "roster") -> list[Sheet]:
    """Validate a list of dicts (or a mapping with a ``characters`` list) into sheets."""
    if isinstance(items, dict) and "characters" in items:
        items = items["characters"]
    if not isinstance(items, list):
        raise SheetError(source, [("(file)", Message("sheets.not_a_list_of_characters"))])
    return [
        load_sheet(copy, label=f"{_name_of(item)} (entry {number})")
        for number, item in enumerate(items, start=1)
        for copy in (
            copies(item, f"{_name_of(item)} (entry {number})") if isinstance(item, dict) else [item]
        )
    ]


def copies(item: dict[str, Any], label: str) -> list[dict[str, Any]]:
    """A roster entry with ``count: N``: N entries named "<name> 1".."<name> N" (the name is
    the NPC's when the entry names none); without ``count``, the entry itself."""
    if "count" not in item:
        return [item]
    rest = {key: value for key, value in item.items() if key != "count"}
    raw = item["count"]
    count = _whole(raw)
    if not 1 <= count <= 500:
        raise SheetError(label, [("count", Message("catalogs.copies_count", count=str(raw)))])
    stem = str(rest.get("name") or rest.get("npc") or "").strip()
    if not stem:
        raise SheetError(label, [("name", Message("sheets.pydantic.missing"))])
    return [{**rest, "name": f"{stem} {number}"} for number in range(1, count + 1)]


def to_json(sheets: Iterable[Sheet], *, players_only: bool = False) -> str:
    data = dump_sheets(sheets, players_only=players_only)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def from_json(text: str) -> list[Sheet]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SheetError("roster", [("(file)", not_valid("JSON", error))]) from None
    return load_sheets(data)


def to_yaml(sheets: Iterable[Sheet], *, players_only: bool = False) -> str:
    data = dump_sheets(sheets, players_only=players_only)
    text: str = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    return text


def from_yaml(text: str) -> list[Sheet]:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise SheetError("roster", [("(file)", not_valid("YAML", error))]) from None
    return load_sheets(data if data is not None else [])


# --- DataFrames and CSV ---------------------------------------------------------------


def roster_to_frame(sheets: Iterable[Sheet], *, players_only: bool = False) -> pd.DataFrame:
    """One row per character; dotted columns for nested values, JSON text for lists;
    ``players_only`` leaves the GM's fields out."""
    rows = [_flatten(data) for data in dump_sheets(sheets, players_only=players_only)]
    columns: list[str] = []
    for row in rows:
        columns.extend(key for key in row if key not in columns)
    return pd.DataFrame(rows, columns=columns)


def roster_from_frame(frame: pd.DataFrame) -> list[Sheet]:
    """The sheets of a frame made by :func:`roster_to_frame` (or typed by hand)."""
    if "game" not in frame.columns:
        raise SheetError("roster", [("game", Message("sheets.no_game_column"))])
    sheets = []
    for number, (_, row) in enumerate(frame.iterrows(), start=1):
        cells = {str(k): v for k, v in row.items() if not _blank(v)}
        label = f"{cells.get('name', cells.get('npc', '(unnamed)'))} (row {number})"
        game = str(cells.get("game", ""))
        try:
            cls = sheet_type(game)
        except SheetError as error:
            raise SheetError(label, error.problems) from None
        for copy in copies(_unflatten(cells, cls, label), label):
            sheets.append(load_sheet(copy, label=label))
    return sheets


def to_csv(sheets: Iterable[Sheet], *, players_only: bool = False) -> str:
    text: str = roster_to_frame(sheets, players_only=players_only).to_csv(index=False)
    return text


def from_csv(text: str) -> list[Sheet]:
    try:
        frame = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as error:
        raise SheetError("roster", [("(file)", not_valid("CSV", error))]) from None
    return roster_from_frame(frame)


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
    """Read a roster file in the format its suffix names."""
    source = Path(path)
    readers = {".json": from_json, ".yaml": from_yaml, ".yml": from_yaml, ".csv": from_csv}
    if source.suffix.lower() not in readers:
        raise SheetError(str(source), [("(file)", _unknown_format())])
    return readers[source.suffix.lower()](source.read_text(encoding="utf-8"))


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


def _name_of(item: Any) -> str:
    if not isinstance(item, dict):
        return "(unnamed)"
    return str(item.get("name") or item.get("npc") or "(unnamed)")


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


def _cell_list(text: str, column: str, label: str) -> Any:
    """A list cell: JSON text (as written by :func:`roster_to_frame`), or names typed by hand,
    split at ``;`` (else at ``,``): ``Lasgun; Knife``. Names stand for catalog entries."""
    if not text.lstrip().startswith(("[", "{")):
        separator = ";" if ";" in text else ","
        return [part.strip() for part in text.split(separator) if part.strip()]
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        problem = Message("sheets.cell_not_json", detail=error.msg)
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
