"""The servers' log filter (issue 27, item 6): an error is one line naming its kind, never a
traceback; a record without an exception is left as it was."""

from __future__ import annotations

import io
import logging

from gmkit._serving.one_line import SHOWN, install


def test_an_exception_is_one_line_and_a_plain_record_unchanged() -> None:
    stream = io.StringIO()
    logger = logging.getLogger("gmkit.test.one_line")
    logger.propagate = False
    handler = logging.StreamHandler(stream)
    logger.addHandler(handler)
    try:
        install(logger)
        install(logger)  # once per handler
        assert len(handler.filters) == 1
        try:
            raise ValueError("a socket\nclosed " + "x" * 500)
        except ValueError:
            logger.exception("Uncaught exception GET /x (%s)\nHTTPServerRequest(...)", "1.2.3.4")
        logger.warning("plain %s", "line")
    finally:
        logger.removeHandler(handler)
    first, second = stream.getvalue().splitlines()
    assert first.startswith("Uncaught exception GET /x (1.2.3.4) (ValueError: a socket closed xx")
    assert len(first) < len("Uncaught exception GET /x (1.2.3.4) (ValueError: )") + SHOWN + 1
    assert second == "plain line"
    assert "Traceback" not in stream.getvalue()
