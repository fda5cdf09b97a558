"""Fixtures of the browser tests' own small pages: a notebook under tests/browser/notebooks/
served alone by Voila (as ``gmkit table`` serves the dashboard: gmkit's template, dark theme)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gmkit._launch import voila_command

NOTEBOOKS = Path(__file__).resolve().parent / "notebooks"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def dice_entry_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of tests/browser/notebooks/dice_entry.ipynb served by Voila on a free port;
    the server (its whole process group, kernels included) is stopped after the module."""
    tmp = tmp_path_factory.mktemp("dice-entry")
    port = _free_port()
    log = tmp / "voila.log"
    command = voila_command(NOTEBOOKS / "dice_entry.ipynb", port, open_browser=False, preheat=False)
    with log.open("w") as handle:
        process = subprocess.Popen(
            command, stdout=handle, stderr=subprocess.STDOUT, cwd=tmp, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 120
        # Voila's "running at" line, as gmkit's launch rewrites it (no bare URL: issue 21)
        while "Voilà is running" not in log.read_text(errors="replace"):
            if process.poll() is not None:
                pytest.fail(f"Voila exited with {process.returncode}:\n{log.read_text()}")
            if time.monotonic() > deadline:
                pytest.fail(f"no Voila at {url} after 120 s:\n{log.read_text()}")
            time.sleep(0.3)
        yield url
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=20)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
