"""How the attacker handles the weapon: Deathwatch's rules, and Dark Heresy's house rules.

Deathwatch (004) always applies its ``handling`` entries (circumstances.yaml): untrained -20,
the off hand -20 unless ambidextrous, a heavy weapon unbraced -30. Dark Heresy replaces them
with seed 001's house rules (house_rules.yaml), each on unless the GM switches it off
(``options={"house_rules": {"<id>": False}}``): untrained -20, a basic weapon in one hand -20,
a heavy weapon unbraced -30 and single shots only, the off hand -20, two-weapon fighting, the
carrying limits (the sheet's ``house_rule_warnings``), a basic weapon fired in melee (with a
free unparriable attack for each opponent), and a called shot into melee at a further -10 that
cannot hit an ally (not with Scatter weapons).

Choices where the texts are silent: breaking a house-rule limit (single shots only, a heavy
weapon in one hand) is refused unless the GM overrides; the carrying limits and 001's "two
weapons of different kinds without the talent: only one of them a round" are warnings, since
001 allows exceptions with the GM's leave and a setup sees one attack, not the whole round.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from gmkit.messages import Message
from gmkit.systems._imperial.actions import (
    ModifierSpec,
    check_game,
    game_data,
    name_of,
    refuse,
    specs,
)
from gmkit.systems._imperial.actions_request import Attack
from gmkit.systems._imperial.circumstances import Circumstance
from gmkit.systems._imperial.options import house_rule_switches
from gmkit.systems._imperial.terms import mode_name, quality, weapon_class
from gmkit.systems.base import AttackRequest, Modifier

_BURSTS = ("semi", "full", "suppressing")


@dataclass(frozen=True)
class HandlingRule:
    """A weapon-handling rule (Deathwatch) or a house rule (Dark Heresy) and its keys."""

    id: str
    name: str
    modifiers: tuple[ModifierSpec, ...]
    entry: Mapping[str, Any]
    label: Message  # ``<game>.handling.<id>``, or ``dark_heresy.house_rule.<id>``

    def get(self, key: str, default: Any = None) -> Any:
        return self.entry.get(key, default)


def handling_rules(game: str, switches: Mapping[str, Any]) -> list[HandlingRule]:
    """The rules in force: every ``handling`` entry, and each house rule switched on.

    ``switches`` maps a house-rule id to True or False; absent ones take their default.
    """
    check_game(game)
    entries = list(game_data(game, "circumstances").get("handling") or [])
    house: list[Mapping[str, Any]] = []
    if game == "dark_heresy":
        house = list(game_data(game, "house_rules").get("house_rules") or [])
    known = {str(entry["id"]) for entry in house}
    for key, value in switches.items():
        if key not in known or not isinstance(value, bool):
            problem = (
                Message("imperial.house_rule.switch", known=tuple(sorted(known)))
                if known
                else Message("imperial.house_rule.switch_none")
            )
            raise refuse(f"options['house_rules'][{key!r}]", problem)
    kinds = [("handling", entry) for entry in entries]
    kinds += [
        ("house_rule", e) for e in house if switches.get(str(e["id"]), e.get("default", True))
    ]
    rules = []
    for kind, entry in kinds:
        name = name_of(entry)
        label = Message.term(f"{game}.{kind}.{entry['id']}", name)
        where = f"{game} handling rule {entry['id']}"
        modifiers = specs(entry.get("modifiers"), label, where, game)
        rules.append(HandlingRule(str(entry["id"]), name, modifiers, entry, label))
    return rules


@dataclass
class Handling:
    """What the handling rules make of one attack: modifiers, notes, warnings and limits.

    ``limits`` are (field, problem) pairs the GM may override; the caller refuses them.
    """

    modifiers: list[Modifier] = field(default_factory=list)
    notes: list[Message] = field(default_factory=list)
    warnings: list[Message] = field(default_factory=list)
    limits: list[tuple[str, Message]] = field(default_factory=list)


def handling(
    request: AttackRequest,
    game: str,
    attack: Attack,
    flags: AbstractSet[str],
    on: Mapping[str, tuple[Circumstance, Any]],
) -> Handling:
    """Apply the handling rules in force to ``attack`` (``flags`` and ``on`` as attack_setup's)."""
    found = Handling()
    weapon, sheet = attack.weapon, request.attacker
    qualities = {flag[8:] for flag in flags if flag.startswith("quality:")}
    shooters: set[str] = set()
    for rule in handling_rules(game, house_rule_switches(request.options)):
        name = rule.label
        found.modifiers += [s.modifier() for s in rule.modifiers if s.applies(attack.test, flags)]
        if set(rule.get("single_shot_only_when") or ()) & flags and attack.mode in _BURSTS:
            problem = Message(
                "imperial.handling.single_shots_only", rule=name, mode=mode_name(attack.mode)
            )
            found.limits.append(("mode", problem))
        hands = rule.get("one_hand_classes") or ()
        one_hand = "one_handed" in flags
        if hands and one_hand and weapon is not None and weapon.weapon_class not in hands:
            problem = Message(
                "imperial.handling.needs_both_hands", weapon_class=weapon_class(weapon.weapon_class)
            )
            found.limits.append(("options['one_handed']", problem))
        if rule.get("sheet_warnings"):
            listed = getattr(sheet, "house_rule_warnings", [])
            found.warnings += [
                Message("imperial.handling.rule_says", rule=name, text=warning)
                for warning in listed
            ]
        if rule.get("mixed_weapons_warning") and _mixed(request, weapon):
            found.warnings.append(Message("imperial.handling.mixed_weapons", rule=name))
        shooters |= set(rule.get("engaged_classes") or ())
        if (
            "engaged" in flags
            and weapon is not None
            and weapon.weapon_class in (rule.get("engaged_classes") or ())
        ):
            note = rule.get("note")
            found.notes.append(
                name if note is None else Message.term(f"{game}.house_rule.{rule.id}.note", note)
            )
        shot = rule.get("called_shot_into_melee")
        if shot and {"called_shot", "into_melee"} <= flags:
            barred = sorted(qualities & set(shot.get("not_qualities", ())))
            if barred:
                named = tuple(quality(game, item) for item in barred)
                found.notes.append(
                    Message("imperial.handling.not_with", rule=name, qualities=named)
                )
            else:
                found.modifiers.append(Modifier(name, int(shot["value"])))
                found.notes.append(Message("imperial.handling.no_ally_hit", rule=name))
    for item, _value in on.values():
        allowed = set(item.listed("ranged_classes")) | shooters
        shoots = bool(item.listed("ranged_classes")) and attack.ranged
        if shoots and weapon is not None and weapon.weapon_class not in allowed:
            problem = Message(
                "imperial.handling.only_classes_shoot",
                name=item.label,
                classes=tuple(weapon_class(kind) for kind in sorted(allowed)),
                weapon=weapon.name,
                weapon_class=weapon_class(weapon.weapon_class),
            )
            raise refuse("weapon", problem)
    return found


def _mixed(request: AttackRequest, weapon: Any | None) -> bool:
    """A melee and a ranged weapon in the two hands, without Two-Weapon Wielder."""
    other = request.options.second_weapon
    if not other or weapon is None or getattr(request.attacker, "two_weapon_wielder", None):
        return False
    wanted = other.strip().casefold()
    listed = getattr(request.attacker, "weapons", [])
    second = next((item for item in listed if item.name.casefold() == wanted), None)
    if second is None:
        problem = Message("imperial.handling.second_weapon_missing", weapon=repr(other))
        raise refuse("options['second_weapon']", problem)
    return bool((second.weapon_class == "melee") != (weapon.weapon_class == "melee"))
