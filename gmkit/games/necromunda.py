"""Necromunda (1st ed., seed 000): its parts, one entry."""

from gmkit.games.registry import Game, OddsEngine, Simulation
from gmkit.messages import Message
from gmkit.odds.necromunda import necromunda_curve, necromunda_odds
from gmkit.sheets.necromunda import NecromundaFighter
from gmkit.simulate.necromunda import necromunda_tables
from gmkit.systems.necromunda import SYSTEM
from gmkit.systems.necromunda.acting import TURN_RULES
from gmkit.systems.necromunda.offers import OFFERS
from gmkit.systems.necromunda.options import NecromundaOptions
from gmkit.systems.turns import NECROMUNDA

GAME = Game(
    id="necromunda",
    title=Message("games.title.necromunda"),
    sheet=NecromundaFighter,
    rules=SYSTEM,
    options=NecromundaOptions,
    offers=OFFERS,
    turns=NECROMUNDA,
    unit="in",
    odds=OddsEngine(necromunda_odds, necromunda_curve),
    simulation=Simulation(necromunda_tables, 8, (Message("simulate.note.necromunda"),)),
    acting=TURN_RULES,
)
