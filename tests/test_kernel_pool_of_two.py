"""Issue 14, item 2: the table keeps two preheated kernels; the cap and the culling count only
the kernels that serve pages, never the pool's (a pool of two is never culled, never counted
against the cap)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from dashboard_page import holds_for
from serving_probe import (  # type: ignore[import-not-found]
    KernelClient,
    Voila,
    channels_url,
    kernel_id_of,
    kernels_and_mib,
    load,
    wait_for_kernels,
)

from gmkit._launch import TABLE_KERNELS, KernelPolicy, voila_command
from gmkit._serving.guard import Access


def test_the_table_preheats_two_kernels_and_other_servers_one() -> None:
    assert TABLE_KERNELS.pool == 2
    table = voila_command(Path("t.ipynb"), 9, open_browser=False, kernels=TABLE_KERNELS)
    assert "--pool_size=2" in table
    assert "--pool_size=1" in voila_command(Path("p.ipynb"), 9, open_browser=False)
    assert "--pool_size=3" in voila_command(Path("p.ipynb"), 9, open_browser=False, pool=3)
    assert not any(
        option.startswith("--pool_size")
        for option in voila_command(Path("p.ipynb"), 9, open_browser=False, preheat=False)
    )
    with pytest.raises(ValueError, match="pool: 0 preheated kernels"):
        voila_command(Path("p.ipynb"), 9, open_browser=False, pool=0)


def pooled_now(server: Voila) -> int:
    """The kernels of the server no page has taken: started, neither used nor shut down."""
    text = server.output()
    out = set(re.findall(r"Using pre-heated kernel: ([0-9a-f-]{36})", text))
    out |= set(re.findall(r"Kernel shutdown: ([0-9a-f-]{36})", text))
    return len(set(re.findall(r"Kernel started: ([0-9a-f-]{36})", text)) - out)


@pytest.fixture
def pool_of_two(tmp_path: Path) -> Iterator[Voila]:
    """A players' view serving 2 pages at most, two kernels preheated; kernels without a page
    go after 8 s (culls each 1 s, 1 s for a page to connect)."""
    policy = KernelPolicy(8, 3600, most=2, rate=20, burst=60, interval=1, grace=1, pool=2)
    server = Voila(tmp_path, policy, Access(lan=True, path="/p/"))
    try:
        deadline = time.monotonic() + 120
        while "filled with 2 kernel" not in server.output():
            assert server.process.poll() is None, server.output()
            assert time.monotonic() < deadline, server.output()
            time.sleep(0.2)
        yield server
    finally:
        server.stop()


@pytest.mark.server
def test_a_pool_of_two_is_neither_counted_against_the_cap_nor_culled(pool_of_two: Voila) -> None:
    server = pool_of_two
    assert kernels_and_mib(server.process.pid)[0] == 2  # the pool, before any page
    clients = []
    try:
        for _ in range(2):
            status, page = load(server.url)
            assert status == 200
            clients.append(KernelClient(channels_url(server.url, kernel_id_of(page))))
        status, page = load(server.url)
        assert status == 503  # two pages served: the most, whatever the pool holds
        assert "serving 2 pages already" in page
        deadline = time.monotonic() + 120
        while pooled_now(server) < 2:  # the pool filled again behind the two pages
            assert time.monotonic() < deadline, server.output()
            time.sleep(0.5)
        # past the unconnected timeout and two culls: the pool's kernels have no page, and
        # none is culled (2 serving, 2 pooled)
        holds_for(8 + 2, "four kernels: none culled", lambda: server.kernels() == 4)
        assert "without a page for" not in server.output()
    finally:
        for client in clients:
            client.close()
    took = wait_for_kernels(server, 2, timeout=90)  # the pages closed: theirs culled, the pool kept
    assert "without a page for" in server.output()
    assert pooled_now(server) == 2
    print(f"\nthe closed pages' kernels culled after {took:.1f} s; the pool of two kept")
