"""Combat circumstances of Dark Heresy and Deathwatch as a catalog: data with behaviour.

``circumstances.yaml`` of each game lists them (its header documents the fields); an
``AttackRequest`` names them by id in ``circumstances`` with a value (``{"darkness": True,
"cover": 8, "ganging_up": 3}``). This module reads the catalog, checks the values, works out
range bands and the ally hit of a shot into melee, and the modifiers each circumstance gives;
``modifiers.attack_setup`` gathers them. Weapon-handling rules (Deathwatch's, always on) and
Dark Heresy's house rules (options) are ``circumstances_handling``'s; cover is ``cover``'s.

Choices where the texts are silent:

- Range (004, the same figures serve Dark Heresy): point blank at 2 m or less (+30), or at
  short range less 1 m for weapons whose short range is under 3 m; short range under half the
  weapon's range (+10); long beyond twice the range (-10); extreme beyond three times (-30).
  No maximum range unless a GM sets ``maximum_multiple``. Without a distance the request may
  name a ``range_band``; with neither, no range modifier is applied (a note says so).
- Cover gives no modifier; its value is checked here (``cover_spec``) and its rule (armour at
  the covered locations against ranged attacks, worn down by hits that beat it) is ``cover``'s.
- Terrain (difficult, arduous) weighs on whoever stands in it: the attacker's WS and the
  target's Dodge; the value says who (``True`` or ``"both"``, ``"attacker"``, ``"target"``).
- Modifiers to the target's reactions come only from specs naming Dodge or Parry (prone,
  terrain, Guarded Attack): darkness names WS and BS, and is read as the attacker's.
- A miss "caused only by" the shooting-into-melee penalty (001) is a roll above the target
  number that the same modifiers without that penalty (capped alike) would have hit.
- Darkness is cancelled by the attacker's Blind Fighting talent or Dark Sight trait (001);
  Deathwatch reads the same (004 is silent).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cache
from typing import Any

from gmkit.messages import Message, render
from gmkit.systems._imperial import sizes
from gmkit.systems._imperial.actions import (
    ModifierSpec,
    check_game,
    game_data,
    name_of,
    refuse,
    specs,
)
from gmkit.systems._imperial.terms import quality
from gmkit.systems._percentile import LOCATIONS, capped
from gmkit.systems.base import AttackRequest, Modifier

_GROUPS = {"all": LOCATIONS, "arms": ("right_arm", "left_arm"), "legs": ("right_leg", "left_leg")}
_TERRAIN = {True: ("attacker", "target"), "both": ("attacker", "target")}
BANDS = ("point_blank", "short", "normal", "long", "extreme")


@dataclass(frozen=True)
class Circumstance:
    """One circumstance of the catalog, with the behaviour keys its entry gives."""

    id: str
    name: str
    kind: str
    side: str
    modifiers: tuple[ModifierSpec, ...]
    entry: Mapping[str, Any]
    label: Message  # the name, a term of the game's catalog (``<game>.circumstance.<id>``)
    game: str = "deathwatch"

    def get(self, key: str, default: Any = None) -> Any:
        return self.entry.get(key, default)

    def listed(self, key: str) -> tuple[str, ...]:
        return tuple(str(item) for item in self.entry.get(key) or ())


@cache
def circumstances(game: str) -> Mapping[str, Circumstance]:
    """Every circumstance of ``game`` by id, its aliases included."""
    data = game_data(check_game(game), "circumstances")
    found: dict[str, Circumstance] = {}
    for raw in data.get("circumstances", []):
        name = name_of(raw)
        label = Message.term(f"{game}.circumstance.{raw['id']}", name)
        where = f"{game}/circumstances.yaml {raw['id']}"
        item = Circumstance(
            str(raw["id"]),
            name,
            str(raw.get("kind", "flag")),
            str(raw.get("side", "scene")),
            specs(raw.get("modifiers"), label, where, game),
            raw,
            label,
            game,
        )
        for key in (item.id, *item.listed("aliases")):
            found.setdefault(key, item)
    return found


def circumstance(game: str, circumstance_id: str) -> Circumstance:
    """Circumstance ``circumstance_id`` (or an alias), or a RulesError naming it."""
    found = circumstances(game).get(circumstance_id)
    if found is None:
        known = tuple(sorted({item.id for item in circumstances(game).values()}))
        raise refuse(
            f"circumstances[{circumstance_id!r}]",
            Message("imperial.circumstance.unknown", known=known),
        )
    return found


def check_value(item: Circumstance, value: Any) -> Any:
    """``value`` if it suits ``item``'s kind, else a RulesError naming the circumstance."""
    field_name = f"circumstances[{item.id!r}]"
    name, shown = item.label, repr(value)
    if item.kind == "flag" and not isinstance(value, bool):
        raise refuse(field_name, Message("imperial.circumstance.flag", name=name, value=shown))
    if item.kind == "number" and (isinstance(value, bool) or not isinstance(value, int)):
        raise refuse(field_name, Message("imperial.circumstance.number", name=name, value=shown))
    if item.kind == "choice" and value not in item.listed("choices"):
        choices = item.listed("choices")
        raise refuse(
            field_name, Message("imperial.circumstance.choice", name=name, choices=choices)
        )
    if item.kind == "terrain" and value not in (True, False, "both", "attacker", "target"):
        raise refuse(field_name, Message("imperial.circumstance.terrain", name=name))
    if item.kind == "cover":
        cover_spec(value, item)
    if item.kind == "size" and sizes.read(item.game, value) is None:
        known, limit = sizes.known(item.game), sizes.LIMIT
        problem = Message(
            "imperial.circumstance.size", name=name, known=known, limit=limit, value=shown
        )
        raise refuse(field_name, problem)
    return value


def active(game: str, given: Mapping[str, Any]) -> dict[str, tuple[Circumstance, Any]]:
    """The request's circumstances that are on, by canonical id, values checked."""
    found: dict[str, tuple[Circumstance, Any]] = {}
    for key, value in given.items():
        item = circumstance(game, str(key))
        check_value(item, value)
        if value is not False and value is not None and item.id not in found:
            found[item.id] = (item, value)
    return found


# --- range --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RangeBand:
    """A range band and the modifier it gives to BS (0 at normal range)."""

    id: str
    value: int
    source: Message

    def modifier(self) -> Modifier | None:
        return Modifier(self.source, self.value) if self.value else None


def band(game: str, band_id: str) -> RangeBand:
    """The band ``band_id`` (point_blank, short, normal, long, extreme) of ``game``."""
    if band_id == "normal":
        return RangeBand("normal", 0, Message("imperial.range.normal"))
    spec = game_data(check_game(game), "circumstances")["range"][band_id]
    source = Message.term(f"{game}.range.{band_id}", str(spec["source"]))
    return RangeBand(band_id, int(spec["value"]), source)


def range_band(distance: float, weapon_range: float, game: str = "deathwatch") -> RangeBand:
    """The band a target ``distance`` metres away falls in for a weapon of ``weapon_range``."""
    spec = game_data(check_game(game), "circumstances")["range"]
    if distance < 0 or weapon_range <= 0:
        raise refuse("distance", Message("imperial.range.bad_distance", distance=distance))
    maximum = spec.get("maximum_multiple")
    if maximum is not None and distance > maximum * weapon_range:
        raise refuse(
            "distance",
            Message(
                "imperial.range.beyond_maximum",
                distance=distance,
                maximum=maximum,
                weapon_range=weapon_range,
            ),
        )
    short = weapon_range * float(spec["short"]["below_fraction"])
    point_blank = float(spec["point_blank"]["within"])
    if short < float(spec["small_weapon"]["short_below"]):
        point_blank = max(0.0, short - float(spec["small_weapon"]["less"]))
    if distance <= point_blank:
        return band(game, "point_blank")
    for band_id in ("extreme", "long"):
        if distance > float(spec[band_id]["beyond_multiple"]) * weapon_range:
            return band(game, band_id)
    return band(game, "short") if distance < short else band(game, "normal")


# --- cover's value (its rule is cover.py's) ------------------------------------------------


def cover_spec(
    value: Any, item: Circumstance, places: Sequence[str] | None = None
) -> tuple[int, tuple[str, ...]]:
    """(points, locations) of a cover value: ``8`` or ``{points: 8, locations: [...]}``.

    ``places`` are the locations a bare number covers (default: the catalog's).
    """
    field_name = "circumstances['cover']"
    raw_points, raw_places = value, places or item.listed("default_locations")
    if isinstance(value, Mapping):
        raw_points, raw_places = value.get("points"), value.get("locations", raw_places)
    if isinstance(raw_points, bool) or not isinstance(raw_points, int) or raw_points < 0:
        raise refuse(field_name, Message("imperial.cover.bad_points", value=repr(value)))
    found: list[str] = []
    for place in [raw_places] if isinstance(raw_places, str) else list(raw_places):
        if place not in LOCATIONS and place not in _GROUPS:
            problem = Message("imperial.cover.bad_location", place=repr(place), known=LOCATIONS)
            raise refuse(field_name, problem)
        found.extend(_GROUPS.get(place, (place,)))
    return raw_points, tuple(dict.fromkeys(found))


def weapon_of(request: AttackRequest) -> Any:
    """The attacker's weapon the request names (case-insensitive), None if not on the sheet."""
    wanted = request.weapon.strip().casefold()
    listed = getattr(request.attacker, "weapons", [])
    return next((weapon for weapon in listed if weapon.name.casefold() == wanted), None)


# --- shooting into melee -------------------------------------------------------------------


def into_melee_sources(game: str) -> tuple[str, str]:
    """(source of the shooting-into-melee penalty, source of the house called-shot extra), in
    English: a modifier's source is compared as the English it renders (a message or a
    name)."""
    penalty = circumstance(game, "shooting_into_melee").name
    house = game_data(game, "house_rules").get("house_rules", []) if game == "dark_heresy" else []
    called = next((name_of(rule) for rule in house if rule.get("called_shot_into_melee")), "")
    return penalty, called


def miss_hits_ally(
    test_roll: int,
    target: int,
    modifiers: Sequence[Modifier],
    *,
    game: str = "dark_heresy",
    cap: int | None = 60,
    jam_from: int | None = None,
) -> bool:
    """Whether a shot into melee that missed hits an ally instead (001).

    ``target`` is the characteristic tested (BS) before modifiers, ``modifiers`` the attack's
    (``AttackSetup.modifiers``). True when the roll missed but the same modifiers without the
    shooting-into-melee penalty would have hit; never for a jam (a roll at or above
    ``jam_from``), after the house rule's called shot, or in a game without the rule.
    """
    item = circumstance(game, "shooting_into_melee")
    penalty_source, called_source = into_melee_sources(game)
    if not item.get("ally_on_miss") or (jam_from is not None and test_roll >= jam_from):
        return False
    if any(render(modifier.source) == called_source for modifier in modifiers):
        return False
    others = [modifier for modifier in modifiers if render(modifier.source) != penalty_source]
    if len(others) == len(modifiers):
        return False
    return target + capped(modifiers, cap) < test_roll <= target + capped(others, cap)


# --- modifiers --------------------------------------------------------------------------------


def condition_ids(game: str, given: Mapping[str, Any]) -> tuple[set[str], set[str]]:
    """Conditions the circumstances name: (on the attacker, on the target)."""
    attacker: set[str] = set()
    target: set[str] = set()
    for item, _value in active(game, given).values():
        if item.get("condition"):
            (attacker if item.side == "attacker" else target).add(str(item.get("condition")))
    return attacker, target


def circumstance_modifiers(
    game: str,
    given: Mapping[str, Any],
    test: str,
    flags: AbstractSet[str],
    *,
    bearer: str = "attacker",
    talents: Sequence[str] = (),
    traits: Sequence[str] = (),
    target_conditions: AbstractSet[str] = frozenset(),
    qualities: Sequence[str] = (),
) -> tuple[list[Modifier], list[Message]]:
    """Modifiers the circumstances give to ``bearer``'s ``test``, and notes for the GM.

    ``bearer`` "attacker": the attack's test; "target": the target's reaction (Dodge, Parry).
    """
    found: list[Modifier] = []
    notes: list[Message] = []
    on = active(game, given)
    held = {quality.partition("(")[0] for quality in qualities}
    for item, value in on.values():
        if item.kind == "terrain" and bearer not in _TERRAIN.get(value, (value,)):
            continue
        matching = [
            s for s in item.modifiers if s.applies(test, flags, attack=bearer == "attacker")
        ]
        if not matching or item.get("condition"):
            continue  # a condition's modifiers are the condition's
        if item.kind == "size":  # a category's modifier, or the number itself
            size = sizes.modifier(game, value, item.label)
            found += [size] if size is not None else []
            continue
        negated = item.get("negated_by") or {}
        cancel = {*talents, *traits} & {*negated.get("talents", ()), *negated.get("traits", ())}
        waived = item.get("waived_by") or {}
        exempt = held & set(item.listed("exempt_qualities"))
        name = item.label
        if cancel:
            by = tuple(sorted(cancel))
            notes.append(Message("imperial.circumstance.cancelled", name=name, by=by))
        elif set(waived.get("conditions", ())) & target_conditions or set(
            waived.get("circumstances", ())
        ) & set(on):
            notes.append(Message("imperial.circumstance.waived", name=name))
        elif exempt:
            named = tuple(quality(game, held_quality) for held_quality in sorted(exempt))
            notes.append(Message("imperial.circumstance.exempt", name=name, qualities=named))
        elif item.get("no_bonus_against_hordes") and "horde_target" in flags:
            notes.append(Message("imperial.circumstance.no_bonus_against_hordes", name=name))
        elif item.get("steps"):
            reached = [int(s["value"]) for s in item.get("steps") if value >= int(s["from"])]
            if reached:
                found.append(Modifier(name, reached[-1]))
        else:
            found.extend(
                Modifier(s.source, int(value) if item.get("value_is_modifier") else s.value)
                for s in matching
            )
    return [modifier for modifier in found if modifier.value], notes


def unarmed_specs(game: str) -> tuple[ModifierSpec, ...]:
    """Modifiers of an unarmed attack (circumstances.yaml ``unarmed``)."""
    raw = game_data(check_game(game), "circumstances").get("unarmed") or {}
    where = f"{game}/circumstances.yaml unarmed"
    return specs(raw.get("modifiers"), Message("imperial.source.unarmed"), where, game)
