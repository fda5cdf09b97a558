"""The campaign file: one SQLite database holding rosters, sheets and encounter event logs.

- Embedded: nothing to install. WAL journal, ``synchronous=FULL``, one transaction per write,
  so a committed event survives a crash and a reader never sees half a write.
- One writer (the GM's dashboard) and any number of readers (player views) share a file;
  readers never block the writer. Events are appended with the sequence number the writer
  expects, so two writers can never interleave an encounter's log silently.
- The file says what it is (``PRAGMA application_id``) and which schema it has
  (``PRAGMA user_version``). A file from a newer gmkit, or one that is not a gmkit campaign or is
  damaged, is refused with a clear error and never written to. Older schemas are migrated in one
  transaction. Opening also checks the contents (:mod:`gmkit.store_check`): exactly gmkit's
  tables and indexes (no trigger, view or other object), every event a JSON object with a kind,
  each encounter's events numbered 1..N; a file that fails is refused, never served.
- A writer (the GM's table) is refused a file it cannot write, at open. A reader opens it
  ``mode=ro`` (it follows the GM writing), or ``immutable`` when nobody can write the file.
- Every SQLite failure is a :class:`StoreError` naming the file and what happened ("the disk is
  full: the last command was not saved; nothing before it is lost").

Why over 400 lines: opening (the checks above, migrations) and every read and write of the
campaign file are here, so that no other module touches SQLite; the checks themselves are in
:mod:`gmkit.store_check`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gmkit import store_check
from gmkit.messages import Message, Text
from gmkit.store_check import StoreError, failed

if TYPE_CHECKING:  # imported where used: a player view or a writer opens the file without pandas
    from gmkit.sheets.roster import Campaign, Roster

APPLICATION_ID = 0x676D6B74  # "gmkt"
_SQLITE_HEADER = b"SQLite format 3\x00"
SCHEMA_VERSION = 1

_SCHEMA_V1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE rosters (
    title TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    document TEXT NOT NULL
);
CREATE TABLE encounters (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE events (
    encounter INTEGER NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    payload TEXT NOT NULL,
    written TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (encounter, seq)
) WITHOUT ROWID;
"""


def execute_statements(connection: sqlite3.Connection, script: str) -> None:
    """Run ``script`` statement by statement inside the caller's transaction.

    ``Connection.executescript`` would COMMIT the open transaction first, so a migration that
    used it would no longer be all-or-nothing; migrations use this instead.
    """
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            connection.execute(statement)
            statement = ""
    if statement.strip():
        raise ValueError(f"incomplete SQL statement: {statement.strip()!r}")


# version reached -> what takes a file from the version before to it. A migration runs inside
# the opening transaction: it must not commit (no ``executescript``; use execute_statements).
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    1: lambda connection: execute_statements(connection, _SCHEMA_V1),
}
_SHIPPED = dict(MIGRATIONS)


@cache
def _shipped_schema(version: int) -> store_check.Schema:
    return store_check.schema_made(_SHIPPED, version)


def expected_schema(version: int) -> store_check.Schema | None:
    """The objects a campaign file of schema ``version`` holds, as gmkit's migrations make
    them (None for a version this gmkit does not ship, such as a test's)."""
    steps = range(1, version + 1)
    if any(MIGRATIONS.get(step) is not _SHIPPED.get(step) for step in steps):
        return None
    return _shipped_schema(version)


@dataclass(frozen=True, slots=True)
class EncounterInfo:
    id: int
    name: str
    game: str
    events: int


@dataclass(frozen=True, slots=True)
class StoredEvent:
    seq: int
    payload: dict[str, Any]


class CampaignStore:
    """A campaign file. ``CampaignStore(path, create=True)`` makes a new one if needed."""

    def __init__(self, path: str | Path, *, create: bool = False, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        if not self.path.exists() and (readonly or not create):
            raise StoreError(f"{self.path}: no such campaign file")
        self._check_header()
        cannot = store_check.unwritable(self.path) if self.path.exists() else None
        if cannot is not None and not readonly:
            raise StoreError(Message("store.cannot_write", path=str(self.path), problem=cannot))
        self.immutable = cannot is not None  # nobody writes it: SQLite needs no lock beside it
        self._connection = self._connect()
        try:
            self._check_and_migrate()
        except BaseException:
            self._connection.close()
            raise

    # --- opening -------------------------------------------------------------------

    def _check_header(self) -> None:
        """Refuse a file that is neither empty nor a SQLite database, before SQLite sees it
        (SQLite takes some short files for empty databases, and would write over them)."""
        try:
            with self.path.open("rb") as handle:
                header = handle.read(len(_SQLITE_HEADER))
        except FileNotFoundError:
            return  # created below
        except OSError as error:
            raise StoreError(f"{self.path}: cannot read the campaign file ({error})") from None
        if header and header != _SQLITE_HEADER:
            raise StoreError(f"{self.path}: not a gmkit campaign, or damaged (not a SQLite file)")

    def _connect(self) -> sqlite3.Connection:
        try:
            if self.readonly:
                # immutable only when nobody can write the file: it ignores others' changes
                mode = "ro&immutable=1" if self.immutable else "ro"
                if self.immutable:
                    store_check.refuse_unsaved_log(self.path)
                uri = f"{self.path.resolve().as_uri()}?mode={mode}"
                connection = sqlite3.connect(uri, uri=True, timeout=30, isolation_level=None)
            else:
                connection = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            connection.execute("PRAGMA busy_timeout = 30000")
            connection.execute("PRAGMA trusted_schema = OFF")
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot open the campaign file ({error})") from None
        return connection

    def _check_and_migrate(self) -> None:
        # Everything up to the migration only reads: a file that is refused is never written.
        try:
            application = self._pragma("application_id")
            version = self._pragma("user_version")
            objects = self._connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except sqlite3.DatabaseError as error:
            problem = store_check.problem(error)
            if problem.id != "store.problem_damaged":  # the disk, a lock: not the file's fault
                raise StoreError(
                    Message("store.cannot_open", path=str(self.path), problem=problem)
                ) from None
            raise StoreError(f"{self.path}: not a gmkit campaign, or damaged ({error})") from None
        if application not in (0, APPLICATION_ID) or (application == 0 and objects):
            raise StoreError(f"{self.path}: this SQLite file is not a gmkit campaign")
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: made by a newer gmkit (campaign schema {version}; this gmkit "
                f"reads up to {SCHEMA_VERSION}); the file is left untouched"
            )
        try:
            problems = [row[0] for row in self._connection.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: damaged campaign file ({error})") from None
        if problems != ["ok"]:
            shown = "; ".join(str(problem) for problem in problems[:3])
            raise StoreError(f"{self.path}: damaged campaign file ({shown})")
        if version:
            store_check.check_contents(self._connection, self.path, expected_schema(version))
        if self.readonly:
            if version < SCHEMA_VERSION:
                raise StoreError(f"{self.path}: schema {version} needs migrating by the GM's gmkit")
            return
        if version == SCHEMA_VERSION:
            store_check.check_writable(self._connection, self.path, version)
        self._connection.execute("PRAGMA synchronous = FULL")
        self._connection.execute("PRAGMA foreign_keys = ON")
        if version < SCHEMA_VERSION:
            self._migrate(version)
        # After the migration: switching an empty file to WAL would already write to it.
        mode = self._connection.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(f"{self.path}: cannot use a write-ahead log here (journal {mode})")

    def _migrate(self, version: int) -> None:
        """Take the file from ``version`` to SCHEMA_VERSION in one transaction."""
        target = SCHEMA_VERSION
        try:
            with self.transaction() as connection:
                for step in range(version + 1, target + 1):
                    MIGRATIONS[step](connection)
                    if not connection.in_transaction:
                        raise StoreError(
                            f"{self.path}: migration to schema {step} committed on its own"
                        )
                connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                connection.execute(f"PRAGMA user_version = {target}")
        except StoreError as error:
            if not isinstance(error.__cause__, sqlite3.Error):
                raise
            cause = error.__cause__
            raise StoreError(
                f"{self.path}: migrating campaign schema {version} to {target} failed "
                f"({type(cause).__name__}: {cause}); the file is left as it was"
            ) from cause
        except Exception as error:
            raise StoreError(
                f"{self.path}: migrating campaign schema {version} to {target} failed "
                f"({type(error).__name__}: {error}); the file is left as it was"
            ) from error

    def _pragma(self, name: str) -> int:
        return int(self._connection.execute(f"PRAGMA {name}").fetchone()[0])

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> CampaignStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @contextmanager
    def transaction(self, what: Text | None = None) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is committed, or none of it. A SQLite failure
        (the disk full, the file gone read-only) is a StoreError saying that ``what`` (default:
        "the change") was not saved."""
        if self.readonly:
            raise StoreError(f"{self.path}: opened read-only")
        what = what or Message("store.what_change")
        try:
            self._connection.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise failed(self.path, error, what) from None
        try:
            yield self._connection
            self._connection.execute("COMMIT")
        except sqlite3.Error as error:
            self._rollback()
            raise failed(self.path, error, what) from error
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        """Roll back what is open; SQLite may have rolled back already (a full disk)."""
        if self._connection.in_transaction:
            with suppress(sqlite3.Error):  # what was not committed is not in the file anyway
                self._connection.execute("ROLLBACK")

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """A read: a SQLite failure is a StoreError naming the file and what happened."""
        try:
            yield self._connection
        except sqlite3.Error as error:
            raise failed(self.path, error, None) from error

    # --- campaign and rosters --------------------------------------------------------

    @property
    def name(self) -> str:
        with self._reading() as connection:
            row = connection.execute("SELECT value FROM meta WHERE key = 'name'").fetchone()
        return str(row[0]) if row else self.path.stem

    def save_campaign(self, campaign: Campaign) -> None:
        """Replace the campaign's name and rosters (encounters are kept)."""
        titles = [roster.title for roster in campaign.rosters]
        doubles = sorted({title for title in titles if titles.count(title) > 1})
        if doubles:  # the second would silently replace the first
            raise StoreError(f"{self.path}: two rosters titled {', '.join(map(repr, doubles))}")
        with self.transaction(Message("store.what_rosters")) as connection:
            connection.execute("INSERT OR REPLACE INTO meta VALUES ('name', ?)", (campaign.name,))
            connection.execute("DELETE FROM rosters")
            for position, roster in enumerate(campaign.rosters):
                self._write_roster(connection, roster, position)

    def save_roster(self, roster: Roster) -> None:
        """Add a roster, or replace the one with the same title (keeping its place)."""
        what = Message("store.what_roster", title=store_check.shown(roster.title))
        with self.transaction(what) as connection:
            row = connection.execute(
                "SELECT position FROM rosters WHERE title = ?", (roster.title,)
            ).fetchone()
            if row is None:
                row = connection.execute("SELECT coalesce(max(position) + 1, 0) FROM rosters")
                row = row.fetchone()
            self._write_roster(connection, roster, int(row[0]))

    @staticmethod
    def _write_roster(connection: sqlite3.Connection, roster: Roster, position: int) -> None:
        document = json.dumps(roster.to_dict(), ensure_ascii=False)
        connection.execute(
            "INSERT OR REPLACE INTO rosters (title, position, document) VALUES (?, ?, ?)",
            (roster.title, position, document),
        )

    def rosters(self) -> list[Roster]:
        from gmkit.sheets.roster import Roster

        with self._reading() as connection:
            rows = connection.execute("SELECT title, document FROM rosters ORDER BY position")
            found = rows.fetchall()
        return store_check.roster_documents(self.path, found, Roster.from_dict)

    def campaign(self) -> Campaign:
        from gmkit.sheets.roster import Campaign

        return Campaign(self.name, tuple(self.rosters()))

    # --- encounters and their events -------------------------------------------------

    def create_encounter(self, name: str, game: str, *, replace: bool = False) -> int:
        """A new, empty encounter; with ``replace``, one already of that name (and its whole
        log) is deleted in the same transaction, so a prep notebook runs again and again."""
        with self.transaction(
            Message("store.what_new_encounter", name=store_check.shown(name))
        ) as connection:
            # an id above every id now in the file, taken before the old one is deleted: an
            # Encounter still open on the replaced one can never write into the new one
            (highest,) = connection.execute(
                "SELECT coalesce(max(id), 0) FROM encounters"
            ).fetchone()
            if replace:
                self._delete_encounter(connection, name)
            try:
                cursor = connection.execute(
                    "INSERT INTO encounters (id, name, game) VALUES (?, ?, ?)",
                    (int(highest) + 1, name, game),
                )
            except sqlite3.IntegrityError:
                raise StoreError(f"an encounter named {name!r} exists already") from None
            return int(cursor.lastrowid or 0)

    def delete_encounter(self, name: str) -> None:
        """Delete the encounter called ``name`` and its log (refused if there is none)."""
        self.encounter_id(name)
        with self.transaction(
            Message("store.what_deletion", name=store_check.shown(name))
        ) as connection:
            self._delete_encounter(connection, name)

    @staticmethod
    def _delete_encounter(connection: sqlite3.Connection, name: str) -> None:
        found = connection.execute("SELECT id FROM encounters WHERE name = ?", (name,)).fetchone()
        if found is not None:
            connection.execute("DELETE FROM events WHERE encounter = ?", (found[0],))
            connection.execute("DELETE FROM encounters WHERE id = ?", (found[0],))

    def encounters(self) -> list[EncounterInfo]:
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT e.id, e.name, e.game, count(v.seq) FROM encounters e "
                "LEFT JOIN events v ON v.encounter = e.id GROUP BY e.id ORDER BY e.id"
            ).fetchall()
        return [EncounterInfo(int(i), str(n), str(g), int(c)) for i, n, g, c in rows]

    def encounter_id(self, name: str) -> int:
        with self._reading() as connection:
            row = connection.execute("SELECT id FROM encounters WHERE name = ?", (name,))
            found = row.fetchone()
        if found is None:
            raise StoreError(f"no encounter named {name!r}")
        return int(found[0])

    def append_event(self, encounter: int, payload: dict[str, Any], *, seq: int) -> None:
        """Append ``payload`` as event ``seq`` (the next one the writer expects), durably."""
        text = json.dumps(payload, ensure_ascii=False, sort_keys=True)
        with self.transaction(Message("store.what_command")) as connection:
            last = self._last_seq(connection, encounter)
            if seq != last + 1:
                raise StoreError(
                    f"encounter {encounter}: expected event {last + 1}, not {seq} "
                    "(another writer has changed this encounter)"
                )
            try:
                connection.execute(
                    "INSERT INTO events (encounter, seq, payload) VALUES (?, ?, ?)",
                    (encounter, seq, text),
                )
            except sqlite3.IntegrityError:
                raise StoreError(f"{self.path}: no encounter {encounter}") from None

    def events(self, encounter: int, after: int = 0) -> list[StoredEvent]:
        """The events of ``encounter`` after event ``after``, in order. One that is not an event
        (the file changed since it was opened) is a StoreError naming it."""
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT seq, payload FROM events WHERE encounter = ? AND seq > ? ORDER BY seq",
                (encounter, after),
            ).fetchall()
        name = self._encounter_name
        events = store_check.stored_events(self.path, encounter, rows, name)
        return [StoredEvent(seq, payload) for seq, payload in events]

    def _encounter_name(self, encounter: int) -> str:
        with self._reading() as connection:
            row = connection.execute("SELECT name FROM encounters WHERE id = ?", (encounter,))
            found = row.fetchone()
        return str(found[0]) if found else str(encounter)

    def last_seq(self, encounter: int) -> int:
        with self._reading() as connection:
            return self._last_seq(connection, encounter)

    @staticmethod
    def _last_seq(connection: sqlite3.Connection, encounter: int) -> int:
        row = connection.execute(
            "SELECT coalesce(max(seq), 0) FROM events WHERE encounter = ?", (encounter,)
        ).fetchone()
        return int(row[0])

    # --- export ------------------------------------------------------------------------

    def backup(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """A consistent copy of the campaign at ``path``, safe while it is open and in use: SQLite's
        online backup, so events still in the write-ahead log are in the copy (a file copy of
        the .gmk alone can miss them). Written beside ``path`` and moved into place."""
        target = Path(path).expanduser()
        if target.resolve() == self.path.resolve():
            raise StoreError(f"{target}: is the campaign itself; back it up to another file")
        if target.exists() and not overwrite:
            raise StoreError(f"{target}: exists already (pass overwrite=True to replace it)")
        partial = target.with_name(f".{target.name}.partial")
        try:
            copy = sqlite3.connect(partial)
            try:
                self._connection.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")
            finally:
                copy.close()
            partial.replace(target)
        except (sqlite3.Error, OSError) as error:
            partial.unlink(missing_ok=True)
            raise StoreError(
                f"{target}: the backup failed ({error}); nothing was written"
            ) from None
        return target

    def export_encounter(self, encounter: int) -> dict[str, Any]:
        info = next((e for e in self.encounters() if e.id == encounter), None)
        if info is None:
            raise StoreError(f"no encounter {encounter}")
        events = [event.payload for event in self.events(encounter)]
        return {"name": info.name, "game": info.game, "events": events}

    def export_campaign(self) -> dict[str, Any]:
        document = self.campaign().to_dict()
        document["encounters"] = [self.export_encounter(e.id) for e in self.encounters()]
        return document
