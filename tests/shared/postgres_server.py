"""A real PostgreSQL for the tests: the distribution's server, started from ``initdb`` in a
temporary folder, on a loopback port of its own, stopped (and its folder removed) at the end.

As root (CI), the server runs as the ``postgres`` user the Debian package makes (``initdb``
refuses root). Where no PostgreSQL is installed, :func:`find_bin` returns None and the tests
that need one skip, unless ``GMKIT_REQUIRE_POSTGRES=1`` (CI) makes that a failure.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

_STARTED_WITHIN = 60.0  # seconds: pg_ctl's own wait, the bound on a start


def find_bin() -> Path | None:
    """The folder of PostgreSQL's server programs, or None where none is installed."""
    config = shutil.which("pg_config")
    if config:
        found = subprocess.run([config, "--bindir"], capture_output=True, text=True, check=False)
        folder = Path(found.stdout.strip())
        if (folder / "initdb").exists() and (folder / "postgres").exists():
            return folder
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), reverse=True)
    return versions[0].parent if versions else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PostgresServer:
    """One running server: ``url(database)`` to reach it, ``restart()``, ``stop()``."""

    bin: Path
    folder: Path
    port: int = field(default_factory=_free_port)

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def _run(self, *command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        argv = list(command)
        if os.geteuid() == 0:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        return subprocess.run(argv, capture_output=True, text=True, check=check, timeout=120)

    def init(self) -> None:
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
            "-c max_connections=200 -c fsync=on"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.folder / "server.log"),
            "-o",
            options,
            "-w",
            "-t",
            str(int(_STARTED_WITHIN)),
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        """Stop the server (every connection cut) and start it again on the same port."""
        self.stop()
        self.start()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def log(self) -> str:
        path = self.folder / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""


def started(bin_folder: Path) -> PostgresServer:
    """A new server in a temporary folder, running (the caller stops it)."""
    folder = Path(tempfile.mkdtemp(prefix="gmkit-pg-"))
    server = PostgresServer(bin_folder, folder)
    server.init()
    deadline = time.monotonic() + _STARTED_WITHIN
    while True:
        try:
            server.start()
            return server
        except subprocess.CalledProcessError:  # the port taken meanwhile: another one
            if time.monotonic() > deadline:
                raise
            server.port = _free_port()


def removed(server: PostgresServer) -> None:
    """Stop ``server`` (immediately) and remove its folder."""
    with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
        server.stop("immediate")
    shutil.rmtree(server.folder, ignore_errors=True)


def stored_rows(location: str) -> list[tuple[int, str]]:
    """The events of a campaign as stored, ``(seq, payload text)`` in order, read without
    gmkit: a file through sqlite3 (its integrity checked), a PostgreSQL campaign through
    psycopg."""
    if location.startswith(("postgresql:", "postgres:")):
        import psycopg

        address, _, schema = location.partition("#")
        with psycopg.connect(address, options=f"-c search_path={schema or 'gmkit'}") as connection:
            found = connection.execute("SELECT seq, payload FROM events ORDER BY encounter, seq")
            return [(int(seq), str(payload)) for seq, payload in found]
    import sqlite3

    connection = sqlite3.connect(f"{Path(location).resolve().as_uri()}?mode=ro", uri=True)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        rows = connection.execute("SELECT seq, payload FROM events ORDER BY encounter, seq")
        return [(int(seq), str(payload)) for seq, payload in rows]
    finally:
        connection.close()
