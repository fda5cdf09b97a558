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
  options (the option ``grapple``): "damage" (opposed Strength: unarmed damage to the body with
  armour counting double, and a level of fatigue), "throw_down", "push" (1 metre and 1 more per
  degree of success, at most a half move), "ready", "stand", "release"; the grappled one's:
  "break_free" (opposed Strength), "slip" (a Contortionist test, +0), "take_control". The
  option comes from the setup's mode (``grapple_push``; ``grapple_throw`` and
  ``grapple_wriggle`` read as throw_down and slip) or from the option ``grapple``.
  The option ``size_difference`` (attacker's size categories above the target's) adds degrees to
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
  test (``modifiers.target_modifiers``: fatigue, prone...) and the option
  ``defender_modifiers``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from gmkit.dice import DiceSource
from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.systems._imperial.conditions import gain, lose
from gmkit.systems._imperial.damage_soak import toughness_bonus
from gmkit.systems._imperial.modifiers import target_modifiers
from gmkit.systems._imperial.resolve_hit import Strike, UnarmedRules, find_weapon, resolve_hit
from gmkit.systems._imperial.resolve_reactions import (
    listed_modifiers,
    react,
    reactions_left,
    restrictions,
)
from gmkit.systems._imperial.resolve_test import finish, skill, take_shot
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems._percentile import PercentileTest, roll_test
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Step


def _strike(request: AttackRequest, setup: AttackSetup, source: DiceSource) -> Strike:
    weapon, unarmed = find_weapon(request.attacker, request.weapon)  # type: ignore[arg-type]
    return Strike(request, setup, source, weapon, unarmed)


def _notes(setup: AttackSetup) -> list[Step]:
    title = Message("imperial.note")
    return [Step(title, text) for text in (*setup.warnings, *setup.notes)]


@dataclass(frozen=True, slots=True)
class Opposed:
    """An opposed test: the active character's, the other's, and who won (None: neither)."""

    active: PercentileTest
    other: PercentileTest
    winner: int | None
    step: Step


def opposed(strike: Strike, key: str, title: Message, size: int = 0) -> Opposed:
    """An opposed test of ``key``; ``size`` extra degrees go to the larger one's success."""
    attacker, target = strike.attacker, strike.target
    mine = roll_test(key, int(getattr(attacker.characteristics, key)), strike.setup.modifiers,
                     strike.source, _whose(title, attacker.name))  # fmt: skip
    theirs_modifiers = [
        *target_modifiers(strike.request, strike.game, key),
        *listed_modifiers(strike.options.defender_modifiers),
    ]
    theirs = roll_test(key, int(getattr(target.characteristics, key)), theirs_modifiers,
                       strike.source, _whose(title, target.name))  # fmt: skip
    winner = _winner(mine, theirs, max(size, 0), max(-size, 0))
    names = (attacker.name, target.name)
    outcome = (
        Message("imperial.opposed.wins", name=names[winner])
        if winner is not None
        else Message("imperial.opposed.neither")
    )
    parts: list[Message] = [
        Message("imperial.opposed.side", name=attacker.name, test=mine.explain()),
        Message("imperial.opposed.side", name=target.name, test=theirs.explain()),
    ]
    if size:
        larger = names[0 if size > 0 else 1]
        parts.append(Message("imperial.opposed.size", degrees=abs(size), name=larger))
    detail = Message("common.join", parts=tuple(parts))
    return Opposed(mine, theirs, winner, Step(title, outcome, detail, (mine.roll, theirs.roll)))


def _whose(title: Message, name: str) -> Message:
    """A die's purpose: "Feint (Marr)"."""
    return Message("imperial.opposed.die", test=title, name=name)


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
    strike: Strike, name: str, condition: str, rounds: int | None = None, note: Text = ""
) -> Effect:
    return gain(strike.game, name, condition, rounds, note=note)


def _lift(strike: Strike, name: str, condition: str) -> Effect:
    return lose(strike.game, name, condition)


def _grapple_ends(strike: Strike, controller: str, held: str) -> list[Effect]:
    lifted = ((held, "grappled"), (controller, "grappled"), (controller, "grappling"))
    return [_lift(strike, name, condition) for name, condition in lifted]


def _attack_lands(strike: Strike, steps: list[Step], effects: list[Effect]) -> bool:
    """The special attack's own test and the target's reaction; True if it lands."""
    shot = take_shot(strike, None, 1)
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
    steps = _notes(setup)
    effects: list[Effect] = []
    if not _attack_lands(strike, steps, effects):
        return finish(strike, steps, effects, 0)
    attacker, target = strike.attacker, strike.target
    doubled = strike.unarmed or strike.weapon.quality("Primitive") or setup.primitive_armour_double
    head, multiplier = target.armour_at("head"), 2 if doubled else 1
    blow = source.roll_die(10, Message("imperial.stun.attacker_die"))
    guard = source.roll_die(10, Message("imperial.stun.target_die"))
    strength = attacker.bonus("S")
    mine = blow.value + strength
    tb = toughness_bonus(target)
    theirs = guard.value + tb + head * multiplier
    detail = Message(
        "imperial.stun.detail_doubled" if multiplier == 2 else "imperial.stun.detail",
        blow=blow.value,
        strength=strength,
        mine=mine,
        guard=guard.value,
        toughness=tb,
        head=head,
        theirs=theirs,
    )
    title = Message("imperial.stun.title")
    if mine < theirs:
        steps.append(Step(title, Message("imperial.stun.no_effect"), detail, (blow, guard)))
        return finish(strike, steps, effects, 1)
    rounds = max(1, mine - theirs)
    outcome = Message("imperial.stun.stunned", rounds=rounds)
    steps.append(Step(title, outcome, detail, (blow, guard)))
    stunned = _condition(strike, target.name, "stunned", rounds)
    effects += [stunned, Effect("fatigue", target.name, 1)]
    result = finish(strike, steps, effects, 1)
    summary = Message(
        "imperial.stun.summary", attacker=attacker.name, target=target.name, rounds=rounds
    )
    return replace(result, summary=summary)


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
    steps = _notes(setup)
    effects: list[Effect] = []
    test = opposed(strike, "S", Message("imperial.knock_down.title"))
    steps.append(test.step)
    attacker, target = strike.attacker.name, strike.target.name
    down = Message("imperial.knock_down.note")
    if test.winner == 0:
        effects.append(_condition(strike, target, "prone", note=down))
        if test.active.degrees >= 2:
            _body_blow(strike, steps, effects)
        summary = Message("imperial.knock_down.summary", attacker=attacker, target=target)
    else:
        if test.winner == 1 and test.other.degrees >= 2:
            effects.append(_condition(strike, attacker, "prone", note=down))
        summary = Message("imperial.knock_down.stands", target=target)
    result = finish(strike, steps, effects, int(test.winner == 0))
    return replace(result, summary=summary)


def feint(request: AttackRequest, setup: AttackSetup, source: DiceSource) -> AttackResult:
    """Feint (004): opposed Weapon Skill; the winner's next attack cannot be dodged or parried."""
    strike = _strike(request, setup, source)
    steps = _notes(setup)
    effects: list[Effect] = []
    test = opposed(strike, "WS", Message("imperial.feint.title"))
    steps.append(test.step)
    attacker, target = strike.attacker.name, strike.target.name
    if test.winner == 0:
        note = Message("imperial.feint.note", attacker=attacker, target=target)
        effects.append(_condition(strike, target, "feinted", 1, note))
    summary = (
        Message("imperial.feint.summary", attacker=attacker, target=target)
        if test.winner == 0
        else Message("imperial.feint.not_fooled", target=target)
    )
    return replace(finish(strike, steps, effects, 0), summary=summary)


def manoeuvre(request: AttackRequest, setup: AttackSetup, source: DiceSource) -> AttackResult:
    """Manoeuvre (004): opposed Weapon Skill; the winner forces the other back a metre."""
    strike = _strike(request, setup, source)
    steps = _notes(setup)
    effects: list[Effect] = []
    test = opposed(strike, "WS", Message("imperial.manoeuvre.title"))
    steps.append(test.step)
    attacker, target = strike.attacker.name, strike.target.name
    if test.winner == 0:
        effects.append(Effect("note", target, 1, note=Message("imperial.manoeuvre.note")))
    summary = (
        Message("imperial.manoeuvre.summary", attacker=attacker, target=target)
        if test.winner == 0
        else Message("imperial.manoeuvre.holds", target=target)
    )
    return replace(finish(strike, steps, effects, 0), summary=summary)


CONTROLLER = ("damage", "throw_down", "push", "ready", "stand", "release")
GRAPPLED = ("break_free", "slip", "take_control")
CHOICE_ALIASES = {"throw": "throw_down", "wriggle": "slip", "wriggle_free": "slip", "": "start"}


def grapple_choice(request: AttackRequest, setup: AttackSetup) -> str:
    """The grapple option: the setup's mode ("grapple_push"), else the option ``grapple``.

    Without either (or with the option ``grapple`` True) the attack starts a grapple.
    """
    mode = setup.mode.casefold()
    chosen = request.options.grapple
    if mode.startswith("grapple_"):
        text = mode.removeprefix("grapple_")
    else:
        text = "" if isinstance(chosen, bool) else str(chosen)
    key = text.strip().casefold().replace(" ", "_").replace("-", "_")
    return CHOICE_ALIASES.get(key, key)


def grapple(request: AttackRequest, setup: AttackSetup, source: DiceSource) -> AttackResult:
    """Start a grapple, or take one of the grapple's options (the option ``grapple``)."""
    strike = _strike(request, setup, source)
    steps = _notes(setup)
    effects: list[Effect] = []
    attacker, target = strike.attacker.name, strike.target.name
    choice = grapple_choice(request, setup)
    title = Message("imperial.grapple.title")
    if choice == "start":
        if not _attack_lands(strike, steps, effects):
            return finish(strike, steps, effects, 0)
        controls = Message("imperial.grapple.controls", target=target)
        effects += [
            _condition(
                strike,
                target,
                "grappled",
                note=Message("imperial.grapple.held_by", attacker=attacker),
            ),
            _condition(
                strike, attacker, "grappled", note=Message("imperial.grapple.holds", target=target)
            ),
            _condition(strike, attacker, "grappling", note=controls),
        ]
        starts = Message("imperial.grapple.starts", attacker=attacker, target=target)
        steps.append(Step(title, starts, Message("imperial.grapple.no_reactions")))
        return replace(finish(strike, steps, effects, 1), summary=starts)
    if choice not in (*CONTROLLER, *GRAPPLED):
        known = ("start", *CONTROLLER, *GRAPPLED)
        raise GmkitError(Message("imperial.grapple.unknown", choice=repr(choice), known=known))
    size = request.options.size_difference
    outcome: Message
    if choice in ("ready", "release"):
        outcome = Message(f"imperial.grapple.{choice}")
        if choice == "release":
            effects += _grapple_ends(strike, attacker, target)
    elif choice == "slip":
        agility = int(strike.attacker.characteristics.Ag)
        purpose = Message("imperial.grapple.slip_die")
        test = roll_test("Ag", agility, setup.modifiers, source, purpose)
        contortionist = Message("imperial.grapple.contortionist", skill=skill("Ag"))
        steps.append(Step(contortionist, "", test.explain(), (test.roll,)))
        outcome = Message("imperial.grapple.slips" if test.success else "imperial.grapple.stays")
        if test.success:
            effects += _grapple_ends(strike, target, attacker)
    else:
        named = Message("imperial.grapple.option_title", option=_option_name(choice))
        contest = opposed(strike, "S", named, size)
        steps.append(contest.step)
        won = contest.winner == 0
        degrees = contest.active.degrees + max(size, 0)
        outcome = _grapple_option(choice, won, strike, degrees, steps, effects)
    steps.append(Step(title, outcome))
    summary = Message("imperial.grapple.summary", attacker=attacker, outcome=outcome)
    return replace(finish(strike, steps, effects, 0), summary=summary)


def _option_name(choice: str) -> Message:
    """A grapple option by its words ("throw_down": throw down, derribar)."""
    return Message(f"imperial.grapple.option.{choice}")


def _grapple_option(
    choice: str, won: bool, strike: Strike, degrees: int, steps: list[Step], effects: list[Effect]
) -> Message:
    attacker, target = strike.attacker.name, strike.target.name
    if choice == "stand":
        effects.append(_lift(strike, attacker, "prone"))
        if won:
            effects.append(_lift(strike, target, "prone"))
            return Message("imperial.grapple.stands_lifting", target=target)
        return Message("imperial.grapple.stands")
    if not won:
        return Message("imperial.grapple.fails", option=_option_name(choice))
    if choice == "damage":
        _body_blow(strike, steps, effects)
        return Message("imperial.grapple.crushes", target=target)
    if choice == "throw_down":
        thrown = Message("imperial.grapple.thrown_note")
        effects.append(_condition(strike, target, "prone", note=thrown))
        return Message("imperial.grapple.throws", target=target)
    if choice == "push":
        metres = min(1 + degrees, strike.attacker.bonus("Ag"))
        pushed = Message("imperial.grapple.pushed_note", metres=metres)
        effects.append(Effect("note", target, metres, note=pushed))
        return Message("imperial.grapple.pushes", target=target, metres=metres)
    if choice == "break_free":
        effects += _grapple_ends(strike, target, attacker)
        return Message("imperial.grapple.breaks_free")
    effects += [
        _lift(strike, target, "grappling"),
        _condition(
            strike, attacker, "grappling", note=Message("imperial.grapple.controls", target=target)
        ),
    ]
    return Message("imperial.grapple.takes_control")
