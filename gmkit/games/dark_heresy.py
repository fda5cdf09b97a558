"""Dark Heresy (1st ed., with the house rules of seed 001): its parts, one entry (the entry point
``dark_heresy``)."""

from gmkit.games.registry import FastEngine, Game, OddsEngine, Simulation
from gmkit.messages import Message
from gmkit.odds.imperial import imperial_curve, imperial_odds
from gmkit.odds.imperial_float import fast_imperial_curve, fast_imperial_odds
from gmkit.odds.pool_tables import pool_tables
from gmkit.sheets.dark_heresy import DarkHeresyCharacter
from gmkit.systems.catalogs import DATA
from gmkit.systems.dark_heresy import SYSTEM
from gmkit.systems.imperial.acting import DARK_HERESY as TURN_RULES
from gmkit.systems.imperial.health import imperial_health
from gmkit.systems.imperial.offers import DARK_HERESY
from gmkit.systems.imperial.options import DarkHeresyOptions
from gmkit.systems.imperial.pacing import FORTY_K

GAME = Game(
    id="dark_heresy",
    title=Message("games.title.dark_heresy"),
    sheet=DarkHeresyCharacter,
    rules=SYSTEM,
    options=DarkHeresyOptions,
    offers=DARK_HERESY,
    turns=FORTY_K,
    acting=TURN_RULES,
    unit="m",
    odds=OddsEngine(imperial_odds, imperial_curve),
    fast=FastEngine(fast_imperial_odds, fast_imperial_curve),
    simulation=Simulation(pool_tables, 10, (Message("simulate.note.dark_heresy"),), reactions=True),
    health=imperial_health,
    data=DATA / "dark_heresy",
)
