"""Deathwatch (seed 004): its parts, one entry (the entry point ``deathwatch``)."""

from gmkit.games._registry import FastEngine, Game, OddsEngine, Simulation
from gmkit.messages import Message
from gmkit.odds._imperial import imperial_curve, imperial_odds
from gmkit.odds._imperial_float import fast_imperial_curve, fast_imperial_odds
from gmkit.odds.pool_tables import pool_tables
from gmkit.sheets._deathwatch import DeathwatchCharacter
from gmkit.systems._catalogs import DATA
from gmkit.systems._imperial.acting import DEATHWATCH as TURN_RULES
from gmkit.systems._imperial.health import imperial_health
from gmkit.systems._imperial.offers import DEATHWATCH
from gmkit.systems._imperial.options import DeathwatchOptions
from gmkit.systems._imperial.pacing import FORTY_K
from gmkit.systems.deathwatch import SYSTEM

GAME = Game(
    id="deathwatch",
    title=Message("games.title.deathwatch"),
    sheet=DeathwatchCharacter,
    rules=SYSTEM,
    options=DeathwatchOptions,
    offers=DEATHWATCH,
    turns=FORTY_K,
    acting=TURN_RULES,
    unit="m",
    odds=OddsEngine(imperial_odds, imperial_curve),
    fast=FastEngine(fast_imperial_odds, fast_imperial_curve),
    simulation=Simulation(pool_tables, 10, (Message("simulate.note.deathwatch"),), reactions=True),
    health=imperial_health,
    data=DATA / "deathwatch",
)

__all__ = [
    "GAME",
]
