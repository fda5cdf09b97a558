"""What a user may import: the public modules (no part of the dotted name starting with ``_``)
are exactly those docs/architecture.md's "The public surface" lists, each lists its names in
``__all__`` and every name listed is there; gmkit's docstring points at files that exist; a
module over 400 lines says why in its docstring."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "gmkit"
DOCS = ROOT / "docs" / "architecture.md"
LONG = 400


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def public(name: str) -> bool:
    return not any(part.startswith("_") and part != "__main__" for part in name.split("."))


def tree_public(package: Path = PACKAGE) -> set[str]:
    names = (module_name(p, package.parent) for p in package.rglob("*.py"))
    return {name for name in names if public(name)}


def listed(text: str) -> list[str]:
    """The first column's module names of the section's table: ``a.b``, ``.c`` (beside the
    last full name: ``a.c``) and ``a.<game>`` (a pattern: any one name)."""
    section = re.search(r"## The public surface\n(.*?)\n## ", text, re.S)
    assert section is not None, "no section 'The public surface' in docs/architecture.md"
    names: list[str] = []
    for row in section.group(1).splitlines():
        if not row.startswith("| `"):
            continue
        parent = ""
        for name in re.findall(r"`([^`]+)`", row.split("|")[1]):
            if name.startswith("."):
                name = parent + name
            parent = name.rpartition(".")[0]
            names.append(name)
    return names


def matched(names: list[str], modules: set[str]) -> tuple[set[str], list[str]]:
    """The modules the listed names cover, and the names that cover none."""
    covered: set[str] = set()
    unmatched: list[str] = []
    for name in names:
        pattern = re.compile(r"[^.]+".join(map(re.escape, re.split(r"<[^>]+>", name))))
        found = {m for m in modules if pattern.fullmatch(m)}
        if not found:
            unmatched.append(name)
        covered |= found
    return covered, unmatched


def test_the_public_modules_are_those_the_map_lists():
    modules = tree_public()
    covered, unmatched = matched(listed(DOCS.read_text(encoding="utf-8")), modules)
    assert unmatched == [], f"listed in docs/architecture.md, not in gmkit/: {unmatched}"
    assert sorted(modules - covered) == [], "public in gmkit/, not listed in the map"


@pytest.mark.parametrize("name", sorted(tree_public()))
def test_a_public_module_says_what_it_exports(name):
    path = PACKAGE.parent / Path(*name.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    declared = any(
        isinstance(node, (ast.Assign, ast.AnnAssign))
        and any(
            isinstance(t, ast.Name) and t.id == "__all__"
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        )
        for node in tree.body
    )
    assert declared, f"{name} has no __all__"
    if name.endswith("__main__"):
        return  # running it is its use; importing it would run it
    module = importlib.import_module(name)
    missing = [each for each in module.__all__ if not hasattr(module, each)]
    assert missing == [], f"{name}.__all__ names what it does not have: {missing}"


def test_gmkit_points_at_files_that_exist():
    doc = importlib.import_module("gmkit").__doc__ or ""
    named = re.findall(r"[\w/]+\.(?:md|py)", doc)
    assert "docs/architecture.md" in named
    assert [n for n in named if not (ROOT / n).exists()] == []


def reason_missing(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    if text.count("\n") <= LONG:
        return False
    doc = ast.get_docstring(ast.parse(text)) or ""
    return "over 400 lines" not in doc


def test_a_long_module_says_why():
    missing = sorted(str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*.py") if reason_missing(p))
    assert missing == [], "over 400 lines, no 'Why over 400 lines:' in the docstring"


def test_the_checks_find_what_they_look_for(tmp_path):
    pkg = tmp_path / "gmkit"
    (pkg / "_hidden").mkdir(parents=True)
    for file in ("__init__.py", "shown.py", "_inner.py", "_hidden/__init__.py", "_hidden/x.py"):
        (pkg / file).write_text("")
    assert tree_public(pkg) == {"gmkit", "gmkit.shown"}
    text = (
        "## The public surface\n\n| m | w |\n|---|---|\n"
        "| `gmkit.a`, `.b` | x |\n| `gmkit.g.<game>` | y |\n\n## Next"
    )
    assert listed(text) == ["gmkit.a", "gmkit.b", "gmkit.g.<game>"]
    covered, unmatched = matched(listed(text), {"gmkit.a", "gmkit.g.one", "gmkit.g.one.deep"})
    assert covered == {"gmkit.a", "gmkit.g.one"}
    assert unmatched == ["gmkit.b"]
    long = tmp_path / "long.py"
    long.write_text('"""A module."""\n' + "x = 1\n" * (LONG + 1))
    assert reason_missing(long)
    long.write_text('"""A module.\n\nWhy over 400 lines: one piece."""\n' + "x = 1\n" * (LONG + 1))
    assert not reason_missing(long)
