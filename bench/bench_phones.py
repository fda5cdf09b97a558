"""Phones that cost little (issue 26, item 3): the phones' server (``gmkit players --light``)
against today's kernel per phone, and a table's phones among ten tables against alone.

    python bench/bench_phones.py [--phones 50] [--tables 10] [--events 20]

Real servers, real WebSockets (the connection a phone keeps; no browser: what a phone costs
the server is its connection, the page's drawing is the phone's), a demo campaign file per
table, the GM's commands written from this process as the table's kernel would.

- **memory per phone**: the server's resident memory with one phone, then with ``--phones``
  more (each waited for until its first picture came), per phone; the reference, measured in
  the same run: the resident memory of one Jupyter kernel that has built the players' page
  (``players_page``), as ``gmkit players`` without ``--light`` starts one per phone.
- **a phone's update, ten tables against one**: the time from a GM's committed note to each
  of six phones of that table receiving the new picture (median of ``--events`` notes), first
  with that table's server alone, then with ``--tables`` tables of six phones each running,
  every other table's GM writing a note every half second.

Reports both against their goals (bench/goals.py); asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import tornado.websocket
from goals import report

from gmkit.campaign import create_demo_store
from gmkit.encounter import Encounter
from gmkit.store import CampaignStore

CHAPEL = "The Chapel of the Pale Throne"
GMKIT = Path(sys.executable).with_name("gmkit")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Table:
    """A demo campaign file and its phones' server."""

    def __init__(self, folder: Path, number: int) -> None:
        self.path = folder / f"table-{number}.gmk"
        create_demo_store(self.path)
        self.port = free_port()
        self.log = folder / f"table-{number}.log"
        with self.log.open("w") as out:
            command = [str(GMKIT), "players", str(self.path), "--light", "--no-browser"]
            self.process = subprocess.Popen(
                [*command, "--port", str(self.port)],
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "GMKIT_STATE_DIR": str(folder / "state")},
            )
        self.url = self._served()
        self.gm = Encounter.open(CampaignStore(self.path), CHAPEL)

    def _served(self) -> str:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            found = re.search(r"gmkit players: serving (\S+)", self.log.read_text())
            if found:
                return found.group(1).replace("http://", "ws://") + "ws?language=en"
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise SystemExit(f"the phones' server did not start:\n{self.log.read_text()}")

    def memory(self) -> float:
        """Resident memory of the server process, MB."""
        return psutil.Process(self.process.pid).memory_info().rss / 2**20

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


async def phones(url: str, count: int) -> list[tornado.websocket.WebSocketClientConnection]:
    """``count`` phones connected, each with its first picture."""
    connected = []
    for _ in range(count):
        connection = await tornado.websocket.websocket_connect(url)
        await asyncio.wait_for(connection.read_message(), 30)
        connected.append(connection)
    return connected


def kernel_reference(path: Path) -> float:
    """Resident memory (MB) of one kernel that built the players' page of ``path``."""
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")
    try:
        code = (
            "from gmkit.campaign import open_campaign\n"
            "from gmkit.widgets import players_page\n"
            f"view = players_page(open_campaign({str(path)!r}, readonly=True), {CHAPEL!r})\n"
        )
        reply = client.execute_interactive(code, timeout=120)
        assert reply["content"]["status"] == "ok", reply["content"]
        pid = manager.provisioner.pid  # type: ignore[union-attr]
        return float(psutil.Process(pid).memory_info().rss / 2**20)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


async def update_latency(table: Table, followers: list, events: int) -> float:
    """Median seconds from a GM's note committed to each phone of ``table`` receiving it."""
    seen: list[float] = []
    pauses = random.Random(7)
    for number in range(events):
        await asyncio.sleep(pauses.uniform(0, 0.3))  # a note at any moment of the poll
        committed = time.perf_counter()
        table.gm.note(f"note {number}", gm_only=False)
        for connection in followers:
            text = await asyncio.wait_for(connection.read_message(), 30)
            assert text is not None
            assert json.loads(text)["kind"] == "picture"
            seen.append(time.perf_counter() - committed)
    return statistics.median(seen)


def busy_gms(tables: list[Table], stop: threading.Event) -> threading.Thread:
    """Every other table's GM writes a note every half second until ``stop``."""

    def write() -> None:
        number = 0
        while not stop.wait(0.5):
            for table in tables:
                table.gm.note(f"elsewhere {number}", gm_only=False)
            number += 1

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


async def main(arguments: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="gmkit-bench-phones-"))
    tables: list[Table] = []
    try:
        first = Table(folder, 0)
        tables.append(first)
        one = await phones(first.url, 1)
        alone = first.memory()
        more = await phones(first.url, arguments.phones)
        crowded = first.memory()
        per_phone = (crowded - alone) / arguments.phones
        kernel = kernel_reference(first.path)
        print(f"a table's phones' server, one phone on it: {alone:.1f} MB resident")
        print(
            f"phones' server: {alone:.1f} MB with 1 phone, {crowded:.1f} MB with "
            f"{arguments.phones + 1}: {per_phone * 1024:.0f} KB a phone; a kernel per phone "
            f"today: {kernel:.1f} MB"
        )
        report(
            "phones.memory",
            f"{arguments.phones} phones on one table's server",
            per_phone / kernel,
            reference=("one players' page kernel, MB", kernel),
            detail=f"{per_phone * 1024:.0f} KB a phone",
        )
        for connection in one + more[6:]:
            connection.close()
        six = more[:6]
        by_itself = await update_latency(first, six, arguments.events)
        for number in range(1, arguments.tables):
            tables.append(Table(folder, number))
        others = [await phones(t.url, 6) for t in tables[1:]]
        stop = threading.Event()
        writer = busy_gms(tables[1:], stop)
        try:
            among = await update_latency(first, six, arguments.events)
        finally:
            stop.set()
            writer.join()
        print(
            f"a phone's update: {by_itself * 1000:.0f} ms with its table alone, "
            f"{among * 1000:.0f} ms among {arguments.tables} tables of 6 phones "
            f"(the server polls every 0.3 s: about half of that is the wait)"
        )
        report(
            "phones.update",
            f"{arguments.tables} tables of 6 phones, their GMs writing",
            among / by_itself,
            reference=("its table alone, ms", by_itself * 1000),
        )
        for group in [six, *others]:
            for connection in group:
                connection.close()
    finally:
        for table in tables:
            table.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=50)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--events", type=int, default=20)
    asyncio.run(main(parser.parse_args()))
