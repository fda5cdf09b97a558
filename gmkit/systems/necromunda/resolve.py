"""Resolving a Necromunda shot with dice: to hit, ammo, pinning, to wound, wounds, injuries.

:func:`resolve_shot` takes a request and a dice source and returns an
:class:`~gmkit.systems.base.AttackResult`; :func:`gmkit.systems.necromunda.shooting.shot_setup`
has already fixed every number the dice are rolled against.

Order: the to-hit roll (with the 7+ chart); the ammo roll when the to-hit die shows a 6; on a
hit the target is pinned; the to-wound roll (Strength against Toughness); the wounds the
weapon causes (its damage dice, "D3" and the like); the wounds and injury rolls
(:mod:`gmkit.systems.necromunda.injuries`).

Choices where the texts are silent:

- The ammo roll is rolled when the first to-hit die shows a natural 6 (a 6 that hits, a 6
  before the 7+ follow-up, a 6 out of range or at an impossible score); the shot's own hit
  still counts. A failed roll is a ``jam`` effect on the shooter's weapon (out of ammunition
  or broken: not usable again this battle). An ammo roll of "auto" follows the ``ammo_auto``
  setting ("fail" unless the GM says otherwise); a weapon with no ammo roll never takes one.
- Out of range, or needing 10+, the to-hit die is rolled only for the ammo roll.
- Template weapons (the flamer) roll no to-hit die: the GM places the template and resolves
  each fighter under it as a hit (the seed has no template rules); they take no ammo roll here.
- Armour saves are not in the seed: with the ``armour_saves`` setting (or option) on, a
  wounded target with armour rolls D6 needing its save less the weapon's save modifier
  (4+ with -1 needs 5+), once per hit, before the wounds are rolled; never better than 2+.
- A weapon's damage dice give at least one wound.
- A hit on a down fighter does not pin it (it lies face down already).
- The shooter firing from hiding loses it; a hidden target within the shooter's spotting
  range is spotted (``remove_condition`` "hidden" on the target).
- A weapon the encounter keeps jammed (``"jammed: <weapon>"`` among
  ``options["attacker_conditions"]``: a failed ammo roll) is refused: not usable again this
  battle, unless the GM allows the shot.
- Without ``attacker_state`` / ``target_state`` in the options, the states come from the
  encounter's conditions and counters
  (:func:`~gmkit.systems.necromunda.state.with_encounter_states`); the result's request is
  the one resolved, states included.
"""

from __future__ import annotations

from gmkit.dice import DiceSource, DieRoll, roll
from gmkit.errors import RulesError
from gmkit.sheets.necromunda import NecromundaFighter
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Step
from gmkit.systems.necromunda.injuries import resolve_wounds
from gmkit.systems.necromunda.shooting import IMPOSSIBLE, ShotSetup, shot_setup
from gmkit.systems.necromunda.state import (
    Check,
    Settings,
    fighter_of,
    with_encounter_states,
)
from gmkit.systems.sixes import roll_needed

OFF_TABLE = ("on the table", "target on the table")
"""Checks no GM override lifts: out of action fighters are off the table."""


def _settings(request: AttackRequest, settings: Settings | None) -> Settings:
    base = settings or Settings.packaged()
    if "ammo_auto" in request.options or "armour_saves" in request.options:
        return Settings(
            base.spotting_multiplier,
            request.options.get("ammo_auto", base.ammo_auto),
            bool(request.options.get("armour_saves", base.armour_saves)),
        )
    return base


def _to_hit(setup: ShotSetup, source: DiceSource) -> tuple[Step, bool, DieRoll | None]:
    """The to-hit step, whether it hit, and the first die (for the ammo roll)."""
    listed = ", ".join(str(m) for m in setup.modifiers) or "no modifiers"
    base = f"7 - BS {setup.bs} = {7 - setup.bs}; {listed}"
    if setup.weapon.template:
        return Step("To hit", "hit: template weapon", "the GM places the template"), True, None
    if setup.band == "out of range" or (setup.needed or IMPOSSIBLE) >= IMPOSSIBLE:
        why = "out of range" if setup.band == "out of range" else "needs 10+: cannot hit"
        die = source.roll_die(6, "to hit (for the ammo roll)")
        step = Step("To hit", f"miss: {why}", "rolled only for the ammo roll", (die,))
        return step, False, die
    test = roll_needed(setup.needed, source, "to hit")
    outcome = "hit" if test.success else "miss"
    detail = f"{base}; {test.explanation}"
    step = Step("To hit", outcome, detail, test.rolls, setup.needed, setup.modifiers)
    return step, test.success, test.rolls[0]


def _ammo(
    setup: ShotSetup, first: DieRoll | None, shooter: str, settings: Settings, source: DiceSource
) -> tuple[list[Step], list[Effect]]:
    if first is None or first.value != 6 or setup.weapon.ammo_roll is None:
        return [], []
    name = setup.weapon.name
    spent = Effect("jam", shooter, weapon=name, note="failed ammo roll: not usable this battle")
    if setup.weapon.ammo_roll == "auto":
        if settings.ammo_auto == "pass":
            return [Step("Ammo roll", "passed", "ammo roll auto: passes (setting)")], []
        return [Step("Ammo roll", "failed", "ammo roll auto: fails (setting)")], [spent]
    test = roll_needed(setup.weapon.ammo_roll, source, "ammo roll")
    outcome = "passed" if test.success else f"failed: {name} is out of ammunition"
    step = Step("Ammo roll", outcome, test.explanation, test.rolls, setup.weapon.ammo_roll)
    return [step], [] if test.success else [spent]


def _ammunition(request: AttackRequest, setup: ShotSetup) -> tuple[Check, ...]:
    """A failed check when the encounter keeps the weapon jammed (a failed ammo roll)."""
    held = {str(name).casefold() for name in request.options.get("attacker_conditions") or ()}
    if f"jammed: {setup.weapon.name}".casefold() not in held:
        return ()
    why = f"{setup.weapon.name} failed its ammo roll: not usable again this battle"
    return (Check("ammunition", False, why),)


def _save(
    setup: ShotSetup, target: NecromundaFighter, source: DiceSource
) -> tuple[Step, bool] | None:
    if target.armour_save is None:
        return None
    needed = max(2, target.armour_save - setup.weapon.save_modifier)
    detail = f"save {target.armour_save}+, weapon save modifier {setup.weapon.save_modifier:+d}"
    if needed > 6:
        return Step("Armour save", "no save possible", detail, target=needed), False
    test = roll_needed(needed, source, "armour save")
    outcome = "saved" if test.success else "failed"
    step = Step("Armour save", outcome, f"{detail}; {test.explanation}", test.rolls, needed)
    return step, test.success


def resolve_shot(
    request: AttackRequest, source: DiceSource, settings: Settings | None = None
) -> AttackResult:
    """Resolve one shot: every die from ``source``; nothing is modified."""
    request = with_encounter_states(request)
    settings = _settings(request, settings)
    setup = shot_setup(request, settings)
    shooter = fighter_of(request.attacker, "attacker")
    target = fighter_of(request.target, "target")
    steps: list[Step] = []
    effects: list[Effect] = []
    refused = setup.refused + _ammunition(request, setup)
    if refused:
        reasons = "; ".join(f"{c.rule}: {c.reason}" for c in refused)
        off_table = any(c.rule in OFF_TABLE for c in refused)
        if off_table or not request.options.get("gm_allows_shot"):
            raise RulesError(f"{shooter.name} may not shoot {target.name}: {reasons}")
        steps.append(Step("Who may shoot", "allowed by the GM", reasons))
    if setup.attacker_state.hidden:
        effects.append(Effect("remove_condition", shooter.name, condition="hidden"))
        steps.append(Step("Hidden", f"{shooter.name} shoots and is no longer hidden"))
    if setup.target_state.hidden:
        effects.append(Effect("remove_condition", target.name, condition="hidden"))
        steps.append(Step("Hidden", f"{target.name} is spotted", "within the spotting range"))
    if setup.band is not None:
        steps.append(Step("Range", f'{setup.band} ({request.distance:g}")', setup.weapon.name))
    hit_step, hit, first = _to_hit(setup, source)
    steps.append(hit_step)
    ammo_steps, ammo_effects = _ammo(setup, first, shooter.name, settings, source)
    if not hit:
        steps += ammo_steps
        effects += ammo_effects
        return AttackResult(request, tuple(steps), tuple(effects), 0, f"{shooter.name} misses")
    if setup.target_state.down:
        steps.append(Step("Pinned", "not pinned: already down"))
    else:
        effects.append(Effect("pinned", target.name, note="hit by a shot: face up"))
        steps.append(Step("Pinned", f"{target.name} is pinned", "every hit pins"))
    steps += ammo_steps
    effects += ammo_effects
    wound_detail = f"S {setup.strength} against T {target.T}"
    wound = roll_needed(setup.to_wound, source, "to wound")
    verdict = "wounds" if wound.success else "no wound"
    detail = f"{wound_detail}; {wound.explanation}"
    steps.append(Step("To wound", verdict, detail, wound.rolls, setup.to_wound))
    summary = f"{shooter.name} hits {target.name}"
    if not wound.success:
        return AttackResult(request, tuple(steps), tuple(effects), 1, f"{summary}: no wound")
    if settings.armour_saves and (save := _save(setup, target, source)):
        steps.append(save[0])
        if save[1]:
            return AttackResult(request, tuple(steps), tuple(effects), 1, f"{summary}: saved")
    wounds = 1
    if setup.weapon.damage.strip() != "1":
        rolled = roll(setup.weapon.damage, source, "wounds", names=shooter.bonuses())
        wounds = max(1, rolled.total)
        steps.append(Step("Wounds caused", str(wounds), str(rolled), rolled.dice))
    outcome = resolve_wounds(
        target,
        setup.target_state.with_changes(pinned=not setup.target_state.down),
        wounds,
        source,
        high_impact=setup.high_impact,
    )
    steps += outcome.steps
    effects += outcome.effects
    left = outcome.state.wounds(target)
    results = ", ".join(outcome.results) or f"{left} wound{'s' * (left != 1)} left"
    return AttackResult(request, tuple(steps), tuple(effects), 1, f"{summary}: {results}")
