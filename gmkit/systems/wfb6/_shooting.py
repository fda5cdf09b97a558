"""Warhammer Fantasy Battle 6e: one model's shooting resolved, step by step (seed 003).

The resolver :func:`resolve_attack` and its steps, which the odds (:mod:`gmkit.odds._wfb6`)
run with scripted dice to read the numbers the rules roll against: :func:`to_hit` (templates,
automatic hits, move or fire, range, the 7+ chart), :func:`who_takes_the_hits` (the unit's
allocation or "Look out, Sir!"), then to wound and the armour save for each model hit. The
package docstring (:mod:`gmkit.systems.wfb6`) says what is included and where the texts are
silent.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from gmkit.dice import DiceSource
from gmkit.errors import GmkitError, RulesError
from gmkit.messages import Message, Text
from gmkit.sheets._wfb6 import Weapon, WFB6Character, resolve_strength
from gmkit.systems._sixes import D6Test, roll_needed, to_hit_needed, to_wound_needed
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Modifier, Step
from gmkit.systems.wfb6._battlefield import Situation, UnitOnTable
from gmkit.systems.wfb6._data import (
    AttackKind,
    modifier_list,
    shooting_rules,
    targeting_rules,
)
from gmkit.systems.wfb6._hits import (
    Share,
    allocate_hits,
    champion_share,
    character_share,
    look_out_sir,
    troops_share,
)
from gmkit.systems.wfb6._options import WFB6Options
from gmkit.systems.wfb6._targeting import Ruling, allowed_by_gm, find_weapon, may_target


def shot_modifiers(
    weapon: Weapon,
    distance_cm: float | None = None,
    circumstances: Mapping[str, Any] | None = None,
) -> tuple[Modifier, ...]:
    """The to-hit modifiers of the shot itself (the target's come from :func:`may_target`).

    ``circumstances`` maps ids of ``shooting.yaml``'s ``to_hit`` to True (the catalog value),
    False (not applied) or a number (applied instead of the catalog value); ``long_range``
    may be forced either way, otherwise it applies beyond half the weapon's range.
    """
    rules = shooting_rules()
    given = dict(circumstances or {})
    found: list[Modifier] = []
    long_range = given.pop("long_range", None)
    if long_range is None and distance_cm is not None and weapon.range_cm is not None:
        long_range = distance_cm > weapon.range_cm / 2
    if long_range:
        found.append(rules.entry("long_range").modifier())
    if weapon.shots > 1:
        found.append(rules.entry("multiple_shots").modifier())
    known = [entry.id for entry in rules.to_hit if not entry.automatic]
    for key, value in given.items():
        if key not in known:
            listed = ("long_range", *known)
            raise GmkitError(
                Message("wfb6.circumstance.unknown", circumstance=repr(key), known=listed)
            )
        if isinstance(value, bool):
            found += [rules.entry(key).modifier()] if value else []
        elif isinstance(value, int):
            found.append(rules.entry(key).modifier(value))
        else:
            raise GmkitError(
                Message("wfb6.circumstance.bad_value", circumstance=repr(key), value=repr(value))
            )
    return tuple(found)


def sheet_of(sheet: object, role: str) -> WFB6Character:
    if not isinstance(sheet, WFB6Character):
        raise GmkitError(Message(f"wfb6.not_a_sheet.{role}"))
    return sheet


def options_of(request: AttackRequest) -> WFB6Options:
    found = request.options
    if not isinstance(found, WFB6Options):  # a request built while another model was set
        found = WFB6Options.coerce(found)
    return found


def situation_of(request: AttackRequest, attacker: WFB6Character) -> Situation:
    situation = options_of(request).situation or Situation()
    if situation.distance_cm is None and request.distance is not None:
        situation = dataclasses.replace(situation, distance_cm=request.distance)
    into_combat = {rule.casefold() for rule in targeting_rules().shoots_into_combat}
    if any(rule.casefold() in into_combat for rule in attacker.special_rules):
        situation = dataclasses.replace(situation, shoots_into_combat=True)
    return situation


def targeting_ruling(
    request: AttackRequest, target: WFB6Character, situation: Situation, kind: AttackKind
) -> Ruling:
    """May the target be designated (or the GM lets it be, ``gm_allows_shot``)."""
    ruling = may_target(target, situation, kind.id)
    return allowed_by_gm(ruling, target) if options_of(request).gm_allows_shot else ruling


def to_hit(
    request: AttackRequest,
    kind: AttackKind,
    weapon: Weapon,
    situation: Situation,
    ruling: Ruling,
    source: DiceSource,
) -> tuple[int, Step]:
    attacker = sheet_of(request.attacker, "attacker")
    title = Message("wfb6.to_hit.title")
    if kind.to_hit == "template":
        under = Message("wfb6.template.under", target=request.target.name)
        return 1, Step(Message("wfb6.template.title"), under, Message("wfb6.template.detail"))
    if kind.to_hit == "automatic":
        outcome = Message("wfb6.to_hit.automatic", shots=weapon.shots)
        return weapon.shots, Step(title, outcome, Message("wfb6.to_hit.kind", kind=kind.term))
    if weapon.range_cm is None:
        raise GmkitError(Message("wfb6.weapon.not_missile", weapon=weapon.name))
    if request.circumstances.get("moved") and shooting_rules().moves_or_fires(weapon):
        detail = Message("wfb6.to_hit.moved", weapon=weapon.name)
        return 0, Step(title, Message("wfb6.to_hit.no_shot"), detail)
    distance = situation.distance_cm
    if distance is not None and not weapon.in_range(distance):
        detail = Message(
            "wfb6.to_hit.beyond_range", distance=distance, weapon=weapon.name, range=weapon.range_cm
        )
        return 0, Step(title, Message("wfb6.to_hit.out_of_range"), detail)
    modifiers = ruling.modifiers + shot_modifiers(weapon, distance, request.circumstances)
    needed = to_hit_needed(attacker.BS, modifiers)
    tests = [
        roll_needed(needed, source, Message("wfb6.purpose.to_hit", shot=n))
        for n in range(1, weapon.shots + 1)
    ]
    hits = sum(test.success for test in tests)
    detail = Message(
        "wfb6.to_hit.detail",
        skill=attacker.BS,
        needed=needed,
        modifiers=modifier_list(modifiers),
        tests=tuple(test.explanation for test in tests),
    )
    outcome = Message("wfb6.to_hit.outcome", hits=hits, shots=weapon.shots)
    rolls = tuple(roll for test in tests for roll in test.rolls)
    return hits, Step(title, outcome, detail, rolls=rolls, target=needed, modifiers=modifiers)


def who_takes_the_hits(
    request: AttackRequest,
    kind: AttackKind,
    unit: UnitOnTable | None,
    hits: int,
    source: DiceSource,
    *,
    explain: bool = True,
) -> tuple[tuple[Share, ...], tuple[Step, ...]]:
    """The shares of ``hits`` and the steps that explain them (``explain=False``: the hits
    shared at random without their steps, as the odds read them)."""
    target = sheet_of(request.target, "target")
    options = options_of(request)
    if unit is None:
        if target.role == "character" and target.unit:
            raise GmkitError(
                Message("wfb6.unit.not_listed", target=target.name, unit=repr(target.unit))
            )
        if target.role == "character":
            return (character_share(target, hits),), ()
        return (Share(target.name, "troops", hits, target.unit or target.name, target),), ()
    if kind.to_hit != "template":
        distinct = options.excess_distinct
        allocation = allocate_hits(
            unit, hits, source, target=target, distinct=distinct, explain=explain
        )
        return allocation.shares, allocation.steps
    if target.role == "rank and file":
        return (troops_share(unit, hits),), ()
    check = look_out_sir(target, unit, source, kind.id, spell_allows=options.look_out_sir)
    if check.dodged:
        share = troops_share(unit, hits)
    elif target.role == "character":
        share = character_share(target, hits)
    else:
        share = champion_share(unit, target, hits)
    return (share,), check.steps


def no_trooper(share: Share, situation: Situation | None = None) -> GmkitError:
    """No profile for the rank and file ``share`` hits: a trooper sheet to give (a trooper
    combatant to set, when the encounter read the situation from its units)."""
    if situation is not None and situation.from_table:
        return RulesError(Message("wfb6.table.no_trooper", unit=share.target))
    return GmkitError(Message("wfb6.unit.no_trooper", member=share.target))


def _tests_detail(message_id: str, tests: list[D6Test], **params: Any) -> Message:
    return Message(message_id, tests=tuple(test.explanation for test in tests), **params)


def _wound(
    share: Share,
    profile: WFB6Character,
    strength: int,
    weapon: Weapon,
    source: DiceSource,
) -> tuple[int, list[Step]]:
    needed = to_wound_needed(strength, profile.T)
    member = share.shown
    tests = [
        roll_needed(needed, source, Message("wfb6.purpose.to_wound", member=member, hit=n))
        for n in range(1, share.hits + 1)
    ]
    wounds = sum(test.success for test in tests)
    chart = {"strength": strength, "toughness": profile.T}
    if needed:
        detail = _tests_detail("wfb6.to_wound.detail", tests, needed=needed, **chart)
    else:
        detail = _tests_detail("wfb6.to_wound.detail_impossible", tests, **chart)
    outcome = Message("wfb6.to_wound.outcome", wounds=wounds, hits=share.hits)
    rolls = tuple(roll for test in tests for roll in test.rolls)
    title = Message("wfb6.to_wound.title", member=member)
    steps = [Step(title, outcome, detail, rolls=rolls, target=needed)]
    if not wounds or profile.armour_save is None:
        return wounds, steps
    modifiers = shooting_rules().save_modifiers(strength, weapon)
    needed_save = profile.armour_save - sum(modifier.value for modifier in modifiers)
    listed = modifier_list(modifiers)
    title = Message("wfb6.save.title", member=member)
    if needed_save > 6:
        detail = Message(
            "wfb6.save.impossible_detail",
            save=profile.armour_save,
            modifiers=listed,
            needed=needed_save,
        )
        steps.append(Step(title, Message("wfb6.save.impossible"), detail, modifiers=modifiers))
        return wounds, steps
    needed_save = max(needed_save, 2)
    saves = [
        roll_needed(needed_save, source, Message("wfb6.purpose.save", member=member, wound=n))
        for n in range(1, wounds + 1)
    ]
    saved = sum(test.success for test in saves)
    detail = _tests_detail("wfb6.save.detail", saves, needed=needed_save, modifiers=listed)
    rolls = tuple(roll for test in saves for roll in test.rolls)
    outcome = Message("wfb6.save.outcome", saved=saved, wounds=wounds)
    steps.append(Step(title, outcome, detail, rolls=rolls, target=needed_save, modifiers=modifiers))
    return wounds - saved, steps


def refused_summary(target: WFB6Character, ruling: Ruling) -> Message:
    """Why ``target`` may not be shot at: the summary of a refused shot, the odds' note."""
    return Message("wfb6.summary.refused", target=target.name, reason=ruling.reason)


def refusal(request: AttackRequest) -> Text:
    """Why the shot of ``request`` may not target its target ("" when it may): the refused
    summary :func:`resolve_attack` would give, before any die."""
    attacker = sheet_of(request.attacker, "attacker")
    target = sheet_of(request.target, "target")
    kind = targeting_rules().kind_of(find_weapon(attacker, request.weapon), request.mode)
    ruling = targeting_ruling(request, target, situation_of(request, attacker), kind)
    return "" if ruling else refused_summary(target, ruling)


def resolve_attack(request: AttackRequest, source: DiceSource) -> AttackResult:
    """One model's shooting at ``request.target`` (see the module docstring)."""
    attacker = sheet_of(request.attacker, "attacker")
    target = sheet_of(request.target, "target")
    weapon = find_weapon(attacker, request.weapon)
    kind = targeting_rules().kind_of(weapon, request.mode)
    situation = situation_of(request, attacker)
    ruling = targeting_ruling(request, target, situation, kind)
    steps = list(ruling.steps)
    if not ruling:
        noted = Effect("note", target.name, note=ruling.reason)
        return AttackResult(request, tuple(steps), (noted,), 0, refused_summary(target, ruling))
    hits, step = to_hit(request, kind, weapon, situation, ruling, source)
    steps.append(step)
    if not hits:
        missed = Message("wfb6.summary.no_hit", weapon=weapon.name)
        return AttackResult(request, tuple(steps), (), 0, missed)
    unit = situation.unit_of(target)
    shares, allocation_steps = who_takes_the_hits(request, kind, unit, hits, source)
    steps += allocation_steps
    strength = resolve_strength(weapon.strength, attacker.S)
    effects: list[Effect] = []
    taken: list[Message] = []
    for share in shares:
        if not share.hits:
            continue
        profile = share.profile or (target if target.role != "character" else None)
        if profile is None:
            raise no_trooper(share, situation)
        unsaved, wound_steps = _wound(share, profile, strength, weapon, source)
        steps += wound_steps
        if unsaved:
            note = "" if share.member == share.target else share.shown
            effects.append(Effect("damage", share.target, amount=unsaved, note=note))
            who = share.shown if note else Message.verbatim(share.target)
            taken.append(Message("wfb6.summary.taken", who=who, amount=unsaved))
    if taken:
        summary = Message("wfb6.summary.hits", hits=hits, taken=tuple(taken))
    else:
        summary = Message("wfb6.summary.hits_none", hits=hits)
    return AttackResult(request, tuple(steps), tuple(effects), hits, summary)
