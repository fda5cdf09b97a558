"""A Dodge asked on the defender's phone (issue 23, item 3), with real widgets clicked: the GM's
dashboard resolves a cultist's hit on Jessa Kell, whose seat's page is open; her phone shows
the hit with Dodge and its odds and Take it; she types her die and presses Dodge; the GM's poll
takes it into the attack panel (the same dice, her die), Apply records one event. In Spanish
the phone reads the question in Spanish. Without her page open, nothing is asked."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gmkit.campaign import demo_campaign_file
from gmkit.dice import SeededDice
from gmkit.seats import SeatsFile
from gmkit.store import CampaignStore
from gmkit.widgets._dashboard import Dashboard
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._odds_charts import percent
from gmkit.widgets._player import PlayerView

CHAPEL = "The Chapel of the Pale Throne"


@pytest.fixture
def table(tmp_path):
    path = demo_campaign_file(tmp_path)
    store = CampaignStore(path)
    board = Dashboard(store, CHAPEL, seed=7, follow=False)
    board.tracker.roll_initiative()
    board.tracker.start()
    players = CampaignStore(path, readonly=True)
    made = {"board": board, "players": players, "pages": [], "path": path}
    yield made
    for view in made["pages"]:
        view.close()
    board.close()
    players.close()
    store.close()
    LANGUAGE.value = "en"


def jessa_s_phone(table) -> PlayerView:
    board = table["board"]
    jessa = board.encounter.combatant("Jessa Kell").id
    seat = board.give_seat("Ana", [jessa])
    seats = SeatsFile.of_campaign(table["path"])  # the players' server's own connection
    view = PlayerView(table["players"], CHAPEL, follow=False, seat=seat, seats=seats)
    table["pages"].append(view)
    return view


def a_cultist_hits_jessa(board: Dashboard) -> None:
    """The GM's panel: Cultist Ban's stub automatic at Jessa Kell, gmkit's first seed that
    hits."""
    fight = board.encounter
    seed = next(
        s
        for s in range(1, 80)
        if fight.try_attack("Cultist Ban", "Stub Automatic", "Jessa Kell", SeededDice(s)).hits
    )
    attack = board.attack
    attack.select_attacker(fight.combatant("Cultist Ban").id)
    attack.select_weapon("Stub Automatic")
    attack.select_target(fight.combatant("Jessa Kell").id)
    attack.set_seed(seed)
    attack.resolve_button.click()


def test_the_phone_is_asked_and_its_dodge_goes_into_the_gm_s_panel(table):
    board = table["board"]
    phone = jessa_s_phone(table)
    box = phone.seat_controls.reaction_box
    assert box.layout.display == "none"  # nothing asked
    a_cultist_hits_jessa(board)
    line = board.asking_line
    assert line is not None
    assert "Asked Ana for the reaction: 20 s left" in line.text.value
    hits = board.attack.result.hits
    buzzed = phone.seat_controls.buzz.buzzed
    phone.poll()
    assert box.layout.display == ""
    assert phone.seat_controls.buzz.buzzed == buzzed + 1  # her phone vibrates: a hit on her
    phone.poll()
    assert phone.seat_controls.buzz.buzzed == buzzed + 1  # once
    assert "Cultist Ban hits Jessa Kell (hits: 1)" in box.text.value
    labels = [button.description for button in box.buttons.children]
    agility = board.encounter.combatant("Jessa Kell").sheet.characteristics.Ag
    assert labels[0] == f"Dodge {percent(Fraction(agility, 100))}"  # on her Agility
    assert labels[-1] == "Take it"
    box.die.value = "12"
    box.buttons.children[0].click()  # Dodge, with her d100 showing 12
    assert "Sent to the GM: Dodge" in box.said.value
    board.poll()
    assert "Ana: Dodge, die 12. The result below has it: apply it." in line.text.value
    result = board.attack.result
    assert board.attack.reaction == "dodge"
    assert result.hits == hits - 1
    assert [roll.value for roll in result.rolls][1] == 12
    events = len(board.encounter.effective_events)
    board.attack.apply_button.click()
    assert len(board.encounter.effective_events) == events + 1
    phone.poll()
    assert box.layout.display == "none"  # the question is done


def test_in_spanish_and_without_a_page_nothing_is_asked(table):
    board = table["board"]
    jessa = board.encounter.combatant("Jessa Kell").id
    board.give_seat("Bea", [jessa])  # a seat, but no page open
    a_cultist_hits_jessa(board)
    assert board.asking_line is not None
    assert board.asking_line.layout.display == "none"
    assert board.asking_line.asking.question is None
    LANGUAGE.value = "es"
    phone = jessa_s_phone(table)  # her page opens
    a_cultist_hits_jessa(board)  # the GM resolves again: the same hit, now asked
    phone.poll()
    box = phone.seat_controls.reaction_box
    assert "Cultist Ban impacta a Jessa Kell (impactos: 1)" in box.text.value
    assert [button.description for button in box.buttons.children][-1] == "Encajarlo"
    assert "Preguntado a Ana por la reacción" in board.asking_line.text.value


def test_the_gm_decides_at_once(table):
    board = table["board"]
    phone = jessa_s_phone(table)
    a_cultist_hits_jessa(board)
    line = board.asking_line
    line.decide_button.click()  # I decide
    assert line.layout.display == "none"
    phone.poll()
    assert phone.seat_controls.reaction_box.layout.display == "none"
    question = line.asking.seats.questions.latest(phone.seat.key)
    assert question is not None
    assert question.status == "withdrawn"
    board.poll()
    assert line.asking.question is None  # not asked again about the same hit
    assert board.attack.reaction == ""
