"""Rosters in, campaigns and encounters out: exports round-trip through JSON and a new file."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from gmkit.demo import demo_campaign
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.sheets._roster import Campaign, Roster
from gmkit.store import CampaignStore, StoreError


@pytest.fixture(scope="module")
def demo() -> Campaign:
    return demo_campaign()


def play(fight: Encounter, roster: Roster) -> None:
    """A short fight through the commands: adds, initiative, turns, conditions, undo, redo."""
    dice = SeededDice(11)
    ids = fight.add_many(roster.sheets[:4])
    fight.roll_initiative(dice)
    fight.start(dice)
    fight.next_turn()
    fight.add_condition(ids[1], "stunned", rounds=2, reminder="no actions")
    fight.next_turn()
    fight.note("the lights go out", gm_only=False)
    fight.undo()
    fight.redo()
    fight.next_turn()
    fight.undo()


def import_campaign(document: dict[str, Any], path: str) -> CampaignStore:
    """What an import does with an export: a new file holding the same campaign."""
    store = CampaignStore(path, create=True)
    store.save_campaign(Campaign.from_dict(document))
    for exported in document["encounters"]:
        encounter = store.create_encounter(exported["name"], exported["game"])
        for seq, payload in enumerate(exported["events"], start=1):
            store.append_event(encounter, payload, seq=seq)
    return store


def test_rosters_are_imported_as_documents(campaign_at, demo):
    path = campaign_at()
    with CampaignStore(path, create=True) as store:
        for roster in demo.rosters:
            store.save_roster(Roster.from_dict(json.loads(json.dumps(roster.to_dict()))))
        assert store.rosters() == list(demo.rosters)
        # Saving a roster again replaces it in its place.
        changed = Roster(demo.rosters[1].title, demo.rosters[1].game, demo.rosters[1].sheets[:1])
        store.save_roster(changed)
        assert [r.title for r in store.rosters()] == [r.title for r in demo.rosters]
        assert store.rosters()[1] == changed
    with CampaignStore(path, readonly=True) as reader:
        assert reader.rosters()[1] == changed
        assert reader.rosters()[4] == demo.rosters[4]


def test_a_roster_file_from_yaml_is_imported(campaign_at, demo):
    document = yaml.safe_load(yaml.safe_dump(demo.rosters[0].to_dict(), allow_unicode=True))
    with CampaignStore(campaign_at("c"), create=True) as store:
        store.save_roster(Roster.from_dict(document))
        assert store.rosters() == [demo.rosters[0]]


def test_the_demo_campaign_round_trips(campaign_at, demo):
    with CampaignStore(campaign_at("c"), create=True) as store:
        store.save_campaign(demo)
        assert store.name == demo.name
        assert store.campaign() == demo
        # save_campaign replaces the rosters and keeps the encounters
        encounter = store.create_encounter("kept", "wfb6")
        store.save_campaign(Campaign("renamed", demo.rosters[:2]))
        assert store.campaign() == Campaign("renamed", demo.rosters[:2])
        assert store.encounter_id("kept") == encounter


def test_a_campaign_exports_and_imports_whole(campaign_at, demo):
    with CampaignStore(campaign_at("first"), create=True) as store:
        store.save_campaign(demo)
        for roster in demo.rosters[1:4]:  # the three initiative games
            play(Encounter.create(store, f"fight: {roster.title}", roster.game), roster)
        empty = Encounter.create(store, "not yet played", "necromunda")
        assert empty.events == ()
        exported = store.export_campaign()
        fights = {info.name: Encounter.open(store, info.name) for info in store.encounters()}
    text = json.dumps(exported, ensure_ascii=False)
    document = json.loads(text)
    assert document == exported
    assert document["name"] == demo.name
    assert [e["name"] for e in document["encounters"]] == list(fights)
    assert [len(e["events"]) for e in document["encounters"]] == [14, 14, 14, 0]
    with import_campaign(document, campaign_at("second")) as again:
        assert again.campaign() == demo
        assert again.export_campaign() == exported
        for name, fight in fights.items():
            reopened = Encounter.open(again, name)
            assert reopened.game == fight.game
            assert reopened.events == fight.events
            assert reopened.state == fight.state
            assert reopened.player_view() == fight.player_view()


def test_a_single_encounter_exports_and_imports(campaign_at, demo):
    roster = demo.rosters[2]
    with CampaignStore(campaign_at("first"), create=True) as store:
        fight = Encounter.create(store, "the breach", roster.game)
        play(fight, roster)
        exported = store.export_encounter(fight.encounter_id or 0)
        with pytest.raises(StoreError, match="no encounter 99"):
            store.export_encounter(99)
    assert exported["name"] == "the breach"
    assert exported["game"] == roster.game
    assert exported["events"] == [json.loads(json.dumps(e)) for e in fight.events]
    document = json.loads(json.dumps(exported))
    with import_campaign(
        {"name": "x", "rosters": [], "encounters": [document]}, campaign_at("second")
    ) as s:
        reopened = Encounter.open(s, "the breach")
        assert reopened.state == fight.state
        assert s.export_encounter(reopened.encounter_id or 0) == exported


def test_encounter_names_are_unique(campaign_at):
    with CampaignStore(campaign_at("c"), create=True) as store:
        store.create_encounter("bridge", "wfrp2")
        with pytest.raises(StoreError, match="'bridge' exists already"):
            store.create_encounter("bridge", "wfrp2")
        with pytest.raises(StoreError, match="no encounter named 'river'"):
            store.encounter_id("river")
        assert [e.name for e in store.encounters()] == ["bridge"]


def test_a_campaign_with_two_rosters_of_one_title_is_refused(campaign_at, demo):
    twice = Campaign("twice", (demo.rosters[0], demo.rosters[1], demo.rosters[0]))
    with CampaignStore(campaign_at("c"), create=True) as store:
        store.save_campaign(demo)
        with pytest.raises(StoreError, match="two rosters titled 'Ambush at the Sump Pipes'"):
            store.save_campaign(twice)
        assert store.campaign() == demo
