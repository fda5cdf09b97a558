"""The players' notebook in a real JupyterLab, in a real browser: exported from the demo's Dark
Heresy chapel after a public attack that hurts a cultist (typed dice: every run is the same),
it opens, renders its markdown, starts its kernel and stays unmarked (no ``jp-mod-dirty``: the
file is what JupyterLab itself would save), its bytes untouched; none of the GM's values is in
the page. JupyterLab serves a folder holding only that notebook, on a port of 8950-8969, as
``gmkit lab`` starts it (:func:`gmkit._launch.lab_command`; no token, its own Jupyter
folders, as the ``lab_server`` fixture). The screenshot goes to test-artifacts/."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from dashboard_page import steady, until
from lab_page import kernel_ready

from gmkit._launch import lab_command
from gmkit.campaign import demo_campaign_file
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.games import health
from gmkit.store import CampaignStore
from gmkit.widgets._player_notebook import export_player_notebook

pytestmark = [pytest.mark.browser, pytest.mark.server]

CHAPEL = "The Chapel of the Pale Throne"
PORTS = range(8950, 8970)
NOTEBOOK = "chapel-players.ipynb"


@dataclass
class Exported:
    url: str  # the notebook's page in JupyterLab
    path: Path
    data: bytes  # the file as exported
    secrets: list[str]  # the GM's values: none may show
    shown: list[str]  # what the players read


def _port() -> int:
    for port in PORTS:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    pytest.fail(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


def _exported(folder: Path, campaign: Path) -> Exported:
    with CampaignStore(campaign) as store:
        fight = Encounter.open(store, CHAPEL)
        fight.set("enemy_wounds", "band")
        fight.roll_initiative(EnteredDice([9, 10, 6, 7, 1, 5, 4, 8]))
        fight.start()
        fight.attack("Ilse Marr", "Laspistol", "Cultist Ban", EnteredDice([20, 3]))
        fight.note("Ostrava's escape tunnel is behind the third pew.", gm_only=True)
        ban = next(c for c in fight.state.combatants.values() if c.name == "Cultist Ban")
        left, total = health(ban.sheet, ban.counters)
        assert 0 < left < total  # hurt: the players read "hurt", not the numbers
        hidden = next(c for c in fight.state.combatants.values() if c.hidden)
        path = export_player_notebook(store, fight, folder / NOTEBOOK)
    secrets = [
        hidden.name,
        hidden.sheet.notes,
        "Ostrava's escape tunnel",
        "The demagogue waits behind the altar",  # the demo's GM note
        f"{left}/{total}",
        "hidden_turn",
    ]
    shown = [
        "Round 1",
        "Ilse Marr",
        "Cultist Ban",
        "hurt",
        "Ilse Marr attacks Cultist Ban with Laspistol: hits",
    ]
    return Exported("", path, path.read_bytes(), secrets, shown)


def _wait_for(url: str, process: subprocess.Popen[str], log: Path, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"JupyterLab exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=30):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.3)
    pytest.fail(f"no JupyterLab at {url} after {timeout} s:\n{log.read_text()}")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Exported]:
    tmp = tmp_path_factory.mktemp("player-notebook")
    folder = tmp / "notebooks"
    folder.mkdir()
    made = _exported(folder, demo_campaign_file(tmp / "campaign"))
    config = tmp / "config"
    config.mkdir()
    settings = {"IdentityProvider": {"token": ""}, "ServerApp": {"allow_root": True}}
    (config / "jupyter_server_config.json").write_text(json.dumps(settings))
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(config),
        "JUPYTER_RUNTIME_DIR": str(tmp / "rt"),
        "JUPYTERLAB_SETTINGS_DIR": str(tmp / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(tmp / "workspaces"),
    }
    port = _port()
    log = tmp / "lab.log"
    with log.open("w") as handle:
        process = subprocess.Popen(
            lab_command(folder, port, open_browser=False),
            stdout=handle,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=folder,
            env=env,
            start_new_session=True,  # its own process group: stopped whole, kernels included
        )
    base = f"http://127.0.0.1:{port}/"
    try:
        _wait_for(f"{base}api/status", process, log)
        made.url = f"{base}lab/tree/{NOTEBOOK}"
        yield made
    finally:
        try:
            os.killpg(process.pid, 15)
            process.wait(timeout=20)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.wait()


def test_the_players_notebook_opens_unchanged_in_jupyterlab_showing_no_gm_value(
    exported, chromium, artifacts
):
    for value in exported.secrets:
        assert value.encode() not in exported.data, value
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    frames: list[str] = []
    specs: list[str] = []  # JupyterLab's asks for the kernel specs, answered
    page.on(
        "websocket",
        lambda socket: socket.on(
            "framereceived",
            lambda payload: frames.append(
                payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
            ),
        ),
    )
    page.on(
        "requestfinished",
        lambda request: specs.append(request.url) if "/api/kernelspecs" in request.url else None,
    )
    try:
        page.goto(exported.url, timeout=120_000)
        table = page.locator(".jp-Notebook .jp-MarkdownOutput table")
        try:
            table.first.wait_for(timeout=120_000)
            kernel_ready(page)
        except Exception:
            page.screenshot(path=str(artifacts / "player-notebook-lab-failed.png"))
            raise
        # What JupyterLab changes in a notebook on opening it, it writes from its kernel's info
        # (language_info) and the kernel's spec (kernelspec): once both answers have come and
        # the page has drawn since, any change, and its dirty mark, would show.
        until(
            page, "the kernel's info", lambda: sum("kernel_info_reply" in f for f in frames), bool
        )
        until(page, "the kernel specs", lambda: len(specs), bool)
        tab = page.locator(".lm-TabBar-tab", has_text=NOTEBOOK)
        dirty = steady(
            page,
            "the notebook opened",
            lambda: (tab.get_attribute("class") or "", page.locator(".jp-mod-dirty").count()),
        )
        assert tab.count() == 1
        assert "jp-mod-dirty" not in dirty[0]
        assert dirty[1] == 0
        notebook = page.locator(".jp-Notebook").first.inner_text()
        for value in exported.shown:
            assert value in notebook, value
        assert page.locator(".jp-Notebook .jp-CodeCell").count() == 0
        assert table.first.locator("tr").count() == 1 + 7  # the heads; 4 acolytes, 3 cultists
        text = page.locator("body").inner_text()
        for value in exported.secrets:
            assert value not in text, value
        page.screenshot(path=str(artifacts / "player-notebook-lab.png"))
    finally:
        page.close()
    assert exported.path.read_bytes() == exported.data  # nothing saved over it
