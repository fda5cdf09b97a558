"""A client of a kernel's websocket, as a hostile page would speak to it (the tests of issue 13):
Jupyter's JSON messages over ``/api/kernels/ID/channels``, widget states read through
ipywidgets' control comm, comm messages sent in bulk."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import psutil
from websockets.sync.client import ClientConnection, connect


def kernel_id_of(page: str) -> str:
    found = re.search(r'"kernelId": "([0-9a-f-]{36})"', page)
    assert found, page[:500]
    return found.group(1)


def channels_url(page_url: str, kernel_id: str) -> str:
    """The websocket URL of ``kernel_id`` on the server of ``page_url`` (its path kept, its
    token passed on)."""
    base, _, query = page_url.partition("?")
    url = f"ws{base[4:].rstrip('/')}/api/kernels/{kernel_id}/channels"
    return f"{url}?{query}" if query else url


class KernelClient:
    """One websocket to a kernel; ``send`` a message, ``wait`` for a reply."""

    def __init__(self, url: str, **headers: str) -> None:
        self.session = uuid.uuid4().hex
        self._connecting = connect(
            url, additional_headers=headers, proxy=None, open_timeout=60, max_size=None
        )
        self.socket: ClientConnection = self._connecting.__enter__()

    def close(self) -> None:
        self._connecting.__exit__(None, None, None)

    def __enter__(self) -> KernelClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def send(
        self,
        msg_type: str,
        content: dict[str, Any],
        channel: str = "shell",
        metadata: dict[str, Any] | None = None,
    ) -> str:
        msg_id = uuid.uuid4().hex
        header = {
            "msg_id": msg_id,
            "msg_type": msg_type,
            "session": self.session,
            "username": "",
            "version": "5.3",
            "date": "2026-12-01T00:00:00Z",
        }
        message = {
            "header": header,
            "parent_header": {},
            "metadata": metadata or {},
            "content": content,
            "channel": channel,
            "buffers": [],
        }
        self.socket.send(json.dumps(message))
        return msg_id

    def wait(self, msg_id: str, msg_type: str, timeout: float = 120) -> dict[str, Any]:
        """The first message of ``msg_type`` answering ``msg_id``."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no {msg_type} for {msg_id} in {timeout} s"
            reply = json.loads(self.socket.recv(timeout=left))
            parent = reply.get("parent_header") or {}
            if parent.get("msg_id") == msg_id and reply["header"]["msg_type"] == msg_type:
                return dict(reply)

    def kernel_info_seconds(self) -> float:
        """How long the kernel takes to answer a kernel_info_request (it waits behind every
        shell message sent before it)."""
        start = time.monotonic()
        self.wait(self.send("kernel_info_request", {}), "kernel_info_reply")
        return time.monotonic() - start

    def widget_states(self) -> dict[str, dict[str, Any]]:
        """Every widget's state, by comm id (ipywidgets' control comm, as a page asks)."""
        control = uuid.uuid4().hex
        self.send(
            "comm_open",
            {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
            metadata={"version": "1.0.0"},  # ipywidgets' control protocol
        )
        asked = self.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
        reply = self.wait(asked, "comm_msg")
        return {key: value["state"] for key, value in reply["content"]["data"]["states"].items()}

    def flood(self, comm_id: str, states: list[dict[str, Any]]) -> None:
        """One ``update`` comm message per state, as fast as the socket takes them."""
        for state in states:
            data = {"method": "update", "state": state, "buffer_paths": []}
            self.send("comm_msg", {"comm_id": comm_id, "data": data})


def language_toggle(states: dict[str, dict[str, Any]]) -> str:
    """The comm id of the page's English/Spanish toggle (re-rendering the view at each pick)."""
    for comm_id, state in states.items():
        if state.get("_model_name") == "ToggleButtonsModel" and "Español" in state.get(
            "_options_labels", ()
        ):
            return comm_id
    raise AssertionError("no language toggle among the widgets")


def kernels_and_mib(pid: int) -> tuple[int, float]:
    """How many kernels the server of process ``pid`` runs, and the resident memory of the
    server and all its children, in MiB."""
    root = psutil.Process(pid)
    processes = [root, *root.children(recursive=True)]
    total = 0
    kernels = 0
    for process in processes:
        try:
            total += process.memory_info().rss
            kernels += "ipykernel_launcher" in " ".join(process.cmdline())
        except psutil.NoSuchProcess:
            continue
    return kernels, total / 2**20


# --- a bare Voila with a kernel policy (the culling and cap tests) ------------------------

DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def load(url: str, **headers: str) -> tuple[int, str]:
    """GET ``url`` past any proxy: the status and the page (an HTTP error's too)."""
    request = urllib.request.Request(url, headers=headers)
    try:
        with DIRECT.open(request, timeout=180) as response:
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


class Voila:
    """The players' notebook served by a bare ``voila_command`` with a kernel policy, on the
    demo campaign's chapel fight; ready once its kernel pool is filled."""

    def __init__(self, tmp_path: Path, policy: Any, access: Any = None) -> None:
        from gmkit._launch import access_url, voila_command
        from gmkit._serving.guard import SERVING_VARIABLE, Access
        from gmkit.campaign import demo_campaign_file

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        command = voila_command(
            NOTEBOOKS / "players.ipynb", port, open_browser=False, kernels=policy
        )
        env = {**os.environ, "GMKIT_CAMPAIGN": str(demo_campaign_file(tmp_path / "campaign"))}
        env["GMKIT_ENCOUNTER"] = "The Chapel of the Pale Throne"
        if access is not None:
            env[SERVING_VARIABLE] = access.to_json()
        self.url = access_url(f"http://127.0.0.1:{port}", access or Access())
        self.log = tmp_path / "voila.log"
        with self.log.open("w") as handle:
            self.process = subprocess.Popen(
                command, stdout=handle, stderr=subprocess.STDOUT, cwd=tmp_path, env=env,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 120
        while "is filled with" not in self.output():
            assert self.process.poll() is None, self.output()
            assert time.monotonic() < deadline, self.output()
            time.sleep(0.2)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def kernels(self) -> int:
        return kernels_and_mib(self.process.pid)[0]

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def wait_for_kernels(server: Voila, most: int, timeout: float) -> float:
    """Wait until ``server`` runs ``most`` kernels or fewer; the seconds it took."""
    start = time.monotonic()
    while server.kernels() > most:
        assert time.monotonic() - start < timeout, server.output()
        time.sleep(0.5)
    return time.monotonic() - start
