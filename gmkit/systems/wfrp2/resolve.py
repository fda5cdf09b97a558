"""A WFRP 2e attack from the test to the effects (seed 002's five steps, with the reactions).

For each attack of the action (one, or A for a swift attack): the WS or BS test (no modifier
cap: 002 gives none), the location from the roll's reversed digits (``hit_locations.yaml``),
the defender's reaction, the damage (:mod:`gmkit.systems.wfrp2.damage`), the soak, the wounds
lost and, below zero, the critical hit. Nothing is changed: the result lists the effects.

Choices where seed 002 is silent:

- The defender's reaction comes from ``request.options["reaction"]``: "parry", "dodge" or None
  for every attack (used on the first hit it can be: one parry and one dodge a round, 002), or a
  list with one entry per attack. A reaction is chosen before the dice and spent only on a hit,
  whether it succeeds or not; it is reported as an effect of kind "reaction" on the defender.
  A reaction the defender cannot use is reported and not rolled.
- A helpless target is hit without a test (002), but the d100 is still rolled: its reversed
  digits give the location.
- The test has no automatic success or failure: 002 gives none.
- A swift attack's hits run down the target's wounds in turn: once at zero, each further
  wound lost is a critical (002: a survivor of a critical counts as having zero wounds).
- ``options["ulrics_fury"] = False`` turns Ulric's Fury off (it is the book's rule, not 002's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gmkit.dice import DiceSource
from gmkit.errors import GmkitError
from gmkit.sheets.wfrp2 import WFRP2Character
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Step
from gmkit.systems.percentile import hit_location, reverse_digits, roll_test
from gmkit.systems.wfrp2.catalogs import REACTIONS
from gmkit.systems.wfrp2.damage import roll_critical, roll_damage, soak
from gmkit.systems.wfrp2.setup import AttackSetup, ReactionOption, attack_setup, sheets

GAME = "wfrp2"


def reaction_choices(chosen: Any, attacks: int) -> tuple[list[str | None], bool]:
    """One reaction (or None) per attack, and whether a single choice stands for all."""
    if chosen is None or isinstance(chosen, str):
        choices: list[str | None] = [None if chosen in (None, "", "none") else chosen] * attacks
        standing = True
    elif isinstance(chosen, Sequence):
        if len(chosen) != attacks:
            raise GmkitError(f"give one reaction per attack ({attacks}), got {len(chosen)}")
        choices = [None if c in (None, "", "none") else str(c) for c in chosen]
        standing = False
    else:
        raise GmkitError(f"reaction must be parry, dodge, None or a list of them, not {chosen!r}")
    for choice in choices:
        if choice is not None and choice not in REACTIONS:
            raise GmkitError(f"unknown reaction {choice!r}: parry, dodge or None")
    return choices, standing


def wound_state_at(target: WFRP2Character, wounds: int) -> str:
    """The sheet's wound state with ``wounds`` left (the sheet's own rule, 002)."""
    return target.edit(wounds_current=max(0, wounds)).wound_state


def _reactions_step(setup: AttackSetup) -> Step:
    parts = [
        f"{option.name} {'available' if option.available else 'not available'} ({option.reason})"
        for option in setup.reactions
    ]
    return Step("Reactions", "; ".join(parts))


def _react(
    option: ReactionOption, target: WFRP2Character, source: DiceSource, label: str
) -> tuple[bool, Step, Effect]:
    title = f"{label}{option.name.capitalize()}"
    test = roll_test(
        option.characteristic, option.base, option.modifiers, source, title.lower(), cap=None
    )
    outcome = "success: the attack is turned aside" if test.success else "failure: the blow lands"
    step = Step(title, outcome, test.explain(), (test.roll,), test.target, test.modifiers)
    return test.success, step, Effect("reaction", target.name, condition=option.name)


def resolve_attack(request: AttackRequest, source: DiceSource) -> AttackResult:
    """Resolve ``request`` with dice from ``source``: the steps and the effects to apply."""
    attacker, target = sheets(request)
    setup = attack_setup(request)
    choices, standing = reaction_choices(request.options.get("reaction"), setup.attacks)
    fury = bool(request.options.get("ulrics_fury", True))
    action = setup.action
    steps = [
        Step(
            "Action",
            f"{action.name} ({action.type} action), {setup.mode}, {setup.weapon.name}",
            f"{setup.attacks} attack{'s' * (setup.attacks != 1)}",
        ),
        *(Step("Note", note) for note in setup.notes),
        _reactions_step(setup),
    ]
    effects: list[Effect] = list(setup.attacker_effects)
    used: set[str] = set()
    reported: set[str] = set()
    wounds, hits, lost_total = target.wounds_current, 0, 0
    for index in range(setup.attacks):
        label = f"Attack {index + 1}: " if setup.attacks > 1 else ""
        name = f"{setup.characteristic} test"
        test = roll_test(
            setup.characteristic,
            setup.base,
            setup.modifiers,
            source,
            f"{label}{name}",
            cap=None,
        )
        if setup.auto_hit:
            outcome, detail = "hit automatically", f"rolled {test.value} (helpless target)"
        else:
            outcome, detail = ("hit" if test.success else "miss"), test.explain()
        steps.append(
            Step(f"{label}{name}", outcome, detail, (test.roll,), test.target, test.modifiers)
        )
        if not (setup.auto_hit or test.success):
            continue
        location = hit_location(test.value, GAME)
        where = location.replace("_", " ")
        reversed_roll = reverse_digits(test.value)
        steps.append(Step(f"{label}Hit location", where, f"{test.value} reversed: {reversed_roll}"))
        choice = choices[index]
        if choice is not None:
            option = setup.reaction(choice)
            problem = "already used this round" if choice in used else None
            problem = problem or (None if option.available else f"not possible: {option.reason}")
            if problem is not None:
                if not (standing and choice in reported):
                    steps.append(Step(f"{label}{choice.capitalize()}", problem))
                reported.add(choice)
                choice = None
        if choice is not None:
            used.add(choice)
            turned, step, spent = _react(setup.reaction(choice), target, source, label)
            steps.append(step)
            effects.append(spent)
            if turned:
                continue
        hits += 1
        damage = roll_damage(setup, attacker, source, label=label, fury=fury)
        steps.extend(damage.steps)
        absorbed, soak_step = soak(target, location, setup)
        steps.append(soak_step)
        lost = max(0, damage.total - absorbed)
        lost_total += lost
        effects.append(Effect("damage", target.name, lost, location, weapon=setup.weapon.name))
        left = wounds - lost
        if left < 0:
            value = -left + setup.critical_bonus
            bonus = f" (+{setup.critical_bonus} Precise)" if setup.critical_bonus else ""
            steps.append(
                Step(
                    f"{label}Wounds",
                    f"{lost} lost: {wounds} -> 0, a critical hit",
                    f"{-left} below zero{bonus}: critical value +{value}",
                )
            )
            critical = roll_critical(target.name, value, location, source, label=label)
            steps.extend(critical.steps)
            effects.extend(critical.effects)
        else:
            state = wound_state_at(target, left)
            steps.append(Step(f"{label}Wounds", f"{lost} lost: {wounds} -> {left} ({state})"))
        wounds = max(0, left)
    summary = (
        f"{attacker.name} ({action.name}, {setup.weapon.name}): {hits} of {setup.attacks} "
        f"hit{'s' * (setup.attacks != 1)}; {target.name} loses {lost_total} wounds ({wounds} left)"
    )
    return AttackResult(request, tuple(steps), tuple(effects), hits, summary)
