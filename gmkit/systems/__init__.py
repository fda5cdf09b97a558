"""The rules of each game (pure: no widgets, no files but the data tables, no clock).

``system("necromunda")`` gives a game's rules behind the :class:`~gmkit.systems.base.GameSystem`
protocol. Tables and catalogs are data files under ``systems/data/<game>/`` that a GM can
extend or override (:mod:`gmkit.systems.catalogs`). Families share their mechanics:
:mod:`gmkit.systems.percentile` (the d100 games) and :mod:`gmkit.systems.sixes` (the D6 games).
"""

from __future__ import annotations

from importlib import import_module

from gmkit.errors import GmkitError
from gmkit.systems.base import GameSystem

SYSTEMS: dict[str, str] = {
    "necromunda": "gmkit.systems.necromunda",
    "dark_heresy": "gmkit.systems.dark_heresy",
    "deathwatch": "gmkit.systems.deathwatch",
    "wfrp2": "gmkit.systems.wfrp2",
    "wfb6": "gmkit.systems.wfb6",
}


def system(game: str) -> GameSystem:
    """The rules of ``game``: the module's ``SYSTEM`` object."""
    if game not in SYSTEMS:
        raise GmkitError(f"unknown game {game!r}; known: {', '.join(SYSTEMS)}")
    found: GameSystem = import_module(SYSTEMS[game]).SYSTEM
    return found
