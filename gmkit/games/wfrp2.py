"""Warhammer Fantasy Roleplay 2nd ed. (seed 002): its parts, one entry."""

from gmkit.games.registry import Game, OddsEngine, Simulation
from gmkit.messages import Message
from gmkit.odds.wfrp2 import wfrp2_curve, wfrp2_odds
from gmkit.sheets.wfrp2 import WFRP2Character
from gmkit.simulate.pool import pool_tables
from gmkit.systems.turns import WFRP2
from gmkit.systems.wfrp2 import SYSTEM
from gmkit.systems.wfrp2.acting import TURN_RULES
from gmkit.systems.wfrp2.offers import OFFERS
from gmkit.systems.wfrp2.options import WFRP2Options

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
    simulation=Simulation(pool_tables, 10, (Message("simulate.note.wfrp2"),)),
    acting=TURN_RULES,
)
