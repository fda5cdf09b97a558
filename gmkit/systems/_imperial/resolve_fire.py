"""Fire discipline: pinning, overwatch as a declared trigger, and clearing a jam.

- Pinning (001, 004): a character under suppressing fire (or caught in an overwatch kill zone)
  tests Willpower at -20 (Hard) or is pinned, even when the shot hit cover or did no damage.
  A pinned character tests Willpower again to recover, at +30 when nobody shot at it since its
  last turn (001: at the start of its turn; 004: at the end). A horde adds its magnitude (004).
- Overwatch (004): a full action that declares a kill zone, a fire mode (full, semi or
  suppressing) and the condition that triggers the attack before the watcher's next turn.
  ``declare_overwatch`` returns the declaration step; :class:`Overwatch` is the value the
  encounter queues, and ``Overwatch.request`` builds the attack to resolve when it triggers
  (the option ``overwatch`` True: the target then tests pinning at -20). If the trigger and
  another character's action collide, the higher Agility Bonus acts first, then an opposed
  Agility test (``first_to_act``).
- Clearing a jam (001, 004, seed README): a full action and a Ballistic Skill test; what a
  success loses is data (``jam_clearing.yaml``): in Dark Heresy the whole clip of a las, plasma
  or melta weapon, one round of solid ammunition; in Deathwatch all that was loaded.

Choices where the texts are silent: a pinning test has no other modifiers than -20 (or +30),
the horde's magnitude and any fatigue (-10); a tie in the opposed Agility test for overwatch
goes to the watcher, who was ready.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gmkit.dice import DiceSource
from gmkit.messages import Message, Text
from gmkit.sheets._dark_heresy import ImperialCharacter
from gmkit.systems._imperial.conditions import condition, gain, lose
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems._imperial.terms import mode_name
from gmkit.systems._percentile import PercentileTest, opposed_winner, roll_test
from gmkit.systems._tables import table
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Modifier, Step

PINNING_MODIFIER = -20
RECOVERY_NOT_UNDER_FIRE = 30


def _words(game: str) -> tuple[Message, Message]:
    """The game's words for pinning and for the pinned condition (001: Acobardamiento,
    acobardado; 004: A cubierto)."""
    return Message.term(f"{game}.pinning", "Pinning"), condition(game, "pinned").label


def _pinning_modifiers(sheet: ImperialCharacter, base: int, label: Message) -> list[Modifier]:
    modifiers = [Modifier(label, base)] if base else []
    horde = getattr(sheet, "horde", None)
    if horde is not None:
        modifiers.append(Modifier(Message("imperial.horde.magnitude_bonus"), horde.resist_bonus))
    if sheet.fatigue:
        modifiers.append(Modifier(condition(sheet.game, "fatigued").label, sheet.fatigue_penalty))
    return modifiers


def pinning(
    sheet: ImperialCharacter, source: DiceSource, modifier: int = PINNING_MODIFIER
) -> tuple[list[Step], list[Effect]]:
    """A Willpower test against being pinned; failed: ``Effect(kind="pinned")``."""
    pinning_name, pinned = _words(sheet.game)
    hard = Message("imperial.pinning.hard", pinning=pinning_name)
    modifiers = _pinning_modifiers(sheet, modifier, hard)
    purpose = Message("imperial.pinning.die", pinning=pinning_name)
    test = roll_test("WP", int(sheet.characteristics.WP), modifiers, source, purpose)
    outcome = (
        Message("imperial.pinning.holds")
        if test.success
        else Message("imperial.pinning.pinned", condition=pinned)
    )
    title = Message("imperial.pinning.title", pinning=pinning_name, name=sheet.name)
    step = Step(title, outcome, test.explain(), (test.roll,), test.target)
    if test.success:
        return [step], []
    note = Message("imperial.pinning.note")
    return [step], [gain(sheet.game, sheet.name, "pinned", note=note, kind="pinned")]


def recover_from_pinning(
    sheet: ImperialCharacter, source: DiceSource, *, under_fire: bool
) -> tuple[PercentileTest, Step, tuple[Effect, ...]]:
    """A pinned character's Willpower test to act normally again (+30 when not under fire)."""
    bonus = 0 if under_fire else RECOVERY_NOT_UNDER_FIRE
    pinning_name, pinned = _words(sheet.game)
    modifiers = _pinning_modifiers(sheet, bonus, Message("imperial.pinning.not_under_fire"))
    purpose = Message("imperial.pinning.recovery_die", pinning=pinning_name)
    test = roll_test("WP", int(sheet.characteristics.WP), modifiers, source, purpose)
    which = "imperial.pinning.recovered" if test.success else "imperial.pinning.still"
    outcome = Message(which, condition=pinned)
    title = Message("imperial.pinning.title", pinning=pinning_name, name=sheet.name)
    step = Step(title, outcome, test.explain(), (test.roll,), test.target)
    effects = (lose(sheet.game, sheet.name, "pinned"),)
    return test, step, effects if test.success else ()


@dataclass(frozen=True)
class Overwatch:
    """A declared overwatch: the value the encounter queues until it triggers or expires."""

    watcher: str
    weapon: str
    mode: str  # "full", "semi" or "suppressing"
    trigger: Text  # the condition, in the GM's words (a default of the rules' own)
    kill_zone: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    expires: Message = field(default_factory=lambda: Message("imperial.overwatch.expires"))

    def request(self, watcher: ImperialCharacter, target: ImperialCharacter) -> AttackRequest:
        """The attack to resolve when the trigger is met."""
        options = {**self.options, "overwatch": True}
        action = "suppressing_fire" if self.mode == "suppressing" else f"{self.mode}_auto_burst"
        return AttackRequest(
            watcher, self.weapon, target, action=action, mode=self.mode, options=options
        )


def overwatch_of(request: AttackRequest) -> Overwatch:
    """The overwatch ``request`` declares (options: overwatch_mode, trigger, kill_zone)."""
    options = request.options
    mode = options.overwatch_mode or (request.mode if request.mode != "single" else "full")
    trigger: Text = options.trigger or Message("imperial.overwatch.default_trigger")
    return Overwatch(request.attacker.name, request.weapon, mode, trigger, options.kill_zone or "")


def declare_overwatch(
    request: AttackRequest, setup: AttackSetup, source: DiceSource
) -> AttackResult:
    """Declare overwatch (a full action): no dice; the encounter queues ``overwatch_of``."""
    watch = overwatch_of(request)
    zone: Text = watch.kill_zone or Message("imperial.overwatch.default_zone")
    detail = Message("imperial.overwatch.detail", zone=zone, expires=watch.expires)
    fires = Message("imperial.overwatch.fires", mode=mode_name(watch.mode), trigger=watch.trigger)
    step = Step(Message("imperial.overwatch.title"), fires, detail)
    effect = gain(
        request.attacker.game, request.attacker.name, "overwatch", 1, weapon=request.weapon,
        note=fires,
    )  # fmt: skip
    summary = Message(
        "imperial.overwatch.summary", name=request.attacker.name, weapon=request.weapon
    )
    return AttackResult(request, (step,), (effect,), 0, summary)


def first_to_act(
    watcher: ImperialCharacter, other: ImperialCharacter, source: DiceSource
) -> tuple[str, tuple[Step, ...]]:
    """Who acts first when overwatch and another action collide: AgB, then opposed Agility."""
    mine, theirs = watcher.bonus("Ag"), other.bonus("Ag")
    title = Message("imperial.overwatch.timing")
    if mine != theirs:
        first = watcher if mine > theirs else other
        detail = Message("imperial.overwatch.agility_bonus", mine=mine, theirs=theirs)
        return first.name, (Step(title, first.name, detail),)
    tests = [
        roll_test(
            "Ag",
            int(sheet.characteristics.Ag),
            [],
            source,
            Message("imperial.overwatch.timing_die", name=sheet.name),
        )
        for sheet in (watcher, other)
    ]
    winner = opposed_winner(tests[0], tests[1])
    first = other if winner == 1 else watcher
    both = Message("common.join", parts=tuple(test.explain() for test in tests))
    return first.name, (Step(title, first.name, both, (tests[0].roll, tests[1].roll)),)


@dataclass(frozen=True, slots=True)
class JamClearing:
    """A full action spent on a jammed weapon."""

    success: bool
    steps: tuple[Step, ...]
    effects: tuple[Effect, ...]


def clear_jam(
    character: ImperialCharacter,
    weapon_name: str,
    source: DiceSource,
    modifiers: Sequence[Modifier] = (),
) -> JamClearing:
    """Try to clear ``weapon_name``'s jam: a full action and a test (``jam_clearing.yaml``)."""
    rules: Mapping[str, Any] = table(character.game, "jam_clearing")
    weapon = next(w for w in character.weapons if w.name.casefold() == weapon_name.casefold())
    key = str(rules.get("characteristic", "BS"))
    base = int(getattr(character.characteristics, key))
    purpose = Message("imperial.jam.die", weapon=weapon.name)
    test = roll_test(key, base, modifiers, source, purpose)
    title = Message("imperial.jam.title")
    if not test.success:
        step = Step(title, Message("imperial.jam.still"), test.explain(), (test.roll,))
        return JamClearing(False, (step,), ())
    loses: Mapping[str, Any] = rules.get("loses", {})
    rule = loses.get(weapon.group, loses.get("default", "clip"))
    lost = weapon.loaded if rule == "clip" else min(int(rule), weapon.loaded)
    group: Text = weapon.group or Message("imperial.jam.no_group")
    how: Message = Message("imperial.jam.clip") if rule == "clip" else Message.verbatim(str(rule))
    loss = Message("imperial.jam.loses", lost=lost, group=group, rule=how)
    detail = Message("common.join", parts=(test.explain(), loss))
    step = Step(title, Message("imperial.jam.cleared"), detail, (test.roll,), test.target)
    effects = [lose(character.game, character.name, "jammed", weapon=weapon.name)]
    if lost:
        note = Message("imperial.jam.note")
        effects.append(Effect("ammo", character.name, lost, weapon=weapon.name, note=note))
    return JamClearing(True, (step,), tuple(effects))
