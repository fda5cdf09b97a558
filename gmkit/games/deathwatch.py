"""Deathwatch (seed 004): its parts, one entry (the entry point ``deathwatch``)."""

from gmkit.games.registry import FastEngine, Game, OddsEngine, Simulation
from gmkit.messages import Message
from gmkit.odds.imperial import imperial_curve, imperial_odds
from gmkit.odds.imperial_float import fast_imperial_curve, fast_imperial_odds
from gmkit.odds.pool_tables import pool_tables
from gmkit.sheets.deathwatch import DeathwatchCharacter
from gmkit.systems.catalogs import DATA
from gmkit.systems.deathwatch import SYSTEM
from gmkit.systems.imperial.acting import DEATHWATCH as TURN_RULES
from gmkit.systems.imperial.health import imperial_health
from gmkit.systems.imperial.offers import DEATHWATCH
from gmkit.systems.imperial.options import DeathwatchOptions
from gmkit.systems.imperial.pacing import FORTY_K

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
