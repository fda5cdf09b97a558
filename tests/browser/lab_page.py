"""Driving a notebook in a real JupyterLab page (Playwright): shared by the lab browser tests."""

from __future__ import annotations

import time
from typing import Any

import pytest

# what a JupyterLab notebook's scrolling panel shows now: where it is scrolled, how tall it
# is, and how many cells and outputs it has drawn (it draws the cells in view as they come)
SHOWN = """el => [el.scrollTop, el.scrollHeight,
  el.querySelectorAll('.jp-Cell').length,
  el.querySelectorAll('.jp-OutputArea-output').length]"""


def kernel_ready(page: Any, timeout: float = 120) -> None:
    """Wait for the notebook's kernel to be idle; choose the Python kernel when JupyterLab
    asks which (it does so now and then for a notebook opened by URL)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        choose = page.locator(".jp-Dialog button", has_text="Select")
        if choose.count() and choose.first.is_visible():
            choose.first.click()
        status = page.locator(".jp-StatusBar-TextItem", has_text="Idle")
        if status.count() and not page.locator(".jp-Dialog").count():
            return
        page.wait_for_timeout(250)
    pytest.fail("the notebook's kernel never became idle")


def run_all_cells(page: Any) -> None:
    """Run > Run All Cells, as the GM does."""
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()


def click_and_wait(page: Any, button: Any) -> None:
    """Click ``button`` and wait until the kernel has answered it (idle again)."""
    button.click()
    kernel_ready(page)


def said_no_error(errors: Any) -> None:
    """No widget shows an error (read once the kernel is idle: every update has arrived)."""
    assert errors.count() == 0, errors.all_inner_texts()


def play_the_widgets(
    page: Any,
    scope: Any,
    shot: Any,
    *,
    shooter: tuple[str, str] | None = None,
    distance: str | None = None,
) -> None:
    """Click the tracker and the attack panel in ``scope`` (a notebook's panel) as the GM
    does: Roll initiative and Start where the game has them, Next several times, then the
    panel's Resolve, Apply and Undo; after each click the widget says what it did and no error
    (in JupyterLab 4.6 with ipykernel 7, Next and Apply said "the file is damaged" from the
    third click on: the widgets' messages run on a subshell thread). ``shot(name)`` takes a
    screenshot of each step. In a game of sides, ``shooter`` (a fighter, their side) shoots
    once it is their side's shooting phase, at ``distance``; elsewhere whoever acts attacks."""
    from playwright.sync_api import expect

    tracker = scope.locator(".gmkit-tracker").first
    tracker.scroll_into_view_if_needed()
    errors = scope.locator(".gmkit-error")
    header = tracker.locator(".gmkit-header").first
    for label in ("Roll initiative", "Start"):
        button = tracker.get_by_role("button", name=label, exact=True)
        if button.count() and button.first.is_enabled():
            click_and_wait(page, button.first)
            said_no_error(errors)
    shot("started")
    next_button = tracker.get_by_role("button", name="Next", exact=True).first
    expect(next_button).to_be_enabled()
    step = 0
    side = shooter[1] if shooter else ""
    while step < 4 or (shooter and f"Side: {side} · Phase: shooting" not in header.inner_text()):
        step += 1
        assert step <= 16, f"no shooting phase of {side} in 16 turns: {header.inner_text()}"
        before = header.inner_text()
        click_and_wait(page, next_button)
        said_no_error(errors)
        expect(header).not_to_have_text(before)  # the turn moved on
        shot(f"next-{step}")
    # the GM picks who acts: the actor ("Turn: Ganger 4"), or the side's shooter
    heading = header.inner_text().replace("\xa0", " ")
    actor = shooter[0] if shooter else heading.split("Turn: ", 1)[-1].strip()
    attacker = scope.locator(".gmkit-choices select").first
    labels = attacker.locator("option").all_inner_texts()
    chosen = [label for label in labels if label.replace("\xa0", " ").startswith(f"{actor} (")]
    assert chosen, (actor, labels)
    attacker.select_option(label=chosen[0])
    kernel_ready(page)
    if distance is not None:
        box = scope.locator(".gmkit-choices input[type=text]").first
        box.fill(distance)
        box.press("Tab")
        kernel_ready(page)
    commands = scope.locator(".gmkit-commands").first
    commands.scroll_into_view_if_needed()
    result = scope.locator(".gmkit-result-column").first
    click_and_wait(page, commands.get_by_role("button", name="Resolve", exact=True))
    said_no_error(errors)
    expect(result).not_to_have_text("")
    shot("resolved")
    apply = commands.get_by_role("button", name="Apply", exact=True)
    expect(apply).to_be_enabled()
    click_and_wait(page, apply)
    said_no_error(errors)
    expect(apply).to_be_disabled()  # applied: once
    shot("applied")
    undo = commands.get_by_role("button", name="Undo", exact=True)
    expect(undo).to_be_enabled()
    click_and_wait(page, undo)
    said_no_error(errors)
    shot("undone")
