"""Dark Heresy (1st ed., with the house rules of seed 001): its parts, one entry (the entry point
``dark_heresy``)."""

from gmkit.games._registry import FastEngine, Game, OddsEngine, Simulation
from gmkit.messages import Message
from gmkit.odds._imperial import imperial_curve, imperial_odds
from gmkit.odds._imperial_float import fast_imperial_curve, fast_imperial_odds
from gmkit.odds.pool_tables import pool_tables
from gmkit.sheets._dark_heresy import DarkHeresyCharacter
from gmkit.systems._catalogs import DATA
from gmkit.systems._imperial.acting import DARK_HERESY as TURN_RULES
from gmkit.systems._imperial.health import imperial_health
from gmkit.systems._imperial.offers import DARK_HERESY
from gmkit.systems._imperial.options import DarkHeresyOptions
from gmkit.systems._imperial.pacing import FORTY_K
from gmkit.systems.dark_heresy import SYSTEM

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

__all__ = [
    "GAME",
]
