"""Necromunda (1st ed., seed 000): its parts, one entry (the entry point ``necromunda``)."""

from gmkit.games.registry import Game, OddsEngine, Simulation
from gmkit.messages import Message
from gmkit.odds.necromunda import necromunda_curve, necromunda_odds
from gmkit.odds.necromunda_tables import necromunda_tables
from gmkit.sheets.necromunda import NecromundaFighter
from gmkit.systems.catalogs import DATA
from gmkit.systems.necromunda import SYSTEM
from gmkit.systems.necromunda.acting import TURN_RULES
from gmkit.systems.necromunda.offers import OFFERS
from gmkit.systems.necromunda.options import NecromundaOptions
from gmkit.systems.necromunda.pacing import NECROMUNDA

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
    data=DATA / "necromunda",
)
