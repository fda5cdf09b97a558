"""The log: undo and redo at any depth, serialisable events, the combat log and summaries as
DataFrames, and the campaign store (every command written, replayed exactly, followed by a
reader on a second connection)."""

from __future__ import annotations

import json
import math

import pytest

from gmkit.dice import EnteredDice, SeededDice
from gmkit.encounter import Encounter, EncounterState
from gmkit.errors import GmkitError
from gmkit.store import CampaignStore, StoreError


def scripted(fight: Encounter, sheets) -> list[EncounterState]:
    """A short fight of every kind of command; the state after each one."""
    states = [fight.state]

    def did(*_: object) -> None:
        states.append(fight.state)

    did(fight.add(sheets[0]))
    did(fight.add(sheets[1], group="team"))
    did(fight.add(sheets[-1], hidden=True))
    did(fight.roll_initiative(EnteredDice([3, 9, "0"])))
    did(fight.start(SeededDice(5)))
    current = fight.state.current.id
    did(fight.spend(current, "half", action="aim"))
    did(fight.add_condition(current, "aiming", rounds=1, ticks="start_of_turn"))
    did(fight.note("the cult leader is a psyker"))
    did(fight.note("the lights go out", gm_only=False))
    did(fight.next_turn())
    did(fight.rename(fight.state.current.id, "Renamed"))
    did(fight.set("enemy_wounds", "exact"))
    did(fight.declare_trigger(current, "overwatch"))
    did(fight.next_turn())
    did(fight.next_turn())
    did(fight.remove(current))
    did(fight.revive(current))
    return states


def test_undo_and_redo_at_any_depth_give_the_states_exactly(demo_sheets, refused):
    fight = Encounter("dark_heresy")
    refused(fight, fight.undo, "undo: there is nothing to undo")
    states = scripted(fight, demo_sheets["dark_heresy"])
    for depth in range(len(states) - 1, 0, -1):
        assert fight.undo() == states[depth - 1]
        assert fight.state == states[depth - 1]
    assert fight.state == EncounterState("dark_heresy")
    assert not fight.can_undo
    refused(fight, fight.undo, "nothing to undo")
    for depth in range(1, len(states)):
        assert fight.redo() == states[depth]
    refused(fight, fight.redo, "redo: there is nothing to redo")
    assert fight.state == states[-1]
    markers = [e["kind"] for e in fight.events if e["kind"] in ("undo", "redo")]
    assert markers == ["undo"] * (len(states) - 1) + ["redo"] * (len(states) - 1)
    assert len(fight.effective_events) == len(states) - 1


def test_a_new_command_after_undo_drops_the_redo_stack(demo_sheets, refused):
    fight = Encounter("wfrp2")
    fight.add(demo_sheets["wfrp2"][0])
    fight.add(demo_sheets["wfrp2"][1])
    fight.undo()
    assert fight.can_redo
    fight.note("a different path")
    assert not fight.can_redo
    refused(fight, fight.redo, "nothing to redo")
    assert [e["kind"] for e in fight.effective_events] == ["added", "note"]


def test_events_are_plain_json_and_a_value_json_cannot_hold_is_refused(demo_sheets, refused):
    fight = Encounter("deathwatch")
    fight.add(demo_sheets["deathwatch"][0])
    fight.set("player_sides", ("Kill-team Aquila",))  # a tuple is kept as the store keeps it
    assert fight.state.settings["player_sides"] == ["Kill-team Aquila"]
    refused(fight, lambda: fight.set("player_sides", object()), "setting: not a serialisable")
    refused(fight, lambda: fight.set("skip_fallen", math.nan), "setting: not a serialisable")
    refused(fight, lambda: fight.set("enemy_wounds", "vague"), "enemy_wounds: 'vague' is not")
    refused(fight, lambda: fight.set("player_sides", "Kill-team"), "player_sides: must be")
    for event in fight.events:
        assert json.loads(json.dumps(event)) == event


def test_edit_sheet_is_validated_and_names_the_field(demo_sheets, refused):
    fight = Encounter("dark_heresy")
    tull = fight.add(demo_sheets["dark_heresy"][0])
    fight.edit_sheet(tull, damage=5)
    assert fight.state.combatant(tull).sheet.wounds_remaining == 8
    assert fight.effective_events[-1]["visibility"] == "gm"
    error = refused(fight, lambda: fight.edit_sheet(tull, damage=-1), "damage")
    assert "Sergeant Varro Tull" in str(error)
    refused(fight, lambda: fight.edit_sheet(tull, game="wfrp2"), "stays a dark_heresy sheet")
    refused(fight, lambda: fight.add(demo_sheets["wfrp2"][0]), "is a wfrp2 sheet, not")
    refused(fight, lambda: fight.add(demo_sheets["dark_heresy"][1], ident=tull), "already in")


def test_the_combat_log_frame(demo_sheets):
    fight = Encounter("dark_heresy")
    ilse = fight.add(demo_sheets["dark_heresy"][1])  # Ilse Marr, AgB 4
    ban = fight.add(demo_sheets["dark_heresy"][5])  # Cultist Ban, AgB 3
    fight.roll_initiative(EnteredDice([6]), ids=[ilse])
    fight.roll_initiative(SeededDice(3), ids=[ban])
    fight.start(EnteredDice([]))
    fight.note("Ban is the informant")
    fight.spend(fight.state.current.id, "half", action="aim")
    fight.next_turn()
    fight.undo()
    frame = fight.log_frame()
    assert list(frame.columns) == [
        "event",
        "round",
        "turn",
        "kind",
        "actor",
        "target",
        "rolls",
        "dice",
        "outcome",
        "visibility",
    ]
    assert frame["kind"].tolist() == [
        "added",
        "added",
        "initiative",
        "initiative",
        "started",
        "note",
        "spent",
    ]
    assert frame["event"].tolist() == list(range(1, 8))
    assert frame["round"].tolist() == [0, 0, 0, 0, 0, 1, 1]  # the round the event happened in
    first = fight.state.current.name
    assert frame["turn"].tolist()[-2:] == [first, first]
    assert frame["actor"].tolist()[:4] == ["Ilse Marr", "Cultist Ban", "Ilse Marr", "Cultist Ban"]
    assert frame.loc[2, "rolls"] == "d10=6*"
    assert frame.loc[2, "dice"] == "physical"
    seeded = fight.effective_events[3]["entries"][0]["roll"]["value"]
    assert frame.loc[3, "rolls"] == f"d10={seeded}"
    assert frame.loc[3, "dice"] == "digital"
    assert frame.loc[5, "outcome"] == "Ban is the informant"
    assert frame["visibility"].tolist() == ["public"] * 5 + ["gm", "public"]


def test_the_summary_frame_has_a_row_per_combatant(demo_sheets):
    fight = Encounter("wfrp2")
    fight.add_many(demo_sheets["wfrp2"][:3])
    frame = fight.summary_frame()
    assert frame["name"].tolist() == [s.name for s in demo_sheets["wfrp2"][:3]]
    assert frame["attacks"].tolist() == [0, 0, 0]
    assert frame["dice luck"].isna().all()


# --- the store ---------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path):
    with CampaignStore(tmp_path / "campaign.gmkit", create=True) as opened:
        yield opened


def test_every_command_is_written_and_open_replays_it_exactly(store, tmp_path, demo_sheets):
    fight = Encounter.create(store, "chapel raid", "dark_heresy")
    states = scripted(fight, demo_sheets["dark_heresy"])
    fight.undo()
    fight.undo()
    fight.redo()
    assert fight.state == states[-2]
    stored = store.events(fight.encounter_id)
    assert [e.payload for e in stored] == list(fight.events)
    assert [e.seq for e in stored] == list(range(1, len(fight.events) + 1))

    with CampaignStore(tmp_path / "campaign.gmkit") as again:
        opened = Encounter.open(again, "chapel raid")
        assert opened.game == "dark_heresy"
        assert opened.state == fight.state
        assert opened.events == fight.events
        assert opened.effective_events == fight.effective_events
        assert opened.log_frame().equals(fight.log_frame())
        assert opened.undo() == states[-3]  # its history came back too
        assert fight.refresh() == 1
        assert fight.state == opened.state


def test_a_refused_command_writes_nothing(store, demo_sheets, refused):
    fight = Encounter.create(store, "road", "wfrp2")
    elsa = fight.add(demo_sheets["wfrp2"][1])
    refused(fight, lambda: fight.spend(elsa, "half"), "has not started")
    refused(fight, lambda: fight.set("enemy_wounds", "vague"), "is not one of")
    assert store.last_seq(fight.encounter_id) == 1


def test_a_reader_on_a_second_connection_follows_with_refresh(store, tmp_path, demo_sheets):
    fight = Encounter.create(store, "sump", "necromunda")
    with CampaignStore(tmp_path / "campaign.gmkit") as second:
        reader = Encounter.open(second, "sump")
        seen: list[int] = []
        reader.subscribe(lambda encounter: seen.append(encounter.state.events))
        assert reader.refresh() == 0
        fight.add_many(demo_sheets["necromunda"][:3])
        fight.start()
        fight.next_turn()
        assert reader.refresh() == 5
        assert reader.state == fight.state
        assert seen == [5]
        fight.undo()
        fight.add_condition(demo_sheets["necromunda"][0].name, "pinned", rounds=1)
        assert reader.refresh() == 2
        assert reader.state == fight.state
        assert reader.events == fight.events
        assert reader.refresh() == 0
        assert seen == [5, 5]


def test_a_stale_writer_is_refused_by_the_store(store, tmp_path, demo_sheets):
    fight = Encounter.create(store, "ford", "wfb6")
    fight.add(demo_sheets["wfb6"][0])
    with CampaignStore(tmp_path / "campaign.gmkit") as second:
        other = Encounter.open(second, "ford")
        other.note("written elsewhere")
        before = fight.state
        with pytest.raises(StoreError, match="another tab or notebook changed the fight 'ford'"):
            fight.note("lost")
        assert fight.state is before
        assert fight.refresh() == 1
        assert fight.effective_events[-1]["text"] == "written elsewhere"


def test_create_refuses_an_unknown_game_or_a_taken_name(store):
    Encounter.create(store, "raid", "deathwatch")
    with pytest.raises(StoreError, match="exists already"):
        Encounter.create(store, "raid", "deathwatch")
    with pytest.raises(GmkitError, match="unknown game 'monopoly'; known: dark_heresy"):
        Encounter("monopoly")
