"""The GM's dashboard page as the browser tests drive it: controls found by their labels,
each action waited for until the dashboard's kernel has handled it (the busy and idle statuses
on the page's websocket), so a dropdown is never picked from options already replaced."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest

WAIT = 30.0  # s: generous, for a loaded CI machine
STATUS = re.compile(r'"execution_state":\s*"(busy|idle)"')
T = TypeVar("T")

TRACKER_ROW = """name => {
  const row = [...document.querySelectorAll('.gmkit-tracker .gmkit-row')]
    .find(r => r.querySelector('.gmkit-name')?.innerText.trim() === name);
  if (!row) return null;
  return {wounds: row.querySelector('.gmkit-wounds')?.innerText.trim() ?? '',
          badges: [...row.querySelectorAll('.gmkit-badge')].map(b => b.innerText.trim())};
}"""
LOG_ATTACKS = """() => [...document.querySelectorAll('.gmkit-log tbody tr')]
  .filter(r => r.querySelector('.gmkit-kind')?.innerText.trim() === 'attack')
  .map(r => ({outcome: r.querySelector('.gmkit-outcome').innerText.trim(),
              rolls: r.querySelector('.gmkit-rolls').innerText.trim(),
              dice: r.querySelector('.gmkit-dice').innerText.trim()}))"""
# a dropdown's option texts (ipywidgets writes their spaces as no-break spaces)
OPTIONS = "select => [...select.options].map(o => o.text.replace(/\\u00a0/g, ' '))"
SELECTED = f"select => ({OPTIONS})(select)[select.selectedIndex] ?? ''"


def until(page: Any, step: str, read: Callable[[], T], ok: Callable[[T], bool]) -> float:
    """Poll ``read()`` (every 50 ms) until ``ok`` holds; the seconds it took. Fails naming the
    step and what was last shown."""
    start = time.monotonic()
    while True:
        value = read()
        if ok(value):
            return time.monotonic() - start
        if time.monotonic() - start > WAIT:
            pytest.fail(f"{step}: not shown after {WAIT:.0f} s; shown: {value!r}")
        page.wait_for_timeout(50)


# two of the browser's animation frames (a layout, a font or a widget's update in flight is
# drawn by then); a page that draws no frame (hidden) answers after 250 ms all the same
FRAMES = """() => new Promise(done => {
  requestAnimationFrame(() => requestAnimationFrame(() => done()));
  setTimeout(done, 250);
})"""
_NOTHING = object()


def steady(
    page: Any, step: str, read: Callable[[], T], ok: Callable[[T], bool] = lambda _value: True
) -> T:
    """Poll ``read()`` until it gives the same value twice running, the page having drawn two
    frames in between, and ``ok`` holds for it (by default: any value); that value. For what
    settles rather than appears: a layout once its fonts and widgets are drawn, cells rendered
    after a resize. Fails naming the step and what was last read."""
    start = time.monotonic()
    last: Any = _NOTHING
    while True:
        value = read()
        if value == last and ok(value):
            return value
        if time.monotonic() - start > WAIT:
            pytest.fail(f"{step}: not steady after {WAIT:.0f} s; last read: {value!r}")
        last = value
        page.evaluate(FRAMES)


def holds_for(span: float, step: str, check: Callable[[], bool], page: Any = None) -> None:
    """Check ``check()`` at every poll (each 50 ms) for ``span`` seconds, failing at the first
    that it does not hold. Only for what nothing observable marks (a kernel waiting in a pool
    has no page to show what it read): ``span`` comes from the system's own setting (so many
    of the players' polls), never a guess; anything that can be seen is waited for instead
    (``until``, ``steady``). With ``page``, the page's events are handled meanwhile."""
    end = time.monotonic() + span
    while True:
        assert check(), f"{step}: no longer holds"
        if time.monotonic() >= end:
            return
        if page is not None:
            page.wait_for_timeout(50)
        else:
            time.sleep(0.05)


PHONE = {"width": 360, "height": 740}  # the players' phone in the browser tests
PHONE_OVERFLOW = """() => [document.documentElement.scrollWidth,
  [...document.querySelectorAll('.gmkit-player *')]
    .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
    .map(e => e.className.toString() || e.tagName).slice(0, 5)]"""


def within_the_phone(page: Any, language: str) -> None:
    """Nothing of the players' page beyond the phone's width: no sideways scroll, no element
    past its right edge (the first five named)."""
    width, beyond = page.evaluate(PHONE_OVERFLOW)
    assert width <= PHONE["width"], f"sideways scroll at {PHONE['width']} px ({language}): {width}"
    assert not beyond, f"beyond the phone's width ({language}): {beyond}"


def inner_text(page: Any, selector: str) -> str:
    found = page.locator(selector)
    return str(found.first.inner_text()) if found.count() else ""


class Table:
    """The GM's dashboard page, and how many messages its kernel has handled (the busy and
    idle statuses the kernel sends on the page's websocket for each)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.busy = 0
        self.idle = 0
        self.done = time.monotonic()  # when the kernel had handled the last action
        page.on("websocket", lambda socket: socket.on("framereceived", self._on_frame))

    def _on_frame(self, payload: str | bytes) -> None:
        text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
        for state in STATUS.findall(text):
            if state == "busy":
                self.busy += 1
            else:
                self.idle += 1

    @contextmanager
    def acting(self, step: str) -> Iterator[None]:
        """Do what the block does (a click, a pick, Enter in a field), then wait until the
        kernel has handled it and everything before it."""
        since = self.idle
        yield
        start = time.monotonic()
        while not (self.idle > since and self.idle >= self.busy):
            if time.monotonic() - start > WAIT:
                pytest.fail(f"{step}: the dashboard's kernel never answered")
            self.page.wait_for_timeout(20)
        self.done = time.monotonic()
        self.no_error(step)

    def no_error(self, step: str) -> None:
        shown = self.page.locator(".gmkit-dashboard .gmkit-error")
        errors = [shown.nth(n).inner_text() for n in range(shown.count())]
        assert not [e for e in errors if e.strip()], f"{step}: the dashboard refused: {errors}"

    # --- controls -----------------------------------------------------------------------

    def click(self, scope: str, label: str, step: str) -> None:
        button = self.page.locator(f"{scope} button", has_text=label).first
        until(self.page, f"{step} ({label} enabled)", button.is_enabled, bool)
        with self.acting(step):
            button.click()

    def toggle(self, label: str, step: str, scope: str = ".gmkit-attack") -> None:
        """Press the toggle button ``label`` of the panel ``scope`` (the attack panel's by
        default) if it is not pressed already."""
        button = self.page.locator(f"{scope} .widget-toggle-button", has_text=label).first
        if "mod-active" not in (button.get_attribute("class") or ""):
            with self.acting(step):
                button.click()
        until(
            self.page,
            f"{step} pressed",
            lambda: button.get_attribute("class") or "",
            lambda css: "mod-active" in css,
        )

    def type_into(
        self, label: str, value: str, step: str, scope: str = ".gmkit-attack", key: str = "Enter"
    ) -> None:
        """Type ``value`` in the text field ``label`` of the panel ``scope``, then ``key``
        (Enter; Tab to leave the box without more: Enter in the attack's distance resolves)."""
        field_ = self.page.locator(
            f"{scope} .widget-text:has(label:text-is('{label}')) input"
        ).first
        with self.acting(step):
            field_.fill(value)
            field_.press(key)

    def choose(self, label: str, option: str, step: str, scope: str = ".gmkit-attack") -> None:
        """Pick ``option`` in the dropdown ``label`` of the panel ``scope`` (the attack
        panel's by default), if not picked already."""
        select = self.page.locator(
            f"{scope} .widget-dropdown:has(label:text-is('{label}')) select"
        ).first
        until(
            self.page,
            f"{step}: {option!r} offered",
            lambda: select.evaluate(OPTIONS),
            lambda options: option in options,
        )
        if select.evaluate(SELECTED) != option:
            with self.acting(step):
                select.select_option(label=option)
        until(
            self.page,
            f"{step}: {option!r} kept",
            lambda: select.evaluate(SELECTED),
            lambda shown: shown == option,
        )

    # --- reading --------------------------------------------------------------------------

    def header(self) -> str:
        return " ".join(inner_text(self.page, ".gmkit-tracker .gmkit-header").split())

    def row(self, name: str) -> dict[str, Any] | None:
        return self.page.evaluate(TRACKER_ROW, name)

    def show_pane(self, name: str) -> None:
        """Show the left column's pane ``name`` ("Turn", "Log", "Units") if it is not shown."""
        button = self.page.locator(".gmkit-pane-buttons .widget-toggle-button", has_text=name)
        if button.count() and "mod-active" not in (button.first.get_attribute("class") or ""):
            with self.acting(f"show the {name} pane"):
                button.first.click()

    def attacks(self) -> list[dict[str, str]]:
        """The log's attack rows, newest first (the Log pane is shown for it)."""
        self.show_pane("Log")
        return self.page.evaluate(LOG_ATTACKS)

    def type_die(self, index: int, value: str, step: str) -> None:
        """Type ``value`` in the ``index``-th box of the table's dice, then Tab (the boxes
        send what they hold when left)."""
        box = self.page.locator(".gmkit-attack .gmkit-dice-entry .gmkit-die-input").nth(index)
        until(self.page, f"{step}: box {index + 1}", box.count, bool)
        with self.acting(step):
            box.fill(value)
            box.press("Tab")

    def panel(self, selector: str) -> str:
        return inner_text(self.page, f".gmkit-attack {selector}")
