"""Warhammer Fantasy Roleplay 2nd ed. (seed 002): its parts, one entry (the entry point
``wfrp2``)."""

from gmkit.games._registry import FastEngine, Game, OddsEngine, Simulation
from gmkit.messages import Message
from gmkit.odds._wfrp2 import wfrp2_curve, wfrp2_odds
from gmkit.odds._wfrp2_float import fast_wfrp2_curve, fast_wfrp2_odds
from gmkit.odds.pool_tables import pool_tables
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems._catalogs import DATA
from gmkit.systems.wfrp2 import SYSTEM
from gmkit.systems.wfrp2._acting import TURN_RULES
from gmkit.systems.wfrp2._health import wfrp2_health
from gmkit.systems.wfrp2._offers import OFFERS
from gmkit.systems.wfrp2._options import WFRP2Options
from gmkit.systems.wfrp2._pacing import WFRP2

GAME = Game(
    id="wfrp2",
    title=Message("games.title.wfrp2"),
    sheet=WFRP2Character,
    rules=SYSTEM,
    options=WFRP2Options,
    offers=OFFERS,
    turns=WFRP2,
    unit="m",
    odds=OddsEngine(wfrp2_odds, wfrp2_curve),
    fast=FastEngine(fast_wfrp2_odds, fast_wfrp2_curve),
    simulation=Simulation(pool_tables, 10, (Message("simulate.note.wfrp2"),), reactions=True),
    acting=TURN_RULES,
    health=wfrp2_health,
    data=DATA / "wfrp2",
)

__all__ = [
    "GAME",
]
