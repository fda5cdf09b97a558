"""gmkit._launch, the servers' start (no real server here: see test_table_server.py), and
scripts/setup, run against a stand-in Python."""

from __future__ import annotations

import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import nbformat
import pytest
from nbformat.sign import NotebookNotary

from gmkit._launch import (
    JUPYTER_DATA,
    VOILA_READY_PATH,
    lab_server_info,
    lab_url,
    serve,
    trusting_notary,
    voila_command,
    wait_until_answering,
)
from gmkit.errors import GmkitError

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def answering():
    """A local HTTP server answering 200 at every path: its URL."""

    class Quiet(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture
def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def sleeper() -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])


def test_waiting_ends_when_the_url_answers(answering):
    process = sleeper()
    asked = []

    def url():
        asked.append(1)
        return None if len(asked) < 3 else answering  # not known at first (lab's runtime file)

    try:
        assert wait_until_answering(process, url, poll=0.01) is True
    finally:
        process.kill()
        process.wait()
    assert len(asked) == 3


def test_waiting_ends_when_the_process_does():
    process = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    assert wait_until_answering(process, lambda: "http://127.0.0.1:9/", poll=0.01) is False
    assert process.returncode == 3


def test_a_server_that_ends_before_answering_is_an_error_never_announced(free_port):
    announced = []
    with pytest.raises(GmkitError) as refused:
        serve(
            [sys.executable, "-c", "raise SystemExit(3)"],
            environment={},
            cwd=Path.cwd(),
            ready_url=lambda _process: f"http://127.0.0.1:{free_port}/",
            announce=announced.append,
            what="Voila",
            port=free_port,
            ip="127.0.0.1",
        )
    assert (
        str(refused.value) == "Voila stopped before serving (exit status 3); its messages are above"
    )
    assert announced == []


def test_a_server_is_announced_once_it_answers_and_runs_until_it_stops(answering, free_port):
    announced = []
    status = serve(
        [sys.executable, "-c", "import time; time.sleep(0.5); raise SystemExit(0)"],
        environment={"GMKIT_PROBE": "1"},
        cwd=Path.cwd(),
        ready_url=lambda _process: answering,
        announce=lambda process: announced.append(process.poll()),
        what="Voila",
        port=free_port,
        ip="127.0.0.1",
    )
    assert status == 0
    assert announced == [None]  # announced while the server still ran


def test_voila_runs_through_gmkit_s_template_and_polls_a_url_that_starts_no_kernel():
    command = voila_command(Path("t.ipynb"), 9, open_browser=False)
    assert command[1:4] == ["-m", "gmkit._launch", "t.ipynb"]
    assert "--template=gmkit" in command
    template = JUPYTER_DATA / "voila" / "templates" / "gmkit"
    assert json.loads((template / "conf.json").read_text()) == {"base_template": "lab"}
    page = (template / "index.html.j2").read_text()
    assert "extends 'lab/index.html.j2'" in page
    assert "<link" not in page  # the lab template's CDN links are what it leaves out
    assert VOILA_READY_PATH == "voila/static/voila.js"


def test_the_served_notebook_is_signed_into_the_launch_s_own_notary():
    notebook = ROOT / "notebooks" / "table.ipynb"
    before = notebook.read_bytes()
    with trusting_notary(notebook) as options:
        (option,) = options
        assert option.startswith("--NotebookNotary.data_dir=")
        folder = Path(option.split("=", 1)[1])
        notary = NotebookNotary(data_dir=str(folder))
        assert notary.check_signature(nbformat.read(notebook, as_version=4))
        other = nbformat.read(ROOT / "notebooks" / "players.ipynb", as_version=4)
        assert not notary.check_signature(other)  # only what the launch serves
        notary.store.close()
    assert not folder.exists()  # the notary lives as long as the launch
    assert notebook.read_bytes() == before  # the file itself is untouched


def test_lab_s_url_carries_its_token_when_it_has_one():
    info = {"url": "http://127.0.0.1:8888/", "token": "abc123"}
    assert lab_url(info, "lab/tree/prep.ipynb") == (
        "http://127.0.0.1:8888/lab/tree/prep.ipynb?token=abc123"
    )
    assert lab_url({"url": "http://127.0.0.1:8888/", "token": ""}, "api/status") == (
        "http://127.0.0.1:8888/api/status"
    )


def test_lab_s_url_and_token_come_from_the_server_s_runtime_file(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))
    assert lab_server_info(4321) is None  # not written yet: the server does not listen yet
    (tmp_path / "jpserver-4321.json").write_text('{"url": "http://127.0.0.1:9/", "token": "t"}')
    assert lab_server_info(4321) == {"url": "http://127.0.0.1:9/", "token": "t"}


# --- scripts/setup -----------------------------------------------------------------------------

FAKE_PYTHON = """#!/usr/bin/env bash
# A stand-in for Python: `-m venv DIR` makes DIR/bin/python (this script); `-m pip install -e`
# makes the gmkit script beside it; every call is logged.
echo "$*" >> "$CALLS"
if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin"; cp "$0" "$3/bin/python"; fi
if [ "$1 $2 $3" = "-m pip install" ] && [ "${@: -2:1}" = "-e" ]; then
  touch "$(dirname "$0")/gmkit"; chmod +x "$(dirname "$0")/gmkit"
fi
"""


@pytest.fixture
def checkout(tmp_path):
    """A copy of scripts/setup and pyproject.toml, and the stand-in Python it finds."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup", tmp_path / "scripts" / "setup")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    fake = tmp_path / "fake-python"
    fake.write_text(FAKE_PYTHON)
    fake.chmod(0o755)
    return tmp_path


def run_setup(checkout: Path, *extras: str) -> tuple[str, list[str]]:
    """scripts/setup's output, and the Python calls it made."""
    calls = checkout / "calls.log"
    calls.unlink(missing_ok=True)
    environment = {**os.environ, "PYTHON": str(checkout / "fake-python"), "CALLS": str(calls)}
    done = subprocess.run(
        ["bash", str(checkout / "scripts" / "setup"), *extras],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout, calls.read_text().splitlines() if calls.exists() else []


def test_setup_says_what_it_does_the_first_time_and_is_silent_once_set_up(checkout):
    out, calls = run_setup(checkout)
    assert out.splitlines() == [
        f"gmkit: creating .venv (a Python environment of its own, in {checkout}/.venv) ...",
        "gmkit: installing gmkit and its packages into .venv (a minute or two the first time) ...",
        "gmkit: set up (.venv/bin/gmkit)",
    ]
    assert calls == [
        "-m venv .venv",
        "-m pip install --quiet --disable-pip-version-check --upgrade pip",
        "-m pip install --disable-pip-version-check -e .",  # pip's own progress shows
    ]
    assert run_setup(checkout) == ("", [])  # set up: nothing said, nothing installed


def test_setup_installs_again_for_new_extras_or_a_changed_pyproject(checkout):
    run_setup(checkout)
    out, calls = run_setup(checkout, "test")
    assert "creating .venv" not in out
    assert out.startswith("gmkit: installing gmkit and its packages")
    assert calls[-1] == "-m pip install --disable-pip-version-check -e .[test]"
    assert run_setup(checkout, "test") == ("", [])
    assert run_setup(checkout) == ("", [])  # the test extras hold the base install
    with (checkout / "pyproject.toml").open("a") as pyproject:
        pyproject.write("\n# a new dependency\n")
    out, calls = run_setup(checkout)
    assert out.startswith("gmkit: installing gmkit and its packages")
    assert calls[-1] == "-m pip install --disable-pip-version-check -e ."


# --- who reaches the servers, and their kernels (issue 13) ----------------------------------


def test_serve_voila_gives_the_token_by_environment_and_bounds_the_kernels(monkeypatch):
    from gmkit._launch import TABLE_KERNELS, serve_voila, table_access

    seen: dict[str, object] = {}

    def fake_serve(command, *, environment, ready_url, **_options):
        seen.update(command=command, environment=environment, ready=ready_url(None))
        return 0

    monkeypatch.setattr("gmkit._launch.serve", fake_serve)
    monkeypatch.setattr("gmkit._launch.check_port", lambda port, ip: None)
    access = table_access(8866)
    notebook = ROOT / "notebooks" / "table.ipynb"
    status = serve_voila(
        notebook,
        {"GMKIT_CAMPAIGN": "c.gmk"},
        port=8866,
        ip="127.0.0.1",
        open_browser=True,
        announce=lambda: None,
        access=access,
        kernels=TABLE_KERNELS,
    )
    assert status == 0
    command = " ".join(seen["command"])
    assert access.token not in command  # `ps` shows every local user the command line
    assert "--no-browser" in command  # gmkit opens the browser itself, token included
    assert "--BoundedKernelManager.max_kernels=6" in command
    assert "--BoundedKernelManager.unconnected_timeout=1800" in command
    assert "--BoundedKernelManager.cull_idle_timeout=28800" in command
    assert "--BoundedKernelManager.cull_connected=True" in command
    assert "--LimitedConnection.comm_rate=50" in command
    environment = seen["environment"]
    assert json.loads(environment["GMKIT_SERVING"])["token"] == access.token
    assert environment["GMKIT_COMM_LIMIT"] == "100,300"  # the kernel's, behind the server's
    assert environment["GMKIT_CAMPAIGN"] == "c.gmk"
    assert seen["ready"] == f"http://127.0.0.1:8866/voila/static/voila.js?token={access.token}"


def test_the_players_path_is_random_and_easy_to_type():
    from gmkit._launch import PATH_LETTERS, players_access

    paths = {players_access().path for _ in range(50)}
    assert len(paths) == 50
    for path in paths:
        assert path.startswith("/")
        assert path.endswith("/")
        assert len(path) == 12
        assert set(path[1:-1]) <= set(PATH_LETTERS)
    assert not set("01lo") & set(PATH_LETTERS)
