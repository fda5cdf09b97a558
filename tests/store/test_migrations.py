"""Schema migrations: an older file is taken to SCHEMA_VERSION in one transaction, or not at all.

The fake version 2 is registered by monkeypatching ``SCHEMA_VERSION`` and ``MIGRATIONS``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from gmkit import _store_file as store_module
from gmkit.store import CampaignStore, StoreError, execute_statements

Migration = Callable[[sqlite3.Connection], None]


def outside_view(path: Path) -> tuple[int, list[str]]:
    """user_version and tables as another connection sees them right now."""
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master")]
        return int(version), sorted(tables)
    finally:
        connection.close()


def version_2(path: Path, seen: list[tuple[int, list[str]]]) -> Migration:
    """Schema 2 adds a ``sessions`` table and a ``note`` column on encounters; while it runs
    it records what another connection sees (which must still be the old file)."""

    def migrate(connection: sqlite3.Connection) -> None:
        assert connection.in_transaction
        execute_statements(
            connection,
            "CREATE TABLE sessions (id INTEGER PRIMARY KEY, played TEXT NOT NULL);\n"
            "ALTER TABLE encounters ADD COLUMN note TEXT NOT NULL DEFAULT '';\n",
        )
        connection.execute("INSERT INTO sessions (played) VALUES ('2024-05-01')")
        seen.append(outside_view(path))

    return migrate


@pytest.fixture
def schema_2(monkeypatch: pytest.MonkeyPatch) -> Callable[[Migration], None]:
    def register(migration: Migration) -> None:
        monkeypatch.setattr(store_module, "SCHEMA_VERSION", 2)
        monkeypatch.setattr(store_module, "MIGRATIONS", {**store_module.MIGRATIONS, 2: migration})

    return register


def traced_statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement CampaignStore connections run from now on."""
    statements: list[str] = []
    connect = CampaignStore._connect

    def traced(self: CampaignStore) -> sqlite3.Connection:
        connection = connect(self)
        connection.set_trace_callback(statements.append)
        return connection

    monkeypatch.setattr(CampaignStore, "_connect", traced)
    return statements


def test_schema_1_is_migrated_to_2_in_one_transaction(filled_campaign, schema_2, monkeypatch):
    old = outside_view(filled_campaign)
    assert old[0] == 1
    seen: list[tuple[int, list[str]]] = []
    schema_2(version_2(filled_campaign, seen))
    statements = traced_statements(monkeypatch)
    with CampaignStore(filled_campaign) as store:
        connection = store._connection
        assert connection.execute("PRAGMA user_version").fetchone() == (2,)
        assert connection.execute("SELECT played FROM sessions").fetchall() == [("2024-05-01",)]
        assert connection.execute("SELECT note FROM encounters").fetchall() == [("",)]
        encounter = store.encounter_id("sump ambush")
        assert store.last_seq(encounter) == 40  # nothing lost
        store.append_event(encounter, {"kind": "note"}, seq=41)
    # While the migration ran, another connection saw the file as it was.
    assert seen == [old]
    assert outside_view(filled_campaign)[0] == 2
    # One BEGIN ... COMMIT holds the migration's statements and the new user_version.
    begin = statements.index("BEGIN IMMEDIATE")
    commit = statements.index("COMMIT", begin)
    inside = statements[begin:commit]
    assert any(s.startswith("CREATE TABLE sessions") for s in inside)
    assert any(s.startswith("ALTER TABLE encounters") for s in inside)
    assert "PRAGMA user_version = 2" in inside
    assert not any(s in ("COMMIT", "BEGIN", "BEGIN IMMEDIATE") for s in inside[1:])
    with CampaignStore(filled_campaign, readonly=True) as reader:
        assert reader.last_seq(reader.encounter_id("sump ambush")) == 41


def test_an_empty_file_takes_every_migration_in_one_transaction(tmp_path, schema_2, monkeypatch):
    path = tmp_path / "empty.gmk"
    path.touch()
    seen: list[tuple[int, list[str]]] = []
    schema_2(version_2(path, seen))
    statements = traced_statements(monkeypatch)
    with CampaignStore(path) as store:
        assert store._connection.execute("PRAGMA user_version").fetchone() == (2,)
        assert store.create_encounter("first", "wfrp2") == 1
    assert seen == [(0, [])]
    assert statements.count("BEGIN IMMEDIATE") == 2  # the migration, then create_encounter
    assert statements.index("PRAGMA user_version = 2") < statements.index("COMMIT")


@pytest.mark.parametrize("where", ["before", "after"])
def test_a_failing_migration_leaves_the_file_exactly_as_it_was(
    filled_campaign, schema_2, monkeypatch, where
):
    seen: list[tuple[int, list[str]]] = []
    works = version_2(filled_campaign, seen)

    def fails(connection: sqlite3.Connection) -> None:
        if where == "after":
            works(connection)  # the whole schema change is done, then it fails
        raise RuntimeError("the migration went wrong")

    schema_2(fails)
    before = filled_campaign.read_bytes()
    with pytest.raises(StoreError) as caught:
        CampaignStore(filled_campaign)
    message = str(caught.value)
    assert str(filled_campaign) in message
    assert "migrating campaign schema 1 to 2 failed" in message
    assert "the migration went wrong" in message
    assert filled_campaign.read_bytes() == before
    assert sorted(p.name for p in filled_campaign.parent.iterdir()) == ["campaign.gmk"]
    assert outside_view(filled_campaign)[0] == 1
    # The file still opens with the gmkit that wrote it.
    assert seen == ([(1, outside_view(filled_campaign)[1])] if where == "after" else [])
    monkeypatch.undo()
    with CampaignStore(filled_campaign) as store:
        assert store.last_seq(store.encounter_id("sump ambush")) == 40


def test_a_failing_migration_leaves_an_empty_file_empty(tmp_path, schema_2):
    path = tmp_path / "empty.gmk"
    path.touch()

    def fails(connection: sqlite3.Connection) -> None:
        connection.execute("CREATE TABLE sessions (id INTEGER PRIMARY KEY)")
        raise ValueError("no")

    schema_2(fails)
    with pytest.raises(StoreError, match="migrating campaign schema 0 to 2 failed"):
        CampaignStore(path)
    assert path.read_bytes() == b""
    assert [p.name for p in tmp_path.iterdir()] == ["empty.gmk"]


def test_a_migration_that_commits_on_its_own_is_caught(tmp_path, schema_2):
    """executescript() commits the open transaction: the store notices instead of going on."""
    path = tmp_path / "empty.gmk"
    path.touch()
    schema_2(lambda connection: connection.executescript("CREATE TABLE sessions (id INTEGER);"))
    with pytest.raises(StoreError, match="migration to schema 2 committed on its own"):
        CampaignStore(path)


def test_execute_statements_refuses_an_incomplete_script():
    connection = sqlite3.connect(":memory:")
    with pytest.raises(ValueError, match="incomplete SQL statement"):
        execute_statements(connection, "CREATE TABLE a (x);\nCREATE TABLE b (y)")
    connection.close()


def test_schema_1_is_created_by_statements_not_executescript(tmp_path):
    """The shipped migration runs inside the opening transaction (the bug executescript made:
    a new campaign file could not even be created)."""
    path = tmp_path / "new.gmk"
    with CampaignStore(path, create=True) as store:
        tables = {row[0] for row in store._connection.execute("SELECT name FROM sqlite_master")}
    assert {"meta", "rosters", "encounters", "events"} <= tables
