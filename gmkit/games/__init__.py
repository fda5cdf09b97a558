"""The games gmkit plays, one registry entry each (see :mod:`gmkit.games.registry`).

>>> from gmkit.games import game
>>> game("necromunda").unit
'in'
"""

from gmkit.games.registry import (
    Game,
    OddsEngine,
    Simulation,
    Table,
    game,
    game_ids,
    games,
    register,
    unregister,
)

__all__ = [
    "Game",
    "OddsEngine",
    "Simulation",
    "Table",
    "game",
    "game_ids",
    "games",
    "register",
    "unregister",
]
