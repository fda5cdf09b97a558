"""Dark Heresy (1st ed., with the house rules of seed 001): its parts, one entry."""

from gmkit.games.registry import Game, OddsEngine, Simulation
from gmkit.messages import Message
from gmkit.odds.imperial import imperial_curve, imperial_odds
from gmkit.sheets.dark_heresy import DarkHeresyCharacter
from gmkit.simulate.pool import pool_tables
from gmkit.systems.dark_heresy import SYSTEM
from gmkit.systems.imperial.acting import DARK_HERESY as TURN_RULES
from gmkit.systems.imperial.offers import DARK_HERESY
from gmkit.systems.imperial.options import DarkHeresyOptions
from gmkit.systems.turns import FORTY_K

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
    simulation=Simulation(pool_tables, 10, (Message("simulate.note.dark_heresy"),)),
)
