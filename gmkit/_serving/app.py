"""Voila as gmkit serves it: every handler behind the guard, the page behind the kernel cap.

``python -m gmkit._launch NOTEBOOK ARGS`` runs :func:`main` (see gmkit._launch.voila_command).
The page handler (the notebook) also waits for one of :data:`PAGE_SLOTS` slots: pages are
rendered two at a time, so the kernel count the cap reads is never far behind the pages
being served; a page that finds every kernel in use gets the "table is full" page (503).
"""

from __future__ import annotations

import asyncio
from typing import Any

import tornado.web

from gmkit._serving import one_line
from gmkit._serving.guard import Access, Guard, guarded, refuse
from gmkit._serving.watchdog import Watchdog, block_handler, fault
from gmkit.messages import Message

PAGE_SLOTS = 2


class PageMixin:
    """Before the notebook's page: a slot, then room among the kernels, or the full page."""

    gmkit_slots: asyncio.Semaphore | None = None

    async def get(self, *args: Any, **kwargs: Any) -> None:
        handler: Any = self
        if PageMixin.gmkit_slots is None:
            PageMixin.gmkit_slots = asyncio.Semaphore(PAGE_SLOTS)
        async with PageMixin.gmkit_slots:
            manager = handler.kernel_manager
            make_room = getattr(manager, "make_room", None)
            if make_room is not None and not await make_room():
                body = (
                    "serving.full.body" if handler.gmkit_guard.access.lan else "serving.full.table"
                )
                title = Message("serving.full.title")
                refuse(handler, 503, title, Message(body, count=manager.max_kernels))
            await super().get(*args, **kwargs)  # type: ignore[misc]


def voila_class() -> type[Any]:
    """Voila's app, its handlers guarded (imported late: Voila is heavy)."""
    from voila.app import Voila
    from voila.tornado.handler import TornadoVoilaHandler

    class GmkitVoila(Voila):
        """Voila whose every handler passes gmkit's guard first."""

        gmkit_access = Access()

        def initialize(self, argv: Any = None) -> None:
            super().initialize(argv)
            one_line.install(self.log)  # every error one line: a flood writes no tracebacks
            limit = self.config.get("LimitedConnection", {}).get("message_bytes")
            if limit:  # a larger frame closes its socket before it is even read whole
                settings: dict[str, Any] = dict(self.tornado_settings)  # type: ignore[has-type]
                settings["websocket_max_message_size"] = int(limit)
                self.tornado_settings = settings

        def start(self) -> None:
            Watchdog().start()  # a loop that stops: the server is restarted
            super().start()

        def init_handlers(self) -> list[Any]:
            guard = Guard(self.gmkit_access)
            handlers = []
            for pattern, handler, *rest in super().init_handlers():
                if issubclass(handler, TornadoVoilaHandler):
                    wrapped = guarded(handler, guard, PageMixin)
                elif issubclass(handler, tornado.web.RequestHandler):
                    wrapped = guarded(handler, guard)
                else:
                    wrapped = handler
                handlers.append((pattern, wrapped, *rest))
            if fault("block-loop"):  # a test's fault: the hang, on request
                handlers.insert(0, (r".*/gmkit-fault/block", guarded(block_handler(), guard)))
            return handlers

    return GmkitVoila


def main(argv: list[str]) -> int:
    """Voila on ``argv``, guarded by the access ``GMKIT_SERVING`` gives (read and removed
    from the environment now, before the first kernel starts and inherits it)."""
    access = Access.from_environment()
    app = voila_class()
    app.gmkit_access = access
    if access.path:
        app.launch_instance(argv, base_url=access.path)
    else:
        app.launch_instance(argv)
    return 0
