"""The player view: built from the projection alone, following the GM's campaign file."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import ipywidgets as widgets
import pytest

from gmkit.campaign import prepare_encounter
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter, event_text
from gmkit.store import CampaignStore
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._player import Follower, PlayerView, player_html, public_log

CHAPEL = "The Chapel of the Pale Throne"
# Typed initiative: Marr 14, Tull 12, Kell 11, Lorn 10, Fenn 9, Ban 8, Hesk 7, Ostrava 4.
INITIATIVE = [9, 10, 6, 7, 1, 5, 4, 8]
SECRETS = [
    "Ostrava",  # hidden
    "Knows the acolytes are coming",  # a sheet's GM notes
    "waits behind the altar",  # the encounter's GM note
    "Stub Automatic",  # an enemy's weapon
    "Melee Weapon Training (Primitive)",  # an enemy's talents (the acolytes' friendly sheets
    # list it too: see visible_secrets below)
    "8/8",  # an enemy's exact wounds (the GM shows bands)
]


pytestmark = pytest.mark.usefixtures("english")  # tests/conftest.py: English, then again


@pytest.fixture
def campaign(demo_copy: Path) -> Path:
    """A fresh copy of the demo campaign file for each test."""
    return demo_copy


@pytest.fixture
def gm(campaign: Path) -> Iterator[Encounter]:
    with CampaignStore(campaign) as store:
        yield Encounter.open(store, CHAPEL)


@pytest.fixture
def view(campaign: Path) -> Iterator[PlayerView]:
    with CampaignStore(campaign, readonly=True) as store:
        made = PlayerView(store, CHAPEL, follow=False)
        yield made
        made.close()


def states(widget: widgets.Widget) -> str:
    """Every value the view's widget models hold (what would be sent to the browser)."""
    found: list[dict[str, object]] = []

    def walk(node: widgets.Widget) -> None:
        found.append(node.get_state())
        for child in getattr(node, "children", ()):
            walk(child)

    walk(widget)
    return json.dumps(found, ensure_ascii=False, default=str)


def start(gm: Encounter) -> None:
    gm.roll_initiative(EnteredDice(INITIATIVE))
    gm.start()


def test_the_view_shows_the_round_the_turn_and_the_visible_combatants(view, gm):
    sent = states(view)
    assert "Round" in sent
    for name in ("Sergeant Varro Tull", "Ilse Marr", "Cultist Ban", "Cultist Lorn"):
        assert name in sent
    start(gm)
    assert view.poll() is True
    assert view.round == 1
    assert view.current == "Ilse Marr"
    assert "Turn: <span class='gmkit-now'>Ilse Marr</span>" in view.header.value
    assert "<span class='gmkit-player-sep'> · </span>" in view.header.value  # not on a phone


def test_no_gm_only_value_is_in_any_widget(view, gm):
    start(gm)
    gm.attack("Ilse Marr", "Laspistol", "Cultist Ban", EnteredDice([20, 3]))
    gm.note("The vestry door is trapped.")  # the GM's only
    gm.next_turn()
    gm.attack("Sergeant Varro Tull", "Lasgun", "Cultist Hesk", EnteredDice([10, 9]), secret=True)
    secret = event_text(gm.events[-1])
    view.poll()
    sent = states(view)
    assert "Ilse Marr attacks Cultist Ban with Laspistol: hits" in sent  # public events reach them
    for value in [*SECRETS[:4], "8/8", "vestry", secret]:
        assert value not in sent, value
    assert "hurt" in sent or "bloodied" in sent  # Ban's wounds as a band


def test_enemy_sheets_are_absent_but_the_players_own_sheets_are_there(view):
    sent = states(view)
    assert "Lasgun" in sent  # the sergeant's own sheet: the players know it
    assert "Stub Automatic" not in sent
    assert "Autogun" not in sent
    assert "WS 28, BS 25" not in sent


def test_the_gm_s_wounds_setting_is_followed(view, gm):
    gm.set("enemy_wounds", "exact")
    view.poll()
    assert "8/8" in view.table.value
    gm.set("enemy_wounds", "hidden")
    view.poll()
    row = next(r for r in view.table.value.split("<tr") if "Cultist Ban" in r)
    assert "8/8" not in row
    assert "unhurt" not in row
    assert "–" in row


def test_revealing_shows_the_hidden_combatant(view, gm):
    assert "Ostrava" not in states(view)
    gm.reveal("Demagogue Ostrava")
    view.poll()
    assert "Demagogue Ostrava" in view.table.value


def test_undo_is_followed(view, gm):
    start(gm)
    gm.attack("Ilse Marr", "Laspistol", "Cultist Ban", EnteredDice([20, 3]))
    view.poll()
    assert view.log_lines
    gm.undo()
    assert view.poll() is True
    assert view.log_lines == []


def test_player_sides_given_apply_when_the_gm_has_set_none(campaign):
    with CampaignStore(campaign) as store:
        roster = next(r for r in store.rosters() if r.game == "dark_heresy")
        prepare_encounter(store, "Unprepared", "dark_heresy", roster.sheets)
    with CampaignStore(campaign, readonly=True) as store:
        view = PlayerView(store, "Unprepared", player_sides=("Pale Throne cult",), follow=False)
        try:
            assert "Stub Automatic" in states(view)  # the cult's players see their sheets
            assert "Lasgun" not in states(view)  # and not the acolytes'
        finally:
            view.close()


def test_poll_without_news_changes_nothing(view):
    before = view.table.value
    assert view.poll() is False
    assert view.table.value == before


def test_the_follower_polls_on_the_running_loop_and_stops(campaign, in_fresh_thread):
    async def scenario() -> tuple[int, int, bool]:
        with CampaignStore(campaign, readonly=True) as reader, CampaignStore(campaign) as writer:
            view = PlayerView(reader, CHAPEL, interval=0.05)
            assert view.follower.running
            gm = Encounter.open(writer, CHAPEL)
            start(gm)
            for _ in range(100):  # the view follows within a few polls
                await asyncio.sleep(0.05)
                if view.round == 1:
                    break
            seen = view.round
            task = view.follower.task
            view.close()
            stopped = not view.follower.running
            with contextlib.suppress(asyncio.CancelledError):
                await task  # its task over: it can poll no more
            gm.next_turn()
            # a witness polling at the view's interval: three of its polls after the turn, a
            # view still following would have read it
            ticks: list[int] = []
            witness = Follower(lambda: ticks.append(1), interval=0.05)
            witness.start()
            for _ in range(200):
                await asyncio.sleep(0.05)
                if len(ticks) >= 3:
                    break
            witness.stop()
            assert len(ticks) >= 3
            return seen, view.events, stopped

    seen, events, stopped = in_fresh_thread(scenario)
    assert seen == 1
    assert stopped
    assert events == 12  # 10 prepared + initiative + start: nothing read after close


def test_the_follower_outside_a_loop_does_not_start(in_fresh_thread):
    follower = Follower(lambda: None)
    assert in_fresh_thread(follower.start) is False
    assert not follower.running
    follower.stop()  # harmless


def test_a_failing_poll_is_counted_and_the_follower_goes_on(in_fresh_thread):
    calls: list[int] = []

    def flaky() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise OSError("busy")

    async def scenario() -> Follower:
        follower = Follower(flaky, interval=0.01)
        follower.start()
        for _ in range(500):  # polls after the failed one
            await asyncio.sleep(0.01)
            if len(calls) > 2:
                break
        follower.stop()
        return follower

    follower = in_fresh_thread(scenario)
    assert follower.errors == 1
    assert len(calls) > 2


def test_public_log_keeps_public_texts_newest_first():
    events = [
        {"kind": "attack", "summary": "A hits B", "visibility": "public"},
        {"kind": "attack", "summary": "secret", "visibility": "gm"},
        {"kind": "note", "text": "the bridge shakes", "visibility": "public"},
        {"kind": "turn", "direction": 1},
    ]
    assert public_log(events) == ["the bridge shakes", "A hits B"]


def test_spanish_labels(view):
    LANGUAGE.value = "es"
    assert "Asalto" in view.header.value
    assert "Heridas" in view.table.value


def test_the_language_switch_shows_the_page_in_spanish(view):
    assert view.languages.options == (("English", "en"), ("Español", "es"))
    view.languages.value = "es"  # what a player's click on Español does
    assert LANGUAGE.value == "es"
    assert "Asalto" in view.header.value
    assert "data-label='Heridas'" in view.table.value
    assert "<th>Estados</th>" in view.table.value
    view.set_language("en")
    assert view.languages.value == "en"
    assert "Round" in view.header.value
    with pytest.raises(ValueError, match="language: 'fr' is not one of"):
        view.set_language("fr")


def test_conditions_show_by_name_and_duration_in_the_page_s_language(view, gm):
    start(gm)
    gm.add_condition("Cultist Ban", "stunned", rounds=2)
    gm.add_condition("Cultist Ban", "on_fire")
    view.poll()
    row = next(r for r in view.table.value.split("<tr") if "Cultist Ban" in r)
    assert "On fire, Stunned (2 rounds)" in row
    assert "on_fire" not in row
    view.set_language("es")
    row = next(r for r in view.table.value.split("<tr") if "Cultist Ban" in r)
    assert "En llamas, Aturdido (2 asaltos)" in row


def test_every_cell_carries_its_column_s_label_for_the_phone_cards(view):
    table = view.table.value
    rows = table.count("<tr ") - 1  # less the heads' row
    assert rows == 7  # the chapel's visible combatants (Ostrava hidden)
    for label in ("Character", "Side", "Wounds", "Conditions"):
        assert table.count(f"data-label='{label}'") == rows
    assert "<tr class='gmkit-player-heads'>" in table


def test_a_hidden_combatant_s_turn_reads_an_enemy_acts():
    view = {"round": 2, "current": None, "hidden_turn": True, "current_side": None}
    view |= {"order": ["Ilse Marr"], "combatants": [{"name": "Ilse Marr", "side": "Acolytes"}]}
    header, table = player_html(view, "en")
    assert "Round <span class='gmkit-now'>2</span>" in header
    assert "Turn: <span class='gmkit-now gmkit-enemy-acts'>An enemy acts</span>" in header
    assert "gmkit-current" not in table
    header, _table = player_html(view, "es")
    assert "Turno: <span class='gmkit-now gmkit-enemy-acts'>Actúa un enemigo</span>" in header


def test_a_friend_s_folded_sheet_is_labelled_in_the_page_s_language(view):
    row = next(r for r in view.table.value.split("<tr") if "Ilse Marr" in r)
    assert "<b>Characteristics</b> WS 41, BS 36" in row
    assert "<b>Weapons</b> Laspistol, Sword" in row
    assert "<b>Fate points</b> 2" in row
    for bookkeeping in ("minion", "critical", "fatigue", "unnatural", "False"):
        assert bookkeeping not in row
    view.set_language("es")
    row = next(r for r in view.table.value.split("<tr") if "Ilse Marr" in r)
    # the Spanish books' abbreviations and the data's Spanish names (issue 21)
    assert "<summary>Hoja</summary><b>Características</b> HA 41, HP 36" in row
    assert "<b>Armas</b> Pistola láser, Espada" in row
    assert "<b>Armadura</b> Chaleco de malla" in row
    assert "Weapons" not in row
