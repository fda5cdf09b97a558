"""Applying an attack's effects to a 40k sheet, purely: each returns a new sheet (``edit``).

- Damage fills wounds; what goes beyond them is critical damage at the hit's location and of
  its damage type (001, 004), and ``criticals.critical_effect(game, location, damage_type,
  total)`` (if that module is there) says what it does: its effects come back as follow-ups.
  A placeholder row is never applied (the seeds' README ruling); without a row the GM provided,
  and unless the character dies of it anyway, the application holds a
  ``criticals.CriticalPrompt`` (in ``Applied.criticals``) and its note follows up: the GM
  decides the effect (``CriticalPrompt.answer``).
- Critical damage alone (001's house Righteous Fury) adds to ``critical_damage`` and leaves the
  wounds as they are; a Dark Heresy minion dies of it.
- Fatigue adds levels; more levels than the Toughness Bonus knock the character out for
  10 - TB minutes (at least 1), and on waking it keeps one level (004).
- Ammunition, magnitude: the weapon's ``loaded`` and the horde's ``magnitude`` go down, never
  below 0. Conditions, reactions, jams, cover, pinning and notes belong to the encounter: the
  sheet is returned unchanged.
- ``apply_for_encounter`` is the systems' ``apply_effect``: the same for one effect, None for
  what the encounter applies itself (ammunition included: it counts the rounds spent).
- Damage states and natural healing (004, Healing): lightly damaged heals 1 a day (TB for a day
  in bed), heavily damaged 1 a week (TB for a week of rest), critical damage only with rest
  and medical care, 1 a week, and the wounds wait until it is gone.

Choices where the texts are silent (or disagree):

- 004 calls a character heavily damaged above 2 x TB but has it heal back to lightly damaged
  only at TB or less; the sheet keeps no state, so 2 x TB decides both ways.
- Critical damage stops at 10 (the tables end there: every entry is death); more is noted and
  kills (a ``dead`` condition follows, unless the table's row already gave one).
- Deathwatch's sheet holds critical damage only beyond full wounds; a bare critical effect on
  a Deathwatch sheet that is not yet at full wounds fills its wounds first.
- Dark Heresy (001) gives fatigue no floor on unconsciousness and recovers 1 level an hour;
  ``recover_fatigue`` follows 004's 10 minutes a level in Deathwatch and 001's hour in Dark
  Heresy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from gmkit.messages import Message
from gmkit.sheets._dark_heresy import ImperialCharacter
from gmkit.systems._imperial import criticals
from gmkit.systems._imperial.conditions import gain
from gmkit.systems._imperial.criticals import CriticalPrompt
from gmkit.systems._imperial.terms import damage_type
from gmkit.systems._percentile import location_name
from gmkit.systems.base import Effect

S = TypeVar("S", bound=ImperialCharacter)
CRITICAL_MAX = 10
SHEET_KINDS = ("damage", "critical", "fatigue", "ammo", "magnitude")
RULES_KINDS = ("damage", "critical", "fatigue", "magnitude")  # the encounter counts ammunition


@dataclass(frozen=True)
class Applied(Generic[S]):
    """A sheet after an effect, and what the encounter must know or add because of it."""

    sheet: S
    follow_up: tuple[Effect, ...] = ()  # conditions the effect caused (unconscious, dead)
    notes: tuple[Message, ...] = ()
    criticals: tuple[Any, ...] = ()  # ``criticals.critical_effect``'s row, or a CriticalPrompt


def critical_effect(game: str, location: str | None, damage_type: str | None, value: int) -> Any:
    """The critical effect of ``value`` total critical damage (the criticals tables)."""
    return criticals.critical_effect(game, location or "body", damage_type or "Impact", value)


def _criticals(sheet: S, added: int, effect: Effect, notes: list[Message]) -> Applied[S]:
    total = sheet.critical_damage + added
    past = total > CRITICAL_MAX
    if past:
        notes.append(Message("imperial.effects.past_tables", total=total, most=CRITICAL_MAX))
    total = min(total, CRITICAL_MAX)
    changes: dict[str, Any] = {"critical_damage": total}
    if sheet.game == "deathwatch" and sheet.damage < sheet.wounds:
        changes["damage"] = sheet.wounds
    new = sheet.edit(**changes)
    found = critical_effect(sheet.game, effect.location, effect.damage_type, total)
    if getattr(found, "placeholder", False) is True:
        found = None  # a placeholder row is never applied: the GM decides
    follow: list[Effect] = []
    to_effects = getattr(found, "to_effects", None)
    if callable(to_effects):
        follow.extend(to_effects(sheet.name, effect.location))
    minion = bool(getattr(new, "dead", False))
    if (past or minion) and not any(item.condition == "dead" for item in follow):
        why = (
            Message("imperial.effects.minion")
            if minion
            else Message("imperial.effects.past_critical", most=CRITICAL_MAX)
        )
        follow.append(gain(sheet.game, sheet.name, "dead", note=why))
    prompt = None
    if found is None and not any(item.condition == "dead" for item in follow):
        prompt = CriticalPrompt.of(
            sheet.game, sheet.name, total, effect.location, effect.damage_type
        )
        follow.append(prompt.to_effect())
    notes.append(
        Message(
            "imperial.effects.critical",
            total=total,
            damage_type=damage_type(effect.damage_type or "Impact"),
            location=location_name(effect.location or "body"),
        )
    )
    criticals = (found,) if found is not None else (prompt,) if prompt is not None else ()
    return Applied(new, tuple(follow), tuple(notes), criticals)


def apply(sheet: S, effect: Effect) -> Applied[S]:
    """``effect`` applied to ``sheet`` (if it is the effect's target and the sheet's business)."""
    if effect.target != sheet.name or effect.kind not in SHEET_KINDS:
        return Applied(sheet)
    if effect.kind == "damage":
        taken = min(effect.amount, sheet.wounds - sheet.damage)
        beyond = effect.amount - taken
        notes = [Message("imperial.effects.damage", taken=taken)] if taken else []
        if not beyond:
            return Applied(sheet.edit(damage=sheet.damage + taken), (), tuple(notes))
        return _criticals(sheet.edit(damage=sheet.wounds), beyond, effect, notes)
    if effect.kind == "critical":
        return _criticals(sheet, effect.amount, effect, [])
    if effect.kind == "fatigue":
        return _fatigue(sheet, effect.amount)
    if effect.kind == "ammo":
        weapons = [
            {**weapon.model_dump(), "loaded": max(0, weapon.loaded - effect.amount)}
            if weapon.name == effect.weapon
            else weapon.model_dump()
            for weapon in sheet.weapons
        ]
        return Applied(sheet.edit(weapons=weapons))
    horde = getattr(sheet, "horde", None)
    if horde is None:
        return Applied(sheet, notes=(Message("imperial.effects.not_a_horde", name=sheet.name),))
    left = max(0, horde.magnitude - effect.amount)
    new = sheet.edit(horde={**horde.model_dump(), "magnitude": left})
    magnitude = Message("imperial.effects.magnitude", left=left, most=horde.magnitude_max)
    destroyed = (Message("imperial.effects.destroyed"),) if not left else ()
    return Applied(new, notes=(magnitude, *destroyed))


def _fatigue(sheet: S, levels: int) -> Applied[S]:
    new = sheet.edit(fatigue=min(20, max(0, sheet.fatigue + levels)))
    if levels > 0 and new.unconscious_from_fatigue and not sheet.unconscious_from_fatigue:
        note = Message("imperial.effects.out_from_fatigue", minutes=new.unconscious_minutes)
        out = gain(sheet.game, sheet.name, "unconscious", note=note)
        return Applied(new, (out,), (note,))
    return Applied(new, notes=(Message("imperial.effects.fatigue", fatigue=new.fatigue),))


def apply_effect(sheet: S, effect: Effect) -> S:
    """``apply`` for callers that only want the new sheet."""
    return apply(sheet, effect).sheet


def apply_for_encounter(sheet: S, effect: Effect) -> tuple[S, tuple[Effect, ...]] | None:
    """``effect`` on ``sheet`` if it is the sheet's business (``RULES_KINDS``): the new sheet,
    and the effects it caused (unconscious, dead, the critical table's) for the encounter to
    apply in turn; None for what the encounter applies itself (conditions, ammunition, jams,
    reactions, cover, pinning, notes). ``effect.target`` may be the encounter's id for the
    combatant: the effect goes to ``sheet`` whatever it says, and the follow-ups to that target.
    """
    if effect.kind not in RULES_KINDS:
        return None
    applied = apply(sheet, replace(effect, target=sheet.name))
    follow = tuple(
        replace(item, target=effect.target) if item.target == sheet.name else item
        for item in applied.follow_up
    )
    return applied.sheet, follow


def apply_effects(sheet: S, effects: Iterable[Effect]) -> Applied[S]:
    """Every effect aimed at ``sheet``, in order; the follow-ups and notes gathered."""
    follow: list[Effect] = []
    notes: list[Message] = []
    criticals: list[Any] = []
    for effect in effects:
        applied = apply(sheet, effect)
        sheet = applied.sheet
        follow += applied.follow_up
        notes += applied.notes
        criticals += applied.criticals
    return Applied(sheet, tuple(follow), tuple(notes), tuple(criticals))


def wake_from_fatigue(sheet: S) -> S:
    """A character knocked out by fatigue wakes with one level of it (004)."""
    return sheet.edit(fatigue=min(sheet.fatigue, 1)) if sheet.game == "deathwatch" else sheet


def recover_fatigue(sheet: S, minutes: int) -> S:
    """Rest without stress: a level every 10 minutes, all of it in an hour (004); Dark Heresy
    (001): a level an hour."""
    if sheet.game == "deathwatch":
        levels = sheet.fatigue if minutes >= 60 else minutes // 10
    else:
        levels = minutes // 60
    return sheet.edit(fatigue=max(0, sheet.fatigue - levels))


def heal(sheet: S, days: int, *, resting: bool = False, medical: bool = False) -> S:
    """``days`` of natural healing (``resting``: in bed all along; ``medical``: in care)."""
    damage, critical, week = sheet.damage, sheet.critical_damage, 0
    toughness = sheet.bonus("T")
    for _ in range(days):
        if critical:
            week = week + 1 if resting and medical else 0
            if week == 7:
                critical, week = critical - 1, 0
            continue
        if not damage:
            break
        if damage > 2 * toughness:
            week += 1
            if week == 7:
                damage, week = max(0, damage - (toughness if resting else 1)), 0
            continue
        damage, week = max(0, damage - (max(toughness, 1) if resting else 1)), 0
    return sheet.edit(damage=damage, critical_damage=critical)
