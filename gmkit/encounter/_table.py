"""The table a shot reads (mass-battle games: WFB 6e): the units the GM set and the distances
measured (:mod:`gmkit.encounter._units`), read into the game's rules by its table hook
(``Game.table``: WFB 6e's :func:`~gmkit.systems.wfb6._table.wfb6_table`). Here: a game's troop
types and their names, and the generic reading of the table (:mod:`gmkit.systems._table`:
who is in which unit, the distances measured), which this module passes on.
"""

from __future__ import annotations

from collections.abc import Mapping

from gmkit.games import game as find_game
from gmkit.messages import Message
from gmkit.systems._table import keys, measured, models_left, role, sheet_unit, unit_of


def table_troop_types(game: str | None) -> Mapping[str, str] | None:
    """The troop types of ``game``'s units; None for a game whose fights hold none."""
    table = find_game(game).table if game else None
    return table.troop_types() if table is not None else None


def troop_type_term(game: str | None, troop_type: str) -> Message:
    """A troop type's name in the reader's language (its id where the game knows none)."""
    known = table_troop_types(game) or {}
    return Message.term(f"{game}.troop_type.{troop_type}", known.get(troop_type, troop_type))


__all__ = [
    "keys",
    "measured",
    "models_left",
    "role",
    "sheet_unit",
    "table_troop_types",
    "troop_type_term",
    "unit_of",
]
