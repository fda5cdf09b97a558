"""Resolving a Necromunda shot with dice: to hit, ammo, pinning, to wound, wounds, injuries.

:func:`resolve_shot` takes a request and a dice source and returns an
:class:`~gmkit.systems.base.AttackResult`; :func:`gmkit.systems.necromunda._shooting.shot_setup`
has already fixed every number the dice are rolled against.

Order: the to-hit roll (with the 7+ chart); the ammo roll when the to-hit die shows a 6; on a
hit the target is pinned; the to-wound roll (Strength against Toughness); the wounds the
weapon causes (its damage dice, "D3" and the like); the wounds and injury rolls
(:mod:`gmkit.systems.necromunda._injuries`).

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
- Disputes at the table (the sight roll, the cover roll-off) are rolled first, when the
  options ask for them (:mod:`~gmkit.systems.necromunda._disputes`).
- A weapon the encounter keeps jammed (``"jammed: <weapon>"`` among the shooter's standing
  conditions, ``request.attacker_standing``: a failed ammo roll) is refused: not usable again
  this battle, unless the GM allows the shot.
- Without ``attacker_state`` / ``target_state`` in the options, the states come from the
  encounter's standings, their conditions and counters
  (:func:`~gmkit.systems.necromunda._state.with_encounter_states`); the result's request is
  the one resolved, states included.

Every text is a message (``necromunda.*`` in the catalogs): ``str(step)`` is the English,
``step.render("es")`` the Spanish.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from gmkit.dice import DiceSource, DieRoll, roll
from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems._sixes import roll_needed
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Modifier, Step
from gmkit.systems.necromunda._charts import possible, seven_plus_chart
from gmkit.systems.necromunda._conditions import BOOK
from gmkit.systems.necromunda._disputes import disputes
from gmkit.systems.necromunda._injuries import injury_term, resolve_wounds
from gmkit.systems.necromunda._shooting import ShotSetup, range_band, shot_setup
from gmkit.systems.necromunda._state import (
    Check,
    Settings,
    fighter_of,
    with_encounter_states,
)

OFF_TABLE = ("on the table", "target on the table")
"""Checks no GM override lifts: out of action fighters are off the table."""


def _title(name: str) -> Message:
    return Message(f"necromunda.step.{name}")


def modifiers_text(modifiers: Iterable[Modifier]) -> Message:
    """The modifiers listed, "Partial cover -1, long range (laspistol) -1" (or "no
    modifiers")."""
    listed = tuple(Message("common.modifier", source=m.source, value=m.value) for m in modifiers)
    return Message("common.list", items=listed) if listed else Message("common.no_modifiers")


def refusal(
    shooter: NecromundaFighter, target: NecromundaFighter, refused: Sequence[Check]
) -> tuple[Message, bool]:
    """Why ``shooter`` may not shoot ``target`` (every refused check, "rule: reason; ..."), and
    whether no GM may lift it (a fighter off the table)."""
    reasons = Message("common.join", parts=tuple(check.refusal for check in refused))
    off_table = any(check.rule in OFF_TABLE for check in refused)
    return reasons, off_table


def refused_shot(
    shooter: NecromundaFighter, target: NecromundaFighter, reasons: Message
) -> Message:
    """ "<shooter> may not shoot <target>: <reasons>"."""
    return Message("necromunda.refused", shooter=shooter.name, target=target.name, reasons=reasons)


def _settings(request: AttackRequest, settings: Settings | None) -> Settings:
    base = settings or Settings.packaged()
    ammo_auto, armour_saves = request.options.ammo_auto, request.options.armour_saves
    if ammo_auto is not None or armour_saves is not None:
        return replace(
            base,
            ammo_auto=base.ammo_auto if ammo_auto is None else ammo_auto,
            armour_saves=base.armour_saves if armour_saves is None else armour_saves,
        )
    return base


def _to_hit(setup: ShotSetup, source: DiceSource) -> tuple[Step, bool, DieRoll | None]:
    """The to-hit step, whether it hit, and the first die (for the ammo roll)."""
    base = Message(
        "necromunda.to_hit.base",
        bs=setup.bs,
        base=7 - setup.bs,
        modifiers=modifiers_text(setup.modifiers),
    )
    if setup.weapon.template:
        step = Step(
            _title("to_hit"),
            Message("necromunda.to_hit.template"),
            Message("necromunda.to_hit.template_detail"),
        )
        return step, True, None
    if setup.band == "out of range" or not possible(setup.needed):
        if setup.band == "out of range":
            why = range_band("out of range")
        else:
            why = Message("necromunda.to_hit.impossible")
        die = source.roll_die(6, Message("necromunda.purpose.to_hit_for_ammo"))
        step = Step(
            _title("to_hit"),
            Message("necromunda.to_hit.miss_because", why=why),
            Message("necromunda.to_hit.for_ammo_only"),
            (die,),
        )
        return step, False, die
    test = roll_needed(
        setup.needed, source, Message("necromunda.purpose.to_hit"), seven_plus_chart()
    )
    outcome = Message("necromunda.to_hit.hit" if test.success else "necromunda.to_hit.miss")
    detail = Message("common.join", parts=(base, test.explanation))
    step = Step(_title("to_hit"), outcome, detail, test.rolls, setup.needed, setup.modifiers)
    return step, test.success, test.rolls[0]


def _ammo(
    setup: ShotSetup, first: DieRoll | None, shooter: str, settings: Settings, source: DiceSource
) -> tuple[list[Step], list[Effect]]:
    if first is None or first.value != 6 or setup.weapon.ammo_roll is None:
        return [], []
    name = setup.weapon.name
    note = Message("necromunda.effect.ammo_failed")
    spent = Effect("jam", shooter, weapon=name, note=note)
    title = _title("ammo_roll")
    if setup.weapon.ammo_roll == "auto":
        if settings.ammo_auto == "pass":
            passed = Message("necromunda.ammo.passed")
            return [Step(title, passed, Message("necromunda.ammo.auto_passes"))], []
        failed = Message("necromunda.ammo.failed")
        return [Step(title, failed, Message("necromunda.ammo.auto_fails"))], [spent]
    test = roll_needed(setup.weapon.ammo_roll, source, Message("necromunda.purpose.ammo_roll"))
    if test.success:
        outcome = Message("necromunda.ammo.passed")
    else:
        outcome = Message("necromunda.ammo.out_of_ammunition", weapon=name)
    step = Step(title, outcome, test.explanation, test.rolls, setup.weapon.ammo_roll)
    return [step], [] if test.success else [spent]


def _ammunition(request: AttackRequest, setup: ShotSetup) -> tuple[Check, ...]:
    """A failed check when the encounter keeps the weapon jammed (a failed ammo roll)."""
    held = {str(name).casefold() for name in request.attacker_standing.conditions}
    if f"jammed: {setup.weapon.name}".casefold() not in held:
        return ()
    why = Message("necromunda.reason.jammed", weapon=setup.weapon.name)
    return (Check("ammunition", False, why),)


def _save(
    setup: ShotSetup, target: NecromundaFighter, source: DiceSource
) -> tuple[Step, bool] | None:
    if target.armour_save is None:
        return None
    needed = max(2, target.armour_save - setup.weapon.save_modifier)
    detail = Message(
        "necromunda.save.detail", save=target.armour_save, modifier=setup.weapon.save_modifier
    )
    title = _title("armour_save")
    if needed > 6:
        return Step(title, Message("necromunda.save.impossible"), detail, target=needed), False
    test = roll_needed(needed, source, Message("necromunda.purpose.armour_save"))
    outcome = Message("necromunda.save.saved" if test.success else "necromunda.save.failed")
    joined = Message("common.join", parts=(detail, test.explanation))
    step = Step(title, outcome, joined, test.rolls, needed)
    return step, test.success


def _wounds_purpose() -> Any:
    """The damage dice's purpose (a message; ``gmkit.dice.roll`` is still typed for text)."""
    return Message("necromunda.purpose.wounds")


_PREPARED: dict[int, tuple[AttackRequest, Settings | None, Any]] = {}
_KEEP = 32


def prepared(
    request: AttackRequest, settings: Settings | None = None
) -> tuple[AttackRequest, Settings, ShotSetup]:
    """The request with the fighters' states, the settings and the shot's setup: everything
    no die decides, worked out once per request object (a request is immutable) for the last
    few asked for (the resolver and the odds ask for the same one many times)."""
    kept = _PREPARED.get(id(request))
    if kept is not None and kept[0] is request and kept[1] is settings:
        found: tuple[AttackRequest, Settings, ShotSetup] = kept[2]
        return found
    filled = with_encounter_states(request)
    chosen = _settings(filled, settings)
    found = (filled, chosen, shot_setup(filled, chosen))
    if len(_PREPARED) >= _KEEP:
        _PREPARED.clear()
    _PREPARED[id(request)] = (request, settings, found)
    return found


def _disputed(
    request: AttackRequest, source: DiceSource, settings: Settings | None
) -> AttackResult:
    """A shot with disputes to roll first (:mod:`~gmkit.systems.necromunda._disputes`): a
    refusal that no dispute changes comes before any die."""
    filled, chosen, setup = prepared(request, settings)
    shooter = fighter_of(filled.attacker, "attacker")
    target = fighter_of(filled.target, "target")
    refused = [c for c in setup.refused + _ammunition(filled, setup) if c.rule != "hidden target"]
    if refused:
        reasons, off_table = refusal(shooter, target, refused)
        if off_table or not filled.options.gm_allows_shot:
            raise RulesError(refused_shot(shooter, target, reasons))
    settled = disputes(filled, setup.target_state, source, chosen)
    if not settled.shoots:
        summary = Message("necromunda.summary.no_shot", shooter=shooter.name, target=target.name)
        return AttackResult(filled, settled.steps, settled.effects, 0, summary)
    plain = settled.request.with_options(sight_in_doubt=False, disputed=None)
    shot = resolve_shot(plain, source, settings)
    return replace(shot, steps=settled.steps + shot.steps, effects=settled.effects + shot.effects)


def resolve_shot(
    request: AttackRequest, source: DiceSource, settings: Settings | None = None
) -> AttackResult:
    """Resolve one shot: every die from ``source``; nothing is modified."""
    if request.options.sight_in_doubt or request.options.disputed is not None:
        return _disputed(request, source, settings)
    request, settings, setup = prepared(request, settings)
    shooter = fighter_of(request.attacker, "attacker")
    target = fighter_of(request.target, "target")
    steps: list[Step] = []
    effects: list[Effect] = []
    refused = setup.refused + _ammunition(request, setup)
    if refused:
        reasons, off_table = refusal(shooter, target, refused)
        if off_table or not request.options.gm_allows_shot:
            raise RulesError(refused_shot(shooter, target, reasons))
        steps.append(Step(_title("who_may_shoot"), Message("necromunda.allowed_by_gm"), reasons))
    for name in BOOK.ended(setup.attacker_state.names(), "attack"):  # hiding: shooting ends it
        effects.append(Effect("remove_condition", shooter.name, condition=name))
        revealed = Message("necromunda.hidden.shooter_revealed", name=shooter.name)
        steps.append(Step(_title("hidden"), revealed))
    if setup.target_state.hidden:
        effects.append(Effect("remove_condition", target.name, condition="hidden"))
        spotted = Message("necromunda.hidden.target_spotted", name=target.name)
        steps.append(Step(_title("hidden"), spotted, Message("necromunda.hidden.within_range")))
    if setup.band is not None:
        distance = request.distance if request.distance is not None else 0.0
        band = Message("necromunda.range.band", band=range_band(setup.band), distance=distance)
        steps.append(Step(_title("range"), band, Message.named(setup.weapon.name)))
    hit_step, hit, first = _to_hit(setup, source)
    steps.append(hit_step)
    ammo_steps, ammo_effects = _ammo(setup, first, shooter.name, settings, source)
    if not hit:
        steps += ammo_steps
        effects += ammo_effects
        misses = Message("necromunda.summary.misses", shooter=shooter.name)
        return AttackResult(request, tuple(steps), tuple(effects), 0, misses)
    if setup.target_state.down:
        steps.append(Step(_title("pinned"), Message("necromunda.pinned.already_down")))
    else:
        effects.append(Effect("pinned", target.name, note=Message("necromunda.effect.pinned")))
        pinned = Message("necromunda.pinned.target", name=target.name)
        steps.append(Step(_title("pinned"), pinned, Message("necromunda.pinned.every_hit")))
    steps += ammo_steps
    effects += ammo_effects
    wound_detail = Message(
        "necromunda.to_wound.detail", strength=setup.strength, toughness=target.T
    )
    wound = roll_needed(setup.to_wound, source, Message("necromunda.purpose.to_wound"))
    verdict = Message(
        "necromunda.to_wound.wounds" if wound.success else "necromunda.to_wound.no_wound"
    )
    detail = Message("common.join", parts=(wound_detail, wound.explanation))
    steps.append(Step(_title("to_wound"), verdict, detail, wound.rolls, setup.to_wound))
    names = {"shooter": shooter.name, "target": target.name}
    if not wound.success:
        summary = Message("necromunda.summary.no_wound", **names)
        return AttackResult(request, tuple(steps), tuple(effects), 1, summary)
    if settings.armour_saves and (save := _save(setup, target, source)):
        steps.append(save[0])
        if save[1]:
            summary = Message("necromunda.summary.saved", **names)
            return AttackResult(request, tuple(steps), tuple(effects), 1, summary)
    wounds = 1
    if setup.weapon.damage.strip() != "1":
        purpose = _wounds_purpose()
        rolled = roll(setup.weapon.damage, source, purpose, names=shooter.bonuses())
        wounds = max(1, rolled.total)
        detail = Message(
            "necromunda.wounds_caused.roll",
            purpose=purpose,
            expression=str(rolled.expression),
            result=str(rolled.result),
            total=rolled.total,
        )
        count = Message("necromunda.wounds_caused.count", count=wounds)
        steps.append(Step(_title("wounds_caused"), count, detail, rolled.dice))
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
    if outcome.results:
        results = tuple(injury_term(result) for result in outcome.results)
        summary = Message("necromunda.summary.injuries", results=results, **names)
    else:
        summary = Message("necromunda.summary.wounds_left", left=left, **names)
    return AttackResult(request, tuple(steps), tuple(effects), 1, summary)
