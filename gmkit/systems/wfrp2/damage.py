"""WFRP 2e damage: the roll (1d10 + weapon), Ulric's Fury, soak, and critical hits.

- Damage is 1d10 plus the weapon's damage, which the sheet keeps relative to SB ("SB-1") or as
  a number for missiles (002). Unarmed attacks are SB-4 and armour counts double against them
  (002). An Impact weapon rolls two d10 and keeps the higher (qualities.yaml).
- Soak is TB plus the armour points at the location (002); Armour Piercing ignores points
  (qualities.yaml), never below 0. The wounds lost are the damage less the soak, never below 0
  (002: "if any").
- A hit that takes wounds below zero is a critical hit (002); its critical value is how far
  below zero, plus Precise (qualities.yaml), read on ``criticals.yaml`` (:func:`roll_critical`).

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
from typing import Any, cast, get_args

from gmkit.dice import DiceSource, DieRoll, roll
from gmkit.errors import GmkitError
from gmkit.sheets.wfrp2 import WFRP2Character
from gmkit.systems.base import Effect, EffectKind, Step
from gmkit.systems.percentile import location_class, roll_test
from gmkit.systems.tables import table
from gmkit.systems.wfrp2.setup import AttackSetup

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
    return roll(damage, source, "weapon damage", names=attacker.bonuses()).total


def _weapon_part(damage: str, value: int) -> str:
    return damage if damage.lstrip("-").isdigit() else f"{damage} = {value}"


def roll_damage(
    setup: AttackSetup,
    attacker: WFRP2Character,
    source: DiceSource,
    *,
    label: str = "",
    fury: bool = True,
) -> Damage:
    """Roll one hit's damage: the d10(s), Ulric's Fury (unless ``fury`` is False), extra dice."""
    count = setup.damage_dice
    expression = "1d10" if count == 1 else f"{count}d10kh1"
    rolled = roll(expression, source, f"{label}damage")
    kept = max(die.value for die in rolled.dice)
    part = weapon_damage(attacker, setup.weapon.damage, source)
    shown = ", ".join(str(die.value) for die in rolled.dice)
    how = "1d10" if count == 1 else f"{count}d10, the highest kept"
    steps = [
        Step(
            f"{label}Damage",
            f"{kept + part}",
            f"{how} ({shown}) + {setup.weapon.name} {_weapon_part(setup.weapon.damage, part)}",
            rolls=rolled.dice,
        )
    ]
    fury_dice: tuple[DieRoll, ...] = ()
    if kept == 10 and fury:
        fury_dice, step = _ulrics_fury(setup, source, label)
        steps.append(step)
    extra: list[DieRoll] = []
    for why, dice in setup.extra_damage:
        added = roll(dice, source, f"{label}extra damage ({why})")
        extra.extend(added.dice)
        steps.append(Step(f"{label}Extra damage", f"+{added.total}", f"{why}: {dice}", added.dice))
    total = kept + part + sum(d.value for d in fury_dice) + sum(d.value for d in extra)
    if len(steps) > 1:
        steps.append(Step(f"{label}Damage total", f"{total}"))
    return Damage(total, rolled.dice, kept, part, fury_dice, tuple(extra), tuple(steps))


def _ulrics_fury(
    setup: AttackSetup, source: DiceSource, label: str
) -> tuple[tuple[DieRoll, ...], Step]:
    title = f"{label}Ulric's Fury"
    if setup.auto_hit:
        test = None
        detail = "confirmed without a roll: every attack on a helpless target hits"
    else:
        test = roll_test(
            setup.characteristic,
            setup.base,
            setup.modifiers,
            source,
            f"{label}Ulric's Fury confirmation",
            cap=None,
        )
        detail = test.explain()
    if test is not None and not test.success:
        return (), Step(title, "not confirmed", detail, (test.roll,), test.target, test.modifiers)
    dice: list[DieRoll] = []
    while len(dice) < FURY_LIMIT and (not dice or dice[-1].value == 10):
        dice.append(source.roll_die(10, f"{label}Ulric's Fury die {len(dice) + 1}"))
    added = sum(die.value for die in dice)
    shown = " + ".join(str(die.value) for die in dice)
    rolls = (*((test.roll,) if test else ()), *dice)
    target = test.target if test else None
    modifiers = test.modifiers if test else ()
    return tuple(dice), Step(title, f"+{added} ({shown})", detail, rolls, target, modifiers)


def soak(target: WFRP2Character, location: str, setup: AttackSetup) -> tuple[int, Step]:
    """TB plus the armour points at ``location`` (doubled unarmed; less Armour Piercing)."""
    worn = target.armour_at(location)  # type: ignore[arg-type]
    counted = max(0, worn * setup.armour_multiplier - setup.armour_ignored)
    notes = []
    if setup.armour_multiplier != 1 and worn:
        notes.append(f"{worn} x {setup.armour_multiplier} against an unarmed attack")
    if setup.armour_ignored and worn:
        notes.append(f"{setup.armour_ignored} ignored (Armour Piercing)")
    extra = f" ({'; '.join(notes)})" if notes else ""
    where = location.replace("_", " ")
    detail = f"TB {target.TB} + armour {counted} at the {where}{extra}"
    return target.TB + counted, Step("Soak", f"{target.TB + counted}", detail)


@dataclass(frozen=True, slots=True)
class Critical:
    """A critical hit read on ``criticals.yaml``: the value, the d100, the result, its effects."""

    value: int
    location: str
    roll: DieRoll | None
    result: int | None
    text: str
    effects: tuple[Effect, ...]
    steps: tuple[Step, ...]


def _critical_table() -> dict[str, Any]:
    data = table(GAME, "criticals")
    if not isinstance(data, dict) or not isinstance(data.get("max_value"), int):
        raise GmkitError("wfrp2/criticals.yaml: a mapping with max_value, chart and results")
    for key in ("chart", "results"):
        if not isinstance(data.get(key) or [], list):
            raise GmkitError(f"wfrp2/criticals.yaml: {key} must be a list of rows")
    return data


def _effect(target: str, location: str, raw: Any) -> Effect:
    kinds = get_args(EffectKind)
    if not isinstance(raw, dict) or raw.get("kind") not in kinds:
        raise GmkitError(f"wfrp2/criticals.yaml: an effect needs a kind ({', '.join(kinds)})")
    fields = {key: raw[key] for key in ("amount", "condition", "rounds", "note") if key in raw}
    return Effect(cast(EffectKind, raw["kind"]), target, location=location, **fields)


def roll_critical(
    target: str, value: int, location: str, source: DiceSource, *, label: str = ""
) -> Critical:
    """Roll a critical hit of ``value`` at ``location`` on ``criticals.yaml``.

    Returns the critical effect (``amount`` the critical value) and the table's effects. A value
    the chart has no row for rolls nothing and asks the GM to read the book.
    """
    data = _critical_table()
    capped = min(value, int(data["max_value"]))
    title = f"{label}Critical hit"
    placeholder = "PLACEHOLDER table (fill criticals.yaml from the book): " * bool(
        data.get("placeholder")
    )
    rows = [row for row in data.get("chart") or [] if row.get("value") == capped]
    if not rows:
        text = f"critical value +{capped}: criticals.yaml has no row; read the book's table"
        effect = Effect("critical", target, capped, location, note=text)
        step = Step(title, f"critical value +{capped}", placeholder + text)
        return Critical(capped, location, None, None, text, (effect,), (step,))
    die = source.roll_die(100, f"{label}critical")
    row = next((r for r in rows if die.value <= int(r["upto"])), None)
    result = None if row is None else int(row["result"])
    kind = location_class(location)
    found = [
        r
        for r in data.get("results") or []
        if r.get("result") == result and r.get("location") in (kind, location, "any")
    ]
    found.sort(key=lambda r: r.get("location") == "any")
    if result is None or not found:
        text = f"result {result}: criticals.yaml has no effect for it; read the book's table"
        effects: tuple[Effect, ...] = (Effect("critical", target, capped, location, note=text),)
    else:
        text = str(found[0].get("text", ""))
        effects = (
            Effect("critical", target, capped, location, note=text),
            *(_effect(target, location, raw) for raw in found[0].get("effects") or []),
        )
    outcome = f"critical value +{capped}, d100 {die.value}: result {result}"
    step = Step(title, outcome, placeholder + text, (die,))
    return Critical(capped, location, die, result, text, effects, (step,))
