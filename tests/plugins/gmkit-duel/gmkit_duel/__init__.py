"""Duel: a toy sixth game for gmkit, a package of its own with one entry point
(``duel = "gmkit_duel:GAME"`` in the group ``gmkit.games``).

Its parts, each the protocol gmkit's layers ask for: a sheet model and how hurt a sheet is
(:mod:`gmkit_duel.rules`), the rules (resolve_attack), an options model, the offers a panel
shows, the pacing (sides, one strike a turn), the rules of the turn beyond strikes
(:mod:`gmkit_duel.acting`), the exact odds (:mod:`gmkit_duel.odds`), the simulation (gmkit's
tables of pools of wounds), its message catalogs and its data files. Nothing in gmkit names it.
"""

from gmkit.games import Game, OddsEngine, Simulation
from gmkit.messages import Message
from gmkit.odds.pool_tables import pool_tables
from gmkit_duel.acting import SIDES, DuelTurns
from gmkit_duel.catalogs import DATA, LOCALE
from gmkit_duel.odds import duel_odds
from gmkit_duel.rules import (
    GAME_ID,
    STRIKE,
    TURNS,
    Duellist,
    DuelOffers,
    DuelOptions,
    DuelRules,
    duel_health,
    needed,
)

GAME = Game(
    id=GAME_ID,
    title=Message("duel.title"),
    sheet=Duellist,
    rules=DuelRules(),
    options=DuelOptions,
    offers=DuelOffers(),
    turns=TURNS,
    unit="paces",
    odds=OddsEngine(duel_odds),
    # a duellist at 0 wounds is out (floor 1); foes ten paces apart
    simulation=Simulation(pool_tables, 10, (Message("duel.simulation_note"),), floor=1),
    acting=DuelTurns(),
    health=duel_health,
    catalogs=LOCALE,
    data=DATA,
)

__all__ = [
    "DATA",
    "GAME",
    "GAME_ID",
    "LOCALE",
    "SIDES",
    "STRIKE",
    "TURNS",
    "DuelOffers",
    "DuelOptions",
    "DuelRules",
    "DuelTurns",
    "Duellist",
    "duel_health",
    "duel_odds",
    "needed",
]
