"""A server whose event loop stops is restarted, never left hanging.

Seen once in about 290 kernel starts under a page flood: a kernel start failed, Voila's
preheat then waited for that kernel in a synchronous send, and the server's event loop never
ran again: no page, no static file, no player's socket served, no culling (12 kernels, 1.5 GiB,
37 minutes on), and SIGTERM ignored. The kernels now talk over IPC sockets (no port to race
for) and a failed start is retried (:mod:`gmkit._serving.kernels`); this is the net under both:

- :class:`Watchdog`: the loop beats once a second; a thread of its own checks the beat, and
  when the loop has not run for ``stall`` seconds it says so in one line, kills the server's
  kernels and ends the process with :data:`RESTART_STATUS`;
- ``gmkit table`` / ``gmkit players`` (:func:`gmkit._launch.serve`) start the server again on
  the same port with the same key and path: the GM's link and each seat's link still work
  (a page open at the time reloads to get a kernel; a seat lives in the seats file, so the
  player is back in their seat). A SIGTERM to gmkit stops a server that does not stop within
  seconds by killing it.

:data:`FAULT_VARIABLE` injects the faults the tests need to show it (``block-loop:SECONDS``:
a request of ``.../gmkit-fault/block`` blocks the loop that long, as the hang blocked it;
``kernel-start:N``: the first N kernel starts fail). Unset, nothing is injected, and the
supervisor injects nothing into a server it starts again.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

RESTART_STATUS = 75  # EX_TEMPFAIL: "try again"
"""The exit status of a server the watchdog ended: its supervisor starts it again."""

STALL_SECONDS = 30.0
"""How long the event loop may not run before the server is restarted (the environment
variable ``GMKIT_WATCHDOG_SECONDS`` changes it)."""
STALL_VARIABLE = "GMKIT_WATCHDOG_SECONDS"

FAULT_VARIABLE = "GMKIT_FAULT"


def fault(name: str) -> str:
    """The value of the injected fault ``name`` (``"name:value"`` in
    :data:`FAULT_VARIABLE`, comma separated), or ""."""
    for part in os.environ.get(FAULT_VARIABLE, "").split(","):
        key, _, value = part.partition(":")
        if key.strip() == name:
            return value.strip() or "1"
    return ""


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux's /proc; elsewhere none are found)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError, ValueError):
            found += [int(part) for part in task.read_text().split()]
    return found


class Watchdog:
    """Restart the process when its event loop has not run for ``stall`` seconds."""

    def __init__(self, stall: float | None = None) -> None:
        given = os.environ.get(STALL_VARIABLE, "")
        self.stall = stall if stall is not None else float(given or STALL_SECONDS)
        self.last = time.monotonic()
        self._thread = threading.Thread(target=self._watch, name="gmkit-watchdog", daemon=True)

    def start(self) -> None:
        """Beat on the current tornado IOLoop and watch from a thread."""
        from tornado.ioloop import PeriodicCallback

        PeriodicCallback(self.beat, 1000).start()
        self._thread.start()

    def beat(self) -> None:
        self.last = time.monotonic()

    def _watch(self) -> None:
        while True:
            time.sleep(1)
            stalled = time.monotonic() - self.last
            if stalled > self.stall:
                self.restart(stalled)
                return

    def restart(self, stalled: float) -> None:
        """Kill this server's kernels and end it with :data:`RESTART_STATUS`."""
        said = f"gmkit: the server's event loop has not run for {stalled:.0f} s: restarting it\n"
        with contextlib.suppress(OSError):
            sys.stderr.write(said)
            sys.stderr.flush()
        for child in children(os.getpid()):
            with contextlib.suppress(OSError):
                os.killpg(child, signal.SIGKILL)  # a kernel leads a process group of its own
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGKILL)
        os._exit(RESTART_STATUS)


def block_handler() -> type[Any]:
    """The handler of ``.../gmkit-fault/block`` (served only under the ``block-loop`` fault):
    it blocks the event loop for the fault's seconds, as a synchronous send once did."""
    import tornado.web

    class Block(tornado.web.RequestHandler):
        def get(self) -> None:
            time.sleep(float(fault("block-loop")))

    return Block
