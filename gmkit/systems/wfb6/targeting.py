"""Warhammer Fantasy Battle 6e: who may shoot at whom around characters (seed 003).

Every answer is a :class:`Ruling`: allowed or not, why, the explained steps, and the to-hit
modifiers the target brings (-1 lone infantry character, +1 large target).

- :func:`may_target`: may a shooter designate this model? Lone characters obey Proximity to
  friendly troops: a friendly unit within 12 cm with 5+ models of the character's size or
  larger (champions and joined characters count) lets the character be targeted only as the
  closest legal target, a legal target being a unit the shooter could designate (in sight;
  not engaged in combat unless the shooter may shoot into combat). Templates (catapults,
  cannon, breath weapons, template spells) target points, so nothing limits them; magic
  missiles obey the rule; other spells do not. A character in a unit may be designated only
  when it is larger than the unit; otherwise only the unit may be, and its hits are
  allocated (:mod:`gmkit.systems.wfb6.hits`).
- :func:`may_shoot_at`: may a character shoot at this unit? A lone character shoots freely;
  a character in a unit shoots at the unit's target unless it cannot; a character and its
  mount are one unit and split fire the same way (the part that cannot shoot at the first
  target chosen may choose another).

Where the texts are silent:

- Sides: the units on the target's side are the candidates for "closest legal target" and
  its friendly units (a game of two armies).
- "Closest legal target", read as the seed recommends, compares the shooter's distance to the
  character with its distance to each legal target within 12 cm of the character; a tie
  lets the character be targeted (it is as close as any). Range is not part of legality
  (the text names only sight and combat). With no legal target there, the character is the
  closest one.
- Templates target points: no sight or proximity check is made for them (scatter and line of
  sight for placing them are the GM's).
- A character exactly 12 cm away is within 12 cm ("a 12 cm o menos").
- Spells other than magic missiles ignore Proximity only; a character inside a unit is
  targeted by them as by shooting.
- For split fire a part "cannot" shoot at a target that is out of its weapon's range, out of
  sight, or engaged in combat (unless it may shoot into combat).
"""

from __future__ import annotations

from dataclasses import dataclass

from gmkit.errors import GmkitError
from gmkit.sheets.wfb6 import Weapon, WFB6Character
from gmkit.systems.base import Modifier, Step
from gmkit.systems.wfb6.battlefield import Situation, UnitOnTable
from gmkit.systems.wfb6.data import TargetingRules, shooting_rules, targeting_rules


@dataclass(frozen=True)
class Ruling:
    """A targeting answer: ``allowed``, the ``reason``, the steps, the target's modifiers."""

    allowed: bool
    reason: str
    steps: tuple[Step, ...]
    modifiers: tuple[Modifier, ...] = ()

    def __bool__(self) -> bool:
        return self.allowed


def _ruling(
    title: str,
    allowed: bool,
    reason: str,
    *,
    modifiers: tuple[Modifier, ...] = (),
    verbs: tuple[str, str] = ("may be targeted", "may not be targeted"),
) -> Ruling:
    verdict = verbs[0] if allowed else verbs[1]
    return Ruling(allowed, reason, (Step(title, verdict, reason, modifiers=modifiers),), modifiers)


def target_modifiers(target: WFB6Character) -> tuple[Modifier, ...]:
    """The to-hit modifiers a designated model brings: -1 for a lone infantry character
    (not mounted, not larger), +1 for a large target (the model or its mount)."""
    rules = shooting_rules()
    found: list[Modifier] = []
    if target.is_lone_character and target.counts_as_infantry_character:
        found.append(rules.entry("lone_infantry_character").modifier())
    if target.is_large_target:
        found.append(rules.entry("large_target").modifier())
    return tuple(found)


def legal_target(unit: UnitOnTable, *, shoots_into_combat: bool = False) -> tuple[bool, str]:
    """Whether the shooter could designate ``unit`` at all, and why not."""
    if not unit.visible:
        return False, f"{unit.name} is out of sight"
    if unit.engaged and not shoots_into_combat:
        return False, f"{unit.name} is engaged in combat"
    return True, f"{unit.name} is a legal target"


def may_target(
    target: WFB6Character,
    situation: Situation | None = None,
    attack: str = "missile",
    *,
    rules: TargetingRules | None = None,
) -> Ruling:
    """Whether a shooter may designate ``target`` with an ``attack`` of that kind (an id of
    ``targeting.yaml``'s ``attack_kinds``), in ``situation``."""
    rules = rules or targeting_rules()
    situation = situation or Situation()
    kind = rules.kind(attack)
    title = f"Target {target.name}"
    if kind.targets == "points":
        reason = f"a {attack} targets a point on the table, not a model: no restriction"
        return _ruling(title, True, reason)
    if not situation.in_sight:
        return _ruling(title, False, f"{target.name} is out of sight")
    if situation.engaged and not situation.shoots_into_combat:
        return _ruling(title, False, f"{target.name} is engaged in combat")
    if target.role == "character" and not target.unit:
        return _lone(target, situation, kind.proximity, rules, title)
    unit = situation.unit_of(target)
    modifiers = target_modifiers(target)
    if target.role != "character":
        reason = f"shooting at its unit, {target.unit} (a {target.role} model)"
        return _ruling(title, True, reason, modifiers=modifiers)
    if unit is None:
        raise GmkitError(f"{target.name} is in the unit {target.unit!r}: list it in the situation")
    if target.size_rank > unit.size:
        reason = f"{target.name} (size {target.size_rank}) is larger than {unit.name} ({unit.size})"
        return _ruling(title, True, reason, modifiers=modifiers)
    reason = (
        f"{target.name} (size {target.size_rank}) is not larger than {unit.name} "
        f"({unit.size}): shoot at the unit; "
        + (
            f"its {unit.troops} rank-and-file models take every hit"
            if unit.troops >= rules.unit_models
            else f"with {unit.troops} rank-and-file models its hits are shared"
        )
    )
    return _ruling(title, False, reason)


def screening_units(
    character: WFB6Character, situation: Situation, rules: TargetingRules | None = None
) -> tuple[UnitOnTable, ...]:
    """Friendly units within 12 cm of a lone ``character`` with 5+ models of its size or
    larger (Proximity to friendly troops)."""
    rules = rules or targeting_rules()
    return tuple(
        unit
        for unit in situation.units
        if unit.side == character.side
        and not unit.has(character)
        and unit.distance_cm is not None
        and unit.distance_cm <= rules.proximity_cm
        and unit.models_at_least(character.size_rank) >= rules.screen_models
    )


def _lone(
    target: WFB6Character,
    situation: Situation,
    proximity: bool,
    rules: TargetingRules,
    title: str,
) -> Ruling:
    modifiers = target_modifiers(target)
    if not proximity:
        reason = "a spell that is not a magic missile may choose a lone character freely"
        return _ruling(title, True, reason, modifiers=modifiers)
    screens = screening_units(target, situation, rules)
    if not screens:
        reason = (
            f"no friendly unit of {rules.screen_models}+ models of its size or larger within "
            f"{rules.proximity_cm:g} cm: a lone character is a target like any unit"
        )
        return _ruling(title, True, reason, modifiers=modifiers)
    near = ", ".join(unit.name for unit in screens)
    reading = situation.reading or rules.closest_reading
    candidates = [
        unit
        for unit in situation.units
        if unit.side == target.side
        and not unit.has(target)
        and legal_target(unit, shoots_into_combat=situation.shoots_into_combat)[0]
        and (
            reading == "battlefield"
            or (unit.distance_cm is not None and unit.distance_cm <= rules.proximity_cm)
        )
    ]
    if not candidates:
        reason = f"screened by {near} but no other legal target there: it is the closest"
        return _ruling(title, True, reason, modifiers=modifiers)
    if situation.distance_cm is None:
        raise GmkitError(f"{target.name} is screened by {near}: give the distance to it")
    for unit in candidates:
        if unit.shooter_distance_cm is None:
            raise GmkitError(f"give the shooter's distance to {unit.name} (shooter_distance_cm)")
    closest = min(candidates, key=lambda unit: unit.shooter_distance_cm or 0.0)
    where = "" if reading == "near_character" else " (whole battlefield)"
    compared = (
        f"{target.name} at {situation.distance_cm:g} cm, "
        f"{closest.name} at {closest.shooter_distance_cm:g} cm{where}"
    )
    if situation.distance_cm <= (closest.shooter_distance_cm or 0.0):
        reason = f"screened by {near} but the closest legal target: {compared}"
        return _ruling(title, True, reason, modifiers=modifiers)
    reason = f"screened by {near}, not the closest legal target: {compared}"
    return _ruling(title, False, reason)


SHOOTS = ("may shoot", "may not shoot")


def _weapon(character: WFB6Character, name: str) -> Weapon:
    for weapon in character.weapons:
        if weapon.name.casefold() == name.casefold():
            return weapon
    known = ", ".join(weapon.name for weapon in character.weapons) or "none"
    raise GmkitError(f"{character.name} has no weapon {name!r}; known: {known}")


def can_shoot(
    weapon: Weapon, unit: UnitOnTable, *, shoots_into_combat: bool = False
) -> tuple[bool, str]:
    """Whether ``weapon`` can shoot at ``unit``: a legal target within its range."""
    legal, reason = legal_target(unit, shoots_into_combat=shoots_into_combat)
    if not legal:
        return False, reason
    if weapon.range_cm is None:
        return False, f"the {weapon.name} is not a missile weapon"
    if unit.shooter_distance_cm is None:
        raise GmkitError(f"give the shooter's distance to {unit.name} (shooter_distance_cm)")
    if not weapon.in_range(unit.shooter_distance_cm):
        return False, (
            f"{unit.name} at {unit.shooter_distance_cm:g} cm is beyond the {weapon.name}'s "
            f"{weapon.range_cm} cm"
        )
    return True, f"{unit.name} at {unit.shooter_distance_cm:g} cm is within {weapon.range_cm} cm"


def may_shoot_at(
    character: WFB6Character,
    weapon: str,
    target: UnitOnTable,
    *,
    primary: UnitOnTable | None = None,
    shoots_into_combat: bool = False,
) -> Ruling:
    """Whether ``character`` may shoot ``weapon`` (a weapon on its sheet, a mount's breath
    included) at ``target``.

    ``primary`` is the target already chosen by the character's unit, or by the other part
    of a character and its mount; without one the character chooses freely (a lone
    character, or the first part to choose). With one, the character must shoot at it
    unless its weapon cannot (split fire). Proximity to friendly troops is :func:`may_target`'s.
    """
    arm = _weapon(character, weapon)
    title = f"{character.name} shoots the {arm.name} at {target.name}"
    able, why = can_shoot(arm, target, shoots_into_combat=shoots_into_combat)
    if primary is None or primary.name == target.name:
        free = "the chosen target" if primary else "chooses freely"
        return _ruling(title, able, f"{free}: {why}", verbs=SHOOTS)
    held, held_why = can_shoot(arm, primary, shoots_into_combat=shoots_into_combat)
    if held:
        reason = f"must shoot at {primary.name}, the unit's target, which it can: {held_why}"
        return _ruling(title, False, reason, verbs=SHOOTS)
    reason = f"split fire: it cannot shoot at {primary.name} ({held_why}); {why}"
    return _ruling(title, able, reason, verbs=SHOOTS)
