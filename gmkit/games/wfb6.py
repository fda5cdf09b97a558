"""Warhammer Fantasy Battle 6th ed. (seed 003): its parts, one entry (the entry point ``wfb6``)."""

from gmkit.games._registry import Game, OddsEngine, Simulation, Table
from gmkit.messages import Message
from gmkit.odds._wfb6 import wfb6_curve, wfb6_odds
from gmkit.odds.pool_tables import pool_tables
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.systems._catalogs import DATA
from gmkit.systems.wfb6 import SYSTEM
from gmkit.systems.wfb6._offers import OFFERS
from gmkit.systems.wfb6._options import WFB6Options
from gmkit.systems.wfb6._pacing import WFB6
from gmkit.systems.wfb6._table import alone, wfb6_table, wfb6_troop_types

GAME = Game(
    id="wfb6",
    title=Message("games.title.wfb6"),
    sheet=WFB6Character,
    rules=SYSTEM,
    options=WFB6Options,
    offers=OFFERS,
    turns=WFB6,
    unit="cm",
    odds=OddsEngine(wfb6_odds, wfb6_curve),
    simulation=Simulation(pool_tables, 20, (Message("simulate.note.wfb6"),), floor=1, alone=alone),
    table=Table(wfb6_troop_types, wfb6_table),
    data=DATA / "wfb6",
)

__all__ = [
    "GAME",
]
