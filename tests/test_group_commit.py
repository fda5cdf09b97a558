"""Group commit: the events of one GM action are one durable transaction, all or nothing.

``with encounter.action(): ...`` (and ``add_many``, which is one) applies each command in memory
as usual and commits all of their events together at the end. A refusal inside, a store failure
half way through the batch (a real full disk), or the process dying before the commit leaves
neither the file nor the memory holding part of the action; durability stays
``synchronous=FULL`` with a write-ahead log.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from postgres_server import stored_rows

from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.errors import RulesError
from gmkit.store import CampaignStore, StoreError, is_database_url

GAME = "dark_heresy"


def sheets() -> tuple:
    return tuple(next(r for r in demo_campaign().rosters if r.game == GAME).sheets)


def rows(location: Path | str) -> list[tuple[int, str]]:
    return stored_rows(str(location))


def replayed(path: Path, name: str = "fight") -> Encounter:
    with CampaignStore(path, readonly=True) as reader:
        return Encounter.open(reader, name)


def snapshot(fight: Encounter) -> tuple:
    log = fight._log
    return (
        fight.state,
        fight.events,
        tuple(log.done),
        tuple(log.undone),
        tuple(log.states),
        tuple(log.undone_states),
    )


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    """A campaign file (the tests that reach SQLite's own connection)."""
    return tmp_path / "campaign.gmk"


@pytest.fixture
def anywhere(campaign_at: Callable[..., str]) -> str:
    """A campaign file, or a campaign in PostgreSQL: the tests of what both stores do."""
    return campaign_at()


def in_one_action(fight: Encounter, *commands: Callable[[], object]) -> None:
    """Run ``commands`` as one GM action."""
    with fight.action():
        for command in commands:
            command()


def traced(store: CampaignStore) -> list[str]:
    """Every statement the store sends from now on (SQLite's trace; PostgreSQL's session
    counted at its ``execute``)."""
    statements: list[str] = []
    if is_database_url(store.location):
        session = store._pg  # type: ignore[attr-defined]
        real = session.execute

        def execute(query: Any, *args: Any, **kwargs: Any) -> Any:
            statements.append(str(query))
            return real(query, *args, **kwargs)

        session.execute = execute
    else:
        store._connection.set_trace_callback(statements.append)
    return statements


def begun(statements: list[str]) -> int:
    """How many write transactions ``statements`` began (SQLite's BEGIN IMMEDIATE, or
    PostgreSQL's BEGIN under the campaign's lock)."""
    return sum(statement in ("BEGIN IMMEDIATE", "BEGIN") for statement in statements)


def test_adding_a_roster_is_one_transaction_of_all_its_events(anywhere):
    with CampaignStore(anywhere, create=True) as store:
        fight = Encounter.create(store, "fight", GAME)
        statements = traced(store)
        ids = fight.add_many(sheets())
        assert len(ids) == 8
        assert begun(statements) == 1
        assert statements.count("COMMIT") == 1
        assert [seq for seq, _ in rows(anywhere)] == list(range(1, 9))
        assert replayed(anywhere).state == fight.state


def test_an_action_of_several_commands_is_one_transaction_and_one_notification(anywhere):
    with CampaignStore(anywhere, create=True) as store:
        fight = Encounter.create(store, "fight", GAME)
        ids = fight.add_many(sheets()[:3])
        told: list[int] = []
        fight.subscribe(lambda encounter: told.append(len(encounter.events)))
        statements = traced(store)
        with fight.action():
            fight.note("the doors seal")
            with fight.action():  # nested: part of the outer action
                fight.add_condition(ids[0], "stunned", rounds=2)
            fight.set("enemy_wounds", "band")
            assert rows(anywhere)[-1][0] == 3  # nothing written before the action's end
        assert begun(statements) == 1
        assert statements.count("COMMIT") == 1
        assert told == [6]
        assert [seq for seq, _ in rows(anywhere)] == [1, 2, 3, 4, 5, 6]
        assert fight.state.combatant(ids[0]).conditions["stunned"].rounds == 2
        assert replayed(anywhere).state == fight.state


def test_a_command_refused_inside_an_action_takes_back_the_whole_action(anywhere):
    with CampaignStore(anywhere, create=True) as store:
        fight = Encounter.create(store, "fight", GAME)
        ids = fight.add_many(sheets()[:3])
        fight.note("one")
        fight.undo()  # a redo stack the action's first event clears, given back on refusal
        before, stored = snapshot(fight), rows(anywhere)
        told: list[object] = []
        fight.subscribe(told.append)
        with pytest.raises(RulesError):
            in_one_action(
                fight,
                lambda: fight.note("two"),
                lambda: fight.add_condition(ids[1], "pinned"),
                lambda: fight.remove("no such combatant"),
            )
        assert snapshot(fight) == before
        assert fight.can_redo
        assert rows(anywhere) == stored
        assert told == []
        fight.redo()  # the log goes on from where it was: the next seq
        assert [seq for seq, _ in rows(anywhere)] == [1, 2, 3, 4, 5, 6]
        assert replayed(anywhere).state == fight.state


def test_a_failure_half_way_through_the_batch_leaves_none_of_it(campaign):
    """A real full disk: the first events of the batch fit in the file, a later one does not."""
    with CampaignStore(campaign, create=True) as store:
        fight = Encounter.create(store, "fight", GAME)
        fight.add_many(sheets()[:2])
        before, stored = snapshot(fight), rows(campaign)
        pages = store._connection.execute("PRAGMA page_count").fetchone()[0]
        store._connection.execute(f"PRAGMA max_page_count = {pages + 2}")
        inserted: list[str] = []
        store._connection.set_trace_callback(inserted.append)
        with pytest.raises(StoreError) as refused:
            in_one_action(
                fight,
                lambda: fight.note("a short one"),
                lambda: fight.note("another"),
                lambda: fight.note("x" * 300_000),  # 73 pages more than the disk has room for
            )
        assert "the disk is full" in str(refused.value)
        assert any(text.startswith("INSERT INTO events") for text in inserted)
        assert not store._connection.in_transaction
        assert snapshot(fight) == before
        assert rows(campaign) == stored
        store._connection.execute("PRAGMA max_page_count = 1073741823")
        with fight.action():
            fight.note("a short one")
            fight.note("another")
        assert [seq for seq, _ in rows(campaign)] == [1, 2, 3, 4]
        assert replayed(campaign).events == fight.events


CRASH = textwrap.dedent(
    """
    import os, sys
    from gmkit.demo import demo_campaign
    from gmkit.encounter import Encounter
    from gmkit.store import CampaignStore

    class DiesAtCommit:
        '''The store's connection, that kills the process when the action commits.'''
        def __init__(self, real):
            self.real = real
        def __getattr__(self, name):
            return getattr(self.real, name)
        def execute(self, sql, *args):
            if sql == "COMMIT":
                inserted = self.real.execute("SELECT count(*) FROM events").fetchone()[0]
                print(inserted, flush=True)
                os._exit(3)
            return self.real.execute(sql, *args)

    store = CampaignStore(sys.argv[1])
    fight = Encounter.open(store, "fight")
    store._connection = DiesAtCommit(store._connection)
    roster = next(r for r in demo_campaign().rosters if r.game == "dark_heresy")
    fight.add_many(roster.sheets[2:6])
    """
)


def test_a_crash_before_the_commit_leaves_none_of_the_action(campaign):
    with CampaignStore(campaign, create=True) as store:
        fight = Encounter.create(store, "fight", GAME)
        fight.add_many(sheets()[:2])
    stored = rows(campaign)
    process = subprocess.run(
        [sys.executable, "-c", CRASH, str(campaign)], capture_output=True, text=True, timeout=120
    )
    assert process.returncode == 3, process.stderr
    assert process.stdout.strip() == "6"  # the four events were in the dying transaction
    assert rows(campaign) == stored
    with CampaignStore(campaign) as store:  # the file passes the open checks, and goes on
        fight = Encounter.open(store, "fight")
        assert len(fight.events) == 2
        fight.add_many(sheets()[2:4])
    assert [seq for seq, _ in rows(campaign)] == [1, 2, 3, 4]


def test_durability_is_unchanged_by_grouping(campaign):
    with CampaignStore(campaign, create=True) as store:
        fight = Encounter.create(store, "fight", GAME)
        fight.add_many(sheets())
        fight.note("one at a time still works")
        connection = store._connection
        assert connection.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert connection.execute("PRAGMA foreign_keys").fetchone() == (1,)
    assert len(rows(campaign)) == 9


def test_an_action_without_a_store_is_all_or_nothing_too():
    fight = Encounter(GAME)
    ids = fight.add_many(sheets()[:2])
    before = snapshot(fight)
    with pytest.raises(RulesError):
        in_one_action(
            fight,
            lambda: fight.rename(ids[0], "Varro"),
            lambda: fight.add_condition(ids[1], "stunned", rounds=0),
        )
    assert snapshot(fight) == before
    assert fight.combatant(ids[0]).name == sheets()[0].name


def test_a_refresh_inside_an_action_is_refused(anywhere):
    with CampaignStore(anywhere, create=True) as store:
        fight = Encounter.create(store, "fight", GAME)
        with pytest.raises(RuntimeError):
            in_one_action(fight, lambda: fight.note("one"), fight.refresh)
        assert rows(anywhere) == []
        assert fight.events == ()
