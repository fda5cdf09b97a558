"""The campaign file (``gmkit.store.CampaignStore``): one SQLite database holding rosters,
sheets and encounter event logs.

- Embedded: nothing to install. WAL journal, ``synchronous=FULL``, one transaction per write,
  so a committed event survives a crash and a reader never sees half a write.
- One writer (the GM's dashboard) and any number of readers (player views) share a file;
  readers never block the writer. Events are appended with the sequence number the writer
  expects, so two writers can never interleave an encounter's log silently.
- The file says what it is (``PRAGMA application_id``) and which schema it has
  (``PRAGMA user_version``). A file from a newer gmkit, or one that is not a gmkit campaign or is
  damaged, is refused with a clear error and never written to. Older schemas are migrated in one
  transaction. Opening also checks the contents (:mod:`gmkit._store_check`): exactly gmkit's
  tables and indexes (no trigger, view or other object), every event a JSON object with a kind,
  each encounter's events numbered 1..N; a file that fails is refused, never served.
- A writer (the GM's table) is refused a file it cannot write, at open. A reader opens it
  ``mode=ro`` (it follows the GM writing), or ``immutable`` when nobody can write the file.
- Every SQLite failure is a :class:`StoreError` naming the file and what happened ("the disk is
  full: the last command was not saved; nothing before it is lost").

- The events of one GM action are appended in one transaction (``append_events``): all of
  them are in the file, or none.

The parts: this module opens the file (the checks above, migrations); the records it holds
(rosters, encounters, events, export) are read and written in :mod:`gmkit._store_records`,
through the one connection of :mod:`gmkit._store_base`; the checks themselves are in
:mod:`gmkit._store_check`. No other module touches SQLite.

``CampaignStore("postgresql://...")`` opens a campaign in PostgreSQL instead: the class that
does it (:mod:`gmkit._store_pg`, a CampaignStore of its own) registers in :data:`DATABASES`
when :mod:`gmkit.store` is imported, so this module never imports it.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path

from gmkit import _store_check as store_check
from gmkit._store_check import StoreError
from gmkit._store_records import CampaignRecords
from gmkit.messages import Message

DATABASES: dict[str, type[CampaignStore]] = {}
"""A database's scheme (``postgresql``) -> the CampaignStore that opens it (registered by
:mod:`gmkit._store_pg`)."""


def is_database_url(location: object) -> bool:
    """Whether ``location`` names a campaign in PostgreSQL (``postgresql://...``), not a file."""
    return isinstance(location, str) and location.split(":", 1)[0].lower() in (
        "postgresql",
        "postgres",
    )


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


class CampaignStore(CampaignRecords):
    """A campaign file. ``CampaignStore(path, create=True)`` makes a new one if needed.

    Given a ``postgresql://`` address instead of a path, it opens that campaign in PostgreSQL
    (:class:`gmkit._store_pg.PostgresCampaign`, a CampaignStore whose records are the same)."""

    def __new__(
        cls, path: str | Path, *, create: bool = False, readonly: bool = False
    ) -> CampaignStore:
        if cls is CampaignStore and is_database_url(path):
            scheme = str(path).split(":", 1)[0].lower()
            opener = DATABASES.get(scheme)
            if opener is None:  # gmkit.store registers it: imported from below it
                raise StoreError(f"{scheme}: open a campaign in a database through gmkit.store")
            return super().__new__(opener)
        return super().__new__(cls)

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
        # the events the open check decoded, served once to the first read of each encounter
        # while no one has written the file since (SQLite's data_version, our own writes)
        self._decoded: store_check.Decoded = {}
        self._decoded_version = -1
        self._lock = threading.RLock()
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
                connection = sqlite3.connect(
                    uri, uri=True, timeout=30, isolation_level=None, check_same_thread=False
                )
            else:  # any thread the kernel uses; StoreConnection's lock lets one in at a time
                connection = sqlite3.connect(
                    self.path, timeout=30, isolation_level=None, check_same_thread=False
                )
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
            self._decoded_version = self._pragma("data_version")  # before the check's read
            expected = expected_schema(version)
            store_check.check_contents(self._connection, self.path, expected, self._decoded)
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
            with self.transaction():
                connection = self._connection  # the SQLite connection the transaction is on
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
