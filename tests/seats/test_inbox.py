"""The GM's inbox (issue 23): a player's request becomes exactly the GM's own command (the same
event and numbers for the same dice), a stale one is refused with the reason and never applied,
a request that is no intent or comes from a closed seat is refused on the way, and the GM may
let some kinds through as they come."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.messages import render
from gmkit.seats import Inbox, IntentError, SeatsFile, read_intent
from gmkit.seats._inbox import heard

NAME = "The Chapel"


def chapel() -> Encounter:
    """Dark Heresy's acolytes against the cult (the demagogue hidden), initiative typed in
    the roster's order."""
    roster = next(r for r in demo_campaign().rosters if r.game == "dark_heresy")
    fight = Encounter("dark_heresy", name=NAME)
    for sheet in roster.sheets:
        fight.add(sheet, hidden="Demagogue" in sheet.name)
    for place, combatant in enumerate(fight.state.present):
        fight.set_initiative(combatant.id, 40 - place)
    fight.start()
    return fight


@pytest.fixture
def seats(tmp_path):
    with SeatsFile(tmp_path / "demo.gmk.seats") as opened:
        yield opened


def first_foe(fight: Encounter, ident: str) -> str:
    side = fight.state.combatants[ident].side
    return next(c.id for c in fight.state.present if c.side != side and not c.hidden)


def attack_of(fight: Encounter, ident: str, dice: list[int] | None) -> dict:
    default = fight.situation.default_attack_of(ident)
    return {
        "kind": "attack",
        "combatant": ident,
        "weapon": default.weapon,
        "mode": default.mode,
        "action": default.action,
        "target": default.target,
        "dice": dice,
        "seen": fight.state.events,
    }


def test_an_accepted_attack_is_the_gm_s_own_command_with_those_dice(seats):
    played, own = chapel(), chapel()
    actor = played.situation.actor
    assert actor is not None
    seat = seats.give(NAME, "Ana", [actor])
    payload = attack_of(played, actor, [10, 5])
    seats.send(seat.key, payload)
    inbox = Inbox(played, seats)
    (asked,) = inbox.asked()
    assert asked.why_not == ""
    result = inbox.accept(asked.request.id)
    kwargs = {"action": payload["action"], "mode": payload["mode"]}
    mine = own.attack(
        actor, payload["weapon"], payload["target"], EnteredDice([10, 5]),
        apply=True, spend=True, **kwargs,
    )  # fmt: skip
    assert played.events[-1] == own.events[-1]  # the same event, the same numbers
    assert result.summary == mine.summary
    assert seats.request(asked.request.id).status == "accepted"
    played.undo()  # one event, one undo
    assert played.state.events == own.state.events - 1


def test_a_stale_request_is_refused_with_the_reason_and_never_applied(seats):
    fight = chapel()
    actor = fight.situation.actor
    seat = seats.give(NAME, "Ana", [actor])
    seats.send(seat.key, attack_of(fight, actor, [10, 5]))
    fight.next_turn()  # the turn passed before the GM looked
    inbox = Inbox(fight, seats)
    (asked,) = inbox.asked()
    assert "not" in render(asked.why_not)
    assert "turn" in render(asked.why_not)
    before = list(fight.events)
    with pytest.raises(IntentError):
        inbox.accept(asked.request.id)
    assert list(fight.events) == before
    answered = seats.request(asked.request.id)
    assert answered.status == "stale"
    assert render(heard(answered.answer), "es") == render(asked.why_not, "es")  # in her words


def test_a_combatant_of_another_seat_or_a_hidden_target_is_refused(seats):
    fight = chapel()
    actor = fight.situation.actor
    other = next(c.id for c in fight.state.present if c.id != actor)
    seat = seats.give(NAME, "Ana", [other])
    seats.send(seat.key, attack_of(fight, actor, None))
    (asked,) = Inbox(fight, seats).asked()
    assert render(asked.why_not) == f"{actor} is not a combatant of this seat"
    mine = seats.give(NAME, "Bruno", [actor])
    hidden = next(c for c in fight.state.present if c.hidden)
    seats.send(mine.key, {**attack_of(fight, actor, None), "target": hidden.id})
    asked = Inbox(fight, seats).asked()[-1]
    assert render(asked.why_not) == "no such target in sight"


def test_what_is_no_intent_or_from_a_closed_seat_is_refused_on_the_way(seats):
    fight = chapel()
    actor = fight.situation.actor
    seat = seats.give(NAME, "Ana", [actor])
    bad = seats.send(seat.key, {"kind": "attack", "combatant": actor})
    assert Inbox(fight, seats).asked() == []
    gone = seats.send(seat.key, {"kind": "end_turn", "combatant": actor})
    seats.revoke(seat.key)
    assert Inbox(fight, seats).asked() == []
    assert render(heard(seats.request(bad).answer)) == "weapon: missing"
    assert render(heard(seats.request(gone).answer), "es").startswith("este asiento está cerrado")


def test_end_turn_goes_through_as_it_comes_when_the_gm_says_so(seats):
    fight = chapel()
    actor = fight.situation.actor
    seat = seats.give(NAME, "Ana", [actor])
    seats.send(seat.key, {"kind": "end_turn", "combatant": actor})
    inbox = Inbox(fight, seats)
    assert len(inbox.poll()) == 1  # not automatic yet: waits for the GM
    inbox.set_auto(["end_turn"])
    assert inbox.poll() == []
    assert fight.situation.actor != actor  # the turn passed
    assert fight.events[-1]["kind"] == "turn"
    with pytest.raises(ValueError, match="is not one of end_turn, action, typed_attack"):
        inbox.set_auto(["everything"])


def test_an_aim_then_the_attack(seats):
    fight = chapel()
    actor = fight.situation.actor
    seat = seats.give(NAME, "Ana", [actor])
    inbox = Inbox(fight, seats)
    seats.send(seat.key, {"kind": "action", "combatant": actor, "action": "aim"})
    inbox.accept(inbox.asked()[0].request.id)
    assert any(name.startswith("aimed") for name in fight.state.combatants[actor].conditions)
    seats.send(seat.key, attack_of(fight, actor, [10, 5]))
    result = inbox.accept(inbox.asked()[0].request.id)
    assert any("Aim" in str(m.source) for s in result.steps for m in s.modifiers)


def test_a_gm_s_refusal_says_the_gm_s_word(seats):
    fight = chapel()
    actor = fight.situation.actor
    seat = seats.give(NAME, "Ana", [actor])
    one = seats.send(seat.key, {"kind": "end_turn", "combatant": actor})
    two = seats.send(seat.key, {"kind": "end_turn", "combatant": actor})
    inbox = Inbox(fight, seats)
    inbox.refuse(one, "finish your move first")
    inbox.refuse(two)
    assert render(heard(seats.request(one).answer)) == "finish your move first"
    assert render(heard(seats.request(two).answer), "es") == "el DJ dijo que no"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=20,
)
KINDS = st.sampled_from(["attack", "action", "end_turn", "reaction", "", None, 3])
FIELDS = st.sampled_from(
    ["combatant", "weapon", "mode", "action", "target", "dice", "seen", "kind", "extra"]
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(FIELDS, JSON, max_size=8), KINDS)
def test_any_json_is_an_intent_or_refused_naming_a_field(data, kind):
    data = {**data, "kind": kind}
    try:
        intent = read_intent(json.loads(json.dumps(data)))
    except IntentError as error:
        shown = render(error.message)
        assert ": " in shown  # "<field>: <problem>"
        return
    assert intent.kind == kind


def test_the_poll_answers_a_request_the_fight_moved_past_with_the_reason(seats):
    fight = chapel()
    actor = fight.situation.actor
    seat = seats.give(NAME, "Ana", [actor])
    late = seats.send(seat.key, attack_of(fight, actor, [10, 5]))
    wrong = seats.send(seat.key, {**attack_of(fight, actor, None), "action": "no_such"})
    inbox = Inbox(fight, seats)
    fight.next_turn()  # the turn passed after the phone sent it
    assert inbox.poll() == []
    answered = seats.request(late)
    assert answered.status == "stale"
    assert "turn" in render(heard(answered.answer))
    refused = seats.request(wrong)
    assert refused.status == "stale"  # also sent before the turn passed
    assert fight.events[-1]["kind"] == "turn"  # nothing applied


def test_an_accepted_end_of_turn_is_not_answered_stale_by_the_command_s_own_news(seats):
    """A listener that reads the inbox on every change (the GM's table) sees the turn pass in
    the middle of accepting the end of turn: the request is not answered stale then."""
    fight = chapel()
    actor = fight.situation.actor
    seat = seats.give(NAME, "Ana", [actor])
    ident = seats.send(seat.key, {"kind": "end_turn", "combatant": actor, "seen": 0})
    inbox = Inbox(fight, seats, auto=["end_turn"])
    fight.subscribe(lambda _fight: inbox.poll())  # as the table's inbox panel does
    assert inbox.poll() == []
    assert seats.request(ident).status == "accepted"
    assert fight.situation.actor != actor


def test_a_claimed_request_is_left_alone_by_another_reader_of_the_file(seats):
    """Two kernels read the seats file (the GM's page and a preheated one): while one carries a
    request out, the other's poll sees the turn pass and must not answer it stale."""
    fight = chapel()
    actor = fight.situation.actor
    seat = seats.give(NAME, "Ana", [actor])
    ident = seats.send(seat.key, {"kind": "end_turn", "combatant": actor})
    other = Inbox(fight, seats)  # the other kernel's inbox (the same fight here)
    assert seats.claim(ident)
    assert not seats.claim(ident)  # one claimer
    fight.next_turn()  # the claimer's command
    assert other.poll() == []  # the turn passed: the other reader leaves it alone
    assert seats.request(ident).status == "accepting"
    seats.answer(ident, "accepted")
    assert seats.request(ident).status == "accepted"
    with pytest.raises(IntentError, match="answered already"):
        Inbox(fight, seats).accept(ident)
