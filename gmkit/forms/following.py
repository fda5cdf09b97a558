"""Whom the attack form attacks with when it follows the turn (the dashboard's panel).

In a game played by initiative that is the current combatant. In a game where a whole side
acts (Necromunda, WFB) it is a fighter of that side: the first still in the fight who has not
had its go this phase (:attr:`Encounter.acted`), whom no condition holds back (pinned, down)
and who has a weapon the rules use; after a shot, the next such fighter, or the shooter
stays when nobody is left to shoot. The turn is named by a key (:func:`turn_key`), so the
form knows when it has passed.
"""

from __future__ import annotations

from gmkit.encounter import Encounter
from gmkit.encounter.state import EncounterState
from gmkit.forms.offered import out_of_the_fight
from gmkit.games import game as find_game
from gmkit.systems import choices

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
    """A sides game: the fighter of the side in play to attack with (see the module
    docstring); ``armed_only``: only one who may still shoot, else None."""
    state = encounter.state
    side = [c for c in state.present if c.side == state.current_side and not out_of_the_fight(c)]
    acted = encounter.acted
    rules = find_game(encounter.game).acting
    free = [c for c in side if c.id not in acted and not rules.restrictions(c.conditions)]
    armed = [c for c in free if choices.weapons(encounter.game, c.sheet)]
    chosen = armed if armed_only else (armed or free or side)
    return chosen[0].id if chosen else None
