"""The GM's dashboard against bare notebooks, served the same way, measured in one run.

    python bench/bench_dashboard.py [--clicks 25] [--loads 5] [--repeat 1]

Everything runs here: Voila servers (``gmkit table`` for the dashboard, the same Voila command
for the bare notebooks: sources stripped, dark theme, one preheated kernel) and Debian's
Chromium through Playwright. Prints a table with the goals; asserts nothing.

- Click to updated screen: the dashboard's Next -> the tracker's header names the new actor,
  against a bare Button -> Label notebook. Timed inside the page (``performance.now()`` from
  the click to the DOM change, seen by a MutationObserver), so Playwright's own round trips
  are not counted. Goals: median <= 100 ms and <= 1.5x the bare one. Also timed, on the same
  clicks: until the whole tracker shows the new turn (the header, and the new actor's row
  marked current, the class that highlights it), whatever order its parts arrive in. What
  each click cost on the wire is counted from the page's websocket frames (Playwright's,
  outside the page): the kernel's messages from the click until the kernel is idle again, how
  many were widget updates, and their bytes.
- Time to interactive: from the navigation to the dashboard's buttons on screen, against an
  empty notebook (one ``pass`` cell) to its page shown with its kernel connected (the spinner
  gone and a first message from the kernel). Each load waits first for Voila's preheated kernel
  to be ready again (started, and done running the notebook: the server's processes quiet).
  Goal: <= 1.3x the empty notebook. Also counted: the bytes the page received until then,
  and the widget models in the state Voila sends the page.

``--repeat N`` runs the whole measure N times (the machine may be shared: noisy) and prints
each run's table, then the medians of the runs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from gmkit.campaign import create_demo_store
from gmkit.cli import voila_command
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.store import CampaignStore

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

BARE = """\
import ipywidgets as widgets

button = widgets.Button(description="Click")
label = widgets.Label("0")
button.on_click(lambda _button: setattr(label, "value", str(int(label.value) + 1)))
widgets.VBox([button, label])
"""

# Recorded from the first script on: when the page first shows what "interactive" means.
READY_SCRIPT = """
(() => {
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const socket = new Native(...args);
    socket.addEventListener("message", () => {
      if (window.__firstMessage === undefined) window.__firstMessage = performance.now();
    });
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, Native);
  const check = () => {
    if (window.__spinnerGone === undefined && document.readyState !== "loading"
        && !document.getElementById("loading")) window.__spinnerGone = performance.now();
    if (window.__dashboard === undefined
        && document.querySelector(".gmkit-tracker .jupyter-button")) {
      window.__dashboard = performance.now();
    }
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true,
                                                 attributes: true});
})();
"""

CLICK_SCRIPT = """
async ([button, target, expected]) => {
  const node = document.querySelector(target);
  const clickable = [...document.querySelectorAll(button.selector)]
    .find(b => b.innerText.trim() === button.text);
  return await new Promise(resolve => {
    let start;
    const observer = new MutationObserver(() => {
      if (node.innerText.includes(expected)) {
        observer.disconnect();
        resolve(performance.now() - start);
      }
    });
    observer.observe(node, {subtree: true, childList: true, characterData: true});
    start = performance.now();
    clickable.click();
  });
}
"""

# The same click, timed twice: the header (as CLICK_SCRIPT), and the whole tracker: the header,
# and the row marked current (its class, which highlights it) naming the new actor.
TRACKER_CLICK_SCRIPT = """
async ([button, target, expected]) => {
  const node = document.querySelector(target);
  const tracker = node.closest(".gmkit-tracker");
  const clickable = [...document.querySelectorAll(button.selector)]
    .find(b => b.innerText.trim() === button.text);
  const whole = () => {
    const row = tracker.querySelector(".gmkit-row.gmkit-current");
    // the row is highlighted by its class (gmkit-current), toggled: no <style> is rewritten
    return !!row && row.querySelector(".gmkit-name").textContent.trim() === expected;
  };
  return await new Promise(resolve => {
    let start, header, all;
    const done = () => { if (header !== undefined && all !== undefined) resolve([header, all]); };
    const first = new MutationObserver(() => {
      if (node.innerText.includes(expected)) {
        first.disconnect();
        header = performance.now() - start;
        done();
      }
    });
    const second = new MutationObserver(() => {
      if (node.textContent.includes(expected) && whole()) {
        second.disconnect();
        all = performance.now() - start;
        done();
      }
    });
    first.observe(node, {subtree: true, childList: true, characterData: true});
    second.observe(tracker, {subtree: true, childList: true, characterData: true,
                             attributes: true, attributeFilter: ["class"]});
    start = performance.now();
    clickable.click();
  });
}
"""

NEXT_ACTOR_SCRIPT = """
() => {
  const rows = [...document.querySelectorAll(".gmkit-tracker .gmkit-row")];
  const now = rows.findIndex(row => row.classList.contains("gmkit-current"));
  return rows[(now + 1) % rows.length].querySelector(".gmkit-name").innerText.trim();
}
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def decode_frame(payload: str | bytes) -> dict[str, Any]:
    """A kernel websocket frame: Jupyter's v1 binary protocol (what Voila's page speaks) or the
    older JSON one; only what the counts need: channel, type, its parent's type, the content."""
    if isinstance(payload, str):
        msg = json.loads(payload)
        return {
            "channel": msg.get("channel", ""),
            "type": msg.get("header", {}).get("msg_type", ""),
            "parent": msg.get("parent_header", {}).get("msg_type", ""),
            "content": msg.get("content", {}),
        }
    count = int.from_bytes(payload[:8], "little")
    offsets = [int.from_bytes(payload[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
    offsets.append(len(payload))
    parts = [payload[offsets[i] : offsets[i + 1]] for i in range(len(offsets) - 1)]
    header, parent = json.loads(parts[1] or b"{}"), json.loads(parts[2] or b"{}")
    return {
        "channel": parts[0].decode("utf-8"),
        "type": header.get("msg_type", ""),
        "parent": parent.get("msg_type", ""),
        "content": json.loads(parts[4] or b"{}"),
    }


@dataclass
class Frames:
    """Every frame a page received from its kernel (recorded by Playwright, outside the page,
    so the page's own timing is untouched): size and decoded message."""

    received: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    def attach(self, page: Any) -> None:
        def on_socket(socket: Any) -> None:
            if "/channels" in socket.url:
                socket.on("framereceived", self._received)

        page.on("websocket", on_socket)

    def _received(self, payload: str | bytes) -> None:
        try:
            decoded = decode_frame(payload)
        except (ValueError, IndexError):
            decoded = {"channel": "", "type": "", "parent": "", "content": {}}
        self.received.append((len(payload), decoded))

    def idle_after_click(self, start: int) -> bool:
        """Whether the kernel went idle after handling a widget message, since ``start``."""
        return any(
            msg["type"] == "status"
            and msg["parent"] == "comm_msg"
            and msg["content"].get("execution_state") == "idle"
            for _, msg in self.received[start:]
        )

    def summary(self, start: int) -> tuple[int, int, int]:
        """Since ``start``: (messages, widget updates, bytes)."""
        frames = self.received[start:]
        updates = sum(
            1
            for _, msg in frames
            if msg["type"] == "comm_msg"
            and msg["content"].get("data", {}).get("method") == "update"
        )
        return len(frames), updates, sum(size for size, _ in frames)

    def models(self) -> int:
        """Widget models in the states the page was sent (the largest state message's)."""
        counts = [
            len(msg["content"].get("data", {}).get("states", {}))
            for _, msg in self.received
            if msg["type"] == "comm_msg"
        ]
        return max(counts, default=0)


class Served:
    """A server process (its own process group), its URL and its log."""

    def __init__(self, command: list[str], folder: Path, port: int, env: dict[str, str]) -> None:
        self.log = folder / f"server-{port}.log"
        self.url = f"http://127.0.0.1:{port}/"
        self.process = subprocess.Popen(
            command,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            cwd=folder,
            env={**os.environ, **env},
            start_new_session=True,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url, timeout=60):
                    break
            except OSError:
                time.sleep(0.3)
        else:
            raise RuntimeError(f"no page at {self.url}:\n{self.log.read_text()}")

    def pool_filled(self) -> int:
        return len(re.findall(r"Kernel pool of \S+ is filled", self.log.read_text()))

    def wait_for_pool(self, count: int, timeout: float = 120) -> None:
        """Until Voila has filled its pool ``count`` times and the new kernel has run the
        notebook. Voila logs "filled" once the kernel has started, before the notebook has
        run (a page asked for then waits for the rest of the run), so this also waits for the
        server and its kernels to go quiet."""
        deadline = time.monotonic() + timeout
        while self.pool_filled() < count and time.monotonic() < deadline:
            time.sleep(0.2)
        self.wait_quiet(deadline)
        time.sleep(0.5)  # let the machine settle

    def cpu_ticks(self) -> int | None:
        """CPU time (clock ticks) used so far by the server and every process under it, from
        Linux's /proc (None elsewhere)."""
        parents: dict[int, int] = {}
        used: dict[int, int] = {}
        try:
            entries = [entry for entry in os.listdir("/proc") if entry.isdigit()]
        except OSError:
            return None
        for entry in entries:
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # gone meanwhile
            parents[int(entry)] = int(fields[1])
            used[int(entry)] = int(fields[11]) + int(fields[12])  # utime + stime
        ours = {self.process.pid}
        grew = True
        while grew:
            found = {pid for pid, parent in parents.items() if parent in ours} - ours
            grew = bool(found)
            ours |= found
        return sum(used.get(pid, 0) for pid in ours)

    def wait_quiet(self, deadline: float, window: float = 0.3, ticks: int = 3) -> None:
        """Until the server's process tree uses at most ``ticks`` of CPU in ``window``
        seconds (the pool's kernel has run the notebook; the followers' polls are less)."""
        before = self.cpu_ticks()
        if before is None:
            time.sleep(3.0)  # no /proc: give the kernel time to run the notebook
            return
        while time.monotonic() < deadline:
            time.sleep(window)
            now = self.cpu_ticks() or 0
            if now - before <= ticks:
                return
            before = now

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.process.pid, signal.SIGKILL)


def notebook(folder: Path, name: str, source: str) -> Path:
    made = nbformat.v4.new_notebook()
    made.cells = [nbformat.v4.new_code_cell(source)]
    made.cells[0]["id"] = "bench"
    made.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    path = folder / name
    nbformat.write(made, path)
    return path


def started_demo(folder: Path) -> Path:
    """The demo campaign with the Dark Heresy fight started (initiative rolled, seeded)."""
    path = create_demo_store(folder / "bench.gmk")
    with CampaignStore(path) as store:
        fight = Encounter.open(store, store.encounters()[0].name)
        fight.roll_initiative(SeededDice(1))
        fight.start(SeededDice(2))
    return path


def serve_notebook(path: Path, folder: Path) -> Served:
    port = free_port()
    return Served(voila_command(path, port, open_browser=False), folder, port, {})


def serve_table(campaign: Path, folder: Path) -> Served:
    port = free_port()
    gmkit = Path(sys.executable).with_name("gmkit")
    command = [str(gmkit), "table", str(campaign), "--port", str(port), "--no-browser"]
    return Served(command, folder, port, {"GMKIT_SEED": "7"})


@dataclass
class Loads:
    times: list[float] = field(default_factory=list)
    kilobytes: list[float] = field(default_factory=list)
    models: list[int] = field(default_factory=list)


def time_to_interactive(browser: object, served: Served, marker: str, loads: int) -> Loads:
    measured = Loads()
    for load in range(loads):
        served.wait_for_pool(load + 1)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})  # type: ignore[attr-defined]
        frames = Frames()
        frames.attach(page)
        page.add_init_script(READY_SCRIPT)
        page.goto(served.url, wait_until="commit", timeout=120_000)
        if marker == "dashboard":
            page.wait_for_function("() => window.__dashboard !== undefined", timeout=120_000)
            measured.times.append(page.evaluate("() => window.__dashboard"))
        else:
            page.wait_for_function(
                "() => window.__spinnerGone !== undefined && window.__firstMessage !== undefined",
                timeout=120_000,
            )
            measured.times.append(
                page.evaluate("() => Math.max(window.__spinnerGone, window.__firstMessage)")
            )
        _, _, received = frames.summary(0)
        measured.kilobytes.append(received / 1024)
        measured.models.append(frames.models())
        page.close()
    return measured


@dataclass
class Clicks:
    times: list[float] = field(default_factory=list)
    whole: list[float] = field(default_factory=list)  # until the whole tracker is updated
    messages: list[int] = field(default_factory=list)
    updates: list[int] = field(default_factory=list)
    kilobytes: list[float] = field(default_factory=list)


def wait_idle(page: Any, frames: Frames, start: int, timeout: float = 10.0) -> None:
    """Until the kernel has sent everything the click caused (its idle status)."""
    deadline = time.monotonic() + timeout
    while not frames.idle_after_click(start) and time.monotonic() < deadline:
        page.wait_for_timeout(10)  # Playwright delivers the frames while it waits


def click_round_trips(browser: object, served: Served, kind: str, clicks: int) -> Clicks:
    page = browser.new_page(viewport={"width": 1600, "height": 1000})  # type: ignore[attr-defined]
    frames = Frames()
    frames.attach(page)
    page.goto(served.url, wait_until="domcontentloaded", timeout=120_000)
    measured = Clicks()

    def one(button: dict[str, str], target: str, expected: str) -> None:
        start = len(frames.received)
        if kind == "dashboard":
            header, whole = page.evaluate(TRACKER_CLICK_SCRIPT, [button, target, expected])
        else:
            header = whole = page.evaluate(CLICK_SCRIPT, [button, target, expected])
        measured.times.append(header)
        measured.whole.append(whole)
        wait_idle(page, frames, start)
        messages, updates, received = frames.summary(start)
        measured.messages.append(messages)
        measured.updates.append(updates)
        measured.kilobytes.append(received / 1024)

    if kind == "dashboard":
        page.locator(".gmkit-tracker .gmkit-row.gmkit-current").first.wait_for(timeout=120_000)
        button = {"selector": ".gmkit-tracker button", "text": "Next"}
        for _ in range(clicks + 3):
            one(button, ".gmkit-tracker .gmkit-header", page.evaluate(NEXT_ACTOR_SCRIPT))
            page.wait_for_timeout(150)  # the tracker's other rows settle before the next click
    else:
        page.locator(".widget-label").first.wait_for(timeout=120_000)
        button = {"selector": "button", "text": "Click"}
        for count in range(1, clicks + 4):
            one(button, ".widget-label", str(count))
            page.wait_for_timeout(150)
    page.close()
    for values in (
        measured.times,
        measured.whole,
        measured.messages,
        measured.updates,
        measured.kilobytes,
    ):
        del values[:3]  # the first clicks warm the page up
    return measured


def median(values: list[float]) -> float:
    return statistics.median(values)


def p90(values: list[float]) -> float:
    return sorted(values)[int(0.9 * (len(values) - 1))]


def measure(args: argparse.Namespace) -> list[tuple[str, float, float | None, str, str]]:
    """One run: the servers started, every measure taken, the servers stopped; the table."""
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="gmkit-bench-"))
    empty = notebook(folder, "empty.ipynb", "pass")
    bare = notebook(folder, "bare.ipynb", BARE)
    servers = []
    try:
        table = serve_table(started_demo(folder), folder)
        servers.append(table)
        empty_server = serve_notebook(empty, folder)
        servers.append(empty_server)
        bare_server = serve_notebook(bare, folder)
        servers.append(bare_server)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            tti_dashboard = time_to_interactive(browser, table, "dashboard", args.loads)
            tti_empty = time_to_interactive(browser, empty_server, "empty", args.loads)
            table.wait_for_pool(args.loads + 1)
            click_dashboard = click_round_trips(browser, table, "dashboard", args.clicks)
            bare_server.wait_for_pool(1)
            click_bare = click_round_trips(browser, bare_server, "bare", args.clicks)
            browser.close()
    finally:
        for server in servers:
            server.stop()

    dashboard, bare_clicks = click_dashboard.times, click_bare.times
    click_ratio = median(dashboard) / median(bare_clicks)
    whole = click_dashboard.whole
    whole_ratio = median(whole) / median(bare_clicks)
    tti_ratio = median(tti_dashboard.times) / median(tti_empty.times)
    # the counts' second column is their largest value, not a p90
    return [
        ("click -> screen: dashboard Next (ms)", median(dashboard), p90(dashboard),
         "median <= 100", "yes" if median(dashboard) <= 100 else "NO"),
        ("click -> screen: bare Button->Label (ms)", median(bare_clicks), p90(bare_clicks), "", ""),
        ("click ratio dashboard / bare", click_ratio, None, "<= 1.5",
         "yes" if click_ratio <= 1.5 else "NO"),
        ("click -> whole tracker updated (ms)", median(whole), p90(whole), "", ""),
        ("  ratio whole tracker / bare", whole_ratio, None, "", ""),
        ("  per Next: kernel messages", median(click_dashboard.messages),
         max(click_dashboard.messages), "", ""),
        ("  per Next: widget updates", median(click_dashboard.updates),
         max(click_dashboard.updates), "", ""),
        ("  per Next: KB received", median(click_dashboard.kilobytes),
         max(click_dashboard.kilobytes), "", ""),
        ("  per bare click: kernel messages", median(click_bare.messages),
         max(click_bare.messages), "", ""),
        ("  per bare click: KB received", median(click_bare.kilobytes),
         max(click_bare.kilobytes), "", ""),
        ("time to interactive: dashboard (ms)", median(tti_dashboard.times),
         p90(tti_dashboard.times), "", ""),
        ("time to interactive: empty notebook (ms)", median(tti_empty.times),
         p90(tti_empty.times), "", ""),
        ("time to interactive ratio dashboard / empty", tti_ratio, None, "<= 1.3",
         "yes" if tti_ratio <= 1.3 else "NO"),
        ("  load: dashboard widget models", median(tti_dashboard.models),
         max(tti_dashboard.models), "", ""),
        ("  load: dashboard KB received", median(tti_dashboard.kilobytes),
         max(tti_dashboard.kilobytes), "", ""),
        ("  load: empty notebook KB received", median(tti_empty.kilobytes),
         max(tti_empty.kilobytes), "", ""),
    ]  # fmt: skip


def show(rows: list[tuple[str, float, float | None, str, str]], title: str) -> None:
    print(title)
    print(f"{'measure':<46} {'median':>9} {'p90/max':>9}  {'goal':<14} met")
    for name, value, high, goal, met in rows:
        high_text = f"{high:9.1f}" if high is not None else " " * 9
        print(f"{name:<46} {value:9.2f} {high_text}  {goal:<14} {met}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=25)
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=1, help="runs, then their medians")
    args = parser.parse_args()
    runs = []
    for run in range(args.repeat):
        rows = measure(args)
        runs.append(rows)
        show(rows, f"gmkit dashboard bench: {args.clicks} clicks, {args.loads} loads, "
                   f"run {run + 1} of {args.repeat}, this machine")  # fmt: skip
        sys.stdout.flush()
    if args.repeat > 1:
        medians = []
        for index, (name, _, _, goal, _) in enumerate(runs[0]):
            value = median([rows[index][1] for rows in runs])
            met = ""
            if goal:
                limit = float(goal.split()[-1])
                met = "yes" if value <= limit else "NO"
            medians.append((name, value, max(rows[index][1] for rows in runs), goal, met))
        show(medians, f"medians of {args.repeat} runs (the p90/max column: the worst run's median)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
