"""The seats file (issue 23): seats given and revoked by the GM, requests written by the
players' side within a rate and a size, answers written back once; all in a file beside the
campaign, which the players' side never writes."""

from __future__ import annotations

import sqlite3

import pytest

from gmkit.seats import SeatError, SeatsFile, seats_path
from gmkit.seats._seats_file import BURST, MOST_BYTES, PER_MINUTE


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def seats(tmp_path, clock):
    with SeatsFile(seats_path(tmp_path / "demo.gmk"), clock=clock) as opened:
        yield opened


def rows(path, table):
    with sqlite3.connect(path) as connection:
        return connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_the_seats_file_is_beside_the_campaign(tmp_path):
    assert seats_path(tmp_path / "demo.gmk") == tmp_path / "demo.gmk.seats"


def test_a_seat_is_a_random_key_for_a_player_and_their_combatants(seats, tmp_path):
    jessa = seats.give("The Chapel", "Ana", ["jessa-kell"])
    tull = seats.give("The Chapel", "Bruno", ["sergeant-varro-tull", "ilse-marr"])
    assert len(jessa.key) >= 22
    assert jessa.key != tull.key
    assert seats.seat(jessa.key) == jessa
    assert seats.seats("The Chapel") == [jessa, tull]
    assert seats.seats("Another fight") == []
    assert tull.plays("ilse-marr")
    assert not tull.plays("jessa-kell")
    with SeatsFile(seats.path) as again:  # kept in the file
        assert again.seat(tull.key) == tull


def test_a_revoked_seat_opens_nothing_and_sends_nothing(seats):
    seat = seats.give("The Chapel", "Ana", ["jessa-kell"])
    seats.revoke(seat.key)
    assert seats.seat(seat.key) is None
    assert seats.seats("The Chapel") == []
    with pytest.raises(SeatError, match="this seat is closed"):
        seats.send(seat.key, {"kind": "end_turn", "combatant": "jessa-kell"})
    assert rows(seats.path, "requests") == 0
    assert seats.seat("") is None
    assert seats.seat("no-such-key") is None


def test_a_seat_needs_a_player_and_a_combatant(seats):
    with pytest.raises(SeatError, match="the player's name"):
        seats.give("The Chapel", "  ", ["jessa-kell"])
    with pytest.raises(SeatError, match="Ana's seat needs at least one combatant"):
        seats.give("The Chapel", "Ana", [])


def test_requests_are_kept_in_order_and_answered_once(seats):
    seat = seats.give("The Chapel", "Ana", ["jessa-kell"])
    first = seats.send(seat.key, {"kind": "end_turn", "combatant": "jessa-kell"})
    second = seats.send(seat.key, {"kind": "end_turn", "combatant": "jessa-kell", "seen": 3})
    assert [r.id for r in seats.pending("The Chapel")] == [first, second]
    assert seats.pending("The Chapel")[1].payload == {
        "kind": "end_turn",
        "combatant": "jessa-kell",
        "seen": 3,
    }
    seats.answer(first, "refused", "no")
    assert [r.id for r in seats.pending("The Chapel")] == [second]
    found = seats.request(first)
    assert found is not None
    assert (found.status, found.answer) == ("refused", "no")
    with pytest.raises(SeatError, match=f"request {first} was answered already"):
        seats.answer(first, "accepted")
    with pytest.raises(ValueError, match="is not an answer"):
        seats.answer(second, "pending")
    assert [r.id for r in seats.answers(seat.key, after=first)] == [second]


def test_a_seat_sends_a_burst_then_its_rate(seats, clock):
    seat = seats.give("The Chapel", "Ana", ["jessa-kell"])
    request = {"kind": "end_turn", "combatant": "jessa-kell"}
    for _ in range(BURST):
        seats.send(seat.key, request)
    with pytest.raises(SeatError, match=r"too many requests: wait 2(\.0)? s"):
        seats.send(seat.key, request)
    assert rows(seats.path, "requests") == BURST  # the refused one written nowhere
    clock.now += 60 / PER_MINUTE
    seats.send(seat.key, request)
    other = seats.give("The Chapel", "Bruno", ["ilse-marr"])
    seats.send(other.key, request)  # one seat's flood holds no other back


def test_a_payload_too_large_or_not_json_is_refused_and_not_written(seats):
    seat = seats.give("The Chapel", "Ana", ["jessa-kell"])
    with pytest.raises(SeatError, match=f"at most {MOST_BYTES} bytes"):
        seats.send(seat.key, {"kind": "end_turn", "combatant": "x" * MOST_BYTES})
    with pytest.raises(SeatError, match="not JSON"):
        seats.send(seat.key, {"kind": float("nan")})
    assert rows(seats.path, "requests") == 0
    seats.send(seat.key, {"kind": "end_turn", "combatant": "jessa-kell"})  # the seat still sends
    assert rows(seats.path, "requests") == 1


def test_prep_gives_a_seat_by_name_and_says_its_link(tmp_path):
    from gmkit import prep
    from gmkit.campaign import demo_campaign_file
    from gmkit.errors import RulesError

    store = prep.campaign(demo_campaign_file(tmp_path))
    try:
        link = prep.seat(store, "The Chapel of the Pale Throne", "Ana", ["Jessa Kell"])
        key = link.removeprefix("?seat=")
        with SeatsFile.of_campaign(store.path) as seats:
            assert seats.seat(key).combatants == ("jessa-kell",)
            seats.set_players_url("http://192.168.1.20:8867/k3m9q2x7ha/")
        link = prep.seat(store, "The Chapel of the Pale Throne", "Bruno", ["Ilse Marr"])
        assert link.startswith("http://192.168.1.20:8867/k3m9q2x7ha/?seat=")
        with pytest.raises(RulesError, match="'Nobody'"):
            prep.seat(store, "The Chapel of the Pale Throne", "Carla", ["Nobody"])
        prep.reaction_seconds(store, 30)  # how long the table waits for a player's reaction
        with SeatsFile.of_campaign(store.path) as seats:
            assert seats.ask_seconds == 30
        with pytest.raises(SeatError, match="from 5 to 120"):
            prep.reaction_seconds(store, 600)
    finally:
        store.close()
