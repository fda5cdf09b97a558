"""Critical effects of Dark Heresy and Deathwatch: a table format the GM fills in.

The seeds refer to critical effect tables by location, damage type and critical damage but
print none. ``criticals.yaml`` of each game is the format (documented in its header) with a
few rows marked ``placeholder``; a GM fills it from their rulebook, or puts a file of the same
name under ``GMKIT_DATA_PATH/<game>/``, or loads a table file of their own with
``load_tables(path)``. ``critical_effect`` reads a row and turns what it says into effects the
encounter applies.

The seeds' README ruling: a placeholder row's effects are never applied. When critical damage
comes up and no table the GM provided has its row, applying it (``effects``) gives a
:class:`CriticalPrompt` (the total, the location, the damage type, and what the seeds say of
death) and a note saying the GM decides the effect; ``CriticalPrompt.answer`` turns the GM's
answer (a text, conditions, death) into effects for the encounter.

A GM's table file (``load_tables(path)``; ``clear_tables()`` forgets them)::

    game: deathwatch            # dark_heresy or deathwatch (or load_tables(path, game=...))
    max_value: 10               # optional: critical damage above it reads the last row
    tables:
      Energy:                   # Energy, Explosive, Impact, Rending
        head:                   # arm, body, head, leg
          - value: 1            # the total critical damage at that location
            text: "Dazzled: -10 to Ballistic Skill tests for a round"
            effects: [{fatigue: 1}]
          - value: 8
            text: "The head is burnt away"
            effects: [{dead: true}]

Each row: ``value``, ``text`` (what the GM reads) and ``effects`` (a list of ``{condition: id,
rounds: N}``, ``{fatigue: N}``, ``{dead: true}``, ``{lost: hand|arm|eye|foot|leg}``, ``{note:
text}``); a loaded table's rows win over the packaged file's, and a row it lacks falls back to
that file (a placeholder there still prompts). ``examples/criticals/`` holds a file for one
location.

Death by critical damage, as the seeds say it (``criticals.yaml`` ``death``, data a GM
overrides, ``by_type`` and ``by_location`` refining it): Deathwatch (004) kills "usually from
8 or more critical damage, by damage type and location", so a prompt at 8 or more says the GM
should weigh death; Dark Heresy (001) gives no threshold but its house rule's minion, dead at 1
critical damage (the sheet's ``minion``). Past the tables' 10 every character dies
(``effects``).

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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.systems._imperial.actions import check_game, game_data, refuse
from gmkit.systems._imperial.conditions import gain
from gmkit.systems._imperial.terms import damage_type as damage_type_name
from gmkit.systems._imperial.terms import location_class as location_class_name
from gmkit.systems._percentile import location_class, location_name
from gmkit.systems.base import Effect

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


_LOADED: dict[str, dict[str, Any]] = {}


def load_tables(path: str | Path, game: str | None = None) -> str:
    """Load a GM's critical table file (the module docstring's format) for its game; returns
    the game. Its rows win over the packaged tables' from now on (``clear_tables`` undoes)."""
    where = str(path)
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as problem:
        why = str(problem)
        raise GmkitError(Message("imperial.criticals.unreadable", path=where, why=why)) from None
    if not isinstance(data, Mapping) or not isinstance(data.get("tables"), Mapping):
        raise GmkitError(Message("imperial.criticals.not_a_table", path=where))
    chosen = check_game(str(game or data.get("game", "")))
    for kind, places in data["tables"].items():
        if kind not in DAMAGE_TYPES or not isinstance(places, Mapping):
            raise GmkitError(_bad_entry(where, str(kind)))
        for place, rows in places.items():
            entry = f"{kind} {place}"
            if place not in CLASSES or not isinstance(rows, list):
                raise GmkitError(_bad_entry(where, entry))
            for row in rows:
                if not isinstance(row, Mapping) or not isinstance(row.get("value"), int):
                    raise GmkitError(_bad_entry(where, entry))
    _LOADED[chosen] = dict(data)
    return chosen


def _bad_entry(path: str, entry: str) -> Message:
    return Message(
        "imperial.criticals.bad_entry", path=path, entry=entry, types=DAMAGE_TYPES, places=CLASSES
    )


def clear_tables(game: str | None = None) -> None:
    """Forget the GM's loaded tables (of ``game``; of every game by default)."""
    if game is None:
        _LOADED.clear()
    else:
        _LOADED.pop(game, None)


def _rows(data: Mapping[str, Any], kind: str, place: str) -> list[Any]:
    return list((data.get("tables") or {}).get(kind, {}).get(place) or [])


def _row(data: Mapping[str, Any], kind: str, place: str, value: int) -> Mapping[str, Any] | None:
    wanted = min(value, int(data.get("max_value", 10)))
    return next(
        (row for row in _rows(data, kind, place) if int(row.get("value", 0)) == wanted), None
    )


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
    data: Mapping[str, Any] = game_data(game, "criticals")
    row = None
    loaded = _LOADED.get(game)
    if loaded is not None:
        row = _row(loaded, kind, place, value)
        data = loaded if row is not None else data
    if row is None:
        row = _row(data, kind, place, value)
    if row is None:
        return None
    wanted = int(row["value"])
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


def _kind(damage_type: str | None) -> str:
    text = (damage_type or "Impact").strip()
    return {"E": "Energy", "X": "Explosive", "I": "Impact", "R": "Rending"}.get(
        text.upper(), text.capitalize()
    )


def death_threshold(game: str, location: str, damage_type: str | None) -> int | None:
    """The total critical damage from which the seeds say death may come at ``location`` of
    ``damage_type`` (``criticals.yaml`` ``death``), or None where they give none."""
    death = game_data(check_game(game), "criticals").get("death") or {}
    place, kind = location_class(location), _kind(damage_type)
    for key, wanted in (("by_location", place), ("by_type", kind)):
        found = (death.get(key) or {}).get(wanted)
        if found is not None:
            return int(found)
    usual = death.get("usually_from")
    return int(usual) if usual is not None else None


PROMPT = "imperial.criticals.prompt"


@dataclass(frozen=True)
class CriticalPrompt:
    """Critical damage no table the GM provided covers: the GM decides its effect."""

    game: str
    target: str
    total: int  # the total critical damage at the location
    location: str  # a hit location (right_arm) or body
    damage_type: str  # Energy, Explosive, Impact, Rending
    death_from: int | None = None  # what the seeds say may kill (004: usually 8 or more)

    @classmethod
    def of(cls, game: str, target: str, total: int, location: str | None,
           damage_type: str | None) -> CriticalPrompt:  # fmt: skip
        """The prompt for ``total`` critical damage of ``damage_type`` at ``location``."""
        place, kind = location or "body", _kind(damage_type)
        return cls(game, target, total, place, kind, death_threshold(game, place, kind))

    @property
    def may_kill(self) -> bool:
        return self.death_from is not None and self.total >= self.death_from

    @property
    def message(self) -> Message:
        """The note for the GM: what came up, that they decide, and death where it may come."""
        where = location_name(self.location)
        kind = damage_type_name(self.damage_type)
        if self.may_kill:
            return Message(
                "imperial.criticals.prompt_deadly",
                total=self.total,
                damage_type=kind,
                location=where,
                death_from=self.death_from or 0,
            )
        return Message(PROMPT, total=self.total, damage_type=kind, location=where)

    def to_effect(self) -> Effect:
        """The prompt as a note effect (the fight's log keeps it; ``from_effect`` reads it)."""
        return Effect(
            "note", self.target, self.total, self.location, self.damage_type, note=self.message
        )

    @classmethod
    def from_effect(cls, effect: Effect, game: str) -> CriticalPrompt | None:
        """The prompt a note effect carries (None for any other effect)."""
        note = effect.note
        ids = (PROMPT, "imperial.criticals.prompt_deadly")
        if effect.kind != "note" or not isinstance(note, Message) or note.id not in ids:
            return None
        return cls.of(game, effect.target, effect.amount, effect.location, effect.damage_type)

    def answer(
        self,
        text: str,
        conditions: Iterable[str | tuple[str, int | None]] = (),
        *,
        dead: bool = False,
        fatigue: int = 0,
    ) -> tuple[Effect, ...]:
        """The GM's answer as effects on the target: the conditions (an id, or (id, rounds)),
        death, fatigue, and the text as a note."""
        label = Message("imperial.criticals.decided", total=self.total)
        found: list[Effect] = []
        for item in conditions:
            name, rounds = (item, None) if isinstance(item, str) else item
            found.append(gain(self.game, self.target, name, rounds, location=self.location,
                              note=label))  # fmt: skip
        if dead:
            found.append(gain(self.game, self.target, "dead", location=self.location, note=label))
        if fatigue:
            found.append(Effect("fatigue", self.target, amount=fatigue, note=label))
        note = Message("imperial.critical.note", label=label, text=Message.verbatim(text))
        found.append(Effect("note", self.target, location=self.location, note=note))
        return tuple(found)
