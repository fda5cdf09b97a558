"""The servers' log: one line per error, never a traceback.

A flood of pages and sockets left 8,463 tracebacks in the players' server log (a socket
closed under a write, a kernel gone before its reply...): each a screen of the install's paths,
burying what the organiser needs to read. :func:`install` puts :class:`OneLine` on every
handler the server's loggers write through: a record that carries an exception is written as
its message and the exception's kind and text, on one line (the text cut short).
"""

from __future__ import annotations

import logging

SHOWN = 200
"""The most characters of an exception's text a line keeps."""


class OneLine(logging.Filter):
    """Turn a record's exception into the end of its one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[0] is not None:
            kind, error = record.exc_info[0], record.exc_info[1]
            said = " ".join(str(error).split())[:SHOWN]
            first = (record.getMessage().splitlines() or [""])[0]  # tornado adds the request
            record.msg = f"{first} ({kind.__name__}{': ' + said if said else ''})"
            record.args = None
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True


def install(*loggers: logging.Logger) -> None:
    """:class:`OneLine` on every handler of ``loggers``, of the root logger, of every logger
    made so far (tornado's, asyncio's, Jupyter's) and on logging's last resort."""
    found = [*loggers, logging.getLogger()]
    found += [
        logger
        for logger in logging.Logger.manager.loggerDict.values()
        if isinstance(logger, logging.Logger)
    ]
    handlers = {id(h): h for logger in found for h in logger.handlers}
    if logging.lastResort is not None:
        handlers[id(logging.lastResort)] = logging.lastResort
    for handler in handlers.values():
        if not any(isinstance(f, OneLine) for f in handler.filters):
            handler.addFilter(OneLine())
