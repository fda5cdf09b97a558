"""The campaign file's connection: one write transaction at a time, reads that name the file.

:class:`StoreConnection` is what the parts of :class:`gmkit.store.CampaignStore` share: the
SQLite connection, :meth:`~StoreConnection.transaction` (all of a write or none of it, every
SQLite failure a StoreError saying what was not saved) and :meth:`~StoreConnection._reading`.

Any thread may use it: a kernel hands widget messages to a subshell thread (JupyterLab 4.4+ with
ipykernel 7) while cells run on the main one. The one connection stays the one writer; its
lock lets one thread at a time in, for a whole transaction or read.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Protocol, Self

from gmkit import _store_check as store_check
from gmkit._store_check import StoreError, failed
from gmkit.messages import Message, Text


class Cursor(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """What the records run their SQL on: a SQLite connection, or the PostgreSQL campaign's
    adapter (:mod:`gmkit._store_pg`). The SQL is the one both read (``?`` parameters,
    ``ON CONFLICT`` upserts)."""

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor: ...
    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> object: ...


class StoreConnection:
    """A campaign open on one connection (opened by CampaignStore, or PostgresCampaign)."""

    path: Path
    readonly: bool
    immutable: bool
    _connection: sqlite3.Connection
    _decoded: store_check.Decoded  # what the open check decoded, served once (events())
    _decoded_version: int  # SQLite's data_version when it was decoded
    _lock: threading.RLock  # one thread at a time on the connection (see the module)

    @property
    def where(self) -> str:
        """The campaign as its errors name it: the file's path, or the database's address."""
        return str(self.path)

    @property
    def location(self) -> str:
        """What ``CampaignStore`` opens this campaign again from: the file's path, or the
        database's address (with its password, if it has one: never shown)."""
        return str(self.path)

    @property
    def default_name(self) -> str:
        """The campaign's name before one is saved."""
        return self.path.stem

    def _pragma(self, name: str) -> int:
        with self._lock:
            return int(self._connection.execute(f"PRAGMA {name}").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @contextmanager
    def transaction(self, what: Text | None = None) -> Iterator[Connection]:
        """One write transaction: all of it is committed, or none of it. A SQLite failure
        (the disk full, the file gone read-only) is a StoreError saying that ``what`` (default:
        "the change") was not saved."""
        if self.readonly:
            raise StoreError(f"{self.path}: opened read-only")
        what = what or Message("store.what_change")
        with self._lock:
            self._decoded.clear()  # a write: what the open check decoded may not be the file
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
    def _reading(self) -> Iterator[Connection]:
        """A read: a SQLite failure is a StoreError naming the file and what happened."""
        with self._lock:
            try:
                yield self._connection
            except sqlite3.Error as error:
                raise failed(self.path, error, None) from error
