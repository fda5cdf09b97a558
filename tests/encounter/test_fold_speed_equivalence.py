"""The fold made faster folds exactly as before: every state of a scripted fight of each game,
and every event, digest to what the fold gave before issue 14 (pinned here); the campaign
file's open (the events decoded once by the open check, the long log folded without the
garbage collector) replays to exactly the live states; so does a refresh after a write."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from gmkit.encounter import Encounter
from gmkit.encounter._log import EventLog
from gmkit.store import CampaignStore

from .fold_fights import GAMES, fingerprint, play

# fingerprint(states, events) of play(game), as the fold before issue 14 gave them
BEFORE = {
    "necromunda": (203, "90007d0b8b8d1d02"),
    # the 40k sheets' size and sealed armour (issue 21) are in every state and "added" event
    "dark_heresy": (195, "8589e7ff2c633810"),
    # a hit on a horde whose least damage roll still damages rolls no die (issue 21, item 13):
    # the seeded dice after it fall otherwise
    "deathwatch": (217, "e737f5a61a338c27"),
    # a weapon in a step names itself (common.named, shown in the reader's language; issue 21,
    # item 18), no longer verbatim text: the states are the same, one event's steps differ
    "wfrp2": (195, "44a6710b1e43ee20"),
    "wfb6": (189, "b1b84233874fe2fa"),
}


@pytest.fixture(scope="module")
def fights() -> dict[str, Encounter]:
    return {game: play(game) for game in GAMES}


@pytest.mark.parametrize("game", GAMES)
def test_every_state_is_the_one_the_fold_gave_before(fights, game):
    fight = fights[game]
    assert (len(fight.events), fingerprint(fight._log.states, list(fight.events))) == BEFORE[game]


@pytest.mark.parametrize("game", GAMES)
def test_a_replay_of_the_log_gives_every_state_again(fights, game):
    live = fights[game]._log
    replay = EventLog(game)
    for event in live.raw:
        replay.replay(event)
    assert replay.states == live.states
    assert replay.undone_states == live.undone_states
    assert replay.done == live.done


@pytest.mark.parametrize("game", GAMES)
def test_the_campaign_file_opens_to_the_live_states(tmp_path: Path, game, monkeypatch):
    monkeypatch.setattr("gmkit.encounter._core.BULK", 10)  # the bulk path, on a short log
    path = tmp_path / "campaign.gmk"
    with CampaignStore(path, create=True) as store:
        fight = play(game, fight=Encounter.create(store, "fight", game))
    enabled = gc.isenabled()
    with CampaignStore(path) as store:
        assert sorted(store._decoded) == [1]  # decoded by the open check, served once
        opened = Encounter.open(store, "fight")
        assert store._decoded == {}
        assert gc.isenabled() == enabled
        assert opened._log.states == fight._log.states
        assert opened.events == fight.events
        opened.note("one more")
        assert Encounter.open(store, "fight").state == opened.state  # read from the file


def test_a_write_by_another_process_is_read_from_the_file_not_the_open_check(tmp_path: Path):
    path = tmp_path / "campaign.gmk"
    with CampaignStore(path, create=True) as store:
        play("dark_heresy", steps=20, fight=Encounter.create(store, "fight", "dark_heresy"))
    with CampaignStore(path, readonly=True) as reader:
        checked = len(reader._decoded[1])
        with CampaignStore(path) as writer:
            Encounter.open(writer, "fight").note("written after the reader opened")
        opened = Encounter.open(reader, "fight")
        assert len(opened.events) == checked + 1
        assert opened.events[-1]["text"] == "written after the reader opened"
