"""Sending the page only what changed: every widget of gmkit updates its controls this way.

An ipywidgets trait assigned sends a message to the page even when the value is the same;
at a table with a TV and several phones every message counts. :func:`assign` sets only the
traits whose value differs; :func:`choose` sets a dropdown's options and value in one message
(ipywidgets would reset the value first: a second message).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import ipywidgets as widgets


def assign(widget: widgets.Widget, **values: Any) -> None:
    """Assign only the traits whose value differs: an equal value sends nothing."""
    for name, value in values.items():
        if getattr(widget, name) != value:
            setattr(widget, name, value)


def choose(box: widgets.Dropdown, options: Iterable[Any], value: Any) -> None:
    """A dropdown's options and choice: nothing sent when neither changed, one message when
    the options did."""
    wanted = tuple(options)
    if tuple(box.options) != wanted:
        with box.hold_sync():
            box.options = wanted
            box.value = value
    elif box.value != value:
        box.value = value


__all__ = ["assign", "choose"]
