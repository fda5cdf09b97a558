"""Special attacks of the 40k games: stun, knock-down, feint and grappling (004's actions).

- Stun: a Weapon Skill test (the setup's -20); if it lands (the target may react), the attacker
  rolls 1d10 + SB against the target's 1d10 + TB + head armour points (doubled if the attacker
  is unarmed or the weapon Primitive). Equal or better: stunned for the difference in rounds,
  and a level of fatigue.
- Knock-down: an opposed Strength test. The attacker wins: the target is knocked down, and with
  two or more degrees of success also takes unarmed damage (1d5-3+SB, armour counting double)
  and a level of fatigue. The target wins with two or more degrees: the attacker goes down.
- Feint: an opposed Weapon Skill test; the attacker wins: its next melee attack on that target
  cannot be dodged or parried. Manoeuvre: an opposed Weapon Skill test; the attacker wins: the
  target moves a metre where the attacker chooses.
- Grapple: an attack (Weapon Skill, the target may react) starts it: both are ``grappled``
  (in a grapple, 004), the attacker ``grappling`` as well (it controls it). Then the controller's
  options (``options["grapple"]``): "damage" (opposed Strength: unarmed damage to the body with
  armour counting double, and a level of fatigue), "throw_down", "push" (1 metre and 1 more per
  degree of success, at most a half move), "ready", "stand", "release"; the grappled one's:
  "break_free" (opposed Strength), "slip" (a Contortionist test, +0), "take_control". The
  option comes from the setup's mode (``grapple_push``; ``grapple_throw`` and
  ``grapple_wriggle`` read as throw_down and slip) or from ``options["grapple"]``.
  ``options["size_difference"]`` (attacker's size categories above the target's) adds degrees to
  the larger one's successful opposed tests in a grapple (004).

Choices where 004 is silent (or garbled):

- A stun roll that ties stuns for one round (the difference, 0, would stun for none, yet 004
  says a tie stuns).
- "Two or more degrees" in knock-down means the winner's own degrees of success.
- The grappled loser of a "damage" option takes no damage (004's Spanish says it does and
  stays trapped; the original rule and the sense of the option say otherwise).
- Knock-down and grapple damage land on the body, without degrees of success as a minimum; a
  Righteous Fury on them is confirmed with the Strength test again.
- A tie in an opposed test (same degrees, same characteristic) changes nothing.
- The sheets hold no skills: Contortionist is an Agility test.
- The other side of an opposed test has the modifiers its conditions and terrain give that
  test (``modifiers.target_modifiers``: fatigue, prone...) and ``options["defender_modifiers"]``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from gmkit.dice import DiceSource
from gmkit.errors import GmkitError
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Step
from gmkit.systems.imperial.conditions import gain, lose
from gmkit.systems.imperial.damage_soak import toughness_bonus
from gmkit.systems.imperial.modifiers import target_modifiers
from gmkit.systems.imperial.resolve_hit import Strike, UnarmedRules, find_weapon, resolve_hit
from gmkit.systems.imperial.resolve_reactions import (
    listed_modifiers,
    react,
    reactions_left,
    restrictions,
)
from gmkit.systems.imperial.resolve_test import finish, take_shot
from gmkit.systems.imperial.setup import AttackSetup
from gmkit.systems.percentile import PercentileTest, roll_test


def _strike(request: AttackRequest, setup: AttackSetup, source: DiceSource) -> Strike:
    weapon, unarmed = find_weapon(request.attacker, request.weapon)  # type: ignore[arg-type]
    return Strike(request, setup, source, weapon, unarmed)


def _notes(setup: AttackSetup) -> list[Step]:
    return [Step("Note", text) for text in (*setup.warnings, *setup.notes)]


@dataclass(frozen=True, slots=True)
class Opposed:
    """An opposed test: the active character's, the other's, and who won (None: neither)."""

    active: PercentileTest
    other: PercentileTest
    winner: int | None
    step: Step


def opposed(strike: Strike, key: str, title: str, size: int = 0) -> Opposed:
    """An opposed test of ``key``; ``size`` extra degrees go to the larger one's success."""
    attacker, target = strike.attacker, strike.target
    mine = roll_test(key, int(getattr(attacker.characteristics, key)), strike.setup.modifiers,
                     strike.source, f"{title} ({attacker.name})")  # fmt: skip
    theirs_modifiers = [
        *target_modifiers(strike.request, strike.game, key),
        *listed_modifiers(strike.options.get("defender_modifiers")),
    ]
    theirs = roll_test(key, int(getattr(target.characteristics, key)), theirs_modifiers,
                       strike.source, f"{title} ({target.name})")  # fmt: skip
    winner = _winner(mine, theirs, max(size, 0), max(-size, 0))
    names = (attacker.name, target.name)
    outcome = f"{names[winner]} wins" if winner is not None else "neither wins"
    detail = f"{attacker.name}: {mine.explain()}; {target.name}: {theirs.explain()}"
    if size:
        detail += f"; size: +{abs(size)} degrees to {names[0 if size > 0 else 1]}"
    return Opposed(mine, theirs, winner, Step(title, outcome, detail, (mine.roll, theirs.roll)))


def _winner(a: PercentileTest, b: PercentileTest, a_extra: int, b_extra: int) -> int | None:
    if a.success != b.success:
        return 0 if a.success else 1
    if not a.success:
        return None
    da, db = a.degrees + a_extra, b.degrees + b_extra
    if da != db:
        return 0 if da > db else 1
    if a.base != b.base:
        return 0 if a.base > b.base else 1
    return None


def _condition(
    strike: Strike, name: str, condition: str, rounds: int | None = None, note: str = ""
) -> Effect:
    return gain(strike.game, name, condition, rounds, note=note)


def _lift(strike: Strike, name: str, condition: str) -> Effect:
    return lose(strike.game, name, condition)


def _grapple_ends(strike: Strike, controller: str, held: str) -> list[Effect]:
    lifted = ((held, "grappled"), (controller, "grappled"), (controller, "grappling"))
    return [_lift(strike, name, condition) for name, condition in lifted]


def _attack_lands(strike: Strike, steps: list[Step], effects: list[Effect]) -> bool:
    """The special attack's own test and the target's reaction; True if it lands."""
    shot = take_shot(strike, "", 1)
    steps.extend(shot.steps)
    if not shot.hits:
        return False
    steps.extend(restrictions(strike))
    reaction = react(strike, 1, reactions_left(strike.request, strike.game))
    steps.extend(reaction.steps)
    effects.extend(reaction.effects)
    return reaction.cancelled == 0


def stun(request: AttackRequest, setup: AttackSetup, source: DiceSource) -> AttackResult:
    """A stunning blow (004: Stun)."""
    strike = _strike(request, setup, source)
    steps, effects = _notes(setup), []
    if not _attack_lands(strike, steps, effects):
        return finish(strike, steps, effects, 0)
    attacker, target = strike.attacker, strike.target
    doubled = strike.unarmed or strike.weapon.quality("Primitive") or setup.primitive_armour_double
    head, multiplier = target.armour_at("head"), 2 if doubled else 1
    blow = source.roll_die(10, "stun (attacker)")
    guard = source.roll_die(10, "stun (target)")
    mine = blow.value + attacker.bonus("S")
    tb = toughness_bonus(target)
    theirs = guard.value + tb + head * multiplier
    detail = (
        f"1d10 {blow.value} + SB {attacker.bonus('S')} = {mine} against 1d10 {guard.value} + "
        f"TB {tb} + head AP {head}" + (" x2" if multiplier == 2 else "") + f" = {theirs}"
    )
    if mine < theirs:
        steps.append(Step("Stun", "no effect", detail, (blow, guard)))
        return finish(strike, steps, effects, 1)
    rounds = max(1, mine - theirs)
    steps.append(Step("Stun", f"stunned for {rounds} rounds", detail, (blow, guard)))
    stunned = _condition(strike, target.name, "stunned", rounds)
    effects += [stunned, Effect("fatigue", target.name, 1)]
    result = finish(strike, steps, effects, 1)
    return replace(result, summary=f"{attacker.name} stuns {target.name} for {rounds} rounds")


def _body_blow(strike: Strike, steps: list[Step], effects: list[Effect]) -> None:
    """Unarmed damage to the body, armour counting double, and a level of fatigue."""
    weapon = UnarmedRules.of(strike.game).weapon
    setup = replace(strike.setup, characteristic="S", primitive_armour_double=True)
    blow = Strike(strike.request, setup, strike.source, weapon, unarmed=False)
    outcome = resolve_hit(blow, 1, "body", 0)
    steps.extend(outcome.steps)
    effects.extend(outcome.effects)
    effects.append(Effect("fatigue", strike.target.name, 1))


def knock_down(request: AttackRequest, setup: AttackSetup, source: DiceSource) -> AttackResult:
    """Knock-down (004): an opposed Strength test."""
    strike = _strike(request, setup, source)
    steps, effects = _notes(setup), []
    test = opposed(strike, "S", "Knock-down")
    steps.append(test.step)
    attacker, target = strike.attacker.name, strike.target.name
    if test.winner == 0:
        effects.append(_condition(strike, target, "prone", note="knocked down"))
        if test.active.degrees >= 2:
            _body_blow(strike, steps, effects)
        summary = f"{attacker} knocks {target} down"
    else:
        if test.winner == 1 and test.other.degrees >= 2:
            effects.append(_condition(strike, attacker, "prone", note="knocked down"))
        summary = f"{target} stays on its feet"
    result = finish(strike, steps, effects, int(test.winner == 0))
    return replace(result, summary=summary)


def feint(request: AttackRequest, setup: AttackSetup, source: DiceSource) -> AttackResult:
    """Feint (004): opposed Weapon Skill; the winner's next attack cannot be dodged or parried."""
    strike = _strike(request, setup, source)
    steps, effects = _notes(setup), []
    test = opposed(strike, "WS", "Feint")
    steps.append(test.step)
    attacker, target = strike.attacker.name, strike.target.name
    if test.winner == 0:
        note = f"{attacker}'s next standard attack on {target} cannot be dodged or parried"
        effects.append(_condition(strike, target, "feinted", 1, note))
    summary = f"{attacker} feints {target}" if test.winner == 0 else f"{target} is not fooled"
    return replace(finish(strike, steps, effects, 0), summary=summary)


def manoeuvre(request: AttackRequest, setup: AttackSetup, source: DiceSource) -> AttackResult:
    """Manoeuvre (004): opposed Weapon Skill; the winner forces the other back a metre."""
    strike = _strike(request, setup, source)
    steps, effects = _notes(setup), []
    test = opposed(strike, "WS", "Manoeuvre")
    steps.append(test.step)
    attacker, target = strike.attacker.name, strike.target.name
    if test.winner == 0:
        note = "moved 1 m where the attacker chooses (not into a wall or another character)"
        effects.append(Effect("note", target, 1, note=note))
    summary = f"{attacker} forces {target} back" if test.winner == 0 else f"{target} holds"
    return replace(finish(strike, steps, effects, 0), summary=summary)


CONTROLLER = ("damage", "throw_down", "push", "ready", "stand", "release")
GRAPPLED = ("break_free", "slip", "take_control")
CHOICE_ALIASES = {"throw": "throw_down", "wriggle": "slip", "wriggle_free": "slip", "": "start"}


def grapple_choice(request: AttackRequest, setup: AttackSetup) -> str:
    """The grapple option: the setup's mode ("grapple_push"), else ``options["grapple"]``.

    Without either (or with ``options["grapple"] = True``) the attack starts a grapple.
    """
    mode = setup.mode.casefold()
    chosen = request.options.get("grapple")
    if mode.startswith("grapple_"):
        text = mode.removeprefix("grapple_")
    else:
        text = "" if chosen is None or chosen is True else str(chosen)
    key = text.strip().casefold().replace(" ", "_").replace("-", "_")
    return CHOICE_ALIASES.get(key, key)


def grapple(request: AttackRequest, setup: AttackSetup, source: DiceSource) -> AttackResult:
    """Start a grapple, or take one of the grapple's options (``options["grapple"]``)."""
    strike = _strike(request, setup, source)
    steps, effects = _notes(setup), []
    attacker, target = strike.attacker.name, strike.target.name
    choice = grapple_choice(request, setup)
    if choice == "start":
        if not _attack_lands(strike, steps, effects):
            return finish(strike, steps, effects, 0)
        effects += [
            _condition(strike, target, "grappled", note=f"held by {attacker}"),
            _condition(strike, attacker, "grappled", note=f"grappling {target}"),
            _condition(strike, attacker, "grappling", note=f"controls the grapple on {target}"),
        ]
        steps.append(Step("Grapple", f"{attacker} grapples {target}", "no reactions inside it"))
        return replace(finish(strike, steps, effects, 1), summary=steps[-1].outcome)
    if choice not in (*CONTROLLER, *GRAPPLED):
        known = ", ".join(("start", *CONTROLLER, *GRAPPLED))
        raise GmkitError(f"grapple option {choice!r}: choose one of {known}")
    size = int(request.options.get("size_difference", 0))
    outcome = ""
    if choice in ("ready", "release"):
        outcome = "readies an item" if choice == "ready" else "releases the grapple"
        if choice == "release":
            effects += _grapple_ends(strike, attacker, target)
    elif choice == "slip":
        agility = int(strike.attacker.characteristics.Ag)
        test = roll_test("Ag", agility, setup.modifiers, source, "slip free")
        steps.append(Step("Contortionist (Agility)", "", test.explain(), (test.roll,)))
        outcome = "slips free" if test.success else "stays held"
        if test.success:
            effects += _grapple_ends(strike, target, attacker)
    else:
        test = opposed(strike, "S", f"Grapple: {choice.replace('_', ' ')}", size)
        steps.append(test.step)
        won = test.winner == 0
        degrees = test.active.degrees + max(size, 0)
        outcome = _grapple_option(choice, won, strike, degrees, steps, effects)
    steps.append(Step("Grapple", outcome))
    return replace(finish(strike, steps, effects, 0), summary=f"{attacker} {outcome}")


def _grapple_option(
    choice: str, won: bool, strike: Strike, degrees: int, steps: list[Step], effects: list[Effect]
) -> str:
    attacker, target = strike.attacker.name, strike.target.name
    if choice == "stand":
        effects.append(_lift(strike, attacker, "prone"))
        if won:
            effects.append(_lift(strike, target, "prone"))
        return "stands up" + (f", lifting {target}" if won else "")
    if not won:
        return f"fails to {choice.replace('_', ' ')}"
    if choice == "damage":
        _body_blow(strike, steps, effects)
        return f"crushes {target}"
    if choice == "throw_down":
        effects.append(_condition(strike, target, "prone", note="thrown down in the grapple"))
        return f"throws {target} down"
    if choice == "push":
        metres = min(1 + degrees, strike.attacker.bonus("Ag"))
        effects.append(Effect("note", target, metres, note=f"pushed {metres} m; follow or release"))
        return f"pushes {target} {metres} m"
    if choice == "break_free":
        effects += _grapple_ends(strike, target, attacker)
        return "breaks free and may take a half action"
    effects += [
        _lift(strike, target, "grappling"),
        _condition(strike, attacker, "grappling", note=f"controls the grapple on {target}"),
    ]
    return "takes control of the grapple"
