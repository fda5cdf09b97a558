"""Reading an ``AttackRequest`` against the action catalog: weapon, attack, mode and test.

``read_attack`` finds the weapon on the attacker's sheet, the action's attack (a grapple
option, or for Overwatch and Multiple Attacks the attack of the mode the request names), the
fire mode and the characteristic tested, and refuses what the action cannot do with that
weapon (:class:`~gmkit.errors.RulesError` naming the field). ``modifiers.attack_setup`` builds
the setup from it.

Choices where the texts are silent:

- A request names a weapon on the attacker's sheet (case does not matter); ``""`` or
  ``"unarmed"``, when the sheet has no weapon of that name, is an unarmed attack.
- ``request.mode``: ``"single"`` (the default) means the action's own mode. A ranged weapon
  fires single shots with Standard Attack, Called Shot...; ``"semi"``, ``"full"`` and
  ``"suppressing"`` are their own actions (Semi-Auto Burst, Full Auto Burst, Suppressing
  Fire), which Overwatch and Multiple Attacks name through the mode. A melee weapon with a
  range is thrown with ``mode="thrown"`` (a BS attack); otherwise it strikes in melee.
- An Aim the encounter keeps on the attacker (``"aimed: full"``, left by
  ``acting_actions``) reads as the option ``prepared={"aim": "full"}`` unless that names Aim.
- Training is the sheet's (``trained``), but "<Class> Training (Universal)" trains every weapon
  of that class whatever its group.
- Multiple Attacks needs Swift Attack or Lightning Attack (the books' talents 004 names), or a
  weapon in each hand (the option ``two_weapons``) with Two-Weapon Wielder of the weapon's
  kind: Melee for melee weapons, Ballistic for ranged ones (004).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gmkit.errors import GmkitError, RulesError
from gmkit.messages import Message
from gmkit.sheets._percentile import talent_specialities
from gmkit.systems._imperial.actions import (
    Action,
    AttackSpec,
    Effects,
    Preparation,
    action,
    refuse,
)
from gmkit.systems._imperial.circumstances import weapon_of
from gmkit.systems._imperial.kinds import book
from gmkit.systems._imperial.terms import action_type, mode_name, modes_named, weapon_class
from gmkit.systems._percentile import LOCATIONS
from gmkit.systems.base import AttackRequest

MODE_ACTIONS = {
    "single": "standard_attack",
    "melee": "standard_attack",
    "thrown": "standard_attack",
    "semi": "semi_auto_burst",
    "full": "full_auto_burst",
    "suppressing": "suppressing_fire",
}
RANGED_MODES = ("single", "semi", "full", "suppressing")
UNARMED = ("", "unarmed")


@dataclass(frozen=True)
class Attack:
    """What a request makes of its action: the attack spec in force, mode, test, weapon."""

    action: Action
    spec: AttackSpec
    effects: Effects
    action_type: str  # half or full: what a pinned attacker may take
    weapon: Any | None  # the sheet's weapon; None when unarmed
    mode: str
    test: str
    ranged: bool

    @property
    def unarmed(self) -> bool:
        return self.weapon is None


def weapon_for(request: AttackRequest) -> Any | None:
    """The sheet's weapon the request names; None for an unarmed attack."""
    weapon = weapon_of(request)
    if weapon is None and request.weapon.strip().casefold() not in UNARMED:
        listed = tuple(w.name for w in getattr(request.attacker, "weapons", []))
        name, asked = request.attacker.name, repr(request.weapon)
        problem = (
            Message("imperial.request.weapon_not_on_sheet", weapon=asked, name=name, listed=listed)
            if listed
            else Message("imperial.request.weapon_not_on_empty_sheet", weapon=asked, name=name)
        )
        raise refuse("weapon", problem)
    return weapon


def _specs(
    chosen: Action, request: AttackRequest, game: str
) -> tuple[list[AttackSpec], Effects, str]:
    if chosen.options:
        picked = request.options.grapple_option
        option = chosen.options.get(str(picked))
        if option is None:
            problem = Message(
                "imperial.request.needs_option",
                action=chosen.label,
                options=tuple(chosen.options),
                picked=repr(picked),
            )
            raise refuse("options['grapple_option']", problem)
        if option.attack is None:
            problem = Message("imperial.request.option_makes_no_test", option=option.label)
            raise refuse("options['grapple_option']", problem)
        return [option.attack], chosen.effects + option.effects, option.type
    if chosen.attack is None:
        problem = Message(
            "imperial.request.not_an_attack", action=chosen.label, types=chosen.types_named
        )
        raise refuse("action", problem)
    specs, effects = [chosen.attack], chosen.effects
    if chosen.attack.mode == "request":
        allowed = chosen.attack.modes or ("single", "melee", "thrown", "semi", "full")
        if request.mode not in allowed:
            problem = Message(
                "imperial.request.fires_modes",
                action=chosen.label,
                allowed=modes_named(allowed),
                mode=mode_name(request.mode),
            )
            raise refuse("mode", problem)
        delegate = action(game, MODE_ACTIONS[request.mode])
        if delegate.attack is not None:
            specs.append(delegate.attack)
        effects += delegate.effects
    return specs, effects, chosen.types[0]


def _merge(specs: list[AttackSpec]) -> AttackSpec:
    return replace(
        specs[-1],
        requires=frozenset().union(*(spec.requires for spec in specs)),
        modifiers=tuple(modifier for spec in specs for modifier in spec.modifiers),
        can_dodge=all(spec.can_dodge for spec in specs),
        can_parry=all(spec.can_parry for spec in specs),
        talent_attacks={k: v for spec in specs for k, v in spec.talent_attacks.items()},
    )


def _mode(spec: AttackSpec, request: AttackRequest, weapon: Any | None) -> tuple[str, bool]:
    """(setup mode, ranged) for ``spec`` with ``weapon`` and the request's mode."""
    asked = request.mode
    melee_weapon = weapon is None or weapon.weapon_class == "melee"
    if spec.mode != "weapon":
        fixed, ranged = spec.mode, spec.mode in RANGED_MODES
        if asked not in ("single", fixed) and (ranged or asked != "melee"):
            problem = Message(
                "imperial.request.fixed_mode", mode=mode_name(fixed), asked=mode_name(asked)
            )
            raise refuse("mode", problem)
        if ranged and melee_weapon:
            raise refuse("weapon", Message("imperial.request.needs_ranged", mode=mode_name(fixed)))
        return fixed, ranged
    if melee_weapon and asked == "thrown":
        if weapon is None or not weapon.range:
            raise refuse("mode", Message("imperial.request.cannot_throw"))
        return "single", True
    if melee_weapon:
        if asked not in ("single", "melee"):
            raise refuse("mode", Message("imperial.request.melee_mode", asked=repr(asked)))
        return "melee", False
    assert weapon is not None  # a ranged weapon from here on
    if asked in ("semi", "full", "suppressing"):
        own = action(str(getattr(request.attacker, "game", "dark_heresy")), MODE_ACTIONS[asked])
        problem = Message("imperial.request.own_action", mode=mode_name(asked), action=own.label)
        raise refuse("mode", problem)
    if asked not in ("single", "thrown"):
        problem = Message("imperial.request.single_only", weapon=weapon.name, asked=repr(asked))
        raise refuse("mode", problem)
    if weapon.weapon_class != "thrown" and not weapon.single:
        problem = Message("imperial.request.no_single", weapon=weapon.name, rof=weapon.rof)
        raise refuse("mode", problem)
    return "single", True


def read_attack(request: AttackRequest, game: str) -> Attack:
    """The attack the request's action, weapon and mode make, or a RulesError."""
    chosen = action(game, request.action)
    weapon = weapon_for(request)
    specs, effects, action_type = _specs(chosen, request, game)
    spec = _merge(specs)
    mode, ranged = _mode(spec, request, weapon)
    if request.options.grapple and spec.grapple:
        if weapon is not None:
            raise refuse("options['grapple']", Message("imperial.request.grapple_unarmed"))
        mode = "grapple"
    elif request.options.grapple:
        problem = Message("imperial.request.cannot_grapple", action=chosen.label)
        raise refuse("options['grapple']", problem)
    test = ("BS" if ranged else "WS") if spec.test == "weapon" else spec.test
    attack = Attack(chosen, spec, effects, action_type, weapon, mode, test, ranged)
    for need in sorted(spec.requires):
        _require(need, attack, request)
    return attack


def _require(need: str, attack: Attack, request: AttackRequest) -> None:
    weapon, name = attack.weapon, attack.action.label
    what = (
        Message("imperial.request.bare_hands")
        if weapon is None
        else Message(
            "imperial.request.weapon_of_class",
            weapon=weapon.name,
            weapon_class=weapon_class(weapon.weapon_class),
        )
    )
    if need == "melee" and attack.ranged:
        raise refuse("weapon", Message("imperial.request.needs_melee", action=name, what=what))
    if need == "melee_weapon" and (weapon is None or attack.ranged):
        problem = Message("imperial.request.needs_melee_weapon", action=name, what=what)
        raise refuse("weapon", problem)
    if need == "ranged" and not attack.ranged:
        problem = Message("imperial.request.needs_ranged_weapon", action=name, what=what)
        raise refuse("weapon", problem)
    if need in ("rof_semi", "rof_full"):
        rate = getattr(weapon, need[4:], 0) if weapon is not None else 0
        if not rate:
            problem = Message(f"imperial.request.no_{need[4:]}_auto", what=what, action=name)
            raise refuse("weapon", problem)
    if need == "called_location" and request.called_location not in LOCATIONS:
        problem = Message(
            "imperial.request.needs_location",
            action=name,
            locations=LOCATIONS,
            called=repr(request.called_location),
        )
        raise refuse("called_location", problem)
    if need == "multiple_attacks":
        _multiple_attacks(attack, request)
    known = {
        "melee",
        "melee_weapon",
        "ranged",
        "rof_semi",
        "rof_full",
        "called_location",
        "multiple_attacks",
    }
    if need not in known:
        where = f"actions.yaml {attack.action.id}"
        raise GmkitError(
            Message("imperial.request.unknown_requirement", where=where, need=repr(need))
        )


def _multiple_attacks(attack: Attack, request: AttackRequest) -> None:
    attacker = request.attacker
    if request.options.two_weapons:
        kind = "Ballistic" if attack.ranged else "Melee"
        if kind not in getattr(attacker, "two_weapon_wielder", ()):
            problem = Message("imperial.request.needs_two_weapon_wielder", kind=kind)
            raise refuse("options['two_weapons']", problem)
        return
    talents = getattr(attacker, "talents", [])
    if talent_specialities(talents, "Swift Attack", "Lightning Attack") is None:
        problem = Message("imperial.request.needs_multiple_attacks", action=attack.action.label)
        raise refuse("action", problem)


def trained(sheet: Any, weapon: Any) -> bool:
    """Whether a talent trains ``sheet`` in ``weapon``: the sheet's ``trained``, and a class
    trained "(Universal)" (Basic Weapon Training (Universal)) trains every group of it, where
    the sheet reads Universal as the name of a group."""
    if sheet.trained(weapon):
        return True
    return "universal" in getattr(sheet, "weapon_training", {}).get(weapon.weapon_class, ())


AIMED = "aimed"  # the condition an Aim leaves (``acting_actions``)


def standing_aim(request: AttackRequest) -> tuple[str, str] | None:
    """(the condition's name, the type) of the Aim the encounter says the attacker took
    (``"aimed: full"`` among its conditions: ``gmkit.systems._imperial.acting``), if any: what
    the game's book reads it as (conditions.yaml ``aimed`` ``carries``: half or full)."""
    game = request.attacker.game
    for held in book(game).held(request.attacker_standing.conditions):
        if held.kind.id == AIMED and held.value:
            return held.name, held.value.casefold()
    return None  # none, or the GM's words ("aimed: at the door"): a note, no Aim


def with_standing_aim(request: AttackRequest) -> dict[str, Any]:
    """The option ``prepared`` and, unless it names Aim, the Aim the attacker's standing holds
    (``"aimed: half"`` reads as ``{"aim": "half"}``)."""
    prepared = dict(request.options.prepared)
    aimed = standing_aim(request)
    if aimed is not None and "aim" not in prepared:
        prepared["aim"] = aimed[1]
    return prepared


def prepared_actions(
    request: AttackRequest, game: str, attack: Attack, notes: list[Message]
) -> list[Preparation]:
    """What the actions in the option ``prepared`` do to this attack (an action given False
    was not taken); ``notes`` learns of a preparation this action loses (a Feint before
    anything but a Standard Attack)."""
    found = []
    for action_id, kind in with_standing_aim(request).items():
        if kind is False:
            continue
        field_name = f"options['prepared'][{action_id!r}]"
        try:
            chosen = action(game, str(action_id))
        except RulesError:
            problem = Message("imperial.request.unknown_prepared", action=repr(action_id))
            raise refuse(field_name, problem) from None
        prepared = chosen.preparation(kind)
        if not chosen.next_attack:
            problem = Message("imperial.request.prepares_nothing", action=chosen.label)
            raise refuse(field_name, problem)
        if prepared is None:
            taken = tuple(action_type(str(key)) for key in chosen.next_attack)
            problem = Message("imperial.request.taken_as", action=chosen.label, types=taken)
            raise refuse(field_name, problem)
        if prepared.only_actions and attack.action.id not in prepared.only_actions:
            kept = tuple(sorted(prepared.only_actions))
            notes.append(
                Message("imperial.request.preparation_lost", action=chosen.label, kept=kept)
            )
            continue
        found.append(prepared)
    return found


def attack_flags(
    request: AttackRequest,
    game: str,
    attack: Attack,
    on: Mapping[str, Any],
    prepared: Sequence[Preparation],
    attacker_ids: Sequence[str],
) -> set[str]:
    """The flags modifier specs test (``when``/``unless``): see actions.yaml's header."""
    options, weapon, sheet = request.options, attack.weapon, request.attacker
    flags = {f"action:{attack.action.id}", f"mode:{attack.mode}"}
    flags.add("ranged" if attack.ranged else "melee")
    armed = options.target_armed
    if armed is None:
        armed = bool(getattr(request.target, "weapons", []))
    picks = {
        "unarmed": weapon is None,
        "thrown": attack.ranged
        and weapon is not None
        and (weapon.weapon_class in ("thrown", "melee")),
        "engaged": "engaged_in_melee" in on,
        "into_melee": "shooting_into_melee" in on,
        "called_shot": attack.action.id == "called_shot",
        "horde_target": bool(getattr(request.target, "is_horde", False)),
        "target_armed": bool(armed),
        "ambidextrous": bool(getattr(sheet, "ambidextrous", False)),
        "braced": any(p.braced for p in prepared) or "braced" in attacker_ids,
    }
    picks.update(
        two_weapons=options.two_weapons,
        off_hand=options.off_hand,
        one_handed=options.one_handed,
        moving=options.move_and_fire,
    )
    if weapon is not None:
        flags.add(f"class:{weapon.weapon_class}")
        flags |= {f"quality:{q.partition('(')[0]}" for q in weapon.qualities}
        picks["untrained"] = not trained(sheet, weapon)
        picks["unbraced_heavy"] = weapon.weapon_class == "heavy" and not picks["braced"]
    return flags | {key for key, value in picks.items() if value}
