"""WFB 6e's conditions (seed 003), declared: a model taken out is ``dead`` (out of the fight:
the encounter passes over it). Seed 003 gives the shooting phase only: no condition restricts
an action (fleeing, panic and the rest are the GM's notes)."""

from __future__ import annotations

from gmkit.systems._conditions import ConditionBook, declared, kind

GAME = "wfb6"
BOOK: ConditionBook = declared(GAME, (kind(GAME, "dead", fallen=True),))
"""WFB 6e's conditions."""

__all__ = ["BOOK", "GAME"]
