"""Fire discipline: pinning, overwatch as a declared trigger, and clearing a jam.

- Pinning (001, 004): a character under suppressing fire (or caught in an overwatch kill zone)
  tests Willpower at -20 (Hard) or is pinned, even when the shot hit cover or did no damage.
  A pinned character tests Willpower again to recover, at +30 when nobody shot at it since its
  last turn (001: at the start of its turn; 004: at the end). A horde adds its magnitude (004).
- Overwatch (004): a full action that declares a kill zone, a fire mode (full, semi or
  suppressing) and the condition that triggers the attack before the watcher's next turn.
  ``declare_overwatch`` returns the declaration step; :class:`Overwatch` is the value the
  encounter queues, and ``Overwatch.request`` builds the attack to resolve when it triggers
  (``options["overwatch"] = True``: the target then tests pinning at -20). If the trigger and
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
from gmkit.sheets.dark_heresy import ImperialCharacter
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Modifier, Step
from gmkit.systems.imperial.conditions import gain, lose
from gmkit.systems.imperial.setup import AttackSetup
from gmkit.systems.percentile import PercentileTest, opposed_winner, roll_test
from gmkit.systems.tables import table

PINNING_MODIFIER = -20
RECOVERY_NOT_UNDER_FIRE = 30


def _pinning_modifiers(
    sheet: ImperialCharacter, base: int, label: str = "Pinning test (Hard)"
) -> list[Modifier]:
    modifiers = [Modifier(label, base)] if base else []
    horde = getattr(sheet, "horde", None)
    if horde is not None:
        modifiers.append(Modifier("Horde magnitude", horde.resist_bonus))
    if sheet.fatigue:
        modifiers.append(Modifier("Fatigued", sheet.fatigue_penalty))
    return modifiers


def pinning(
    sheet: ImperialCharacter, source: DiceSource, modifier: int = PINNING_MODIFIER
) -> tuple[list[Step], list[Effect]]:
    """A Willpower test against being pinned; failed: ``Effect(kind="pinned")``."""
    modifiers = _pinning_modifiers(sheet, modifier)
    test = roll_test("WP", int(sheet.characteristics.WP), modifiers, source, "pinning test")
    outcome = "holds firm" if test.success else "pinned"
    step = Step(f"Pinning ({sheet.name})", outcome, test.explain(), (test.roll,), test.target)
    if test.success:
        return [step], []
    note = "half actions only; -20 Ballistic Skill; stays in cover or gets to it"
    return [step], [gain(sheet.game, sheet.name, "pinned", note=note, kind="pinned")]


def recover_from_pinning(
    sheet: ImperialCharacter, source: DiceSource, *, under_fire: bool
) -> tuple[PercentileTest, Step, tuple[Effect, ...]]:
    """A pinned character's Willpower test to act normally again (+30 when not under fire)."""
    bonus = 0 if under_fire else RECOVERY_NOT_UNDER_FIRE
    modifiers = _pinning_modifiers(sheet, bonus, "No longer under fire")
    test = roll_test("WP", int(sheet.characteristics.WP), modifiers, source, "pinning recovery")
    outcome = "no longer pinned" if test.success else "still pinned"
    step = Step(f"Pinning ({sheet.name})", outcome, test.explain(), (test.roll,), test.target)
    effects = (lose(sheet.game, sheet.name, "pinned"),)
    return test, step, effects if test.success else ()


@dataclass(frozen=True)
class Overwatch:
    """A declared overwatch: the value the encounter queues until it triggers or expires."""

    watcher: str
    weapon: str
    mode: str  # "full", "semi" or "suppressing"
    trigger: str  # the condition, in the GM's words
    kill_zone: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    expires: str = "the start of the watcher's next turn, or any action or reaction it takes"

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
    mode = str(options.get("overwatch_mode", request.mode if request.mode != "single" else "full"))
    return Overwatch(
        request.attacker.name,
        request.weapon,
        mode,
        str(options.get("trigger", "an enemy enters the kill zone")),
        str(options.get("kill_zone", "")),
    )


def declare_overwatch(
    request: AttackRequest, setup: AttackSetup, source: DiceSource
) -> AttackResult:
    """Declare overwatch (a full action): no dice; the encounter queues ``overwatch_of``."""
    watch = overwatch_of(request)
    detail = f"kill zone {watch.kill_zone or '45 degrees ahead'}; ends at {watch.expires}"
    step = Step("Overwatch", f"{watch.mode} fire when {watch.trigger}", detail)
    effect = gain(
        request.attacker.game, request.attacker.name, "overwatch", 1, weapon=request.weapon,
        note=f"{watch.mode} fire when {watch.trigger}",
    )  # fmt: skip
    summary = f"{request.attacker.name} sets overwatch with {request.weapon}"
    return AttackResult(request, (step,), (effect,), 0, summary)


def first_to_act(
    watcher: ImperialCharacter, other: ImperialCharacter, source: DiceSource
) -> tuple[str, tuple[Step, ...]]:
    """Who acts first when overwatch and another action collide: AgB, then opposed Agility."""
    mine, theirs = watcher.bonus("Ag"), other.bonus("Ag")
    if mine != theirs:
        first = watcher if mine > theirs else other
        return first.name, (Step("Overwatch timing", first.name, f"AgB {mine} vs {theirs}"),)
    tests = [
        roll_test("Ag", int(sheet.characteristics.Ag), [], source, f"overwatch timing ({name})")
        for sheet, name in ((watcher, watcher.name), (other, other.name))
    ]
    winner = opposed_winner(tests[0], tests[1])
    first = other if winner == 1 else watcher
    detail = "; ".join(test.explain() for test in tests)
    return first.name, (
        Step("Overwatch timing", first.name, detail, (tests[0].roll, tests[1].roll)),
    )


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
    test = roll_test(key, base, modifiers, source, f"clear jam ({weapon.name})")
    if not test.success:
        step = Step("Clear jam (full action)", "still jammed", test.explain(), (test.roll,))
        return JamClearing(False, (step,), ())
    loses: Mapping[str, Any] = rules.get("loses", {})
    rule = loses.get(weapon.group, loses.get("default", "clip"))
    lost = weapon.loaded if rule == "clip" else min(int(rule), weapon.loaded)
    detail = f"{test.explain()}; loses {lost} rounds ({weapon.group or 'no group'}: {rule})"
    step = Step("Clear jam (full action)", "cleared", detail, (test.roll,), test.target)
    effects = [lose(character.game, character.name, "jammed", weapon=weapon.name)]
    if lost:
        effects.append(Effect("ammo", character.name, lost, weapon=weapon.name, note="jam"))
    return JamClearing(True, (step,), tuple(effects))
