"""Store failures said, not swallowed: a full disk, an immutable or read-only file, a read-only
file system. Each failure is a StoreError naming the file, what happened and what was (not)
saved; the encounter in memory stays what the file holds; a file the GM's table cannot write
is refused at launch and read (immutable) by the players' view and export.

The full disk is simulated portably with ``PRAGMA max_page_count`` (SQLite answers exactly as
on a full disk: SQLITE_FULL), and for real on a tiny tmpfs when the tests run as root; the
immutable file needs root and ``chattr``, the read-only file system a ``mount``: those tests
skip where they cannot be set up.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from gmkit.campaign import open_campaign, resolve_campaign
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.store import CampaignStore, StoreError

CHAPEL = "The Chapel of the Pale Throne"
FULL = "the disk is full: the last command was not saved; nothing before it is lost"
ROOT = os.geteuid() == 0


@pytest.fixture
def campaign(demo_copy: Path) -> Path:
    return demo_copy


def fill(store: CampaignStore) -> None:
    """The disk is full from now on: no page more than the file has (SQLITE_FULL)."""
    pages = store._connection.execute("PRAGMA page_count").fetchone()[0]
    store._connection.execute(f"PRAGMA max_page_count = {pages}")


def stored_events(path: Path) -> list[tuple[int, int, str]]:
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return connection.execute("SELECT encounter, seq, payload FROM events").fetchall()
    finally:
        connection.close()


def run_until_refused(fight: Encounter, limit: int = 400) -> StoreError:
    """Next turn until the store refuses one; every turn before it was saved."""
    for _ in range(limit):
        before = (fight.state, fight.events)
        try:
            fight.next_turn()
        except StoreError as error:
            assert (fight.state, fight.events) == before  # nothing half applied
            return error
    raise AssertionError(f"{limit} turns and the disk never filled")


def saved_state(path: Path, name: str = CHAPEL) -> tuple[object, tuple[object, ...]]:
    with CampaignStore(path, readonly=True) as reader:
        fight = Encounter.open(reader, name)
        return fight.state, fight.events


# --- a full disk ---------------------------------------------------------------------------


def test_a_full_disk_is_a_store_error_saying_what_was_not_saved(campaign):
    with CampaignStore(campaign) as store:
        fight = Encounter.open(store, CHAPEL)
        fight.roll_initiative(SeededDice(3))
        fight.start()
        fill(store)
        error = run_until_refused(fight)
        assert str(error) == f"{campaign}: {FULL}"
        assert error.render("es") == (
            f"{campaign}: el disco está lleno: no se guardó la última orden; "
            "no se pierde nada de lo anterior"
        )
        assert not store._connection.in_transaction  # rolled back: the file is free
        # memory is what the file holds: the same state a fresh reader folds
        assert (fight.state, fight.events) == saved_state(campaign)
        assert len(stored_events(campaign)) == sum(e.events for e in store.encounters())
        # room again: the next command is saved, with the seq the file expects
        store._connection.execute("PRAGMA max_page_count = 1073741823")
        fight.next_turn()
        assert (fight.state, fight.events) == saved_state(campaign)


def test_every_write_names_what_was_not_saved(campaign):
    from gmkit.demo import demo_campaign

    with CampaignStore(campaign) as store:
        fill(store)
        big = "x" * 20_000  # more than the free pages the file has
        with pytest.raises(StoreError) as caught:
            store.create_encounter(big[:5000], "wfb6")
        shown = "'" + "x" * 40 + "…'"  # a name is shown cut short
        assert str(caught.value) == (
            f"{campaign}: the disk is full: the new encounter {shown} was not saved; "
            "nothing before it is lost"
        )
        roster = demo_campaign().rosters[0]
        with pytest.raises(StoreError, match=r"the disk is full: the roster .* was not saved"):
            store.save_roster(type(roster)(big, roster.game, roster.sheets * 20, big))
        assert not store._connection.in_transaction
        assert [info.name for info in store.encounters()][:1] == [CHAPEL]


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 400 kB tmpfs (root only), unmounted afterwards."""
    if not ROOT or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    where = tmp_path / "disk"
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", str(where)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def fill_disk(where: Path, leave: int) -> Path:
    """Fill the file system at ``where`` but ``leave`` bytes; returns the filler file."""
    filler = where / "filler"
    with filler.open("wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\1" * 4096)
        except OSError:
            pass
    os.truncate(filler, max(0, filler.stat().st_size - leave))
    return filler


def test_a_really_full_disk_at_the_table(demo_file, tiny_disk):
    path = tiny_disk / "campaign.gmk"
    shutil.copyfile(demo_file, path)
    with CampaignStore(path) as store:
        fight = Encounter.open(store, CHAPEL)
        fight.roll_initiative(SeededDice(3))
        fight.start()
        filler = fill_disk(tiny_disk, leave=12 * 1024)
        error = run_until_refused(fight)
        assert str(error) == f"{path}: {FULL}"
        assert (fight.state, fight.events) == saved_state(path)
        filler.unlink()  # room again: the table goes on
        fight.next_turn()
        assert (fight.state, fight.events) == saved_state(path)


def test_a_full_disk_before_opening_is_not_called_damage(demo_file, tiny_disk):
    path = tiny_disk / "campaign.gmk"
    shutil.copyfile(demo_file, path)
    fill_disk(tiny_disk, leave=0)  # not even room for SQLite's index beside the file
    with pytest.raises(StoreError) as caught:
        CampaignStore(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: cannot open the campaign file: ")
    assert "damaged" not in message


# --- files that cannot be written -----------------------------------------------------------


@pytest.fixture(params=["immutable", "read-only mode"])
def unwritable(request: pytest.FixtureRequest, campaign: Path) -> Iterator[Path]:
    """The campaign, made impossible to write: ``chattr +i``, or mode 0444 (for a user other
    than root, whom a mode does not stop)."""
    if request.param == "immutable":
        if not ROOT or shutil.which("chattr") is None:
            pytest.skip("chattr +i needs root")
        made = subprocess.run(["chattr", "+i", str(campaign)], capture_output=True)
        if made.returncode != 0:
            pytest.skip(f"chattr +i fails here: {made.stderr.decode().strip()}")
        try:
            yield campaign
        finally:
            subprocess.run(["chattr", "-i", str(campaign)], check=True)
        return
    campaign.chmod(0o444)
    if os.access(campaign, os.W_OK):
        pytest.skip("root writes a file of mode 0444")
    yield campaign


def test_a_file_that_cannot_be_written_is_refused_at_launch(unwritable):
    before = unwritable.read_bytes()
    expected = (
        f"{unwritable}: the file is read-only, so the GM's table could not save to it: make it "
        "writable (the players' view and export open it read-only)"
    )
    with pytest.raises(StoreError) as caught:
        resolve_campaign(unwritable)  # gmkit table FILE
    assert str(caught.value) == expected
    with pytest.raises(StoreError) as caught:
        open_campaign(unwritable)  # the table's notebook
    assert str(caught.value) == expected
    assert "damaged" not in expected
    assert unwritable.read_bytes() == before


def test_a_file_that_cannot_be_written_is_read_by_the_players_and_export(unwritable):
    with open_campaign(unwritable, readonly=True) as store:  # the players' notebook
        assert store.immutable
        fight = Encounter.open(store, CHAPEL)
        assert fight.player_view()["combatants"]
        exported = store.export_campaign()  # gmkit export
    assert exported["encounters"][0]["name"] == CHAPEL
    assert sorted(p.name for p in unwritable.parent.iterdir()) == ["campaign.gmk"]


def test_the_commands_refuse_the_table_and_export_it(unwritable, tmp_path_factory, capsys):
    from gmkit._cli import main

    assert main(["table", str(unwritable)]) == 2  # refused before any server starts
    err = capsys.readouterr().err
    assert err.startswith(f"gmkit table: {unwritable}: the file is read-only, so the GM's")
    assert "damaged" not in err
    out = tmp_path_factory.mktemp("out") / "campaign.json"
    assert main(["export", str(unwritable), "--all", str(out)]) == 0
    assert out.read_text(encoding="utf-8").count(CHAPEL) >= 1


def test_a_file_in_a_folder_that_cannot_be_written(campaign):
    """SQLite keeps its write-ahead log beside the file: the GM's table could not save."""
    folder = campaign.parent
    folder.chmod(0o555)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("root writes in a folder of mode 0555")
        with pytest.raises(StoreError) as caught:
            resolve_campaign(campaign)
        assert str(caught.value).startswith(
            f"{campaign}: its folder cannot be written (SQLite keeps its write-ahead log there), "
            "so the GM's table could not save to it"
        )
        with open_campaign(campaign, readonly=True) as store:
            assert store.immutable
            assert Encounter.open(store, CHAPEL).player_view()["combatants"]
    finally:
        folder.chmod(0o755)


def test_a_writable_file_is_followed_not_read_immutable(campaign):
    """Immutable would ignore the GM's writes: a file the GM can write is read mode=ro."""
    with CampaignStore(campaign) as writer, CampaignStore(campaign, readonly=True) as reader:
        assert not reader.immutable
        gm, player = Encounter.open(writer, CHAPEL), Encounter.open(reader, CHAPEL)
        gm.roll_initiative(SeededDice(1))
        assert player.refresh() == 1
        assert player.state == gm.state


@pytest.fixture
def read_only_system(tmp_path: Path, demo_file: Path) -> Iterator[Path]:
    """A read-only tmpfs (root only) holding the demo campaign, and beside it a campaign whose
    write-ahead log still holds changes (``pending.gmk``)."""
    if not ROOT:
        pytest.skip("mounting a tmpfs needs root")
    where = tmp_path / "ro"
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "tmpfs", str(where)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        shutil.copyfile(demo_file, where / "campaign.gmk")
        shutil.copyfile(demo_file, where / "pending.gmk")
        writer = CampaignStore(where / "pending.gmk")
        writer._connection.execute("PRAGMA wal_autocheckpoint = 0")
        Encounter.open(writer, CHAPEL).roll_initiative(SeededDice(1))
        shutil.copyfile(where / "pending.gmk-wal", tmp_path / "pending.gmk-wal")
        writer.close()  # checkpoints and deletes its log: put the log back, as a crash leaves it
        shutil.copyfile(tmp_path / "pending.gmk-wal", where / "pending.gmk-wal")
        subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def test_a_read_only_file_system(read_only_system):
    path = read_only_system / "campaign.gmk"
    with pytest.raises(StoreError) as caught:
        resolve_campaign(path)
    assert str(caught.value) == (
        f"{path}: the file system it is on is read-only, so the GM's table could not save to "
        "it: make it writable (the players' view and export open it read-only)"
    )
    with open_campaign(path, readonly=True) as store:
        assert store.immutable
        assert Encounter.open(store, CHAPEL).player_view()["combatants"]
        assert store.export_campaign()["encounters"]


def test_a_read_only_file_whose_log_holds_changes_is_refused_not_misread(read_only_system):
    """An immutable read ignores the write-ahead log: the initiative just rolled would be
    missing from the players' view without a word."""
    path = read_only_system / "pending.gmk"
    with pytest.raises(StoreError) as caught:
        CampaignStore(path, readonly=True)
    assert str(caught.value) == (
        f"{path}: the file system it is on is read-only, and its write-ahead log {path}-wal "
        "holds changes not yet in the file: make it writable and open it once with gmkit"
    )
