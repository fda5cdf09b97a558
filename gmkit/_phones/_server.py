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
from gmkit._serving.guard import Access, Guard, guarded, page_language

POLL_SECONDS = 0.3
MESSAGE_BYTES = 4096
MESSAGES_PER_SECOND = 16


@dataclass(frozen=True)
class PhoneMessage:
    """What a phone may send: ``{"kind": "language", "language": "es"}``."""

    kind: str
    language: str

    KINDS: ClassVar[tuple[str, ...]] = ("language",)

    @classmethod
    def read(cls, text: str | bytes) -> PhoneMessage:
        """The message, or ValueError saying what is wrong with it."""
        found = json.loads(text)
        if not isinstance(found, dict) or set(found) != {"kind", "language"}:
            raise ValueError("a phone's message is {kind, language}")
        if found["kind"] not in cls.KINDS or found["language"] not in LANGUAGES:
            raise ValueError("unknown kind or language")
        return cls(str(found["kind"]), str(found["language"]))


class Phones:
    """The phones of one room: who is connected, and what each was sent last."""

    def __init__(self, room: Room, log: Callable[[str], None] = print) -> None:
        self.room = room
        self.sockets: set[PhoneSocket] = set()
        self.log = log
        self._encoded: dict[str, tuple[int, str]] = {}  # language -> (version, message)

    def message(self, language: str) -> tuple[int, str]:
        """The picture in ``language`` as sent: encoded once per change."""
        picture = self.room.picture(language)
        kept = self._encoded.get(language)
        if kept is None or kept[0] != picture["version"]:
            text = json.dumps({"kind": "picture", "language": language, "picture": picture})
            kept = self._encoded[language] = (picture["version"], text)
        return kept

    def tick(self) -> None:
        """Read the fight; push what changed to every phone."""
        try:
            changed = self.room.follow()
        except Exception as error:  # the campaign unreachable a moment: said, tried again
            self.log(f"gmkit players: following the fight failed ({type(error).__name__})")
            return
        if changed:
            for socket in list(self.sockets):
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
        self.window = (time.monotonic(), 0)
        self.phones.sockets.add(self)
        self.show()

    def show(self) -> None:
        version, text = self.phones.message(self.language)
        if version != self.sent:
            self.sent = version
            self.write_message(text)

    def on_message(self, message: str | bytes) -> None:
        started, count = self.window
        now = time.monotonic()
        if now - started >= 1.0:
            started, count = now, 0
        self.window = (started, count + 1)
        try:
            if count + 1 > MESSAGES_PER_SECOND:
                raise ValueError("too many messages")
            asked = PhoneMessage.read(message)
        except ValueError as error:
            self.phones.log(f"gmkit players: a phone's message refused ({error})")
            self.close(1008)
            return
        self.language, self.sent = asked.language, -1
        self.show()

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
