"""The campaign file from any thread the kernel uses, one writer at a time, and "damaged" only
where a check found damage.

JupyterLab 4.4+ hands widget messages to ipykernel 7 on a subshell thread while cells run on
the main one: the tracker's Next and the panel's Apply failed there with "the file is damaged"
(SQLite refused a connection made on another thread, and every error without SQLite's code was
called damage)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from gmkit._store_check import problem
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.sheets import load_sheet
from gmkit.store import CampaignStore, StoreError


def ganger(name: str) -> Any:
    return load_sheet({"game": "dark_heresy", "npc": "Hive ganger", "name": name})


def test_commands_from_other_threads_are_written_and_read_back(
    campaign_at: Any, in_fresh_thread: Any
) -> None:
    path = campaign_at()
    with CampaignStore(path, create=True) as store:
        fight = Encounter.create(store, "Threads", "dark_heresy")
        fight.add(ganger("Ganger 1"))  # the main thread, as a cell
        in_fresh_thread(lambda: fight.add(ganger("Ganger 2")))  # a subshell, as a click
        in_fresh_thread(lambda: fight.roll_initiative(EnteredDice([5, 7])))
        in_fresh_thread(fight.start)
        for _ in range(3):
            in_fresh_thread(fight.next_turn)
        fight.next_turn()
        in_fresh_thread(fight.undo)
        written = fight.last_seq
        assert written == 9
    with CampaignStore(path, readonly=True) as reader:
        again = Encounter.open(reader, "Threads")
        assert again.last_seq == written
        assert again.state.round == fight.state.round
        assert again.state.turn == fight.state.turn


def test_many_threads_at_once_append_each_event_once_in_order(campaign_at: Any) -> None:
    """Eight threads appending notes at once: every note is in the file once, numbered 1..N
    without a gap (one writer at a time), and the memory agrees with the file."""
    path = campaign_at()
    with CampaignStore(path, create=True) as store:
        fight = Encounter.create(store, "Busy", "dark_heresy")
        start = threading.Barrier(8)

        def notes(worker: int) -> None:
            start.wait()
            for number in range(25):
                fight.note(f"{worker}-{number}")

        threads = [threading.Thread(target=notes, args=(worker,)) for worker in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert fight.last_seq == 200
        in_memory = [event["text"] for event in fight.events]
    with CampaignStore(path, readonly=True) as reader:
        again = Encounter.open(reader, "Busy")
        assert [event["text"] for event in again.events] == in_memory
        assert sorted(in_memory) == sorted(f"{w}-{n}" for w in range(8) for n in range(25))


def test_an_action_on_one_thread_keeps_another_threads_command_out_of_it(
    campaign_at: Any,
) -> None:
    """A command from another thread waits for an open action to end: it is never committed
    with the action's events, nor taken back by its rollback."""
    path = campaign_at()
    with CampaignStore(path, create=True) as store:
        fight = Encounter.create(store, "Action", "dark_heresy")
        inside, other_done = threading.Event(), threading.Event()
        other = threading.Thread(
            target=lambda: (
                inside.wait(timeout=30),
                fight.note("from the other thread"),
                other_done.set(),
            ),
            daemon=True,
        )
        other.start()

        def mistaken_action() -> None:
            with fight.action():
                fight.add(ganger("Ganger 1"))
                inside.set()
                assert not other_done.wait(0.2)  # held out while the action is open
                raise RuntimeError("the GM's mistake")

        with pytest.raises(RuntimeError, match="the GM's mistake"):
            mistaken_action()
        other.join(timeout=30)
        assert other_done.is_set()
        assert [event["kind"] for event in fight.events] == ["note"]
    with CampaignStore(path, readonly=True) as reader:
        assert [e["kind"] for e in Encounter.open(reader, "Action").events] == ["note"]


def test_a_closed_connection_is_not_called_damage(tmp_path: Path) -> None:
    store = CampaignStore(tmp_path / "campaign.gmk", create=True)
    fight = Encounter.create(store, "Closed", "dark_heresy")
    store.close()
    with pytest.raises(StoreError) as caught:
        fight.note("after the close")
    text = caught.value.render("en")
    assert "damaged" not in text
    assert "could not use its connection to the file" in text
    assert "the file itself was not touched" in text
    assert "dañado" not in caught.value.render("es")


def test_a_closed_campaign_in_postgresql_is_not_opened_again_behind_the_gm(
    postgres: Any,
) -> None:
    """A campaign closed stays closed: a command after the close is refused, never written
    through a connection made again (as one cut by the server would be)."""
    url = f"{postgres.url('gmkit')}#closed_threads"
    store = CampaignStore(url, create=True)
    fight = Encounter.create(store, "Closed", "dark_heresy")
    store.close()
    with pytest.raises(StoreError) as caught:
        fight.note("after the close")
    assert "closed" in caught.value.render("en")
    assert "se cerró" in caught.value.render("es")
    with CampaignStore(url, readonly=True) as reader:
        assert Encounter.open(reader, "Closed").events == ()


def test_problem_names_damage_only_where_damage_was_found() -> None:
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE t (x TEXT)")
    connection.execute("INSERT INTO t VALUES (CAST(x'ff' AS TEXT))")
    with pytest.raises(sqlite3.OperationalError) as undecodable:
        connection.execute("SELECT x FROM t").fetchall()
    assert problem(undecodable.value).id == "store.problem_damaged"  # text that is not UTF-8
    corrupt = sqlite3.DatabaseError("database disk image is malformed")
    corrupt.sqlite_errorcode = sqlite3.SQLITE_CORRUPT  # type: ignore[attr-defined]
    assert problem(corrupt).id == "store.problem_damaged"
    connection.close()
    with pytest.raises(sqlite3.ProgrammingError) as closed:
        connection.execute("SELECT 1")
    assert problem(closed.value).id == "store.problem_connection"
