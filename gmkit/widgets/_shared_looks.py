"""Layouts and styles shared by a panel's widgets (:class:`Shared`): one model of each distinct
set of values instead of one per widget. Re-exported by :mod:`gmkit.widgets._tracker`, whose
rows use it first, for the panels that import it from there."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

import ipywidgets as widgets

W = TypeVar("W", bound=widgets.Widget)


class Shared:
    """The layouts and styles of a panel's widgets, shared: one ``Layout`` per distinct set
    of layout values and one style per style class and values, instead of a model of each
    for every widget (an unshared ``Layout`` is a model and ~1 KB of state at load).

    ``shared.make(widgets.Button, layout={"width": "auto"}, description="Go")`` builds a
    widget on them. Only for widgets whose layout and style are not changed one by one later
    (``display`` toggled...): such a widget keeps its own. ``close()`` closes them all (the
    panel's ``close``)."""

    def __init__(self) -> None:
        self._made: dict[tuple[Any, ...], widgets.Widget] = {}

    def layout(self, **values: Any) -> widgets.Layout:
        key = (widgets.Layout, *sorted(values.items()))
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = widgets.Layout(**values)
        return made

    def style(self, widget_class: type[widgets.Widget], **values: Any) -> widgets.Widget:
        klass = widget_class.class_traits()["style"].klass
        key = (klass, *sorted(values.items()))
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = klass(**values)
        return made

    def make(
        self,
        widget_class: type[W],
        *,
        layout: Mapping[str, Any] | None = None,
        style: Mapping[str, Any] | None = None,
        **traits: Any,
    ) -> W:
        """A ``widget_class`` widget on the shared layout (and style, if it has one)."""
        traits["layout"] = self.layout(**(layout or {}))
        if "style" in widget_class.class_traits():
            traits["style"] = self.style(widget_class, **(style or {}))
        made: W = widget_class(**traits)
        return made

    def close(self) -> None:
        for made in self._made.values():
            made.close()
        self._made.clear()


__all__ = ["Shared"]
