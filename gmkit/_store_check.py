"""What the store checks in a campaign file before serving it, and how it names a failure.

- :class:`StoreError` (also ``gmkit.store.StoreError``); :func:`failed`: a SQLite failure of a
  read or a write as a StoreError naming the file, what happened and what was not saved.
- :func:`problem`: what an ``sqlite3.Error`` means for the GM ("the disk is full"), as a message.
- :func:`unwritable`: why the GM's table could not write a file (read-only file, folder or file
  system), or None.
- :func:`check_writable`, :func:`refuse_unsaved_log`: the refusals of a file that cannot be
  written (for the GM) or read as it is (an immutable reader skips the write-ahead log).
- :func:`damage`, :func:`check_contents`: what is wrong with a campaign file's contents, or
  None; :func:`stored_events`, the same for events read later. A file that passes
  SQLite's own quick check can still be damaged or tampered with: it must hold exactly the
  objects gmkit's schema makes (no trigger, view, table or index besides: a trigger could delete
  the GM's commands as they are written), every value of the type gmkit writes, every event a
  JSON object with a kind, and each encounter's events numbered 1..N without a gap.

A name read from the file (an object's, an encounter's) is shown cut short: the file may be
hostile, and an error never formats an unvalidated value whole.

Why over 400 lines: every check a campaign file passes on open (its schema, its types, its
events' order) and every failure said in words are one vocabulary the store and its readers
share; split, a check and the words for what it found would live apart.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from gmkit.errors import GmkitError
from gmkit.messages import Message, Text

Schema = frozenset[tuple[str, str, str, str | None]]
"""sqlite_master's (type, name, tbl_name, sql) rows: what a schema is made of."""

SHOWN_LENGTH = 40
"""How much of a name read from the file an error shows."""

_MAX_OBJECTS_SHOWN = 5
_GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")
_IGNORED = ("sqlite_stat1", "sqlite_stat4")  # ANALYZE's statistics: read by the planner only

_PROBLEMS = {
    "SQLITE_FULL": "store.problem_full",
    "SQLITE_READONLY": "store.problem_readonly",
    "SQLITE_IOERR": "store.problem_io",
    "SQLITE_CORRUPT": "store.problem_damaged",
    "SQLITE_NOTADB": "store.problem_damaged",
    "SQLITE_BUSY": "store.problem_locked",
    "SQLITE_LOCKED": "store.problem_locked",
    "SQLITE_CANTOPEN": "store.problem_cannot_open",
    "SQLITE_PERM": "store.problem_denied",
    "SQLITE_AUTH": "store.problem_denied",
    "SQLITE_NOMEM": "store.problem_memory",
}
_PRIMARY = {getattr(sqlite3, name) & 0xFF: name for name in _PROBLEMS if hasattr(sqlite3, name)}


class StoreError(GmkitError):
    """The campaign file cannot be opened or written as asked; it is left untouched."""


class EncounterGone(StoreError):
    """The encounter an open table shows is no longer in the campaign file: replaced (a prep
    cell run again) or deleted. Nothing of the command refused was written."""


def failed(path: Path | str, error: sqlite3.Error, what: Text | None) -> StoreError:
    """A failed write (``what``: what it would have saved) or read (None)."""
    if what is None:
        return StoreError(Message("store.read_failed", path=str(path), problem=problem(error)))
    return StoreError(
        Message("store.write_failed", path=str(path), problem=problem(error), what=what)
    )


def shown(name: object) -> str:
    """A name read from the file, quoted and cut to :data:`SHOWN_LENGTH` characters."""
    text = name if isinstance(name, str) else repr(name)
    return repr(text[:SHOWN_LENGTH] + "…" if len(text) > SHOWN_LENGTH else text)


_UNDECODABLE = "Could not decode to UTF-8"  # Python's sqlite3 reading text that is not UTF-8


def problem(error: sqlite3.Error) -> Message:
    """What ``error`` means, in the GM's words. The file is called damaged only where a check
    found damage: SQLite's own codes for it, or text in it that is not UTF-8. An error without
    SQLite's code is otherwise gmkit's use of the connection (a closed one, a thread it was
    not opened for), which says nothing of the file."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is None:
        if str(error).startswith(_UNDECODABLE):
            return Message("store.problem_damaged")
        return Message("store.problem_connection", error=str(error)[:200])
    name = _PRIMARY.get(code & 0xFF)
    if name is None:
        return Message("store.problem_other", code=str(getattr(error, "sqlite_errorname", code)))
    return Message(_PROBLEMS[name])


def read_only_system(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def unwritable(path: Path) -> Message | None:
    """Why a writer could not write the campaign at ``path`` (an existing file), or None. The
    folder counts too: SQLite writes its write-ahead log and index beside the file. Tried, not
    guessed from the permissions (an immutable file is refused even to root): the file opened
    for writing, nothing written; a nameless temporary file made in the folder."""
    if read_only_system(path):
        return Message("store.problem_readonly_system")
    try:
        path.open("r+b").close()
    except OSError:
        return Message("store.problem_readonly_file")
    try:
        tempfile.TemporaryFile(dir=path.parent).close()
    except OSError:
        return Message("store.problem_readonly_folder")
    return None


def check_writable(connection: sqlite3.Connection, path: Path, version: int) -> None:
    """A write that is rolled back: SQLite opens a file it may not write read-only without a
    word, and would refuse only the GM's first command."""
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.execute(f"PRAGMA user_version = {int(version)}")
        finally:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
    except sqlite3.Error as error:
        cannot = Message("store.cannot_write", path=str(path), problem=problem(error))
        raise StoreError(cannot) from None


def refuse_unsaved_log(path: Path) -> None:
    """An immutable open ignores the write-ahead log: refuse a file whose log holds changes."""
    log = Path(f"{path}-wal")
    if log.exists() and log.stat().st_size > 0:
        why = unwritable(path) or Message("store.problem_readonly")
        raise StoreError(Message("store.unsaved_log", path=str(path), problem=why, log=str(log)))


Migrations = Mapping[int, Callable[[sqlite3.Connection], None]]


def schema_made(migrations: Migrations, version: int) -> Schema:
    """The objects ``migrations`` 1..``version`` make, run on an empty database."""
    connection = sqlite3.connect(":memory:", isolation_level=None)
    try:
        for step in range(1, version + 1):
            migrations[step](connection)
        return schema_of(connection)
    finally:
        connection.close()


def schema_of(connection: sqlite3.Connection) -> Schema:
    rows = connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")
    return frozenset((str(t), str(n), str(tn), s) for t, n, tn, s in rows)


def _object(kind: str, name: str) -> Message:
    known = kind if kind in ("table", "index", "trigger", "view") else "table"
    return Message(f"store.object_{known}", name=shown(name))


_ORDER = {"trigger": 0, "table": 1, "view": 2, "index": 3}  # what matters most first


def _objects(rows: Iterable[tuple[str, str]]) -> tuple[Message, ...]:
    ordered = sorted(rows, key=lambda row: (_ORDER.get(row[0], 4), row[1]))
    return tuple(_object(kind, name) for kind, name in ordered[:_MAX_OBJECTS_SHOWN])


def _schema_damage(connection: sqlite3.Connection, expected: Schema | None) -> Message | None:
    if expected is None:  # a schema this gmkit does not ship (a test's): not checked
        return None
    have = {(row[0], row[1]): row for row in schema_of(connection) if row[1] not in _IGNORED}
    wanted = {(row[0], row[1]) for row in expected}
    extra = [key for key in have if key not in wanted]
    if extra:
        return Message("store.unexpected_objects", objects=_objects(extra))
    tables = {name for kind, name in wanted if kind == "table" and (kind, name) not in have}
    missing = [
        (kind, name)
        for kind, name, table, _ in expected
        if (kind, name) not in have and not (kind == "index" and table in tables)
    ]  # (an index of a missing table goes without saying)
    if missing:
        return Message("store.missing_objects", objects=_objects(missing))
    changed = [key for key in have if have[key] not in expected]
    if changed:
        return Message("store.changed_objects", objects=_objects(changed), n=len(changed))
    return None


# table -> (column, SQLite's type of every value it holds)
_TYPES: dict[str, tuple[tuple[str, str], ...]] = {
    "meta": (("key", "text"), ("value", "text")),
    "rosters": (("title", "text"), ("position", "integer"), ("document", "text")),
    "encounters": (("id", "integer"), ("name", "text"), ("game", "text")),
    "events": (("encounter", "integer"), ("seq", "integer"), ("payload", "text")),
}


def _type_damage(connection: sqlite3.Connection) -> Message | None:
    for table, columns in _TYPES.items():
        # one pass over the table for all its columns; column by column only if one is off
        wrong = " OR ".join(f"typeof({column}) != '{kind}'" for column, kind in columns)
        off = connection.execute(f"SELECT 1 FROM {table} WHERE {wrong} LIMIT 1").fetchone()
        for column, kind in columns:
            query = f"SELECT 1 FROM {table} WHERE typeof({column}) != '{kind}' LIMIT 1"
            if off is not None and connection.execute(query).fetchone() is not None:
                which = "store.not_text" if kind == "text" else "store.not_whole_number"
                return Message(which, column=column, table=table)
            if kind == "text" and column not in ("payload", "document"):  # (read where parsed)
                # read as bytes: the sqlite3 module would refuse text that is not UTF-8
                rows = connection.execute(f"SELECT CAST({column} AS BLOB) FROM {table}")
                for (raw,) in rows:
                    try:
                        bytes(raw).decode("utf-8")
                    except UnicodeDecodeError:
                        return Message("store.not_utf8", column=column, table=table)
    return None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON gmkit writes")


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)
_RAW_DECODE = _DECODER.raw_decode


NOT_JSON = object()
"""What :func:`json_value` returns for a text that is not JSON."""


def json_value(text: str | bytes) -> Any:
    """``text`` (bytes: UTF-8) parsed, or :data:`NOT_JSON` (not UTF-8, not JSON, NaN, nested
    too deep, an integer past Python's limit...)."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        if text[:1] == "{" and text[-1:] == "}":  # what gmkit writes: no space to skip
            value, end = _RAW_DECODE(text)
            if end == len(text):
                return value
        return _DECODER.decode(text)  # the same answer, with the spaces around skipped
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return NOT_JSON


def json_object(text: str | bytes) -> dict[str, Any] | None:
    """``text`` as a JSON object, or None if it is not one."""
    value = json_value(text)
    return value if isinstance(value, dict) else None


def event_of(text: str | bytes) -> tuple[dict[str, Any] | None, str]:
    """A stored payload as an event (a JSON object with a kind), or None and the id of the
    message saying what it is not."""
    value = json_value(text)
    if value is NOT_JSON:
        return None, "store.event_not_json"
    if not isinstance(value, dict) or not isinstance(value.get("kind"), str):
        return None, "store.event_not_event"
    return value, ""


def roster_documents(
    path: Path | str, rows: Iterable[tuple[Any, Any]], read: Callable[[dict[str, Any]], Any]
) -> list[Any]:
    """``(title, document text)`` rows, each ``read`` (``Roster.from_dict``); one that is not
    a JSON object (the file was changed since it was opened) or that ``read`` refuses is a
    StoreError naming the file and the roster."""
    found = []
    for title, text in rows:
        document = json_object(text) if isinstance(text, str) else None
        if document is None:
            where = Message("store.roster_not_json", title=shown(title))
            raise StoreError(Message("store.damaged", path=str(path), problem=where))
        try:
            found.append(read(document))
        except Exception as error:  # the sheets' refusal; or a shape no gmkit wrote
            why = error.message if isinstance(error, GmkitError) else type(error).__name__
            refused = Message("store.roster_refused", path=str(path), title=shown(title), error=why)
            raise StoreError(refused) from error
    return found


def stored_events(
    path: Path | str, encounter: int, rows: Iterable[tuple[Any, Any]], name: Callable[[int], str]
) -> list[tuple[int, dict[str, Any]]]:
    """``(seq, payload text)`` rows read from the file as ``(seq, event)``; one that is not an
    event (the file was changed since it was opened) is a StoreError naming it."""
    found = []
    for seq, payload in rows:
        event, which = event_of(payload) if isinstance(payload, str) else (None, "")
        if event is None:
            which = which or "store.event_not_json"
            where = Message(which, seq=int(seq), encounter=shown(name(encounter)))
            raise StoreError(Message("store.damaged", path=str(path), problem=where))
        found.append((int(seq), event))
    return found


Decoded = dict[int, list[tuple[int, dict[str, Any]]]]
"""Each encounter's events as the check decoded them: ``{encounter: [(seq, event), ...]}``."""


def _raw(value: Any) -> str | bytes:
    return value if isinstance(value, str) else bytes(value)


def content_damage(
    connection: Any, decoded: Decoded | None, *, text: bool = False
) -> Message | None:
    """What is wrong with the rows of gmkit's tables on ``connection`` (SQLite's, or the
    PostgreSQL campaign's adapter with ``text``: its documents are read as text, not bytes),
    or None; the events decoded are kept in ``decoded`` when given."""
    blob = "{}" if text else "CAST({} AS BLOB)"
    names: dict[int, str] = {}
    for ident, name, game in connection.execute("SELECT id, name, game FROM encounters"):
        names[int(ident)] = str(name)
        if not _GAME_ID.fullmatch(str(game)):
            return Message("store.not_a_game", encounter=shown(name))
    rosters = connection.execute(f"SELECT title, {blob.format('document')} FROM rosters")
    for title, document in rosters:
        if json_object(_raw(document)) is None:
            return Message("store.roster_not_json", title=shown(title))
    orphans = connection.execute(
        "SELECT count(*) FROM events WHERE encounter NOT IN (SELECT id FROM encounters)"
    ).fetchone()[0]
    if orphans:
        return Message("store.orphan_events", n=int(orphans))
    rows = connection.execute(
        "SELECT encounter, count(*), min(seq), max(seq) FROM events GROUP BY encounter "
        "ORDER BY encounter"
    )
    for encounter, count, first, last in list(rows):
        # (encounter, seq) is the primary key: no two alike, so 1..count has no gap
        if (first, last) != (1, count):
            seqs = connection.execute(
                "SELECT seq FROM events WHERE encounter = ? ORDER BY seq", (encounter,)
            )
            expected = 1
            for (seq,) in seqs:
                if seq != expected:
                    break
                expected += 1
            return Message("store.missing_event", encounter=shown(names[encounter]), seq=expected)
    events = connection.execute(
        f"SELECT encounter, seq, {blob.format('payload')} FROM events ORDER BY encounter, seq"
    )
    kept: list[tuple[int, dict[str, Any]]] = []
    current = None
    for encounter, seq, payload in events:
        event, which = event_of(_raw(payload))
        if event is None:
            if decoded is not None:
                decoded.clear()
            return Message(which, encounter=shown(names[encounter]), seq=int(seq))
        if decoded is not None:  # decoded once: the store serves them to the first read
            if encounter != current:
                current, kept = encounter, decoded.setdefault(int(encounter), [])
            kept.append((int(seq), event))
    return None


def check_contents(
    connection: sqlite3.Connection,
    path: Path,
    expected: Schema | None,
    decoded: Decoded | None = None,
) -> None:
    """Refuse damaged or tampered contents (see :func:`damage`), naming the file; the events
    it decoded are left in ``decoded`` (when given) if the file passes."""
    try:
        found = damage(connection, expected, decoded)
    except sqlite3.Error as error:
        found = problem(error)
        if found.id != "store.problem_damaged":  # the disk, a lock: not the file's fault
            raise StoreError(Message("store.cannot_open", path=str(path), problem=found)) from None
    if found is not None:
        raise StoreError(Message("store.damaged", path=str(path), problem=found))


def damage(
    connection: sqlite3.Connection, expected: Schema | None, decoded: Decoded | None = None
) -> Message | None:
    """What is wrong with the contents of the campaign open on ``connection`` (its schema is
    ``expected``'s version), or None. Read in one read transaction: a writer appending at the
    same time is seen whole or not at all. Each event is decoded once; given ``decoded``, the
    events are kept there (emptied if the file is refused)."""
    opened = not connection.in_transaction
    if opened:
        connection.execute("BEGIN")
    try:
        return (
            _schema_damage(connection, expected)
            or _type_damage(connection)
            or content_damage(connection, decoded)
        )
    finally:
        if opened and connection.in_transaction:
            connection.execute("ROLLBACK")
