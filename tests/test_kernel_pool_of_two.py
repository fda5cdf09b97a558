"""Issue 14, item 2: the table keeps two preheated kernels; the cap and the culling count only
the kernels that serve pages, never the pool's (a pool of two is never culled, never counted
against the cap)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving_probe import (  # type: ignore[import-not-found]
    KernelClient,
    channels_url,
    kernel_id_of,
    kernels_and_mib,
)

from gmkit.campaign import demo_campaign_file
from gmkit.launch import TABLE_KERNELS, KernelPolicy, access_url, voila_command
from gmkit.serving.guard import SERVING_VARIABLE, Access

DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
ROOT = Path(__file__).resolve().parent.parent


def load(url: str) -> tuple[int, str]:
    try:
        with DIRECT.open(url, timeout=180) as response:
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


class Voila:
    """The players' notebook served by a bare ``voila_command`` with a kernel policy (as
    tests/test_kernels_bounded.py serves it)."""

    def __init__(self, tmp_path: Path, policy: KernelPolicy, access: Access) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        notebook = ROOT / "notebooks" / "players.ipynb"
        command = voila_command(notebook, port, open_browser=False, kernels=policy)
        env = {**os.environ, "GMKIT_CAMPAIGN": str(demo_campaign_file(tmp_path / "campaign"))}
        env["GMKIT_ENCOUNTER"] = "The Chapel of the Pale Throne"
        env[SERVING_VARIABLE] = access.to_json()
        self.url = access_url(f"http://127.0.0.1:{port}", access)
        self.log = tmp_path / "voila.log"
        with self.log.open("w") as handle:
            self.process = subprocess.Popen(
                command, stdout=handle, stderr=subprocess.STDOUT, cwd=tmp_path, env=env,
                start_new_session=True,
            )  # fmt: skip

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def wait_for_kernels(server: Voila, most: int, timeout: float) -> float:
    start = time.monotonic()
    while kernels_and_mib(server.process.pid)[0] > most:
        assert time.monotonic() - start < timeout, server.output()
        time.sleep(0.5)
    return time.monotonic() - start


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
    go after 30 s (culls each 1 s, 1 s for a page to connect)."""
    policy = KernelPolicy(30, 3600, most=2, rate=20, burst=60, interval=1, grace=1, pool=2)
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
        time.sleep(35)  # past the unconnected timeout: the pool's kernels have no page
        assert kernels_and_mib(server.process.pid)[0] == 4  # 2 serving, 2 pooled: none culled
        assert "without a page for" not in server.output()
    finally:
        for client in clients:
            client.close()
    took = wait_for_kernels(server, 2, timeout=90)  # the pages closed: theirs culled, the pool kept
    assert "without a page for" in server.output()
    assert pooled_now(server) == 2
    print(f"\nthe closed pages' kernels culled after {took:.1f} s; the pool of two kept")
