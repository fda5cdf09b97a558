"""A campaign in PostgreSQL: the same records, commands, undo and checks as the campaign file,
for tables that share one database server (a club night, several machines).

``postgresql://user@host:port/database#campaign`` names it: the database, and the schema in it
that holds one campaign's four tables (``#campaign`` left out: the schema ``gmkit``). The SQL
is :class:`~gmkit._store_records.CampaignRecords`' own; this module opens the connection, makes
or checks the schema, and keeps SQLite's guarantees:

- **one writer at a time**: each write transaction first takes a lock of its campaign
  (``pg_advisory_xact_lock``), as SQLite's ``BEGIN IMMEDIATE`` does; the events of a GM action
  are one transaction; a committed event is durable (``synchronous_commit`` left on);
- **a doorbell**: each commit that changes an encounter sends a ``NOTIFY`` (delivered at the
  commit only, never for a rollback). One listening connection per process and server
  (:mod:`gmkit._store_bell`) hears them; a reader asks the database only when its bell has
  rung (or was not listening) since it last read, and then takes the events after the last
  seq it applied;
- **a lost connection** (the server restarted): the next read or write connects again. A
  write whose commit was cut off is looked up: found whole, it is kept; not found, it is
  written once more; so no event is lost or written twice;
- **checks on open**: the schema holds exactly gmkit's tables, a schema version this gmkit
  reads, every event a JSON object with a kind, each encounter's events numbered 1..N. A
  campaign that fails is refused, never written to. A reader's session is read-only.

psycopg (3) is needed only here, imported when a campaign is opened: the embedded default
(a SQLite file) needs nothing beyond Python.

Why over 400 lines: the opening, the session made again, the transaction and each read it may
retry are one connection's life; split, a reconnect and the reads that rely on it would live
apart.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from gmkit import _store_check as store_check
from gmkit._store_bell import Bell, doorbell
from gmkit._store_check import StoreError
from gmkit._store_file import DATABASES, CampaignStore
from gmkit._store_records import StoredEvent
from gmkit._user_state import own_folder
from gmkit.messages import Message, Text

if TYPE_CHECKING:
    import psycopg

    from gmkit._store_records import EncounterInfo
    from gmkit.sheets._roster import Roster

T = TypeVar("T")

SCHEMA_VERSION = 1
_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
_TABLES = frozenset({"meta", "rosters", "encounters", "events"})
_CONNECT_TIMEOUT = 10  # seconds: a server that does not answer is said, not waited on forever

_SCHEMA_V1 = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE rosters (title TEXT PRIMARY KEY, position INTEGER NOT NULL, "
    "document TEXT NOT NULL)",
    "CREATE TABLE encounters (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, "
    "game TEXT NOT NULL, created TIMESTAMPTZ NOT NULL DEFAULT now())",
    "CREATE TABLE events (encounter INTEGER NOT NULL REFERENCES encounters(id) "
    "ON DELETE CASCADE, seq INTEGER NOT NULL, payload TEXT NOT NULL, "
    "written TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(), PRIMARY KEY (encounter, seq))",
)


def split_url(url: str) -> tuple[str, str, str]:
    """``(what libpq connects to, the campaign's schema, the address as errors show it)``;
    a password is never shown."""
    parts = urlsplit(url)
    schema = parts.fragment or "gmkit"
    if not _SCHEMA_NAME.fullmatch(schema) or schema.startswith("pg_"):  # pg_: PostgreSQL's
        raise StoreError(Message("store.pg_bad_campaign_name", name=store_check.shown(schema)))
    host = parts.hostname or ""
    netloc = f"{parts.username}@{host}" if parts.username else host
    if parts.port:
        netloc += f":{parts.port}"
    shown = urlunsplit((parts.scheme, netloc, parts.path, "", schema))
    return urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, "")), schema, shown


class _Adapter:
    """The records' SQL (``?`` parameters) on a psycopg connection (``%s``)."""

    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        self._connection = connection

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Any:
        return self._connection.execute(sql.replace("?", "%s"), parameters)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> None:
        with self._connection.cursor() as cursor:
            cursor.executemany(sql.replace("?", "%s"), list(parameters))


def _problem(error: Exception) -> Message:
    """What a psycopg error means, in the GM's words."""
    import psycopg

    said = str(error).strip().splitlines()[0][:200] if str(error).strip() else type(error).__name__
    if isinstance(error, psycopg.OperationalError):
        return Message("store.pg_lost", error=said)
    code = getattr(getattr(error, "diag", None), "sqlstate", None) or type(error).__name__
    return Message("store.pg_refused", code=str(code), error=said)


class PostgresCampaign(CampaignStore):
    """A campaign in a PostgreSQL schema. ``CampaignStore(url, create=True)`` makes it if
    the schema holds nothing yet; ``readonly`` opens a reader's session. Only the opening,
    the connection and the transactions are its own: every record is read and written by the
    SQL the campaign file runs too."""

    def __init__(self, url: str | Path, *, create: bool = False, readonly: bool = False) -> None:
        url = str(url)
        try:
            import psycopg  # noqa: F401  (said clearly here, not at the first query)
        except ImportError:
            raise StoreError(Message("store.pg_needs_driver", path=url.split("#")[0])) from None
        self.url = url
        self._conninfo, self.schema, self._shown = split_url(url)
        self.readonly = readonly
        self.immutable = False
        self._decoded: store_check.Decoded = {}  # the file's open-check cache: unused here
        self._decoded_version = -1
        self._lock = threading.RLock()
        self._bell: Bell | None = None
        self._heard: dict[int, tuple[int, int]] = {}  # encounter -> (bell's count, seq read)
        self._present: dict[int, tuple[int, bool]] = {}  # encounter -> (bell's count, found)
        self.path = self._beside()
        self._closed = False
        self._pg = self._session()
        try:
            self._check_and_make(create)
        except BaseException:
            self._pg.close()
            raise
        self._bell = doorbell(self._conninfo, self.channel)

    # --- what it is called ------------------------------------------------------------

    @property
    def where(self) -> str:
        return self._shown

    @property
    def location(self) -> str:
        return self.url

    @property
    def default_name(self) -> str:
        return self.schema

    @property
    def channel(self) -> str:
        """The NOTIFY channel of this campaign."""
        return f"gmkit_{self.schema}"

    def _beside(self) -> Path:
        """Where this machine keeps what a campaign file keeps beside it (its seats), named by
        the campaign's address: a folder of the user's own state folder. The table and the
        players' server of one machine share it; seats in the database are not built yet."""
        import hashlib

        digest = hashlib.sha256(self._shown.encode()).hexdigest()[:16]
        folder = own_folder() / "postgresql" / digest
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        return folder / f"{self.schema}.gmk"

    # --- the connection ----------------------------------------------------------------

    def _session(self) -> psycopg.Connection[Any]:
        import psycopg

        try:
            return self._open_session()
        except psycopg.Error as error:
            raise StoreError(
                Message("store.pg_cannot_connect", path=self._shown, problem=_problem(error))
            ) from None

    def _open_session(self) -> psycopg.Connection[Any]:
        """A new session (a psycopg error if the server does not answer)."""
        import psycopg

        options = f"-c search_path={self.schema}"
        if self.readonly:
            options += " -c default_transaction_read_only=on"
        return psycopg.connect(
            self._conninfo,
            autocommit=True,
            options=options,
            connect_timeout=_CONNECT_TIMEOUT,
            application_name="gmkit",
        )

    def _connected(self) -> psycopg.Connection[Any]:
        """The connection, made again if the server cut it (a restart); never once closed."""
        if self._closed:
            raise StoreError(Message("store.pg_closed", path=self._shown))
        if self._pg.closed or self._pg.broken:
            with suppress(Exception):
                self._pg.close()
            self._pg = self._open_session()  # a psycopg error: the caller says what was lost
        return self._pg

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._pg.close()

    def _pragma(self, name: str) -> int:
        raise StoreError(f"{self._shown}: a PostgreSQL campaign has no SQLite pragma {name}")

    # --- opening -----------------------------------------------------------------------

    def _check_and_make(self, create: bool) -> None:
        """Refuse what is not a gmkit campaign of a schema this gmkit reads, or damaged;
        make an empty schema's tables (``create``). Nothing is written before it passes."""
        connection = _Adapter(self._pg)
        rows = connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = ?",
            (self.schema,),
        ).fetchall()
        tables = {str(row[0]) for row in rows}
        if not tables:
            if self.readonly or not create:
                raise StoreError(Message("store.pg_no_campaign", path=self._shown))
            self._make()
            return
        if tables != _TABLES:
            others = ", ".join(sorted(tables - _TABLES)[:5]) or ", ".join(sorted(_TABLES - tables))
            raise StoreError(Message("store.pg_not_campaign", path=self._shown, tables=others))
        found = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        version = int(found[0]) if found and str(found[0]).isdigit() else 0
        if version > SCHEMA_VERSION:
            raise StoreError(
                Message(
                    "store.pg_newer", path=self._shown, version=version, supported=SCHEMA_VERSION
                )
            )
        if version < 1:
            raise StoreError(Message("store.pg_not_campaign", path=self._shown, tables="meta"))
        try:
            self._pg.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try:
                damage = store_check.content_damage(connection, None, text=True)
            finally:
                self._pg.execute("ROLLBACK")
        except Exception as error:
            import psycopg

            if not isinstance(error, psycopg.Error):
                raise
            raise StoreError(
                Message("store.cannot_open", path=self._shown, problem=_problem(error))
            ) from None
        if damage is not None:
            raise StoreError(Message("store.damaged", path=self._shown, problem=damage))

    def _make(self) -> None:
        with self.transaction(Message("store.what_new_campaign")) as connection:
            connection.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
            for statement in _SCHEMA_V1:
                connection.execute(statement)
            connection.execute(
                "INSERT INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
            )

    # --- transactions and reads -------------------------------------------------------

    @contextmanager
    def transaction(self, what: Text | None = None) -> Iterator[_Adapter]:
        """One write transaction under the campaign's lock: all of it or none of it."""
        import psycopg

        if self.readonly:
            raise StoreError(f"{self._shown}: opened read-only")
        what = what or Message("store.what_change")
        with self._lock:
            try:
                pg = self._begun()
            except psycopg.Error as error:
                self._rollback()
                raise self._failed(error, what) from error
            try:
                yield _Adapter(pg)
                pg.execute("COMMIT")
            except psycopg.Error as error:
                self._rollback()
                raise self._failed(error, what) from error
            except BaseException:
                self._rollback()
                raise

    def _begun(self) -> psycopg.Connection[Any]:
        """A transaction begun under the campaign's lock; a connection found cut at its first
        statement (the server restarted since the last one) is made again, once."""
        import psycopg

        for attempt in (1, 2):
            pg = self._connected()
            try:
                pg.execute("BEGIN")
                pg.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.channel,))
                return pg
            except psycopg.OperationalError:
                if attempt == 2 or not pg.broken:
                    raise
        raise AssertionError("unreachable")

    def _failed(self, error: Exception, what: Text | None) -> StoreError:
        problem = _problem(error)
        if what is None:
            return StoreError(Message("store.pg_read_failed", path=self._shown, problem=problem))
        return StoreError(
            Message("store.write_failed", path=self._shown, problem=problem, what=what)
        )

    def _rollback(self) -> None:
        with suppress(Exception):  # a lost connection rolled it back already
            if not self._pg.broken and not self._pg.closed:
                self._pg.execute("ROLLBACK")

    @contextmanager
    def _reading(self) -> Iterator[_Adapter]:
        import psycopg

        with self._lock:
            try:
                yield _Adapter(self._connected())
            except psycopg.Error as error:
                raise self._failed(error, None) from error
            except StoreError:
                raise

    def _read_again(self, read: Callable[[], T]) -> T:
        """``read()``; once more if it found the connection cut (a read changes nothing)."""
        try:
            return read()
        except StoreError as error:
            if not self._lost(error):
                raise
        return read()

    @property
    def name(self) -> str:
        return self._read_again(lambda: str(super(PostgresCampaign, self).name))

    def rosters(self) -> list[Roster]:
        return self._read_again(super().rosters)

    def encounters(self) -> list[EncounterInfo]:
        return self._read_again(super().encounters)

    def encounter_id(self, name: str) -> int:
        return self._read_again(lambda: super(PostgresCampaign, self).encounter_id(name))

    def last_seq(self, encounter: int) -> int:
        return self._read_again(lambda: super(PostgresCampaign, self).last_seq(encounter))

    def _ring(self, connection: Any, encounter: int, seq: int) -> None:
        connection.execute("SELECT pg_notify(?, ?)", (self.channel, f"{encounter}:{seq}"))

    # --- what the bell spares --------------------------------------------------------

    def events(self, encounter: int, after: int = 0) -> list[StoredEvent]:
        """The events after ``after``; none asked of the database while the bell has not rung
        since the read that reached ``after``."""
        bell = self._bell
        heard = bell.count() if bell is not None else None
        if heard is not None and self._heard.get(encounter) == (heard, after):
            return []
        found = self._read_again(lambda: super(PostgresCampaign, self).events(encounter, after))
        if heard is not None:
            self._heard[encounter] = (heard, after + len(found))
        return found

    def has_encounter(self, encounter: int) -> bool:
        bell = self._bell
        heard = bell.count() if bell is not None else None
        kept = self._present.get(encounter)
        if heard is not None and kept is not None and kept[0] == heard:
            return kept[1]
        found = self._read_again(lambda: super(PostgresCampaign, self).has_encounter(encounter))
        if heard is not None:
            self._present[encounter] = (heard, found)
        return found

    # --- a write cut off at its commit --------------------------------------------------

    def append_events(
        self, encounter: int, payloads: Sequence[dict[str, Any]], *, seq: int
    ) -> None:
        """As the file's; a connection lost at the commit is looked up once connected again:
        the events found whole are kept, none found are written once more."""
        try:
            super().append_events(encounter, payloads, seq=seq)
        except StoreError as error:
            if not self._lost(error):
                raise
            try:
                stored = [event.payload for event in super().events(encounter, seq - 1)]
            except StoreError:
                raise error from None  # still not connected: the write's own failure is said
            wanted = [store_check.json_object(_as_text(payload)) for payload in payloads]
            if stored[: len(wanted)] == wanted and len(stored) >= len(wanted):
                return  # it was committed before the connection went
            if stored:
                raise
            super().append_events(encounter, payloads, seq=seq)

    @staticmethod
    def _lost(error: StoreError) -> bool:
        import psycopg

        return isinstance(error.__cause__, psycopg.OperationalError)

    # --- export -------------------------------------------------------------------------

    def backup(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """A campaign file holding this campaign (as ``gmkit copy`` makes it)."""
        from gmkit._store_copy import copy_campaign

        return Path(copy_campaign(self, str(path), overwrite=overwrite))


def _as_text(payload: dict[str, Any]) -> str:
    import json

    return json.dumps(payload, ensure_ascii=False, sort_keys=True)


DATABASES["postgresql"] = DATABASES["postgres"] = PostgresCampaign
