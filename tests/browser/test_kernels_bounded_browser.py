"""Issue 13, item 2, under load: page loads (``curl``: a kernel each, never connected) and a
player's browser reloading the players' view, while the GM plays at the table. The kernels and
the memory of the players' server stay bounded, and the GM's clicks are answered (their times
printed, not asserted: the bound is the dashboard helper's 30 s).

The issue asks for 500 loads; on the 2-core CI a load that starts a kernel costs ~5 s (100
loads and 20 reloads took 500 s: at most 14 kernels, 1,958 MiB, every GM click answered in
under 1 s), so this runs LOADS loads and RELOADS reloads (~3-4 minutes)."""

from __future__ import annotations

import http.client
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from dashboard_page import Table
from serving_probe import kernels_and_mib

from gmkit._launch import PLAYERS_KERNELS
from gmkit.campaign import demo_campaign_file

pytestmark = [pytest.mark.browser, pytest.mark.server]
LOADS = 40  # curl page loads of the players' view, two at a time
RELOADS = 10  # reloads of a player's page in the browser
ENCOUNTER = "The Chapel of the Pale Throne"
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
MIB_PER_KERNEL = 200  # a players' kernel measured 115-150 MiB; the bound's allowance


def load(url: str) -> int:
    """The status of a page load; 0 when the page's stream broke off (a kernel that died
    while its page rendered)."""
    try:
        with DIRECT.open(url, timeout=180) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except http.client.IncompleteRead:
        return 0


class Sampler(threading.Thread):
    """Samples the players' server's kernels and memory every 0.5 s until stopped."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.samples: list[tuple[int, float]] = []
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            self.samples.append(kernels_and_mib(self.pid))
            self.stopping.wait(0.5)


@pytest.fixture(scope="module")
def servers(tmp_path_factory, serve_table, serve_players):
    campaign = demo_campaign_file(tmp_path_factory.mktemp("bounded") / "campaign")
    return serve_table(campaign), serve_players(campaign, ENCOUNTER)


def test_page_loads_and_reloads_leave_kernels_and_memory_bounded_and_the_gm_answered(
    servers, chromium, artifacts: Path
):
    table_server, players_server = servers
    gm = chromium.new_page(viewport={"width": 1600, "height": 1000})
    player = chromium.new_page(viewport={"width": 420, "height": 860})
    sampler = Sampler(players_server.process.pid)
    statuses: list[int] = []
    remaining = iter(range(LOADS))
    lock = threading.Lock()

    def loader() -> None:
        while True:
            with lock:
                if next(remaining, None) is None:
                    return
            status = load(players_server.url)
            with lock:
                statuses.append(status)

    table = Table(gm)  # before the page opens its websocket: it counts the kernel's answers
    try:
        gm.goto(table_server.url, wait_until="domcontentloaded", timeout=120_000)
        gm.locator(".gmkit-tracker .gmkit-row").first.wait_for(timeout=120_000)
        before = kernels_and_mib(players_server.process.pid)
        sampler.start()
        start = time.monotonic()
        loaders = [threading.Thread(target=loader, daemon=True) for _ in range(2)]
        for thread in loaders:
            thread.start()

        clicks: list[tuple[str, float]] = []
        reloads = {"page": 0, "full": 0}
        steps = [("Roll initiative", "roll initiative"), ("Start", "start")]
        steps += [("Next", f"next {n}") for n in range(1, 9)]
        for index in range(RELOADS):
            player.goto(players_server.url, wait_until="domcontentloaded", timeout=180_000)
            shown = player.locator(".gmkit-player-table, .gmkit-refused").first
            shown.wait_for(timeout=180_000)
            reloads["full" if player.locator(".gmkit-refused").count() else "page"] += 1
            if index < len(steps):  # the GM plays meanwhile
                label, step = steps[index]
                clicked = time.monotonic()
                table.click(".gmkit-tracker", label, step)  # fails if not answered in 30 s
                clicks.append((step, time.monotonic() - clicked))
        for thread in loaders:
            thread.join(timeout=900)
        took = time.monotonic() - start
        header = table.header()  # the GM's page still shows the fight
        gm.screenshot(path=str(artifacts / "kernels-bounded-table.png"))
        player.screenshot(path=str(artifacts / "kernels-bounded-player.png"))
    finally:
        sampler.stopping.set()
        sampler.join()
        gm.close()
        player.close()
    settled = kernels_and_mib(players_server.process.pid)
    most_kernels = max(kernels for kernels, _ in sampler.samples)
    most_mib = max(mib for _, mib in sampler.samples)
    refused = statuses.count(503)
    print(
        f"\n{len(statuses)} curl loads ({statuses.count(200)} pages, {refused} 'table is "
        f"full') and {RELOADS} reloads ({reloads}) in {took:.0f} s; players' server: "
        f"{before[0]} kernels / {before[1]:.0f} MiB before, at most {most_kernels} kernels / "
        f"{most_mib:.0f} MiB, {settled[0]} / {settled[1]:.0f} MiB after"
    )
    print("GM's clicks answered in: " + ", ".join(f"{step} {s:.2f} s" for step, s in clicks))
    assert len(statuses) == LOADS
    assert set(statuses) <= {200, 503}
    assert len(clicks) == len(steps)  # every click answered (within 30 s each)
    bound = PLAYERS_KERNELS.most + 3  # the pool's kernel, its refill, a page being served
    assert most_kernels <= bound
    assert most_mib <= before[1] + bound * MIB_PER_KERNEL
    assert "round" in header.lower(), header
