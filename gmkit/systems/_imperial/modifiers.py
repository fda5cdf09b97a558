"""Before the dice: what the action, circumstances, conditions and house rules make of an attack.

``attack_setup(request, game)`` -> :class:`~gmkit.systems._imperial.setup.AttackSetup`: the
characteristic tested, every modifier with its source and uncapped (``roll_test`` caps the
total at +/-60), the hit cap and rounds of the fire mode, the jam threshold, whether the target
may Dodge or Parry, a called location, automatic hits (or an automatic failure: a blinded
shooter) and extra damage dice, armour counting double, the GM's warnings and notes. Illegal
requests raise :class:`~gmkit.errors.RulesError` naming the field. ``defence_modifiers`` gives
the target's Dodge or Parry modifiers, ``target_modifiers`` those of any test the target makes
against the attack (an opposed test); the resolver reads both.

What the encounter knows comes in the request's standings: the names the combatants bear
(``request.attacker_standing.conditions``, ``request.target_standing.conditions``: the ids
conditions.yaml defines count, ``"jammed: Lasgun"`` too, any other name, the GM's own "behind
the pews", is ignored with a warning, "not a rule condition: ..."), and the round's reaction
pools the target spent (``request.target_standing.reactions``, ``{"reaction": 1}``).

``request.options`` (:class:`~gmkit.systems._imperial.options.ImperialOptions`, all optional):

- ``reactions_left``: how many reactions the target has left, the GM's count
  (``resolve_reactions``).
- ``prepared``: what the attacker did before this attack, ``{action id: type or True}``:
  ``{"aim": "full"}``, ``{"brace_heavy_weapon": True}``, ``{"feint": True}`` (won),
  ``{"move": "half"}`` (before a Knock-Down).
- ``grapple_option`` (Grapple: damage, throw_down, push, stand, break_free, wriggle_free,
  take_control); ``grapple``: True to grapple instead of damaging (unarmed Standard Attack or
  Charge).
- ``move_and_fire``, ``two_weapons``, ``off_hand``, ``one_handed`` (a basic weapon in one
  hand), ``second_weapon`` (the other hand's weapon, for 001's two-weapon rule): the
  attacker's handling.
- ``target_armed`` (default: the target's sheet lists a weapon), ``horde_reacts`` (a horde
  may Dodge and Parry, at the GM's call), ``unaware_auto_hit`` (001: with the GM's leave).
- ``house_rules`` (Dark Heresy's): ``{id: bool}`` switching its house rules
  (house_rules.yaml).
- ``gm_override``: True turns the refusals a GM may overrule (conditions that forbid the
  action, house-rule limits, a charge's distance) into warnings.

Choices where the texts are silent:

- ``extra_damage_dice`` is 1 against a helpless target in melee: the weapon's damage dice are
  rolled once more, twice in all (004 states it beside the automatic WS hit, so ranged attacks
  get neither).
- A target parries only with a melee weapon that is not Unwieldy, and never a ranged attack;
  a horde does not react unless the GM says so (004); opposed actions (Feint, Knock-Down,
  Manoeuvre, the grapple options) allow no reaction.
- Ammunition: a weapon with an empty clip is refused; a burst with fewer rounds than its rate
  fires what is left (hits capped alike); thrown weapons without a clip spend none and, like
  all thrown weapons, never jam.
- Modifiers are listed in this order: the action's, the preparations' (Aim...), unarmed, range,
  circumstances, conditions (the attacker's, then the target's), handling and house rules.

Why over 400 lines: one attack's setup is one draft filled in order (range, limits,
ammunition, parry, hordes' size, the target's and the defence's modifiers), each step reading
the ones before; the pieces that stand alone are their own modules (``cover``, ``sizes``,
``restrictions``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.sheets._percentile import talent_specialities
from gmkit.systems._imperial import actions as catalog
from gmkit.systems._imperial import circumstances as circ
from gmkit.systems._imperial import conditions as cond
from gmkit.systems._imperial import hordes, melee, sizes
from gmkit.systems._imperial.actions import check_game, jam_from, refuse
from gmkit.systems._imperial.actions_request import (
    Attack,
    attack_flags,
    prepared_actions,
    read_attack,
)
from gmkit.systems._imperial.circumstances_handling import handling
from gmkit.systems._imperial.effect_notes import effect_notes
from gmkit.systems._imperial.kinds import book as condition_book
from gmkit.systems._imperial.options import unaware_auto_hit
from gmkit.systems._imperial.pacing import FORTY_K
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems._imperial.terms import field_label, fury, move_name
from gmkit.systems._percentile import characteristic
from gmkit.systems.acting import restriction_problems
from gmkit.systems.base import AttackRequest, Modifier

__all__ = [
    "RulesError",
    "attack_setup",
    "clear_caches",
    "defence_modifiers",
    "target_modifiers",
]

_HITS = {"semi": "semi", "full": "full", "suppressing": "full"}


def clear_caches() -> None:
    """Forget every table and catalog read (after changing GMKIT_DATA_PATH in a kernel)."""
    catalog.clear_caches()
    circ.circumstances.cache_clear()
    cond.conditions.cache_clear()
    sizes.sizes.cache_clear()


@dataclass
class _Draft:
    """The setup being built: modifiers, notes and warnings, and the GM's override."""

    override: bool
    auto_fail: Message | None = None
    modifiers: list[Modifier] = field(default_factory=list)
    notes: list[Message] = field(default_factory=list)
    warnings: list[Message] = field(default_factory=list)

    def limit(self, field_name: str, problem: Message) -> None:
        """Refuse, or with the GM's override, warn."""
        if not self.override:
            raise refuse(field_name, problem)
        self.warnings.append(
            Message("imperial.gm_override", field=field_label(field_name), problem=problem)
        )


def _range(
    request: AttackRequest,
    game: str,
    attack: Attack,
    flags: set[str],
    on: Mapping[str, Any],
    draft: _Draft,
) -> None:
    if not attack.ranged or attack.weapon is None:
        return
    if request.distance is not None:
        band = circ.range_band(float(request.distance), float(attack.weapon.range), game)
    elif "range_band" in on:
        band = circ.band(game, str(on["range_band"][1]))
    else:
        draft.notes.append(Message("imperial.setup.no_distance"))
        return
    engaged = [item for item, _ in on.values() if item.get("no_point_blank")]
    if band.id == "point_blank" and engaged:
        draft.notes.append(Message("imperial.setup.no_point_blank_engaged", band=band.source))
        return
    if band.id == "point_blank":
        flags.add("point_blank")
    modifier = band.modifier()
    if modifier is not None:
        draft.modifiers.append(modifier)


def _limits(
    request: AttackRequest, game: str, attack: Attack, attacker_ids: Sequence[str], draft: _Draft
) -> None:
    """What the attacker's conditions and the action's distance allow."""
    field_name = "options['attacker_conditions']"
    named = attack.action.label
    # what the conditions forbid: the restrictions the permits apply (one mapping), on the
    # attack as one action of its type from a fresh turn (the budget is the permits')
    costs = FORTY_K.action_costs.get(attack.action_type, {})
    rules = condition_book(game).restrictions(attacker_ids)
    for problem in restriction_problems(
        rules, request.attacker.name, attack.action_type, attack.action.id, {}, costs
    ):
        draft.limit(field_name, problem)
    for item in cond.checked(game, attacker_ids):
        if attack.test in item.auto_fail:
            draft.auto_fail = Message(
                "imperial.setup.auto_fail", condition=item.label, test=characteristic(attack.test)
            )
            draft.warnings.append(draft.auto_fail)
    jammed = cond.jammed_weapons(request.attacker_standing.conditions)
    if attack.weapon is not None and attack.weapon.name.casefold() in jammed:
        draft.limit("weapon", Message("imperial.setup.jammed", weapon=attack.weapon.name))
    needed = attack.action.requires_condition
    if needed and needed not in attacker_ids:
        problem = Message("imperial.setup.only_in_grapple", action=named, condition=needed)
        draft.limit(field_name, problem)
    spec = attack.spec
    if spec.min_distance is None and spec.max_distance is None:
        return
    if request.distance is None:
        draft.notes.append(Message("imperial.setup.distance_not_checked", action=named))
        return
    distance, least = float(request.distance), float(spec.min_distance or 0)
    reach = getattr(request.attacker, "movement", {}).get(spec.max_distance)
    if distance < least:
        problem = Message("imperial.setup.too_close", action=named, least=least, distance=distance)
        draft.limit("distance", problem)
    if reach is not None and distance > reach:
        problem = Message(
            "imperial.setup.too_far",
            distance=distance,
            move=move_name(str(spec.max_distance)),
            reach=reach,
        )
        draft.limit("distance", problem)


def _ammunition(request: AttackRequest, attack: Attack, draft: _Draft) -> tuple[int, int]:
    """(most hits, rounds spent): the fire mode and the clip, or the melee attacks a talent
    gives (Multiple Attacks without a weapon in each hand)."""
    weapon = attack.weapon
    if not attack.ranged or weapon is None:
        talents = getattr(request.attacker, "talents", [])
        given = [
            count
            for talent, count in attack.spec.talent_attacks.items()
            if talent_specialities(talents, talent) is not None
        ]
        return (max(given) if given and not request.options.two_weapons else 1), 0
    rate = getattr(weapon, _HITS[attack.mode]) if attack.mode in _HITS else 1
    if not weapon.clip and weapon.weapon_class in ("thrown", "melee"):
        return rate, 0
    if weapon.loaded < 1:
        problem = Message("imperial.setup.empty", weapon=weapon.name, reload=weapon.reload)
        raise refuse("weapon", problem)
    if weapon.loaded < rate:
        draft.notes.append(Message("imperial.setup.few_rounds", loaded=weapon.loaded))
        return weapon.loaded, weapon.loaded
    return rate, rate


def _can_parry_with(target: Any) -> bool:
    """A melee weapon that is not Unwieldy on the target's sheet (True if it lists none)."""
    weapons = getattr(target, "weapons", None)
    if weapons is None:
        return True
    return any(w.weapon_class == "melee" and not w.quality("Unwieldy") for w in weapons)


def _finish(
    request: AttackRequest,
    game: str,
    attack: Attack,
    flags: set[str],
    prepared: Sequence[catalog.Preparation],
    target_ids: Sequence[str],
    draft: _Draft,
) -> AttackSetup:
    spec, weapon, options = attack.spec, attack.weapon, request.options
    target_flags = cond.flags_of(game, target_ids)
    can_dodge = spec.can_dodge and all(p.can_dodge for p in prepared)
    can_parry = spec.can_parry and all(p.can_parry for p in prepared) and not attack.ranged
    if "no_reactions" in target_flags:
        can_dodge = can_parry = False
    can_dodge = can_dodge and "cannot_dodge" not in target_flags
    can_parry = can_parry and _can_parry_with(request.target)
    if "horde_target" in flags and not options.horde_reacts:
        can_dodge = can_parry = False
        option = Message("imperial.option_label.horde_reacts")
        draft.notes.append(Message("imperial.setup.horde_no_reactions_named", option=option))
    auto_hit, extra = False, 0
    if "helpless" in target_flags and not attack.ranged and attack.test == "WS":
        auto_hit, extra = True, 1 if attack.mode == "melee" else 0
        draft.notes.append(Message("imperial.setup.helpless", fury=fury(game)))
    if "quality:Flame" in flags and attack.ranged:
        auto_hit, can_parry = True, False
        draft.notes.append(Message("imperial.setup.flame"))
    unaware = circ.circumstance(game, "target_unaware").get("auto_hit_option")
    if unaware and unaware_auto_hit(options) and "unaware" in target_flags:
        auto_hit = True
        draft.notes.append(Message("imperial.setup.unaware_auto_hit"))
    if spec.opposed:
        opposed = characteristic(str(spec.opposed))
        draft.notes.append(Message("imperial.setup.opposed", test=opposed))
    if attack.mode == "grapple":
        draft.notes.append(Message("imperial.setup.grapple_start"))
    max_hits, rounds = _ammunition(request, attack, draft)
    thrown = "thrown" in flags
    kind = spec.jam or ("burst" if attack.mode in _HITS else "single")
    ranged = attack.ranged and weapon is not None and not thrown
    jams = jam_from(game, kind, weapon.qualities) if ranged and weapon is not None else None
    called = request.called_location if attack.action.id == "called_shot" else None
    if "horde_target" in flags and called:
        draft.notes.append(Message("imperial.setup.horde_no_locations"))
    return AttackSetup(
        characteristic=attack.test,
        modifiers=tuple(draft.modifiers),
        mode=attack.mode,
        max_hits=max_hits,
        rounds=rounds,
        jam_from=jams,
        can_dodge=can_dodge,
        can_parry=can_parry,
        called_location=called or spec.called_location,
        auto_hit=auto_hit,
        auto_fail=draft.auto_fail,
        extra_damage_dice=extra,
        primitive_armour_double=(
            attack.unarmed or "quality:Primitive" in flags or spec.armour_doubled
        ),
        warnings=tuple(dict.fromkeys(draft.warnings)),
        notes=tuple(dict.fromkeys([*effect_notes(game, attack.effects, flags), *draft.notes])),
        gains=tuple(
            dict.fromkeys(
                cond.condition(game, str(value), f"actions.yaml {attack.action.id} gains").id
                for key, value in attack.effects
                if key == "gains"
            )
        ),
    )


_KEPT: dict[tuple[int, str], tuple[AttackRequest, AttackSetup]] = {}
_KEEP = 32
"""The setups of the last requests asked for, by the request itself (a request is immutable:
the same object always sets up the same attack): the resolver, the odds and the panel ask
for the same request's setup many times in a row."""


def attack_setup(request: AttackRequest, game: str) -> AttackSetup:
    """Everything the action, circumstances, conditions and house rules make of ``request``
    (worked out once per request object: see ``_KEPT``)."""
    key = (id(request), game)
    kept = _KEPT.get(key)
    if kept is not None and kept[0] is request:
        return kept[1]
    found = _attack_setup(request, game)
    if len(_KEPT) >= _KEEP:
        _KEPT.clear()
    _KEPT[key] = (request, found)
    return found


def _attack_setup(request: AttackRequest, game: str) -> AttackSetup:
    """Everything the action, circumstances, conditions and house rules make of ``request``.

    >>> setup = attack_setup(AttackRequest(acolyte, "Lasgun", cultist, distance=40,
    ...     circumstances={"darkness": True}, options={"prepared": {"aim": "full"}}),
    ...     "dark_heresy")  # doctest: +SKIP
    >>> [str(m) for m in setup.modifiers]  # doctest: +SKIP
    ['Aim (full) +20', 'Short range +10', 'Darkness -30']
    """
    check_game(game)
    sheet_game = getattr(request.attacker, "game", game)
    if sheet_game != game:
        problem = Message("imperial.setup.other_game", sheet_game=sheet_game, game=game)
        raise refuse("attacker", problem)
    draft = _Draft(request.options.gm_override)
    attack = read_attack(request, game)
    if request.called_location is not None and attack.action.id != "called_shot":
        raise refuse("called_location", Message("imperial.setup.location_needs_called_shot"))
    on = circ.active(game, request.circumstances)
    attacker_ids, target_ids = cond.request_conditions(request, game)
    attacker_ids, target_ids = melee.bound(game, attacker_ids), melee.bound(game, target_ids)
    for side, name in cond.not_rule_conditions(request, game):
        who = getattr(request, side).name
        draft.warnings.append(
            Message(f"imperial.setup.not_a_rule_condition_{side}", name=repr(name), who=who)
        )
    prepared = prepared_actions(request, game, attack, draft.notes)
    flags = attack_flags(request, game, attack, on, prepared, attacker_ids)
    _limits(request, game, attack, attacker_ids, draft)
    draft.modifiers += [
        spec.modifier()
        for spec in (
            *attack.spec.modifiers,
            *(s for p in prepared for s in p.modifiers),
            *circ.unarmed_specs(game),
        )
        if spec.applies(attack.test, flags)
    ]
    _range(request, game, attack, flags, on, draft)
    found, notes = circ.circumstance_modifiers(
        game,
        request.circumstances,
        attack.test,
        flags,
        talents=getattr(request.attacker, "talents", ()),
        traits=getattr(request.attacker, "traits", ()),
        target_conditions=frozenset(target_ids),
        qualities=attack.weapon.qualities if attack.weapon is not None else (),
    )
    draft.modifiers += found
    draft.notes += notes
    if "size" not in on:  # none given for this attack: the target sheet's size
        draft.modifiers += sizes.target_size(game, request, None)
    draft.modifiers += cond.condition_modifiers(
        attacker_ids, target_ids, test=attack.test, game=game, flags=flags
    )
    handled = handling(request, game, attack, flags, on)
    draft.modifiers += handled.modifiers
    draft.notes += handled.notes
    draft.warnings += handled.warnings
    for field_name, problem in handled.limits:
        draft.limit(field_name, problem)
    draft.modifiers += _horde_size(request, game)
    return _finish(request, game, attack, flags, prepared, target_ids, draft)


def _horde_size(request: AttackRequest, game: str) -> list[Modifier]:
    """The bonus to hit a horde its current magnitude gives (``hordes.yaml``), if any: one of
    the set-up's modifiers, so the preview's target number is the one the test rolls against."""
    horde = getattr(request.target, "horde", None)
    if horde is None:
        return []
    found = hordes.size_bonus(horde.magnitude, hordes.horde_rules(game))
    return [found] if found is not None else []


def defence_modifiers(request: AttackRequest, game: str, reaction: str) -> tuple[Modifier, ...]:
    """Modifiers to the target's ``reaction`` ("dodge" or "parry") against this attack.

    From the target's conditions (prone -20 to Dodge, Guarded Attack +10, fatigue -10...) and
    the terrain it stands in. The characteristic is Ag for a Dodge, WS for a Parry.
    """
    test = {"dodge": "Dodge", "parry": "Parry"}.get(reaction)
    if test is None:
        raise refuse("reaction", Message("imperial.setup.bad_reaction", reaction=repr(reaction)))
    return target_modifiers(request, game, test)


def target_modifiers(request: AttackRequest, game: str, test: str) -> tuple[Modifier, ...]:
    """Modifiers the target's conditions and terrain give its own ``test`` against the attack:
    ``Dodge``, ``Parry``, or the characteristic of an opposed test (WS, S, Ag)."""
    _, target_ids = cond.request_conditions(request, check_game(game))
    if getattr(request.target, "fatigue", 0) and "fatigued" not in target_ids:
        target_ids.append("fatigued")
    found = cond.bearer_modifiers(target_ids, test, game=game)
    terrain, _ = circ.circumstance_modifiers(
        game, request.circumstances, test, frozenset(), bearer="target"
    )
    return tuple(found + terrain)
