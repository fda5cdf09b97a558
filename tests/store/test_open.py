"""Opening a campaign file: what is refused (newer, damaged, foreign) is never written to."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from gmkit.store import APPLICATION_ID, SCHEMA_VERSION, CampaignStore, StoreError

PAGE = 4096


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file in ``folder`` with its bytes."""
    return {item.name: item.read_bytes() for item in sorted(folder.iterdir()) if item.is_file()}


def refused(path: Path, *, readonly: bool = False) -> str:
    """Open ``path`` expecting StoreError; the folder is byte-for-byte as it was afterwards.

    (A read-only SQLite connection to a WAL file leaves its empty ``-wal`` and the ``-shm``
    index behind: it may not delete them. The campaign file itself is never touched.)
    """
    before = snapshot(path.parent)
    with pytest.raises(StoreError) as caught:
        CampaignStore(path, readonly=readonly)
    after = snapshot(path.parent)
    if readonly and after.get(f"{path.name}-wal", b"") == b"":
        after.pop(f"{path.name}-wal", None)
        after.pop(f"{path.name}-shm", None)
    assert after == before
    message = str(caught.value)
    assert str(path) in message
    return message


def test_a_new_file_is_a_campaign_in_wal_mode(tmp_path):
    path = tmp_path / "new.gmk"
    with CampaignStore(path, create=True) as store:
        connection = store._connection
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert connection.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
        assert connection.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
        assert connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert store.name == "new"
        assert store.encounters() == []
        assert store.rosters() == []
    with CampaignStore(path) as again:
        assert again.campaign().rosters == ()


def test_a_missing_file_is_not_created_unless_asked(tmp_path):
    path = tmp_path / "missing.gmk"
    for readonly in (False, True):
        with pytest.raises(StoreError, match="no such campaign file") as caught:
            CampaignStore(path, readonly=readonly)
        assert str(path) in str(caught.value)
    with pytest.raises(StoreError, match="no such campaign file"):
        CampaignStore(path, create=True, readonly=True)
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_does_not_exist_is_a_store_error(tmp_path):
    path = tmp_path / "nowhere" / "campaign.gmk"
    with pytest.raises(StoreError, match="cannot open") as caught:
        CampaignStore(path, create=True)
    assert str(path) in str(caught.value)


def test_an_empty_file_at_schema_0_is_migrated(tmp_path):
    path = tmp_path / "empty.gmk"
    path.touch()
    with CampaignStore(path) as store:
        assert store._connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        encounter = store.create_encounter("first", "wfb6")
        store.append_event(encounter, {"kind": "note"}, seq=1)
    with CampaignStore(path, readonly=True) as reader:
        assert [event.seq for event in reader.events(encounter)] == [1]


def test_a_reader_does_not_migrate(tmp_path):
    path = tmp_path / "empty.gmk"
    path.touch()
    message = refused(path, readonly=True)
    assert "needs migrating" in message


@pytest.mark.parametrize("readonly", [False, True])
def test_a_file_from_a_newer_gmkit_is_refused_and_untouched(filled_campaign, readonly):
    with sqlite3.connect(filled_campaign) as connection:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    message = refused(filled_campaign, readonly=readonly)
    assert "newer gmkit" in message
    assert f"schema {SCHEMA_VERSION + 1}" in message


@pytest.mark.parametrize("size", [1, 99, 100, 511, 4096, 50_000])
@pytest.mark.parametrize("readonly", [False, True])
def test_random_bytes_are_refused_and_untouched(tmp_path, size, readonly):
    path = tmp_path / "noise.gmk"
    path.write_bytes(random.Random(size).randbytes(size))
    assert "not a gmkit campaign, or damaged" in refused(path, readonly=readonly)


def test_random_bytes_behind_a_sqlite_header_are_refused(tmp_path):
    path = tmp_path / "noise.gmk"
    path.write_bytes(b"SQLite format 3\x00" + random.Random(7).randbytes(3 * PAGE))
    assert "damaged" in refused(path)


@pytest.mark.parametrize("keep", [50, 100, PAGE, 2 * PAGE + 17, "half", "all but a page"])
@pytest.mark.parametrize("readonly", [False, True])
def test_a_truncated_campaign_is_refused_and_untouched(filled_campaign, keep, readonly):
    size = filled_campaign.stat().st_size
    assert size > 8 * PAGE
    keep = {"half": size // 2, "all but a page": size - PAGE}.get(keep, keep)
    with filled_campaign.open("r+b") as handle:
        handle.truncate(keep)
    assert "damaged" in refused(filled_campaign, readonly=readonly)


@pytest.mark.parametrize("page", [2, 3, "middle", "last"])
def test_a_page_of_garbage_is_refused_and_untouched(filled_campaign, page):
    pages = filled_campaign.stat().st_size // PAGE
    number = {"middle": pages // 2, "last": pages}.get(page, page)
    with filled_campaign.open("r+b") as handle:
        handle.seek((number - 1) * PAGE)
        handle.write(random.Random(number).randbytes(PAGE))
    assert "damaged" in refused(filled_campaign)


def test_a_sqlite_database_of_another_program_is_refused_and_untouched(tmp_path):
    path = tmp_path / "inventory.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE items (name TEXT)")
        connection.execute("INSERT INTO items VALUES ('lasgun')")
    connection.close()
    assert "not a gmkit campaign" in refused(path)
    assert "not a gmkit campaign" in refused(path, readonly=True)


@pytest.mark.parametrize(
    "setup",
    [
        "PRAGMA application_id = 1234",  # another program's empty file
        "CREATE VIEW answer AS SELECT 42",  # schema without tables
        "PRAGMA journal_mode = WAL; CREATE TABLE t (x)",
    ],
)
def test_other_sqlite_files_are_refused(tmp_path, setup):
    path = tmp_path / "other.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(setup)
    connection.close()
    assert "not a gmkit campaign" in refused(path)


def test_a_readonly_store_refuses_writes_and_leaves_the_file(filled_campaign):
    before = filled_campaign.read_bytes()
    with CampaignStore(filled_campaign, readonly=True) as reader:
        encounter = reader.encounter_id("sump ambush")
        assert reader.last_seq(encounter) == 40
        with pytest.raises(StoreError, match="read-only"):
            reader.append_event(encounter, {"kind": "note"}, seq=41)
        with pytest.raises(StoreError, match="read-only"):
            reader.create_encounter("another", "wfb6")
    assert filled_campaign.read_bytes() == before
