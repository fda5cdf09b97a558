"""Fixtures shared across the suite: a real Voila server and a real Chromium."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def gmkit_command() -> list[str]:
    """The installed console script, beside this interpreter (what a user runs)."""
    script = Path(sys.executable).with_name("gmkit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "gmkit.cli"]


@dataclass
class Server:
    url: str
    process: subprocess.Popen[str]
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")


def wait_for_page(url: str, process: subprocess.Popen[str], log: Path, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"server exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=60) as response:
                return response.read().decode("utf-8", errors="replace")
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.3)
    pytest.fail(f"no page at {url} after {timeout}s:\n{log.read_text()}")


def start_server(args: list[str], tmp: Path, timeout: float = 120) -> tuple[Server, str]:
    port = free_port()
    log = tmp / f"server-{port}.log"
    handle = log.open("w")
    process = subprocess.Popen(
        [*gmkit_command(), *args, "--port", str(port), "--no-browser"],
        stdout=handle,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=tmp,
    )
    url = f"http://127.0.0.1:{port}/"
    page = wait_for_page(url, process, log, timeout)
    return Server(url, process, log), page


def stop_server(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()


@pytest.fixture(scope="session")
def table_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    """``gmkit table`` on the demo campaign, as README's first command runs it."""
    server, page = start_server(["table"], tmp_path_factory.mktemp("table"))
    yield server, page
    stop_server(server)


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """Debian's Chromium driven by Playwright (its own browser download cannot work here)."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("GMKIT_REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium (scripts/test does, as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
