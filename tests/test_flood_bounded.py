"""Every kind of message a page can send is bounded (issue 27, item 2). The attacks the issue
measured, against a real ``gmkit players`` server and its kernels: one page opening 300
widgets of 1 MB (before: its kernel 128 -> 517 MiB and deaf for 24.9 s, the server 140 -> 692
MiB), 300 small widget openings, and 3,000 ``kernel_info``/``comm_info`` requests (before:
the kernel deaf for 7.9 s). Now: a frame over 64 KiB closes its socket unread, openings and
info requests beyond a page's start are dropped, and the players' kernels map at most 768 MiB
of data. The figures are printed; the test asserts the memory stays within its bound, the
widgets opened stay few, the kernel answers and another player's page loads."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
import uuid

import psutil
import pytest
from serving_probe import KernelClient, channels_url, kernel_id_of
from websockets.exceptions import ConnectionClosed

pytestmark = pytest.mark.server
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
MIB = 2**20
GROWTH = 100  # MiB: what the flood may add to the server, or to the attacked kernel


def load(url: str) -> tuple[int, str, float]:
    start = time.monotonic()
    try:
        with DIRECT.open(url, timeout=180) as response:
            return (
                response.status,
                response.read().decode(errors="replace"),
                0.0 + (time.monotonic() - start),
            )
    except urllib.error.HTTPError as error:
        return error.code, "", time.monotonic() - start


def memory(pid: int) -> tuple[float, dict[str, float]]:
    """The server's own resident memory (gmkit and Voila, kernels aside), and each kernel's
    by its id, in MiB."""
    root = psutil.Process(pid)
    server = 0.0
    kernels: dict[str, float] = {}
    for process in [root, *root.children(recursive=True)]:
        try:
            line = " ".join(process.cmdline())
            rss = process.memory_info().rss / MIB
        except psutil.NoSuchProcess:
            continue
        if "ipykernel_launcher" in line:
            kernels[line.rpartition("kernel-")[2].partition(".json")[0]] = rss
        else:
            server += rss
    return server, kernels


def comm_open(comm_id: str, payload: str) -> str:
    header = {"msg_id": uuid.uuid4().hex, "msg_type": "comm_open", "session": "x"}
    header |= {"username": "", "version": "5.3", "date": "2026-12-01T00:00:00Z"}
    content = {"comm_id": comm_id, "target_name": "jupyter.widget", "data": {"x": payload}}
    message = {"header": header, "parent_header": {}, "metadata": {}, "content": content}
    return json.dumps({**message, "channel": "shell", "buffers": []})


def test_a_page_flooding_opens_and_info_requests_leaves_memory_bounded_and_others_served(
    players_server,
):
    server, _ = players_server
    status, page, _ = load(server.url)
    assert status == 200
    kernel = kernel_id_of(page)
    url = channels_url(server.url, kernel)
    server_before, kernels = memory(server.process.pid)
    kernel_before = kernels[kernel]
    closed = 0
    megabyte = "x" * MIB
    for _ in range(300):  # 300 widgets of 1 MB, each on a socket of its own
        with KernelClient(url) as client:
            try:
                client.socket.send(comm_open(uuid.uuid4().hex, megabyte))
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:  # the kernel's news to every socket, then
                    client.socket.recv(timeout=30)  # the server's close
            except ConnectionClosed:
                closed += 1
    with KernelClient(url) as client:
        for _ in range(300):  # 300 small ones on one socket
            client.socket.send(comm_open(uuid.uuid4().hex, "x" * 1000))
        for index in range(3000):
            kind = "kernel_info_request" if index % 2 else "comm_info_request"
            client.send(kind, {})
        start = time.monotonic()
        while True:  # the kernel answers once the info budget is back (5 a second)
            try:
                client.wait(client.send("kernel_info_request", {}), "kernel_info_reply", 2)
                break
            except (AssertionError, TimeoutError):
                assert time.monotonic() - start < 120
        answered = time.monotonic() - start
        asked = client.send("comm_info_request", {})
        comms = client.wait(asked, "comm_info_reply")["content"]["comms"]
    other_status, _, other_seconds = load(server.url)  # another player opens the page
    server_after, kernels = memory(server.process.pid)
    kernel_after = kernels[kernel]
    print(
        f"\nflood: 300 x 1 MB openings ({closed} sockets closed unread), 300 small openings,"
        f" 3,000 info requests; the server {server_before:.0f} -> {server_after:.0f} MiB,"
        f" the kernel {kernel_before:.0f} -> {kernel_after:.0f} MiB, {len(comms)} comms in it;"
        f" it answered in {answered:.2f} s; another player's page {other_seconds:.2f} s"
    )
    assert closed == 300
    assert server_after - server_before < GROWTH
    assert kernel_after - kernel_before < GROWTH
    assert len(comms) < 80  # the page's own widgets and the few openings the budget let by
    assert other_status == 200
    capped = {
        child.rlimit(psutil.RLIMIT_DATA)[0]
        for child in psutil.Process(server.process.pid).children(recursive=True)
        if "ipykernel_launcher" in " ".join(child.cmdline())
    }
    assert capped == {768 * MIB}  # every players' kernel maps at most 768 MiB of data
