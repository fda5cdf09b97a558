"""Necromunda (1st ed., seed 000): its parts, one entry (the entry point ``necromunda``)."""

from gmkit.games._registry import Game, OddsEngine, Simulation
from gmkit.messages import Message
from gmkit.odds._necromunda import necromunda_curve, necromunda_odds
from gmkit.odds._necromunda_tables import necromunda_tables
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems._catalogs import DATA
from gmkit.systems.necromunda import SYSTEM
from gmkit.systems.necromunda._acting import TURN_RULES
from gmkit.systems.necromunda._offers import OFFERS
from gmkit.systems.necromunda._options import NecromundaOptions
from gmkit.systems.necromunda._pacing import NECROMUNDA

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

__all__ = [
    "GAME",
]
