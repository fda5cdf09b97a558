"""Secrecy gaps (issue 13, item 7), each reproduced as the attack that found it:

- effects typed by hand onto a hidden combatant (``Encounter.apply_effects``) were public, their
  notes too (read by the players once he was revealed); an event touching a hidden combatant
  in any field (an effect's target, a due's bearer, a unit holding it, its name in a note) is
  now the GM's;
- the players' log read "8 damage" against an enemy whose wounds the players see only as a
  band: the log now obeys the same ``enemy_wounds`` setting as the tracker (band or hidden: no
  number of an enemy's wounds or damage; the players' own side, exactly);
- a malformed widget message sent to a players' kernel got a traceback back, naming the
  install's paths: now one line, no path (a real kernel, through jupyter_client).
"""

from __future__ import annotations

import json
import queue
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from gmkit.campaign import demo_campaign_file
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.encounter._secrecy import name_forms, touched
from gmkit.encounter._views import kept_hidden, public_events
from gmkit.store import CampaignStore
from gmkit.systems.base import Effect
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._player import PlayerView, public_log
from gmkit.widgets._player_notebook import export_player_notebook

CHAPEL = "The Chapel of the Pale Throne"
HIDDEN = "Demagogue Ostrava"
NOTE = "the warp burns him from within"  # the GM's note on effects typed onto the hidden one
ROOT = str(Path(__file__).resolve().parents[2])


@pytest.fixture
def chapel(tmp_path: Path) -> Any:
    """The demo's chapel (its demagogue hidden, the Acolytes the players' side) in a campaign
    file of the test's own, started: initiative typed in roster order (Tull first)."""
    campaign = demo_campaign_file(tmp_path)
    with CampaignStore(campaign) as store:
        fight = Encounter.open(store, CHAPEL)
        for number, combatant in enumerate(list(fight.state.combatants.values())):
            fight.set_initiative(combatant.id, 30 - number)
        fight.start()
        yield fight


def log_of(fight: Encounter) -> list[str]:
    """The players' log as the players' page builds it (PlayerView._render)."""
    hidden = [c.id for c in fight.state.combatants.values() if c.hidden]
    return public_log(fight.effective_events, hidden=hidden, state=fight.state)


# --- an event's visibility follows every combatant it touches ------------------------------


def test_effects_typed_onto_a_hidden_combatant_are_the_gms_note_and_all(chapel):
    chapel.apply_effects([Effect("damage", HIDDEN, amount=3)], note=NOTE)
    event = chapel.effective_events[-1]
    assert event["kind"] == "effects"
    assert event["visibility"] == "gm"
    chapel.reveal(HIDDEN)  # revealed later: what was the GM's stays the GM's
    assert chapel.effective_events[-1]["visibility"] == "public"
    assert NOTE not in json.dumps(public_events(chapel.effective_events, hidden=[]))
    assert all(NOTE not in line for line in log_of(chapel))


def test_effects_on_a_visible_and_a_hidden_one_are_the_gms(chapel):
    chapel.apply_effects(
        [Effect("damage", "Cultist Ban", amount=1), Effect("damage", HIDDEN, amount=2)]
    )
    assert chapel.effective_events[-1]["visibility"] == "gm"
    chapel.apply_effects([Effect("damage", "Cultist Ban", amount=1)])  # touching no hidden one
    assert chapel.effective_events[-1]["visibility"] == "public"


@pytest.mark.parametrize(
    "text",
    [
        "Demagogue Ostrava watches from the gallery",
        "DEMAGOGUE OSTRAVA watches",  # any case
        "demagogue-ostrava",  # his id
        "Ostrava watches from the gallery",  # his surname alone (issue 27, item 6)
        "the Demagogue laughs",  # the first word of his name alone
        "Demagogue  Ostrava laughs",  # doubled spaces
        "Demagogue\u00a0Ostrava laughs",  # a no-break space
        "Demagogue\tOstrava laughs",  # a tab
        "a plan of demagogue-ostrava's",  # his id inside a text
    ],
)
def test_a_note_naming_a_hidden_combatant_is_the_gms_even_made_public(chapel, text):
    chapel.note(text, gm_only=False)
    assert chapel.effective_events[-1]["visibility"] == "gm"
    assert all(text not in line for line in log_of(chapel))


def test_a_word_other_names_share_or_a_particle_names_no_one() -> None:
    everyone = {
        "ganger-1": ["Ganger 1"],
        "ganger-5": ["Ganger 5"],
        "gor": ["Gor the Bloody"],
        "ilse": ["Ilse Marr"],
    }
    forms = name_forms({"ganger-5": ["Ganger 5"], "gor": ["Gor the Bloody"]}, everyone)
    assert forms == {
        "ganger-5": ["Ganger 5", "ganger-5"],  # not "Ganger": Ganger 1 is a ganger too
        "gor": ["Gor the Bloody", "gor", "bloody"],  # not "the"; "Gor" is the id already
    }
    names = {"ganger-5": forms["ganger-5"]}
    assert touched({"kind": "note", "text": "Ganger 1 runs"}, names) == set()
    assert touched({"kind": "note", "text": "GANGER\u00a05 runs"}, names) == {"ganger-5"}
    assert touched({"kind": "note", "text": "the door opens"}, {"gor": forms["gor"]}) == set()
    assert touched({"kind": "note", "text": "Bloody!"}, {"gor": forms["gor"]}) == {"gor"}


def test_effects_whose_note_names_a_hidden_one_are_the_gms(chapel):
    chapel.apply_effects([Effect("damage", "Cultist Ban", amount=1)], note=f"{HIDDEN} pushes")
    assert chapel.effective_events[-1]["visibility"] == "gm"


def test_a_public_note_naming_no_hidden_one_stays_public(chapel):
    chapel.note("The bells ring", gm_only=False)
    assert chapel.effective_events[-1]["visibility"] == "public"
    assert log_of(chapel)[0] == "The bells ring"


def test_a_turn_asking_a_roll_of_a_hidden_one_is_the_gms(chapel):
    chapel.add_condition(HIDDEN, "on_fire")  # his turn's start asks him a Willpower test
    while chapel.state.current.name != HIDDEN:
        chapel.next_turn()
    event = chapel.effective_events[-1]
    assert [due["bearer"] for due in event["due"]] == ["demagogue-ostrava"]
    assert event["visibility"] == "gm"


def test_an_event_naming_a_hidden_unit_s_trooper_by_its_unit_is_the_gms(demo_sheets):
    fight = Encounter("wfb6")
    for sheet in demo_sheets["wfb6"]:
        fight.add(sheet, hidden=sheet.name == "Night Goblin Archer")
    fight.set_unit("Archers", trooper="Night Goblin Archer", rank_and_file=10)
    assert fight.effective_events[-1]["visibility"] == "gm"
    fight.set_engaged("Archers")  # names the unit alone
    assert fight.effective_events[-1]["visibility"] == "gm"


def test_a_log_written_before_leaves_out_public_events_touching_a_hidden_one():
    """A campaign file written before the fix keeps such events public: the players' log
    leaves them out all the same, by any field (a nested id, the hidden one's name)."""
    events = (
        {"kind": "added", "id": "x", "hidden": True, "sheet": {"name": "Grey Lord"}},
        {"kind": "renamed", "id": "x", "name": "The Pale Prophet", "visibility": "gm"},
        {"kind": "note", "text": "the grey lord laughs", "visibility": "public"},
        {"kind": "note", "text": "The Pale Prophet sings", "visibility": "public"},
        {"kind": "attack", "attacker": "a", "target": "b", "follow_ups": [{"target": "x"}]},
        {"kind": "note", "text": "the rain falls", "visibility": "public"},
    )
    assert public_events(events) == [events[-1]]


# --- only an attack gives a hidden combatant away (issue 21, item 3) ---------------------

BREACH = "The Breach at Vaxanide"
NOB = "Nob Gritfang"  # hidden in the demo's Deathwatch fight


@pytest.fixture
def breach(tmp_path: Path) -> Any:
    """The demo's Deathwatch breach (its Nob hidden, the kill-team the players' side) in a
    campaign file of the test's own, at the Nob's turn (initiative typed in roster order)."""
    with CampaignStore(demo_campaign_file(tmp_path)) as store:
        fight = Encounter.open(store, BREACH)
        for number, combatant in enumerate(list(fight.state.combatants.values())):
            fight.set_initiative(combatant.id, 30 - number)
        fight.start()
        while fight.state.current.name != NOB:
            fight.next_turn()
        yield fight


def players_page(fight: Encounter) -> str:
    """Everything the players' page of ``fight`` shows (its header, table and log)."""
    view = PlayerView(fight.store, fight.name, follow=False)
    try:
        return view.header.value + view.table.value + view.log_area.value
    finally:
        view.close()


def test_a_hidden_combatant_s_ready_and_half_actions_keep_him_hidden(breach):
    """The Nob's Ready put his name on the players' phones: an action but an attack keeps
    him hidden (the turn panel's actions, and a bare spend of a named action)."""
    breach.spend(NOB, "half", action="ready")
    breach.spend(NOB, "half", action="aim")
    assert breach.combatant(NOB).hidden
    assert [e["visibility"] for e in breach.effective_events[-2:]] == ["gm", "gm"]
    assert NOB not in players_page(breach)
    assert "An enemy acts" in players_page(breach)


def test_a_hidden_combatant_s_action_through_the_rules_keeps_him_hidden(breach):
    breach.act(NOB, "ready")
    assert breach.combatant(NOB).hidden
    assert breach.effective_events[-1]["reveals"] == []
    assert NOB not in players_page(breach)


@pytest.mark.parametrize("setting", ["band", "hidden", "exact"])
def test_a_hidden_attacker_s_attack_reveals_him_and_the_players_read_it(breach, setting):
    """The players watched a brother drop with no log line: the attack that gives the Nob
    away is the players' to read, their own side's wounds exactly (d100 18: hit, right leg;
    d10 7 + 3 Rending, Pen 2: 6 damage after Castor's soak)."""
    breach.set("enemy_wounds", setting)
    breach.attack(NOB, "Ork Choppa", "Brother Castor", EnteredDice([18, 7]), spend=True)
    event = breach.effective_events[-1]
    assert event["reveals"] == ["nob-gritfang"]
    assert event["visibility"] == "public"
    assert not breach.combatant(NOB).hidden
    told = "Nob Gritfang hits Brother Castor once with Ork Choppa: 6 damage"
    assert log_of(breach)[0] == told
    page = players_page(breach)
    assert told in page
    assert "Turn: <span class='gmkit-now'>Nob Gritfang</span>" in page
    LANGUAGE.value = "es"
    try:
        assert log_of(breach)[0].startswith("Nob Gritfang impacta a Brother Castor")
    finally:
        LANGUAGE.value = "en"
    breach.undo()  # taken back: hidden again, the line gone
    assert breach.combatant(NOB).hidden
    assert NOB not in players_page(breach)


def test_a_secret_attack_keeps_the_hidden_attacker_hidden(breach):
    breach.attack(NOB, "Ork Choppa", "Brother Castor", EnteredDice([18, 7]), secret=True)
    assert breach.combatant(NOB).hidden
    assert breach.effective_events[-1]["visibility"] == "gm"
    assert NOB not in players_page(breach)


def test_a_log_written_before_reveals_keeps_its_reveal_on_acting(breach):
    """A log written before ``reveals``: any action but a free one gave the actor away, and
    replays so (the players' view of an old fight does not change)."""
    nob = breach.combatant(NOB).id
    breach._append({"kind": "spent", "id": nob, "pools": {"actions": 1}, "type": "half"})
    assert not breach.combatant(NOB).hidden
    assert kept_hidden(breach.effective_events) == {nob}  # no public event said so
    events = (
        {"kind": "added", "id": "x", "hidden": True, "visibility": "gm"},
        {"kind": "attack", "attacker": "x", "target": "b", "reveals": ["x"], "summary": "X hits"},
    )
    assert kept_hidden(events) == set()
    assert public_events(events) == [events[1]]


# --- the players' log obeys the wound setting --------------------------------------------


@pytest.mark.parametrize("setting", ["exact", "band", "hidden"])
def test_the_players_log_tells_an_enemy_s_wounds_as_the_tracker_does(chapel, setting):
    chapel.set("enemy_wounds", setting)
    chapel.attack("Sergeant Varro Tull", "Lasgun", "Cultist Ban", EnteredDice([5, 8]))
    summary = "Sergeant Varro Tull hits Cultist Ban once with Lasgun: 8 damage"
    assert chapel.effective_events[-1]["visibility"] == "public"
    line = log_of(chapel)[0]
    if setting == "exact":
        assert line == summary
        return
    assert line == "Sergeant Varro Tull attacks Cultist Ban with Lasgun: hits"  # and no more
    LANGUAGE.value = "es"
    try:
        line = log_of(chapel)[0]
    finally:
        LANGUAGE.value = "en"
    assert line.startswith("Sergeant Varro Tull ataca a Cultist Ban con ")
    assert line.endswith(": impacta")


@pytest.mark.parametrize("setting", ["band", "hidden"])
def test_the_players_own_side_is_told_exactly(chapel, setting):
    chapel.set("enemy_wounds", setting)
    chapel.attack("Cultist Ban", "Stub Automatic", "Sergeant Varro Tull", EnteredDice([5, 7]))
    line = log_of(chapel)[0]
    assert line.startswith("Cultist Ban hits Sergeant Varro Tull")
    assert re.search(r"\d+ damage", line), line


def test_effects_typed_onto_a_banded_enemy_say_on_whom_not_how_much(chapel):
    chapel.apply_effects([Effect("damage", "Cultist Ban", amount=4)], note="4 wounds from the fall")
    assert log_of(chapel)[0] == "Effects applied to Cultist Ban"
    chapel.set("enemy_wounds", "exact")
    assert log_of(chapel)[0] == "4 wounds from the fall"


@pytest.mark.parametrize("setting", ["band", "hidden"])
def test_the_page_and_the_exported_notebook_hold_no_enemy_damage(chapel, tmp_path, setting):
    chapel.set("enemy_wounds", setting)
    chapel.attack("Sergeant Varro Tull", "Lasgun", "Cultist Ban", EnteredDice([5, 8]))
    view = PlayerView(chapel.store, CHAPEL, follow=False)
    try:
        assert "Sergeant Varro Tull attacks Cultist Ban with Lasgun: hits" in view.log_area.value
        assert "damage" not in view.log_area.value
        assert "8" not in view.log_area.value
    finally:
        view.close()
    path = export_player_notebook(chapel.store, CHAPEL, tmp_path / "players.ipynb")
    text = path.read_text()
    assert "Sergeant Varro Tull attacks Cultist Ban with Lasgun: hits" in text
    assert "8 damage" not in text


# --- hostile widget messages get no traceback back ---------------------------------------

SETUP = f"""
import sys
from gmkit.campaign import demo_campaign_file, open_campaign
from gmkit.widgets import PlayerView
store = open_campaign(demo_campaign_file({{folder!r}}), readonly=True)
view = PlayerView(store, {CHAPEL!r}, follow=False)
display(view)
"""
SLIDER = {  # a widget the page itself opens (a comm_open to jupyter.widget)
    "_model_module": "@jupyter-widgets/controls",
    "_model_module_version": "2.0.0",
    "_model_name": "IntSliderModel",
    "_view_module": "@jupyter-widgets/controls",
    "_view_module_version": "2.0.0",
    "_view_name": "IntSliderView",
}


def hostile(languages: str) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(message type, content, metadata) of each hostile message: malformed updates of the
    language switch, unknown methods and comms, a widget of an unknown model, a widget the
    page opens then sends a bad value."""
    bad_states: list[Any] = [
        {"method": "update", "state": {"index": "abc"}},
        {"method": "update", "state": {"index": 99}},
        {"method": "update", "state": {"value": "xx"}},
        {"method": "update", "state": {"value": "es"}, "buffer_paths": [["a", "b"]]},
        {"method": "update", "state": "not a mapping"},
        {"method": "update", "state": {"_dom_classes": 5}},
        {"method": "update", "state": {"layout": "IPY_MODEL_nothing"}},
        {"method": "custom", "content": {"x": 1}},
        {"method": "nothing"},
        {"no method": 1},
        "not a mapping",
    ]
    version = {"version": "2.1.0"}
    sent = [("comm_msg", {"comm_id": languages, "data": data}, {}) for data in bad_states]
    sent += [
        ("comm_msg", {"comm_id": "nothing", "data": {"method": "update"}}, {}),
        ("comm_open", {"comm_id": "c1", "target_name": "jupyter.widget", "data": {}}, version),
        (
            "comm_open",
            {"comm_id": "c2", "target_name": "jupyter.widget", "data": {"state": {"a": 1}}},
            version,
        ),
        ("comm_open", {"comm_id": "c3", "target_name": "nothing", "data": {}}, {}),
        (
            "comm_open",
            {"comm_id": "slider", "target_name": "jupyter.widget", "data": {"state": SLIDER}},
            version,
        ),
        ("comm_msg", {"comm_id": "slider", "data": {"method": "update", "state": {"max": []}}}, {}),
        ("comm_msg", {"comm_id": "slider", "data": {"method": "nothing"}}, {}),
        ("comm_close", {"comm_id": "nothing", "data": {}}, {}),
    ]
    return sent


def answers(client: Any, asked: set[str], timeout: float = 60) -> list[dict[str, Any]]:
    """Every message the kernel sent in answer to the ``asked`` ones (by their ids), on iopub
    and the shell channel, once it went idle after each."""
    found: list[dict[str, Any]] = []
    idle: set[str] = set()
    deadline = time.monotonic() + timeout
    while idle != asked and time.monotonic() < deadline:
        try:
            message = client.iopub_channel.get_msg(timeout=1)
        except queue.Empty:
            continue
        parent = message["parent_header"].get("msg_id")
        found.append(message)
        if message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
            idle.add(parent)
    assert idle == asked, f"the kernel answered {len(idle)} of {len(asked)} messages"
    while True:
        try:
            found.append(client.shell_channel.get_msg(timeout=0.5))
        except queue.Empty:
            return found


@pytest.mark.server  # it starts a real kernel (as tests/widgets/test_kernel_order.py)
def test_hostile_comm_messages_get_no_traceback_back(tmp_path):
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")
    try:
        found = client.execute_interactive(
            SETUP.format(folder=str(tmp_path)),
            timeout=120,
            user_expressions={"id": "view.languages.model_id", "exe": "sys.executable"},
            output_hook=lambda message: None,
        )
        assert found["content"]["status"] == "ok", found["content"]
        expressions = found["content"]["user_expressions"]
        assert Path(expressions["exe"]["data"]["text/plain"].strip("'")) == Path(sys.executable)
        languages = expressions["id"]["data"]["text/plain"].strip("'")
        sent = [
            client.session.msg(kind, content, metadata=metadata)
            for kind, content, metadata in hostile(languages)
        ]
        for message in sent:
            client.shell_channel.send(message)
        replies = answers(client, {message["header"]["msg_id"] for message in sent})
        check = client.execute_interactive(  # the kernel answers on: the page still works
            "view.languages.value = 'es'",
            timeout=60,
            user_expressions={"header": "view.header.value"},
            output_hook=lambda message: None,
        )
        assert check["content"]["status"] == "ok"
        assert "Asalto" in check["content"]["user_expressions"]["header"]["data"]["text/plain"]
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    said = [json.dumps(reply["content"], default=str) for reply in replies]
    assert any("was refused (TraitError)" in text for text in said)  # the refusals are said
    assert any("widget was refused" in text and "IntSlider" in text for text in said)
    for text in said:
        assert "Traceback" not in text, text
        assert "/site-packages/" not in text, text
        assert ROOT not in text, text
        assert sys.prefix not in text, text
    assert not [reply for reply in replies if reply["msg_type"] == "error"]
