"""Critical effects of Dark Heresy and Deathwatch: a table format the GM fills in.

The seeds refer to critical effect tables by location, damage type and critical damage but
print none. ``criticals.yaml`` of each game is the format (documented in its header) with a
few rows marked ``placeholder``; a GM fills it from their rulebook, or puts a file of the same
name under ``GMKIT_DATA_PATH/<game>/``. ``critical_effect`` reads a row and turns what it says
into effects the encounter applies.

Choices where the texts are silent:

- Tables are by location class (arm, body, head, leg: 004 names these four); a side
  (``right_arm``) reads its class.
- The row is the one whose ``value`` equals the critical damage; above ``max_value`` the last
  row counts (the books' tables end at 10). A missing row gives None: nothing to apply.
- Effects: ``{condition, rounds}`` (no rounds: until removed; an id conditions.yaml defines,
  or ``to_effects`` raises a RulesError naming it), ``{fatigue: N}``,
  ``{dead: true}`` (the condition ``dead``), ``{lost: part}`` (the condition ``lost_<part>``);
  anything else is a note for the GM.
- A row's text is a term of the game's catalog (``<game>.critical.<type>.<class>.<value>``,
  its notes ``...<value>.note``): a GM's own row reads in its own words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.systems.base import Effect
from gmkit.systems.imperial.actions import check_game, game_data, refuse
from gmkit.systems.imperial.conditions import gain
from gmkit.systems.imperial.terms import damage_type as damage_type_name
from gmkit.systems.imperial.terms import location_class as location_class_name
from gmkit.systems.percentile import location_class

DAMAGE_TYPES = ("Energy", "Explosive", "Impact", "Rending")
CLASSES = ("arm", "body", "head", "leg")


@dataclass(frozen=True)
class CriticalEffect:
    """One row of a critical table and what it applies."""

    game: str
    location: str  # arm, body, head or leg
    damage_type: str
    value: int
    text: str
    effects: tuple[Mapping[str, Any], ...]
    placeholder: bool

    @property
    def dead(self) -> bool:
        return any(item.get("dead") for item in self.effects)

    @property
    def conditions(self) -> tuple[tuple[str, int | None], ...]:
        """(condition id, rounds or None) for each condition the row gives."""
        found: list[tuple[str, int | None]] = []
        for item in self.effects:
            if "condition" in item:
                found.append((str(item["condition"]), item.get("rounds")))
            elif "lost" in item:
                found.append((f"lost_{item['lost']}", None))
            elif item.get("dead"):
                found.append(("dead", None))
        return tuple(found)

    @property
    def fatigue(self) -> int:
        return sum(int(item.get("fatigue", 0)) for item in self.effects)

    @property
    def key(self) -> str:
        """The row's id in the game's catalog: ``<game>.critical.<type>.<class>.<value>``."""
        return f"{self.game}.critical.{self.damage_type}.{self.location}.{self.value}"

    @property
    def message(self) -> Message:
        """The row's text for the GM, a term of the game's catalog."""
        return Message.term(self.key, self.text)

    @property
    def label(self) -> Message:
        """ "critical Energy head 2": which row."""
        return Message(
            "imperial.critical.label",
            damage_type=damage_type_name(self.damage_type),
            location=location_class_name(self.location),
            value=self.value,
        )

    def to_effects(self, target: str, location: str | None = None) -> tuple[Effect, ...]:
        """The row as effects on ``target`` (a combatant's name), hit at ``location``."""
        where = location or self.location
        label = self.label
        found = [
            gain(self.game, target, name, rounds, location=where, note=label)
            for name, rounds in self.conditions
        ]
        if self.fatigue:
            found.append(Effect("fatigue", target, amount=self.fatigue, note=label))
        for item in self.effects:
            if not {"condition", "lost", "dead", "fatigue"} & set(item):
                said = item.get("note")
                text = (
                    Message.term(f"{self.key}.note", str(said))
                    if said
                    else Message.verbatim(", ".join(f"{k}: {v}" for k, v in item.items()))
                )
                note = Message("imperial.critical.note", label=label, text=text)
                found.append(Effect("note", target, location=where, note=note))
        text = self.message
        if self.placeholder:
            text = Message("imperial.critical.placeholder", text=text)
        found.append(Effect("note", target, location=where, note=text))
        return tuple(found)


def critical_effect(
    game: str, location: str, damage_type: str, value: int
) -> CriticalEffect | None:
    """The critical effect of ``value`` critical damage of ``damage_type`` at ``location``.

    ``location`` is a hit location (``right_arm``) or its class (``arm``); ``damage_type`` one
    of Energy, Explosive, Impact, Rending (a single letter E, X, I, R is accepted). None when
    the table has no row for it.
    """
    check_game(game)
    kind = {"E": "Energy", "X": "Explosive", "I": "Impact", "R": "Rending"}.get(
        damage_type.strip().upper(), damage_type.strip().capitalize()
    )
    if kind not in DAMAGE_TYPES:
        problem = Message("imperial.critical.bad_type", known=DAMAGE_TYPES, given=repr(damage_type))
        raise refuse("damage_type", problem)
    place = location_class(location)
    if place not in CLASSES:
        problem = Message("imperial.critical.bad_location", known=CLASSES, given=repr(location))
        raise refuse("location", problem)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise refuse("value", Message("imperial.critical.bad_value", given=repr(value)))
    data = game_data(game, "criticals")
    rows = (data.get("tables") or {}).get(kind, {}).get(place) or []
    wanted = min(value, int(data.get("max_value", 10)))
    row = next((row for row in rows if int(row.get("value", 0)) == wanted), None)
    if row is None:
        return None
    effects = row.get("effects") or []
    if not all(isinstance(item, Mapping) for item in effects):
        where = f"{game}/criticals.yaml {kind} {place} {wanted}"
        raise GmkitError(Message("imperial.critical.bad_effects", where=where))
    return CriticalEffect(
        game=game,
        location=place,
        damage_type=kind,
        value=wanted,
        text=str(row.get("text", "")),
        effects=tuple(effects),
        placeholder=bool(row.get("placeholder", False)),
    )
