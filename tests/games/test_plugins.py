"""The games' entry points (gmkit/plugins.py): gmkit's own five declared in pyproject.toml and
installed, loaded by the same names when the group lacks them, one game's entry point at a
time, and a package that fails to load named in the error."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from gmkit import plugins
from gmkit.errors import GmkitError
from gmkit.games import game, game_ids

ROOT = Path(__file__).resolve().parents[2]


def test_gmkits_own_entry_points_are_pyprojects():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    assert declared["gmkit.games"] == dict(plugins.BUILTIN)
    installed = {point.name: point.value for point in metadata.entry_points(group=plugins.GROUP)}
    assert {name: installed.get(name) for name, _ in plugins.BUILTIN} == dict(plugins.BUILTIN), (
        "gmkit's install predates its entry points: run scripts/setup (pip install -e .)"
    )


def test_the_five_load_when_the_group_lacks_them():
    code = (
        "from importlib import metadata\n"
        "metadata.entry_points = lambda **kwargs: metadata.EntryPoints(())\n"
        "from gmkit.games import game_ids\n"
        "print(' '.join(game_ids()))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == [name for name, _ in plugins.BUILTIN]


def test_the_games_come_in_the_seeds_order():
    assert game_ids()[:5] == ("necromunda", "dark_heresy", "deathwatch", "wfrp2", "wfb6")
    assert game("wfb6").unit == "cm"


def test_a_package_that_fails_to_load_is_named(monkeypatch):
    broken = metadata.EntryPoint("broken", "gmkit_no_such_package:GAME", plugins.GROUP)
    real = metadata.entry_points
    monkeypatch.setattr(
        plugins.metadata,
        "entry_points",
        lambda **kwargs: metadata.EntryPoints((*real(**kwargs), broken)),
    )
    with pytest.raises(GmkitError, match=r"the game broken \(gmkit_no_such_package:GAME\) could"):
        game("broken")
    with pytest.raises(GmkitError, match="ModuleNotFoundError"):
        game("broken")  # tried again, not remembered as loaded
    assert plugins.loaded("broken") is None


def test_an_unknown_game_names_the_known_ones():
    with pytest.raises(GmkitError, match=r"unknown game 'chess'; known: dark_heresy, deathwatch"):
        game("chess")
