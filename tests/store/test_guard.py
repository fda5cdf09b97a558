"""The expected-seq guard: a writer that is behind (or ahead) is refused and writes nothing."""

from __future__ import annotations

import sqlite3

import pytest

from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.store import CampaignStore, EncounterGone, StoreError


def raw_events(path) -> list[tuple[int, int, str, str]]:
    """Every stored event row, timestamps included, read past the store."""
    connection = sqlite3.connect(path)
    try:
        return connection.execute("SELECT * FROM events ORDER BY encounter, seq").fetchall()
    finally:
        connection.close()


def test_a_second_writer_with_a_stale_seq_is_refused(filled_campaign):
    with CampaignStore(filled_campaign) as first, CampaignStore(filled_campaign) as second:
        encounter = first.encounter_id("sump ambush")
        assert second.last_seq(encounter) == 40  # the second writer reads, then falls behind
        first.append_event(encounter, {"kind": "note", "by": "first"}, seq=41)
        before = raw_events(filled_campaign)
        for seq in (41, 40, 1, 43, 0, -1):
            with pytest.raises(StoreError) as caught:
                second.append_event(encounter, {"kind": "note", "by": "second"}, seq=seq)
            message = caught.value.message
            assert message.id == "store.another_writer"  # words, not the sequence numbers
            assert str(caught.value) == (
                "another tab or notebook changed the fight 'sump ambush' after this page read"
                " it; nothing of this command was saved: reload the page"
            )
            assert "recarga la página" in caught.value.render("es")
        assert raw_events(filled_campaign) == before
        assert not second._connection.in_transaction  # rolled back: the file is free
        first.append_event(encounter, {"kind": "note", "by": "first"}, seq=42)
        second.append_event(encounter, {"kind": "note", "by": "second"}, seq=43)
        assert [e.payload.get("by") for e in first.events(encounter, after=40)] == [
            "first",
            "first",
            "second",
        ]


def test_a_stale_writer_process_is_refused(filled_campaign, spawn):
    before = filled_campaign.read_bytes()
    process = spawn("stale", filled_campaign, 1, 40)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert out.startswith("refused: ")
    assert "another tab or notebook changed the fight" in out
    assert err == ""
    with CampaignStore(filled_campaign) as store:
        assert store.last_seq(1) == 40
    assert filled_campaign.read_bytes() == before


def test_appending_to_a_missing_encounter_is_refused(filled_campaign):
    with CampaignStore(filled_campaign) as store:
        with pytest.raises(EncounterGone, match="no longer in the campaign file"):
            store.append_event(7, {"kind": "note"}, seq=1)
        assert not store._connection.in_transaction
        assert [info.id for info in store.encounters()] == [1]


def test_two_dashboards_on_one_encounter(tmp_path):
    """The GM opened the encounter twice: the stale one is refused, changes nothing, and
    follows after refresh()."""
    roster = demo_campaign().rosters[1]
    path = tmp_path / "campaign.gmk"
    with CampaignStore(path, create=True) as one, CampaignStore(path) as two:
        fight = Encounter.create(one, "chapel", roster.game)
        fight.add_many(roster.sheets[:3])
        fight.roll_initiative(EnteredDice([7, 4, 2]))
        fight.start()
        stale = Encounter.open(two, "chapel")
        fight.next_turn()
        state, events = stale.state, stale.events
        rows = raw_events(path)
        with pytest.raises(StoreError, match="another tab or notebook changed the fight"):
            stale.add_condition(stale.state.order[0], "stunned", rounds=1)
        assert (stale.state, stale.events) == (state, events)  # memory untouched too
        assert raw_events(path) == rows
        assert stale.refresh() == 1
        assert stale.state == fight.state
        stale.add_condition(stale.state.order[0], "stunned", rounds=1)
        assert fight.refresh() == 1
        assert fight.state == stale.state
