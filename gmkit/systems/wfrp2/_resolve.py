"""A WFRP 2e attack from the test to the effects (seed 002's five steps, with the reactions).

For each attack of the action (one, or A for a swift attack): the WS or BS test (no modifier
cap: 002 gives none), the location from the roll's reversed digits (``hit_locations.yaml``),
the defender's reaction, the damage (:mod:`gmkit.systems.wfrp2._damage`), the soak, the wounds
lost and, below zero, the critical hit. Nothing is changed: the result lists the effects.

Choices where seed 002 is silent:

- The defender's reaction comes from the option ``reaction``: "parry", "dodge" or None
  for every attack (used on the first hit it can be: one parry and one dodge a round, 002), or a
  list with one entry per attack. A reaction is chosen before the dice and spent only on a hit,
  whether it succeeds or not; it is reported as an effect of kind "reaction" on the defender.
  A reaction the defender cannot use is reported and not rolled.
- A helpless target is hit without a test (002), but the d100 is still rolled: its reversed
  digits give the location.
- The test has no automatic success or failure: 002 gives none.
- A swift attack's hits run down the target's wounds in turn: once at zero, each further
  wound lost is a critical (002: a survivor of a critical counts as having zero wounds).
- The option ``ulrics_fury=False`` turns Ulric's Fury off (it is the book's rule, not 002's).
- A critical hit is read on the GM's table (the option ``critical_table``: its path), else the
  GM is asked for its effect (:mod:`gmkit.systems.wfrp2._criticals`; the result's ``prompts``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gmkit.dice import DiceSource
from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems._percentile import (
    characteristic,
    hit_location,
    location_name,
    reverse_digits,
    roll_test,
)
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Step
from gmkit.systems.wfrp2._catalogs import REACTIONS, quality_label
from gmkit.systems.wfrp2._criticals import Critical, CriticalPrompt, roll_critical
from gmkit.systems.wfrp2._damage import roll_damage, soak
from gmkit.systems.wfrp2._setup import (
    AttackSetup,
    ReactionOption,
    attack_setup,
    options_of,
    sheets,
)
from gmkit.systems.wfrp2._terms import (
    action_type,
    mode_name,
    numbered,
    numbered_die,
    reaction_name,
    wound_state,
)

GAME = "wfrp2"
NO_REACTION = (None, "", "none")


@dataclass(frozen=True)
class WFRP2AttackResult(AttackResult):
    """An attack's result with its critical hits (``prompts``: those the GM gives the effect
    of, no table giving it: :mod:`gmkit.systems.wfrp2._criticals`)."""

    criticals: tuple[Critical, ...] = ()

    @property
    def prompts(self) -> tuple[CriticalPrompt, ...]:
        """The critical hits whose effect the GM is asked for."""
        return tuple(c.prompt for c in self.criticals if c.prompt is not None)


def reaction_choices(chosen: Any, attacks: int) -> tuple[list[str | None], bool]:
    """One reaction (or None) per attack, and whether a single choice stands for all."""
    if chosen is None or isinstance(chosen, str):
        choices: list[str | None] = [None if chosen in NO_REACTION else chosen] * attacks
        standing = True
    elif isinstance(chosen, Sequence):
        if len(chosen) != attacks:
            raise RulesError(
                Message("wfrp2.refusal.reactions_per_attack", attacks=attacks, given=len(chosen))
            )
        choices = [None if c in NO_REACTION else str(c) for c in chosen]
        standing = False
    else:
        raise RulesError(Message("wfrp2.refusal.reaction_kind", got=repr(chosen)))
    for choice in choices:
        if choice is not None and choice not in REACTIONS:
            raise RulesError(Message("wfrp2.refusal.unknown_reaction", reaction=repr(choice)))
    return choices, standing


def wound_state_at(target: WFRP2Character, wounds: int) -> str:
    """The sheet's wound state with ``wounds`` left (the sheet's own rule, 002)."""
    return target.edit(wounds_current=max(0, wounds)).wound_state


def _reactions_step(setup: AttackSetup) -> Step:
    parts = tuple(
        Message(
            "wfrp2.reactions.available" if option.available else "wfrp2.reactions.not_available",
            reaction=reaction_name(option.name),
            reason=option.reason,
        )
        for option in setup.reactions
    )
    return Step(Message("wfrp2.step.reactions"), Message("common.join", parts=parts))


def _react(
    option: ReactionOption, target: WFRP2Character, source: DiceSource, number: int | None
) -> tuple[bool, Step, Effect]:
    name = reaction_name(option.name)
    title = numbered(Message("wfrp2.step.reaction", reaction=name), number)
    purpose = numbered_die(name, number)
    test = roll_test(
        option.characteristic, option.base, option.modifiers, source, purpose, cap=None
    )
    outcome = Message("wfrp2.outcome.turned_aside" if test.success else "wfrp2.outcome.blow_lands")
    step = Step(title, outcome, test.explain(), (test.roll,), test.target, test.modifiers)
    return test.success, step, Effect("reaction", target.name, condition=option.name)


def _action_step(setup: AttackSetup) -> Step:
    action = setup.action
    return Step(
        Message("wfrp2.step.action"),
        Message(
            "wfrp2.outcome.action",
            action=action.label,
            type=action_type(action.type),
            mode=mode_name(setup.mode),
            weapon=setup.weapon_label,
        ),
        Message("wfrp2.outcome.attacks", attacks=setup.attacks),
    )


def _wounds_step(
    setup: AttackSetup, number: int | None, wounds: int, lost: int, target: WFRP2Character
) -> Step:
    title = numbered(Message("wfrp2.step.wounds"), number)
    left = wounds - lost
    if left >= 0:
        state = wound_state(wound_state_at(target, left))
        return Step(
            title, Message("wfrp2.outcome.wounds", lost=lost, wounds=wounds, left=left, state=state)
        )
    value = -left + setup.critical_bonus
    if setup.critical_bonus:
        detail = Message(
            "wfrp2.detail.below_zero_precise",
            below=-left,
            bonus=setup.critical_bonus,
            quality=quality_label("Precise"),
            value=value,
        )
    else:
        detail = Message("wfrp2.detail.below_zero", below=-left, value=value)
    return Step(title, Message("wfrp2.outcome.wounds_critical", lost=lost, wounds=wounds), detail)


def resolve_attack(request: AttackRequest, source: DiceSource) -> AttackResult:
    """Resolve ``request`` with dice from ``source``: the steps and the effects to apply."""
    attacker, target = sheets(request)
    setup = attack_setup(request)
    options = options_of(request)
    choices, standing = reaction_choices(options.reaction, setup.attacks)
    fury = options.ulrics_fury
    steps = [
        _action_step(setup),
        *(Step(Message("wfrp2.step.note"), note) for note in setup.notes),
        _reactions_step(setup),
    ]
    effects: list[Effect] = list(setup.attacker_effects)
    used: set[str] = set()
    reported: set[str] = set()
    wounds, hits, lost_total = target.wounds_current, 0, 0
    criticals: list[Critical] = []
    for index in range(setup.attacks):
        number = index + 1 if setup.attacks > 1 else None
        name = numbered(
            Message("wfrp2.step.test", characteristic=characteristic(setup.characteristic)),
            number,
        )
        test = roll_test(setup.characteristic, setup.base, setup.modifiers, source, name, cap=None)
        if setup.auto_hit:
            outcome = Message("wfrp2.outcome.auto_hit")
            detail: Message = Message("wfrp2.detail.auto_hit", value=test.value)
        else:
            outcome = Message("wfrp2.outcome.hit" if test.success else "wfrp2.outcome.miss")
            detail = test.explain()
        steps.append(Step(name, outcome, detail, (test.roll,), test.target, test.modifiers))
        if not (setup.auto_hit or test.success):
            continue
        location = hit_location(test.value, GAME)
        reversed_roll = reverse_digits(test.value)
        steps.append(
            Step(
                numbered(Message("wfrp2.step.location"), number),
                location_name(location),
                Message("wfrp2.detail.reversed", value=test.value, reversed=reversed_roll),
            )
        )
        choice = choices[index]
        if choice is not None:
            option = setup.reaction(choice)
            problem: Message | None = (
                Message("wfrp2.outcome.reaction_used") if choice in used else None
            )
            if problem is None and not option.available:
                problem = Message("wfrp2.outcome.reaction_impossible", reason=option.reason)
            if problem is not None:
                if not (standing and choice in reported):
                    title = Message("wfrp2.step.reaction", reaction=reaction_name(choice))
                    steps.append(Step(numbered(title, number), problem))
                reported.add(choice)
                choice = None
        if choice is not None:
            used.add(choice)
            turned, step, spent = _react(setup.reaction(choice), target, source, number)
            steps.append(step)
            effects.append(spent)
            if turned:
                continue
        hits += 1
        damage = roll_damage(setup, attacker, source, number=number, fury=fury)
        steps.extend(damage.steps)
        absorbed, soak_step = soak(target, location, setup)
        steps.append(soak_step)
        lost = max(0, damage.total - absorbed)
        lost_total += lost
        effects.append(Effect("damage", target.name, lost, location, weapon=setup.weapon.name))
        steps.append(_wounds_step(setup, number, wounds, lost, target))
        left = wounds - lost
        if left < 0:
            value = -left + setup.critical_bonus
            critical = roll_critical(
                target.name,
                value,
                location,
                source,
                number=number,
                wounds_lost=lost,
                table_path=options.critical_table,
            )
            criticals.append(critical)
            steps.extend(critical.steps)
            effects.extend(critical.effects)
        wounds = max(0, left)
    summary = Message(
        "wfrp2.summary",
        attacker=attacker.name,
        action=setup.action.label,
        weapon=setup.weapon_label,
        hits=hits,
        attacks=setup.attacks,
        target=target.name,
        lost=lost_total,
        left=wounds,
    )
    return WFRP2AttackResult(request, tuple(steps), tuple(effects), hits, summary, tuple(criticals))
