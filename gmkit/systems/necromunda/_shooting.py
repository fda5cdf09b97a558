"""Necromunda shooting before the dice: who may shoot, at whom, the range and the score needed.

Data: ``to_hit_modifiers.yaml`` (the circumstance catalog); the range bands and their
modifiers are the weapon's (``weapons.yaml``, on the sheet).

- Who may shoot: a fighter on the table, not down, not engaged in close combat, that did not
  run or charge this turn, with a shooting weapon and a target inside its 90-degree front arc
  that it can see. Arc and sight are what the table shows: the GM confirms them
  (``options.in_arc``, ``options.in_sight``, both assumed true when not given).
- A hidden target cannot be shot unless the shooter is within its spotting range.
- Target: the nearest enemy, or a farther one that is easier to hit
  (:func:`target_choice_check`), a check the GM can settle with
  ``options.target_is_nearest_or_easier``.
- Range: the weapon's bands; out of range the shot misses, but the to-hit die is still rolled
  (a 6 calls for an ammo roll).
- To hit: 7 - BS (after flesh wounds) less the modifiers; never better than 2+; the 7+ chart
  and the to-wound chart are data (``to_hit_7plus.yaml``, ``to_wound.yaml``:
  :mod:`~gmkit.systems.necromunda._charts`).

Choices where the texts are silent:

- A farther target is allowed when every enemy nearer than it is harder to hit (needs a higher
  score); so in the seed's diagram B (the nearest of the easy ones) may be shot, C and D, behind
  B and no easier, may not. Enemies at the same distance are equally near.
- Exclusive modifiers (partial cover with cover, small with large) are refused, not summed.
- Small and large target (``objects_only`` in the data) are refused on a shot at a fighter:
  seed 000 keeps them for the scenario's objects (a water still...), never enemy fighters.
- A pinned fighter does not shoot (the seed's pinning section is lost; published rule).
- ``options.gm_allows_shot`` lets a refused shot go ahead (the refusals stay in the
  steps), except a shooter or target out of action: they are off the table.
- Close combat weapons are refused: the seed holds no close combat rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.sheets._necromunda import NecromundaFighter, RangeBand, Weapon, resolve_strength
from gmkit.systems._sixes import to_hit_needed, to_wound_needed
from gmkit.systems._tables import table
from gmkit.systems.base import AttackRequest, Modifier
from gmkit.systems.necromunda._charts import possible, to_wound_chart
from gmkit.systems.necromunda._conditions import BOOK
from gmkit.systems.necromunda._hiding import detects
from gmkit.systems.necromunda._injuries import is_high_impact
from gmkit.systems.necromunda._state import (
    Check,
    FighterState,
    Settings,
    effective_bs,
    fighter_of,
)

MOVED_FAST = frozenset({"run", "charging", "failed_charge"})
"""The conditions that say the fighter ran or charged this turn (no shot: seed 000)."""

GAME = "necromunda"
IMPOSSIBLE = 10
"""A needed score that cannot be rolled (the 7+ chart stops at 9)."""


@dataclass(frozen=True, slots=True)
class Circumstance:
    """A to-hit modifier of the catalog."""

    id: str
    name: str
    value: int
    aliases: tuple[str, ...] = ()
    threshold: float | None = None
    excludes: tuple[str, ...] = ()
    when: str = ""
    objects_only: bool = False  # never against a fighter: the scenario's objects only

    @property
    def label(self) -> Message:
        """The circumstance's name (the data's: ``necromunda.modifier.<id>``)."""
        return Message.term(f"necromunda.modifier.{self.id}", self.name)

    @property
    def applies_when(self) -> Message:
        """When it applies (the data's ``when``: ``necromunda.modifier_when.<id>``)."""
        return Message.term(f"necromunda.modifier_when.{self.id}", self.when)


def circumstance_ref(circumstance_id: str) -> Message:
    """A circumstance named by its id, as the refusals and help texts name it (the id in
    English; its name in Spanish)."""
    return Message.term(f"necromunda.modifier_id.{circumstance_id}", circumstance_id)


def range_band(band: RangeBand) -> Message:
    """A range band's words: short, long, out of range."""
    return Message(f"necromunda.range.{band.replace(' ', '_')}")


_CATALOG: list[Any] = [None, {}]  # the table read last, and what it read as


def catalog() -> dict[str, Circumstance]:
    """Id -> to-hit circumstance (data: ``to_hit_modifiers.yaml``), read again only when the
    table is (``table.cache_clear()``, a GM's file)."""
    data = table(GAME, "to_hit_modifiers")
    if _CATALOG[0] is not data:
        _CATALOG[:] = [data, _read_catalog()]
    found: dict[str, Circumstance] = _CATALOG[1]
    return found


def _read_catalog() -> dict[str, Circumstance]:
    return {
        str(item["id"]): Circumstance(
            str(item["id"]),
            str(item["name"]),
            int(item["value"]),
            tuple(item.get("aliases", ())),
            item.get("threshold"),
            tuple(item.get("excludes", ())),
            str(item.get("when", "")),
            bool(item.get("objects_only", False)),
        )
        for item in table(GAME, "to_hit_modifiers")
    }


def to_hit_modifiers(circumstances: Mapping[str, Any]) -> tuple[Modifier, ...]:
    """The modifiers a request's circumstances bring, in catalog order.

    A key is an id or an alias; its value ``True`` applies it, false-y values do not, and a
    number applies an entry with a threshold when it reaches the threshold (``"fast_moving":
    12`` inches moved).
    """
    entries = catalog()
    names = {alias: entry.id for entry in entries.values() for alias in entry.aliases}
    names.update({entry.id: entry.id for entry in entries.values()})
    applied: set[str] = set()
    for key, value in circumstances.items():
        if key not in names:
            raise RulesError(
                Message("necromunda.circumstances.unknown", key=repr(key), known=tuple(names))
            )
        entry = entries[names[key]]
        if isinstance(value, bool) or value is None:
            on = bool(value)
        elif isinstance(value, int | float) and entry.threshold is not None:
            on = value >= entry.threshold
        else:
            raise RulesError(
                Message("necromunda.circumstances.flag", key=repr(key), got=repr(value))
            )
        if on:
            applied.add(entry.id)
    for entry_id in applied:
        clash = sorted(set(entries[entry_id].excludes) & applied)
        if clash:
            raise RulesError(
                Message("necromunda.circumstances.clash", first=entry_id, second=clash[0])
            )
    return tuple(Modifier(e.label, e.value) for e in entries.values() if e.id in applied)


def objects_only(circumstances: Mapping[str, Any]) -> None:
    """Refuse a circumstance of the scenario's objects only (small, large target: seed 000,
    enemy fighters are never small or large targets) on a shot at a fighter."""
    entries = catalog()
    names = {alias: entry.id for entry in entries.values() for alias in entry.aliases}
    for key, value in circumstances.items():
        entry = entries.get(names.get(key, key))
        if entry is not None and entry.objects_only and value not in (False, None, 0):
            raise RulesError(Message("necromunda.circumstances.not_fighters", name=entry.label))


def weapon_of(fighter: NecromundaFighter, name: str) -> Weapon:
    """The weapon ``name`` on the fighter's sheet, or a RulesError listing what it carries."""
    for weapon in fighter.weapons:
        if weapon.name == name:
            return weapon
    carried = tuple(w.name for w in fighter.weapons)
    if not carried:
        raise RulesError(
            Message("necromunda.weapon.carries_nothing", fighter=fighter.name, weapon=repr(name))
        )
    raise RulesError(
        Message(
            "necromunda.weapon.carries_no", fighter=fighter.name, weapon=repr(name), carried=carried
        )
    )


def shooting_weapons(fighter: NecromundaFighter) -> tuple[Weapon, ...]:
    """The weapons a fighter may shoot with (every one but its close combat weapons)."""
    return tuple(weapon for weapon in fighter.weapons if weapon.kind != "close combat")


@dataclass(frozen=True, slots=True)
class Candidate:
    """An enemy the shooter might target: its distance and the score needed to hit it."""

    name: str
    distance: float
    needed: int | None  # None: cannot be hit (out of range, 10+)


def _difficulty(needed: int | None) -> int:
    return IMPOSSIBLE if needed is None or not possible(needed) else min(needed, IMPOSSIBLE)


def target_choice_check(target: Candidate, others: Sequence[Candidate]) -> Check:
    """The nearest-target rule: nearest, or every nearer enemy harder to hit."""
    nearer = [o for o in others if o.distance < target.distance]
    blocking = [o for o in nearer if _difficulty(o.needed) <= _difficulty(target.needed)]
    if not nearer:
        return Check("target choice", True, Message("necromunda.reason.nearest", name=target.name))
    if blocking:
        names = tuple(o.name for o in blocking)
        return Check("target choice", False, Message("necromunda.reason.nearer", names=names))
    return Check("target choice", True, Message("necromunda.reason.nearer_harder"))


@dataclass(frozen=True, slots=True)
class ShotSetup:
    """A shot as the rules see it before any die: every number the dice are rolled against."""

    weapon: Weapon
    bs: int
    band: RangeBand | None  # None: a template weapon
    modifiers: tuple[Modifier, ...]
    needed: int | None  # None: no to-hit roll (template); >= 10: cannot hit
    strength: int
    to_wound: int | None
    high_impact: bool
    checks: tuple[Check, ...]
    attacker_state: FighterState
    target_state: FighterState

    @property
    def in_range(self) -> bool:
        return self.band != "out of range"

    @property
    def refused(self) -> tuple[Check, ...]:
        return tuple(check for check in self.checks if not check.passed)


def needed_for(
    bs: int, weapon: Weapon, distance: float | None, circumstances: Mapping[str, Any]
) -> tuple[RangeBand | None, tuple[Modifier, ...], int | None]:
    """Range band, modifiers (range last) and the score needed: 7 - BS less the modifiers."""
    if weapon.template:
        return None, (), None
    if distance is None:
        raise RulesError(Message("necromunda.distance_needed"))
    band = weapon.range_band(distance)
    modifiers = to_hit_modifiers(circumstances)
    range_modifier = weapon.range_modifier(distance)
    if range_modifier and band is not None:
        source = Message("necromunda.range.modifier", band=range_band(band), weapon=weapon.name)
        modifiers += (Modifier(source, range_modifier),)
    needed = to_hit_needed(bs, modifiers) if band != "out of range" else None
    return band, modifiers, needed


def shooter_checks(
    request: AttackRequest, attacker: FighterState, target: FighterState, settings: Settings
) -> tuple[Check, ...]:
    """Who may shoot, at whom: the checks of seed 000 with the GM's confirmations."""
    shooter = fighter_of(request.attacker, "attacker")
    aimed_at = fighter_of(request.target, "target")
    options = request.options
    multiplier = settings.spotting_multiplier
    spotted = request.distance is not None and detects(shooter, request.distance, multiplier)
    inches = shooter.I * multiplier
    barred = BOOK.barring(attacker.names(), "shoot")  # the permits' restrictions, on a shot
    checks = [
        Check("on the table", not attacker.out_of_action, Message("necromunda.reason.gone")),
        Check("down", "down" not in barred, Message("necromunda.reason.down_crawls")),
        Check("pinned", "pinned" not in barred, Message("necromunda.reason.pinned_shoots")),
        Check("engaged", "engaged" not in barred, Message("necromunda.reason.engaged_shoots")),
        Check("moved", not barred & MOVED_FAST, Message("necromunda.reason.ran_shoots")),
        Check(
            "target on the table",
            not target.out_of_action,
            Message("necromunda.reason.target_gone", name=aimed_at.name),
        ),
        Check("in arc", options.in_arc, Message("necromunda.reason.in_arc")),
        Check("in sight", options.in_sight, Message("necromunda.reason.in_sight")),
        Check(
            "hidden target",
            not target.hidden or spotted,
            Message("necromunda.reason.hidden_beyond", name=shooter.name, inches=inches),
        ),
    ]
    choice = options.target_is_nearest_or_easier
    if choice is not None:
        reason = "necromunda.reason.gm_confirms" if choice else "necromunda.reason.gm_nearer"
        checks.append(Check("target choice", choice, Message(reason)))
    elif options.other_targets is not None:
        weapon = weapon_of(shooter, request.weapon)
        bs = effective_bs(shooter, attacker)
        *_, needed = needed_for(bs, weapon, request.distance, request.circumstances)
        others = [
            Candidate(
                other.name,
                float(other.distance),
                needed_for(bs, weapon, float(other.distance), other.circumstances)[2],
            )
            for other in options.other_targets
        ]
        distance = request.distance if request.distance is not None else 0.0
        checks.append(target_choice_check(Candidate(aimed_at.name, distance, needed), others))
    return tuple(checks)


def shot_setup(request: AttackRequest, settings: Settings | None = None) -> ShotSetup:
    """Everything about a shot that no die decides."""
    settings = settings or Settings.packaged()
    shooter = fighter_of(request.attacker, "attacker")
    aimed_at = fighter_of(request.target, "target")
    weapon = weapon_of(shooter, request.weapon)
    if weapon.kind == "close combat":
        raise RulesError(Message("necromunda.weapon.close_combat", weapon=weapon.name))
    attacker = FighterState.read(request.options.attacker_state)
    target = FighterState.read(request.options.target_state)
    if request.options.wounds_left is not None:
        target = target.with_changes(wounds_left=request.options.wounds_left)
    objects_only(request.circumstances)
    bs = effective_bs(shooter, attacker)
    band, modifiers, needed = needed_for(bs, weapon, request.distance, request.circumstances)
    strength = resolve_strength(weapon.strength, shooter.S)
    return ShotSetup(
        weapon=weapon,
        bs=bs,
        band=band,
        modifiers=modifiers,
        needed=needed,
        strength=strength,
        to_wound=to_wound_needed(strength, aimed_at.T, to_wound_chart()),
        high_impact=is_high_impact(strength),
        checks=shooter_checks(request, attacker, target, settings),
        attacker_state=attacker,
        target_state=target,
    )
