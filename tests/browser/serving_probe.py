"""A client of a kernel's websocket, as a hostile page would speak to it (the tests of issue 13):
Jupyter's JSON messages over ``/api/kernels/ID/channels``, widget states read through
ipywidgets' control comm, comm messages sent in bulk."""

from __future__ import annotations

import json
import re
import time
import uuid
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
