"""An attack's request for the rules, built from the encounter's state alone: the one builder
the encounter's commands (``attack``, ``try_attack``, ``dice_needed``), the panels and the
situation's default attack use, so the odds shown, the preview and the roll all read the same
request.

What the state adds to the two sheets: their conditions (``surprised`` too, in the first round,
for one the start named), their counters (wounds lost in the D6 games, ammunition spent...)
and the reaction pools they spent this round; ``options`` given win over these. With units
on the table (a game whose registry entry has a ``table``), the game's table around the shot
(WFB: ``options["situation"]``, unless given) and the sheets as members of their units; the
``distance`` measured between the two, unless given. The attacker's weapons hold what the
encounter counted they have left (``loaded`` less the rounds fired since the sheet was set:
``with_rounds_spent``), so a clip runs dry and Reload fills it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gmkit.encounter._effects import with_rounds_spent
from gmkit.encounter._state import Combatant, EncounterState
from gmkit.errors import RulesError
from gmkit.games import game as find_game
from gmkit.messages import Message
from gmkit.systems.base import AttackRequest, Standing


def attack_request(
    state: EncounterState,
    attacker: Combatant,
    weapon: str,
    target: Combatant,
    *,
    action: str = "standard_attack",
    mode: str = "single",
    distance: float | None = None,
    called_location: str | None = None,
    circumstances: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
) -> AttackRequest:
    """The request of ``attacker``'s attack on ``target`` in ``state`` (see the module
    docstring); a removed combatant is refused, by name."""
    for who in (attacker, target):
        if who.removed:
            raise RulesError(Message("commands.removed", name=who.name))
    given = dict(options or {})
    standings = {}
    for role, who in (("attacker", attacker), ("target", target)):
        standings[f"{role}_standing"] = Standing.of(
            given.pop(f"{role}_conditions", conditions_of(state, who)),
            given.pop(f"{role}_counters", who.counters),
            given.pop(f"{role}_reactions", who.reactions),
        )
    attacking, targeted = with_rounds_spent(attacker.sheet, attacker.counters), target.sheet
    table = find_game(state.game).table
    if table is not None and state.units and "situation" not in given:
        attacking, targeted, situation = table.situation(state, attacker, target)
        if distance is not None:
            situation = dataclasses.replace(situation, distance_cm=distance)
        distance = situation.distance_cm
        given["situation"] = situation
    return AttackRequest(
        attacker=attacking,
        weapon=weapon,
        target=targeted,
        action=action,
        mode=mode,
        distance=distance,
        called_location=called_location,
        circumstances=dict(circumstances or {}),
        options=given,
        round=int(given.pop("round", state.round)),
        **standings,
    )


def conditions_of(state: EncounterState, combatant: Combatant) -> list[str]:
    """The conditions a request carries for ``combatant``: its own, and ``surprised`` in the
    first round for one the start named."""
    names = set(combatant.conditions)
    if combatant.surprised and state.round == 1:
        names.add("surprised")
    return sorted(names)


__all__ = ["attack_request", "conditions_of"]
