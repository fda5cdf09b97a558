"""A game's rules load alone: importing a game's rules module, in a fresh interpreter, loads
nothing above the rules' world (the encounter, the store, the widgets, the forms, the seats,
the simulation, the servers) and not pandas; asking for a game's rules by its id loads that
game's entry alone. Duel, installed as a package of its own, likewise."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gmkit.plugins import BUILTIN

RULES = (
    "gmkit.systems.necromunda",
    "gmkit.systems.dark_heresy",
    "gmkit.systems.deathwatch",
    "gmkit.systems.wfrp2",
    "gmkit.systems.wfb6",
)
ABOVE = (
    "gmkit.encounter",
    "gmkit.store",  # store_base, store_check, store_records too
    "gmkit.widgets",
    "gmkit._forms",
    "gmkit.seats",
    "gmkit.simulate",
    "gmkit._serving",
    "pandas",
)


def loaded(code: str, path: Path | None = None) -> list[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(path), env.get("PYTHONPATH"))))
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=env,
    )
    found: list[str] = json.loads(done.stdout.splitlines()[-1])
    return found


def above(found: list[str]) -> list[str]:
    return [name for name in found if name == "pandas" or name.startswith(ABOVE)]


def test_the_check_sees_what_is_loaded():
    found = loaded("import gmkit.encounter")
    assert "gmkit.encounter" in above(found)
    assert "gmkit.store" in above(found)


@pytest.mark.parametrize("module", RULES)
def test_a_games_rules_load_nothing_above_them(module):
    found = loaded(f"import {module}")
    assert module in found
    assert above(found) == []
    assert [name for name in found if name.startswith("gmkit.games")] == []  # nor any entry


@pytest.mark.parametrize("game", [name for name, _ in BUILTIN])
def test_asking_for_a_games_rules_loads_that_game_alone(game):
    found = loaded(f"from gmkit.systems import system\nsystem({game!r})")
    entries = {name for name in found if name.startswith("gmkit.games.")}
    assert entries == {f"gmkit.games.{game}", "gmkit.games._registry"}
    assert above(found) == []


def test_duels_rules_load_nothing_above_them(duel_site):
    found = loaded("import gmkit_duel.rules", duel_site)
    assert "gmkit_duel.rules" in found
    assert above(found) == []
    found = loaded("from gmkit.systems import system\nsystem('duel')", duel_site)
    assert [name for name in found if name.startswith("gmkit.games.")] == ["gmkit.games._registry"]
    assert above(found) == []
