"""Questions the GM's table asks a seat, and the phone's reply: the defender's reaction to a hit.

When an attack hits a combatant a connected seat plays and the rules leave it a reaction, the
GM's side writes a :class:`Question` into the seats file (:class:`QuestionBook`, the table
``questions``): what happened in words a player may read ("An enemy hits Jessa Kell: 2 hits"),
each reaction open with its odds and its die, and until when the GM waits. The phone writes
its :class:`Reply` (a reaction of the question's, or none: take it; and the die it rolled, or
none: gmkit rolls), read strictly (:func:`read_reply`: anything else is refused, naming the
field). The GM's side reads it and closes the question (answered, withdrawn, expired).

Presence: a seat's page says it is there every few seconds (:meth:`QuestionBook.touch`); a
seat not seen for :data:`PRESENT_SECONDS` is not asked (the GM's panel decides, as without
seats).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from gmkit.errors import GmkitError
from gmkit.messages import Message, Text, as_message, from_json
from gmkit.seats._seat_error import SeatError

if TYPE_CHECKING:
    from gmkit.seats._seats_file import SeatsFile

PRESENT_SECONDS = 15.0
"""A seat whose page was seen within this many seconds is connected (its page says so every
:data:`TOUCH_SECONDS`)."""

TOUCH_SECONDS = 5.0

ASK_SECONDS = 20.0
"""How long the GM's table waits for a defender's reaction, until the GM sets another
(:meth:`gmkit.seats.SeatsFile.set_ask_seconds`, ``prep.reaction_seconds``)."""

QuestionStatus = Literal["open", "answered", "withdrawn", "expired", "done"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS questions (
    id INTEGER PRIMARY KEY,
    seat TEXT NOT NULL REFERENCES seats(key),
    encounter TEXT NOT NULL,
    asked REAL NOT NULL,
    until REAL NOT NULL,
    question TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open',
    reply TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS presence (seat TEXT PRIMARY KEY, seen REAL NOT NULL);
"""


class ReplyError(GmkitError):
    """A phone's reply refused, naming the field and the problem."""


@dataclass(frozen=True, slots=True)
class ReactionChoice:
    """One reaction open to the defender: its id ("dodge"), its name, its odds of negating
    the hit (0 to 1) and its die's sides (0: it rolls none)."""

    reaction: str
    label: Text
    odds: float
    sides: int

    def to_json(self) -> dict[str, Any]:
        label = as_message(self.label).to_json()
        return {"reaction": self.reaction, "label": label, "odds": self.odds, "sides": self.sides}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReactionChoice:
        return cls(
            str(data["reaction"]),
            from_json(data["label"]),
            float(data["odds"]),
            int(data["sides"]),
        )


@dataclass(frozen=True, slots=True)
class Reply:
    """The defender's answer: a reaction of the question's ("" takes the hit) and the face its
    die showed at the table (None: gmkit rolls it)."""

    reaction: str
    die: int | None = None


@dataclass(frozen=True, slots=True)
class Question:
    """What the GM's side asked a seat (see the module docstring), and its reply once given."""

    id: int
    seat: str
    encounter: str
    target: str  # the seat's combatant hit (its id)
    text: Text
    choices: tuple[ReactionChoice, ...]
    until: float
    status: QuestionStatus = "open"
    reply: Reply | None = None

    def choice(self, reaction: str) -> ReactionChoice | None:
        return next((c for c in self.choices if c.reaction == reaction), None)


_REPLY_KEYS = frozenset({"reaction", "die"})


def read_reply(payload: Any, question: Question) -> Reply:
    """The phone's ``payload`` as a :class:`Reply` to ``question``; anything else refused."""
    if not isinstance(payload, dict):
        raise ReplyError(Message("seats.reply.not_an_object"))
    unknown = sorted(str(key) for key in payload if key not in _REPLY_KEYS)
    if unknown:
        raise ReplyError(Message("seats.reply.unknown_field", field=unknown[0][:40]))
    reaction = payload.get("reaction", "")
    if not isinstance(reaction, str):
        raise ReplyError(Message("seats.reply.reaction", got=repr(reaction)[:40]))
    die = payload.get("die")
    if not reaction:
        if die is not None:
            raise ReplyError(Message("seats.reply.die_without_reaction"))
        return Reply("")
    choice = question.choice(reaction)
    if choice is None:
        raise ReplyError(Message("seats.reply.reaction", got=repr(reaction)[:40]))
    if die is None:
        return Reply(reaction)
    if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= max(choice.sides, 1):
        raise ReplyError(Message("seats.reply.die", got=repr(die)[:20], sides=choice.sides))
    if choice.sides == 0:
        raise ReplyError(Message("seats.reply.no_die"))
    return Reply(reaction, die)


class QuestionBook:
    """The questions and the seats' presence, in a seats file (see the module docstring)."""

    def __init__(self, seats: SeatsFile) -> None:
        self._seats = seats

    # --- the phone's side ------------------------------------------------------------------------

    def touch(self, key: str) -> None:
        """The seat of ``key`` has its page open now."""
        with self._seats._writing() as connection:
            connection.execute(
                "INSERT OR REPLACE INTO presence (seat, seen) VALUES (?, ?)",
                (key, self._seats.now()),
            )

    def latest(self, key: str) -> Question | None:
        """The seat's last question (open or not), for its phone."""
        found = self._read("WHERE seat = ? ORDER BY id DESC LIMIT 1", (key,))
        return found[0] if found else None

    def reply(self, key: str, ident: int, payload: Any) -> Reply:
        """The phone of seat ``key`` answers question ``ident`` (checked: the seat's own, still
        open and in time; the reply read strictly; the seat's rate)."""
        if self._seats.seat(key) is None:
            raise SeatError(Message("seats.closed"))
        found = self._read("WHERE id = ? AND seat = ?", (ident, key))
        if not found or found[0].status != "open" or found[0].until < self._seats.now():
            raise SeatError(Message("seats.reply.too_late"))
        reply = read_reply(payload, found[0])
        self._seats.rate(key)
        text = json.dumps({"reaction": reply.reaction, "die": reply.die})
        with self._seats._writing() as connection:
            done = connection.execute(
                "UPDATE questions SET status = 'answered', reply = ? "
                "WHERE id = ? AND status = 'open'",
                (text, ident),
            ).rowcount
        if not done:
            raise SeatError(Message("seats.reply.too_late"))
        return reply

    # --- the GM's side ---------------------------------------------------------------------------

    def present(self, key: str, within: float = PRESENT_SECONDS) -> bool:
        """Whether the seat of ``key`` had its page open in the last ``within`` seconds."""
        with self._seats._lock:
            row = self._seats._connection.execute(
                "SELECT seen FROM presence WHERE seat = ?", (key,)
            ).fetchone()
        return bool(row) and self._seats.now() - float(row[0]) <= within

    def ask(
        self,
        seat: str,
        encounter: str,
        target: str,
        text: Text,
        choices: tuple[ReactionChoice, ...],
        seconds: float,
    ) -> Question:
        """Ask seat ``seat`` (its key) about ``target`` hit, for ``seconds``."""
        now = self._seats.now()
        body = json.dumps(
            {
                "target": target,
                "text": as_message(text).to_json(),
                "choices": [choice.to_json() for choice in choices],
            }
        )
        with self._seats._writing() as connection:
            cursor = connection.execute(
                "INSERT INTO questions (seat, encounter, asked, until, question) "
                "VALUES (?,?,?,?,?)",
                (seat, encounter, now, now + seconds, body),
            )
        return Question(
            int(cursor.lastrowid or 0), seat, encounter, target, text, choices, now + seconds
        )

    def get(self, ident: int) -> Question | None:
        found = self._read("WHERE id = ?", (ident,))
        return found[0] if found else None

    def close(self, ident: int, status: QuestionStatus) -> None:
        """Close question ``ident`` (withdrawn, expired, done: its answer taken)."""
        with self._seats._writing() as connection:
            connection.execute(
                "UPDATE questions SET status = ? WHERE id = ? AND status IN ('open', 'answered')",
                (status, ident),
            )

    def _read(self, where: str, args: tuple[Any, ...]) -> list[Question]:
        with self._seats._lock:
            rows = self._seats._connection.execute(
                "SELECT id, seat, encounter, until, question, status, reply FROM questions "
                + where,
                args,
            ).fetchall()
        found = []
        for ident, seat, encounter, until, body, status, reply in rows:
            data = json.loads(body)
            choices = tuple(ReactionChoice.from_json(c) for c in data["choices"])
            answer = None
            if reply:
                given = json.loads(reply)
                answer = Reply(str(given["reaction"]), given["die"])
            text = from_json(data["text"])
            found.append(
                Question(
                    ident, seat, encounter, data["target"], text, choices, until, status, answer
                )
            )
        return found


__all__ = [
    "ASK_SECONDS",
    "PRESENT_SECONDS",
    "TOUCH_SECONDS",
    "Question",
    "QuestionBook",
    "QuestionStatus",
    "ReactionChoice",
    "Reply",
    "ReplyError",
    "read_reply",
]
