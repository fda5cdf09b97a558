"""Applying a WFRP 2e attack's effects to a sheet (pure: a new sheet comes back).

:func:`apply_effects` takes the effects meant for one character (``effect.target`` is its
name) and returns an :class:`Applied`: the new sheet (``sheet.edit``), and the effects the sheet
cannot hold, for the encounter to keep (conditions, criticals, reactions spent, notes).

- Damage lowers ``wounds_current``, never below 0 (002: a survivor of a critical counts as having
  zero wounds). The wounds it would take below zero are a critical: the critical effect that
  :func:`~gmkit.systems.wfrp2._resolve.resolve_attack` lists right after the damage is passed
  on; damage that comes without one (typed by the GM) gets a new critical effect whose amount is
  the critical value (how far below zero), for :func:`~gmkit.systems.wfrp2._damage.roll_critical`.

:func:`apply_effect` is the same for one effect, as the encounter asks (the protocol's
``apply_effect``): a damage effect gives the new sheet and, below zero, the critical as a
follow-up; every other kind is the encounter's (None).

Choices where seed 002 is silent:

- The sheet has no conditions: stunned, helpless, dead... are returned in ``outstanding``.
- A damage effect of negative amount is refused (healing is not an effect of an attack).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems._percentile import location_name
from gmkit.systems.base import Effect, Step
from gmkit.systems.wfrp2._terms import wound_state


@dataclass(frozen=True)
class Applied:
    """The sheet after the effects, what changed it, and what is left for the encounter."""

    sheet: WFRP2Character
    applied: tuple[Effect, ...]  # effects the sheet now shows (damage)
    outstanding: tuple[Effect, ...]  # conditions, criticals, reactions, notes: the encounter's
    steps: tuple[Step, ...]

    def explain(self, language: str = "en") -> str:
        """The steps, one a line."""
        return "\n".join(step.render(language) for step in self.steps)


def _negative(sheet: WFRP2Character, amount: int) -> GmkitError:
    return GmkitError(Message("wfrp2.refusal.negative_damage", character=sheet.name, amount=amount))


def _critical_note(value: int) -> Message:
    return Message("wfrp2.note.critical_to_roll", value=value)


def apply_effect(
    sheet: WFRP2Character, effect: Effect
) -> tuple[WFRP2Character, tuple[Effect, ...]] | None:
    """One effect on ``sheet``, whatever its target names (the encounter may name the combatant
    by its id): damage gives the new sheet and, for the wounds it would take below zero, a
    critical effect as the follow-up (``amount`` the critical value; aimed at the effect's
    target). Every other kind is not the sheet's business: None.
    """
    if effect.kind != "damage":
        return None
    if effect.amount < 0:
        raise _negative(sheet, effect.amount)
    left = sheet.wounds_current - effect.amount
    new = sheet if effect.amount == 0 else sheet.edit(wounds_current=max(0, left))
    if left >= 0:
        return new, ()
    critical = Effect(
        "critical",
        effect.target,
        -left,
        effect.location,
        weapon=effect.weapon,
        note=_critical_note(-left),
    )
    return new, (critical,)


def apply_effects(sheet: WFRP2Character, effects: Iterable[Effect]) -> Applied:
    """A new ``sheet`` with the ``effects`` aimed at it applied (others are ignored)."""
    listed = [effect for effect in effects if effect.target == sheet.name]
    wounds = sheet.wounds_current
    applied: list[Effect] = []
    outstanding: list[Effect] = []
    steps: list[Step] = []
    for index, effect in enumerate(listed):
        if effect.kind != "damage":
            outstanding.append(effect)
            continue
        if effect.amount < 0:
            raise _negative(sheet, effect.amount)
        left = wounds - effect.amount
        where = location_name(effect.location) if effect.location else Message("wfrp2.no_location")
        applied.append(effect)
        if left < 0:
            following = listed[index + 1] if index + 1 < len(listed) else None
            covered = (
                following is not None
                and following.kind == "critical"
                and following.location == effect.location
            )
            if not covered:
                critical = Effect(
                    "critical",
                    sheet.name,
                    -left,
                    effect.location,
                    weapon=effect.weapon,
                    note=_critical_note(-left),
                )
                outstanding.append(critical)
            outcome = Message("wfrp2.applied.critical", wounds=wounds, below=-left)
        else:
            outcome = Message("wfrp2.applied.wounds", wounds=wounds, left=left)
        detail = Message("wfrp2.applied.where", amount=effect.amount, location=where)
        steps.append(Step(Message("wfrp2.step.damage"), outcome, detail))
        wounds = max(0, left)
    new = sheet if wounds == sheet.wounds_current else sheet.edit(wounds_current=wounds)
    if applied:
        steps.append(
            Step(
                Message("wfrp2.step.wound_state"),
                wound_state(new.wound_state),
                Message("wfrp2.applied.wounds_of", left=new.wounds_current, wounds=new.secondary.W),
            )
        )
    return Applied(new, tuple(applied), tuple(outstanding), tuple(steps))
