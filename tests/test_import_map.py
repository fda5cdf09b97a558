"""The import map: gmkit's modules import one another only downwards, in the layers the diagram
at the top of docs/architecture.md draws, and no two modules import each other, directly or
round a loop.

The graph is read with :mod:`ast` from every ``gmkit/**/*.py``: imports at module level and
inside functions alike (a function's import is a dependency all the same, only later), leaving
out what an ``if TYPE_CHECKING:`` block names (types for the checker, never imported). ``from
package import name`` is an import of ``package.name`` when that is a module, else of the
package. Importing a module runs its packages' ``__init__`` first, so a package's ``__init__``
may sit no higher than any of its modules.
"""

from __future__ import annotations

import ast
import fnmatch
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "gmkit"
DIAGRAM = ROOT / "docs" / "architecture.md"

LAYERS: dict[str, int] = {
    # mirrors the diagram at the top of docs/architecture.md, from the bottom row (0) up; a
    # module takes the layer of its longest dotted prefix listed here
    "gmkit": 0,  # the package's own __init__: every import runs it
    "gmkit.errors": 0,
    "gmkit.messages": 0,
    "gmkit._rate": 0,
    "gmkit._user_state": 0,
    "gmkit.dice": 1,
    "gmkit.plugins": 1,  # the seam: the rules' world finds a game by id through it
    "gmkit.sheets": 2,
    "gmkit.systems": 2,
    "gmkit.odds": 3,
    "gmkit.games": 4,  # the games: plugins on top of the rules' world
    "gmkit.encounter": 5,
    "gmkit.store": 5,
    "gmkit._store_base": 5,
    "gmkit._store_check": 5,
    "gmkit._store_records": 5,
    "gmkit._store_file": 5,
    "gmkit._store_pg": 5,
    "gmkit._store_bell": 5,
    "gmkit._store_copy": 5,
    "gmkit.simulate": 6,
    "gmkit.seats": 6,
    "gmkit._forms": 7,
    "gmkit.widgets": 8,
    "gmkit._serving": 8,
    "gmkit._phones": 8,
    "gmkit.campaign": 8,
    "gmkit.demo": 8,
    "gmkit._platform": 8,
    "gmkit._cli": 9,
    "gmkit._launch": 9,
    "gmkit.prep": 9,
}

Graph = Mapping[str, set[str]]


# --- reading the graph ---------------------------------------------------------------------


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported(tree: ast.AST, name: str, is_package: bool) -> Iterator[tuple[str, str | None]]:
    """``(module, name)`` of every import in ``tree`` (module level and in functions), but those
    of an ``if TYPE_CHECKING:`` block; relative imports made absolute."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking(node.test):
            for other in node.orelse:  # what runs when not type checking
                yield from imported(ast.Module([other], []), name, is_package)
            continue
        if isinstance(node, ast.Import):
            yield from ((alias.name, None) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if is_package else name.split(".")[:-1]
                here = here[: len(here) - node.level + 1]
                base = ".".join([*here, *([node.module] if node.module else [])])
            yield from ((base, alias.name) for alias in node.names)
        yield from imported(node, name, is_package)


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the gmkit modules it imports."""
    paths = {module_name(path): path for path in sorted(package.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found = set()
        for module, item in imported(tree, name, path.name == "__init__.py"):
            target = f"{module}.{item}" if item and f"{module}.{item}" in paths else module
            if target in paths and target != name:
                found.add(target)
        graph[name] = found
    return graph


def layer_of(module: str, layers: Mapping[str, int] = LAYERS) -> int:
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        found = layers.get(".".join(parts[:end]))
        if found is not None:
            return found
    raise KeyError(f"{module}: in no layer (add it to LAYERS and to the diagram)")


# --- the checks ----------------------------------------------------------------------------


def cycles(graph: Graph) -> list[list[str]]:
    """Every set of modules that import one another round a loop (Tarjan's strongly connected
    components of more than one module, and a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def upward(graph: Graph, layers: Mapping[str, int] = LAYERS) -> list[str]:
    """Every import of a module in a higher layer than the importer's."""
    return [
        f"{module} (layer {layer_of(module, layers)}) imports {other} "
        f"(layer {layer_of(other, layers)})"
        for module, others in sorted(graph.items())
        for other in sorted(others)
        if layer_of(other, layers) > layer_of(module, layers)
    ]


def packages_above_their_modules(graph: Graph, layers: Mapping[str, int] = LAYERS) -> list[str]:
    """Every module whose package's ``__init__`` (run first when it is imported) sits higher."""
    found = []
    for module in sorted(graph):
        parts = module.split(".")
        for end in range(1, len(parts)):
            package = ".".join(parts[:end])
            if package in graph and layer_of(package, layers) > layer_of(module, layers):
                found.append(f"{module} (layer {layer_of(module, layers)}) runs {package} first")
    return found


GRAPH = import_graph()


def test_every_module_has_a_layer():
    missing = []
    for module in GRAPH:
        try:
            layer_of(module)
        except KeyError as error:
            missing.append(str(error))
    assert missing == []


def test_no_module_imports_upwards():
    assert upward(GRAPH) == []


def test_no_package_runs_above_its_modules():
    assert packages_above_their_modules(GRAPH) == []


def test_no_modules_import_each_other():
    assert cycles(GRAPH) == []


def test_the_games_sit_on_top_of_the_rules_world():
    rules = ("gmkit.dice", "gmkit.sheets", "gmkit.systems", "gmkit.odds", "gmkit.plugins")
    for name in rules:
        assert layer_of(name) < layer_of("gmkit.games") < layer_of("gmkit.encounter"), name
    into_games = sorted(
        module
        for module, others in GRAPH.items()
        if module.startswith(rules) and any(o.startswith("gmkit.games") for o in others)
    )
    assert into_games == []


# --- the checks can fail: a small graph made up to fail them --------------------------------


def test_the_checks_find_what_they_look_for(tmp_path):
    made = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}, "e": {"a"}, "f": set()}
    assert cycles(made) == [["a", "b", "c"], ["d"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    layers = {"a": 0, "b": 0, "c": 1, "d": 0, "e": 1, "f": 1, "p": 2, "p.m": 0}
    assert upward({"a": {"c"}, "e": {"a"}}, layers) == ["a (layer 0) imports c (layer 1)"]
    assert packages_above_their_modules({"p": set(), "p.m": set()}, layers) == [
        "p.m (layer 0) runs p first"
    ]
    # the reader: a loop through a function's import, a TYPE_CHECKING import left out
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "one.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pkg import three\n"
        "def f():\n    from pkg import two\n"
    )
    (tmp_path / "pkg" / "two.py").write_text("from . import one\n")
    (tmp_path / "pkg" / "three.py").write_text("import pkg.one\n")
    global ROOT
    kept, ROOT = ROOT, tmp_path
    try:
        graph = import_graph(tmp_path / "pkg")
    finally:
        ROOT = kept
    assert graph == {
        "pkg": set(),
        "pkg.one": {"pkg.two"},
        "pkg.two": {"pkg.one"},
        "pkg.three": {"pkg.one"},
    }
    assert cycles(graph) == [["pkg.one", "pkg.two"]]


# --- the diagram says the same -------------------------------------------------------------


def diagram_layers(text: str) -> dict[str, int]:
    """The names the diagram's rows list (``widgets/`` a package, ``_cli.py`` a module,
    ``store*.py`` every module it matches), each with its row from the bottom (0)."""
    block = re.search(r"```\n(.*?)```", text, re.S)
    assert block is not None, "no diagram at the top of docs/architecture.md"
    rows = [line for line in block.group(1).splitlines() if line.strip() not in ("", "|")]
    found: dict[str, int] = {}
    for number, row in enumerate(reversed(rows)):
        names = re.split(r"\s{3,}", row.strip())[0].split()
        for name in names:
            found[name] = number
    return found


def test_the_diagram_draws_the_layers_this_test_checks():
    drawn = diagram_layers(DIAGRAM.read_text(encoding="utf-8"))
    differ = []
    for module in sorted(GRAPH):
        if module == "gmkit":
            continue  # the package's own __init__ is drawn by no row: it is below them all
        first = module.split(".")[1]
        candidates = [n for n in drawn if n == f"{first}/" or fnmatch.fnmatch(f"{first}.py", n)]
        if not candidates:
            differ.append(f"{module}: not in the diagram")
        elif drawn[candidates[0]] != layer_of(module):
            row = drawn[candidates[0]]
            differ.append(f"{module}: row {row} in the diagram, layer {layer_of(module)} here")
    assert differ == []


def test_the_graph_is_read_from_gmkits_files():
    assert "gmkit.errors" in GRAPH["gmkit"]
    assert "gmkit.games._registry" in GRAPH["gmkit.games.necromunda"]
    assert "gmkit.plugins" in GRAPH["gmkit.sheets.base"]
