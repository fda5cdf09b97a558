"""The rolls a 40k turn asks for, from the reminders of conditions.yaml (``ImperialTurns``).

A reminder with a ``test`` of a characteristic ("WP +0"), a ``chance`` (10 %) or a ``roll``
("1d10") is a roll due at its moment, for each combatant bearing the condition; its other
fields say what the roll does (the file's header documents them):

- Pinned: a Willpower test at the start of the turn in Dark Heresy (001), at its end in
  Deathwatch (004); ``success: lose`` ends pinning. Its ``bonus: 30`` (no longer shot at) is a
  second roll due, optional: the GM rolls the one that applies and passes over the other.
- On fire: the Willpower test to act normally at the start of the turn (a failure only runs
  screaming, as the reminder says), passed without a die in sealed armour (004; its
  ``passed_by: sealed_armour``: a worn piece ``sealed``, or the sheet's ``sealed_armour``):
  the roll due says so, and rolling it rolls nothing; at the end of each round ``1d10``
  Energy damage to the body that armour does not reduce (the Toughness Bonus does: 004 names
  only the armour) and a level of fatigue.
- Blood loss: at the end of each round a d100; at or under 10 the bearer dies (``gains:
  dead``). The Medicine test to stop it is a skill test, left to the GM (no roll due).

The test takes the bearer's own condition modifiers (fatigue -10...). A condition that binds
the bearer no more (pinned while in melee: :mod:`.melee`) asks nothing. ``Due.rule`` is
``"<condition>.<moment>"`` (``".bonus"`` added for the easier variant).
"""

from __future__ import annotations

import re

from gmkit.dice import DiceSource, DieRoll
from gmkit.errors import RulesError
from gmkit.messages import Message, Text
from gmkit.systems._imperial import melee
from gmkit.systems._imperial.conditions import (
    Reminder,
    bearer_modifiers,
    condition,
    gain,
    lose,
    reminders,
)
from gmkit.systems._imperial.terms import damage_type
from gmkit.systems._percentile import roll_test
from gmkit.systems.acting import ActionResult, Bearer, Due, Moment
from gmkit.systems.base import Effect, Modifier, Step

CHARACTERISTICS = ("WS", "BS", "S", "T", "Ag", "Int", "Per", "WP", "Fel")
_TEST = re.compile(r"^\s*(\w+)\s*([+-]\s*\d+)?\s*$")
_ROLL = re.compile(r"^\s*(\d*)\s*d\s*(\d+)\s*$")
_MOMENTS = ("start_of_turn", "end_of_turn", "end_of_round")


def _test(reminder: Reminder) -> tuple[str, int] | None:
    """(characteristic, modifier) of the reminder's test; None if it tests no characteristic."""
    found = _TEST.match(reminder.test or "")
    if found is None or found[1] not in CHARACTERISTICS:
        return None
    return found[1], int((found[2] or "0").replace(" ", ""))


def _dice(reminder: Reminder) -> tuple[int, ...]:
    found = _ROLL.match(reminder.roll or "")
    if found is None:
        return ()
    return (int(found[2]),) * int(found[1] or 1)


def _held(game: str, bearer: Bearer) -> list[str]:
    ids = melee.bound(game, bearer.standing.conditions)
    if getattr(bearer.sheet, "fatigue", 0) and "fatigued" not in ids:
        ids.append("fatigued")
    return ids


def _text(game: str, reminder: Reminder, bonus: int | None = None) -> Message:
    label = condition(game, reminder.condition).label
    if bonus is None:
        return Message("imperial.acting.due", condition=label, text=reminder.text)
    return Message("imperial.acting.due_bonus", condition=label, text=reminder.text, bonus=bonus)


def passed_by(reminder: Reminder, bearer: Bearer | None) -> Message | None:
    """Why ``bearer`` passes the reminder's test without a die (in sealed armour), or None."""
    if bearer is None or reminder.passed_by is None:
        return None
    sealed = bool(getattr(bearer.sheet, "in_sealed_armour", False))
    return Message("imperial.acting.sealed_armour") if sealed else None


def dues_of(game: str, reminder: Reminder, bearer: Bearer | None = None) -> tuple[Due, ...]:
    """The rolls due ``reminder`` asks for (none for a mere reminder or a skill test); one
    ``bearer`` passes without a die says so (rolling it rolls nothing)."""
    rule = f"{reminder.condition}.{reminder.when}"
    if reminder.test is not None:
        if _test(reminder) is None:
            return ()
        why = passed_by(reminder, bearer)
        if why is not None:
            label = condition(game, reminder.condition).label
            text = Message("imperial.acting.due_passes", condition=label, why=why)
            return (Due(rule, text, (100,)),)
        found = [Due(rule, _text(game, reminder), (100,))]
        if reminder.bonus:
            found.append(
                Due(f"{rule}.bonus", _text(game, reminder, reminder.bonus), (100,), optional=True)
            )
        return tuple(found)
    if reminder.chance is not None:
        return (Due(rule, _text(game, reminder), (100,)),)
    dice = _dice(reminder)
    return (Due(rule, _text(game, reminder), dice),) if dice else ()


def turn_rolls(game: str, moment: Moment, bearer: Bearer) -> tuple[Due, ...]:
    """The rolls ``moment`` asks of ``bearer`` for the conditions it bears."""
    if moment not in _MOMENTS:
        return ()
    held = melee.bound(game, bearer.standing.conditions)
    return tuple(
        due for item in reminders(held, moment, game=game) for due in dues_of(game, item, bearer)
    )


def _reminder(game: str, rule: str) -> tuple[Reminder, bool] | None:
    key, _, rest = rule.partition(".")
    when, _, variant = rest.partition(".")
    try:
        item = condition(game, key)
    except RulesError:  # a rule of another game's: not ours
        return None
    found = next((r for r in item.reminders if r.when == when), None)
    return (found, variant == "bonus") if found is not None else None


def roll_due(game: str, due: Due, bearer: Bearer, source: DiceSource) -> ActionResult | None:
    """``due`` rolled for ``bearer``: its steps and effects; None for a rule not of ``game``'s
    reminders."""
    found = _reminder(game, due.rule)
    if found is None:
        return None
    reminder, easier = found
    why = passed_by(reminder, bearer) if reminder.test is not None else None
    if why is not None:
        return _passed(game, reminder, bearer, why)
    if reminder.test is not None and _test(reminder) is not None:
        return _tested(game, reminder, easier, bearer, source)
    if reminder.chance is not None:
        return _chance(game, reminder, bearer, source)
    if _dice(reminder):
        return _rolled(game, reminder, bearer, source)
    return None


def _tested(
    game: str, reminder: Reminder, easier: bool, bearer: Bearer, source: DiceSource
) -> ActionResult:
    test = _test(reminder)
    assert test is not None
    key, modifier = test
    label = condition(game, reminder.condition).label
    modifiers = [Modifier(label, modifier)] if modifier else []
    if easier and reminder.bonus:
        modifiers.append(Modifier(Message("imperial.acting.bonus_source"), reminder.bonus))
    modifiers += bearer_modifiers(_held(game, bearer), key, game=game)
    sheet = bearer.sheet
    value = int(getattr(sheet.characteristics, key))  # type: ignore[attr-defined]
    rolled = roll_test(key, value, modifiers, source, _text(game, reminder))
    outcome = Message("imperial.acting.passed" if rolled.success else "imperial.acting.failed")
    effects: list[Effect] = []
    if rolled.success and reminder.success == "lose":
        outcome = Message("imperial.acting.ends", condition=label)
        effects.append(lose(game, sheet.name, reminder.condition))
    detail = Message("common.join", parts=(rolled.explain(), reminder.text))
    step = Step(label, outcome, detail, (rolled.roll,), rolled.target)
    return ActionResult(
        (step,),
        tuple(effects),
        Message("imperial.acting.due_summary", name=sheet.name, outcome=outcome),
    )


def _passed(game: str, reminder: Reminder, bearer: Bearer, why: Message) -> ActionResult:
    """The test passed without a die (``why``: in sealed armour); a ``success: lose`` ends the
    condition as a passed roll would."""
    label = condition(game, reminder.condition).label
    outcome: Text = Message("imperial.acting.passed_without_die", why=why)
    effects: list[Effect] = []
    if reminder.success == "lose":
        effects.append(lose(game, bearer.sheet.name, reminder.condition))
    step = Step(label, outcome, reminder.text)
    summary = Message("imperial.acting.due_summary", name=bearer.sheet.name, outcome=outcome)
    return ActionResult((step,), tuple(effects), summary)


def _chance(game: str, reminder: Reminder, bearer: Bearer, source: DiceSource) -> ActionResult:
    chance = int(reminder.chance or 0)
    label = condition(game, reminder.condition).label
    die = source.roll_die(100, _text(game, reminder))
    name = bearer.sheet.name
    detail = Message("imperial.acting.chance", roll=die.value, chance=chance)
    effects: tuple[Effect, ...] = ()
    if die.value <= chance and reminder.gains:
        gained = condition(game, reminder.gains).label
        outcome: Text = Message("imperial.acting.chance_came", condition=gained)
        effects = (
            gain(
                game,
                name,
                reminder.gains,
                note=Message("imperial.acting.due_note", condition=label),
            ),
        )
    elif die.value <= chance:
        outcome = Message("imperial.acting.chance_came_note")
    else:
        outcome = Message("imperial.acting.chance_spared")
    step = Step(label, outcome, detail, (die,), chance)
    return ActionResult(
        (step,), effects, Message("imperial.acting.due_summary", name=name, outcome=outcome)
    )


def _rolled(game: str, reminder: Reminder, bearer: Bearer, source: DiceSource) -> ActionResult:
    label = condition(game, reminder.condition).label
    purpose = _text(game, reminder)
    rolls: tuple[DieRoll, ...] = tuple(source.roll_die(sides, purpose) for sides in _dice(reminder))
    total = sum(roll.value for roll in rolls)
    sheet, name = bearer.sheet, bearer.sheet.name
    effects: list[Effect] = []
    if reminder.damage is None:
        outcome: Text = Message("imperial.acting.rolled", total=total)
        step = Step(label, outcome, reminder.text, rolls)
        return ActionResult(
            (step,), (), Message("imperial.acting.due_summary", name=name, outcome=outcome)
        )
    location = reminder.location
    toughness = 0 if "toughness" in reminder.ignores else int(sheet.bonus("T"))  # type: ignore[attr-defined]
    armour = 0 if "armour" in reminder.ignores else int(sheet.armour_at(location))  # type: ignore[attr-defined]
    damage = max(0, total - toughness - armour)
    kind = damage_type(reminder.damage)
    outcome = Message("imperial.acting.damage", damage=damage, damage_type=kind)
    parts: list[Message] = [
        Message(
            "imperial.acting.damage_detail",
            rolled=total,
            armour=armour,
            toughness=toughness,
            damage=damage,
        )
    ]
    if damage:
        effects.append(
            Effect("damage", name, damage, location=location, damage_type=reminder.damage)
        )
    if reminder.fatigue:
        parts.append(Message("imperial.acting.fatigue", fatigue=reminder.fatigue))
        effects.append(Effect("fatigue", name, reminder.fatigue))
    detail = Message("common.join", parts=tuple(parts))
    step = Step(label, outcome, detail, rolls)
    return ActionResult(
        (step,), tuple(effects), Message("imperial.acting.due_summary", name=name, outcome=outcome)
    )


__all__ = ["dues_of", "roll_due", "turn_rolls"]
