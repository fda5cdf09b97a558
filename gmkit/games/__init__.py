"""The games gmkit plays: a registry entry each, on top of the rules' world (see
:mod:`gmkit.games._registry`). gmkit's five are packages of its own, found like any installed game
through the entry-point group ``gmkit.games`` (:mod:`gmkit.plugins`).

>>> from gmkit.games import game
>>> game("necromunda").unit
'in'
"""

from gmkit.games._registry import (
    FastEngine,
    Game,
    Health,
    OddsEngine,
    Simulation,
    Table,
    game,
    game_ids,
    games,
    health,
    register,
    unregister,
)

__all__ = [
    "FastEngine",
    "Game",
    "Health",
    "OddsEngine",
    "Simulation",
    "Table",
    "game",
    "game_ids",
    "games",
    "health",
    "register",
    "unregister",
]
