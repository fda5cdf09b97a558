"""What the GM does not look at first, done once what they look at has gone to the page.

A click on Next changes the tracker's header (what the GM looks at) and, after it, the attack
panel, the turn panel and the combat log (~10 ms of the kernel's time). In a kernel, a
:class:`Deferral` holds those panels' updates until the messages sent so far (the tracker's)
have left the kernel (its IOPub thread has sent them), then runs them on the kernel's event
loop, in the order they were asked for: the header reaches the page without the panels' work
competing for the cores, and the panels' messages follow. Meanwhile the kernel stays busy for
the click (a busy status when work is held, idle once it is done), so whoever waits for the
kernel's idle (a page, a test) sees every update. Outside a kernel (tests, a script), and off
the kernel's main thread (JupyterLab's subshells), the work runs at once, as if there were no
deferral. :meth:`Deferral.flush` runs what waits at once
(before a command that reads the panels' state).

:func:`deferring` makes what panels subscribe to an encounter while it is open run deferred.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from gmkit.encounter import Encounter

__all__ = ["Deferral", "deferring", "running_kernel"]

T = TypeVar("T")


def running_kernel() -> Any | None:
    """The IPython kernel this code runs in (its event loop and IOPub thread), or None."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    kernel = getattr(get_ipython(), "kernel", None)
    needed = ("io_loop", "iopub_thread", "get_parent", "_publish_status")
    if kernel is None or not all(getattr(kernel, name, None) is not None for name in needed):
        return None
    return kernel


def _on_main_thread() -> bool:
    """Whether this runs on the kernel's main thread, whose event loop the deferred work
    joins. JupyterLab 4.4+ sends widget messages to ipykernel 7 on a subshell thread; work
    deferred from there would run on the main loop beside the subshell's next message."""
    return threading.current_thread() is threading.main_thread()


class Deferral:
    """Work held until what was sent has gone (see the module docstring)."""

    def __init__(self, kernel: Any | None = None) -> None:
        self._kernel = kernel
        self._queue: list[Callable[[], None]] = []
        self._parent: dict[str, Any] | None = None  # the request the held work answers
        self._flushing = False
        self.closed = False

    @classmethod
    def here(cls) -> Deferral:
        """A deferral in the running kernel (one that runs work at once outside a kernel)."""
        return cls(running_kernel())

    @property
    def pending(self) -> int:
        """How many pieces of work wait."""
        return len(self._queue)

    def wrap(self, listener: Callable[[T], None]) -> Callable[[T], None]:
        """``listener``, deferred: each call is held and made later, with the same argument."""

        def later(subject: T) -> None:
            self.defer(lambda: listener(subject))

        return later

    def defer(self, work: Callable[[], None]) -> None:
        """Run ``work`` once the messages sent so far have gone (at once outside a kernel)."""
        kernel = self._kernel
        if kernel is None or self.closed or not _on_main_thread():
            work()  # off the main thread (a subshell's widget message): its loop is not ours
            return
        first = not self._queue and not self._flushing
        self._queue.append(work)
        if first:
            self._parent = kernel.get_parent("shell")
            kernel._publish_status("busy", "shell", self._parent)
            loop = kernel.io_loop
            # the IOPub thread sends in order: when this runs, what was sent before has gone
            kernel.iopub_thread.schedule(lambda: loop.add_callback(self.flush))

    def flush(self) -> None:
        """Run every piece of work waiting, in order, now."""
        if self._flushing or not self._queue:
            return
        self._flushing = True
        try:
            while self._queue:
                self._queue.pop(0)()
        finally:
            self._queue.clear()
            self._flushing = False
            if self._kernel is not None:
                self._kernel._publish_status("idle", "shell", self._parent)

    def close(self) -> None:
        """Run what waits, and from now on run work at once."""
        self.flush()
        self.closed = True


@contextmanager
def deferring(encounter: Encounter, deferral: Deferral) -> Iterator[None]:
    """While the block runs, the listeners subscribed to ``encounter`` run deferred by
    ``deferral`` (each unsubscribes as usual)."""
    subscribe = encounter.subscribe

    def deferred(listener: Callable[[Encounter], None]) -> Callable[[], None]:
        return subscribe(deferral.wrap(listener))

    setattr(encounter, "subscribe", deferred)  # noqa: B010 - this encounter only, this block
    try:
        yield
    finally:
        delattr(encounter, "subscribe")
