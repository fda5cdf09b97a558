"""The players' page answers a hostile widget message without a traceback.

A player's browser sends the kernel widget messages (comm_open, comm_msg, comm_close), and a
hostile one sends what it likes. Left alone, a message the widgets refuse comes back as a full
traceback naming every file on the way, the install's paths included: ipywidgets shows an
exception raised while handling a message with IPython's ``showtraceback`` (an ``error``
message to the page), and ipykernel's comm manager logs a failed comm_open or comm_msg with
its traceback on the kernel's stderr, which the kernel sends to the page too.

:func:`guard_widgets` makes each widget of a tree handle its messages itself: an exception is
caught and logged as one line naming the widget's class and the exception's type (never a
path, never the message's values). :func:`quiet_comm_logs` strips the tracebacks from the comm
managers' own log records. :class:`~gmkit.widgets._player.PlayerView` calls both. The handler
without ipywidgets' traceback and the construction callback set before gmkit's are ipywidgets'
private names, reached through ``gmkit._platform``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

import ipywidgets as widgets

from gmkit._platform import construction_callback, raising_message_handler

__all__ = ["COMM_LOGGERS", "LOG", "guard_widgets", "quiet_comm_logs", "widget_tree"]

LOG = logging.getLogger("gmkit.players")
"""Where a refused message is logged (one line, no traceback)."""

COMM_LOGGERS = ("Comm", "ipykernel.comm")
"""The loggers of the comm managers (the ``comm`` package's and ipykernel's)."""

Handler = Callable[[dict[str, Any]], None]


class NoTraceback(logging.Filter):
    """A record logged with its exception keeps only the exception's type's name."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[0] is not None:
            record.msg = f"{record.getMessage()} ({record.exc_info[0].__name__})"
            record.args = ()
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True


def quiet_comm_logs() -> None:
    """The comm managers log a failed comm_open or comm_msg without its traceback, and a
    widget the page itself opens (a comm_open to ``jupyter.widget``) is guarded as it is made
    (:func:`guard_widgets`). Once per kernel: what is there already is not added again."""
    for name in COMM_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(found, NoTraceback) for found in logger.filters):
            logger.addFilter(NoTraceback())
    before = construction_callback()
    if getattr(before, "_gmkit_guard", False):
        return

    def constructed(widget: widgets.Widget) -> None:
        if callable(before):
            before(widget)
        if getattr(widget, "comm", None) is not None:  # opened by the page: guarded now
            guard_widgets(widget)

    setattr(constructed, "_gmkit_guard", True)  # noqa: B010
    widgets.Widget.on_widget_constructed(constructed)


def _guarded(widget: widgets.Widget) -> Handler:
    handle = raising_message_handler(widget)  # not ipywidgets' showtraceback around it
    kind = type(widget).__name__

    def guarded(msg: dict[str, Any]) -> None:
        try:
            handle(msg)
        except Exception as error:  # a hostile or broken message: refused, said in one line
            LOG.warning("a message to a %s widget was refused (%s)", kind, type(error).__name__)

    return guarded


def widget_tree(root: widgets.Widget) -> Iterator[widgets.Widget]:
    """``root`` and every widget its synced traits hold (children, layouts, styles), once."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        widget = stack.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        yield widget
        for name in widget.keys:
            value = getattr(widget, name, None)
            items = value if isinstance(value, list | tuple) else (value,)
            stack.extend(item for item in items if isinstance(item, widgets.Widget))


def guard_widgets(root: widgets.Widget) -> int:
    """Every widget of ``root``'s tree handles its messages itself (see the module
    docstring); returns how many widgets were guarded now (a guarded one is not again)."""
    count = 0
    for widget in widget_tree(root):
        comm = getattr(widget, "comm", None)
        if comm is None or getattr(widget, "_gmkit_guarded", False):
            continue
        comm.on_msg(_guarded(widget))
        setattr(widget, "_gmkit_guarded", True)  # noqa: B010
        count += 1
    return count
