"""The one place gmkit touches the private insides of the Jupyter platform.

gmkit runs on ipywidgets, ipykernel, jupyter_server and Voila. Where their public API does
what gmkit needs, gmkit uses it; this module holds every place it does not: each function
below reaches one private (underscore) name, and says which, the versions it was checked
against, why gmkit needs it, and which upstream change would let it go. A minor release
that moves one of these names fails ``tests/test_platform_adapter.py`` (a test per name,
naming it and the installed version) instead of the table breaking silently; the same file
scans the rest of ``gmkit/`` and fails if a private name of these packages is touched
anywhere else. ``pyproject.toml`` bounds the packages to the versions checked here.

Touches that went to a public mechanism instead (nothing of them is left here):

- ipywidgets' ``Widget._handle_control_comm_msg``, replaced for every widget in the kernel,
  and its ``Widget._control_comm``: gmkit's answer to a page's ``request_states`` is now the
  handler of the ``jupyter.widget.control`` comm target, registered through the comm
  manager's public ``register_target`` (``gmkit.widgets._lean_state``).
- ipykernel's ``Kernel._publish_status`` (``widgets/deferral.py``, gone): the kernel's own
  busy and idle are honest since every panel follows a click in the same request.
- jupyter_client's ``MultiKernelManager._kernels``: ``list_kernel_ids()``, ``in`` and
  ``get_kernel()``; jupyter_server's ``_kernel_connections``: gmkit counts the connections
  itself (``notify_connect`` is the only place either count grows); ``jupyter_server._tz``'s
  ``utcnow``: ``datetime.now(UTC)`` (``gmkit._serving.kernels``).

Not counted as private (``tests/test_platform_adapter.py`` allows them by name): the synced
model attributes of ipywidgets' widget model specification that gmkit reads or sets
(``_model_name``, ``_model_module``, ``_model_module_version``, ``_dom_classes``), which every
page's widget manager reads off the wire and which ipywidgets documents in its model
schema (``packages/schema/jupyterwidgetmodels.latest.md``): renaming one is a new widget
protocol, which the ``<9`` bound already keeps out; and anywidget's ``_esm`` and ``_css``,
the documented way to give an anywidget its code.

Nothing heavy is imported here at import time: the servers need no ipywidgets and the
widgets no Voila, so each function imports only what it reaches.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import ipywidgets

__all__ = [
    "CHECKED_AGAINST",
    "TOUCHES",
    "construction_callback",
    "live_widgets",
    "preheated_kernel_ids",
    "raising_message_handler",
    "split_buffers",
]

CHECKED_AGAINST = {"ipywidgets": "8.1.9", "voila": "0.5.13"}
"""The versions every touch below was checked against (the tests check the installed ones)."""

TOUCHES = {
    "_instances": "live_widgets",
    "_remove_buffers": "split_buffers",
    "_widget_construction_callback": "construction_callback",
    "_handle_msg": "raising_message_handler",
    "_pools": "preheated_kernel_ids",
}
"""Each private name this module reaches, and the function that reaches it."""

MessageHandler = Callable[[dict[str, Any]], None]


# --- ipywidgets ------------------------------------------------------------------------------


def live_widgets() -> dict[str, ipywidgets.Widget]:
    """Every widget alive in this kernel, by model id (a copy).

    Private name: ``ipywidgets.widgets.widget._instances`` (a module-level dict, model id to
    widget), checked against ipywidgets 8.1.9 (there since 8.0). Why: a page that connects
    asks for every widget's state (``request_states``) and gmkit answers with the states
    without their defaults (``gmkit.widgets._lean_state``), so it needs the widgets themselves;
    ipywidgets' only public list, ``Widget.widgets``, is deprecated (it warns on every read).
    Goes when: ipywidgets' own answer can leave out the defaults the page's code knows (its
    ``_handle_control_comm_msg`` sends ``drop_defaults=False``, fixed), or it offers a
    public, undeprecated list of the live widgets.
    """
    from ipywidgets.widgets.widget import _instances

    return dict(_instances)


def split_buffers(
    states: dict[str, Any],
) -> tuple[dict[str, Any], list[list[str | int]], list[Any]]:
    """``states`` with its binary values taken out: (the JSON part, their paths, the buffers).

    Private name: ``ipywidgets.widgets.widget._remove_buffers``, checked against ipywidgets
    8.1.9. Why: the answer to ``request_states`` carries binary values as the message's
    buffers, with their paths, as ipywidgets' own answer does; this is ipywidgets' own code
    for it rather than a copy that could drift from what the page's manager expects.
    Goes when: the same upstream change as :func:`live_widgets` (no gmkit answer), or a
    public buffer-splitting helper in ipywidgets.
    """
    from ipywidgets.widgets.widget import _remove_buffers

    state, paths, buffers = _remove_buffers(states)
    return state, paths, buffers


def construction_callback() -> Callable[[ipywidgets.Widget], Any] | None:
    """The callback ipywidgets calls for every widget made, set by someone before gmkit.

    Private name: ``Widget._widget_construction_callback``, checked against ipywidgets
    8.1.9. Why: ``Widget.on_widget_constructed`` (public) holds one callback and replaces
    the one before; gmkit's (``gmkit.widgets._comm_guard``, guarding the widgets a page
    opens) calls the earlier one first instead of silently dropping it, and it needs to read
    it for that. Goes when: ipywidgets keeps several construction callbacks, or offers a
    public way to read the one set.
    """
    import ipywidgets

    callback: Callable[[ipywidgets.Widget], Any] | None
    callback = ipywidgets.Widget._widget_construction_callback
    return callback


def raising_message_handler(widget: ipywidgets.Widget) -> MessageHandler:
    """``widget``'s handler of a page's messages, raising what the message makes it raise.

    Private names: ``Widget._handle_msg`` and the closure of ipywidgets' ``_show_traceback``
    decorator around it (the undecorated handler kept as ``method``), checked against
    ipywidgets 8.1.9. Why: ``_show_traceback`` shows any exception with IPython's
    ``showtraceback``: a hostile player's message came back as a traceback naming the
    install's paths. ``gmkit.widgets._comm_guard`` calls the undecorated handler and says a
    refusal in one line. When the decorator is not there, the handler as ipywidgets has it
    (the test says so loudly). Goes when: ipywidgets lets a widget handle its message
    errors itself (a hook, or logging them instead of ``showtraceback``).
    """
    decorated = type(widget)._handle_msg
    method = inspect.getclosurevars(decorated).nonlocals.get("method")
    if callable(method) and getattr(method, "__name__", "") == "_handle_msg":
        return partial(method, widget)
    handler: MessageHandler = widget._handle_msg
    return handler


# --- Voila -----------------------------------------------------------------------------------


def preheated_kernel_ids(manager: Any) -> set[str]:
    """The kernels Voila keeps preheated, waiting for a page (none when it preheats none).

    Private name: ``VoilaKernelManager._pools`` (notebook name to a list of tasks, each
    resulting in a dict with the ``kernel_id``), checked against Voila 0.5.13. Why: the
    kernel cap and culling (``gmkit._serving.kernels``) count only the kernels serving pages
    and start a kernel's idle time when a page takes it; Voila's public ``get_pool_size``
    gives how many wait, not which. Goes when: Voila says which kernels its pools hold
    (a public list of their ids).
    """
    found: set[str] = set()
    for pool in getattr(manager, "_pools", {}).values():
        for task in pool:
            if task.done() and not task.cancelled() and task.exception() is None:
                found.add(str(task.result().get("kernel_id")))
    return found
