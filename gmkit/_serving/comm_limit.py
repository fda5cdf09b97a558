"""A rate limit on the widget messages a kernel handles (an IPython extension).

gmkit's kernel manager loads it into every kernel its servers start
(``--IPKernelApp.extensions=gmkit._serving.comm_limit``). It wraps the kernel's ``comm_msg``
handler with a token bucket: ``rate`` messages a second, ``burst`` at once (the environment
variable ``GMKIT_COMM_LIMIT``, ``"RATE,BURST"``; the server sets it per app). A message
beyond the budget costs the kernel almost nothing:

- a state ``update`` (a widget's value changed in the page) is kept, merged with the later
  updates of the same widget (up to the next click: a click sees the state typed before it),
  and applied once the budget allows (the widget ends in the page's last state, however many
  updates came);
- anything else (a click, a custom message) is kept in its turn too, up to :data:`QUEUED`
  of them; beyond that it is dropped and the count is logged once a second. A page's click
  that comes while one of its updates waits is never dropped for it (it was, before).

So a flood of 2,000 messages no longer holds the kernel for seconds, and no page's own use
(a click, a typed value) comes near the budget.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from gmkit._rate import TokenBucket

LIMIT_VARIABLE = "GMKIT_COMM_LIMIT"
MEMORY_VARIABLE = "GMKIT_KERNEL_MEMORY"
"""The data memory (MiB) a kernel may map (RLIMIT_DATA); unset: not capped."""
OPEN_RATE, OPEN_BURST = 2.0, 20.0
"""Widgets a page may open in a kernel: a page opens one or two (the widgets' control)."""
DEFAULT_RATE, DEFAULT_BURST = 30.0, 90.0
QUEUED = 30
"""The most clicks (messages other than state updates) kept waiting for the budget."""
log = logging.getLogger("gmkit._serving.comm_limit")

Handler = Callable[[Any, Any, dict[str, Any]], Any]


def limit_from_environment() -> tuple[float, float]:
    text = os.environ.get(LIMIT_VARIABLE, "")
    if not text:
        return DEFAULT_RATE, DEFAULT_BURST
    rate, _, burst = text.partition(",")
    return float(rate), float(burst or rate)


Item = TypeVar("Item")


class Kept(Generic[Item]):
    """The messages a budget keeps for later, in the order they go: a widget's state updates
    merged into one per widget up to the next click (a click sees the values typed before
    it), the clicks in their turn, at most :data:`QUEUED` of them waiting. Shared by the
    kernel's limit and the server's (gmkit._serving.websocket)."""

    def __init__(self) -> None:
        # ("update", comm id, clicks before it) or ("click", "", its number), in order
        self.items: dict[tuple[str, str, int], Item] = {}
        self.clicks = 0  # clicks kept so far (each a new turn for the updates after it)
        self.waiting = 0  # clicks kept now

    def __bool__(self) -> bool:
        return bool(self.items)

    def update(self, comm_id: str, merged: Callable[[Item | None], Item]) -> None:
        """Keep a state update of ``comm_id``: ``merged`` of the one kept since the last
        click (None: none), last in the order."""
        key = ("update", comm_id, self.clicks)
        self.items[key] = merged(self.items.pop(key, None))

    def click(self, item: Item) -> bool:
        """Keep a click in its turn; False (not kept) when :data:`QUEUED` wait already."""
        if self.waiting >= QUEUED:
            return False
        self.clicks += 1
        self.waiting += 1
        self.items[("click", "", self.clicks)] = item
        return True

    def pop(self) -> Item:
        """The first message kept, taken out."""
        key = next(iter(self.items))
        if key[0] == "click":
            self.waiting -= 1
        return self.items.pop(key)


class CommLimiter:
    """The ``comm_msg`` handler behind a token bucket (see the module's text)."""

    def __init__(self, handler: Handler, bucket: TokenBucket) -> None:
        self.handler, self.bucket = handler, bucket
        self.dropped = 0
        self.deferred: Kept[tuple[Any, Any, dict[str, Any]]] = Kept()
        self._told = 0.0
        self._flushing = False
        self._tasks: set[asyncio.Future[Any]] = set()  # a coroutine handler's runs, kept

    def __call__(self, stream: Any, ident: Any, msg: dict[str, Any]) -> Any:
        if self.deferred:  # what came earlier first, as far as the budget goes
            self._flush()
        if not self.deferred and self.bucket.take():
            return self.handler(stream, ident, msg)
        if not self._defer(stream, ident, msg):
            self.dropped += 1
            self._tell()
        self._schedule()
        return None

    def _defer(self, stream: Any, ident: Any, msg: dict[str, Any]) -> bool:
        """Keep a message for later: a state update merged with the same widget's kept one
        (since the last click), a click in its turn while fewer than :data:`QUEUED` wait."""
        content = msg.get("content") or {}
        data = content.get("data") or {}
        if data.get("method") != "update" or not isinstance(data.get("state"), dict):
            return self.deferred.click((stream, ident, msg))

        def merged(kept: tuple[Any, Any, dict[str, Any]] | None) -> tuple[Any, Any, Any]:
            if kept is None or msg.get("buffers") or kept[2].get("buffers"):
                return (stream, ident, msg)
            state = {**kept[2]["content"]["data"]["state"], **data["state"]}
            return (
                stream,
                ident,
                {**msg, "content": {**content, "data": {**data, "state": state}}},
            )

        self.deferred.update(str(content.get("comm_id")), merged)
        return True

    def _schedule(self) -> None:
        if self._flushing or not self.deferred:
            return
        self._flushing = True
        try:
            asyncio.get_running_loop().call_later(self.bucket.wait(), self._timer)
        except RuntimeError:  # no loop running (a test calling it bare)
            self._flushing = False

    def _timer(self) -> None:
        self._flushing = False
        self._flush()

    def _flush(self) -> None:
        while self.deferred and self.bucket.take():
            result = self.handler(*self.deferred.pop())
            if inspect.isawaitable(result):
                task = asyncio.ensure_future(result)
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        self._schedule()

    def _tell(self) -> None:
        now = time.monotonic()
        if now - self._told >= 1:
            self._told = now
            log.warning("gmkit: %d widget messages over the rate limit dropped", self.dropped)


Limiter = TypeVar("Limiter", "CommLimiter", "OpenLimiter")


def _wrap(kernel: Any, message: str, kind: type[Limiter], bucket: TokenBucket) -> Limiter:
    """Put ``kernel``'s ``message`` handler behind a ``kind`` limiter (once)."""
    current = kernel.shell_handlers[message]
    if isinstance(current, kind):
        return current
    limiter = kind(current, bucket)
    kernel.shell_handlers[message] = limiter
    return limiter


def install(kernel: Any, rate: float, burst: float) -> CommLimiter:
    """Wrap ``kernel``'s ``comm_msg`` handler (once); returns the limiter."""
    return _wrap(kernel, "comm_msg", CommLimiter, TokenBucket(rate, burst))


class OpenLimiter:
    """The ``comm_open`` handler behind a token bucket: opens beyond it are dropped (a page
    opening 300 widgets of 1 MB grew its kernel to 517 MiB and deafened it for 25 s)."""

    def __init__(self, handler: Handler, bucket: TokenBucket) -> None:
        self.handler, self.bucket = handler, bucket
        self.dropped = 0

    def __call__(self, stream: Any, ident: Any, msg: dict[str, Any]) -> Any:
        if self.bucket.take():
            return self.handler(stream, ident, msg)
        self.dropped += 1
        if self.dropped % 100 == 1:
            log.warning("gmkit: %d widget openings over the rate limit dropped", self.dropped)
        return None


def install_open_limit(kernel: Any) -> OpenLimiter:
    """Wrap ``kernel``'s ``comm_open`` handler (once)."""
    return _wrap(kernel, "comm_open", OpenLimiter, TokenBucket(OPEN_RATE, OPEN_BURST))


def cap_memory() -> int | None:
    """Cap this process's data memory at ``GMKIT_KERNEL_MEMORY`` MiB (never raising a lower
    cap); the cap set, in bytes, or None."""
    text = os.environ.get(MEMORY_VARIABLE, "")
    if not text:
        return None
    import resource  # Unix only: the servers' kernels run there

    wanted = int(text) * 1024 * 1024
    _soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    cap = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (cap, hard))
    return cap


def load_ipython_extension(ipython: Any) -> None:
    cap_memory()  # a players' kernel: a flood raises MemoryError in it, not the machine's OOM
    kernel = getattr(ipython, "kernel", None)
    if kernel is not None:
        install(kernel, *limit_from_environment())
        install_open_limit(kernel)
