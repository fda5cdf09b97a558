"""Deathwatch (seed 004): its parts, one entry."""

from gmkit.games.registry import Game, OddsEngine, Simulation
from gmkit.messages import Message
from gmkit.odds.imperial import imperial_curve, imperial_odds
from gmkit.sheets.deathwatch import DeathwatchCharacter
from gmkit.simulate.pool import pool_tables
from gmkit.systems.deathwatch import SYSTEM
from gmkit.systems.imperial.acting import DEATHWATCH as TURN_RULES
from gmkit.systems.imperial.offers import DEATHWATCH
from gmkit.systems.imperial.options import DeathwatchOptions
from gmkit.systems.turns import FORTY_K

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
    simulation=Simulation(pool_tables, 10, (Message("simulate.note.deathwatch"),)),
)
