"""The dashboard's panels follow a change once the tracker's messages have gone (in a kernel),
and end exactly as they do without a deferral."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from gmkit.campaign import demo_campaign_file
from gmkit.store import CampaignStore
from gmkit.widgets import dashboard as dashboard_module
from gmkit.widgets.dashboard import Dashboard
from gmkit.widgets.deferral import Deferral, running_kernel
from gmkit.widgets.i18n import LANGUAGE

INITIATIVE = "9 10 6 7 1 5 4 8"


class FakeKernel:
    """What a Deferral uses of ipykernel's kernel: the IOPub thread's queue, the event loop's
    callbacks and the statuses published, each held until the test runs them."""

    def __init__(self) -> None:
        self.sent: list[Callable[[], None]] = []  # the IOPub thread's queue
        self.loop: list[Callable[[], None]] = []  # the event loop's callbacks
        self.statuses: list[tuple[str, Any]] = []
        self.io_loop = self
        self.iopub_thread = self

    def schedule(self, callback: Callable[[], None]) -> None:
        self.sent.append(callback)

    def add_callback(self, callback: Callable[[], None]) -> None:
        self.loop.append(callback)

    def get_parent(self, channel: str) -> dict[str, str]:
        assert channel == "shell"
        return {"msg_id": "click"}

    def _publish_status(self, status: str, channel: str, parent: Any) -> None:
        self.statuses.append((status, parent["msg_id"]))

    def run(self) -> None:
        """The IOPub thread sends what waits, then the loop runs its callbacks."""
        while self.sent or self.loop:
            while self.sent:
                self.sent.pop(0)()
            while self.loop:
                self.loop.pop(0)()


def test_outside_a_kernel_the_work_runs_at_once() -> None:
    assert running_kernel() is None  # pytest is no kernel
    deferral = Deferral.here()
    done: list[int] = []
    deferral.wrap(done.append)(1)
    assert done == [1]
    assert deferral.pending == 0


def test_in_a_kernel_the_work_waits_for_the_iopub_thread_then_runs_in_order() -> None:
    kernel = FakeKernel()
    deferral = Deferral(kernel)
    done: list[int] = []
    later = deferral.wrap(done.append)
    later(1)
    later(2)
    assert done == []
    assert deferral.pending == 2
    assert kernel.statuses == [("busy", "click")]  # the kernel stays busy for the click
    assert len(kernel.sent) == 1
    assert kernel.loop == []
    kernel.sent.pop(0)()
    assert done == []
    assert len(kernel.loop) == 1
    kernel.run()
    assert done == [1, 2]
    assert kernel.statuses == [("busy", "click"), ("idle", "click")]


def test_flush_runs_what_waits_now_and_once() -> None:
    kernel = FakeKernel()
    deferral = Deferral(kernel)
    done: list[str] = []
    deferral.defer(lambda: done.append("a"))
    deferral.flush()
    assert done == ["a"]
    kernel.run()  # the wake-up finds nothing left
    assert done == ["a"]
    assert kernel.statuses == [("busy", "click"), ("idle", "click")]
    deferral.close()
    deferral.defer(lambda: done.append("b"))  # closed: at once
    assert done == ["a", "b"]


def test_work_deferred_while_flushing_runs_in_the_same_flush() -> None:
    kernel = FakeKernel()
    deferral = Deferral(kernel)
    done: list[str] = []

    def first() -> None:
        done.append("first")
        deferral.defer(lambda: done.append("second"))

    deferral.defer(first)
    kernel.run()
    assert done == ["first", "second"]
    assert kernel.statuses == [("busy", "click"), ("idle", "click")]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    LANGUAGE.value = "en"
    yield
    LANGUAGE.value = "en"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[CampaignStore]:
    with CampaignStore(demo_campaign_file(tmp_path / "demo")) as opened:
        yield opened


@pytest.fixture
def other(tmp_path: Path) -> Iterator[CampaignStore]:
    """A second copy of the demo campaign (a second dashboard writes its own file)."""
    with CampaignStore(demo_campaign_file(tmp_path / "other")) as opened:
        yield opened


def shown(dashboard: Dashboard) -> dict[str, Any]:
    """What the panels show: the header, the attacker, the turn's actor, the log's rows."""
    assert dashboard.tracker
    assert dashboard.attack
    assert dashboard.turn_panel
    assert dashboard.combat_log
    return {
        "header": dashboard.tracker.header.value,
        "attacker": dashboard.attack.attacker,
        "attacker_box": dashboard.attack.attacker_box.value,
        "resolve": dashboard.attack.resolve_button.disabled,
        "actor": dashboard.turn_panel.form.actor,
        "log": dashboard.combat_log.table.value,
    }


def test_next_turn_shows_the_header_first_then_the_panels_as_without_deferral(
    store: CampaignStore, other: CampaignStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = Dashboard(store, seed=7, follow=False)
    kernel = FakeKernel()
    monkeypatch.setattr(dashboard_module.Deferral, "here", classmethod(lambda cls: cls(kernel)))
    deferred = Dashboard(other, seed=7, follow=False)
    try:
        for made in (plain, deferred):
            assert made.tracker is not None
            made.tracker.roll_initiative(INITIATIVE)
            made.tracker.start()
        kernel.run()
        assert shown(deferred) == shown(plain)
        for _ in range(3):
            before = shown(deferred)
            plain.press("next")
            assert deferred.tracker is not None
            deferred.tracker.next_turn()  # the tracker's Next button
            now = shown(deferred)
            assert now["header"] == shown(plain)["header"] != before["header"]  # at once
            assert now["attacker"] == before["attacker"]  # the attack panel: not yet
            kernel.run()
            assert shown(deferred) == shown(plain)  # then everything as without deferral
        assert kernel.statuses.count(("busy", "click")) == kernel.statuses.count(("idle", "click"))
    finally:
        plain.close()
        deferred.close()


def test_a_shortcut_right_after_next_sees_the_panels_updated(
    store: CampaignStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    kernel = FakeKernel()
    monkeypatch.setattr(dashboard_module.Deferral, "here", classmethod(lambda cls: cls(kernel)))
    dashboard = Dashboard(store, seed=7, follow=False)
    try:
        assert dashboard.tracker is not None
        assert dashboard.attack is not None
        dashboard.tracker.roll_initiative(INITIATIVE)
        dashboard.tracker.start()
        kernel.run()
        first = dashboard.attack.attacker
        dashboard.tracker.next_turn()
        assert dashboard.encounter is not None
        assert dashboard.encounter.state.current
        actor = dashboard.encounter.state.current.id
        assert actor != first
        assert dashboard.attack.attacker == first
        dashboard.press("undo")  # a command: what was held runs first (then the undo's waits)
        assert dashboard.attack.attacker == actor
        kernel.run()
        assert dashboard.attack.attacker == first  # the turn undone
        assert dashboard._deferral.pending == 0
    finally:
        dashboard.close()
