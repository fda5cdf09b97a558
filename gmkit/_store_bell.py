"""The doorbell of PostgreSQL campaigns: one listening connection per process and server.

Each commit that changes an encounter sends ``NOTIFY gmkit_<campaign>`` (PostgreSQL delivers it
at the commit, never for a rollback). A :class:`Doorbell` is one thread on one connection that
does nothing but ``LISTEN`` (psycopg's ``notifies()`` would lose a notification that arrived
while its connection ran another query, so this one runs none) and counts what it hears per
channel. A reader compares the count with the one at its last read: unchanged, nothing was
committed since, and it asks the database nothing.

The count is None while the bell is not listening (not yet, or its connection was cut): the
reader then asks every time. A connection made again counts as a ring on every channel, after
its ``LISTEN``: what was committed while it was away is read then.
"""

from __future__ import annotations

import threading
from typing import Any

_WAKE = 0.5  # seconds: how often the listening thread looks for a channel added
_LISTENED_WITHIN = 5.0  # seconds a new campaign waits for its LISTEN before reading anyway
_RETRY = (0.2, 0.5, 1.0, 2.0)  # seconds between attempts to connect again


class Doorbell:
    """One thread, one connection to one server, the channels of this process's campaigns."""

    def __init__(self, conninfo: str) -> None:
        self._conninfo = conninfo
        self._lock = threading.Condition()
        self._wanted: set[str] = set()
        self._rings: dict[str, int] = {}  # a channel -> rings heard (never counted down)
        self._listening: set[str] = set()  # the channels its connection listens to now
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gmkit-doorbell", daemon=True)
        self._thread.start()

    def listen(self, channel: str) -> Bell:
        """The bell of ``channel``, listened to (waited for a moment; read anyway after)."""
        with self._lock:
            self._wanted.add(channel)
            self._lock.wait_for(
                lambda: channel in self._listening or self._stopped.is_set(), _LISTENED_WITHIN
            )
        return Bell(self, channel)

    def count(self, channel: str) -> int | None:
        with self._lock:
            return self._rings[channel] if channel in self._listening else None

    def stop(self) -> None:
        self._stopped.set()

    def _run(self) -> None:
        attempt = 0
        while not self._stopped.is_set():
            try:
                self._listen_until_cut()
                attempt = 0
            except Exception:  # the server gone, restarting: heard nothing meanwhile
                with self._lock:
                    self._listening.clear()
                    self._lock.notify_all()
                self._stopped.wait(_RETRY[min(attempt, len(_RETRY) - 1)])
                attempt += 1

    def _listen_until_cut(self) -> None:
        import psycopg

        with psycopg.connect(
            self._conninfo, autocommit=True, connect_timeout=10, application_name="gmkit-bell"
        ) as connection:
            listened: set[str] = set()
            while not self._stopped.is_set():
                with self._lock:
                    new = self._wanted - listened
                for channel in sorted(new):
                    connection.execute(f'LISTEN "{channel}"')
                    listened.add(channel)
                if new:
                    with self._lock:  # listening now: what came before is read once
                        for channel in new:
                            self._rings[channel] = self._rings.get(channel, 0) + 1
                        self._listening |= new
                        self._lock.notify_all()
                for note in connection.notifies(timeout=_WAKE):
                    self._heard(note)

    def _heard(self, note: Any) -> None:
        with self._lock:
            if note.channel in self._listening:
                self._rings[note.channel] += 1


class Bell:
    """One campaign's channel on its process's doorbell."""

    def __init__(self, doorbell: Doorbell, channel: str) -> None:
        self._doorbell = doorbell
        self.channel = channel

    def count(self) -> int | None:
        """Rings heard so far; None while not listening (read every time then)."""
        return self._doorbell.count(self.channel)


_DOORBELLS: dict[str, Doorbell] = {}
_MADE = threading.Lock()


def doorbell(conninfo: str, channel: str) -> Bell:
    """The process's bell of ``channel`` on the server ``conninfo`` (one connection a server)."""
    with _MADE:
        bell = _DOORBELLS.get(conninfo)
        if bell is None:
            bell = _DOORBELLS[conninfo] = Doorbell(conninfo)
    return bell.listen(channel)
