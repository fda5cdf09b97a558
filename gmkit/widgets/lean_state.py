"""The widget state a page is sent when it connects, without what the page knows already.

When a page connects to a kernel whose widgets exist already (Voila's page, taking a kernel
that ran the notebook before it was asked for), ipywidgets 8 answers the page's
``request_states`` with every model's whole state: ~235 models for the dashboard, a ``Layout``
~1 KB of nulls each. The page's widget manager builds each model on its defaults first, then
sets the state it is sent, so a value equal to its default need not travel: :func:`install`
makes the answer leave those out (as ipywidgets' own ``embed`` does with ``drop_defaults``)
for the models of ipywidgets' own modules, whose defaults the page's code holds, and only for
the traits whose value is the default of ipywidgets' own class (a subclass that gives a trait
another default keeps it). A model of another module (anywidget's, whose code is a trait)
keeps its whole state. The answer is otherwise ipywidgets' own (buffers, order).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
from ipywidgets.widgets.widget import _instances, _remove_buffers
from traitlets import Container, Undefined

__all__ = ["install", "installed", "lean_state"]

CORE_MODULES = frozenset(
    {"@jupyter-widgets/base", "@jupyter-widgets/controls", "@jupyter-widgets/output"}
)
_ORIGINAL = widgets.Widget.__dict__["_handle_control_comm_msg"]
_DEFAULTS: dict[type, dict[str, Any]] = {}


def _core_defaults(kind: type[widgets.Widget]) -> dict[str, Any]:
    """The synced traits' defaults of the ipywidgets class ``kind`` derives from."""
    found = _DEFAULTS.get(kind)
    if found is None:
        base: Any = next(c for c in kind.__mro__ if c.__module__.startswith("ipywidgets."))
        found = {}
        for name, trait in base.class_traits(sync=True).items():
            default = trait.default_value
            if default is Undefined:  # made per widget: a list's is safe to make, a Layout's not
                if not isinstance(trait, Container):
                    continue
                default = trait.default()
            if isinstance(default, (str, int, float, bool, tuple, list, type(None))):
                found[name] = default
        _DEFAULTS[kind] = found
    return found


def lean_state(widget: widgets.Widget) -> dict[str, Any]:
    """``widget``'s state without the values the page's code has as defaults."""
    state: dict[str, Any] = widget.get_state()
    if widget._model_module not in CORE_MODULES:
        return state
    defaults = _core_defaults(type(widget))
    missing = object()
    return {
        name: value
        for name, value in state.items()
        if not _same(value, defaults.get(name, missing))
    }


def _same(value: Any, default: Any) -> bool:
    if isinstance(default, (list, tuple)):  # a list trait's default: sent as a list
        return isinstance(value, (list, tuple)) and tuple(value) == tuple(default)
    return type(value) is type(default) and bool(value == default)


def _handle_control_comm_msg(cls: type[widgets.Widget], msg: dict[str, Any]) -> None:
    data = msg.get("content", {}).get("data", {})
    comm = cls._control_comm
    if comm is None or data.get("method") != "request_states":
        _ORIGINAL.__func__(cls, msg)
        return
    states = {}
    for widget in list(_instances.values()):
        try:
            state = lean_state(widget)
        except AttributeError:
            # a widget left over from panels closed in this kernel, still holding a closed one
            # (its layout, a child): it is on no page and cannot be drawn. Leaving it out keeps
            # the page's answer whole; without it the page asked each widget apart, past the
            # rate limit, and stayed on "Loading widget..." (a fight switched in a preheated
            # kernel: issue 27)
            continue
        states[widget.model_id] = {
            "model_name": widget._model_name,
            "model_module": widget._model_module,
            "model_module_version": widget._model_module_version,
            "state": state,
        }
    full, buffer_paths, buffers = _remove_buffers(states)
    comm.send(
        {"method": "update_states", "states": full, "buffer_paths": buffer_paths}, buffers=buffers
    )


def install() -> None:
    """Answer pages' ``request_states`` with lean states (once; what any later call does)."""
    setattr(widgets.Widget, "_handle_control_comm_msg", classmethod(_handle_control_comm_msg))  # noqa: B010


def installed() -> bool:
    return widgets.Widget.__dict__["_handle_control_comm_msg"] is not _ORIGINAL
