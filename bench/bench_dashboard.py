"""The GM's dashboard against bare notebooks, served the same way, measured in one run.

    python bench/bench_dashboard.py [--clicks 25] [--loads 5] [--repeat 1]

Everything runs here: Voila servers on this benchmark's own ports (:data:`PORTS`,
45000-45099: ``gmkit table`` for the dashboard, the same Voila command for the bare notebooks:
sources stripped, dark theme, as many preheated kernels as the table's pool) and Debian's
Chromium through Playwright. Prints a table, then each goal of issue 14 it measures through
``bench/goals.py`` ("click", "tti", "pool", "load_state"); asserts nothing.

- Click to updated screen: the dashboard's Next -> the tracker's header names the new actor,
  against a bare Button -> Label notebook. Timed inside the page (``performance.now()`` from
  the click to the DOM change, seen by a MutationObserver), so Playwright's own round trips
  are not counted. Goal: <= 1.5x the bare one. Also timed, on the same clicks: until the
  whole tracker shows the new turn (the header, and the new actor's row marked current, the
  class that highlights it), whatever order its parts arrive in. What each click cost on the
  wire is counted from the page's websocket frames (Playwright's, outside the page): the
  kernel's messages from the click until the kernel is idle again (as many idle statuses as
  busy ones: the dashboard stays busy while its deferred panels update), how many were widget
  updates, and their bytes.
- Time to interactive: from the navigation to the dashboard's buttons on screen, against an
  empty notebook (one ``pass`` cell) to its page shown with its kernel connected (the spinner
  gone and a first message from the kernel). Each load waits first until every kernel of
  Voila's pool has really run the notebook: asked on its shell channel (:func:`has_run`), a
  pooled kernel answers after the notebook's run with the count of cells it ran (Voila's
  "pool filled" is logged when the kernel has started, before). Goal: <= 1.2x the empty
  notebook. "pool": the fewest pooled kernels done running the notebook before a load.
- Widget state at load ("load_state"): the bytes of the message of every model's state the
  page is sent when it connects (and how many models), and all the bytes it received.

``--repeat N`` runs the whole measure N times (the machine may be shared: noisy) and prints
each run's table, then the medians of the runs; the goals are reported on those medians.
"""

from __future__ import annotations

import argparse
import http.client
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
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from gmkit._cli import notebook_path, voila_command
from gmkit._launch import TABLE_KERNELS
from gmkit.campaign import create_demo_store
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


PORTS = range(45000, 45100)  # this benchmark's own ports: other benchmarks keep off them


def free_port() -> int:
    """The first port of :data:`PORTS` nobody listens on."""
    for port in PORTS:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"bench: every port {PORTS.start}-{PORTS.stop - 1} is taken")


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
        """Whether the kernel went idle after handling a widget message, since ``start``: as
        many idle statuses as busy ones (the dashboard stays busy while the panels' updates,
        held until the tracker's have gone, are made)."""
        states = [
            msg["content"].get("execution_state")
            for _, msg in self.received[start:]
            if msg["type"] == "status" and msg["parent"] == "comm_msg"
        ]
        return "idle" in states and states.count("idle") >= states.count("busy")

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

    def state(self) -> tuple[int, int]:
        """The widget state the page was sent at load (the largest message of states: every
        model's state at once, as ipywidgets 8 answers the page's request): its models and
        its bytes on the wire."""
        found = [
            (len(msg["content"].get("data", {}).get("states", {})), size)
            for size, msg in self.received
            if msg["type"] == "comm_msg" and "states" in msg["content"].get("data", {})
        ]
        return max(found, default=(0, 0), key=lambda pair: pair[1])


SERVING = re.compile(r"^gmkit table: serving (\S+)$", re.M)
CONNECTIONS = re.compile(r"Storing connection files in (/\S+?)\.?\s*$", re.M)
STARTED = re.compile(r"Kernel started: ([0-9a-f-]{36})")
TAKEN = re.compile(r"Using pre-heated kernel: ([0-9a-f-]{36})")
GONE = re.compile(r"Kernel shutdown: ([0-9a-f-]{36})")


def has_run(connection_file: Path, cells: int, timeout: float = 60) -> bool:
    """Whether the kernel of ``connection_file`` has run the ``cells`` code cells of its
    notebook: asked on its shell channel (an empty, silent request that stores nothing), it
    answers once the request before it, the notebook's run, is done, with the count of the
    cells it has run. False while the run has not started."""
    from jupyter_client import BlockingKernelClient

    client = BlockingKernelClient(connection_file=str(connection_file))
    client.load_connection_file()
    client.start_channels(shell=True, iopub=False, stdin=False, hb=False, control=False)
    try:
        asked = client.execute("", silent=True, store_history=False)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reply = client.get_shell_msg(timeout=max(0.1, deadline - time.monotonic()))
            if reply["parent_header"].get("msg_id") == asked:
                return int(reply["content"].get("execution_count", 0)) >= cells
        return False
    finally:
        client.stop_channels()


class Served:
    """A server process (its own process group), its URL and its log; ``pool`` preheated
    kernels, each running a notebook of ``cells`` code cells before a page takes it."""

    def __init__(
        self,
        command: list[str],
        folder: Path,
        port: int,
        env: dict[str, str],
        *,
        pool: int,
        cells: int = 1,
        printed: bool = False,
    ) -> None:
        self.log = folder / f"server-{port}.log"
        self.url = f"http://127.0.0.1:{port}/"
        self.pool, self.cells = pool, cells
        self._ran: set[str] = set()  # pooled kernels seen done running the notebook
        self.process = subprocess.Popen(
            command,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            cwd=folder,
            env={**os.environ, **env},
            start_new_session=True,
        )
        try:
            self._wait_answering(printed)
        except BaseException:
            self.stop()
            raise

    def _wait_answering(self, printed: bool) -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited:\n{self.log.read_text()}")
            found = SERVING.search(self.log.read_text()) if printed else None
            if printed and found is None:
                time.sleep(0.3)
                continue
            url = found.group(1) if found else self.url
            base, query = url.partition("?")[::2]
            probe = base + "voila/static/voila.js" + (f"?{query}" if query else "")
            try:  # a static file: answers once Voila listens, takes no kernel of the pool
                with urllib.request.urlopen(probe, timeout=60):
                    self.url = url
                    return
            except (OSError, http.client.HTTPException):  # not listening yet
                time.sleep(0.3)
        raise RuntimeError(f"no page at {self.url}:\n{self.log.read_text()}")

    def pooled(self) -> list[str]:
        """The kernels in Voila's pool now: started, not taken by a page, not shut down."""
        text = self.log.read_text()
        out = set(TAKEN.findall(text)) | set(GONE.findall(text))
        return [kernel for kernel in STARTED.findall(text) if kernel not in out]

    def ready(self) -> int:
        """How many pooled kernels have run the notebook (a page taking one waits for none)."""
        found = CONNECTIONS.search(self.log.read_text())
        if found is None:
            return 0
        pooled = self.pooled()
        for kernel in pooled:
            if kernel not in self._ran:
                connection = Path(found.group(1)) / f"kernel-{kernel}.json"
                if connection.exists() and has_run(connection, self.cells):
                    self._ran.add(kernel)
        return sum(1 for kernel in pooled if kernel in self._ran)

    def wait_for_pool(self, timeout: float = 120) -> int:
        """Until the whole pool has run the notebook (then the machine settles); how many
        pooled kernels have."""
        deadline = time.monotonic() + timeout
        ready = self.ready()
        while ready < self.pool and time.monotonic() < deadline:
            time.sleep(0.2)
            ready = self.ready()
        self.wait_quiet(deadline)
        time.sleep(0.3)  # let the machine settle
        return ready

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
        seconds (Voila done rendering the pooled pages; the followers' polls are less)."""
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
    """A bare notebook, served as the table is: its pool as large."""
    port = free_port()
    command = voila_command(path, port, open_browser=False, pool=TABLE_KERNELS.pool)
    return Served(command, folder, port, {}, pool=TABLE_KERNELS.pool)


def serve_table(campaign: Path, folder: Path) -> Served:
    port = free_port()
    gmkit = Path(sys.executable).with_name("gmkit")
    command = [str(gmkit), "table", str(campaign), "--port", str(port), "--no-browser"]
    cells = sum(
        1
        for cell in nbformat.read(notebook_path("table.ipynb"), 4).cells
        if cell.cell_type == "code"
    )
    return Served(
        command, folder, port, {"GMKIT_SEED": "7"}, pool=TABLE_KERNELS.pool, cells=cells,
        printed=True,
    )  # fmt: skip


@dataclass
class Loads:
    times: list[float] = field(default_factory=list)
    kilobytes: list[float] = field(default_factory=list)
    models: list[int] = field(default_factory=list)
    state: list[float] = field(default_factory=list)  # KB of widget state at load
    ready: list[int] = field(default_factory=list)  # pooled kernels done running the notebook


def time_to_interactive(browser: object, served: Served, marker: str, loads: int) -> Loads:
    """``loads`` page loads, each once the whole pool has run the notebook."""
    measured = Loads()
    for _ in range(loads):
        measured.ready.append(served.wait_for_pool())
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
        models, state = frames.state()
        measured.models.append(models)
        measured.state.append(state / 1024)
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


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def p90(values: Sequence[float]) -> float:
    return sorted(values)[int(0.9 * (len(values) - 1))]


def measure(args: argparse.Namespace) -> Rows:
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
            table.wait_for_pool()
            click_dashboard = click_round_trips(browser, table, "dashboard", args.clicks)
            bare_server.wait_for_pool()
            click_bare = click_round_trips(browser, bare_server, "bare", args.clicks)
            browser.close()
    finally:
        for server in servers:
            server.stop()

    dashboard, bare_clicks = click_dashboard.times, click_bare.times
    whole = click_dashboard.whole
    # the counts' second column is their largest value, not a p90
    return {
        CLICK: (median(dashboard), p90(dashboard)),
        BARE_CLICK: (median(bare_clicks), p90(bare_clicks)),
        "click ratio dashboard / bare": (median(dashboard) / median(bare_clicks), None),
        "click -> whole tracker updated (ms)": (median(whole), p90(whole)),
        "  ratio whole tracker / bare": (median(whole) / median(bare_clicks), None),
        "  per Next: kernel messages": (median(click_dashboard.messages),
                                        max(click_dashboard.messages)),
        "  per Next: widget updates": (median(click_dashboard.updates),
                                       max(click_dashboard.updates)),
        "  per Next: KB received": (median(click_dashboard.kilobytes),
                                    max(click_dashboard.kilobytes)),
        "  per bare click: kernel messages": (median(click_bare.messages),
                                              max(click_bare.messages)),
        "  per bare click: KB received": (median(click_bare.kilobytes),
                                          max(click_bare.kilobytes)),
        TTI: (median(tti_dashboard.times), p90(tti_dashboard.times)),
        EMPTY_TTI: (median(tti_empty.times), p90(tti_empty.times)),
        "time to interactive ratio dashboard / empty": (
            median(tti_dashboard.times) / median(tti_empty.times), None),
        POOL: (min(tti_dashboard.ready), max(tti_dashboard.ready)),
        "  pool: empty notebook's kernels ready": (min(tti_empty.ready), max(tti_empty.ready)),
        STATE: (median(tti_dashboard.state), max(tti_dashboard.state)),
        "  load: dashboard widget models": (median(tti_dashboard.models),
                                            max(tti_dashboard.models)),
        "  load: dashboard KB received": (median(tti_dashboard.kilobytes),
                                          max(tti_dashboard.kilobytes)),
        "  load: empty notebook KB received": (median(tti_empty.kilobytes),
                                               max(tti_empty.kilobytes)),
    }  # fmt: skip


CLICK = "click -> screen: dashboard Next (ms)"
BARE_CLICK = "click -> screen: bare Button->Label (ms)"
TTI = "time to interactive: dashboard (ms)"
EMPTY_TTI = "time to interactive: empty notebook (ms)"
POOL = "pool: kernels ready before each load (min)"
STATE = "load: dashboard widget state (KB)"
Rows = dict[str, tuple[float, float | None]]


def show(rows: Rows, title: str) -> None:
    print(title)
    print(f"{'measure':<46} {'median':>9} {'p90/max':>9}")
    for name, (value, high) in rows.items():
        high_text = f"{high:9.1f}" if high is not None else ""
        print(f"{name:<46} {value:9.2f} {high_text}")


def report_goals(rows: Rows, runs: int) -> None:
    """The goals of issue 14 this benchmark measures, through bench/goals.py."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from goals import report

    case = f"demo Dark Heresy fight, median of {runs} run(s)"
    click, bare = rows[CLICK][0], rows[BARE_CLICK][0]
    report("click", f"Next, click to tracker header; {case}", click / bare,
           reference=("bare Button->Label ms", round(bare, 2)),
           detail=f"dashboard {click:.1f} ms")  # fmt: skip
    tti, empty = rows[TTI][0], rows[EMPTY_TTI][0]
    report("tti", f"dashboard buttons on screen, pool ready; {case}", tti / empty,
           reference=("empty notebook ms", round(empty)),
           detail=f"dashboard {tti:.0f} ms")  # fmt: skip
    report("pool", f"pooled kernels done running the notebook before a load (fewest); {case}",
           rows[POOL][0])  # fmt: skip
    report(
        "load_state",
        f"the state message at load; {case}",
        rows[STATE][0],
        detail=f"{rows['  load: dashboard widget models'][0]:.0f} widget models",
    )


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
        load = os.getloadavg()[0]
        show(rows, f"gmkit dashboard bench: {args.clicks} clicks, {args.loads} loads, "
                   f"run {run + 1} of {args.repeat}, load average {load:.2f}")  # fmt: skip
        sys.stdout.flush()
    final = runs[0]
    if args.repeat > 1:
        final = {
            name: (median([rows[name][0] for rows in runs]), max(rows[name][0] for rows in runs))
            for name in runs[0]
        }
        show(final, f"medians of {args.repeat} runs (the p90/max column: the worst run's median)")
    report_goals(final, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
