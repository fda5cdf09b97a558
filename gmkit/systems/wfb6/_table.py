"""WFB 6e's table hook (``Game.table``): the encounter's units and distances read into the rules'
:class:`~gmkit.systems.wfb6.Situation` for one shot: every unit with its models left and its
distances from the target and the shooter, the distance between the two, whether the target's
unit is in sight or engaged; and the shooter's and target's sheets as members of the units the
encounter says they are in. The encounter's attack command passes it
(:mod:`gmkit.encounter._requests`). Where the texts are silent: see :mod:`gmkit.encounter._units`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gmkit.sheets._wfb6 import WFB6Character, troop_types
from gmkit.sheets.base import Sheet
from gmkit.systems._table import keys, measured, models_left, unit_of
from gmkit.systems.health import default_health
from gmkit.systems.wfb6._battlefield import Situation, UnitOnTable

if TYPE_CHECKING:
    from gmkit.encounter._state import Combatant, EncounterState, Unit


def wfb6_troop_types() -> Mapping[str, str]:
    """WFB's troop types (id -> English name), as ``troop_types.yaml`` has them."""
    return {kind.id: kind.name for kind in troop_types().values()}


def alone(sheet: Sheet, distance_cm: float) -> tuple[Sheet, Mapping[str, object]]:
    """The simulation's hook (``Simulation.alone``): a model standing alone on the table at
    ``distance_cm`` from its shooter (rank and file and champions as a unit of one model; a
    character who joined a unit as a lone character): its sheet, and the shot's situation."""
    model = sheet
    if isinstance(model, WFB6Character) and model.role == "character" and model.unit:
        model = model.edit(unit="")
    where = UnitOnTable.of([model], shooter_distance_cm=distance_cm)  # type: ignore[list-item]
    return model, {"situation": Situation((where,), distance_cm=distance_cm)}


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
    if found is None or found.removed or default_health(found.sheet, found.counters)[0] <= 0:
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


__all__ = ["alone", "wfb6_table", "wfb6_troop_types"]
