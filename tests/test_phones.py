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
from gmkit.messages import Message
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
        self.seats: Any = None

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


# --- a seat: the player acts from the phone ------------------------------------------------


async def seat_message(connection: Any, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The next seat part sent that passes ``check`` (pictures of the fight skipped)."""
    while True:
        text = await asyncio.wait_for(connection.read_message(), 10)
        assert text is not None, "the server closed the connection"
        message = json.loads(text)
        if message["kind"] == "seat" and check(message["seat"]):
            return dict(message["seat"])


def seated(served: Served) -> tuple[Any, str]:
    """The fight started, the turn at an acolyte's, a seat for that acolyte."""
    from gmkit.seats import SeatsFile

    fight = served.gm
    fight.roll_initiative(SeededDice(7))
    fight.start(SeededDice(7))
    while fight.state.combatants[fight.situation.actor].side != "Acolytes":
        fight.next_turn()
    served.phones.tick()
    actor = fight.situation.actor
    assert actor is not None
    seats = SeatsFile.of_campaign(served.room.store.path)
    served.seats = seats
    return seats.give(CHAPEL, "Ana", [actor]), actor


@played
async def test_a_seat_attacks_acts_and_ends_its_turn_by_requests(served: Served) -> None:
    seat, actor = seated(served)
    name = served.gm.state.combatants[actor].name
    url = served.url("en") + f"&seat={seat.key}"
    phone = await tornado.websocket.websocket_connect(url)
    other = await tornado.websocket.websocket_connect(url)  # the player's second phone
    first = await seat_message(phone, lambda s: s["attack"] is not None)
    await seat_message(other, lambda s: s["attack"] is not None)
    assert first["acting"] == actor
    assert f"Your turn: {name}" in first["cue"]
    fields = {field["name"]: field for field in first["attack"]["fields"]}
    targets = [ident for ident, _ in fields["target"]["options"]]
    assert targets
    assert all(served.gm.state.combatants[t].side != "Acolytes" for t in targets)
    assert "Ostrava" not in json.dumps(first)  # the hidden demagogue is no target
    assert "hit" in first["attack"]["odds"]

    await phone.write_message(
        json.dumps({"kind": "choose", "field": "target", "value": targets[-1]})
    )
    chosen = await seat_message(phone, lambda s: s["attack"]["fields"][3]["value"] == targets[-1])
    assert chosen["attack"]["may_send"]
    await phone.write_message(json.dumps({"kind": "attack", "dice": "x1"}))
    refused = await seat_message(phone, lambda s: "gmkit-error" in s["said"])
    assert "x1" in refused["said"]
    assert served.seats.pending(CHAPEL) == []
    await phone.write_message(json.dumps({"kind": "attack", "dice": "12 5"}))
    sent = await seat_message(phone, lambda s: "the GM decides" in s["said"])
    assert "waiting for the GM" in sent["answers"]
    await seat_message(other, lambda s: "the GM decides" in s["said"])  # both phones see it
    action = next(ident for ident, _ in sent["actions"])
    await phone.write_message(json.dumps({"kind": "action", "action": action}))
    await phone.write_message(json.dumps({"kind": "end_turn"}))
    await until(lambda: len(served.seats.pending(CHAPEL)) == 3)
    kinds = [(r.payload["kind"], r.payload.get("dice")) for r in served.seats.pending(CHAPEL)]
    assert kinds == [("attack", [12, 5]), ("action", None), ("end_turn", None)]
    attack = served.seats.pending(CHAPEL)[0].payload
    assert (attack["combatant"], attack["target"]) == (actor, targets[-1])
    phone.close()
    other.close()
    served.seats.close()


@played
async def test_a_seat_is_asked_to_react_and_answers_in_its_language(served: Served) -> None:
    from gmkit.seats._questions import ReactionChoice

    seat, actor = seated(served)
    phone = await tornado.websocket.websocket_connect(served.url("es") + f"&seat={seat.key}")
    await seat_message(phone, lambda s: s["question"] is None)
    await until(lambda: served.seats.questions.present(seat.key))  # the GM's table asks it
    hit = Message("seats.question.hit", attacker="Cultist Ban", target="Ilse Marr", hits=1)
    question = served.seats.questions.ask(
        seat.key,
        CHAPEL,
        actor,
        hit,
        (ReactionChoice("dodge", Message("dark_heresy.action.dodge"), 0.42, 100),),
        60.0,
    )
    served.phones.tick()
    asked = await seat_message(phone, lambda s: s["question"] is not None)
    labels = [label for _, label in asked["question"]["choices"]]
    assert labels[-1] == "Encajarlo"
    assert "42" in labels[0]
    assert "impacta a Ilse Marr" in asked["question"]["text"]
    await phone.write_message(
        json.dumps({"kind": "reply", "question": question.id, "reaction": "dodge", "die": "17"})
    )
    await until(lambda: served.seats.questions.latest(seat.key).reply is not None)
    reply = served.seats.questions.latest(seat.key).reply
    assert (reply.reaction, reply.die) == ("dodge", 17)
    phone.close()
    served.seats.close()


@played
async def test_a_closed_seat_or_a_watcher_acting_gets_nothing_done(served: Served) -> None:
    seat, _ = seated(served)
    wrong = await tornado.websocket.websocket_connect(served.url("es") + "&seat=notakey")
    closed = json.loads(await asyncio.wait_for(wrong.read_message(), 10))
    assert closed["kind"] == "closed"
    assert "asiento" in closed["text"]
    await wrong.write_message(json.dumps({"kind": "end_turn"}))  # a watcher may not act
    while await asyncio.wait_for(wrong.read_message(), 10) is not None:
        pass
    assert wrong.close_code == 1008
    phone = await tornado.websocket.websocket_connect(served.url("en") + f"&seat={seat.key}")
    await seat_message(phone, lambda s: True)
    await phone.write_message(json.dumps({"kind": "end_turn", "combatant": "someone else"}))
    while await asyncio.wait_for(phone.read_message(), 10) is not None:
        pass
    assert phone.close_code == 1008
    assert served.seats.pending(CHAPEL) == []
    served.seats.close()


@played
async def test_a_phone_opened_after_a_change_sees_it_before_the_next_poll(
    served: Served,
) -> None:
    """A GM's change (the enemy wounds set to hidden) and a phone opened before the server's
    next poll: its first picture is already under it (never the one drawn before)."""
    early = await served.phone("en")
    before = await picture(early)
    assert "unhurt" in before["table"]  # enemies under the band
    served.gm.set("enemy_wounds", "hidden")  # no tick: the server has not polled yet
    late = await served.phone("en")
    first = await picture(late)
    assert first["version"] == before["version"] + 1
    assert "unhurt" not in first["table"]
    early.close()
    late.close()
