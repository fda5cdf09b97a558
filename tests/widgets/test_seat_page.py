"""A player's phone is their seat (issue 23): the players' page opened with a seat shows that
player's combatants in full and, on their turn, the situation's attack, the odds of a hit, the
turn actions allowed and End turn; a press is a request the GM answers, and the phone lists the
answer in the player's language. Another seat's combatant or a GM-only value never shows."""

from __future__ import annotations

import json

import pytest

from gmkit._forms import AttackForm
from gmkit.campaign import demo_campaign_file
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.messages import Message, render
from gmkit.seats import Inbox, SeatsFile
from gmkit.store import CampaignStore
from gmkit.widgets._i18n import LANGUAGE, named
from gmkit.widgets._player import PlayerView

CHAPEL = "The Chapel of the Pale Throne"


@pytest.fixture
def table(tmp_path):
    """The GM's fight (started) and seats file, and a phone's page on Jessa Kell's seat."""
    path = demo_campaign_file(tmp_path)
    gm = CampaignStore(path)
    fight = Encounter.open(gm, CHAPEL)
    fight.roll_initiative(SeededDice(7))
    fight.start(SeededDice(7))
    seats = SeatsFile.of_campaign(path)
    players = CampaignStore(path, readonly=True)
    made = {"gm": gm, "fight": fight, "seats": seats, "players": players, "pages": []}

    def page(idents):
        seat = seats.give(CHAPEL, "Ana", idents)
        view = PlayerView(players, CHAPEL, follow=False, seat=seat, seats=seats)
        made["pages"].append(view)
        return view

    made["page"] = page
    yield made
    for view in made["pages"]:
        view.close()
    seats.close()
    players.close()
    gm.close()
    LANGUAGE.value = "en"


def actor_of(table):
    """The acolyte whose turn it is (turns passed until one of the players' side acts)."""
    fight = table["fight"]
    while fight.state.combatants[fight.situation.actor].side != "Acolytes":
        fight.next_turn()
    return fight.situation.actor


def test_the_seat_s_combatant_in_full_and_nothing_gm_only(table):
    fight = table["fight"]
    actor = actor_of(table)
    view = table["page"]([actor])
    own = next(c for c in view.view["combatants"] if c.get("own"))
    combatant = fight.state.combatants[actor]
    assert own["name"] == combatant.name
    assert own["wounds"].endswith(f"/{combatant.sheet.wounds}")  # exact, whatever the setting
    assert len(own["sheet"]) > 1  # the sheet, not the name alone
    shown = json.dumps(view.view) + view.table.value + view.header.value
    shown += view.seat_controls.target.options.__repr__()
    for hidden in (c for c in fight.state.combatants.values() if c.hidden):
        assert hidden.name not in shown  # the demagogue stays the GM's
    for combatant in fight.state.combatants.values():
        if combatant.sheet.notes:
            assert combatant.sheet.notes not in shown


def test_on_its_turn_the_phone_offers_the_situation_s_attack_and_its_odds(table):
    fight = table["fight"]
    actor = actor_of(table)
    view = table["page"]([actor])
    controls = view.seat_controls
    name = fight.state.combatants[actor].name
    assert f"Your turn: {name}" in controls.cue.value
    default = fight.situation.default_attack_of(actor)
    assert controls.target.value == default.target
    assert "%</b> hit" in controls.odds.value
    assert default.weapon in controls.odds.value
    labels = [button.description for button in controls.actions.children]
    assert "Aim" in labels
    assert controls.end_button.layout.display == ""
    LANGUAGE.value = "es"  # the weapon's name as the data names it in Spanish
    assert named("dark_heresy", default.weapon, "es") in controls.odds.value
    assert "%</b> impacto" in controls.odds.value


def test_a_press_is_a_request_the_gm_answers_and_the_phone_says_so(table):
    fight = table["fight"]
    actor = actor_of(table)
    view = table["page"]([actor])
    controls = view.seat_controls
    controls.dice.value = "34 7"
    assert controls.send_attack()
    assert "Sent: the GM decides" in controls.said.value
    assert "Attack: <b>waiting for the GM</b>" in controls.answers.value
    before = len(fight.events)
    inbox = Inbox(fight, table["seats"])
    (asked,) = inbox.asked()
    assert asked.intent.dice == (34, 7)
    inbox.refuse(asked.request.id, "measure the distance first")
    view.poll()
    assert "<b>refused</b> (measure the distance first)" in controls.answers.value
    assert len(fight.events) == before  # nothing written to the fight by the phone
    assert controls.said.value == ""  # "sent" said its part: the answer is listed
    LANGUAGE.value = "es"
    assert controls.end_turn()
    assert render(Message("widgets.seat_sent"), "es") in controls.said.value
    LANGUAGE.value = "en"  # what was said is said again in the page's language
    assert "Sent: the GM decides" in controls.said.value
    LANGUAGE.value = "es"
    inbox.accept(inbox.asked()[0].request.id)
    view.poll()
    assert "Fin de turno: <b>aceptada</b>" in controls.answers.value
    assert fight.situation.actor != actor
    assert "Tu turno" not in controls.cue.value


def test_not_its_turn_nothing_to_press(table):
    fight = table["fight"]
    other = next(c.id for c in fight.state.present if c.id != actor_of(table) and not c.hidden)
    view = table["page"]([other])
    controls = view.seat_controls
    assert controls.cue.value == ""
    assert controls.attack_box.layout.display == "none"
    assert controls.actions.children == ()
    assert controls.end_button.layout.display == "none"


def test_the_phone_marks_who_has_had_their_go(table):
    fight = table["fight"]
    first = actor_of(table)
    view = table["page"]([first])
    name = fight.state.combatants[first].name
    assert name not in view.view["acted"]
    fight.next_turn()
    view.poll()
    row = next(r for r in view.table.value.split("<tr") if f">{name}" in r)
    assert "gmkit-acted" in row
    assert name in view.view["acted"]


def test_the_phone_chooses_weapon_mode_and_target_as_the_gm_s_panel_offers_them(table):
    """Jessa Kell's autopistol fires single, semi or full auto: the phone offers what the
    GM's attack panel offers her (the same form below), the odds follow the choice, and the
    request carries it. The turn coming to her buzzes her phone once."""
    fight = table["fight"]
    while fight.state.combatants[fight.situation.actor].name != "Jessa Kell":
        fight.next_turn()
    jessa = fight.situation.actor
    view = table["page"]([jessa])
    controls = view.seat_controls
    chooser = controls.attack_box
    assert controls.buzz.buzzed == 1  # her turn: the phone vibrates once
    view.poll()
    assert controls.buzz.buzzed == 1
    gm = AttackForm(fight)
    gm.select_attacker(jessa)
    assert [value for _, value in chooser.weapon.options] == list(gm.offered.weapons)
    assert [value for _, value in chooser.mode.options] == [c.id for c in gm.offered.modes]
    single = chooser.odds.value
    chooser.mode.value = "full"
    gm.select_mode("full")
    assert chooser.form.mode == "full"
    assert [value for _, value in chooser.action.options] == [c.id for c in gm.offered.actions]
    assert chooser.odds.value != single  # the odds of full auto, not of a single shot
    hidden = {c.id for c in fight.state.present if c.hidden}
    targets = {value for _, value in chooser.target.options}
    assert targets
    assert not targets & hidden
    assert all(fight.state.combatants[t].side != "Acolytes" for t in targets)
    chooser.weapon.value = "Shotgun"
    assert chooser.form.weapon == "Shotgun"
    assert "Shotgun" in chooser.odds.value
    controls.dice.value = "12 4 5"
    assert controls.send_attack()
    (asked,) = Inbox(fight, table["seats"]).asked()
    assert (asked.intent.weapon, asked.intent.dice) == ("Shotgun", (12, 4, 5))
    assert asked.why_not == ""
