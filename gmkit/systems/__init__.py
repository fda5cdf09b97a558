"""The rules of each game (pure: no widgets, no files but the data tables, no clock).

``system("necromunda")`` gives a game's rules behind the :class:`~gmkit.systems.base.GameSystem`
protocol (its registry entry's ``rules``: :mod:`gmkit.games`, found by id through
:mod:`gmkit.plugins`). Tables and catalogs are data
files under ``systems/data/<game>/`` that a GM can extend or override
(:mod:`gmkit.systems._catalogs`). Families share their mechanics: :mod:`gmkit.systems._percentile`
(the d100 games) and :mod:`gmkit.systems._sixes` (the D6 games).
"""

from __future__ import annotations

from gmkit.plugins import entry
from gmkit.systems.base import GameSystem


def system(game: str) -> GameSystem:
    """The rules of ``game`` (its registry entry's)."""
    return entry(game).rules


__all__ = [
    "GameSystem",
    "system",
]
