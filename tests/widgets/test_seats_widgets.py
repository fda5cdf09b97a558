"""The GM's side of the players' seats (issue 23): the players' tab gives a seat (its link,
and its QR code once the players' page said where it serves) and revokes it; the inbox under
the tracker shows a phone's request in words and Accept makes it the GM's command."""

from __future__ import annotations

import pytest

from gmkit.campaign import demo_campaign_file
from gmkit.seats import SeatsFile
from gmkit.store import CampaignStore
from gmkit.widgets._dashboard import Dashboard
from gmkit.widgets._i18n import LANGUAGE

CHAPEL = "The Chapel of the Pale Throne"
URL = "http://192.168.1.20:8867/k3m9q2x7ha/"


@pytest.fixture
def board(tmp_path):
    store = CampaignStore(demo_campaign_file(tmp_path))
    made = Dashboard(store, CHAPEL, seed=7, follow=False)
    made.tracker.roll_initiative()
    made.tracker.start()
    yield made
    made.close()
    store.close()
    LANGUAGE.value = "en"


def test_a_seat_given_shows_its_link_then_its_qr_code_and_is_revoked(board):
    actor = board.encounter.situation.actor
    seats = board.players.seats
    assert board.inbox_panel is None  # no seat, no inbox
    seats.player.value = "Ana"
    seats.combatants.value = (actor,)
    assert seats.give()
    (seat,) = board.seats()
    assert (seat.player, seat.combatants) == ("Ana", (actor,))
    text = seats.rows.children[0].children[0].value
    assert f"?seat={seat.key}" in text
    assert "start the players&#x27; page (gmkit players)" in text
    with SeatsFile.of_campaign(board.store.path) as players_side:
        players_side.set_players_url(URL)
    seats.render()
    row = seats.rows.children[0].children
    assert f"{URL}?seat={seat.key}" in row[0].value
    assert row[1].value.startswith("<svg")
    assert "segno" in row[1].value
    assert board.inbox_panel is not None
    assert board.inbox_panel.title.value == "<b>Players&#x27; requests: 0</b>"  # nothing waits
    row[-1].click()  # Revoke
    assert board.seats() == []
    assert seats.rows.children == ()


def test_a_seat_needs_a_name_and_says_so_in_spanish(board):
    LANGUAGE.value = "es"
    seats = board.players.seats
    seats.combatants.value = (board.encounter.situation.actor,)
    assert not seats.give()
    assert "un asiento necesita el nombre del jugador" in seats.message.value


def test_a_phone_s_end_of_turn_waits_in_the_inbox_and_accept_passes_the_turn(board):
    actor = board.encounter.situation.actor
    seat = board.give_seat("Ana", [actor])
    with SeatsFile.of_campaign(board.store.path) as players_side:
        players_side.send(seat.key, {"kind": "end_turn", "combatant": actor})
    board.poll()
    inbox = board.inbox_panel
    assert inbox is not None
    assert inbox.title.value == "<b>Players&#x27; requests: 1</b>"
    said = inbox.rows.children[0].children[0].value
    name = board.encounter.state.combatants[actor].name
    assert said == f"<b>Ana</b> · {name} ends the turn"
    before = len(board.encounter.events)
    inbox.rows.children[0].children[1].click()  # Accept
    assert len(board.encounter.events) == before + 1
    assert board.encounter.events[-1]["kind"] == "turn"
    assert board.encounter.situation.actor != actor
    assert inbox.rows.children == ()


def test_edit_takes_a_player_s_attack_into_the_gm_s_panel_with_their_dice(board):
    fight = board.encounter
    while fight.state.combatants[fight.situation.actor].side != "Acolytes":
        fight.next_turn()
    actor = fight.situation.actor
    seat = board.give_seat("Ana", [actor])
    default = fight.situation.default_attack_of(actor)
    with SeatsFile.of_campaign(board.store.path) as players_side:
        ident = players_side.send(
            seat.key,
            {
                "kind": "attack",
                "combatant": actor,
                "weapon": default.weapon,
                "mode": default.mode,
                "action": default.action,
                "target": default.target,
                "dice": [10, 5],
            },
        )
    board.poll()
    row = board.inbox_panel.rows.children[0].children
    edit = next(child for child in row if getattr(child, "description", "") == "Edit")
    edit.click()
    form = board.attack.form
    assert (form.attacker, form.weapon, form.target) == (actor, default.weapon, default.target)
    assert form.dice.mode == "physical"
    assert form.result is not None  # resolved with the table's dice the phone typed
    assert [roll.value for roll in form.result.rolls][:2] == [10, 5]
    request = board.seats_file.request(ident)
    assert request.status == "taken"
    before = len(fight.events)
    board.attack.apply()  # the GM's own command now
    assert len(fight.events) == before + 1


def test_the_inbox_rows_stay_the_same_widgets_while_nothing_changes(board):
    """The table reads the seats file every 0.3 s: a row (its Accept button) the GM is about to
    click is never replaced while the same requests wait."""
    actor = board.encounter.situation.actor
    seat = board.give_seat("Ana", [actor])
    with SeatsFile.of_campaign(board.store.path) as players_side:
        players_side.send(seat.key, {"kind": "end_turn", "combatant": actor})
    board.poll()
    (row,) = board.inbox_panel.rows.children
    board.poll()
    board.poll()
    assert board.inbox_panel.rows.children == (row,)
    LANGUAGE.value = "es"
    (redrawn,) = board.inbox_panel.rows.children
    assert redrawn is not row  # the words of another language
    assert "termina el turno" in redrawn.children[0].value
