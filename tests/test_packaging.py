"""The project's set-up files agree with each other."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

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
    assert data["project"]["scripts"]["gmkit"] == "gmkit.cli:main"


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "scripts/test" in readme
    assert "scripts/test" in ci
