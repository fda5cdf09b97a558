"""Who fights in a simulation, with what, and the requests their attacks are computed from.

:func:`prepare_fight` reads an :class:`~gmkit.encounter.Encounter` (or builds one in memory from
sheets by side): the combatants present, their sides, conditions and counters, in the
encounter's order (initiative order once rolled, else the order they were added), and for each
the attacks the panel would offer (:mod:`gmkit.systems._choices`: each weapon in each mode, with
the game's default action for that mode). Requests are built by the encounter itself
(``Encounter.attack_request``), so the odds see what an attack at the table would.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from gmkit.encounter import Encounter
from gmkit.encounter._state import Combatant
from gmkit.errors import GmkitError
from gmkit.games import game as find_game
from gmkit.odds._fights import Fight, Fighter, Option
from gmkit.sheets.base import Sheet
from gmkit.systems import _choices as choices

_OPTIONS: dict[tuple[str, str], tuple[Option, ...]] = {}


def _as_encounter(source: Any) -> Encounter:
    """An encounter as given, or one built in memory from sheets by side (a mapping, or a
    roster with ``sides``)."""
    if isinstance(source, Encounter):
        return source
    by_side = getattr(source, "sides", source)
    if not isinstance(by_side, Mapping) or not by_side:
        raise GmkitError(
            "simulate: give an Encounter, or the sheets of each side as {side: [sheets]}"
        )
    sheets: list[tuple[str, Sheet]] = []
    for side, members in by_side.items():
        if isinstance(members, Sheet):
            members = [members]
        sheets.extend((str(side), sheet) for sheet in members)
    games = {sheet.game for _, sheet in sheets}
    if len(games) != 1:
        raise GmkitError(f"simulate: the sheets must be of one game (got {sorted(games)})")
    encounter = Encounter(games.pop(), name="simulation")
    for side, sheet in sheets:
        encounter.add(sheet, side=side)
    return encounter


def _ordered(encounter: Encounter) -> list[Combatant]:
    state = encounter.state
    present = {c.id: c for c in state.present}
    ordered = [present.pop(ident) for ident in state.order if ident in present]
    return ordered + list(present.values())


def _side_order(encounter: Encounter, combatants: Iterable[Combatant]) -> tuple[str, ...]:
    found: list[str] = [side for side in encounter.state.sides]
    for combatant in combatants:
        if combatant.side not in found:
            found.append(combatant.side)
    return tuple(found)


def rules_key(sheet: Sheet) -> dict[str, Any]:
    """What the rules read of a sheet: all of it but its name, side and notes (copies of one
    profile share their odds)."""
    data = sheet.model_dump(mode="json")
    for text in ("name", "side", "notes"):
        data.pop(text, None)
    return data


def _default_action(game: str, sheet: Sheet, weapon: str, mode: str) -> str:
    """``choices.default_action`` among the actions legal with ``weapon`` in ``mode`` ("": no
    action is, and the panel does not offer the mode), asking the rules' refusal only of the
    candidates it names: the game's pick among every action not yet refused is the pick among
    the legal ones once the rules allow it (a pick is the first preferred action offered, else
    the first offered: the legal ones are among those not refused, in the same order)."""
    rules = choices.offers(game)
    remaining = [choice.id for choice in rules.actions()]
    while remaining:
        picked = choices.default_action(game, mode, remaining)
        if picked not in remaining:  # a game whose pick is not of those offered: ask all
            refused = choices.refused_actions(game, sheet, weapon, mode)
            return choices.default_action(game, mode, [a for a, why in refused.items() if not why])
        if not rules.refusal(sheet, weapon, mode, picked, {}):
            return picked
        remaining.remove(picked)
    return ""


def options_of(game: str, sheet: Sheet) -> tuple[Option, ...]:
    """The attacks ``sheet`` can make, as an attack panel offers them: each weapon
    (``choices.weapons``) in each mode with a legal action, with the game's default action."""
    key = (game, json.dumps(rules_key(sheet), sort_keys=True))
    found = _OPTIONS.get(key)
    if found is not None:
        return found
    made: list[Option] = []
    for weapon in choices.weapons(game, sheet):
        for mode in choices.offers(game).modes(sheet, weapon):
            action = _default_action(game, sheet, weapon, mode)
            if action:
                made.append(Option(weapon, mode, action))
    if len(_OPTIONS) > 4096:
        _OPTIONS.clear()
    _OPTIONS[key] = found = tuple(made)
    return found


def prepare_fight(source: Any, distance: float | None = None) -> Fight:
    """The fight of ``source`` (an encounter, or sheets by side)."""
    encounter = _as_encounter(source)
    game = encounter.game
    combatants = _ordered(encounter)
    sides = _side_order(encounter, combatants)
    if len({c.side for c in combatants}) < 2:
        raise GmkitError("simulate: the fight needs combatants on at least two sides")
    entry = find_game(game)
    if distance is None:
        distance = entry.simulation.distance if entry.simulation is not None else 0.0
    fighters = []
    for index, combatant in enumerate(combatants):
        conditions = tuple(sorted(combatant.conditions))
        counters = dict(combatant.counters)
        key = json.dumps([rules_key(combatant.sheet), conditions, counters], sort_keys=True)
        fighters.append(
            Fighter(
                index,
                combatant.id,
                combatant.name,
                combatant.side,
                combatant.sheet,
                conditions,
                counters,
                key,
                options_of(game, combatant.sheet),
            )
        )
    fight = Fight(game, entry, encounter, tuple(fighters), sides, float(distance))
    for fighter in fighters:
        if not fighter.options:
            fight.notes.append(f"{fighter.name} has no attack the rules offer: it never attacks")
    return fight
