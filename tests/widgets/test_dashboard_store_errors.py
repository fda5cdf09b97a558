"""A store failure at the GM's table is said where the GM looks, with what was not saved: the
Next that a full disk refused (it did nothing and showed nothing: a raw sqlite3 error went
past the handlers, which catch gmkit's errors), the dashboard's own commands, a read of the
file that fails while following it. The fight shown stays what the file holds."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from gmkit.encounter import Encounter
from gmkit.store import CampaignStore
from gmkit.widgets._dashboard import Dashboard
from gmkit.widgets._i18n import LANGUAGE

CHAPEL = "The Chapel of the Pale Throne"
INITIATIVE = "9 10 6 7 1 5 4 8"
FULL = "the disk is full: the last command was not saved; nothing before it is lost"
FULL_ES = "el disco está lleno: no se guardó la última orden; no se pierde nada de lo anterior"


pytestmark = pytest.mark.usefixtures("english")  # tests/conftest.py: English, then again


@pytest.fixture
def dashboard(demo_copy: Path) -> Iterator[Dashboard]:
    with CampaignStore(demo_copy) as store:
        made = Dashboard(store, CHAPEL, seed=7, follow=False)
        assert made.tracker is not None
        made.tracker.roll_initiative(INITIATIVE)
        made.tracker.start()
        yield made
        made.close()


def fill(store: CampaignStore) -> None:
    """A full disk: no page more than the file has now (SQLite answers SQLITE_FULL)."""
    pages = store._connection.execute("PRAGMA page_count").fetchone()[0]
    store._connection.execute(f"PRAGMA max_page_count = {pages}")


def saved(path: Path) -> tuple[object, tuple[object, ...]]:
    with CampaignStore(path, readonly=True) as reader:
        fight = Encounter.open(reader, CHAPEL)
        return fight.state, fight.events


def next_until_refused(dashboard: Dashboard) -> int:
    """Press N until a Next is not saved; returns how many were."""
    assert dashboard.encounter is not None
    assert dashboard.tracker is not None
    for pressed in range(400):
        events = len(dashboard.encounter.events)
        dashboard.press("next")
        if len(dashboard.encounter.events) == events:
            return pressed
        assert dashboard.tracker.message == ""
    raise AssertionError("the disk never filled")


def test_a_next_on_a_full_disk_says_so_in_the_tracker(dashboard):
    store, fight, tracker = dashboard.store, dashboard.encounter, dashboard.tracker
    assert fight is not None
    assert tracker is not None
    fill(store)
    assert next_until_refused(dashboard) > 0
    assert tracker.message == f"{store.path}: {FULL}"
    assert "gmkit-error" in tracker.message_area.value
    assert (fight.state, fight.events) == saved(store.path)  # nothing half applied
    LANGUAGE.value = "es"
    dashboard.press("next")
    assert tracker.message == f"{store.path}: {FULL_ES}"
    store._connection.execute("PRAGMA max_page_count = 1073741823")  # room again
    dashboard.press("next")
    assert tracker.message == ""
    assert (fight.state, fight.events) == saved(store.path)


def test_the_dashboards_own_commands_say_it_under_the_top_bar(dashboard):
    store = dashboard.store
    fill(store)
    for turn in range(400):  # until the pages the file has free are full
        dashboard.set_enemy_wounds(("exact", "band")[turn % 2])
        if dashboard.message:
            break
    assert dashboard.message == f"{store.path}: {FULL}"
    assert "gmkit-error" in dashboard.message_area.value
    assert dashboard.encounter is not None
    assert (dashboard.encounter.state, dashboard.encounter.events) == saved(store.path)
    LANGUAGE.value = "es"
    dashboard.reveal("demagogue-ostrava")
    assert dashboard.message == f"{store.path}: {FULL_ES}"


def test_a_failed_read_while_following_is_shown(dashboard):
    """Another program left a gap in the log (event N+1 deleted, N+2 written): the follower's
    poll says so; nothing after the gap is applied, nothing twice."""
    store, fight = dashboard.store, dashboard.encounter
    assert fight is not None
    last = fight.last_seq
    connection = sqlite3.connect(store.path)
    connection.execute(
        "INSERT INTO events (encounter, seq, payload) VALUES (?, ?, ?)",
        (fight.encounter_id, last + 2, '{"kind": "note", "text": "x", "visibility": "gm"}'),
    )
    connection.commit()
    connection.close()
    before = fight.events
    assert dashboard.poll() == 0
    assert dashboard.message == (
        f"{store.path}: the encounter '{CHAPEL}' has no event {last + 1} but has later ones: "
        f"the file was changed behind gmkit; nothing after event {last} was applied"
    )
    assert dashboard.poll() == 0
    assert fight.events == before
