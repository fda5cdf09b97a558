"""Issue 24, part 2: the platform behind one adapter (``gmkit/_platform.py``).

Each private name of ipywidgets or Voila that gmkit reaches is checked here against the
installed package, a test per name, failing with the name and the version: a minor release
that moves one fails this file instead of the table breaking silently. The scan at the end
reads every module of ``gmkit/`` and fails if one outside the adapter touches a private name
of the platform's packages; it is shown to flag such touches, so it can fail. What replaced
the touches that went public (the kernel manager's public API, the control comm's target) is
checked against the real classes too.
"""

from __future__ import annotations

import ast
import asyncio
import importlib
import importlib.util
import inspect
import tempfile
import textwrap
import tomllib
import warnings
from datetime import UTC, datetime, timedelta
from functools import cache
from importlib.metadata import version
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import ipywidgets as widgets
import pytest
from packaging.requirements import Requirement
from traitlets import Integer, Unicode
from traitlets.config import Configurable

from gmkit import _platform
from gmkit._platform import (
    CHECKED_AGAINST,
    TOUCHES,
    construction_callback,
    live_widgets,
    preheated_kernel_ids,
    raising_message_handler,
    split_buffers,
)
from gmkit._serving.kernels import BoundedKernelManager

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = ROOT / "gmkit" / "_platform.py"

PLATFORM = ("ipywidgets", "ipykernel", "jupyter_server", "voila")
"""The packages issue 24 names: their private names live in the adapter alone."""
ALSO_SCANNED = ("jupyter_client", "comm", "traitlets", "tornado", "anywidget")
"""Their neighbours gmkit builds on: held to the same rule."""
SCANNED = PLATFORM + ALSO_SCANNED

ALLOWED = {
    "_model_name": "ipywidgets' widget model spec: the model's name, read by every page",
    "_model_module": "ipywidgets' widget model spec: the model's JavaScript module",
    "_model_module_version": "ipywidgets' widget model spec: that module's version",
    "_dom_classes": "ipywidgets' widget model spec: a DOMWidget's CSS classes, one message",
    "_esm": "anywidget's documented way to give a widget its JavaScript",
    "_css": "anywidget's documented way to give a widget its styles",
    "_replace": "namedtuple's documented method (Python's docs), on gmkit's own tuples",
}
"""Underscored names that are not the platform's private insides, each with why: the synced
attributes of ipywidgets' documented widget model specification (the wire protocol every
page's widget manager reads: a rename is a new protocol major, kept out by ``ipywidgets<9``),
anywidget's documented class attributes, and the standard library's one documented
underscored method gmkit calls on its own objects."""


def moved(name: str, package: str) -> str:
    """The failure's message: which private name, in which installed version."""
    return (
        f"{name} moved or changed shape in {package} {version(package)} (gmkit/_platform.py "
        f"was checked against {CHECKED_AGAINST.get(package, '?')}): see the adapter's "
        "docstring for what it is for and narrow pyproject.toml's bound meanwhile"
    )


# --- the touches, one test each -----------------------------------------------------------


def test_instances_is_ipywidgets_registry_of_the_live_widgets() -> None:
    from ipywidgets.widgets import widget as module

    assert isinstance(getattr(module, "_instances", None), dict), moved("_instances", "ipywidgets")
    made = widgets.HTML("live")
    model_id = made.model_id
    try:
        assert live_widgets().get(model_id) is made, moved("_instances", "ipywidgets")
    finally:
        made.close()
    assert model_id not in live_widgets()  # closed: gone


def test_remove_buffers_splits_binary_values_out_of_a_state() -> None:
    from ipywidgets.widgets import widget as module

    found = getattr(module, "_remove_buffers", None)
    assert callable(found), moved("_remove_buffers", "ipywidgets")
    states = {"m1": {"model_name": "M", "state": {"value": 1, "data": memoryview(b"\x01\x02")}}}
    state, paths, buffers = split_buffers(states)
    assert state == {"m1": {"model_name": "M", "state": {"value": 1}}}, moved(
        "_remove_buffers", "ipywidgets"
    )
    assert paths == [["m1", "state", "data"]], moved("_remove_buffers", "ipywidgets")
    assert [bytes(buffer) for buffer in buffers] == [b"\x01\x02"]


def test_widget_construction_callback_is_the_one_on_widget_constructed_set() -> None:
    assert hasattr(widgets.Widget, "_widget_construction_callback"), moved(
        "Widget._widget_construction_callback", "ipywidgets"
    )
    before = construction_callback()
    seen: list[widgets.Widget] = []
    widgets.Widget.on_widget_constructed(seen.append)
    try:
        assert construction_callback() == seen.append, moved(
            "Widget._widget_construction_callback", "ipywidgets"
        )
        made = widgets.HTML()
        assert any(widget is made for widget in seen)  # with its layout and style
        made.close()
    finally:
        widgets.Widget.on_widget_constructed(before)
    assert construction_callback() is before


def test_handle_msg_is_wrapped_by_show_traceback_around_the_raising_handler(
    caplog: pytest.LogCaptureFixture,
) -> None:
    name = "Widget._handle_msg (inside ipywidgets' _show_traceback)"
    decorated = widgets.Widget._handle_msg
    method = inspect.getclosurevars(decorated).nonlocals.get("method")
    assert callable(method), moved(name, "ipywidgets")
    assert method.__name__ == "_handle_msg", moved(name, "ipywidgets")
    made = widgets.Text()
    try:
        handle = raising_message_handler(made)
        handle({"content": {"data": {"method": "update", "state": {"value": "typed"}}}})
        assert made.value == "typed"  # a page's update goes through as before
        broken = {"content": {"data": {"state": {}}}}  # no method: ipywidgets fails on it
        with pytest.raises(KeyError):
            handle(broken)  # the handler gmkit guards raises: nothing is shown to the page
        made._handle_msg(broken)  # ipywidgets' own shows it instead (here: a log line)
        assert "Exception in widget method" in caplog.text, moved(name, "ipywidgets")
    finally:
        made.close()


class VoilaParent(Configurable):
    """What Voila's kernel manager reads of its app: no notebook, so no kernel is started."""

    root_dir = Unicode(tempfile.gettempdir())
    notebook_path = Unicode(None, allow_none=True)
    base_url = Unicode("/")
    server_url = Unicode("/")
    port = Integer(8866)


def test_voila_pools_hold_tasks_resulting_in_the_kernel_id() -> None:
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    preheating = voila_kernel_manager_factory(
        BoundedKernelManager, preheat_kernel=True, default_pool_size=1
    )

    async def check() -> None:
        manager = preheating(parent=VoilaParent(root_dir=tempfile.mkdtemp()))
        pools = getattr(manager, "_pools", None)
        assert isinstance(pools, dict), moved("VoilaKernelManager._pools", "voila")
        loop = asyncio.get_running_loop()
        ready, starting = loop.create_future(), loop.create_future()
        ready.set_result({"kernel_id": "k-ready", "renderer": None, "task": None})
        pools["table.ipynb"] = [ready, starting]
        try:
            # Voila's public count reads the same lists, and its own cull skips a ready one as
            # a pooled kernel (else it looks the id up and fails): the shape gmkit reads
            assert manager.get_pool_size("table.ipynb") == 2, moved("_pools", "voila")
            await manager.cull_kernel_if_idle("k-ready")
            assert preheated_kernel_ids(manager) == {"k-ready"}
            assert manager.pooled_kernel_ids() == {"k-ready"}
        finally:
            starting.cancel()

    asyncio.run(check())
    assert preheated_kernel_ids(BoundedKernelManager()) == set()  # not preheating: no pool


# --- what replaced the touches that went public -------------------------------------------


def test_the_kernel_manager_is_read_through_its_public_api() -> None:
    """``_kernels``, ``_kernel_connections`` and ``jupyter_server._tz`` are gone from
    ``gmkit._serving.kernels``; its reads work on a real manager. The kernel is a stand-in
    registered as jupyter_client registers a started one (no process is started)."""
    manager = BoundedKernelManager()
    hours_ago = datetime.now(UTC) - timedelta(hours=3)
    kernel = SimpleNamespace(execution_state="idle", last_activity=hours_ago)
    manager._kernels["k1"] = kernel  # the test's stand-in, where a started kernel goes
    assert manager.list_kernel_ids() == ["k1"]
    assert "k1" in manager
    assert manager.kernel_state("k1") == "idle"
    assert manager.kernel_state("gone") == ""
    manager.sample_connections()
    assert manager.unconnected_for("k1") is not None  # no page
    manager.notify_connect("k1")
    assert manager.connected_pages("k1") == 1
    manager.sample_connections()
    assert manager.unconnected_for("k1") is None
    assert manager.serving_kernel_ids() == ["k1"]
    manager._pooled_before = {"k1"}  # the pool held it at the last sample; a page took it
    manager.sample_connections()
    assert kernel.last_activity > hours_ago  # its idle time starts now, not in the pool
    del manager._kernels["k1"]
    manager.sample_connections()
    assert manager.connected_pages("k1") == 0  # a gone kernel's count is dropped


def test_a_page_s_control_comm_is_taken_through_the_public_comm_target() -> None:
    """``Widget._handle_control_comm_msg`` is no longer replaced: gmkit's answer is the
    handler of the ``jupyter.widget.control`` target (``gmkit.widgets._lean_state``)."""
    from ipywidgets import comm as widget_comm

    from gmkit.widgets import _lean_state as lean_state

    assert "_handle_control_comm_msg" not in vars(lean_state)
    assert widgets.Widget.__dict__["_handle_control_comm_msg"].__func__.__module__ == (
        "ipywidgets.widgets.widget"
    )  # ipywidgets' own, untouched
    lean_state.install()
    assert lean_state.installed()
    manager = widget_comm.get_comm_manager()
    assert manager.targets[lean_state.CONTROL_TARGET] is lean_state.control_opened


# --- the pyproject bounds -----------------------------------------------------------------


def test_pyproject_bounds_the_platform_to_the_versions_checked_here() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    found = {}
    for line in data["project"]["dependencies"]:
        requirement = Requirement(line)
        found[requirement.name.lower().replace("-", "_")] = requirement
    for package in PLATFORM:
        assert package in found, f"pyproject.toml does not bound {package}"
        specifier = found[package].specifier
        assert any(spec.operator == "<" for spec in specifier), f"{package}: no upper bound"
        assert specifier.contains(version(package)), (
            f"{package} {version(package)} is installed, outside pyproject's {specifier}"
        )
    for package, checked in CHECKED_AGAINST.items():
        assert found[package].specifier.contains(checked), (package, checked)


# --- the scan: no private name of the platform outside the adapter --------------------------


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined(tree: ast.AST) -> set[str]:
    """The underscored names ``tree`` defines: functions, classes, and what it assigns
    (``_x = ``, ``self._x = ``, ``cls._x: T = ``)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute):
                    found.add(part.attr)
                elif isinstance(part, ast.Name):
                    found.add(part.id)
    return {name for name in found if _private(name)}


@cache
def platform_private_names() -> frozenset[str]:
    """Every underscored name the scanned packages define in their installed sources."""
    found: set[str] = set()
    for package in SCANNED:
        spec = importlib.util.find_spec(package)
        assert spec is not None, package
        for folder in spec.submodule_search_locations or ():
            for path in Path(folder).rglob("*.py"):
                if {"test", "tests"} & set(path.parts):
                    continue  # their own tests: no name gmkit could reach
                with warnings.catch_warnings():  # their old escapes in strings: not ours
                    warnings.simplefilter("ignore")
                    found |= _defined(ast.parse(path.read_text(errors="replace")))
    return frozenset(found)


def _imports(tree: ast.AST) -> dict[str, str]:
    """Each name a module's imports bind (anywhere in it), to what it names."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound[alias.asname or alias.name.split(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound


def _scanned(dotted: str) -> bool:
    return dotted.split(".")[0] in SCANNED


def _root(node: ast.expr) -> ast.expr:
    while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node


class Scan(ast.NodeVisitor):
    """The private touches of one module's source (see :func:`private_touches`)."""

    def __init__(self, tree: ast.Module, module: str, own: set[str]) -> None:
        self.imports = _imports(tree)
        self.module = module
        self.own = own  # underscored names gmkit defines itself (outside the adapter)
        self.classes: list[tuple[bool, set[str]]] = []  # (a platform class?, names it defines)
        self.found: list[str] = []
        self.qualname: list[str] = []

    def flag(self, node: ast.AST, what: str) -> None:
        self.found.append(f"{self.module}:{getattr(node, 'lineno', '?')}: {what}")

    # imports: a private module or name of a scanned package
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if _scanned(alias.name) and any(_private(p) for p in alias.name.split(".")):
                self.flag(node, f"import {alias.name}")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module and node.level == 0 and _scanned(node.module):
            for alias in node.names:
                dotted = f"{node.module}.{alias.name}"
                if any(_private(p) and p not in ALLOWED for p in dotted.split(".")):
                    self.flag(node, f"from {node.module} import {alias.name}")

    # classes: is it a subclass of a scanned package's class?
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.qualname.append(node.name)
        made = self._made(node)
        mro = inspect.getmro(made) if made is not None else ()
        platform_bases = [kind for kind in mro[1:] if _scanned(kind.__module__)]
        mine = _defined(node)  # and what its gmkit bases define (their sources)
        for kind in mro[1:]:
            if kind.__module__.startswith("gmkit."):
                mine |= _defined(ast.parse(textwrap.dedent(inspect.getsource(kind))))
        for base in platform_bases:  # a name of the platform's class, redefined by gmkit's
            for name in sorted(_defined(node) - set(ALLOWED)):
                if hasattr(base, name):
                    self.flag(node, f"{node.name} redefines {base.__name__}.{name}")
        self.classes.append((bool(platform_bases) or self._static_platform(node), mine))
        self.generic_visit(node)
        self.classes.pop()
        self.qualname.pop()

    def _made(self, node: ast.ClassDef) -> type | None:
        """The class ``node`` makes, when it is a module's own (imported: its MRO tells its
        bases, wherever they are defined); a class made inside a function is judged by its
        source alone (:meth:`_static_platform`)."""
        found: Any = importlib.import_module(self.module) if self.module else None
        for name in self.qualname:
            found = getattr(found, name, None)
        return found if inspect.isclass(found) else None

    def _static_platform(self, node: ast.ClassDef) -> bool:
        for base in node.bases:
            root = _root(base)
            if isinstance(root, ast.Name) and _scanned(self.imports.get(root.id, "")):
                return True
        return False

    # attributes, and their getattr(x, "_name") spellings
    def visit_Attribute(self, node: ast.Attribute) -> None:
        if _private(node.attr):
            self._touch(node, node.value, node.attr)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        key, value = node.slice, node.value  # X.__dict__["_name"]: X._name
        if (
            isinstance(value, ast.Attribute)
            and value.attr == "__dict__"
            and isinstance(key, ast.Constant)
            and isinstance(key.value, str)
            and _private(key.value)
        ):
            self._touch(node, value.value, key.value)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = node.func.id if isinstance(node.func, ast.Name) else ""
        spelled = name in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) >= 2
        if spelled and isinstance(node.args[1], ast.Constant):
            attribute = node.args[1].value
            if isinstance(attribute, str) and _private(attribute):
                self._touch(node, node.args[0], attribute)
        self.generic_visit(node)

    def _touch(self, node: ast.AST, owner: ast.expr, name: str) -> None:
        if name in ALLOWED:
            return
        root = _root(owner)
        itself = isinstance(root, ast.Name) and root.id in ("self", "cls")
        if self.classes and (itself or _is_super(root)):
            platform, mine = self.classes[-1]
            if platform and name not in mine:  # the base class's own private attribute
                self.flag(node, f"{ast.unparse(owner)}.{name} of a platform class")
            return
        if isinstance(root, ast.Name) and root.id in self.imports:
            if _scanned(self.imports[root.id]):
                self.flag(node, f"{ast.unparse(owner)}.{name}")
            return  # another module's name: not the platform's
        if name in platform_private_names() and name not in self.own:
            self.flag(node, f"{ast.unparse(owner)}.{name}")


def _is_super(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "super"


def private_touches(source: str, module: str = "", own: set[str] | None = None) -> list[str]:
    """Where ``source`` touches a private name of the scanned packages: a private module or
    name imported from one; an attribute (or its ``getattr`` spelling) whose owner is one of
    their modules or classes; in a subclass of one of their classes, an underscored attribute
    of ``self`` the subclass does not define itself, or a name it redefines that the base
    class has; elsewhere, an underscored attribute whose name those packages define and gmkit
    does not (``own``): a widget's ``_handle_msg``, a kernel manager's ``_kernels``."""
    tree = ast.parse(source)
    scan = Scan(tree, module, _defined(tree) if own is None else own)
    scan.visit(tree)
    return scan.found


def gmkit_modules() -> dict[str, Path]:
    found = {}
    for path in sorted((ROOT / "gmkit").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def test_no_private_name_of_the_platform_is_touched_outside_the_adapter() -> None:
    modules = {name: path for name, path in gmkit_modules().items() if path != ADAPTER}
    trees = {name: ast.parse(path.read_text()) for name, path in modules.items()}
    own = set().union(*(_defined(tree) for tree in trees.values()))
    found: list[str] = []
    for name, tree in trees.items():
        imported = set(_imports(tree).values())
        runnable = name.rsplit(".", 1)[-1] != "__main__" and any(map(_scanned, imported))
        scan = Scan(tree, name if runnable else "", own)  # classes judged by their MRO too
        scan.visit(tree)
        found += scan.found
    assert found == [], "move these into gmkit/_platform.py (or a public API):\n" + "\n".join(found)


SNIPPETS = {
    "from ipywidgets.widgets.widget import _instances": "import _instances",
    "from jupyter_server._tz import utcnow": "import utcnow",
    "import ipywidgets\nipywidgets.Widget._control_comm": "ipywidgets.Widget._control_comm",
    "def handler(widget):\n    return type(widget)._handle_msg": "._handle_msg",
    "def answer(cls, msg):\n    return cls._control_comm": "cls._control_comm",
    "import ipywidgets\nipywidgets.Widget.__dict__['_handle_control_comm_msg']": "_handle_control",
    "def read(manager):\n    return getattr(manager, '_kernel_connections')": "_kernel_conn",
    (
        "from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager\n"
        "class Kernels(AsyncMappingKernelManager):\n"
        "    def ids(self):\n"
        "        return getattr(self, '_pools', {}), list(self._kernels)\n"
    ): "self._kernels of a platform class",
}


@pytest.mark.parametrize(("source", "said"), SNIPPETS.items())
def test_the_scan_flags_a_private_touch(source: str, said: str) -> None:
    found = private_touches(source, own=set())
    assert found, f"the scan missed a private touch in:\n{source}"
    assert any(said in line for line in found), found


def test_the_scan_passes_public_calls_and_gmkit_s_own_names() -> None:
    source = (
        "import ipywidgets as widgets\n"
        "class Row(widgets.HBox):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self._shown = ()\n"  # the subclass's own
        "        self._dom_classes = ('gmkit-row',)\n"  # the model spec's, allowed
        "    def show(self):\n"
        "        return self._shown, self.keys, self.get_state(), widgets.Widget.close_all\n"
        "def own(store):\n"
        "    return store._lock\n"  # gmkit's own name on gmkit's own object
    )
    assert private_touches(source, own={"_lock"}) == []


def test_the_adapter_touches_exactly_the_names_it_lists() -> None:
    """The adapter's inventory (``TOUCHES``) is what the scan finds in it, and each name is
    reached by the function the inventory names."""
    source = ADAPTER.read_text()
    found = private_touches(source, own=set())
    for name, function in TOUCHES.items():
        assert any(name in line for line in found), f"{name} is listed, not touched"
        body = inspect.getsource(getattr(_platform, function))
        assert name in body, f"{name} is not reached by {function}"
    for line in found:
        assert any(name in line for name in TOUCHES), f"not listed in TOUCHES: {line}"
