"""WFRP 2e damage: the roll (1d10 + weapon), Ulric's Fury, soak, and critical hits.

- Damage is 1d10 plus the weapon's damage, which the sheet keeps relative to SB ("SB-1") or as
  a number for missiles (002). Unarmed attacks are SB-4 and armour counts double against them
  (002). An Impact weapon rolls two d10 and keeps the higher (qualities.yaml).
- Soak is TB plus the armour points at the location (002); Armour Piercing ignores points
  (qualities.yaml), never below 0. The wounds lost are the damage less the soak, never below 0
  (002: "if any").
- A hit that takes wounds below zero is a critical hit (002); its critical value is how far
  below zero, plus Precise (qualities.yaml): :mod:`gmkit.systems.wfrp2._criticals` (the GM's
  table, else a prompt for the GM; re-exported here).

Choices where seed 002 is silent (it does not describe Ulric's Fury):

- Ulric's Fury (the book's rule): a natural 10 on the kept damage die calls for the attack test
  again, with the same characteristic and modifiers; if it succeeds a d10 is added, and each
  further 10 adds another d10 without a new test. Against a helpless target (all attacks hit
  automatically, 002) the confirmation needs no roll. The chain stops after ``FURY_LIMIT`` extra
  dice, a guard against a rigged dice source; a GM goes on by hand. Only the weapon's damage
  die can start it, not extra dice (a helpless target's +1d10).
"""

from __future__ import annotations

from dataclasses import dataclass

from gmkit.dice import DiceSource, DieRoll
from gmkit.messages import Message
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems._percentile import location_name, roll_test
from gmkit.systems.base import Step
from gmkit.systems.wfrp2._catalogs import quality_label
from gmkit.systems.wfrp2._criticals import Critical, CriticalPrompt, result_id, roll_critical
from gmkit.systems.wfrp2._rolls import roll_dice
from gmkit.systems.wfrp2._setup import AttackSetup
from gmkit.systems.wfrp2._terms import number as bare_number
from gmkit.systems.wfrp2._terms import numbered

FURY_LIMIT = 20
GAME = "wfrp2"


@dataclass(frozen=True, slots=True)
class Damage:
    """A rolled damage total and how it came about."""

    total: int
    dice: tuple[DieRoll, ...]  # the damage d10s (two with Impact)
    kept: int  # the damage die kept
    weapon: int  # the weapon's part (SB-relative, evaluated)
    fury: tuple[DieRoll, ...] = ()  # Ulric's Fury dice added
    extra: tuple[DieRoll, ...] = ()  # extra dice (a helpless target's 1d10)
    steps: tuple[Step, ...] = ()


def weapon_damage(attacker: WFRP2Character, damage: str, source: DiceSource) -> int:
    """The weapon's part of the damage: ``"SB-1"`` with SB 4 is 3 (rolls no die)."""
    purpose = Message("wfrp2.die.weapon_damage")
    return roll_dice(damage, source, purpose, names=attacker.bonuses()).total


def _weapon_part(damage: str, value: int) -> Message:
    """The weapon's part as the damage step shows it: "3", "SB = 3", "SB-1 = 2" (BF in
    Spanish)."""
    if damage.lstrip("-").isdigit():
        return Message.verbatim(damage)
    if damage.startswith("SB"):
        return Message("wfrp2.detail.strength_bonus", modifier=damage[2:], value=value)
    return Message("wfrp2.detail.weapon_expression", expression=damage, value=value)


def roll_damage(
    setup: AttackSetup,
    attacker: WFRP2Character,
    source: DiceSource,
    *,
    number: int | None = None,
    fury: bool = True,
) -> Damage:
    """Roll one hit's damage: the d10(s), Ulric's Fury (unless ``fury`` is False), extra dice.

    ``number`` is the attack's among several (a swift attack's), for the titles."""
    count = setup.damage_dice
    expression = "1d10" if count == 1 else f"{count}d10kh1"
    rolled = roll_dice(expression, source, numbered(Message("wfrp2.die.damage"), number))
    kept = max(die.value for die in rolled.dice)
    part = weapon_damage(attacker, setup.weapon.damage, source)
    shown = tuple(die.value for die in rolled.dice)
    weapon = _weapon_part(setup.weapon.damage, part)
    if count == 1:
        detail = Message("wfrp2.detail.damage", dice=shown, weapon=setup.weapon_label, part=weapon)
    else:
        detail = Message(
            "wfrp2.detail.damage_kept",
            count=count,
            dice=shown,
            weapon=setup.weapon_label,
            part=weapon,
        )
    steps = [
        Step(
            numbered(Message("wfrp2.step.damage"), number),
            bare_number(kept + part),
            detail,
            rolls=rolled.dice,
        )
    ]
    fury_dice: tuple[DieRoll, ...] = ()
    if kept == 10 and fury:
        fury_dice, step = _ulrics_fury(setup, source, number)
        steps.append(step)
    extra: list[DieRoll] = []
    for why, dice in setup.extra_damage:
        purpose = numbered(Message("wfrp2.die.extra_damage", why=why), number)
        added = roll_dice(dice, source, purpose)
        extra.extend(added.dice)
        steps.append(
            Step(
                numbered(Message("wfrp2.step.extra_damage"), number),
                Message("wfrp2.outcome.added", value=added.total),
                Message("wfrp2.detail.extra_damage", why=why, dice=dice),
                added.dice,
            )
        )
    total = kept + part + sum(d.value for d in fury_dice) + sum(d.value for d in extra)
    if len(steps) > 1:
        steps.append(Step(numbered(Message("wfrp2.step.damage_total"), number), bare_number(total)))
    return Damage(total, rolled.dice, kept, part, fury_dice, tuple(extra), tuple(steps))


def _ulrics_fury(
    setup: AttackSetup, source: DiceSource, number: int | None = None
) -> tuple[tuple[DieRoll, ...], Step]:
    title = numbered(Message("wfrp2.step.fury"), number)
    detail: Message
    if setup.auto_hit:
        test = None
        detail = Message("wfrp2.detail.fury_helpless")
    else:
        test = roll_test(
            setup.characteristic,
            setup.base,
            setup.modifiers,
            source,
            numbered(Message("wfrp2.die.fury_confirmation"), number),
            cap=None,
        )
        detail = test.explain()
    if test is not None and not test.success:
        outcome = Message("wfrp2.outcome.fury_unconfirmed")
        return (), Step(title, outcome, detail, (test.roll,), test.target, test.modifiers)
    dice: list[DieRoll] = []
    while len(dice) < FURY_LIMIT and (not dice or dice[-1].value == 10):
        purpose = numbered(Message("wfrp2.die.fury", die=len(dice) + 1), number)
        dice.append(source.roll_die(10, purpose))
    added = sum(die.value for die in dice)
    shown = tuple(die.value for die in dice)
    rolls = (*((test.roll,) if test else ()), *dice)
    target = test.target if test else None
    modifiers = test.modifiers if test else ()
    outcome = Message("wfrp2.outcome.fury", value=added, dice=shown)
    return tuple(dice), Step(title, outcome, detail, rolls, target, modifiers)


def soak(target: WFRP2Character, location: str, setup: AttackSetup) -> tuple[int, Step]:
    """TB plus the armour points at ``location`` (doubled unarmed; less Armour Piercing)."""
    worn = target.armour_at(location)  # type: ignore[arg-type]
    counted = max(0, worn * setup.armour_multiplier - setup.armour_ignored)
    notes: list[Message] = []
    if setup.armour_multiplier != 1 and worn:
        notes.append(Message("wfrp2.detail.soak_unarmed", worn=worn, times=setup.armour_multiplier))
    if setup.armour_ignored and worn:
        notes.append(
            Message(
                "wfrp2.detail.soak_ignored",
                ignored=setup.armour_ignored,
                quality=quality_label("Armour Piercing"),
            )
        )
    where = location_name(location)
    if notes:
        detail = Message(
            "wfrp2.detail.soak_notes",
            tb=target.TB,
            armour=counted,
            location=where,
            notes=tuple(notes),
        )
    else:
        detail = Message("wfrp2.detail.soak", tb=target.TB, armour=counted, location=where)
    absorbed = target.TB + counted
    return absorbed, Step(Message("wfrp2.step.soak"), bare_number(absorbed), detail)


__all__ = [
    "FURY_LIMIT",
    "Critical",
    "CriticalPrompt",
    "Damage",
    "result_id",
    "roll_critical",
    "roll_damage",
    "soak",
    "weapon_damage",
]
