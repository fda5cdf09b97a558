"""A large open fight is kept out of the collector's full passes (``gc.freeze``) by the page
that opened it, and handed back when the page picks another fight or closes: the fight left
behind is collected, never kept frozen (gmkit.encounter._kept)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import ipywidgets as widgets
import pytest

from gmkit.encounter import _kept
from gmkit.store import CampaignStore
from gmkit.widgets._dashboard import Dashboard
from gmkit.widgets._player import PlayerView

CHAPEL = "The Chapel of the Pale Throne"
AMBUSH = "Ambush at the Sump Pipes"

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def store(demo_copy: Path) -> Iterator[CampaignStore]:
    with CampaignStore(demo_copy) as opened:
        yield opened
    _kept.release()  # whatever a failed test left frozen


@pytest.fixture
def large(monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo's fights count as large (a real one: 1,000 fighters, or a long log)."""
    monkeypatch.setattr(_kept, "LARGE", 1)


def test_a_fight_keeps_its_states_times_its_combatants(store: CampaignStore) -> None:
    made = Dashboard(store, CHAPEL, seed=7, follow=False)
    try:
        fight = made.encounter
        assert fight is not None
        combatants = len(fight.state.combatants)
        assert combatants == 8
        assert _kept.kept(fight) == len(fight.states) * combatants
        assert _kept.kept(fight) < _kept.LARGE  # the demo's: left to the collector
        assert gc.get_freeze_count() == 0
    finally:
        made.close()


@pytest.mark.usefixtures("large")
def test_a_large_fight_is_frozen_and_the_one_left_behind_collected(
    store: CampaignStore,
) -> None:
    made = Dashboard(store, CHAPEL, seed=7, follow=False)
    try:
        assert made.encounter is not None
        assert gc.get_freeze_count() > 0
        left = weakref.ref(made.encounter)
        made.select_encounter(AMBUSH)
        assert made.encounter is not None
        assert made.encounter.name == AMBUSH
        assert left() is None  # not kept frozen: collected
        assert gc.get_freeze_count() > 0  # the fight picked, frozen in its turn
        shown = weakref.ref(made.encounter)
    finally:
        made.close()
    del made
    assert gc.get_freeze_count() == 0  # the page closed: nothing of it kept frozen
    gc.collect()  # the collector's next pass (it reaches the fight again): freed
    assert shown() is None


def test_a_closed_fight_is_freed_only_by_a_collection(store: CampaignStore) -> None:
    """The control: a fight's panels hold it in reference cycles, so a frozen fight would
    never be freed; only the collection the release makes frees it."""
    made = Dashboard(store, CHAPEL, seed=7, follow=False)
    left = weakref.ref(made.encounter)
    gc.disable()  # no collection but the test's own
    try:
        made.close()
        del made
        assert left() is not None  # closed, unreferenced, in a cycle: still there
        gc.collect()
        assert left() is None
    finally:
        gc.enable()


@pytest.mark.usefixtures("large")
def test_the_players_view_freezes_its_large_fight_and_hands_it_back_when_closed(
    store: CampaignStore,
) -> None:
    view = PlayerView(store, CHAPEL, follow=False)
    shown = weakref.ref(view.encounter)
    assert gc.get_freeze_count() > 0
    view.close()
    del view
    assert gc.get_freeze_count() == 0
    gc.collect()  # the collector's next pass (it reaches the fight again): freed
    assert shown() is None


def test_switching_fights_leaves_no_widget_model_behind(store: CampaignStore) -> None:
    """Before: 22 models stayed registered with ipywidgets at each switch (a toggle the turn
    panel observed, the boxes and layouts around the controls, the tracker's unshown
    initiative button), and through their observers the fight left behind."""
    names = [info.name for info in store.encounters()]
    made = Dashboard(store, names[0], seed=7, follow=False)
    registered = widgets.widget._instances
    try:
        for name in [*names, names[0]]:  # every fight's panels made once
            made.select_encounter(name)
        before = set(registered)
        for name in [*names, *names, names[0]]:
            made.select_encounter(name)
        assert len(registered) == len(before)  # the same panels again, none left over
    finally:
        made.close()
