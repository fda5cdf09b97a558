"""The defender's player asked for their reaction (issue 23, item 3): asked only when a
connected seat plays the combatant hit and the rules leave it a reaction, with that player's
odds and nothing of a hidden attacker; the reply read strictly and taken into the GM's form
(the rules' code, the same dice); after the time the GM decides; a changed result withdraws."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmkit._forms import AttackForm
from gmkit._forms.asking import ReactionAsk
from gmkit.demo import demo_campaign
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.messages import render
from gmkit.seats import SeatError, SeatsFile
from gmkit.seats._questions import Question, ReactionChoice, ReplyError, read_reply


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def fight(hidden: tuple[str, ...] = ()) -> Encounter:
    roster = next(r for r in demo_campaign().rosters if r.game == "deathwatch")
    encounter = Encounter("deathwatch", name="Hive")
    for sheet in roster.sheets:
        encounter.add(sheet, hidden=sheet.name in hidden)
    return encounter


def hitting_form(encounter: Encounter, attacker: str = "Nob Gritfang") -> AttackForm:
    """The Nob's choppa at Brother Ilarion, with gmkit's first seed that hits."""
    seed = next(
        s
        for s in range(1, 80)
        if encounter.try_attack(attacker, "Ork Choppa", "Brother Ilarion", SeededDice(s)).hits
    )
    form = AttackForm(encounter, seed=seed)
    form.select_attacker(encounter.combatant(attacker).id)
    form.select_weapon("Ork Choppa")
    form.select_target(encounter.combatant("Brother Ilarion").id)
    form.resolve()
    assert form.result is not None
    assert form.result.hit
    return form


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def seats(tmp_path, clock):
    with SeatsFile(tmp_path / "demo.gmk.seats", clock=clock) as opened:
        yield opened


def test_a_connected_seat_is_asked_with_its_odds_and_its_reply_resolves_the_hit(seats, clock):
    encounter = fight()
    ilarion = encounter.combatant("Brother Ilarion").id
    seat = seats.give("Hive", "Ana", [ilarion])
    asking = ReactionAsk(encounter, seats, seconds=20, clock=clock)
    form = hitting_form(encounter)
    assert asking.consider(form) is None  # her page is not open: the GM decides
    seats.questions.touch(seat.key)
    question = asking.consider(form)
    assert question is not None
    assert [c.reaction for c in question.choices] == ["dodge", "parry"]
    assert all(0 < c.odds < 1 and c.sides == 100 for c in question.choices)
    assert render(question.text, "en") == "Nob Gritfang hits Brother Ilarion (hits: 1)"
    assert render(question.text, "es") == "Nob Gritfang impacta a Brother Ilarion (impactos: 1)"
    shown = seats.questions.latest(seat.key)
    assert shown is not None
    assert shown.status == "open"
    assert shown.choices == question.choices
    assert asking.consider(form) is None  # asked once
    clock.now += 5
    assert asking.poll(form).state == "asked"
    assert asking.poll(form).left == 15
    seats.questions.reply(seat.key, question.id, {"reaction": "parry", "die": 3})
    state = asking.poll(form)
    assert state.state == "answered"
    assert render(state.said, "en") == "Parry, die 3"
    assert form.reaction == "parry"
    assert form.result is not None
    assert form.result.hits == 0
    assert form.result.rolls[-1].value == 3
    assert form.result.rolls[-1].physical
    assert seats.questions.get(question.id).status == "done"
    form.apply()  # the GM applies: one event with the parry in it
    assert encounter.effective_events[-1]["kind"] == "attack"


def test_a_hidden_attacker_is_an_enemy_and_no_reply_in_time_leaves_it_to_the_gm(seats, clock):
    encounter = fight(hidden=("Nob Gritfang",))
    seat = seats.give("Hive", "Ana", [encounter.combatant("Brother Ilarion").id])
    seats.questions.touch(seat.key)
    asking = ReactionAsk(encounter, seats, seconds=20, clock=clock)
    form = hitting_form(encounter)
    question = asking.consider(form)
    assert question is not None
    text = render(question.text, "en")
    assert text == "An enemy hits Brother Ilarion (hits: 1)"
    assert "Nob" not in text
    clock.now += 21
    assert asking.poll(form).state == "expired"
    with pytest.raises(SeatError):  # too late: the GM decides
        seats.questions.reply(seat.key, question.id, {"reaction": "dodge"})
    assert form.reaction == ""
    assert form.result is not None
    assert form.result.hit


def test_a_changed_result_withdraws_the_question(seats, clock):
    encounter = fight()
    seat = seats.give("Hive", "Ana", [encounter.combatant("Brother Ilarion").id])
    seats.questions.touch(seat.key)
    asking = ReactionAsk(encounter, seats, seconds=20, clock=clock)
    form = hitting_form(encounter)
    question = asking.consider(form)
    form.resolve()  # the GM rolls again
    assert asking.poll(form).state == "withdrawn"
    assert seats.questions.get(question.id).status == "withdrawn"
    with pytest.raises(SeatError):
        seats.questions.reply(seat.key, question.id, {"reaction": "dodge"})


def test_no_question_when_the_rules_leave_no_reaction(seats, clock):
    encounter = fight()
    seat = seats.give("Hive", "Ana", [encounter.combatant("Brother Ilarion").id])
    seats.questions.touch(seat.key)
    asking = ReactionAsk(encounter, seats, seconds=20, clock=clock)
    form = hitting_form(encounter)
    form.select_reaction("dodge")  # the GM chose already
    form.resolve()
    assert asking.consider(form) is None
    clock.now += 16  # her page closed since: not connected
    form.select_reaction("")
    form.resolve()
    assert asking.consider(form) is None


def test_a_reply_is_read_strictly(seats, clock):
    encounter = fight()
    seat = seats.give("Hive", "Ana", [encounter.combatant("Brother Ilarion").id])
    other = seats.give("Hive", "Bruno", [encounter.combatant("Brother Castor").id])
    seats.questions.touch(seat.key)
    question = ReactionAsk(encounter, seats, clock=clock).consider(hitting_form(encounter))
    bad = [
        [],
        {"reaction": "dodge", "extra": 1},
        {"reaction": "fly"},
        {"reaction": 3},
        {"reaction": "dodge", "die": 0},
        {"reaction": "dodge", "die": 101},
        {"reaction": "dodge", "die": True},
        {"reaction": "dodge", "die": "50"},
        {"reaction": "", "die": 5},
    ]
    for payload in bad:
        with pytest.raises(ReplyError) as refused:
            read_reply(payload, question)
        assert render(refused.value.message, "en")
        with pytest.raises(ReplyError):
            seats.questions.reply(seat.key, question.id, payload)
    with pytest.raises(SeatError):  # another seat's key answers nothing
        seats.questions.reply(other.key, question.id, {"reaction": "dodge"})
    assert seats.questions.get(question.id).status == "open"
    assert read_reply({"reaction": ""}, question).reaction == ""
    seats.questions.reply(seat.key, question.id, {"reaction": "dodge", "die": 100})
    with pytest.raises(SeatError):  # answered once
        seats.questions.reply(seat.key, question.id, {"reaction": "parry"})


def test_the_gm_sets_how_long_the_table_waits(seats, clock):
    assert seats.ask_seconds == 20
    seats.set_ask_seconds(8)
    encounter = fight()
    seat = seats.give("Hive", "Ana", [encounter.combatant("Brother Ilarion").id])
    seats.questions.touch(seat.key)
    question = ReactionAsk(encounter, seats, clock=clock).consider(hitting_form(encounter))
    assert question is not None
    assert question.until == clock.now + 8
    for bad in (4, 121, "10", True, float("nan")):
        with pytest.raises(SeatError) as refused:
            seats.set_ask_seconds(bad)
        assert render(refused.value.message, "es").startswith("Segundos de espera")
    assert seats.ask_seconds == 8


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=JSON | st.fixed_dictionaries({"reaction": JSON, "die": JSON}))
def test_any_reply_is_a_reply_or_refused_by_name(payload):
    """Whatever a phone sends as a reply: a Reply of the question's, or ReplyError in words."""
    question = Question(
        1,
        "key",
        "Hive",
        "brother-ilarion",
        "Nob Gritfang hits Brother Ilarion (hits: 1)",
        (ReactionChoice("dodge", "Dodge", 0.42, 100), ReactionChoice("parry", "Parry", 0.5, 100)),
        2000.0,
    )
    refused: ReplyError | None = None
    try:
        reply = read_reply(payload, question)
    except ReplyError as error:
        refused = error
    if refused is not None:
        assert render(refused.message, "en")
        assert render(refused.message, "es")
        return
    assert reply.reaction in ("", "dodge", "parry")
    assert reply.die is None or 1 <= reply.die <= 100
