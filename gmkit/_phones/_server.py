"""The players' server without a kernel per phone: one tornado process per table.

One :class:`~gmkit._phones._room.Room` follows the fight (every 0.3 s, as the Voila page
polled; a campaign in PostgreSQL is asked nothing until its bell rings). When it changed, the
picture of each language some phone reads is made once, encoded once, and pushed to every
phone reading it over that phone's WebSocket. A phone costs its connection and a few bytes of
state (its language, the version it was last sent), not a kernel.

The door is the Voila servers' (:mod:`gmkit._serving.guard`: a random path, the Host and Origin
checks, the 403 page in the reader's language). What a phone may send is one small JSON
object of a known kind (:class:`PhoneMessage`: today its language), at most 16 a second and
4 KB each; anything else closes its connection, with a line in the log.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import tornado.web
import tornado.websocket
from tornado.ioloop import PeriodicCallback

from gmkit._phones._page import page
from gmkit._phones._room import LANGUAGES, Room
from gmkit._phones._seat import Desk, SeatMessage
from gmkit._serving.guard import Access, Guard, guarded, page_language
from gmkit.messages import Message
from gmkit.seats import SeatsFile, seats_path
from gmkit.widgets._i18n import words

POLL_SECONDS = 0.3
MESSAGE_BYTES = 4096
MESSAGES_PER_SECOND = 16


@dataclass(frozen=True)
class PhoneMessage:
    """What any phone may send: ``{"kind": "language", "language": "es"}``; a seat's phone
    the kinds of :class:`~gmkit._phones._seat.SeatMessage` too."""

    kind: str
    language: str

    @classmethod
    def read(cls, text: str | bytes, *, seated: bool) -> PhoneMessage | SeatMessage:
        """The message, or ValueError saying what is wrong with it."""
        try:
            found = json.loads(text)
        except ValueError:
            raise ValueError("not JSON") from None
        if not isinstance(found, dict):
            raise ValueError("a phone's message is an object")
        if found.get("kind") != "language" and seated:
            return SeatMessage.read(found)
        if set(found) != {"kind", "language"} or found["kind"] != "language":
            raise ValueError("a phone's message is {kind, language}")
        if found["language"] not in LANGUAGES:
            raise ValueError("unknown language")
        return cls("language", str(found["language"]))


class Phones:
    """The phones of one room: who is connected, and what each was sent last."""

    def __init__(self, room: Room, log: Callable[[str], None] = print) -> None:
        self.room = room
        self.sockets: set[PhoneSocket] = set()
        self.log = log
        # (language, a seat's combatants) -> (version, message)
        self._encoded: dict[tuple[str, tuple[str, ...]], tuple[int, str]] = {}
        self._seats: SeatsFile | None = None
        self.desks: dict[str, Desk] = {}  # a seat's key -> its desk, while a phone is on it

    def desk(self, key: str) -> Desk | None:
        """The desk of the seat ``key`` of this fight, or None (no such seat, revoked, another
        fight's, or no seats file beside the campaign)."""
        if key in self.desks:
            return self.desks[key]
        if self._seats is None:
            path = seats_path(self.room.store.path)
            if not path.exists():
                return None
            self._seats = SeatsFile(path)
        seat = self._seats.seat(key)
        if seat is None or seat.encounter != self.room.name:
            return None
        desk = self.desks[key] = Desk(self.room, seat, self._seats)
        return desk

    def message(self, language: str, own: tuple[str, ...] = ()) -> tuple[int, str]:
        """The picture in ``language`` as sent: encoded once per change."""
        picture = self.room.picture(language, own)
        kept = self._encoded.get((language, own))
        if kept is None or kept[0] != picture["version"]:
            text = json.dumps({"kind": "picture", "language": language, "picture": picture})
            kept = self._encoded[(language, own)] = (picture["version"], text)
        return kept

    def tick(self) -> None:
        """Read the fight; push what changed to every phone."""
        try:
            changed = self.room.follow()
        except Exception as error:  # the campaign unreachable a moment: said, tried again
            self.log(f"gmkit players: following the fight failed ({type(error).__name__})")
            return
        for socket in list(self.sockets):
            if changed or socket.desk is not None:  # a seat's answers come without an event
                socket.show()


class PageHandler(tornado.web.RequestHandler):
    phones: ClassVar[Phones]

    def get(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(page(self.phones.room.name, page_language(self.request)))


class PhoneSocket(tornado.websocket.WebSocketHandler):
    phones: ClassVar[Phones]

    def open(self, *args: str, **kwargs: str) -> None:
        asked = self.get_query_argument("language", "en")
        self.language = asked if asked in LANGUAGES else "en"
        self.sent = -1
        self.seat_sent = ""
        self.window = (time.monotonic(), 0)
        key = self.get_query_argument("seat", "")[:64]
        self.desk = self.phones.desk(key) if key else None
        self.phones.tick()  # a new phone sees the fight as it is now, not as at the last poll
        self.phones.sockets.add(self)
        if key and self.desk is None:
            closed = words(Message("seats.closed"), self.language)
            self.write_message(json.dumps({"kind": "closed", "text": closed}))
        self.show()

    def show(self) -> None:
        own = self.desk.seat.combatants if self.desk is not None else ()
        version, text = self.phones.message(self.language, tuple(own))
        if version != self.sent:
            self.sent = version
            self.write_message(text)
        if self.desk is not None:
            self.desk.touch()
            seat = {"kind": "seat", "language": self.language}
            seat["seat"] = self.desk.picture(self.language)  # type: ignore[assignment]
            encoded = json.dumps(seat)
            if encoded != self.seat_sent:
                self.seat_sent = encoded
                self.write_message(encoded)

    def on_message(self, message: str | bytes) -> None:
        started, count = self.window
        now = time.monotonic()
        if now - started >= 1.0:
            started, count = now, 0
        self.window = (started, count + 1)
        try:
            if count + 1 > MESSAGES_PER_SECOND:
                raise ValueError("too many messages")
            asked = PhoneMessage.read(message, seated=self.desk is not None)
        except ValueError as error:
            self.phones.log(f"gmkit players: a phone's message refused ({error})")
            self.close(1008)
            return
        if isinstance(asked, PhoneMessage):
            self.language, self.sent = asked.language, -1
            self.show()
            return
        assert self.desk is not None
        self.desk.handle(asked)
        for socket in list(self.phones.sockets):  # every phone of the seat sees it
            if socket.desk is self.desk:
                socket.show()

    def on_close(self) -> None:
        self.phones.sockets.discard(self)


def application(phones: Phones, access: Access) -> tornado.web.Application:
    """The players' server of ``phones``, behind ``access``'s door."""
    guard = Guard(access)
    base = access.path or "/"
    attributes: dict[str, Any] = {"phones": phones}
    page_handler = guarded(type("PhonePage", (PageHandler,), attributes), guard)
    socket_handler = guarded(type("PhoneSocketOf", (PhoneSocket,), attributes), guard)
    return tornado.web.Application(
        [(base, page_handler), (f"{base}ws", socket_handler)],
        websocket_max_message_size=MESSAGE_BYTES,
        websocket_ping_interval=20,
        xsrf_cookies=False,
    )


def serve_phones(
    room: Room,
    *,
    port: int,
    ip: str,
    access: Access,
    announce: Callable[[], None] | None = None,
) -> int:
    """Serve ``room``'s phones on ``ip:port`` until stopped (Ctrl+C, SIGTERM)."""
    return asyncio.run(_serve(room, port=port, ip=ip, access=access, announce=announce))


async def _serve(
    room: Room, *, port: int, ip: str, access: Access, announce: Callable[[], None] | None
) -> int:
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signal_number, stopped.set)
    phones = Phones(room)
    server = application(phones, access).listen(port, ip)
    follower = PeriodicCallback(phones.tick, POLL_SECONDS * 1000)
    follower.start()
    if announce is not None:
        announce()
    await stopped.wait()
    follower.stop()
    server.stop()
    for socket in list(phones.sockets):
        socket.close(1001)
    return 0
