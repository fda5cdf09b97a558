"""The table a shot reads (mass-battle games: WFB 6e): the units the GM set and the distances
measured (:mod:`gmkit.encounter.units`), read into the game's rules.

:func:`wfb6_table` builds the WFB rules' :class:`~gmkit.systems.wfb6.Situation` for one shot:
every unit with its models left and its distances from the target and the shooter, the
distance between the two, whether the target's unit is in sight or engaged; and the shooter's
and target's sheets as members of the units the encounter says they are in. The attack command
passes it (:mod:`gmkit.encounter.combat`). Where the texts are silent: see
:mod:`gmkit.encounter.units`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from gmkit.encounter.state import Combatant, EncounterState, Unit
from gmkit.games import game as find_game
from gmkit.messages import Message
from gmkit.sheets.wfb6 import WFB6Character, troop_types
from gmkit.systems.health import health
from gmkit.systems.wfb6 import Situation, UnitOnTable


def wfb6_troop_types() -> Mapping[str, str]:
    """WFB's troop types (id -> English name), as ``troop_types.yaml`` has them."""
    return {kind.id: kind.name for kind in troop_types().values()}


def table_troop_types(game: str | None) -> Mapping[str, str] | None:
    """The troop types of ``game``'s units; None for a game whose fights hold none."""
    table = find_game(game).table if game else None
    return table.troop_types() if table is not None else None


def troop_type_term(game: str | None, troop_type: str) -> Message:
    """A troop type's name in the reader's language (its id where the game knows none)."""
    known = table_troop_types(game) or {}
    return Message.term(f"{game}.troop_type.{troop_type}", known.get(troop_type, troop_type))


def role(combatant: Combatant) -> str:
    return str(getattr(combatant.sheet, "role", ""))


def sheet_unit(combatant: Combatant) -> str:
    return str(getattr(combatant.sheet, "unit", ""))


def unit_of(state: EncounterState, combatant: Combatant) -> Unit | None:
    """The unit ``combatant`` is in, as the encounter holds it (see the module docstring)."""
    for unit in state.units.values():
        if combatant.id in unit.characters or combatant.id == unit.trooper:
            return unit
    if role(combatant) in ("rank and file", "champion"):
        return state.units.get(sheet_unit(combatant))
    return None


def keys(state: EncounterState, end: str) -> tuple[str, ...]:
    """The names a distance from ``end`` may be measured under (see the module docstring)."""
    held = state.units.get(end)
    if held is not None:
        return (end, held.trooper) if held.trooper else (end,)
    unit = unit_of(state, state.combatants[end])
    if unit is None:
        return (end,)
    return tuple(key for key in (end, unit.name, unit.trooper) if key)


def measured(state: EncounterState, a: Iterable[str], b: Iterable[str]) -> float | None:
    """The first distance measured between one of ``a`` and one of ``b``, or None."""
    ends = tuple(b)
    for one in a:
        for other in ends:
            if one != other and (found := state.distance(one, other)) is not None:
                return found
    return None


def models_left(state: EncounterState, unit: Unit) -> int:
    """The rank and file ``unit`` has left: as set, less one for every ``W`` wounds its
    trooper lost since."""
    model = state.combatants.get(unit.trooper) if unit.trooper else None
    if model is None:
        return unit.rank_and_file
    wounds = int(getattr(model.sheet, "W", 1))
    return unit.rank_and_file_left(model.counters.get("damage", 0), wounds)


def _as_member(state: EncounterState, combatant: Combatant) -> WFB6Character:
    """The combatant's sheet with the unit the encounter says it is in."""
    sheet = combatant.sheet
    if not isinstance(sheet, WFB6Character):
        return sheet  # type: ignore[return-value]  # the rules refuse it by name
    unit = unit_of(state, combatant)
    wanted = unit.name if unit is not None else ("" if sheet.role == "character" else sheet.unit)
    return sheet if sheet.unit == wanted else sheet.edit(unit=wanted)


def _standing(state: EncounterState, ident: str) -> Combatant | None:
    found = state.combatants.get(ident)
    if found is None or found.removed or health(found.sheet, found.counters)[0] <= 0:
        return None
    return found


def _on_table(
    state: EncounterState, unit: Unit, shooter: tuple[str, ...], target: tuple[str, ...]
) -> UnitOnTable:
    model = state.combatants.get(unit.trooper) if unit.trooper else None
    left = models_left(state, unit)
    joined = (found for ident in unit.characters if (found := _standing(state, ident)))
    ends = keys(state, unit.name)
    return UnitOnTable(
        name=unit.name,
        side=unit.side,
        rank_and_file=left,
        champions=unit.champions,
        characters=tuple(_as_member(state, c) for c in joined),
        troop_type=unit.troop_type,
        large_target=unit.large_target,
        trooper=_as_member(state, model) if model is not None else None,
        distance_cm=None if unit.name in target else measured(state, target, ends),
        shooter_distance_cm=measured(state, shooter, ends),
        engaged=unit.engaged,
        visible=unit.visible,
    )


def wfb6_table(
    state: EncounterState, attacker: Combatant, target: Combatant
) -> tuple[WFB6Character, WFB6Character, Situation]:
    """The shooter's and target's sheets as members of their units, and the shot's situation:
    every unit on the table with its models left and its distances from the target and the
    shooter; the distance between them; whether the target's unit is in sight and engaged."""
    shooter, aimed = keys(state, attacker.id), keys(state, target.id)
    units = tuple(_on_table(state, unit, shooter, aimed) for unit in state.units.values())
    home = unit_of(state, target)
    situation = Situation(
        units,
        distance_cm=measured(state, shooter, aimed),
        in_sight=home.visible if home is not None else True,
        engaged=home.engaged if home is not None else False,
        from_table=True,
    )
    return _as_member(state, attacker), _as_member(state, target), situation


Table = Callable[
    [EncounterState, Combatant, Combatant], tuple[WFB6Character, WFB6Character, Situation]
]

__all__ = [
    "keys",
    "measured",
    "models_left",
    "role",
    "sheet_unit",
    "table_troop_types",
    "troop_type_term",
    "unit_of",
    "wfb6_table",
    "wfb6_troop_types",
]
