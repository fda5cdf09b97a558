"""The one reader every importer uses: a file's bytes to plain data, bounded before anything
is built from it.

A roster, a campaign document or a data file may come from anyone. Before a value reaches a
sheet, this module bounds what the file may cost: its size in bytes (:data:`MAX_BYTES`), how
deeply lists and mappings nest (:data:`MAX_DEPTH`), how many values it holds once YAML aliases
are expanded (:data:`MAX_VALUES`: a "billion laughs" of 400 bytes is refused, not expanded),
the digits of a number, the length of a text. Bytes must be UTF-8; a lone surrogate is no text.
What comes back is JSON-shaped: mappings with text keys, lists, text, numbers, booleans, None.

Every refusal is a :class:`FileRefused` naming the file, the place (line and column, byte, or
the path of the value) and the problem; an error quotes a refused value at most
:data:`QUOTE_LIMIT` characters long (:func:`quote`), never formatting it whole.

Why over 400 lines: every reader of a file a user hands gmkit (bytes, text, YAML, JSON,
CSV) shares one refusal with its place and one quoting limit, and the YAML reader's limits
(depth, expansion, size) are one loader.
"""

from __future__ import annotations

import errno
import io
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
import yaml.cyaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

from gmkit.errors import GmkitError, SheetError
from gmkit.messages import Message, Param

if TYPE_CHECKING:
    import pandas as pd

MAX_BYTES = 2 * 1024 * 1024
"""The largest file read, in bytes (a roster of 500 characters is about 700 KB of YAML)."""
MAX_DEPTH = 32
"""How deeply lists and mappings may nest (a campaign document nests 7 levels)."""
MAX_VALUES = 200_000
"""How many values (scalars, lists, mappings) a file may hold, aliases expanded."""
MAX_TEXT = 10_000
"""The longest text value (a sheet's longest field, its notes, holds 4,000 characters)."""
MAX_DIGITS = 100
"""The most digits a number may have."""
MAX_COLUMNS = 1_000
"""The most columns a CSV roster may have."""
QUOTE_LIMIT = 60
"""The most characters of a refused value an error quotes."""

_TAG = "tag:yaml.org,2002:"
_PLAIN_TAGS = frozenset(f"{_TAG}{name}" for name in ("str", "int", "float", "bool", "null"))
_ALLOWED_TAGS = _PLAIN_TAGS | {f"{_TAG}seq", f"{_TAG}map", "!"}
_SURROGATE = re.compile("[\ud800-\udfff]")


class FileRefused(SheetError):
    """A file (or text) an importer refused: ``file``, ``place`` in it and ``problem``; no
    place when the problem names its own (a character's error names the character and field).

    A :class:`~gmkit.errors.SheetError` whose ``problems`` is the one ``(place, problem)``.
    """

    def __init__(self, file: str, place: Param | None, problem: Message | str) -> None:
        self.file = file
        self.place = place
        self.problem = problem
        self.character = file
        self.problems = [("(file)" if place is None else str(place), problem)]
        message = (
            Message("files.in_file", file=repr(file), problem=problem)
            if place is None
            else Message("files.refused", file=repr(file), place=place, problem=problem)
        )
        GmkitError.__init__(self, message)


class _Refusal(Exception):
    """Raised inside the YAML machinery; :func:`load_yaml` turns it into FileRefused."""

    def __init__(self, place: Param, problem: Message) -> None:
        super().__init__()
        self.place = place
        self.problem = problem


# --- quoting refused values ----------------------------------------------------------------


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` for an error, at most about ``limit`` characters, computed without ever
    building the whole of a huge value (a number of 5,000 digits, a text of a million)."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 3 * limit:  # repr would be long, or refused by Python
            return f"~10**{int(value.bit_length() * 0.30103)}"
        return repr(value)[:limit]
    if isinstance(value, str | bytes):
        shown = repr(value[:limit])
        return shown if len(value) <= limit and len(shown) <= limit + 3 else f"{shown[:limit]}…"
    if isinstance(value, list | tuple):
        return "[…]"
    if isinstance(value, Mapping):
        return "{…}"
    return f"<{type(value).__name__}>"


def label(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """A character's name for an error: the text (cut at ``limit``), else "(unnamed)"."""
    if isinstance(value, str) and value.strip():
        text = value.strip()
        return text if len(text) <= limit else f"{text[:limit]}…"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return quote(value, limit)
    return "(unnamed)"


# --- bytes to text -------------------------------------------------------------------------


def read_bytes(path: str | Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of ``path``, refused when there are more than ``limit`` or it cannot be read."""
    source = Path(path)
    try:
        with source.open("rb") as handle:
            data = handle.read(limit + 1)
            if len(data) > limit:
                handle.seek(0, io.SEEK_END)
                size = handle.tell()
                problem = Message("files.too_large", size=size, limit=limit)
                raise FileRefused(str(source), Message("files.whole_file"), problem)
    except OSError as error:
        raise FileRefused(str(source), Message("files.whole_file"), _os_problem(error)) from None
    return data


def decode(data: bytes, file: str) -> str:
    """``data`` as UTF-8 text (a byte-order mark dropped), or the offset of the first byte
    that is not UTF-8 (a lone surrogate encoded as UTF-8 is not)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        offset = error.start + bom
        problem = Message("files.not_utf8", byte=f"0x{data[offset]:02X}")
        raise FileRefused(file, Message("files.at_byte", offset=offset), problem) from None


def read_text(path: str | Path, limit: int = MAX_BYTES) -> str:
    """The UTF-8 text of ``path``, bounded (see :func:`read_bytes`, :func:`decode`)."""
    return decode(read_bytes(path, limit), str(path))


def read_data(path: str | Path) -> Any:
    """The plain data of a JSON (``.json``) or YAML file, every bound checked."""
    source = Path(path)
    text = read_text(source)
    if source.suffix.lower() == ".json":
        return load_json(text, str(source))
    return load_yaml(text, str(source))


def _os_problem(error: OSError) -> Message:
    if isinstance(error, FileNotFoundError):
        return Message("files.no_such_file")
    if isinstance(error, IsADirectoryError):
        return Message("files.is_a_folder")
    if isinstance(error, PermissionError):
        return Message("files.not_permitted")
    code = errno.errorcode.get(error.errno or 0, str(error.errno))
    return Message("files.cannot_read", code=code)


def _check_text(text: str, file: str) -> None:
    if len(text) > MAX_BYTES:
        problem = Message(
            "files.too_large", size=len(text.encode("utf-8", "replace")), limit=MAX_BYTES
        )
        raise FileRefused(file, Message("files.whole_file"), problem)
    try:
        text.encode("utf-8")  # in C: a lone surrogate is the one character it refuses
    except UnicodeEncodeError as error:
        place = _line_of(text, error.start)
        raise FileRefused(file, place, _surrogate(text[error.start])) from None


def _line_of(text: str, offset: int) -> Message:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Message("files.at_line", line=line, column=column)


def _surrogate(character: str) -> Message:
    return Message("files.lone_surrogate", code=f"U+{ord(character):04X}")


# --- YAML ----------------------------------------------------------------------------------


class _Resolver(Resolver):
    """YAML's resolver without timestamps: ``2026-01-01`` stays the text it reads as."""


_Resolver.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != f"{_TAG}timestamp"]
    for first, resolvers in Resolver.yaml_implicit_resolvers.items()
}

# libyaml's parser when PyYAML has it: parsing and composing in C, seven times faster
_PARSING: tuple[Any, ...] = (
    (yaml.cyaml.CParser,)  # type: ignore[attr-defined]
    if yaml.__with_libyaml__
    else (yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer)
)


def _init_loader(self: Any, stream: str) -> None:
    _PARSING[0].__init__(self, stream)
    for base in _PARSING[1:]:
        base.__init__(self)
    SafeConstructor.__init__(self)
    _Resolver.__init__(self)


_Loader: Any = type("_Loader", (*_PARSING, SafeConstructor, _Resolver), {"__init__": _init_loader})
"""The safe loader (libyaml's parser when there is one) without timestamps, ints bounded."""


def _mark(mark: Any) -> Message:
    return Message("files.at_line", line=mark.line + 1, column=mark.column + 1)


def _construct_int(loader: Any, node: ScalarNode) -> int:
    digits = sum(character.isdigit() for character in node.value)
    if digits > MAX_DIGITS:
        problem = Message("files.number_too_long", digits=digits, limit=MAX_DIGITS)
        raise _Refusal(_mark(node.start_mark), problem)
    value: int = SafeConstructor.construct_yaml_int(loader, node)
    return value


_Loader.add_constructor(f"{_TAG}int", _construct_int)


def load_yaml(text: str, file: str = "roster") -> Any:
    """The plain data of YAML ``text`` (one document), every bound checked before building:
    the events first (depth, count, text length, tags), then the aliases' expansion."""
    _check_text(text, file)
    try:
        _scan_events(text)
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            _check_expansion(node)
            data = loader.construct_document(node)
        finally:
            loader.dispose()
    except _Refusal as refusal:
        raise FileRefused(file, refusal.place, refusal.problem) from None
    except yaml.MarkedYAMLError as error:
        place = _mark(error.problem_mark) if error.problem_mark else Message("files.whole_file")
        detail = quote(str(error.problem or error.context or ""), 200).strip("'\"")
        problem = Message("files.not_valid", format="YAML", detail=detail)
        raise FileRefused(file, place, problem) from None
    except (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError) as error:
        detail = quote(str(error), 200).strip("'\"")
        problem = Message("files.not_valid", format="YAML", detail=detail)
        raise FileRefused(file, Message("files.whole_file"), problem) from None
    check_data(data, file)
    return data


def _scan_events(text: str) -> None:
    """Refuse, from the parser's events alone (nothing built yet), a document nested too
    deeply, with too many values, too long a text or a tag other than YAML's plain ones."""
    loader = _Loader(text)
    depth = count = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise _Refusal(
                        _mark(event.start_mark), Message("files.too_deep", limit=MAX_DEPTH)
                    )
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
                continue
            elif isinstance(event, yaml.ScalarEvent):
                if len(event.value) > MAX_TEXT:
                    problem = Message(
                        "files.text_too_long", length=len(event.value), limit=MAX_TEXT
                    )
                    raise _Refusal(_mark(event.start_mark), problem)
            elif not isinstance(event, yaml.AliasEvent):
                continue
            count += 1
            if count > MAX_VALUES:
                raise _Refusal(
                    _mark(event.start_mark), Message("files.too_many_values", limit=MAX_VALUES)
                )
            tag = getattr(event, "tag", None)
            if tag is not None and tag not in _ALLOWED_TAGS:
                problem = Message("files.tag_refused", tag=quote(tag, 80).strip("'"))
                raise _Refusal(_mark(event.start_mark), problem)
    finally:
        loader.dispose()


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _check_expansion(root: Node) -> None:
    """Refuse a node graph whose aliases expand past MAX_VALUES values or MAX_DEPTH levels, or
    that holds itself (``&a [*a]``): sizes are counted once per node, never expanded."""
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            children = _children(node)
            size[key] = 1 + sum(size[id(child)] for child in children)
            depth[key] = 1 + max((depth[id(child)] for child in children), default=0)
            open_nodes.discard(key)
            if size[key] > MAX_VALUES:
                problem = Message("files.too_many_values", limit=MAX_VALUES)
                raise _Refusal(_mark(node.start_mark), problem)
            if depth[key] > MAX_DEPTH + 1:
                raise _Refusal(_mark(node.start_mark), Message("files.too_deep", limit=MAX_DEPTH))
            continue
        if key in size:
            continue
        if key in open_nodes:
            raise _Refusal(_mark(node.start_mark), Message("files.alias_cycle"))
        open_nodes.add(key)
        stack.append((node, True))
        for child in _children(node):
            if id(child) in open_nodes:
                raise _Refusal(_mark(child.start_mark), Message("files.alias_cycle"))
            if id(child) not in size:
                stack.append((child, False))


# --- JSON ----------------------------------------------------------------------------------


def load_json(text: str, file: str = "roster") -> Any:
    """The plain data of JSON ``text``, through the same bounds as YAML's."""
    _check_text(text, file)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        place = Message("files.at_line", line=error.lineno, column=error.colno)
        problem = Message("files.not_valid", format="JSON", detail=error.msg)
        raise FileRefused(file, place, problem) from None
    except RecursionError:  # nested some hundreds of levels: Python's own limit
        raise FileRefused(
            file, Message("files.whole_file"), Message("files.too_deep", limit=MAX_DEPTH)
        ) from None
    except ValueError as error:  # a number over Python's 4,300 digits
        long_number = re.search(rf"-?\d{{{MAX_DIGITS + 1},}}", text)
        if long_number is None:
            detail = quote(str(error), 200).strip("'\"")
            problem = Message("files.not_valid", format="JSON", detail=detail)
            raise FileRefused(file, Message("files.whole_file"), problem) from None
        digits = len(long_number.group().lstrip("-"))
        problem = Message("files.number_too_long", digits=digits, limit=MAX_DIGITS)
        raise FileRefused(file, _line_of(text, long_number.start()), problem) from None
    escaped_surrogate = re.search(r"\\u[dD][89a-fA-F]", text) is not None
    check_data(data, file, surrogates=escaped_surrogate)
    return data


# --- the data read -------------------------------------------------------------------------


def check_data(data: Any, file: str, *, surrogates: bool = True) -> None:
    """Refuse data that is not JSON-shaped or breaks a bound: more than MAX_VALUES values,
    nested deeper than MAX_DEPTH, a key that is not text, a text too long or holding a lone
    surrogate (``surrogates=False``: the text read had none), a number of more than
    MAX_DIGITS digits. The place is the value's path."""
    count = 0
    # each entry: the value, its depth, and its place as a linked (parent place, key) pair
    stack: list[tuple[Any, int, Any]] = [(data, 0, None)]
    while stack:
        value, depth, place = stack.pop()
        count += 1
        if count > MAX_VALUES:
            problem = Message("files.too_many_values", limit=MAX_VALUES)
            raise FileRefused(file, Message("files.whole_file"), problem)
        if isinstance(value, str):
            if len(value) > MAX_TEXT or (surrogates and _SURROGATE.search(value)):
                raise FileRefused(file, _place(place), _value_problem(value))
        elif isinstance(value, dict):
            if depth >= MAX_DEPTH:
                raise FileRefused(file, _place(place), Message("files.too_deep", limit=MAX_DEPTH))
            for key, item in value.items():
                if not isinstance(key, str):
                    refused = Message("files.key_not_text", got=quote(key))
                    raise FileRefused(file, _place(place), refused)
                if len(key) > MAX_TEXT or (surrogates and _SURROGATE.search(key)):
                    raise FileRefused(file, _place(place), _value_problem(key))
                stack.append((item, depth + 1, (place, key)))
        elif isinstance(value, list):
            if depth >= MAX_DEPTH:
                raise FileRefused(file, _place(place), Message("files.too_deep", limit=MAX_DEPTH))
            stack.extend((item, depth + 1, (place, index)) for index, item in enumerate(value))
        elif not (isinstance(value, float | bool) or value is None):
            problem = _value_problem(value)
            if problem is not None:
                raise FileRefused(file, _place(place), problem)


def _place(place: Any) -> Message:
    path: list[str | int] = []
    while place is not None:
        place, key = place
        path.append(key)
    return at_field(tuple(reversed(path)))


def _value_problem(value: Any) -> Any:
    """What is wrong with a scalar read: a text too long or not text, a number too long, a
    value of no JSON type; None when nothing is."""
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            return Message("files.text_too_long", length=len(value), limit=MAX_TEXT)
        found = _SURROGATE.search(value)
        return _surrogate(found.group()) if found else None
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return None
    if isinstance(value, int):
        digits = int(value.bit_length() * 0.30103) + 1
        if digits > MAX_DIGITS:
            return Message("files.number_too_long", digits=digits, limit=MAX_DIGITS)
        return None
    return Message("files.not_valid", format="JSON", detail=f"<{type(value).__name__}>")


def at_field(path: tuple[str | int, ...]) -> Message:
    """The place of a value by its path: ``rosters[0].characters[2].name``."""
    shown = ""
    for part in path:
        if isinstance(part, int):
            shown += f"[{part}]"
        else:
            part = label(part, 40)
            shown += f".{part}" if shown else part
    if not shown:
        return Message("files.whole_file")
    return Message("files.at_field", field=repr(shown))


def text_of(
    data: Mapping[str, Any],
    key: str,
    file: str,
    default: str = "",
    *,
    path: tuple[str | int, ...] = (),
) -> str:
    """``data[key]`` when it is text (a number is taken as its digits), ``default`` when it is
    absent or empty; a list or mapping is refused, naming the field (``path`` leads to
    ``data``)."""
    value = data.get(key)
    if value is None or value == "":
        return default
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return quote(value)
    problem = Message("files.not_text", got=quote(value))
    raise FileRefused(file, at_field((*path, key)), problem)


# --- CSV -----------------------------------------------------------------------------------


def read_csv(text: str, file: str = "roster") -> pd.DataFrame:
    """A CSV roster as a frame of text cells, bounded (size, columns, surrogates)."""
    import pandas as pd  # here: the rules read sheets without pandas, only a CSV needs it

    _check_text(text, file)
    first_line = text.split("\n", 1)[0]
    if first_line.count(",") + 1 > MAX_COLUMNS:
        problem = Message(
            "files.too_many_columns", count=first_line.count(",") + 1, limit=MAX_COLUMNS
        )
        raise FileRefused(file, Message("files.at_line", line=1, column=1), problem)
    try:
        frame = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError, OverflowError) as error:
        detail = quote(str(error).strip(), 200).strip("'\"")
        problem = Message("files.not_valid", format="CSV", detail=detail)
        raise FileRefused(file, Message("files.whole_file"), problem) from None
    if len(frame.columns) > MAX_COLUMNS:
        problem = Message("files.too_many_columns", count=len(frame.columns), limit=MAX_COLUMNS)
        raise FileRefused(file, Message("files.at_line", line=1, column=1), problem)
    return frame


__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_TEXT",
    "MAX_VALUES",
    "FileRefused",
    "at_field",
    "check_data",
    "decode",
    "label",
    "load_json",
    "load_yaml",
    "quote",
    "read_bytes",
    "read_csv",
    "read_data",
    "read_text",
    "text_of",
]
