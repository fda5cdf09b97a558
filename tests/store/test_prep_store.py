"""The campaign file as a prep notebook uses it: encounters created or replaced (the notebook
runs again), deleted; a backup of a campaign still open with events in its write-ahead log;
``open_campaign(create=True)``; and ``Encounter.set`` refusing an unknown setting with nothing
written.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gmkit import prep
from gmkit.campaign import open_campaign
from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.errors import GmkitError, RulesError
from gmkit.sheets.base import Sheet
from gmkit.store import CampaignStore, StoreError

NAME = "Chapel raid"


def cult() -> tuple[Sheet, ...]:
    return demo_campaign().rosters[1].sheets


def prepared(store: CampaignStore, *, replace: bool = False, count: int = 3) -> Encounter:
    fight = Encounter.create(store, NAME, "dark_heresy", replace=replace)
    for sheet in cult()[:count]:
        fight.add(sheet)
    fight.set("player_sides", ["Acolytes"])
    return fight


def all_events(path: Path) -> list[tuple[int, int, str]]:
    """Every event row in the file, read with plain sqlite3 (read-only)."""
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as connection:
        rows = connection.execute("SELECT encounter, seq, payload FROM events ORDER BY 1, 2")
        return [(int(e), int(s), str(p)) for e, s, p in rows]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[CampaignStore]:
    opened = CampaignStore(tmp_path / "campaign.gmk", create=True)
    yield opened
    opened.close()


# --- create, replace, delete ---------------------------------------------------------------


def test_replace_keeps_one_encounter_and_drops_the_old_log(store: CampaignStore) -> None:
    old = prepared(store, count=5)
    assert len(old.events) == 6
    new = prepared(store, replace=True, count=2)
    infos = store.encounters()
    assert [(info.name, info.game, info.events) for info in infos] == [(NAME, "dark_heresy", 3)]
    assert infos[0].id == new.encounter_id
    assert len(all_events(store.path)) == 3  # not one row of the old log is left
    assert [e.payload for e in store.events(new.encounter_id or 0)] == list(new.events)
    reopened = Encounter.open(store, NAME)
    assert [c.name for c in reopened.state.combatants.values()] == [s.name for s in cult()[:2]]


def test_replace_leaves_the_other_encounters(store: CampaignStore) -> None:
    other = Encounter.create(store, "Another", "necromunda")
    other.add(demo_campaign().rosters[0].sheets[0])
    prepared(store)
    prepared(store, replace=True)
    assert [(i.name, i.events) for i in store.encounters()] == [("Another", 1), (NAME, 4)]


def test_replace_of_a_new_name_just_creates(store: CampaignStore) -> None:
    fight = prepared(store, replace=True)
    assert [(i.name, i.events) for i in store.encounters()] == [(NAME, 4)]
    assert fight.encounter_id == store.encounter_id(NAME)


def test_without_replace_an_existing_name_is_refused_and_nothing_changes(
    store: CampaignStore,
) -> None:
    prepared(store)
    before = all_events(store.path)
    with pytest.raises(StoreError) as refused:
        store.create_encounter(NAME, "dark_heresy")
    assert str(refused.value) == "an encounter named 'Chapel raid' exists already"
    with pytest.raises(StoreError, match="an encounter named 'Chapel raid' exists already"):
        Encounter.create(store, NAME, "dark_heresy")
    assert all_events(store.path) == before
    assert [(i.name, i.events) for i in store.encounters()] == [(NAME, 4)]


def test_replace_with_an_unknown_game_is_refused_before_the_old_one_is_deleted(
    store: CampaignStore,
) -> None:
    prepared(store)
    before = all_events(store.path)
    with pytest.raises(GmkitError, match="unknown game 'chess'"):
        Encounter.create(store, NAME, "chess", replace=True)
    assert all_events(store.path) == before
    assert [(i.name, i.events) for i in store.encounters()] == [(NAME, 4)]


def test_prep_encounter_runs_twice_to_the_same_fight(store: CampaignStore) -> None:
    def run() -> Encounter:
        return prep.encounter(
            store,
            NAME,
            "dark_heresy",
            list(cult()),
            hidden=["Demagogue Ostrava"],
            player_sides=["Acolytes"],
            enemy_wounds="band",
            gm_note="The demagogue waits behind the altar.",
        )

    first = run()
    second = run()
    assert second.events == first.events
    assert len(second.events) == 8 + 3
    assert [(i.name, i.events) for i in store.encounters()] == [(NAME, 11)]
    assert second.overview().equals(first.overview())


def test_delete_encounter_takes_its_log_and_leaves_the_others(store: CampaignStore) -> None:
    prepared(store)
    other = Encounter.create(store, "Another", "necromunda")
    other.add(demo_campaign().rosters[0].sheets[0])
    store.delete_encounter(NAME)
    assert [(i.name, i.events) for i in store.encounters()] == [("Another", 1)]
    assert [e for e, _, _ in all_events(store.path)] == [other.encounter_id]
    with pytest.raises(StoreError, match="no encounter named 'Chapel raid'"):
        store.encounter_id(NAME)
    prepared(store)  # the name is free again
    assert [i.name for i in store.encounters()] == ["Another", NAME]


def test_delete_of_an_unknown_encounter_is_refused(store: CampaignStore) -> None:
    prepared(store)
    with pytest.raises(StoreError) as refused:
        store.delete_encounter("Nowhere")
    assert str(refused.value) == "no encounter named 'Nowhere'"
    assert [(i.name, i.events) for i in store.encounters()] == [(NAME, 4)]


def test_delete_in_a_read_only_store_is_refused(store: CampaignStore) -> None:
    prepared(store)
    with (
        CampaignStore(store.path, readonly=True) as reader,
        pytest.raises(StoreError, match="opened read-only"),
    ):
        reader.delete_encounter(NAME)
    assert [i.name for i in store.encounters()] == [NAME]


# --- backup ---------------------------------------------------------------------------------

READER = """
import json, sys
from gmkit.store import CampaignStore
with CampaignStore(sys.argv[1], readonly=True) as store:
    print(json.dumps({
        "name": store.name,
        "rosters": [r.title for r in store.rosters()],
        "encounters": [
            {"name": i.name, "events": [e.payload for e in store.events(i.id)]}
            for i in store.encounters()
        ],
    }))
"""


def read_in_a_fresh_process(path: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", READER, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_a_backup_of_an_open_campaign_holds_what_is_still_in_the_wal(tmp_path: Path) -> None:
    path = tmp_path / "in-use.gmk"
    writer = CampaignStore(path, create=True)  # a kernel with the campaign open: never closed
    writer.save_campaign(demo_campaign())
    fight = prepared(writer, count=8)
    fight.note("the GM's last word before the backup", gm_only=True)
    wal = Path(f"{path}-wal")
    assert wal.exists()
    assert wal.stat().st_size > 0  # the data is in the write-ahead log
    # what issue 15 met: a copy of the .gmk alone holds no encounter
    plain = tmp_path / "plain-copy.gmk"
    shutil.copyfile(path, plain)
    assert read_in_a_fresh_process(plain)["encounters"] == []

    copy = writer.backup(tmp_path / "backup.gmk")
    assert copy == tmp_path / "backup.gmk"
    assert not Path(f"{copy}-wal").exists()
    assert not (tmp_path / ".backup.gmk.partial").exists()
    found = read_in_a_fresh_process(copy)
    assert found["name"] == "gmkit demo campaign"
    assert found["rosters"] == [r.title for r in demo_campaign().rosters]
    assert found["encounters"] == [{"name": NAME, "events": list(fight.events)}]
    assert len(fight.events) == 8 + 2
    with CampaignStore(copy, readonly=True) as reader:  # and in this process, a new store
        assert [(i.name, i.events) for i in reader.encounters()] == [(NAME, 10)]
    writer.close()


def test_the_backup_is_a_campaign_the_gm_can_open_and_write(tmp_path: Path) -> None:
    with CampaignStore(tmp_path / "a.gmk", create=True) as writer:
        prepared(writer)
        copy = writer.backup(tmp_path / "b.gmk")
    with open_campaign(copy) as opened:
        fight = Encounter.open(opened, NAME)
        fight.note("written to the copy")
        assert len(fight.events) == 5
    with CampaignStore(tmp_path / "a.gmk", readonly=True) as original:
        assert [i.events for i in original.encounters()] == [4]


def test_a_backup_refuses_an_existing_file_unless_told(
    tmp_path: Path, store: CampaignStore
) -> None:
    prepared(store)
    target = tmp_path / "backup.gmk"
    target.write_bytes(b"the GM's other file")
    with pytest.raises(StoreError) as refused:
        store.backup(target)
    assert str(refused.value) == f"{target}: exists already (pass overwrite=True to replace it)"
    assert target.read_bytes() == b"the GM's other file"
    store.backup(target, overwrite=True)
    with CampaignStore(target, readonly=True) as reader:
        assert [(i.name, i.events) for i in reader.encounters()] == [(NAME, 4)]


def test_a_backup_refuses_the_campaign_itself(tmp_path: Path, store: CampaignStore) -> None:
    prepared(store)
    before = store.path.read_bytes()
    for same in (store.path, tmp_path / "sub" / ".." / "campaign.gmk"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        with pytest.raises(StoreError, match="is the campaign itself"):
            store.backup(same, overwrite=True)
    assert store.path.read_bytes() == before
    assert [(i.name, i.events) for i in store.encounters()] == [(NAME, 4)]


def test_a_backup_into_a_missing_folder_fails_cleanly(tmp_path: Path, store: CampaignStore) -> None:
    prepared(store)
    target = tmp_path / "no-such-folder" / "backup.gmk"
    with pytest.raises(StoreError, match="the backup failed"):
        store.backup(target)
    assert not target.parent.exists()


def test_a_read_only_store_backs_up_too(tmp_path: Path, store: CampaignStore) -> None:
    prepared(store)
    with CampaignStore(store.path, readonly=True) as reader:
        copy = reader.backup(tmp_path / "from-reader.gmk")
    assert read_in_a_fresh_process(copy)["encounters"] == [
        {"name": NAME, "events": [e.payload for e in store.events(store.encounter_id(NAME))]}
    ]


# --- open_campaign(create=True) ---------------------------------------------------------------


def test_open_campaign_create_makes_a_new_file_and_folders(tmp_path: Path) -> None:
    path = tmp_path / "new" / "deeper" / "next-week.gmk"
    with open_campaign(path, create=True) as store:
        assert path.exists()
        assert store.encounters() == []
        assert store.rosters() == []
        prepared(store)
    with open_campaign(path, create=True) as again:  # opens what is there: nothing lost
        assert [(i.name, i.events) for i in again.encounters()] == [(NAME, 4)]
    with open_campaign(path) as plain:
        assert [i.name for i in plain.encounters()] == [NAME]


def test_prep_campaign_opens_or_creates(tmp_path: Path) -> None:
    path = tmp_path / "prep.gmk"
    with prep.campaign(path) as store:
        prepared(store)
    with prep.campaign(path) as store:
        assert [i.name for i in store.encounters()] == [NAME]


def test_open_campaign_without_create_says_how_to_make_one(tmp_path: Path) -> None:
    path = tmp_path / "missing.gmk"
    with pytest.raises(StoreError) as refused:
        open_campaign(path)
    assert str(refused.value) == (
        f"{path}: no such campaign file (open_campaign(path, create=True) makes a new one)"
    )
    assert not path.exists()


@pytest.mark.parametrize("suffix", [".yaml", ".yml", ".json"])
def test_open_campaign_create_refuses_a_missing_document(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"campaign{suffix}"
    with pytest.raises(StoreError) as refused:
        open_campaign(path, create=True)
    assert str(refused.value) == (
        f"{path}: no such campaign document (a new campaign is a .gmk file)"
    )
    assert list(tmp_path.iterdir()) == []


def test_open_campaign_create_read_only_makes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "reader.gmk"
    with pytest.raises(StoreError, match="no such campaign file"):
        open_campaign(path, create=True, readonly=True)
    assert not path.exists()


# --- Encounter.set refuses unknown names, writing nothing -------------------------------------


@pytest.mark.parametrize(
    ("key", "value", "text"),
    [
        (
            "enemy_wound",
            "band",
            "no setting 'enemy_wound' (did you mean enemy_wounds?); the settings: "
            "enemy_wounds, player_sides, skip_fallen",
        ),
        (
            "player_side",
            ["Acolytes"],
            "no setting 'player_side' (did you mean player_sides?); the settings: "
            "enemy_wounds, player_sides, skip_fallen",
        ),
        ("enemy_wounds", "exactly", "enemy_wounds: 'exactly' is not one of exact, band, hidden"),
        ("player_sides", "Acolytes", "player_sides: must be a list of side names (got 'Acolytes')"),
        ("skip_fallen", "yes", "skip_fallen: must be true or false (got 'yes')"),
        ("", True, "setting: the key is blank"),
    ],
)
def test_set_refuses_and_writes_nothing(
    store: CampaignStore, key: str, value: object, text: str
) -> None:
    fight = prepared(store)
    before_store = [e.payload for e in store.events(fight.encounter_id or 0)]
    before_fight = fight.events
    state = fight.state
    with pytest.raises(RulesError) as refused:
        fight.set(key, value)
    assert str(refused.value) == text
    assert [e.payload for e in store.events(fight.encounter_id or 0)] == before_store
    assert fight.events == before_fight
    assert fight.state is state
    assert len(all_events(store.path)) == 4


def test_set_accepts_each_declared_setting_and_stores_it(store: CampaignStore) -> None:
    fight = prepared(store)
    fight.set("enemy_wounds", "hidden")
    fight.set("skip_fallen", False)
    assert fight.state.settings == {
        "player_sides": ["Acolytes"],
        "enemy_wounds": "hidden",
        "skip_fallen": False,
    }
    assert Encounter.open(store, NAME).state.settings == fight.state.settings


def test_an_unrelated_name_suggests_nothing() -> None:
    with pytest.raises(RulesError) as refused:
        Encounter("dark_heresy").set("initiative", 1)
    assert "did you mean" not in str(refused.value)


def test_an_encounter_from_before_a_replace_cannot_write_into_the_new_one(
    store: CampaignStore,
) -> None:
    old = prepared(store, count=3)
    new = Encounter.create(store, NAME, "dark_heresy", replace=True)
    for sheet in cult()[4:7]:  # other combatants, the same number of events
        new.add(sheet)
    new.set("player_sides", ["Acolytes"])
    assert len(old.events) == len(new.events) == 4
    with pytest.raises(StoreError):
        old.note("written by the first run's fight")  # today: stored in the new encounter
    assert [e.payload for e in store.events(store.encounter_id(NAME))] == list(new.events)


def test_prep_encounter_sets_wfb_units_and_distances(tmp_path: Path) -> None:
    store = prep.campaign(tmp_path / "ford.gmk")
    sheets = [
        *prep.npcs("wfb6", "Swordsman", 1, side="Empire"),
        *prep.npcs("wfb6", "Night goblin archer", 1, side="Gobbos"),
    ]
    fight = prep.encounter(
        store,
        "Ford",
        "wfb6",
        sheets,
        units={
            "Swordsmen": {"side": "Empire", "rank_and_file": 15},
            "Night Goblin archers": {"side": "Gobbos", "rank_and_file": 20},
        },
        distances=[("Night Goblin archers", "Swordsmen", 30)],
    )
    units = fight.units_frame().set_index("unit")
    assert units.loc["Swordsmen", "rank and file"] == 15
    assert units.loc["Night Goblin archers", "rank and file"] == 20
    assert fight.distance_between("Swordsmen", "Night Goblin archers") == 30
    again = prep.encounter(store, "Ford", "wfb6", sheets)  # run again: replaced, no units
    assert again.units_frame().empty
