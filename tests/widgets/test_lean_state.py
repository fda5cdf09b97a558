"""The state a connecting page is sent: without the values ipywidgets' own defaults give (the
page's code has them), everything else as ipywidgets sends it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest
from ipywidgets import comm as widget_comm

from gmkit.campaign import demo_campaign_file
from gmkit.store import CampaignStore
from gmkit.widgets import _lean_state as lean_module
from gmkit.widgets._dashboard import Dashboard
from gmkit.widgets._lean_state import CORE_MODULES, _core_defaults, installed, lean_state


def tree(top: widgets.Widget) -> dict[str, widgets.Widget]:
    """``top`` and every widget it refers to, by model id (other tests' widgets left out)."""
    found: dict[str, widgets.Widget] = {}
    todo: list[Any] = [top]
    while todo:
        part = todo.pop()
        if isinstance(part, (list, tuple)):
            todo.extend(part)
        elif isinstance(part, widgets.Widget) and part.model_id not in found:
            found[part.model_id] = part
            todo.extend(getattr(part, name, None) for name in part.keys)
    return found


@pytest.fixture
def dashboard(tmp_path: Path) -> Iterator[Dashboard]:
    with CampaignStore(demo_campaign_file(tmp_path)) as store:
        made = Dashboard(store, seed=7, follow=False)
        yield made
        made.close()


def test_a_dropped_value_is_the_default_of_ipywidgets_own_class(dashboard: Dashboard) -> None:
    assert installed()  # the dashboard installs it
    dropped = 0
    for widget in tree(dashboard).values():
        full, lean = widget.get_state(), lean_state(widget)
        assert {name: full[name] for name in lean} == lean  # nothing changed, only left out
        if widget._model_module not in CORE_MODULES:
            assert lean == full  # anywidget's code and the like: all of it
            continue
        base: Any = next(c for c in type(widget).__mro__ if c.__module__.startswith("ipywidgets."))
        for name in set(full) - set(lean):
            dropped += 1
            default = base.class_traits()[name].default()
            assert full[name] == default or list(full[name]) == list(default), name
    assert dropped > 500  # most of a Layout's nulls


def test_a_subclass_default_is_kept() -> None:
    from traitlets import Unicode

    class Boxed(widgets.HTML):
        placeholder = Unicode("mine").tag(sync=True)  # not ipywidgets' default ("")

    made = Boxed()
    try:
        assert lean_state(made)["placeholder"] == "mine"
        assert "placeholder" not in lean_state(widgets.HTML())
        assert "placeholder" in _core_defaults(widgets.HTML)
    finally:
        made.close()


class FakeComm:
    """A page's control comm: what the kernel sends on it, and the handler it is given."""

    def __init__(self) -> None:
        self.sent: list[tuple[dict[str, Any], Any]] = []
        self.handler: Any = None

    def on_msg(self, handler: Any) -> None:
        self.handler = handler

    def send(self, data: dict[str, Any], buffers: Any = None) -> None:
        self.sent.append((data, buffers))


REQUEST_STATES = {"content": {"data": {"method": "request_states"}}}


def open_control_comm(monkeypatch: pytest.MonkeyPatch) -> FakeComm:
    """A page opening its control comm, as the kernel's comm manager hands it on: to the
    target's handler gmkit registered (the dashboard installs it)."""
    monkeypatch.setattr(widgets.Widget, "_control_comm", None)  # ipywidgets keeps the last one
    comm = FakeComm()
    target = widget_comm.get_comm_manager().targets[lean_module.CONTROL_TARGET]
    target(comm, {"metadata": {"version": "1.0.0"}, "content": {"data": {}}})
    return comm


def test_the_page_asking_for_the_states_gets_the_lean_ones(
    dashboard: Dashboard, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lean_module, "live_widgets", lambda: tree(dashboard))  # this test's
    comm = open_control_comm(monkeypatch)
    comm.handler(REQUEST_STATES)
    ((data, _buffers),) = comm.sent
    assert data["method"] == "update_states"
    states = data["states"]
    assert set(states) == set(tree(dashboard))
    title = states[dashboard.title.model_id]
    assert title["model_name"] == "HTMLModel"
    assert title["state"] == lean_state(dashboard.title)
    assert "gmkit demo campaign" in title["state"]["value"]
    shortcuts = states[dashboard.shortcuts.model_id]["state"]
    assert "_esm" in shortcuts  # anywidget's code travels


def test_a_control_comm_of_another_protocol_major_is_refused(
    dashboard: Dashboard, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ipywidgets still checks the page's control protocol before gmkit answers it."""
    monkeypatch.setattr(widgets.Widget, "_control_comm", None)
    target = widget_comm.get_comm_manager().targets[lean_module.CONTROL_TARGET]
    comm = FakeComm()
    with pytest.raises(ValueError, match="Incompatible widget control protocol"):
        target(comm, {"metadata": {"version": "9.0.0"}, "content": {"data": {}}})
    assert comm.handler is None


def test_a_left_over_widget_holding_a_closed_one_does_not_spoil_the_page_s_answer(
    dashboard: Dashboard, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fight switched in a kernel no page had yet (Voila's preheated one) left widgets that
    hold closed ones; the answer to a page's ``request_states`` failed on them, the page asked
    each widget apart past the rate limit, and stayed on "Loading widget..." (issue 27)."""
    left_over = widgets.HTML("old")
    left_over.layout.close()  # its layout closed, as a closed panel's shared looks are
    live = tree(dashboard)
    monkeypatch.setattr(
        lean_module, "live_widgets", lambda: {**live, left_over.model_id: left_over}
    )
    comm = open_control_comm(monkeypatch)
    comm.handler(REQUEST_STATES)
    ((data, _buffers),) = comm.sent
    assert set(data["states"]) == set(live)  # every widget of the page; the left-over not
    left_over.close()
