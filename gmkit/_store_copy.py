"""``gmkit copy SRC DST``: a campaign moved between a file and PostgreSQL (either way, or file
to file), losing nothing: its name, its rosters in order, each encounter with its id, game and
creation time, every event as written (undo markers included) with its time.

The copy is one transaction into a target that holds nothing yet (a new file, an empty
PostgreSQL schema); the source is only read. Before it is kept, the target is read back and
compared with the source record by record; a difference removes what was written and says so.
A file is written beside its name and moved into place, so a copy cut off leaves no campaign
file half written.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gmkit._store_check import StoreError
from gmkit._store_file import CampaignStore, is_database_url
from gmkit.messages import Message


def _time(value: Any) -> str:
    """A time in one form both stores read, to the microsecond (a file's text, a database's
    timestamp)."""
    if not isinstance(value, datetime):
        try:
            value = datetime.fromisoformat(str(value))
        except ValueError:
            return str(value)  # not a time gmkit wrote: copied as it is
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return str(value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"))


def _records(store: CampaignStore) -> dict[str, Any]:
    """Everything a campaign holds, as plain values (the events' text as written)."""
    with store._reading() as connection:
        name = connection.execute("SELECT value FROM meta WHERE key = 'name'").fetchone()
        rosters = connection.execute(
            "SELECT title, position, document FROM rosters ORDER BY position"
        ).fetchall()
        encounters = connection.execute(
            "SELECT id, name, game, created FROM encounters ORDER BY id"
        ).fetchall()
        events = connection.execute(
            "SELECT encounter, seq, payload, written FROM events ORDER BY encounter, seq"
        ).fetchall()
    return {
        "name": None if name is None else str(name[0]),
        "rosters": [(str(t), int(p), str(d)) for t, p, d in rosters],
        "encounters": [(int(i), str(n), str(g), _time(c)) for i, n, g, c in encounters],
        "events": [(int(e), int(s), str(p), _time(w)) for e, s, p, w in events],
    }


def _empty(store: CampaignStore) -> bool:
    """Whether ``store`` holds no campaign yet (no name, roster or encounter): counted, not
    read whole."""
    with store._reading() as connection:
        found = connection.execute(
            "SELECT (SELECT count(*) FROM rosters) + (SELECT count(*) FROM encounters) "
            "+ (SELECT count(*) FROM meta WHERE key = 'name')"
        ).fetchone()
    return int(found[0]) == 0


def _write(target: CampaignStore, records: dict[str, Any]) -> None:
    with target.transaction(Message("store.what_copy")) as connection:
        if records["name"] is not None:
            connection.execute(
                "INSERT INTO meta (key, value) VALUES ('name', ?)", (records["name"],)
            )
        connection.executemany(
            "INSERT INTO rosters (title, position, document) VALUES (?, ?, ?)", records["rosters"]
        )
        connection.executemany(
            "INSERT INTO encounters (id, name, game, created) VALUES (?, ?, ?, ?)",
            records["encounters"],
        )
        connection.executemany(
            "INSERT INTO events (encounter, seq, payload, written) VALUES (?, ?, ?, ?)",
            records["events"],
        )
        for ident, *_ in records["encounters"]:
            target._ring(connection, ident, 0)


def copy_campaign(source: CampaignStore, target: str, *, overwrite: bool = False) -> str:
    """Copy the open campaign ``source`` to ``target`` (a file's path or a ``postgresql://``
    address); returns ``target``. A file that exists is refused unless ``overwrite``; a
    PostgreSQL campaign that holds anything is always refused."""
    records = _records(source)
    if is_database_url(target):
        with CampaignStore(target, create=True) as copy:
            if not _empty(copy):
                raise StoreError(Message("store.copy_not_empty", path=copy.where))
            _write(copy, records)
            if _records(copy) != records:
                _clear(copy)
                raise StoreError(Message("store.copy_differs", path=copy.where))
        return target
    path = Path(target).expanduser()
    if path.exists() and not overwrite:
        raise StoreError(Message("store.copy_exists", path=str(path)))
    if not is_database_url(source.where) and path.resolve() == Path(source.where).resolve():
        raise StoreError(f"{path}: is the campaign itself; copy it to another file")
    partial = path.with_name(f".{path.name}.partial")
    _remove(partial)
    try:
        with CampaignStore(partial, create=True) as copy:
            _write(copy, records)
            same = _records(copy) == records
            copy._connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            copy._connection.execute("PRAGMA journal_mode = DELETE")
        if not same:
            raise StoreError(Message("store.copy_differs", path=str(path)))
        partial.replace(path)
    finally:
        _remove(partial)
    return str(path)


def _clear(store: CampaignStore) -> None:
    with store.transaction() as connection:
        connection.execute("DELETE FROM events")
        connection.execute("DELETE FROM encounters")
        connection.execute("DELETE FROM rosters")
        connection.execute("DELETE FROM meta WHERE key = 'name'")


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def copy_location(source: str, target: str, *, overwrite: bool = False) -> str:
    """``gmkit copy SRC DST``: open ``source`` read-only and copy it to ``target``."""
    with CampaignStore(source if is_database_url(source) else Path(source), readonly=True) as src:
        return copy_campaign(src, target, overwrite=overwrite)
