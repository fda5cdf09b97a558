"""Honest busy and idle (issue 22, item 6), on a real kernel: a click on the tracker's Next, sent
as the page sends it (a widget message on the shell channel), gets every panel's update before
the kernel says idle for it. Before, a deferral sent the panels' updates 77-202 ms after that
idle (busy, busy, idle, then 10-12 updates, then a second idle): a page or a test that waits
for idle saw stale panels."""

from __future__ import annotations

import queue
import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.server  # it starts a kernel

SETUP = """
from gmkit.campaign import demo_campaign_file
from gmkit.store import CampaignStore
from gmkit.widgets._dashboard import Dashboard
store = CampaignStore(demo_campaign_file({folder!r}))
board = Dashboard(store, "The Chapel of the Pale Throne", seed=7, follow=False)
board.tracker.roll_initiative("9 10 6 7 1 5 4 8")
board.tracker.start()
"""
WAIT = 60.0


def iopub_until_idle(client: Any, parent: str) -> list[dict[str, Any]]:
    """Every IOPub message until the kernel's idle for ``parent`` (the others kept too)."""
    found: list[dict[str, Any]] = []
    start = time.monotonic()
    while time.monotonic() - start < WAIT:
        try:
            message = client.get_iopub_msg(timeout=1)
        except queue.Empty:
            continue
        found.append(message)
        mine = message["parent_header"].get("msg_id") == parent
        status = message["msg_type"] == "status" and message["content"]["execution_state"]
        if mine and status == "idle":
            return found
    pytest.fail(f"no idle for {parent} after {WAIT:.0f} s")


def test_every_panel_update_of_a_click_comes_before_its_idle(tmp_path: Path) -> None:
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")
    try:
        done = client.execute_interactive(
            SETUP.format(folder=str(tmp_path)),
            timeout=120,
            user_expressions={
                "next": "board.tracker.next_button.model_id",
                "attacker": "board.attack.attacker",
            },
            output_hook=lambda message: None,
        )
        assert done["content"]["status"] == "ok", done["content"]
        found = done["content"]["user_expressions"]
        next_button = found["next"]["data"]["text/plain"].strip("'")
        before = found["attacker"]["data"]["text/plain"]
        # the page's click: a widget message to the button's comm
        click = client.session.msg(
            "comm_msg",
            {"comm_id": next_button, "data": {"method": "custom", "content": {"event": "click"}}},
        )
        client.shell_channel.send(click)
        clicked = click["header"]["msg_id"]
        until_idle = iopub_until_idle(client, clicked)
        updates = [
            m
            for m in until_idle
            if m["msg_type"] == "comm_msg" and m["parent_header"].get("msg_id") == clicked
        ]
        # then anything the click sends later shows up before the next request's idle
        follow = client.execute("board.attack.attacker", user_expressions={})
        later = iopub_until_idle(client, follow)
        late = [
            m
            for m in later
            if m["parent_header"].get("msg_id") == clicked and m["msg_type"] != "status"
        ]
        after = client.execute_interactive(
            "",
            timeout=60,
            user_expressions={"attacker": "board.attack.attacker"},
            output_hook=lambda message: None,
        )["content"]["user_expressions"]["attacker"]["data"]["text/plain"]
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert after != before  # the turn passed: the attack panel follows the next actor
    assert len(updates) >= 5  # the tracker's and the panels' updates, before the idle
    assert late == []  # none after it
