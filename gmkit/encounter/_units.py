"""Units on the table (mass-battle games: WFB 6e): commands, their events and their fold.

A WFB fight's combatants are models (a character, a champion) or a unit's ``trooper`` (one
combatant standing for its rank and file, its sheet their profile, its ``damage`` counter the
wounds they lost). :class:`UnitCommands` holds what no sheet holds, one command one event
(undoable, plain JSON):

- :meth:`UnitCommands.set_unit`: a unit's side, rank and file and champions, troop type (an id
  of ``troop_types.yaml``), whether it is engaged in combat or in sight, the characters that
  joined it (combatant ids) and its trooper. Setting a unit again changes only what is given.
- :meth:`UnitCommands.remove_unit`, :meth:`UnitCommands.set_engaged`.
- :meth:`UnitCommands.set_distance`: what the GM measured between two units or combatants
  (unit names or combatant ids or names), in the game's unit (cm), either order.

:func:`~gmkit.systems.wfb6._table.wfb6_table` reads the state into the WFB rules'
:class:`~gmkit.systems.wfb6.Situation` for one shot (the attack command passes it:
:mod:`gmkit.encounter._combat`).

Where the texts are silent:

- A new unit's defaults: its trooper the combatant named as the unit; its side, troop type
  and Large Target flag the trooper's (else the first character's side); its characters the
  character combatants whose sheets name the unit; its champions the champion combatants
  whose sheets name it.
- Models lost: every ``W`` wounds the trooper lost since the unit was set is one rank-and-file
  model fewer (setting ``rank_and_file`` again starts the count anew).
- Once the encounter holds units, they say who is where: a character is in the unit that lists
  it, else alone (whatever its sheet's ``unit``); rank and file and champions are in the unit
  whose trooper they are, else the one their sheet names.
- A distance is looked up between the shooter (its id, then its unit's name, then its unit's
  trooper) and the other end (likewise): the first measured pair counts.
- A character whose wounds are all lost (or removed) no longer counts in its unit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from gmkit.encounter._handlers import Event, handles
from gmkit.encounter._state import EncounterState, Unit, evolve
from gmkit.encounter._table import keys, measured, role, sheet_unit, table_troop_types
from gmkit.errors import RulesError
from gmkit.messages import Message

if TYPE_CHECKING:
    from gmkit.encounter._core import EncounterCore

    _Base = EncounterCore
else:
    _Base = object

_KEPT: tuple[str, ...] = ("side", "rank_and_file", "champions", "troop_type", "large_target")
_KEPT += ("engaged", "visible", "characters", "trooper")


def _unit_record(unit: Unit) -> dict[str, Any]:
    record = {key: getattr(unit, key) for key in (*_KEPT, "losses_from")}
    record["characters"] = list(unit.characters)
    return {"name": unit.name, **record}


def unit_from_sheets(
    state: EncounterState,
    name: str,
    *,
    trooper: str | None = None,
    characters: Iterable[str] | None = None,
) -> dict[str, Any]:
    """A unit ``name`` not yet on the table, as the sheets describe it (see the module
    docstring: its defaults), with ``trooper`` and ``characters`` (ids) where given."""
    if trooper is None:
        named = [c for c in state.present if c.name == name and role(c) != "character"]
        trooper = named[0].id if named else ""
    if characters is None:
        characters = [
            c.id for c in state.present if role(c) == "character" and sheet_unit(c) == name
        ]
    joining = list(characters)
    model = state.combatants.get(trooper) if trooper else None
    joined = [state.combatants[c] for c in joining if c in state.combatants]
    sheet = model.sheet if model is not None else None
    return {
        "name": name,
        "trooper": trooper,
        "characters": joining,
        "side": model.side if model else (joined[0].side if joined else ""),
        "troop_type": getattr(sheet, "troop_type", "infantry"),
        "large_target": getattr(sheet, "large_target", None),
        "champions": sum(
            1 for c in state.present if role(c) == "champion" and sheet_unit(c) == name
        ),
        "rank_and_file": 0,
        "engaged": False,
        "visible": True,
    }


class UnitCommands(_Base):
    """The commands of units and distances (see the module docstring)."""

    @property
    def units(self) -> Mapping[str, Unit]:
        """The units on the table, by name."""
        return self.state.units

    def set_unit(
        self,
        name: str,
        *,
        side: str | None = None,
        rank_and_file: int | None = None,
        champions: int | None = None,
        troop_type: str | None = None,
        large_target: bool | None = None,
        engaged: bool | None = None,
        visible: bool | None = None,
        characters: Iterable[str] | None = None,
        trooper: str | None = None,
    ) -> Unit:
        """Put unit ``name`` on the table, or change what is given of it (one event)."""
        name = name.strip()
        state = self.state
        old = state.units.get(name)
        chosen = None if trooper is None else (self.combatant(trooper).id if trooper else "")
        joining = None if characters is None else [self.combatant(c).id for c in characters]
        if old is None:
            found = unit_from_sheets(state, name, trooper=chosen, characters=joining)
        else:
            found = _unit_record(old)
            if chosen is not None:
                found["trooper"] = chosen
            if joining is not None:
                found["characters"] = joining
        model = state.combatants.get(found["trooper"]) if found["trooper"] else None
        given = {
            "side": side,
            "rank_and_file": rank_and_file,
            "champions": champions,
            "troop_type": troop_type,
            "large_target": large_target,
            "engaged": engaged,
            "visible": visible,
        }
        found.update({key: value for key, value in given.items() if value is not None})
        if old is None or rank_and_file is not None or trooper is not None:
            found["losses_from"] = model.counters.get("damage", 0) if model is not None else 0
        event: dict[str, Any] = {"kind": "unit_set", "unit": found, "new": old is None}
        self._append(self._secret_if_hidden(event, [*found["characters"], found["trooper"]]))
        return self.state.units[name]

    def _secret_if_hidden(self, event: dict[str, Any], idents: Iterable[str]) -> dict[str, Any]:
        """``event`` kept from the players when it names a hidden combatant."""
        combatants = self.state.combatants
        if any(ident in combatants and combatants[ident].hidden for ident in idents):
            event["visibility"] = "gm"
        return event

    def remove_unit(self, name: str) -> None:
        """Take unit ``name`` off the table (its distances go with it)."""
        self._append({"kind": "unit_removed", "name": name})

    def set_engaged(self, name: str, engaged: bool = True) -> None:
        """Unit ``name`` is (or is no longer) engaged in combat."""
        self._append({"kind": "unit_engaged", "name": name, "engaged": bool(engaged)})

    def set_distance(self, a: str, b: str, distance: float) -> None:
        """What the GM measured between ``a`` and ``b`` (unit names, or combatant ids or
        names), in the game's unit; either order."""
        ends = [self._place(end) for end in (a, b)]
        event = {"kind": "distance", "a": ends[0], "b": ends[1], "distance": distance}
        self._append(self._secret_if_hidden(event, ends))

    def distance_between(self, a: str, b: str) -> float | None:
        """The distance measured between ``a`` and ``b`` (or their units), or None."""
        state = self.state
        return measured(state, keys(state, self._place(a)), keys(state, self._place(b)))

    def _place(self, key: str) -> str:
        state = self.state
        if key in state.units:
            return key
        found = next((c for c in state.combatants.values() if key in (c.id, c.name)), None)
        if found is None:
            raise RulesError(Message("encounter.distance.unknown", end=repr(key)))
        return found.id


# --- folding ---------------------------------------------------------------------------


def _known_unit(state: EncounterState, name: Any) -> Unit:
    if name not in state.units:
        known = tuple(state.units)
        if not known:
            raise RulesError(Message("encounter.unit.none", unit=repr(name)))
        raise RulesError(Message("encounter.unit.unknown", unit=repr(name), known=known))
    return state.units[name]


def _count(record: Mapping[str, Any], key: str, unit: str) -> int:
    value = record.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RulesError(Message("encounter.unit.negative", unit=unit, count=repr(value)))
    return value


@handles("unit_set")
def _unit_set(state: EncounterState, event: Event) -> EncounterState:
    record = dict(event["unit"])
    name = str(record.get("name", "")).strip()
    troop_types = table_troop_types(state.game)
    if troop_types is None:
        raise RulesError(Message("encounter.unit.no_units", game=state.game))
    if not name:
        raise RulesError(Message("encounter.unit.blank"))
    side = str(record.get("side") or "")
    if not side:
        raise RulesError(Message("encounter.unit.side_needed", unit=name))
    known = tuple(troop_types)
    troop_type = str(record.get("troop_type", ""))
    if troop_type not in known:
        raise RulesError(
            Message(
                "encounter.unit.troop_type", unit=name, troop_type=repr(troop_type), known=known
            )
        )
    characters = tuple(str(ident) for ident in record.get("characters", ()))
    for ident in characters:
        joined = state.combatants.get(ident)
        if joined is None:
            raise RulesError(Message("encounter.no_id", ident=repr(ident)))
        if role(joined) != "character":
            raise RulesError(Message("encounter.unit.not_a_character", unit=name, name=joined.name))
    trooper = str(record.get("trooper") or "")
    if trooper:
        model = state.combatants.get(trooper)
        if model is None:
            raise RulesError(Message("encounter.no_id", ident=repr(trooper)))
        if role(model) == "character":
            raise RulesError(Message("encounter.unit.trooper_role", unit=name, name=model.name))
    unit = Unit(
        name=name,
        side=side,
        rank_and_file=_count(record, "rank_and_file", name),
        champions=_count(record, "champions", name),
        troop_type=troop_type,
        engaged=bool(record.get("engaged", False)),
        visible=bool(record.get("visible", True)),
        characters=characters,
        trooper=trooper,
        large_target=record.get("large_target"),
        losses_from=_count(record, "losses_from", name),
    )
    units = {  # a character joins one unit at a time: it leaves any other
        other.name: evolve(
            other, characters=tuple(c for c in other.characters if c not in set(characters))
        )
        for other in state.units.values()
        if other.name != name
    }
    return evolve(state, units={**units, name: unit})


@handles("unit_removed")
def _unit_removed(state: EncounterState, event: Event) -> EncounterState:
    unit = _known_unit(state, event["name"])
    units = {key: value for key, value in state.units.items() if key != unit.name}
    distances = {pair: cm for pair, cm in state.distances.items() if unit.name not in pair}
    return evolve(state, units=units, distances=distances)


@handles("unit_engaged")
def _unit_engaged(state: EncounterState, event: Event) -> EncounterState:
    unit = _known_unit(state, event["name"])
    changed = evolve(unit, engaged=bool(event.get("engaged", True)))
    return evolve(state, units={**state.units, unit.name: changed})


@handles("distance")
def _distance(state: EncounterState, event: Event) -> EncounterState:
    a, b = str(event["a"]), str(event["b"])
    for end in (a, b):
        if end not in state.units and end not in state.combatants:
            raise RulesError(Message("encounter.distance.unknown", end=repr(end)))
    if a == b:
        raise RulesError(Message("encounter.distance.same", end=a))
    value = event.get("distance")
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise RulesError(Message("encounter.distance.negative", distance=repr(value)))
    pair = (a, b) if a <= b else (b, a)
    return evolve(state, distances={**state.distances, pair: float(value)})


__all__ = ["UnitCommands", "unit_from_sheets"]
