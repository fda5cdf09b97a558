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
  allocated (:mod:`gmkit.systems.wfb6._hits`).
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

from gmkit.errors import GmkitError, RulesError
from gmkit.messages import Message, Text
from gmkit.sheets._wfb6 import Weapon, WFB6Character
from gmkit.systems.base import Modifier, Step
from gmkit.systems.wfb6._battlefield import Situation, UnitOnTable, role_name
from gmkit.systems.wfb6._data import (
    TargetingRules,
    attack_kind_term,
    shooting_rules,
    targeting_rules,
)
from gmkit.systems.wfb6._hits import larger_than_unit


@dataclass(frozen=True)
class Ruling:
    """A targeting answer: ``allowed``, the ``reason``, the steps, the target's modifiers."""

    allowed: bool
    reason: Text
    steps: tuple[Step, ...]
    modifiers: tuple[Modifier, ...] = ()

    def __bool__(self) -> bool:
        return self.allowed


TARGETED = (Message("wfb6.target.may"), Message("wfb6.target.may_not"))
SHOOTS = (Message("wfb6.shoot.may"), Message("wfb6.shoot.may_not"))


def _ruling(
    title: Message,
    allowed: bool,
    reason: Message,
    *,
    modifiers: tuple[Modifier, ...] = (),
    verbs: tuple[Message, Message] = TARGETED,
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


def allowed_by_gm(ruling: Ruling, target: WFB6Character) -> Ruling:
    """``ruling`` when it allows the shot; otherwise the GM's allowance of it: the refusal
    stays in the steps, and the target brings its own to-hit modifiers."""
    if ruling:
        return ruling
    modifiers = target_modifiers(target)
    step = Step(
        Message("wfb6.target.title", target=target.name),
        Message("wfb6.target.gm_allows"),
        ruling.reason,
        modifiers=modifiers,
    )
    return Ruling(True, ruling.reason, (*ruling.steps, step), modifiers)


def legal_target(unit: UnitOnTable, *, shoots_into_combat: bool = False) -> tuple[bool, Message]:
    """Whether the shooter could designate ``unit`` at all, and why not."""
    if not unit.visible:
        return False, Message("wfb6.target.out_of_sight", name=unit.name)
    if unit.engaged and not shoots_into_combat:
        return False, Message("wfb6.target.engaged", name=unit.name)
    return True, Message("wfb6.target.legal", name=unit.name)


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
    title = Message("wfb6.target.title", target=target.name)
    if kind.targets == "points":
        reason = Message("wfb6.target.point", attack=attack_kind_term(attack))
        return _ruling(title, True, reason)
    if not situation.in_sight:
        return _ruling(title, False, Message("wfb6.target.out_of_sight", name=target.name))
    if situation.engaged and not situation.shoots_into_combat:
        return _ruling(title, False, Message("wfb6.target.engaged", name=target.name))
    if target.role == "character" and not target.unit:
        return _lone(target, situation, kind.proximity, rules, title)
    unit = situation.unit_of(target)
    modifiers = target_modifiers(target)
    if target.role != "character":
        reason = Message("wfb6.target.its_unit", unit=target.unit, role=role_name(target.role))
        return _ruling(title, True, reason, modifiers=modifiers)
    if unit is None:
        raise GmkitError(
            Message("wfb6.target.unit_not_listed", target=target.name, unit=repr(target.unit))
        )
    if target.size_rank > unit.size:
        return _ruling(title, True, larger_than_unit(target, unit), modifiers=modifiers)
    taken = (
        Message("wfb6.target.unit_takes_all", troops=unit.troops)
        if unit.troops >= rules.unit_models
        else Message("wfb6.target.unit_shares", troops=unit.troops)
    )
    reason = Message(
        "wfb6.target.shoot_the_unit",
        why=larger_than_unit(target, unit, larger=False),
        hits=taken,
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


def _no_shooter_distance(unit: UnitOnTable, situation: Situation | None = None) -> GmkitError:
    if situation is not None and situation.from_table:
        return RulesError(Message("wfb6.table.no_shooter_distance", unit=unit.name))
    return GmkitError(Message("wfb6.target.no_shooter_distance", unit=unit.name))


def _lone(
    target: WFB6Character,
    situation: Situation,
    proximity: bool,
    rules: TargetingRules,
    title: Message,
) -> Ruling:
    modifiers = target_modifiers(target)
    if not proximity:
        reason = Message("wfb6.target.spell_free")
        return _ruling(title, True, reason, modifiers=modifiers)
    screens = screening_units(target, situation, rules)
    if not screens:
        reason = Message(
            "wfb6.target.not_screened", models=rules.screen_models, distance=rules.proximity_cm
        )
        return _ruling(title, True, reason, modifiers=modifiers)
    near = tuple(unit.name for unit in screens)
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
        reason = Message("wfb6.target.screened_alone", near=near)
        return _ruling(title, True, reason, modifiers=modifiers)
    if situation.distance_cm is None:
        if situation.from_table:
            raise RulesError(Message("wfb6.table.no_distance", target=target.name, near=near))
        raise GmkitError(Message("wfb6.target.no_distance", target=target.name, near=near))
    for unit in candidates:
        if unit.shooter_distance_cm is None:
            raise _no_shooter_distance(unit, situation)
    closest = min(candidates, key=lambda unit: unit.shooter_distance_cm or 0.0)
    compared = Message(
        "wfb6.target.compared" if reading == "near_character" else "wfb6.target.compared_anywhere",
        target=target.name,
        distance=situation.distance_cm,
        closest=closest.name,
        closest_distance=closest.shooter_distance_cm or 0.0,
    )
    if situation.distance_cm <= (closest.shooter_distance_cm or 0.0):
        reason = Message("wfb6.target.screened_closest", near=near, compared=compared)
        return _ruling(title, True, reason, modifiers=modifiers)
    reason = Message("wfb6.target.screened_farther", near=near, compared=compared)
    return _ruling(title, False, reason)


def find_weapon(model: WFB6Character, name: str) -> Weapon:
    """The weapon of ``model`` named ``name`` (any case), or GmkitError naming the known."""
    for weapon in model.weapons:
        if weapon.name.casefold() == name.casefold():
            return weapon
    known = tuple(weapon.name for weapon in model.weapons)
    if not known:
        raise GmkitError(Message("wfb6.weapon.none", name=model.name, weapon=repr(name)))
    raise GmkitError(
        Message("wfb6.weapon.unknown", name=model.name, weapon=repr(name), known=known)
    )


def can_shoot(
    weapon: Weapon, unit: UnitOnTable, *, shoots_into_combat: bool = False
) -> tuple[bool, Message]:
    """Whether ``weapon`` can shoot at ``unit``: a legal target within its range."""
    legal, reason = legal_target(unit, shoots_into_combat=shoots_into_combat)
    if not legal:
        return False, reason
    if weapon.range_cm is None:
        return False, Message("wfb6.weapon.not_missile", weapon=weapon.name)
    if unit.shooter_distance_cm is None:
        raise _no_shooter_distance(unit)
    where = {
        "unit": unit.name,
        "distance": unit.shooter_distance_cm,
        "range": weapon.range_cm,
    }
    if not weapon.in_range(unit.shooter_distance_cm):
        return False, Message("wfb6.shoot.beyond_range", weapon=weapon.name, **where)
    return True, Message("wfb6.shoot.within_range", **where)


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
    arm = find_weapon(character, weapon)
    title = Message(
        "wfb6.shoot.title", character=character.name, weapon=arm.name, target=target.name
    )
    able, why = can_shoot(arm, target, shoots_into_combat=shoots_into_combat)
    if primary is None or primary.name == target.name:
        free = "wfb6.shoot.chosen_target" if primary else "wfb6.shoot.chooses_freely"
        return _ruling(title, able, Message(free, why=why), verbs=SHOOTS)
    held, held_why = can_shoot(arm, primary, shoots_into_combat=shoots_into_combat)
    if held:
        reason = Message("wfb6.shoot.must_shoot", primary=primary.name, why=held_why)
        return _ruling(title, False, reason, verbs=SHOOTS)
    reason = Message("wfb6.shoot.split_fire", primary=primary.name, held=held_why, why=why)
    return _ruling(title, able, reason, verbs=SHOOTS)
