"""The widget state a page is sent when it connects, without what the page knows already.

When a page connects to a kernel whose widgets exist already (Voila's page, taking a kernel
that ran the notebook before it was asked for), ipywidgets 8 answers the page's
``request_states`` with every model's whole state: ~235 models for the dashboard, a ``Layout``
~1 KB of nulls each. The page's widget manager builds each model on its defaults first, then
sets the state it is sent, so a value equal to its default need not travel: once
:func:`install` has run, the answer leaves those out (as ipywidgets' own ``embed`` does with
``drop_defaults``) for the models of ipywidgets' own modules, whose defaults the page's code
holds, and only for the traits whose value is the default of ipywidgets' own class (a subclass
that gives a trait another default keeps it: ipywidgets' ``get_state(drop_defaults=True)``
would drop it, and anywidget's code with it). A model of another module (anywidget's, whose
code is a trait) keeps its whole state. The answer is otherwise ipywidgets' own (buffers,
order).

:func:`install` takes the page's control comm (the ``jupyter.widget.control`` comm target,
registered with the kernel's comm manager through its public ``register_target``):
ipywidgets' ``Widget.handle_control_comm_opened`` still checks the protocol's version, and
:func:`answer` then answers the comm's messages. A control comm a page opened before
:func:`install` keeps ipywidgets' full answer. The live widgets and the buffers come from
ipywidgets' insides, through ``gmkit._platform``.
"""

from __future__ import annotations

import logging
from typing import Any

import ipywidgets as widgets
from ipywidgets import comm as widget_comm
from traitlets import Container, Undefined

from gmkit._platform import live_widgets, split_buffers

__all__ = ["CONTROL_TARGET", "answer", "control_opened", "install", "installed", "lean_state"]

CORE_MODULES = frozenset(
    {"@jupyter-widgets/base", "@jupyter-widgets/controls", "@jupyter-widgets/output"}
)
CONTROL_TARGET = "jupyter.widget.control"
"""The comm target a page's widget manager opens to ask for every widget's state."""
_DEFAULTS: dict[type, dict[str, Any]] = {}
log = logging.getLogger("gmkit.widgets._lean_state")


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


def answer(comm: Any, msg: dict[str, Any]) -> None:
    """Answer a message on a page's control comm: ``request_states`` with every live widget's
    lean state (the only request of the control protocol; anything else is said in a line)."""
    data = msg.get("content", {}).get("data", {})
    if not isinstance(data, dict) or data.get("method") != "request_states":
        log.warning("gmkit: a control message other than request_states was ignored")
        return
    states = {}
    for widget in live_widgets().values():
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
    full, buffer_paths, buffers = split_buffers(states)
    comm.send(
        {"method": "update_states", "states": full, "buffer_paths": buffer_paths}, buffers=buffers
    )


def control_opened(comm: Any, msg: dict[str, Any]) -> None:
    """A page opened its control comm: ipywidgets checks the protocol's version (raising for
    another major, as it does for its own), then :func:`answer` answers the comm."""
    widgets.Widget.handle_control_comm_opened(comm, msg)
    comm.on_msg(lambda message: answer(comm, message))


def install() -> None:
    """Answer the control comms pages open from now on with lean states (any later call
    registers the same handler again: nothing changes)."""
    manager = widget_comm.get_comm_manager()
    if manager is not None:
        manager.register_target(CONTROL_TARGET, control_opened)


def installed() -> bool:
    """Whether the kernel's comm manager hands the pages' control comms to gmkit."""
    manager = widget_comm.get_comm_manager()
    return manager is not None and manager.targets.get(CONTROL_TARGET) is control_opened
