"""Whom the attack form attacks with when it follows the turn (the dashboard's panel).

Whoever acts now, as the encounter's situation names it (``Encounter.situation.actor``: the
current combatant, or in a game where a whole side acts the first fighter of that side still
in the fight who has not had its go, whom no condition holds back and who has a weapon); after
a shot, the next such fighter, or the shooter stays when nobody is left to shoot. The turn is
named by a key (:func:`turn_key`), so the form knows when it has passed.
"""

from __future__ import annotations

from gmkit.encounter import Encounter
from gmkit.encounter._state import EncounterState
from gmkit.systems import _choices as choices

SIDES = "side:"  # the start of a sides game's turn key

__all__ = ["SIDES", "next_of_side", "turn_key"]


def turn_key(state: EncounterState) -> str | None:
    """Who acts now: the current combatant's id; in a sides game the turn's key (round, side,
    phase: ``side:2:Empire:1``); None before the start."""
    if state.current is not None:
        return state.current.id
    if not state.started or state.current_side is None:
        return None
    return f"{SIDES}{state.round}:{state.current_side}:{state.phase}"


def next_of_side(encounter: Encounter, *, armed_only: bool = False) -> str | None:
    """A sides game: the fighter of the side in play to attack with: the situation's actor
    (:attr:`Encounter.situation`); ``armed_only``: only one who may still shoot, else None."""
    actor = encounter.situation.actor
    if actor is None:
        return None
    if armed_only:
        combatant = encounter.state.combatants[actor]
        if actor in encounter.acted or not choices.weapons(encounter.game, combatant.sheet):
            return None
    return actor
