"""Closing a panel whole: every widget model it holds, not only the ones its ``close`` names.

A panel's ``close`` closed what it remembered to; the rest (a toggle it observes, the boxes
around its controls, each widget's own ``Layout`` and style, which are models of their own)
stayed registered in ipywidgets' instances, and through the toggles' observers kept the panel
and its whole fight alive: 22 models a fight switch on the demo campaign, and the fight left
behind never freed. :class:`Whole` closes every model reachable from the parts through
their widget-valued traits (``children``, ``layout``, ``style``...), except those the page
still shows (a layout shared with the dashboard's own widgets).
"""

from __future__ import annotations

from collections.abc import Iterable

import ipywidgets as widgets

__all__ = ["Whole", "reachable"]


def reachable(
    roots: Iterable[widgets.Widget | None], around: Iterable[widgets.Widget | None] = ()
) -> dict[str, widgets.Widget]:
    """Every open widget model reachable from ``roots`` through widget-valued traits (alone,
    or in a list or tuple), by model id; not through the widgets ``around`` (nor them)."""
    found: dict[str, widgets.Widget] = {}
    avoided = {id(widget) for widget in around if widget is not None}
    todo = [root for root in roots if root is not None]
    while todo:
        widget = todo.pop()
        ident = widget.model_id if widget.comm is not None else None
        if ident is None or ident in found or id(widget) in avoided:
            continue
        found[ident] = widget
        for name in widget.keys:
            value = getattr(widget, name, None)
            if isinstance(value, widgets.Widget):
                todo.append(value)
            elif isinstance(value, list | tuple):
                todo.extend(item for item in value if isinstance(item, widgets.Widget))
    return found


class Whole:
    """The models of some parts of a page, read before the parts are closed (a closed widget
    has no model id): :meth:`close` then closes every one of them the page no longer shows."""

    def __init__(self, parts: Iterable[widgets.Widget | None]) -> None:
        self.parts = [part for part in parts if part is not None]
        self.held = reachable(self.parts)

    def close(self, page: widgets.Widget | None = None) -> int:
        """Close every model held that is still open and not reachable from ``page`` other
        than through the parts (None: the parts were the page); how many."""
        shown = reachable([page], around=self.parts)
        closed = 0
        for ident, widget in self.held.items():
            if ident not in shown and widget.comm is not None:
                widget.close()
                closed += 1
        return closed
