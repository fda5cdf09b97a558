"""Bad input from phones (issue 23): generated requests (wrong seat, wrong combatant, unknown
kinds and fields, values out of range, huge payloads, a flood) are refused with a reason that
names the field, and the campaign file is the same, byte for byte, after every refusal."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmkit.campaign import demo_campaign_file
from gmkit.encounter import Encounter
from gmkit.messages import render
from gmkit.seats import Inbox, IntentError, SeatError, SeatsFile, read_intent
from gmkit.seats._inbox import heard
from gmkit.store import CampaignStore

CHAPEL = "The Chapel of the Pale Throne"
FIELDS = ["kind", "combatant", "weapon", "mode", "action", "target", "dice", "seen", "x"]
VALUES = [None, True, -1, 0, 7, 101, 10**12, 1.5, "", "a" * 300, "jessa-kell", [], [0], [5] * 41]


def junk(rng: random.Random) -> object:
    """A request a broken or hostile phone might send."""
    if rng.random() < 0.05:
        return rng.choice([[], "attack", 42, None])
    data = {rng.choice(FIELDS): rng.choice(VALUES) for _ in range(rng.randint(0, 6))}
    data["kind"] = rng.choice(["attack", "action", "end_turn", "reaction", "", None, 3])
    return data


def test_ten_thousand_generated_requests_are_refused_naming_the_field():
    rng = random.Random(22)
    refused = 0
    for _ in range(10_000):
        data = junk(rng)
        try:
            read_intent(json.loads(json.dumps(data)))
        except IntentError as error:
            refused += 1
            field, _, problem = render(error.message).partition(": ")
            assert field in (*FIELDS, "(request)")
            assert problem
    assert refused >= 9_000  # the few well-formed ones are then checked against the fight


@pytest.fixture
def table(tmp_path):
    path = demo_campaign_file(tmp_path)
    store = CampaignStore(path)
    fight = Encounter.open(store, CHAPEL)
    seats = SeatsFile.of_campaign(path, clock=iter(range(0, 10**7, 5)).__next__)
    yield path, fight, seats
    seats.close()
    store.close()


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_bad_requests_through_the_inbox_leave_the_campaign_file_as_it_was(table):
    path, fight, seats = table
    seat = seats.give(CHAPEL, "Ana", [fight.state.present[0].id])
    before = digest(path)
    rng = random.Random(7)
    sent = 0
    for _ in range(300):
        try:
            seats.send(seat.key, junk(rng))  # type: ignore[arg-type]
            sent += 1
        except SeatError:
            continue
    inbox = Inbox(fight, seats)
    waiting = inbox.asked()
    for asked in waiting:  # well-formed ones the fight refuses (not started, not yours...)
        assert asked.why_not
        with pytest.raises(IntentError):
            inbox.accept(asked.request.id)
    answered = seats.answers(seat.key)
    assert len(answered) == sent
    assert all(request.status in ("refused", "stale") for request in answered)
    assert all(render(heard(request.answer)) for request in answered)  # each says why
    assert digest(path) == before  # no refusal touched the campaign file
    assert fight.events == Encounter.open(CampaignStore(path, readonly=True), CHAPEL).events


def test_a_flood_is_held_back_per_seat_and_a_wrong_key_opens_nothing(tmp_path):
    with SeatsFile(tmp_path / "x.gmk.seats") as seats:
        seat = seats.give(CHAPEL, "Ana", ["jessa-kell"])
        said: list[str] = []
        for _ in range(200):
            try:
                seats.send(seat.key, {"kind": "end_turn", "combatant": "jessa-kell"})
            except SeatError as error:
                said.append(render(error.message))
        assert len(said) >= 190
        assert all(text.startswith("too many requests: wait") for text in said)
        for key in ("", "x", seat.key[:-1], seat.key + "x", "' OR 1=1 --"):
            assert seats.seat(key) is None
            with pytest.raises(SeatError, match="this seat is closed"):
                seats.send(key, {"kind": "end_turn", "combatant": "jessa-kell"})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=60))
def test_any_key_but_the_seat_s_opens_nothing(tmp_path_factory, key):
    with SeatsFile(tmp_path_factory.mktemp("k") / "x.gmk.seats") as seats:
        seat = seats.give(CHAPEL, "Ana", ["jessa-kell"])
        assert (seats.seat(key) is not None) == (key == seat.key)
