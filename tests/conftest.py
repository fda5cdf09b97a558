"""Fixtures shared across the suite: real Voila servers (``gmkit table``, ``gmkit players``), a
real JupyterLab, and a real Chromium. Servers are started once per session and shared."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import inspect
import itertools
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# what gmkit remembers for its user (gmkit._user_state): a folder of the test run's own, for the
# suite and every server it starts, never the home folder of whoever runs it
if "GMKIT_STATE_DIR" not in os.environ:
    os.environ["GMKIT_STATE_DIR"] = str(Path(tempfile.mkdtemp(prefix="gmkit-state-")) / "gmkit")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"  # screenshots of the run (gitignored)
TABLE_SEED = "7"  # the dashboard's dice in the browser tests: fixed, so every run is the same


# The server tests under `--dist loadgroup` (`scripts/test`: `-n $GMKIT_SERVER_WORKERS`, one
# by default): a module's tests stay on one worker, so its module-scoped servers start once and
# its tests run in their order; the JupyterLab tests share one worker and its one `lab_server`.
LAB_GROUP = "jupyterlab"


@pytest.hookimpl(trylast=True)  # after xdist has marked each grouped test's id with its group
def pytest_collection_finish(session: pytest.Session) -> None:
    """On an xdist worker under ``--dist loadgroup``, a grouped test's id ends in ``@group``;
    if not, xdist cannot group (pytest-dev/pytest-xdist#1386: pytest 9.2's node ids) and a
    module's ordered tests and servers would be split between workers: stop, saying so."""
    if not (hasattr(session.config, "workerinput") and session.config.getvalue("loadgroup")):
        return
    grouped = [item for item in session.items if item.get_closest_marker("xdist_group")]
    if grouped and not any("@" in item.nodeid for item in grouped):
        raise pytest.UsageError(
            f"pytest {pytest.__version__} and pytest-xdist do not group tests (--dist loadgroup): "
            "install the test extras again (pytest<9.2, see pyproject.toml)"
        )


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("server") is None or item.get_closest_marker("xdist_group"):
            continue
        name = item.path.stem
        group = LAB_GROUP if "lab_server" in getattr(item, "fixturenames", ()) else name
        item.add_marker(pytest.mark.xdist_group(group))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def gmkit_command() -> list[str]:
    """The installed console script, beside this interpreter (what a user runs)."""
    script = Path(sys.executable).with_name("gmkit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "gmkit._cli"]


@dataclass
class Server:
    """A server a test started; ``url`` is the page's URL as gmkit printed it (the table's
    with its token, the players' view's with its random path)."""

    url: str
    process: subprocess.Popen[str]
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def at(self, path: str) -> str:
        """The URL of ``path`` on this server: under its base path, with its token if any."""
        parts = urllib.parse.urlsplit(self.url)
        return urllib.parse.urlunsplit(parts._replace(path=parts.path + path))

    @property
    def origin(self) -> str:
        """``http://127.0.0.1:PORT``, with no path and no token."""
        parts = urllib.parse.urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"


SERVING = re.compile(r"^gmkit (?:table|players): serving (\S+)$", re.M)


def printed_url(process: subprocess.Popen[str], log: Path, timeout: float) -> str:
    """The URL a ``gmkit table``/``gmkit players`` prints once it serves."""
    deadline = time.monotonic() + timeout
    while not (found := SERVING.search(log.read_text(errors="replace"))):
        if process.poll() is not None:
            pytest.fail(f"server exited with {process.returncode}:\n{log.read_text()}")
        if time.monotonic() > deadline:
            pytest.fail(f"no 'serving URL' after {timeout}s:\n{log.read_text()}")
        time.sleep(0.2)
    return found.group(1)


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


def start_process(
    command: list[str], tmp: Path, port: int, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[str], Path]:
    log = tmp / f"server-{port}.log"
    handle = log.open("w")
    process = subprocess.Popen(
        command,
        stdout=handle,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=tmp,
        env={**os.environ, **(env or {})},
        start_new_session=True,  # its own process group: stopped as a whole, never leaked
    )
    return process, log


def port_taken_meanwhile(process: subprocess.Popen[str], log: Path) -> bool:
    """Whether the server ended because its free port was taken before it listened (another
    process's outgoing connection took the port between ``free_port`` and the bind)."""
    return process.poll() is not None and "is in use; choose another with --port" in (
        log.read_text(errors="replace")
    )


def serving(
    args: list[str], tmp: Path, env: dict[str, str] | None, timeout: float
) -> tuple[subprocess.Popen[str], Path, str]:
    """``gmkit ARGS --port FREE --no-browser`` once it prints its URL; started again on
    another free port (three times at most) when the port was taken meanwhile."""
    for _attempt in range(3):
        port = free_port()
        command = [*gmkit_command(), *args, "--port", str(port), "--no-browser"]
        process, log = start_process(command, tmp, port, env)
        deadline = time.monotonic() + timeout
        while not SERVING.search(log.read_text(errors="replace")):
            if process.poll() is not None or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        if not port_taken_meanwhile(process, log):
            return process, log, printed_url(process, log, timeout)
    pytest.fail(f"no free port held three times:\n{log.read_text()}")


def start_server(
    args: list[str], tmp: Path, timeout: float = 120, env: dict[str, str] | None = None
) -> tuple[Server, str]:
    """``gmkit ARGS --port FREE --no-browser``; returns once the page answers (at the URL it
    printed: the table's token, the players' view's path)."""
    process, log, url = serving(args, tmp, env, timeout)
    if "--light" not in args:  # a Voila server: its preheated kernels
        _wait_for_pool(process, log, timeout)
    page = wait_for_page(url, process, log, timeout)
    return Server(url, process, log), page


def _wait_for_pool(process: subprocess.Popen[str], log: Path, timeout: float) -> None:
    """Voila fills its pool of preheated kernels after it starts listening; a page asked for
    before that comes from a fresh kernel. Wait for the pool, as a GM's first visit does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        if "is filled with" in log.read_text(errors="replace"):
            return
        time.sleep(0.2)


def stop_server(server: Server) -> None:
    """Stop the server's whole process group (gmkit, Voila or Jupyter, and their kernels)."""
    try:
        os.killpg(server.process.pid, 15)
    except ProcessLookupError:
        return
    try:
        server.process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(server.process.pid, 9)
        server.process.wait()


def stop_servers(servers: list[Server]) -> None:
    """Stop every one of ``servers``: all asked at once, then each waited for (their kernels
    shut down side by side, not one server after another)."""
    for server in servers:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.process.pid, 15)
    for server in servers:
        stop_server(server)


def campaign_of(server: Server) -> Path:
    """The campaign file a ``gmkit table`` serves, as it prints it."""
    found = re.search(r"campaign file (\S+)", server.output())
    assert found, server.output()
    return Path(found.group(1))


@pytest.fixture
def gmkit_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """``gmkit_server(args, env=...)``: ``gmkit ARGS`` served (see :func:`start_server`) in the
    test's folder; every server it started stops with the test."""
    started: list[Server] = []

    def start(args: list[str], env: dict[str, str] | None = None) -> Server:
        server, _ = start_server(args, tmp_path, env=env)
        started.append(server)
        return server

    yield start
    stop_servers(started)


@pytest.fixture(scope="session")
def table_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    """``gmkit table`` on the demo campaign, as README's first command runs it (its dice
    seeded through GMKIT_SEED so every run rolls the same)."""
    server, page = start_server(
        ["table"], tmp_path_factory.mktemp("table"), env={"GMKIT_SEED": TABLE_SEED}
    )
    yield server, page
    stop_server(server)


@pytest.fixture(scope="session")
def table_campaign(table_server: tuple[Server, str]) -> Path:
    return campaign_of(table_server[0])


@pytest.fixture(scope="session")
def players_server(
    table_campaign: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, str]]:
    """``gmkit players`` following the table's campaign (its first encounter)."""
    server, page = start_server(["players", str(table_campaign)], tmp_path_factory.mktemp("pl"))
    yield server, page
    stop_server(server)


@pytest.fixture(scope="session")
def serve_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[Path], Server]]:
    """``serve_table(campaign)``: ``gmkit table CAMPAIGN`` (dice seeded as ``table_server``'s),
    once the page answers; every server it started stops at the end of the session."""
    started: list[Server] = []

    def serve(campaign: Path) -> Server:
        server, _ = start_server(
            ["table", str(campaign)],
            tmp_path_factory.mktemp("served"),
            env={"GMKIT_SEED": TABLE_SEED},
        )
        started.append(server)
        return server

    yield serve
    stop_servers(started)


@pytest.fixture(scope="module")
def serve_players(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[..., Server]]:
    """``serve_players(campaign, encounter, light=False)``: ``gmkit players CAMPAIGN
    --encounter NAME`` (``light``: with ``--light``, no kernel per page), once its kernel pool
    is full and the page answers; stopped at the end of the module."""
    started: list[Server] = []

    def serve(campaign: Path, encounter: str, light: bool = False) -> Server:
        server, _ = start_server(
            ["players", str(campaign), "--encounter", encounter, *(["--light"] if light else [])],
            tmp_path_factory.mktemp("players"),
            timeout=180,
        )
        started.append(server)
        return server

    yield serve
    stop_servers(started)


@dataclass
class DemoFights:
    """A ``gmkit table`` on its own copy of the demo campaign file, and one ``gmkit players``
    per prepared encounter of it (the player view follows one encounter)."""

    campaign: Path
    table: Server | None  # None: ``demo_players``
    players: dict[str, Server]  # by encounter name


def _demo_servers(tmp: Path, table: bool, light: bool = False) -> Iterator[DemoFights]:
    """The demo campaign written to a new file in ``tmp``, served by ``gmkit players FILE
    --encounter NAME`` for each of its encounters (``light``: ``--light``, no kernel per page)
    and (``table``) by ``gmkit table FILE`` (dice seeded as ``table_server``'s); the servers
    start side by side."""
    from gmkit.campaign import demo_campaign_file
    from gmkit.store import CampaignStore

    campaign = demo_campaign_file(tmp / "campaign")
    with CampaignStore(campaign, readonly=True) as store:
        names = [info.name for info in store.encounters()]
    launches: list[tuple[list[str], dict[str, str] | None]] = [
        *((["players", str(campaign), "--encounter", name], None) for name in names),
    ]
    if light:
        launches = [([*args, "--light"], env) for args, env in launches]
    if table:
        launches.append((["table", str(campaign)], {"GMKIT_SEED": TABLE_SEED}))
    started: list[Server] = []
    try:
        for args, env in launches:  # every server starts now; then each is waited for
            port = free_port()
            command = [*gmkit_command(), *args, "--port", str(port), "--no-browser"]
            process, log = start_process(command, tmp, port, env)
            started.append(Server("", process, log))
        for server, (args, env) in zip(started, launches, strict=True):
            deadline = time.monotonic() + 180
            while not SERVING.search(server.output()) and server.process.poll() is None:
                assert time.monotonic() < deadline, server.output()
                time.sleep(0.2)
            if port_taken_meanwhile(server.process, server.log):  # started again, elsewhere
                server.process, server.log, _ = serving(args, tmp, env, 180)
            server.url = printed_url(server.process, server.log, 180)
            if "--light" not in args:  # a Voila server: its preheated kernels
                _wait_for_pool(server.process, server.log, 180)
            wait_for_page(server.url, server.process, server.log, 180)
        players = dict(zip(names, started[: len(names)], strict=True))
        yield DemoFights(campaign, started[-1] if table else None, players)
    finally:
        stop_servers(started)


@pytest.fixture(scope="module")
def demo_fights(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoFights]:
    """The demo campaign in a file of the module's own (untouched by the session's
    ``table_server``), served by ``gmkit table FILE`` and by a ``gmkit players FILE
    --encounter NAME --light`` for each of its encounters (see :func:`_demo_servers`)."""
    yield from _demo_servers(tmp_path_factory.mktemp("fights"), table=True, light=True)


@pytest.fixture(scope="module")
def demo_players(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoFights]:
    """``demo_fights`` without the GM's table (its ``table`` is None), the players' pages
    served by ``gmkit players --light`` (no kernel per page): for a module that plays the GM's
    part from Python on the campaign file."""
    yield from _demo_servers(tmp_path_factory.mktemp("players-only"), table=False, light=True)


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``gmkit lab --dir COPY`` (README's command) on a copy of the repository's notebooks (so
    nothing it saves lands in the checkout), on a free port, once it prints that it serves.
    Its Jupyter folders are its own; their config asks for no token (so a test's pages open
    the plain URL) and allows root (CI runs as root)."""
    tmp = tmp_path_factory.mktemp("lab")
    notebooks = tmp / "notebooks"
    shutil.copytree(ROOT / "notebooks", notebooks)
    config = tmp / "config"
    config.mkdir()
    settings = {"IdentityProvider": {"token": ""}, "ServerApp": {"allow_root": True}}
    (config / "jupyter_server_config.json").write_text(json.dumps(settings))
    env = {"JUPYTER_CONFIG_DIR": str(config), "JUPYTER_RUNTIME_DIR": str(tmp / "rt")}
    env["JUPYTERLAB_SETTINGS_DIR"] = str(tmp / "settings")
    news = tmp / "settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)  # no "Jupyter news?" prompt over the notebook in screenshots
    (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(tmp / "workspaces")
    port = free_port()
    command = [*gmkit_command(), "lab", "--dir", str(notebooks), "--port", str(port)]
    process, log = start_process([*command, "--no-browser"], tmp, port, env)
    url = f"http://127.0.0.1:{port}/"
    server = Server(url, process, log)
    serving = f"gmkit lab: serving {url}lab/tree/prep.ipynb"  # no token: none is asked for
    deadline = time.monotonic() + 120
    while serving not in server.output().splitlines():
        if process.poll() is not None or time.monotonic() > deadline:
            stop_server(server)
            pytest.fail(f"no {serving!r} from gmkit lab:\n{server.output()}")
        time.sleep(0.2)
    yield server
    stop_server(server)


class NotebookRuns:
    """Each notebook of ``notebooks/`` run top to bottom once per test process, on a fresh
    kernel with no campaign named in the environment, in one copy of the folder (what a
    notebook writes, the players' notebook, never lands in the checkout). The tests that read
    a run share the xdist group ``notebooks``, so the suite runs each notebook once."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._runs: dict[str, Any] = {}

    def __call__(self, name: str) -> Any:
        if name not in self._runs:
            if not self.folder.exists():
                shutil.copytree(ROOT / "notebooks", self.folder)
            with pytest.MonkeyPatch.context() as patch:
                patch.delenv("GMKIT_CAMPAIGN", raising=False)
                patch.delenv("GMKIT_ENCOUNTER", raising=False)
                self._runs[name] = self.run(self.folder / name)
        return self._runs[name]

    @staticmethod
    def run(path: Path) -> Any:
        """The notebook at ``path`` run top to bottom on a fresh kernel, in its folder, with
        the environment as it is (a test that names a campaign sets it first)."""
        import nbformat
        from nbclient import NotebookClient

        notebook = nbformat.read(path, as_version=4)
        NotebookClient(
            notebook,
            timeout=300,
            kernel_name="python3",
            resources={"metadata": {"path": str(path.parent)}},
        ).execute()
        return notebook


@pytest.fixture(scope="session")
def notebook_runs(tmp_path_factory: pytest.TempPathFactory) -> NotebookRuns:
    """``notebook_runs(name)``: the notebook as run once (see :class:`NotebookRuns`)."""
    return NotebookRuns(tmp_path_factory.mktemp("notebooks") / "notebooks")


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def _in_fresh_thread(function: Callable[[], Any]) -> Any:
    """Run ``function`` in a new thread (no event loop running there, whatever this one has:
    Playwright's sync API keeps one running in the main thread for the whole session);
    ``function`` may be a coroutine function, then run with ``asyncio.run``."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            if inspect.iscoroutinefunction(function):
                outcome["value"] = asyncio.run(function())
            else:
                outcome["value"] = function()
        except BaseException as error:  # re-raised in the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=120)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


@pytest.fixture
def in_fresh_thread() -> Callable[[Callable[[], Any]], Any]:
    return _in_fresh_thread


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


DUEL = ROOT / "tests" / "plugins" / "gmkit-duel"
"""The toy game Duel: a package of its own (gmkit_duel, its entry point in gmkit.games)."""


@pytest.fixture(scope="session")
def duel_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Duel installed as a package (its wheel built by pip from tests/plugins/gmkit-duel, its
    dist-info with the entry point) into a folder of the session's own: on ``sys.path`` only
    while a test plays it, so no other test (nor another session sharing .venv) sees a sixth
    game."""
    site = tmp_path_factory.mktemp("duel-site")
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
    command += ["--no-build-isolation", "--disable-pip-version-check", "--target", str(site)]
    subprocess.run([*command, str(DUEL)], check=True, capture_output=True, timeout=300)
    return site


@pytest.fixture
def duel(duel_site: Path) -> Iterator[Any]:
    """Duel, found through its entry point (as ``pip install gmkit-duel`` would have it) for
    one test, then taken out of the registry and off ``sys.path``."""
    import importlib

    from gmkit.games import game, unregister

    sys.path.insert(0, str(duel_site))
    importlib.invalidate_caches()
    try:
        entry = game("duel")  # its entry point, read from the installed dist-info
        module = sys.modules["gmkit_duel"]
        assert entry is module.GAME
        yield module
    finally:
        unregister("duel")
        sys.path.remove(str(duel_site))
        for name in [name for name in sys.modules if name.split(".")[0] == "gmkit_duel"]:
            del sys.modules[name]
        importlib.invalidate_caches()


# --- shared by the test files (issue 24: the copies each file had moved here) ---------------


@pytest.fixture
def english() -> Iterator[None]:
    """The widgets' language English for the test, and again after it (a file asks for it for
    all its tests with ``pytestmark = pytest.mark.usefixtures("english")``)."""
    from gmkit.widgets._i18n import LANGUAGE

    LANGUAGE.value = "en"
    yield
    LANGUAGE.value = "en"


@pytest.fixture(scope="session")
def demo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo campaign file, written once for the session: copy it to change it
    (``demo_copy``)."""
    from gmkit.campaign import demo_campaign_file

    return demo_campaign_file(tmp_path_factory.mktemp("demo"))


@pytest.fixture
def demo_copy(demo_file: Path, tmp_path: Path) -> Path:
    """A copy of the demo campaign file of the test's own (``tmp_path/campaign.gmk``)."""
    copy = tmp_path / "campaign.gmk"
    shutil.copyfile(demo_file, copy)
    return copy


# --- the same suite on a campaign file and on PostgreSQL ------------------------------------

BACKENDS = ("file", "postgresql")
_SCHEMAS = itertools.count(1)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A real PostgreSQL server for the session (one per xdist worker), from the distribution's
    packages; skipped where none is installed, failed instead with GMKIT_REQUIRE_POSTGRES=1."""
    import postgres_server  # tests/shared (pyproject's pythonpath)

    found = postgres_server.find_bin()
    missing = "no PostgreSQL server installed" if found is None else None
    if importlib.util.find_spec("psycopg") is None:
        missing = "psycopg is not installed"
    if missing is not None:
        if os.environ.get("GMKIT_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"GMKIT_REQUIRE_POSTGRES=1: {missing}")
        pytest.skip(missing)
    assert found is not None
    server = postgres_server.started(found)
    try:
        server.create_database("gmkit")
        yield server
    finally:
        postgres_server.removed(server)


@pytest.fixture(params=BACKENDS)
def campaign_at(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[..., str]:
    """Where a new campaign goes, as ``CampaignStore`` takes it: a file in ``tmp_path``, or a
    new schema of the session's PostgreSQL (``campaign_at("name")``, each call its own)."""
    if request.param == "file":
        return lambda name="campaign": str(tmp_path / f"{name}.gmk")
    server = request.getfixturevalue("postgres")
    return lambda name="campaign": f"{server.url('gmkit')}#t{next(_SCHEMAS)}_{name}"
