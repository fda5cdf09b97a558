"""A rate limit on the widget messages a page sends its kernel, at the server.

The kernel-side limit (gmkit._serving.comm_limit) spares the widgets' handlers, but each
message still costs the kernel a dispatch (two status messages, a flush): 2,000 of them held
a players' kernel 7 s. :class:`LimitedConnection` (Voila's
``kernel_websocket_connection_class``) stops them before they reach the kernel: per kernel,
``rate`` ``comm_msg`` a second (``burst`` at once) pass; beyond that, a state ``update`` is
kept (the latest per widget, since the last click) and a click in its turn (up to
:data:`~gmkit._serving.comm_limit.QUEUED`), sent on once the budget allows; more clicks than
that are dropped. Other messages (comm opens, kernel and comm info requests: a page sends a
few at its start) have a budget of their own (``other_rate``, ``other_burst``): 3,000 info
requests deafened a kernel for 8 s. A message larger than ``message_bytes`` is dropped (300
widgets of 1 MB opened by one page grew its kernel to 517 MiB and the server to 692 MiB).
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from jupyter_server.services.kernels.connection.base import (
    deserialize_binary_message,
    deserialize_msg_from_ws_v1,
)
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from tornado.ioloop import IOLoop
from traitlets import Float, Integer

from gmkit._serving.comm_limit import Kept, TokenBucket

V1 = "v1.kernel.websocket.jupyter.org"


class KernelBudget:
    """One kernel's budget: the bucket, the kept updates (by comm id), what was dropped."""

    def __init__(self, rate: float, burst: float, other_rate: float, other_burst: float) -> None:
        self.bucket = TokenBucket(rate, burst)
        self.others = TokenBucket(other_rate, other_burst)  # comm opens, info requests...
        self.kept: Kept[tuple[LimitedConnection, Any]] = Kept()
        self.dropped = 0
        self.scheduled = False


class LimitedConnection(ZMQChannelsWebsocketConnection):
    """Jupyter's websocket-to-kernel connection, its ``comm_msg`` rate-limited per kernel."""

    comm_rate = Float(20.0, config=True, help="comm messages a second a kernel is sent")
    comm_burst = Float(60.0, config=True, help="comm messages a kernel is sent at once")
    other_rate = Float(
        5.0, config=True, help="other messages (comm opens, info requests) a second per kernel"
    )
    other_burst = Float(40.0, config=True, help="other messages a kernel is sent at once")
    message_bytes = Integer(
        8 * 1024 * 1024, config=True, help="the largest message a page may send (bytes)"
    )

    budgets: ClassVar[dict[str, KernelBudget]] = {}

    def budget(self) -> KernelBudget:
        found = self.budgets.get(self.kernel_id)
        if found is None:
            rates = (self.comm_rate, self.comm_burst, self.other_rate, self.other_burst)
            found = self.budgets[self.kernel_id] = KernelBudget(*rates)
        return found

    def handle_incoming_message(self, incoming_msg: Any) -> None:
        budget = self.budget()
        if len(incoming_msg) > self.message_bytes:  # a page's widgets never send this much
            self._drop(budget, "too large")
            return
        kind, comm_id = self._peek(incoming_msg)
        if kind != "comm_msg":  # comm opens, info requests: a page sends a few at its start
            if budget.others.take():
                super().handle_incoming_message(incoming_msg)
            else:
                self._drop(budget, f"{kind or 'unreadable'} over the rate limit")
            return
        self._send_kept(budget)
        if not budget.kept and budget.bucket.take():
            super().handle_incoming_message(incoming_msg)
            return
        if comm_id is not None:  # a state update: the latest one per widget goes later
            budget.kept.update(comm_id, lambda _earlier: (self, incoming_msg))
        elif not budget.kept.click((self, incoming_msg)):  # a click: in its turn
            self._drop(budget, "a click over the rate limit")
        self._schedule(budget)

    def _drop(self, budget: KernelBudget, why: str) -> None:
        budget.dropped += 1
        if budget.dropped % 500 == 1:
            self.log.warning(
                "gmkit: kernel %s: %d messages of its pages dropped (the last %s)",
                self.kernel_id,
                budget.dropped,
                why,
            )

    def _send_kept(self, budget: KernelBudget) -> None:
        while budget.kept and budget.bucket.take():
            connection, message = budget.kept.pop()
            if connection.channels:  # its page still connected
                ZMQChannelsWebsocketConnection.handle_incoming_message(connection, message)

    def _schedule(self, budget: KernelBudget) -> None:
        if budget.scheduled or not budget.kept:
            return
        budget.scheduled = True

        def later() -> None:
            budget.scheduled = False
            self._send_kept(budget)
            self._schedule(budget)

        IOLoop.current().call_later(budget.bucket.wait(), later)

    def _peek(self, incoming_msg: Any) -> tuple[str, str | None]:
        """The message's type, and its comm id when it is a comm's state ``update``."""
        try:
            if self.subprotocol == V1:
                _channel, parts = deserialize_msg_from_ws_v1(incoming_msg)
                header, content = json.loads(parts[0]), json.loads(parts[3])
            else:
                if isinstance(incoming_msg, bytes):
                    message = deserialize_binary_message(incoming_msg)
                else:
                    message = json.loads(incoming_msg)
                header, content = message.get("header") or {}, message.get("content") or {}
            kind = str(header.get("msg_type", ""))
            data = content.get("data") if isinstance(content, dict) else None
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            return "", None  # Jupyter's own handling says what is wrong with it
        if kind == "comm_msg" and isinstance(data, dict) and data.get("method") == "update":
            return kind, str(content.get("comm_id"))
        return kind, None
