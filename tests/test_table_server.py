"""README's commands: `gmkit table` and `gmkit players` serve the apps through a real Voila."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import psutil
import pytest

from gmkit._cli import main
from gmkit.campaign import DEMO_FIGHTS, create_demo_store
from gmkit.demo import demo_campaign
from gmkit.store import CampaignStore

pytestmark = pytest.mark.server


def test_table_serves_the_demo_campaign_file_with_a_prepared_fight_per_game(
    table_server, table_campaign
):
    server, page = table_server
    assert "application/vnd.jupyter.widget-view+json" in page  # the dashboard's output
    assert table_campaign.suffix == ".gmk"
    with CampaignStore(table_campaign, readonly=True) as store:
        encounters = store.encounters()
        assert [roster.title for roster in store.rosters()] == [
            roster.title for roster in demo_campaign().rosters
        ]
    assert {info.game for info in encounters} == {fight.game for fight in DEMO_FIGHTS}
    assert encounters[0].game == "dark_heresy"  # the fight the dashboard opens on
    assert "the demo campaign, written to" in server.output()


def test_table_prints_the_url_it_serves(table_server):
    server, _ = table_server
    assert f"serving {server.url}" in server.output()


def test_table_strips_the_notebook_sources(table_server):
    _, page = table_server
    assert "open_campaign(" not in page  # a code cell's source
    assert "GMKIT_CAMPAIGN" not in page


def test_the_campaign_file_is_not_inside_the_served_folder(table_server, table_campaign):
    server, page = table_server
    assert str(table_campaign) not in page
    for path in (f"voila/files/{table_campaign.name}", f"files/{table_campaign.name}"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(server.at(path), timeout=30)
        assert refused.value.code in (403, 404)


def test_table_runs_voila_with_a_preheated_kernel(table_server):
    server, _ = table_server
    output = server.output()
    assert "Kernel pool of table.ipynb is filled with 2 kernel" in output
    assert "Using pre-heated kernel" in output  # the page came from it, campaign and all


def test_players_serves_the_player_view_on_every_interface(players_server, table_campaign):
    server, page = players_server
    output = server.output()
    assert "application/vnd.jupyter.widget-view+json" in page
    assert f"serving {server.url}" in output
    assert "on the local network: http://" in output or "no local network address" in output
    assert f"campaign file {table_campaign}" in output
    assert "encounter The Chapel of the Pale Throne" in output
    assert "open_campaign(" not in page  # the sources are stripped
    assert "GMKIT_ENCOUNTER" not in page
    assert "Kernel pool of players.ipynb is filled with 1 kernel" in output


# --- launching: announced once answering, a port taken, trusted notebooks, gmkit lab ---------


@pytest.mark.parametrize("fixture", ["table_server", "players_server"])
def test_serving_is_printed_only_once_voila_answers(fixture, request):
    server, _ = request.getfixturevalue(fixture)
    output = server.output()
    assert "starting Voila on port" in output
    assert output.index("Voilà is running") < output.index(f"serving {server.url}")


@pytest.mark.parametrize("fixture", ["table_server", "players_server"])
def test_every_address_printed_is_one_that_opens_the_page(fixture, request):
    """Voila's own "running at http://127.0.0.1:PORT/" (no token, no path: refused) is not
    printed; the addresses left hold the table's token or the players' path."""
    server, _ = request.getfixturevalue(fixture)
    output = server.output()
    printed = re.findall(r"https?://[^\s'\"]+", output)
    assert printed  # gmkit's own
    secret = urllib.parse.urlsplit(server.url)
    for address in printed:
        parts = urllib.parse.urlsplit(address)
        assert parts.path.startswith(secret.path), address  # the players' random path
        assert secret.query in parts.query, address  # the table's token
    assert "Voilà is running at" not in output


@pytest.mark.parametrize("fixture", ["table_server", "players_server"])
def test_the_served_notebooks_are_trusted(fixture, request):
    server, page = request.getfixturevalue(fixture)
    assert "application/vnd.jupyter.widget-view+json" in page  # a page was served, and...
    assert "Using pre-heated kernel" in server.output()
    assert "is not trusted" not in server.output()  # ...Voila trusted its notebook


def test_a_port_taken_when_voila_binds_is_the_same_clear_error(tmp_path, capsys, monkeypatch):
    """The port is free when gmkit looks, and taken by the time Voila binds it."""
    monkeypatch.setattr("gmkit._cli.check_port", lambda port, ip: None)
    monkeypatch.setattr("gmkit._launch.check_port", lambda port, ip: None)
    campaign = create_demo_store(tmp_path / "c.gmk")
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        assert main(["table", str(campaign), "--port", str(port), "--no-browser"]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"gmkit table: port {port} is in use; choose another with --port\n"
    assert "starting Voila" in captured.out
    assert "serving" not in captured.out


def test_lab_prints_the_prep_notebook_s_url_with_its_token(tmp_path):
    """``gmkit lab`` as a user runs it (Jupyter's own config, which asks for a token); its
    folders are this test's. Run as root (CI is), JupyterLab runs: gmkit allows it, saying so."""
    config = tmp_path / "config"
    config.mkdir()  # no allow_root in it: gmkit's doing
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(config)}
    env["JUPYTER_RUNTIME_DIR"] = str(tmp_path / "runtime")
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(tmp_path / "workspaces")
    env["JUPYTERLAB_SETTINGS_DIR"] = str(tmp_path / "settings")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    gmkit = Path(sys.executable).with_name("gmkit")
    log = tmp_path / "lab.log"
    with log.open("w") as handle:
        process = subprocess.Popen(
            [str(gmkit), "lab", "--port", str(port), "--no-browser"],
            stdout=handle,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=tmp_path,
            start_new_session=True,
        )
    try:
        serving = re.compile(rf"^gmkit lab: serving (http://127\.0\.0\.1:{port}/\S+)$", re.M)
        deadline = time.monotonic() + 120
        while not (found := serving.search(log.read_text())):
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        url = found.group(1)
        token = re.fullmatch(rf"http://127\.0\.0\.1:{port}/lab/tree/prep\.ipynb\?token=(\w+)", url)
        assert token, url
        assert len(token.group(1)) >= 32  # Jupyter's own, random
        assert "gmkit lab: campaign file " in log.read_text()
        as_root = "gmkit lab: running as root: JupyterLab started with --allow-root\n"
        assert (as_root in log.read_text()) == (os.geteuid() == 0)
        with urllib.request.urlopen(
            f"http://127.0.0.1:{port}/api/status?token={token.group(1)}"
        ) as ok:
            assert ok.status == 200
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=30)
        assert refused.value.code == 403  # without the token
        for host in ("rebind.example", f"rebind.example:{port}", f"192.168.1.20:{port}"):
            rebound = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/status?token={token.group(1)}",
                headers={"Host": host},
            )
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(rebound, timeout=30)
            assert refused.value.code == 403, host  # DNS rebinding: refused, token or not
        assert "--ServerApp.allow_remote_access=False" in " ".join(
            psutil.Process(process.pid).children()[0].cmdline()
        )
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
