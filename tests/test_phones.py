"""The phones' server without a kernel each (gmkit/_phones): a real tornado server on a loopback
port, real WebSocket clients, a real campaign file the GM writes to.

What it must do: every phone gets the fight as the players may see it, in its language; a
change is made into a picture once per language however many phones follow; nothing GM-only
ever leaves the server; what a phone may send is one small message of a known kind, and
anything else ends its connection; the door is the Voila servers' (path, Host)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import tornado.httpclient
import tornado.websocket

from gmkit._phones._room import Room
from gmkit._phones._server import MESSAGE_BYTES, Phones, application
from gmkit._serving.guard import Access
from gmkit.campaign import create_demo_store
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.store import CampaignStore

CHAPEL = "The Chapel of the Pale Throne"
GM_ONLY = ("Ostrava", "Demagogue", "waits behind the altar", "Stub Automatic", "WS 28")
PATH = "/k3m9q2x7ha/"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Served:
    """A phones' server of the demo's Chapel, and the GM's own encounter on the same file."""

    def __init__(self, path: Path) -> None:
        self.logged: list[str] = []
        self.room = Room(CampaignStore(path, readonly=True), CHAPEL)
        self.phones = Phones(self.room, log=self.logged.append)
        self.port = free_port()
        self.server = application(self.phones, Access(lan=True, path=PATH)).listen(
            self.port, "127.0.0.1"
        )
        self.gm_store = CampaignStore(path)
        self.gm = Encounter.open(self.gm_store, CHAPEL)

    def url(self, language: str = "en", scheme: str = "ws") -> str:
        tail = f"ws?language={language}" if scheme == "ws" else ""
        return f"{scheme}://127.0.0.1:{self.port}{PATH}{tail}"

    async def phone(self, language: str = "en") -> Any:
        return await tornado.websocket.websocket_connect(self.url(language))

    def close(self) -> None:
        self.server.stop()
        self.gm_store.close()
        self.room.store.close()


@contextlib.asynccontextmanager
async def serving(tmp_path: Path) -> AsyncIterator[Served]:
    """The server, inside the running loop (tornado listens on it)."""
    path = tmp_path / "demo.gmk"
    create_demo_store(path)
    served = Served(path)
    try:
        yield served
    finally:
        served.close()


def played(scenario: Callable[[Served], Awaitable[None]]) -> Callable[[Path], None]:
    """A test of ``scenario``, run on its own event loop with a server of its own."""

    def test(tmp_path: Path) -> None:
        async def run() -> None:
            async with serving(tmp_path) as served:
                await scenario(served)

        asyncio.run(run())

    test.__name__ = scenario.__name__
    test.__doc__ = scenario.__doc__
    return test


async def picture(connection: Any) -> dict[str, Any]:
    """The next picture a phone is sent (waited for: at most 10 s)."""
    text = await asyncio.wait_for(connection.read_message(), 10)
    assert text is not None, "the server closed the connection"
    message = json.loads(text)
    assert message["kind"] == "picture"
    return dict(message["picture"]) | {"language": message["language"]}


async def until(condition: Callable[[], bool], seconds: float = 10) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "not within the time"
        await asyncio.sleep(0.01)


@played
async def test_every_phone_follows_and_a_change_is_drawn_once_per_language(
    served: Served,
) -> None:
    english = [await served.phone("en") for _ in range(20)]
    spanish = [await served.phone("es") for _ in range(5)]
    first = [await picture(c) for c in english + spanish]
    assert {p["language"] for p in first[:20]} == {"en"}
    assert {p["language"] for p in first[20:]} == {"es"}
    assert "Round" in first[0]["header"]
    assert "Asalto" in first[-1]["header"]
    made = served.room.made
    assert made == 2  # one picture a language, for 25 phones

    served.gm.roll_initiative(SeededDice(3))
    served.gm.start()
    served.phones.tick()
    after = [await picture(c) for c in english + spanish]
    assert all(p["version"] == first[0]["version"] + 1 for p in after)
    assert served.room.made == made + 2
    actor = served.gm.situation.actor
    assert actor is not None
    name = served.gm.state.combatants[actor].name
    assert f"Turn: <span class='gmkit-now'>{name}</span>" in after[0]["header"]
    assert f"Turno: <span class='gmkit-now'>{name}</span>" in after[-1]["header"]

    served.phones.tick()  # nothing new: nothing sent, nothing made
    assert served.room.made == made + 2
    for connection in english + spanish:
        connection.close()


@played
async def test_a_phone_switching_language_is_sent_that_language(served: Served) -> None:
    connection = await served.phone("en")
    await picture(connection)
    await connection.write_message(json.dumps({"kind": "language", "language": "es"}))
    switched = await picture(connection)
    assert switched["language"] == "es"
    assert "Heridas" in switched["table"]
    connection.close()


@played
async def test_nothing_the_gm_keeps_leaves_the_server(served: Served) -> None:
    connection = await served.phone("en")
    frames = [await picture(connection)]
    fight = served.gm
    fight.note("The demagogue waits behind the altar", gm_only=True)
    fight.roll_initiative(SeededDice(5))
    fight.start()
    for _ in range(6):
        fight.next_turn()
        served.phones.tick()
        frames.append(await picture(connection))
    text = json.dumps(frames)
    for secret in GM_ONLY:
        assert secret not in text, secret
    assert "Cultist Ban" in text  # what the players may see is there
    connection.close()


SHAPES = [
    "not json",
    json.dumps({"kind": "attack", "language": "en"}),
    json.dumps({"kind": "language", "language": "fr"}),
    json.dumps({"kind": "language", "language": "en", "extra": 1}),
    json.dumps(["language", "en"]),
]


@pytest.mark.parametrize("sent", SHAPES)
def test_a_message_of_an_unknown_shape_ends_the_connection(tmp_path: Path, sent: str) -> None:
    @played
    async def scenario(served: Served) -> None:
        await refused(served, sent)

    scenario(tmp_path)


async def refused(served: Served, sent: str) -> None:
    connection = await served.phone("en")
    await picture(connection)
    await connection.write_message(sent)
    assert await asyncio.wait_for(connection.read_message(), 10) is None
    assert connection.close_code == 1008
    await until(lambda: not served.phones.sockets)
    assert any("a phone's message refused" in line for line in served.logged)


@played
async def test_a_long_message_or_a_flood_ends_the_connection(served: Served) -> None:
    connection = await served.phone("en")
    await picture(connection)
    await connection.write_message("x" * (MESSAGE_BYTES + 1))
    assert await asyncio.wait_for(connection.read_message(), 10) is None

    flood = await served.phone("en")
    await picture(flood)
    switch = json.dumps({"kind": "language", "language": "en"})
    for _ in range(40):
        await flood.write_message(switch)
    while (message := await asyncio.wait_for(flood.read_message(), 10)) is not None:
        assert json.loads(message)["kind"] == "picture"
    assert flood.close_code == 1008
    assert any("too many messages" in line for line in served.logged)


@played
async def test_the_door_is_the_players_servers(served: Served) -> None:
    client = tornado.httpclient.AsyncHTTPClient()
    page = await client.fetch(served.url(scheme="http"))
    assert page.code == 200
    body = page.body.decode()
    assert "<script>" in body
    assert "WebSocket" in body
    assert "http://" not in body  # nothing loaded from elsewhere
    assert "https://" not in body
    for url, headers in [
        (f"http://127.0.0.1:{served.port}/", {}),  # not the players' path
        (served.url(scheme="http"), {"Host": "rebind.example"}),  # DNS rebinding
    ]:
        refused = await client.fetch(url, headers=headers, raise_error=False)
        assert refused.code in (403, 404), url
    foreign = tornado.httpclient.HTTPRequest(
        served.url(), headers={"Origin": "http://evil.example"}
    )
    with pytest.raises(tornado.httpclient.HTTPClientError) as refused:
        await tornado.websocket.websocket_connect(foreign)  # another site's page
    assert refused.value.code == 403
    assert not served.phones.sockets
