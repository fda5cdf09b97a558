"""Kernels that do not pile up: culling and a cap, for gmkit's Voila servers.

Every page load starts a kernel (~115 MB) that Voila keeps until the server stops. The
:class:`BoundedKernelManager` (Voila's ``multi_kernel_manager_class``; Voila's pool of
preheated kernels is built on it) reclaims them:

- a kernel no page has been connected to for ``unconnected_timeout`` seconds (a page closed,
  a phone that went to sleep, a ``curl`` that never runs the page's script) is shut down;
- a connected kernel idle for ``cull_idle_timeout`` seconds too (Jupyter's own culling,
  ``cull_connected`` on): nothing happened at the table for that long;
- a kernel's start that fails is tried again (the kernels talk over IPC sockets, the
  launcher's option, so no port is raced for: a start once failed with "Address already in
  use" and hung the server);
- at most ``max_kernels`` kernels serve pages (the preheated pool aside): when a new page
  finds them all taken, the one unconnected longest (for at least ``eviction_grace`` seconds,
  time for a page's script to connect, and idle: not starting, not still running the notebook
  for its page) is shut down to make room; when none is, the page is refused (the caller
  shows "the table is full").

Connections are sampled (at each cull, each page asked for); a kernel's unconnected time
counts from the first sample that found it unconnected out of the pool. The kernels are read
through the manager's public API (``list_kernel_ids``, ``in``, ``get_kernel``); which of them
wait in Voila's pool only Voila's private ``_pools`` says (``gmkit._platform``).
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Float, Integer, List, Unicode

from gmkit._platform import preheated_kernel_ids
from gmkit._serving.watchdog import fault

COMM_LIMIT_EXTENSION = "gmkit._serving.comm_limit"
START_ATTEMPTS = 3
"""How many times a kernel's start is tried before the failure is the caller's."""


class BoundedKernelManager(AsyncMappingKernelManager):
    """Jupyter's kernel manager, culling unconnected kernels and capping how many serve."""

    unconnected_timeout = Float(
        600.0,
        config=True,
        help="Seconds a kernel may stay without a connected page before it is shut down.",
    )
    max_kernels = Integer(
        0, config=True, help="At most this many kernels serve pages (0: no cap); the pool aside."
    )
    eviction_grace = Float(
        30.0,
        config=True,
        help="A kernel unconnected this many seconds may be shut down to make room at the cap.",
    )
    kernel_extensions = List(
        Unicode(),
        [COMM_LIMIT_EXTENSION],
        config=True,
        help="IPython extensions every kernel loads at start (the comm rate limit).",
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._unconnected_since: dict[str, float] = {}
        self._pages: dict[str, int] = {}  # connected pages per kernel, counted here
        self._pooled_before: set[str] = set()  # the pool at the last sample
        self._failing_starts = int(fault("kernel-start") or 0)

    # jupyter_server counts connections only for kernels its own start_kernel registered, and
    # Voila's preheated kernels may never be: a connected page would then look unconnected and
    # be culled. gmkit counts every connection itself (notify_connect is also the only place
    # jupyter_server's own count grows, so gmkit's is never below it).
    def notify_connect(self, kernel_id: str) -> None:
        self._pages[kernel_id] = self._pages.get(kernel_id, 0) + 1
        super().notify_connect(kernel_id)

    def notify_disconnect(self, kernel_id: str) -> None:
        self._pages[kernel_id] = max(0, self._pages.get(kernel_id, 0) - 1)
        super().notify_disconnect(kernel_id)

    def connected_pages(self, kernel_id: str) -> int:
        """How many pages are connected to ``kernel_id`` now."""
        return self._pages.get(kernel_id, 0)

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        """A kernel started, its start tried again (:data:`START_ATTEMPTS` in all) when it
        fails: a failed start is said in one line and never left for the pool to wait on."""
        extra = list(kwargs.pop("extra_arguments", None) or [])
        extra += [f"--IPKernelApp.extensions={name}" for name in self.kernel_extensions]
        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                if self._failing_starts > 0:  # a test's fault (gmkit._serving.watchdog)
                    self._failing_starts -= 1
                    raise RuntimeError("the kernel start failed (an injected fault)")
                return str(await super().start_kernel(*args, extra_arguments=extra, **kwargs))
            except Exception as error:
                if attempt == START_ATTEMPTS:
                    raise
                self.log.warning(
                    "gmkit: a kernel failed to start (%s: %s); trying again (%d of %d)",
                    type(error).__name__,
                    " ".join(str(error).split())[:200],
                    attempt + 1,
                    START_ATTEMPTS,
                )
                await asyncio.sleep(0.5 * attempt)
        raise AssertionError("unreachable")  # the loop returns or raises

    async def shutdown_kernel(  # type: ignore[override]
        self, kernel_id: str, *args: Any, **kwargs: Any
    ) -> None:
        from gmkit._serving.websocket import LimitedConnection

        LimitedConnection.budgets.pop(kernel_id, None)
        await super().shutdown_kernel(kernel_id, *args, **kwargs)

    # --- connections, sampled ---------------------------------------------------------------

    def sample_connections(self) -> None:
        """Note which kernels have no page connected, and since when (a kernel in the pool
        waits for its page: its time starts when a page takes it)."""
        now = time.monotonic()
        pooled = self.pooled_kernel_ids()
        for taken in self._pooled_before - pooled:  # a page took it: its idle time starts now
            if taken in self:  # not the hours it waited in the pool
                kernel: Any = self.get_kernel(taken)  # last_activity: jupyter_server's, set on it
                kernel.last_activity = datetime.now(UTC)
        self._pooled_before = pooled
        running = self.list_kernel_ids()
        for kernel_id in running:
            if kernel_id in pooled or self.connected_pages(kernel_id) > 0:
                self._unconnected_since.pop(kernel_id, None)
            else:
                self._unconnected_since.setdefault(kernel_id, now)
        for gone in set(self._unconnected_since) - set(running):
            del self._unconnected_since[gone]
        for gone in set(self._pages) - set(running):
            del self._pages[gone]

    def unconnected_for(self, kernel_id: str) -> float | None:
        """Seconds ``kernel_id`` has had no page connected (None: connected now)."""
        since = self._unconnected_since.get(kernel_id)
        return None if since is None else time.monotonic() - since

    def kernel_state(self, kernel_id: str) -> str:
        """The kernel's state: starting, busy (running the notebook for its page) or idle."""
        if kernel_id not in self:
            return ""
        return str(getattr(self.get_kernel(kernel_id), "execution_state", ""))

    def pooled_kernel_ids(self) -> set[str]:
        """The preheated kernels waiting for a page (Voila's pool), never culled or evicted."""
        return preheated_kernel_ids(self)

    def serving_kernel_ids(self) -> list[str]:
        """The kernels that serve (or served) a page: every kernel but the pool's."""
        pooled = self.pooled_kernel_ids()
        return [kernel_id for kernel_id in self.list_kernel_ids() if kernel_id not in pooled]

    # --- culling ----------------------------------------------------------------------------

    async def cull_kernels(self) -> None:
        self.sample_connections()
        await super().cull_kernels()

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Shut a kernel down when no page has been connected to it for
        ``unconnected_timeout`` seconds; else Jupyter's idle culling."""
        unconnected = self.unconnected_for(kernel_id)
        if unconnected is not None and unconnected > self.unconnected_timeout:
            self.log.info(
                "gmkit: shutting down kernel %s, without a page for %d s", kernel_id, unconnected
            )
            await self.shutdown_kernel(kernel_id)
            return
        await super().cull_kernel_if_idle(kernel_id)

    # --- the cap ----------------------------------------------------------------------------

    async def make_room(self) -> bool:
        """Whether a new page may have a kernel: under the cap, or once the kernel unconnected
        longest (past the grace) is shut down; False when every serving kernel is in use."""
        if self.max_kernels <= 0:
            return True
        self.sample_connections()
        serving = self.serving_kernel_ids()
        if len(serving) < self.max_kernels:
            return True
        idle = [
            (unconnected, kernel_id)
            for kernel_id in serving
            if (unconnected := self.unconnected_for(kernel_id)) is not None
            and unconnected >= self.eviction_grace
            and self.kernel_state(kernel_id) == "idle"  # not starting, not rendering a page
        ]
        excess = len(serving) - self.max_kernels + 1
        if len(idle) < excess:
            return False
        for unconnected, kernel_id in sorted(idle, reverse=True)[:excess]:
            self.log.info(
                "gmkit: %d kernels serve pages (the most); shutting down %s, without a page "
                "for %d s",
                len(serving),
                kernel_id,
                unconnected,
            )
            await self.shutdown_kernel(kernel_id)
        return True
