"""The seats file: the players' seats and the requests their phones send, beside the campaign.

A campaign ``demo.gmk`` has its seats in ``demo.gmk.seats`` (a small SQLite file of its own).
The GM's side writes the seats (:meth:`SeatsFile.give`, :meth:`SeatsFile.revoke`) and the
answers; the players' server reads the seats and writes requests (:meth:`SeatsFile.send`).
Why a file of its own, not a table of the campaign file: the players' server keeps opening
the campaign read-only, so SQLite itself stops it writing an event; a phone's flood of
requests never holds the campaign file's lock, so nothing a phone does slows the GM's commits;
and the fight's truth (the event log) holds nothing a phone wrote.

A seat is a random key (:func:`secrets.token_urlsafe`, 128 bits), the player's name, the
encounter and the combatants (ids) that are theirs; a revoked seat's key opens nothing. A
request is the seat's key, the JSON a phone sent (refused when over :data:`MOST_BYTES`),
when it came and, once the GM's side has read it, its answer (accepted, refused with the
reason, stale). Each seat may send :data:`PER_MINUTE` requests a minute (a burst of
:data:`BURST`): more are refused with the time to wait, and written nowhere.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from gmkit._rate import TokenBucket
from gmkit.messages import Message
from gmkit.seats._questions import ASK_SECONDS, QuestionBook
from gmkit.seats._questions import SCHEMA as QUESTIONS_SCHEMA
from gmkit.seats._seat_error import SeatError

PER_MINUTE = 30
"""Requests a seat may send a minute (an attack, its Aim, a reaction: a turn is a few)."""

BURST = 6
"""Requests a seat may send at once before the minute's rate holds it back."""

MOST_BYTES = 4096
"""The largest request a phone may send, as JSON (an attack with its dice is some 300)."""

SUFFIX = ".seats"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS seats (
    key TEXT PRIMARY KEY,
    encounter TEXT NOT NULL,
    player TEXT NOT NULL,
    combatants TEXT NOT NULL,
    given REAL NOT NULL,
    revoked REAL
);
CREATE TABLE IF NOT EXISTS requests (
    id INTEGER PRIMARY KEY,
    seat TEXT NOT NULL REFERENCES seats(key),
    encounter TEXT NOT NULL,
    payload TEXT NOT NULL,
    sent REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    answer TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS pending ON requests (encounter, status);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

Status = Literal["pending", "accepting", "accepted", "refused", "stale", "taken"]
STATUSES: tuple[Status, ...] = ("pending", "accepting", "accepted", "refused", "stale", "taken")
"""A request's state: ``accepting`` while the one who claimed it carries it out
(:meth:`SeatsFile.claim`); ``taken``: the GM took it into their own panel (Edit)."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's seat at one encounter: whose combatants they play, and their link's key."""

    key: str
    encounter: str
    player: str
    combatants: tuple[str, ...]
    revoked: bool = False

    def plays(self, ident: str) -> bool:
        return ident in self.combatants


@dataclass(frozen=True, slots=True)
class Request:
    """A request as a phone sent it, and the GM side's answer once given."""

    id: int
    seat: str
    encounter: str
    payload: dict[str, Any]
    sent: float
    status: Status = "pending"
    answer: str = ""  # the reason of a refusal (in the GM's words), empty otherwise


def seats_path(campaign: str | Path) -> Path:
    """The seats file beside the campaign file ``campaign``."""
    found = Path(campaign)
    return found.with_name(found.name + SUFFIX)


class SeatsFile:
    """The seats file of a campaign (see the module docstring); any thread may use it."""

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.RLock()
        self._connection = sqlite3.connect(
            self.path, timeout=5, isolation_level=None, check_same_thread=False
        )
        with self._writing() as connection:
            for statement in (_SCHEMA + QUESTIONS_SCHEMA).split(";"):
                if statement.strip():
                    connection.execute(statement)
        self._connection.execute("PRAGMA journal_mode = WAL")
        self._buckets: dict[str, TokenBucket] = {}  # each seat's rate (this process's)

    @property
    def questions(self) -> QuestionBook:
        """The questions asked of the seats (a defender's reaction) and their presence."""
        return QuestionBook(self)

    def now(self) -> float:
        return self._clock()

    @classmethod
    def of_campaign(
        cls, campaign: str | Path, *, clock: Callable[[], float] = time.time
    ) -> SeatsFile:
        """The seats file beside the campaign file ``campaign`` (made when missing)."""
        return cls(seats_path(campaign), clock=clock)

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    def __enter__(self) -> SeatsFile:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._connection.execute("BEGIN IMMEDIATE")
            try:
                yield self._connection
                self._connection.execute("COMMIT")
            except BaseException:
                self._connection.execute("ROLLBACK")
                raise

    # --- seats (the GM's side) ---------------------------------------------------------------

    def give(self, encounter: str, player: str, combatants: tuple[str, ...] | list[str]) -> Seat:
        """A new seat for ``player`` at ``encounter``, playing ``combatants`` (ids)."""
        name = player.strip()
        if not name:
            raise SeatError(Message("seats.player_blank"))
        if not combatants:
            raise SeatError(Message("seats.no_combatant", player=name))
        seat = Seat(secrets.token_urlsafe(16), encounter, name, tuple(combatants))
        with self._writing() as connection:
            connection.execute(
                "INSERT INTO seats (key, encounter, player, combatants, given) VALUES (?,?,?,?,?)",
                (seat.key, encounter, name, json.dumps(list(seat.combatants)), self._clock()),
            )
        return seat

    def revoke(self, key: str) -> None:
        """Close the seat of ``key``: its link opens nothing from now on."""
        with self._writing() as connection:
            connection.execute(
                "UPDATE seats SET revoked = ? WHERE key = ? AND revoked IS NULL",
                (self._clock(), key),
            )

    def seats(self, encounter: str) -> list[Seat]:
        """The seats of ``encounter`` still open, in the order they were given."""
        with self._lock:
            rows = self._connection.execute(
                "SELECT key, encounter, player, combatants FROM seats "
                "WHERE encounter = ? AND revoked IS NULL ORDER BY given",
                (encounter,),
            ).fetchall()
        return [Seat(k, e, p, tuple(json.loads(c))) for k, e, p, c in rows]

    def seat(self, key: str) -> Seat | None:
        """The open seat of ``key``, or None (no such seat, or revoked)."""
        if not isinstance(key, str) or not key:
            return None
        with self._lock:
            row = self._connection.execute(
                "SELECT key, encounter, player, combatants FROM seats "
                "WHERE key = ? AND revoked IS NULL",
                (key,),
            ).fetchone()
        return Seat(row[0], row[1], row[2], tuple(json.loads(row[3]))) if row else None

    @property
    def players_url(self) -> str:
        """Where the players' page is served ("" until ``gmkit players`` said it): a seat's
        link is it with the seat's key (:func:`gmkit.seats._links.seat_link`)."""
        with self._lock:
            row = self._connection.execute(
                "SELECT value FROM meta WHERE key = 'players_url'"
            ).fetchone()
        return str(row[0]) if row else ""

    @property
    def ask_seconds(self) -> float:
        """How long the GM's table waits for a defender's reaction before deciding itself
        (:data:`~gmkit.seats._questions.ASK_SECONDS` until the GM sets it)."""
        with self._lock:
            row = self._connection.execute(
                "SELECT value FROM meta WHERE key = 'ask_seconds'"
            ).fetchone()
        return float(row[0]) if row else ASK_SECONDS

    def set_ask_seconds(self, seconds: float) -> None:
        """Wait ``seconds`` (5 to 120) for a defender's reaction."""
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise SeatError(Message("seats.ask_seconds", got=repr(seconds)[:20]))
        if not 5 <= seconds <= 120:
            raise SeatError(Message("seats.ask_seconds", got=repr(seconds)[:20]))
        with self._writing() as connection:
            connection.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('ask_seconds', ?)",
                (str(float(seconds)),),
            )

    def set_players_url(self, url: str) -> None:
        with self._writing() as connection:
            connection.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('players_url', ?)", (url,)
            )

    # --- requests ------------------------------------------------------------------------------

    def send(self, key: str, payload: dict[str, Any]) -> int:
        """Write a phone's request for the seat of ``key`` (the players' side); its id.
        Refused (SeatError, nothing written) for a closed seat, a payload over
        :data:`MOST_BYTES` or that is not JSON, and past the seat's rate."""
        seat = self.seat(key)
        if seat is None:
            raise SeatError(Message("seats.closed"))
        try:
            text = json.dumps(payload, allow_nan=False)
        except (TypeError, ValueError):
            raise SeatError(Message("seats.not_json")) from None
        if len(text.encode()) > MOST_BYTES:
            raise SeatError(Message("seats.too_large", most=MOST_BYTES))
        now = self._clock()
        self.rate(key)
        with self._writing() as connection:
            cursor = connection.execute(
                "INSERT INTO requests (seat, encounter, payload, sent) VALUES (?,?,?,?)",
                (key, seat.encounter, text, now),
            )
        return int(cursor.lastrowid or 0)

    def rate(self, key: str) -> None:
        """Take one of the seat's requests a minute (a request, a reply); refused (SeatError,
        with the time to wait) past its rate."""
        wait = self._rate(key)
        if wait > 0:
            raise SeatError(Message("seats.too_many", seconds=round(wait, 1)))

    def _rate(self, key: str) -> float:
        """Seconds the seat must wait before another request (0: it may send now)."""
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None:
                bucket = self._buckets[key] = TokenBucket(PER_MINUTE / 60, BURST, self._clock)
            return 0.0 if bucket.take() else bucket.wait()

    def pending(self, encounter: str) -> list[Request]:
        """The requests of ``encounter`` the GM's side has not answered, oldest first."""
        return self._requests("WHERE encounter = ? AND status = 'pending'", (encounter,))

    def request(self, ident: int) -> Request | None:
        found = self._requests("WHERE id = ?", (ident,))
        return found[0] if found else None

    def answers(self, key: str, after: int = 0) -> list[Request]:
        """The requests of the seat of ``key`` after id ``after``, answered or not (its phone)."""
        return self._requests("WHERE seat = ? AND id > ?", (key, after))

    def claim(self, ident: int) -> bool:
        """Take request ``ident`` to carry it out (an Accept): True for the one that took it.
        Any other reader of the file (another table's kernel, a page's preheated one) then
        leaves it alone: the claimer answers it (:meth:`answer`) once the command is done."""
        with self._writing() as connection:
            return bool(
                connection.execute(
                    "UPDATE requests SET status = 'accepting' WHERE id = ? AND status = 'pending'",
                    (ident,),
                ).rowcount
            )

    def answer(self, ident: int, status: Status, reason: str = "") -> None:
        """Mark request ``ident`` answered (once: a second answer is refused; a claimed one is
        answered by its claimer)."""
        if status not in STATUSES or status in ("pending", "accepting"):
            raise ValueError(f"status: {status!r} is not an answer")
        with self._writing() as connection:
            done = connection.execute(
                "UPDATE requests SET status = ?, answer = ? WHERE id = ? "
                "AND status IN ('pending', 'accepting')",
                (status, reason, ident),
            ).rowcount
        if not done:
            raise SeatError(Message("seats.answered_already", id=ident))

    def _requests(self, where: str, args: tuple[Any, ...]) -> list[Request]:
        with self._lock:
            rows = self._connection.execute(
                "SELECT id, seat, encounter, payload, sent, status, answer FROM requests "
                f"{where} ORDER BY id",
                args,
            ).fetchall()
        found = []
        for ident, seat, encounter, payload, sent, status, answer in rows:
            try:
                data = json.loads(payload)
            except ValueError:
                data = {}
            found.append(Request(ident, seat, encounter, data, sent, status, answer))
        return found


__all__ = [
    "BURST",
    "MOST_BYTES",
    "PER_MINUTE",
    "STATUSES",
    "Request",
    "Seat",
    "SeatError",
    "SeatsFile",
    "Status",
    "seats_path",
]
