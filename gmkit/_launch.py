"""Starting the servers behind ``gmkit table``, ``gmkit players`` and ``gmkit lab``.

A server is announced ("serving URL") only once it answers: the launch polls a URL of it that
starts no kernel until it gets HTTP 200, watching the process meanwhile; a port another
program holds is a clear error, found before the server starts or when it fails to bind.

Voila serves through gmkit's own template (``gmkit/_jupyter/voila/templates/gmkit``: Voila's
``lab`` template without its Font Awesome links to a CDN, whose styles and fonts Voila's own
bundle already holds), so the pages load nothing from outside this machine. The notebooks it
serves are signed at each launch into a notary of the launch's own (a temporary folder given
to Voila as ``NotebookNotary.data_dir``), so Voila trusts them and logs no warning per page.

Who may reach a server (gmkit._serving): the GM's table answers only with the launch's random
token (in the URL it prints and opens) and only under local names; the players' view only
under the launch's random path. Kernels are culled and capped (:class:`KernelPolicy`), and
each kernel rate-limits the widget messages it handles.

Why over 400 lines: starting the servers is one sequence (the port, the command, waiting
until it answers, the browser) for three servers (table, players, JupyterLab) sharing it;
what runs inside Voila is :mod:`gmkit._serving`.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import html
import json
import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import webbrowser
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gmkit.errors import GmkitError

if TYPE_CHECKING:  # imported where used: `gmkit --help` loads no server's modules (tornado...)
    from gmkit._serving.guard import Access

JUPYTER_DATA = Path(__file__).resolve().parent / "_jupyter"  # gmkit's Voila template
VOILA_TEMPLATE = "gmkit"
VOILA_READY_PATH = "voila/static/voila.js"  # answers once Voila listens; "/" takes a kernel
LAB_READY_PATH = "api/status"
LAB_NOTEBOOK = "prep.ipynb"
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never via a proxy


def check_port(port: int, ip: str) -> None:
    """Refuse a port another program listens on (or that cannot be served), before starting."""
    error = _bind_error(port, ip)
    if error is not None:
        raise port_error(port, error)


def port_error(port: int, error: OSError | None = None) -> GmkitError:
    if error is None or error.errno == errno.EADDRINUSE:
        return GmkitError(f"port {port} is in use; choose another with --port")
    return GmkitError(
        f"port {port} cannot be served ({error.strerror}); choose another with --port"
    )


def port_in_use(port: int, ip: str) -> bool:
    return _bind_error(port, ip) is not None


def _bind_error(port: int, ip: str) -> OSError | None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers bind
        try:
            probe.bind((ip, port))
        except OSError as error:
            return error
    return None


def answers(url: str, timeout: float = 5) -> bool:
    """Whether ``url`` answers HTTP 200 now."""
    try:
        with _DIRECT.open(url, timeout=timeout) as response:
            return int(response.status) == 200
    except (urllib.error.URLError, OSError):
        return False


def wait_until_answering(
    process: subprocess.Popen[bytes], url: Callable[[], str | None], poll: float = 0.2
) -> bool:
    """True once ``url()`` (None while not known yet) answers HTTP 200; False if the process
    ends first."""
    while process.poll() is None:
        known = url()
        if known is not None and answers(known):
            return True
        time.sleep(poll)
    return False


def serve(
    command: list[str],
    *,
    environment: dict[str, str],
    cwd: Path,
    ready_url: Callable[[subprocess.Popen[bytes]], str | None],
    announce: Callable[[subprocess.Popen[bytes]], None],
    what: str,
    port: int,
    ip: str,
) -> int:
    """Run a server until it stops; ``announce`` runs once it answers. A SIGTERM to gmkit
    stops the server (and its kernels) too, killed if it has not stopped within
    :data:`STOP_SECONDS`. A server that ends before it answers is an error (a port taken
    meanwhile named as such), never announced. A server its watchdog ended
    (:data:`~gmkit._serving.watchdog.RESTART_STATUS`: its event loop stopped) is started again,
    on the same port with the same environment: the same links work."""
    from gmkit._serving.watchdog import FAULT_VARIABLE, RESTART_STATUS

    running: list[subprocess.Popen[bytes]] = []
    stopping: list[int] = []

    def start() -> subprocess.Popen[bytes]:
        env = {**os.environ, **environment}
        if running:  # started again: a test's injected fault was for the first start only
            env.pop(FAULT_VARIABLE, None)
        running[:] = [subprocess.Popen(command, env=env, cwd=cwd)]
        return running[0]

    def forward(signum: int, _frame: object) -> None:
        stopping.append(signum)
        running[0].send_signal(signum)

    process = start()
    previous = signal.signal(signal.SIGTERM, forward)
    try:
        try:
            ready = wait_until_answering(process, lambda: ready_url(process))
        except KeyboardInterrupt:  # Ctrl-C reached the server too; wait for it to stop
            return _wait(process, stopping)
        if not ready:
            status = _wait(process, stopping)
            if stopping:
                return status
            if port_in_use(port, ip):
                raise port_error(port)
            raise GmkitError(
                f"{what} stopped before serving (exit status {status}); its messages are above"
            )
        announce(process)
        while True:
            status = _wait(process, stopping)
            if status != RESTART_STATUS or stopping:
                return status
            print(f"gmkit: {what} stopped answering; starting it again", flush=True)
            process = start()
            if wait_until_answering(process, functools.partial(ready_url, process)):
                print(f"gmkit: {what} answers again at the same address", flush=True)
    finally:
        signal.signal(signal.SIGTERM, previous)


STOP_SECONDS = 10.0
"""How long a server asked to stop (SIGTERM) has before it is killed."""


def _wait(process: subprocess.Popen[bytes], stopping: list[int] | None = None) -> int:
    """The server's exit status, once it ends; asked to stop (``stopping``), it is killed
    after :data:`STOP_SECONDS` (a server whose event loop hangs ignores SIGTERM)."""
    while True:
        try:
            if stopping:
                try:
                    return process.wait(timeout=STOP_SECONDS)
                except subprocess.TimeoutExpired:
                    process.kill()  # its kernels follow: they watch their parent
                    return process.wait()
            try:
                return process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                continue  # look again whether a stop was asked meanwhile
        except KeyboardInterrupt:  # Ctrl-C reached the server too; wait for it to stop
            stopping = stopping if stopping is not None else []
            stopping.append(signal.SIGINT)
            continue


# --- Voila ------------------------------------------------------------------------------------


# The kernels talk to the server over IPC sockets in the user's private runtime folder: no
# TCP port is picked and raced for (a start once failed with "Address already in use").
KERNEL_TRANSPORT = ["--KernelManager.transport=ipc"] if os.name == "posix" else []


@dataclass(frozen=True)
class KernelPolicy:
    """How long a Voila server's kernels live and how many serve (see gmkit._serving.kernels):
    ``unconnected`` seconds without a page, ``idle`` seconds with nothing happening while a
    page is connected, at most ``most`` kernels serving pages; each kernel handles ``rate``
    widget messages a second (``burst`` at once). ``pool`` kernels wait preheated (the
    notebook run) for the next pages, besides the ``most`` serving."""

    unconnected: int
    idle: int
    most: int
    rate: int
    burst: int
    interval: int = 60  # seconds between culls
    grace: int = 30  # seconds a new page has to connect before its kernel may be reclaimed
    pool: int = 1  # preheated kernels waiting for a page
    message_bytes: int = 8 * 1024 * 1024  # the largest message a page may send
    memory_mb: int = 0  # each kernel's data memory (RLIMIT_DATA), 0: not capped

    def options(self) -> list[str]:
        manager = "BoundedKernelManager"
        return [
            f"--VoilaConfiguration.multi_kernel_manager_class=gmkit._serving.kernels.{manager}",
            f"--{manager}.unconnected_timeout={self.unconnected}",
            f"--{manager}.cull_idle_timeout={self.idle}",
            f"--{manager}.cull_connected=True",
            f"--{manager}.cull_interval={self.interval}",
            f"--{manager}.max_kernels={self.most}",
            f"--{manager}.eviction_grace={self.grace}",
            "--Voila.kernel_websocket_connection_class=gmkit._serving.websocket.LimitedConnection",
            f"--LimitedConnection.comm_rate={self.rate}",
            f"--LimitedConnection.comm_burst={self.burst}",
            f"--LimitedConnection.message_bytes={self.message_bytes}",
            *KERNEL_TRANSPORT,
        ]


# The GM's table: a page left open through a long scene keeps its kernel (8 hours with nothing
# happening); a closed one goes after 30 minutes; 6 table pages at once. Two kernels wait with
# the dashboard built: a reload (or a second one right after) never waits for the notebook.
TABLE_KERNELS = KernelPolicy(unconnected=1800, idle=8 * 3600, most=6, rate=50, burst=150, pool=2)
# The players' view: a closed page (or a phone asleep) goes after 10 minutes, an open one
# after 3 hours of nothing happening; 12 players' pages at once.
# A player's page sends clicks and typed dice, never more than 64 KiB at once; a players'
# kernel (about 180 MiB resident, 330 MiB of data mapped) may map at most 768 MiB of data.
PLAYERS_KERNELS = KernelPolicy(
    unconnected=600,
    idle=3 * 3600,
    most=12,
    rate=20,
    burst=60,
    message_bytes=64 * 1024,
    memory_mb=768,
)


def table_access(port: int) -> Access:
    """A launch of the GM's table: a new random token, loopback names only."""
    from gmkit._serving.guard import Access

    return Access(token=secrets.token_hex(24), cookie=f"gmkit-table-{port}")


PATH_LETTERS = "abcdefghijkmnpqrstuvwxyz23456789"  # no 0/o, 1/l: typed on a phone


def players_access() -> Access:
    """A launch of the players' view: no token, a new random path, any LAN address."""
    from gmkit._serving.guard import Access

    secret = "".join(secrets.choice(PATH_LETTERS) for _ in range(10))
    return Access(lan=True, path=f"/{secret}/")


def access_url(base: str, access: Access, path: str = "") -> str:
    """``base`` ("http://HOST:PORT") at the access's path, ``path`` beneath, token included."""
    url = base.rstrip("/") + (access.path or "/") + path
    return url + (f"?token={access.token}" if access.token else "")


def voila_command(
    notebook: Path,
    port: int,
    *,
    open_browser: bool,
    ip: str = "127.0.0.1",
    preheat: bool = True,
    kernels: KernelPolicy | None = None,
    pool: int | None = None,
) -> list[str]:
    """Voila's command serving ``notebook``; preheated, ``pool`` kernels run it before a page
    asks (by default the policy's pool, else one)."""
    command = [
        sys.executable,
        "-m",
        "gmkit._launch",  # Voila, finding gmkit's template (see voila_main)
        str(notebook),
        f"--port={port}",
        "--strip_sources=True",
        "--show_tracebacks=False",  # no traceback naming paths to a page, whatever the config
        "--theme=dark",
        f"--template={VOILA_TEMPLATE}",
        f"--Voila.ip={ip}",
        "--Voila.port_retries=0",  # a busy port is an error, not a silent other URL
    ]
    if preheat:  # a kernel runs the notebook before the page is asked for
        size = pool if pool is not None else kernels.pool if kernels is not None else 1
        if size < 1:
            raise ValueError(f"pool: {size} preheated kernels; at least 1")
        command += ["--preheat_kernel=True", f"--pool_size={size}"]
    if kernels is not None:
        command += kernels.options()
    if not open_browser:
        command.append("--no-browser")
    return command


VOILA_RUNNING = "Voilà is running at"  # the start of Voila's line naming its own URL


class WithoutBareUrl(logging.Filter):
    """Voila's "Voilà is running at: URL" without the URL: that bare URL (no token, no path)
    is refused by gmkit's guard; the one to open is the one gmkit prints once it answers."""

    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.msg).startswith(VOILA_RUNNING):
            record.msg, record.args = "Voilà is running (the address to open: gmkit's)", ()
        return True


def voila_main(argv: list[str]) -> int:
    """``python -m gmkit._launch ARGS``: Voila's own command with gmkit's data folder first on
    JUPYTER_PATH, where Voila finds the ``gmkit`` template (whoever runs voila_command), and
    without the bare URL Voila would print (:class:`WithoutBareUrl`)."""
    paths = [str(JUPYTER_DATA), *filter(None, [os.environ.get("JUPYTER_PATH")])]
    os.environ["JUPYTER_PATH"] = os.pathsep.join(paths)
    from gmkit._serving.app import main, voila_class

    # Voila logs through the logger named after its class (traitlets' Application.log)
    logging.getLogger(voila_class().__name__).addFilter(WithoutBareUrl())
    return main(argv)


@contextlib.contextmanager
def trusting_notary(notebook: Path) -> Iterator[list[str]]:
    """Voila's options for a notary of this launch that trusts ``notebook`` (signed now, as
    it is on disk); the notary's folder is removed when the block ends."""
    import nbformat  # seconds to import (its JSON schema checks): only for a server
    from nbformat.sign import NotebookNotary

    with tempfile.TemporaryDirectory(prefix="gmkit-notary-") as folder:
        notary = NotebookNotary(data_dir=folder)
        notary.sign(nbformat.read(notebook, as_version=4))
        notary.store.close()
        yield [f"--NotebookNotary.data_dir={folder}"]


def open_in_browser(url: str, folder: Path) -> None:
    """Open ``url`` in the user's browser through a file of ``folder`` that redirects to it
    (as Jupyter Server does), so the token is not on the browser's command line."""
    page = folder / "open.html"
    quoted = html.escape(url, quote=True)
    page.write_text(
        f'<!DOCTYPE html><meta http-equiv="refresh" content="0;url={quoted}">'
        f'<a href="{quoted}">{quoted}</a>\n',
        encoding="utf-8",
    )
    page.chmod(0o600)
    threading.Thread(target=webbrowser.open, args=(page.as_uri(),), daemon=True).start()


def serve_voila(
    notebook: Path,
    environment: dict[str, str],
    *,
    port: int,
    ip: str,
    open_browser: bool,
    announce: Callable[[], None],
    access: Access | None = None,
    kernels: KernelPolicy | None = None,
) -> int:
    """Serve ``notebook`` through Voila on ``port`` to whom ``access`` lets in, its kernels
    bounded by ``kernels``; ``announce`` once the server answers (then the browser opens at
    the access's URL, token included)."""
    from gmkit._serving.comm_limit import LIMIT_VARIABLE, MEMORY_VARIABLE
    from gmkit._serving.guard import SERVING_VARIABLE, Access

    check_port(port, ip)
    access = access or Access()
    local = f"http://127.0.0.1:{port}"
    secret = {SERVING_VARIABLE: access.to_json()}  # by environment: `ps` shows no token
    if kernels is not None:
        # the kernel's own limit, behind the server's: twice as wide, for what the server let by
        secret[LIMIT_VARIABLE] = f"{2 * kernels.rate},{2 * kernels.burst}"
        if kernels.memory_mb:
            secret[MEMORY_VARIABLE] = str(kernels.memory_mb)

    def ready(_process: subprocess.Popen[bytes]) -> None:
        announce()
        if open_browser:
            open_in_browser(access_url(local, access), Path(folder))

    with trusting_notary(notebook) as notary_options:
        folder = notary_options[0].partition("=")[2]
        command = voila_command(notebook, port, open_browser=False, ip=ip, kernels=kernels)
        return serve(
            [*command, *notary_options],
            environment={**environment, **secret},
            cwd=notebook.parent,
            ready_url=lambda _process: access_url(local, access, VOILA_READY_PATH),
            announce=ready,
            what="Voila",
            port=port,
            ip=ip,
        )


# --- JupyterLab -------------------------------------------------------------------------------


def running_as_root() -> bool:
    """Whether this process runs as root (JupyterLab refuses to, unless told it may)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def lab_command(
    folder: Path, port: int, *, open_browser: bool, allow_root: bool = False
) -> list[str]:
    """JupyterLab on ``folder``, opening the prep notebook; nothing asked of the internet (no
    news, no update check). Token, password and the like come from the user's Jupyter config
    (Jupyter's default: a random token per launch); a ``Host`` that is not a loopback address
    or ``localhost`` is refused whatever that config says (DNS rebinding). ``allow_root``:
    JupyterLab may run as root (its ``--allow-root``)."""
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        f"--ServerApp.root_dir={folder}",
        f"--ServerApp.port={port}",
        "--ServerApp.ip=127.0.0.1",
        "--ServerApp.port_retries=0",  # a busy port is an error, not a silent other URL
        "--ServerApp.allow_remote_access=False",  # Host checked: loopback and localhost only
        "--ServerApp.local_hostnames=localhost",
        f"--LabApp.default_url=/lab/tree/{LAB_NOTEBOOK}",
        "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if allow_root:
        command.append("--ServerApp.allow_root=True")
    if not open_browser:
        command.append("--no-browser")
    return command


def lab_server_info(pid: int) -> dict[str, object] | None:
    """What the Jupyter server of process ``pid`` wrote about itself once it listened (its
    URL and token), from Jupyter's runtime folder; None until then."""
    from jupyter_core.paths import jupyter_runtime_dir

    info = Path(jupyter_runtime_dir()) / f"jpserver-{pid}.json"
    try:
        data = json.loads(info.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def lab_url(info: dict[str, object], path: str = "") -> str:
    """The server's URL at ``path``, with its token when it has one."""
    base = str(info.get("url", ""))
    token = str(info.get("token") or "")
    return f"{base}{path}" + (f"?token={token}" if token else "")


def serve_lab(
    folder: Path,
    environment: dict[str, str],
    *,
    port: int,
    open_browser: bool,
    announce: Callable[[str], None],
    allow_root: bool = False,
) -> int:
    """Serve JupyterLab on ``folder``; ``announce(url)`` (the prep notebook's URL, token
    included) once it answers. ``allow_root``: as :func:`lab_command`."""
    check_port(port, "127.0.0.1")

    def ready(process: subprocess.Popen[bytes]) -> str | None:
        info = lab_server_info(process.pid)
        return lab_url(info, LAB_READY_PATH) if info else None

    def tell(process: subprocess.Popen[bytes]) -> None:
        info = lab_server_info(process.pid) or {}
        announce(lab_url(info, f"lab/tree/{LAB_NOTEBOOK}"))

    return serve(
        lab_command(folder, port, open_browser=open_browser, allow_root=allow_root),
        environment=environment,
        cwd=folder,
        ready_url=ready,
        announce=tell,
        what="JupyterLab",
        port=port,
        ip="127.0.0.1",
    )


if __name__ == "__main__":
    sys.exit(voila_main(sys.argv[1:]))
