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
- Training is the sheet's (``trained``), but "<Class> Training (Universal)" trains every weapon
  of that class whatever its group.
- Multiple Attacks needs Swift Attack or Lightning Attack (the books' talents 004 names), or a
  weapon in each hand (``options["two_weapons"]``) with Two-Weapon Wielder of the weapon's
  kind: Melee for melee weapons, Ballistic for ranged ones (004).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gmkit.errors import GmkitError, RulesError
from gmkit.sheets.percentile import talent_specialities
from gmkit.systems.base import AttackRequest
from gmkit.systems.imperial.actions import (
    Action,
    AttackSpec,
    Effects,
    Preparation,
    action,
    refuse,
)
from gmkit.systems.imperial.circumstances import weapon_of
from gmkit.systems.percentile import LOCATIONS

MODE_ACTIONS = {
    "single": "standard_attack",
    "melee": "standard_attack",
    "thrown": "standard_attack",
    "semi": "semi_auto_burst",
    "full": "full_auto_burst",
    "suppressing": "suppressing_fire",
}
RANGED_MODES = ("single", "semi", "full", "suppressing")
BOOL_OPTIONS = (
    "move_and_fire",
    "two_weapons",
    "off_hand",
    "one_handed",
    "grapple",
    "gm_override",
    "unaware_auto_hit",
    "horde_reacts",
    "target_armed",
)
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
        listed = ", ".join(w.name for w in getattr(request.attacker, "weapons", [])) or "none"
        raise refuse(
            "weapon",
            f"{request.weapon!r} is not on {request.attacker.name}'s sheet "
            f"(weapons: {listed}; 'unarmed' for bare hands)",
        )
    return weapon


def _specs(
    chosen: Action, request: AttackRequest, game: str
) -> tuple[list[AttackSpec], Effects, str]:
    if chosen.options:
        picked = request.options.get("grapple_option")
        option = chosen.options.get(str(picked))
        if option is None:
            raise refuse(
                "options['grapple_option']",
                f"{chosen.name} needs one of {', '.join(chosen.options)}, not {picked!r}",
            )
        if option.attack is None:
            raise refuse("options['grapple_option']", f"{option.name} makes no test to set up")
        return [option.attack], chosen.effects + option.effects, option.type
    if chosen.attack is None:
        raise refuse("action", f"{chosen.name} is not an attack ({'/'.join(chosen.types)} action)")
    specs, effects = [chosen.attack], chosen.effects
    if chosen.attack.mode == "request":
        allowed = chosen.attack.modes or ("single", "melee", "thrown", "semi", "full")
        if request.mode not in allowed:
            raise refuse(
                "mode", f"{chosen.name} fires {' or '.join(allowed)}, not {request.mode!r}"
            )
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
            raise refuse("mode", f"this action's mode is {fixed}, not {asked!r}")
        if ranged and melee_weapon:
            raise refuse("weapon", f"{fixed} fire needs a ranged weapon")
        return fixed, ranged
    if melee_weapon and asked == "thrown":
        if weapon is None or not weapon.range:
            raise refuse("mode", "only a weapon with a range can be thrown")
        return "single", True
    if melee_weapon:
        if asked not in ("single", "melee"):
            raise refuse("mode", f"a melee attack's mode is melee (or thrown), not {asked!r}")
        return "melee", False
    if asked in ("semi", "full", "suppressing"):
        raise refuse("mode", f"{asked} fire is its own action: {MODE_ACTIONS[asked]}")
    if asked not in ("single", "thrown"):
        raise refuse("mode", f"{weapon.name} fires single shots here, not {asked!r}")
    if weapon.weapon_class != "thrown" and not weapon.single:
        raise refuse("mode", f"{weapon.name} has no single shot (rate of fire {weapon.rof})")
    return "single", True


def read_attack(request: AttackRequest, game: str) -> Attack:
    """The attack the request's action, weapon and mode make, or a RulesError."""
    chosen = action(game, request.action)
    weapon = weapon_for(request)
    specs, effects, action_type = _specs(chosen, request, game)
    spec = _merge(specs)
    mode, ranged = _mode(spec, request, weapon)
    if request.options.get("grapple") and spec.grapple:
        if weapon is not None:
            raise refuse("options['grapple']", "only an unarmed attacker grapples")
        mode = "grapple"
    elif request.options.get("grapple"):
        raise refuse("options['grapple']", f"{chosen.name} cannot start a grapple")
    test = ("BS" if ranged else "WS") if spec.test == "weapon" else spec.test
    attack = Attack(chosen, spec, effects, action_type, weapon, mode, test, ranged)
    for need in sorted(spec.requires):
        _require(need, attack, request)
    return attack


def _require(need: str, attack: Attack, request: AttackRequest) -> None:
    weapon, name = attack.weapon, attack.action.name
    what = "bare hands" if weapon is None else f"{weapon.name} ({weapon.weapon_class})"
    if need == "melee" and attack.ranged:
        raise refuse("weapon", f"{name} needs a melee weapon or bare hands, not {what}")
    if need == "melee_weapon" and (weapon is None or attack.ranged):
        raise refuse("weapon", f"{name} needs a melee weapon, not {what}")
    if need == "ranged" and not attack.ranged:
        raise refuse("weapon", f"{name} needs a ranged weapon, not {what}")
    if need in ("rof_semi", "rof_full"):
        rate = getattr(weapon, need[4:], 0) if weapon is not None else 0
        if not rate:
            raise refuse("weapon", f"{what} has no {need[4:]}-auto fire; {name} needs it")
    if need == "called_location" and request.called_location not in LOCATIONS:
        raise refuse(
            "called_location",
            f"{name} needs a location ({', '.join(LOCATIONS)}), not {request.called_location!r}",
        )
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
        raise GmkitError(f"actions.yaml {attack.action.id}: unknown requirement {need!r}")


def _multiple_attacks(attack: Attack, request: AttackRequest) -> None:
    attacker = request.attacker
    if request.options.get("two_weapons"):
        kind = "Ballistic" if attack.ranged else "Melee"
        if kind not in getattr(attacker, "two_weapon_wielder", ()):
            raise refuse(
                "options['two_weapons']",
                f"attacking with a weapon in each hand needs Two-Weapon Wielder ({kind})",
            )
        return
    talents = getattr(attacker, "talents", [])
    if talent_specialities(talents, "Swift Attack", "Lightning Attack") is None:
        raise refuse(
            "action",
            "Multiple Attacks needs Swift Attack, Lightning Attack or a weapon in each hand "
            "(options['two_weapons'])",
        )


def trained(sheet: Any, weapon: Any) -> bool:
    """Whether a talent trains ``sheet`` in ``weapon``: the sheet's ``trained``, and a class
    trained "(Universal)" (Basic Weapon Training (Universal)) trains every group of it, where
    the sheet reads Universal as the name of a group."""
    if sheet.trained(weapon):
        return True
    return "universal" in getattr(sheet, "weapon_training", {}).get(weapon.weapon_class, ())


def check_options(options: Mapping[str, Any]) -> None:
    """Refuse options of the wrong type (see modifiers' docstring for each)."""
    for key in BOOL_OPTIONS:
        if key in options and not isinstance(options[key], bool):
            raise refuse(f"options[{key!r}]", f"true or false, not {options[key]!r}")
    if not isinstance(options.get("prepared", {}), Mapping):
        raise refuse("options['prepared']", "a mapping of action id to its type (or true)")
    if not isinstance(options.get("house_rules", {}), Mapping):
        raise refuse("options['house_rules']", "a mapping of house-rule id to true/false")


def prepared_actions(
    request: AttackRequest, game: str, attack: Attack, notes: list[str]
) -> list[Preparation]:
    """What the actions in ``options['prepared']`` do to this attack; ``notes`` learns of a
    preparation this action loses (a Feint before anything but a Standard Attack)."""
    found = []
    for action_id, kind in request.options.get("prepared", {}).items():
        field_name = f"options['prepared'][{action_id!r}]"
        try:
            chosen = action(game, str(action_id))
        except RulesError:
            raise refuse(field_name, f"unknown action {action_id!r}") from None
        prepared = chosen.preparation(kind)
        if not chosen.next_attack:
            raise refuse(field_name, f"{chosen.name} does nothing to the next attack")
        if prepared is None:
            raise refuse(field_name, f"{chosen.name} is taken as {' or '.join(chosen.next_attack)}")
        if prepared.only_actions and attack.action.id not in prepared.only_actions:
            kept = ", ".join(sorted(prepared.only_actions))
            notes.append(f"{chosen.name} lost: only {kept} keeps its advantage")
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
    armed = options.get("target_armed", bool(getattr(request.target, "weapons", [])))
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
    picks.update({key: bool(options.get(key)) for key in ("two_weapons", "off_hand", "one_handed")})
    picks["moving"] = bool(options.get("move_and_fire"))
    if weapon is not None:
        flags.add(f"class:{weapon.weapon_class}")
        flags |= {f"quality:{q.partition('(')[0]}" for q in weapon.qualities}
        picks["untrained"] = not trained(sheet, weapon)
        picks["unbraced_heavy"] = weapon.weapon_class == "heavy" and not picks["braced"]
    return flags | {key for key, value in picks.items() if value}
