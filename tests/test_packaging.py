"""The project's set-up files agree with each other."""

from __future__ import annotations

import re
import tomllib
import zipfile
from fnmatch import fnmatch
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent

_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9_.\-]+)\s*(.*?)\s*(?:#.*)?$")


def _split(requirement: str) -> tuple[str, str]:
    match = _REQUIREMENT.match(requirement)
    assert match, requirement
    name, spec = match.groups()
    return name.lower().replace("_", "-"), spec.replace(" ", "")


def _pyproject_runtime() -> dict[str, str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return dict(_split(item) for item in data["project"]["dependencies"])


def _environment_runtime() -> dict[str, str]:
    data = yaml.safe_load((ROOT / "environment.yml").read_text())
    found: dict[str, str] = {}
    for item in data["dependencies"]:
        if isinstance(item, dict):  # the pip: section
            for pip_item in item["pip"]:
                if not pip_item.startswith("-"):
                    name, spec = _split(pip_item)
                    found[name] = spec
        else:
            name, spec = _split(item)
            if name not in ("python", "pip"):
                found[name] = spec
    return found


def test_environment_yml_lists_the_same_runtime_dependencies_as_pyproject():
    assert _environment_runtime() == _pyproject_runtime()


def test_runtime_dependencies_include_the_design_card():
    names = set(_pyproject_runtime())
    assert {"ipywidgets", "jupyterlab", "voila", "pandas", "pydantic", "pyyaml"} <= names


def test_environment_installs_gmkit_itself_editable():
    data = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_items = next(item["pip"] for item in data["dependencies"] if isinstance(item, dict))
    assert any(item.startswith("-e .") for item in pip_items)


def test_console_script_points_at_the_cli():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert data["project"]["scripts"]["gmkit"] == "gmkit._cli:main"


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "scripts/test" in readme
    assert "scripts/test" in ci


BROWSER_FILES = ("dice_entry.js", "dice_entry.css", "shortcuts.js", "buzz.js")


def test_the_browser_side_widgets_need_anywidget_in_both_files():
    assert _pyproject_runtime()["anywidget"] == ">=0.9,<0.12"
    assert _environment_runtime()["anywidget"] == ">=0.9,<0.12"


def test_the_widgets_browser_files_are_package_files_nothing_excludes():
    """Hatch's wheel ships every file of the ``gmkit`` package that is not ignored."""
    wheel = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]
    assert wheel["targets"]["wheel"]["packages"] == ["gmkit"]
    assert not {"exclude", "only-include", "artifacts"} & set(wheel) - {"targets"}
    static = ROOT / "gmkit" / "widgets" / "static"
    for name in BROWSER_FILES:
        assert (static / name).stat().st_size > 0, name
    ignored = [
        line.strip()
        for line in (ROOT / ".gitignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for name in BROWSER_FILES:
        path = f"gmkit/widgets/static/{name}"
        assert not any(fnmatch(path, p) or fnmatch(name, p) for p in ignored), (path, ignored)


def test_the_wheel_holds_the_browser_files(tmp_path):
    builders = pytest.importorskip("hatchling.builders.wheel", reason="hatchling not installed")
    built = next(
        builders.WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=["standard"])
    )
    with zipfile.ZipFile(built) as wheel:
        names = set(wheel.namelist())
    for name in BROWSER_FILES:
        assert f"gmkit/widgets/static/{name}" in names
    for name in ("index.html.j2", "conf.json"):  # gmkit's Voila template (no CDN)
        assert f"gmkit/_jupyter/voila/templates/gmkit/{name}" in names


def test_the_license_file_is_the_one_pyproject_names():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"]
    assert declared == {"text": "MIT"}
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 gmkit contributors" in text
