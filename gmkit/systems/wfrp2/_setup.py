"""What a WFRP 2e attack is before any die is rolled: :func:`attack_setup` and the reactions.

The request's action, weapon, mode and circumstances, weighed by the catalogs
(:mod:`gmkit.systems.wfrp2._catalogs`), give an :class:`AttackSetup`: the characteristic tested
and every modifier with its source, how many attacks, which weapon qualities act, and which
reactions the target may use (:class:`ReactionOption`, also offered alone by
:func:`reactions_available` so a panel can ask the defender before resolving).

Choices where seed 002 is silent:

- ``request.mode`` is "melee" or "ranged"; any other value (the protocol's default "single")
  means "as the weapon is": ranged when it has a range. A weapon is used in its own mode only.
- ``request.weapon`` names a weapon on the attacker's sheet (case is forgiven); "Unarmed" is
  always at hand: damage SB-4, armour points doubled (002).
- A parry needs a parry stance or a weapon in the other hand (002), a melee weapon on the
  target's sheet (the option ``parry_weapon`` names it; else its first Defensive melee weapon,
  else its first melee weapon; bare hands do not parry) and the WS test. A dodge needs the
  skill Dodge Blow (``can_dodge``) and is an Agility test (002 names no characteristic; Dodge
  Blow is Agility-based in the book).
- The off-hand penalty is 002's -20 WS; 002 gives none for ranged attacks, so none is applied.
  Ambidextrous (the sheet) or a Balanced weapon (qualities.yaml) waives it.
- Untrained use of a specialist weapon is at -20 (the sheet's rule, from the book).
- 002 has no called shots and no range bands: a called location is refused, as is a shot beyond
  the weapon's long range; a charge needs 4 m at least and at most the charge move (002).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from gmkit.errors import RulesError
from gmkit.messages import Message, Text
from gmkit.sheets._wfrp2 import UNARMED_DAMAGE, Weapon, WFRP2Character
from gmkit.systems.base import AttackRequest, Effect, Modifier
from gmkit.systems.wfrp2._catalogs import (
    Action,
    Circumstance,
    Quality,
    action,
    circumstances,
    qualities,
    quality_label,
)
from gmkit.systems.wfrp2._options import WFRP2Options
from gmkit.systems.wfrp2._terms import (
    UNARMED,
    mode_name,
    rated,
    reload_name,
    weapon_group,
    weapon_name,
)

Mode = Literal["melee", "ranged"]


@dataclass(frozen=True, slots=True)
class ReactionOption:
    """A reaction the target may (or may not) use against the attack, and why."""

    name: str  # "parry" or "dodge"
    available: bool
    reason: Text  # why not; or what it would use ("WS 41 with Shield")
    characteristic: str = ""
    base: int = 0
    modifiers: tuple[Modifier, ...] = ()
    weapon: str | None = None  # the parrying weapon


@dataclass(frozen=True)
class AttackSetup:
    """The attack as the rules see it once the action and circumstances are weighed."""

    action: Action
    weapon: Weapon
    mode: Mode
    characteristic: str  # WS or BS
    base: int
    modifiers: tuple[Modifier, ...]
    attacks: int
    auto_hit: bool = False
    extra_damage: tuple[tuple[Message, str], ...] = ()  # (why, dice): (Target is helpless, 1d10)
    damage_dice: int = 1  # d10s rolled for damage, the highest kept
    armour_ignored: int = 0
    armour_multiplier: int = 1
    critical_bonus: int = 0
    reactions: tuple[ReactionOption, ...] = ()
    attacker_effects: tuple[Effect, ...] = ()
    notes: tuple[Message, ...] = ()

    @property
    def unarmed(self) -> bool:
        """Whether the attack is made with bare hands (SB-4, armour doubled: 002)."""
        return self.weapon.name == UNARMED

    @property
    def weapon_label(self) -> Message:
        """The weapon's name as the steps show it (bare hands in the reader's language)."""
        return weapon_name(self.weapon.name)

    def reaction(self, name: str) -> ReactionOption:
        """The option for reaction ``name`` ("parry" or "dodge")."""
        return next(option for option in self.reactions if option.name == name)


def options_of(request: AttackRequest) -> WFRP2Options:
    """The request's options as WFRP 2e declares them (:class:`WFRP2Options`)."""
    return WFRP2Options.coerce(request.options)


def sheets(request: AttackRequest) -> tuple[WFRP2Character, WFRP2Character]:
    """The attacker and target, refused unless both are WFRP 2e sheets."""
    for role, sheet in (("attacker", request.attacker), ("target", request.target)):
        if not isinstance(sheet, WFRP2Character):
            raise RulesError(Message(f"wfrp2.refusal.not_wfrp2_{role}", name=repr(sheet.name)))
    return request.attacker, request.target  # type: ignore[return-value]


def find_weapon(sheet: WFRP2Character, name: str) -> Weapon:
    """The weapon ``name`` on ``sheet`` (case forgiven); "Unarmed" is always at hand."""
    for weapon in sheet.weapons:
        if weapon.name.casefold() == name.strip().casefold():
            return weapon
    if name.strip().casefold() == UNARMED.casefold():
        return Weapon(name=UNARMED, damage=UNARMED_DAMAGE)
    known = (*(Message.named(w.name) for w in sheet.weapons), weapon_name(UNARMED))
    raise RulesError(
        Message("wfrp2.refusal.no_weapon", character=sheet.name, weapon=repr(name), known=known)
    )


def active_qualities(weapon: Weapon, action_id: str) -> tuple[list[Quality], list[Message]]:
    """The covered qualities acting in this attack, and notes on the others."""
    catalog = qualities()
    names = [quality.partition("(")[0] for quality in weapon.qualities]
    notes: list[Message] = []
    uncovered = [n for n in names if n not in catalog or not catalog[n].covered]
    notes += [Message("wfrp2.note.uncovered_quality", quality=quality_label(n)) for n in uncovered]
    acting = [catalog[n] for n in names if n not in uncovered]
    idle = {q for item in acting for q in item.charge_only} if action_id != "charge_attack" else ()
    tiring = next((item for item in acting if item.charge_only), None)
    for name in sorted(set(idle) & {item.name for item in acting}):
        notes.append(
            Message(
                "wfrp2.note.charge_only",
                quality=quality_label(name),
                tiring=tiring.label if tiring else quality_label("Tiring"),
            )
        )
    return [item for item in acting if item.name not in idle], notes


def _mode(request: AttackRequest, weapon: Weapon, chosen: Action) -> Mode:
    natural: Mode = "ranged" if weapon.is_ranged else "melee"
    mode = request.mode if request.mode in ("melee", "ranged") else natural
    if mode != natural:
        raise RulesError(
            Message(
                "wfrp2.refusal.weapon_mode",
                weapon=weapon.name,
                natural=mode_name(natural),
                mode=mode_name(mode),
            )
        )
    if not chosen.allows(mode):
        raise RulesError(
            Message(
                "wfrp2.refusal.action_mode",
                action=chosen.label,
                attack=mode_name(chosen.attack),
                mode=mode_name(mode),
            )
        )
    return mode


def _circumstances(request: AttackRequest, chosen: Action) -> list[tuple[Circumstance, Any]]:
    catalog = circumstances()
    found: list[tuple[Circumstance, Any]] = []
    for key, value in request.circumstances.items():
        if key not in catalog:
            raise RulesError(
                Message(
                    "wfrp2.refusal.unknown_circumstance",
                    circumstance=repr(key),
                    known=tuple(catalog),
                )
            )
        item = catalog[key]
        if item.value and (isinstance(value, bool) or not isinstance(value, int)):
            raise RulesError(
                Message("wfrp2.refusal.whole_number", circumstance=item.label, got=repr(value))
            )
        if not value:
            continue
        if item.actions and chosen.id not in item.actions:
            raise RulesError(
                Message(
                    "wfrp2.refusal.circumstance_action",
                    circumstance=item.label,
                    actions=item.actions,
                    action=chosen.id,
                )
            )
        found.append((item, value))
    return found


def _check_distance(
    request: AttackRequest, attacker: WFRP2Character, chosen: Action, weapon: Weapon
) -> None:
    distance = request.distance
    if request.called_location is not None:
        raise RulesError(Message("wfrp2.refusal.called_shot"))
    if distance is None:
        return
    if chosen.min_distance is not None and distance < chosen.min_distance:
        raise RulesError(
            Message("wfrp2.refusal.too_close", action=chosen.label, metres=chosen.min_distance)
        )
    if chosen.distance is not None and distance > attacker.movement[chosen.distance]:
        reach = attacker.movement[chosen.distance]
        raise RulesError(
            Message(
                "wfrp2.refusal.beyond_move",
                action=chosen.label,
                character=attacker.name,
                metres=reach,
            )
        )
    if weapon.is_ranged and distance > weapon.range_long:
        raise RulesError(
            Message(
                "wfrp2.refusal.beyond_range",
                weapon=weapon.name,
                distance=distance,
                metres=weapon.range_long,
            )
        )


def attack_setup(request: AttackRequest) -> AttackSetup:
    """Weigh the request's action, weapon and circumstances (no dice)."""
    attacker, target = sheets(request)
    chosen = action(request.action)
    if not chosen.is_attack:
        raise RulesError(Message("wfrp2.refusal.not_an_attack", action=chosen.label))
    weapon = find_weapon(attacker, request.weapon)
    mode = _mode(request, weapon, chosen)
    _check_distance(request, attacker, chosen, weapon)
    present = _circumstances(request, chosen)
    characteristic = "WS" if mode == "melee" else "BS"
    acting, notes = active_qualities(weapon, chosen.id)
    modifiers: list[Modifier] = []
    if characteristic in chosen.modifiers:
        modifiers.append(Modifier(chosen.label, chosen.modifiers[characteristic]))
    for item, value in present:
        if item.value:
            modifiers.append(Modifier(item.label, int(value)))
        elif item.off_hand and characteristic in item.modifiers:
            if attacker.ambidextrous or any(q.waives_off_hand for q in acting):
                notes.append(Message("wfrp2.note.off_hand_waived"))
            else:
                modifiers.append(Modifier(item.label, attacker.off_hand_penalty))
        elif characteristic in item.modifiers:
            modifiers.append(Modifier(item.label, item.modifiers[characteristic]))
    if attacker.untrained_penalty(weapon):
        untrained = Message("wfrp2.modifier.untrained", group=weapon_group(weapon.group))
        modifiers.append(Modifier(untrained, attacker.untrained_penalty(weapon)))
    attacks = attacker.secondary.A if chosen.attacks == "A" else chosen.attacks
    if attacks < 1:
        raise RulesError(
            Message(
                "wfrp2.refusal.no_attacks",
                character=attacker.name,
                attacks=attacks,
                action=chosen.label,
            )
        )
    if mode == "ranged" and attacks > 1 and weapon.reload not in ("-", "Free"):
        notes.append(
            Message("wfrp2.note.reload", weapon=weapon.name, reload=reload_name(weapon.reload))
        )
    return AttackSetup(
        action=chosen,
        weapon=weapon,
        mode=mode,
        characteristic=characteristic,
        base=int(getattr(attacker.characteristics, characteristic)),
        modifiers=tuple(modifiers),
        attacks=attacks,
        auto_hit=any(item.auto_hit for item, _ in present),
        extra_damage=tuple((i.label, i.extra_damage) for i, _ in present if i.extra_damage),
        damage_dice=max([1, *(q.damage_dice for q in acting)]),
        armour_ignored=sum(q.armour_ignored for q in acting),
        armour_multiplier=2 if weapon.name == UNARMED else 1,
        critical_bonus=sum(q.critical_value for q in acting),
        reactions=_reactions(
            target, options_of(request), weapon, mode, acting, [item for item, _ in present]
        ),
        attacker_effects=tuple(
            Effect("condition", attacker.name, condition=g.condition, rounds=g.rounds)
            for g in chosen.grants
        ),
        notes=tuple(notes),
    )


def _parry_weapon(target: WFRP2Character, options: WFRP2Options) -> Weapon | None:
    melee = [weapon for weapon in target.weapons if not weapon.is_ranged]
    chosen = options.parry_weapon
    if chosen is not None:
        weapon = find_weapon(target, chosen)
        if weapon.is_ranged or weapon.name == UNARMED:
            raise RulesError(
                Message(
                    "wfrp2.refusal.cannot_parry_with",
                    character=target.name,
                    weapon=weapon_name(weapon.name),
                )
            )
        return weapon
    defensive = [weapon for weapon in melee if _parry_modifiers(weapon)]
    found = defensive or melee
    return found[0] if found else None


def _weapon_quality(weapon: Weapon, quality: Message) -> Message:
    return Message(
        "wfrp2.modifier.weapon_quality", weapon=weapon_name(weapon.name), quality=quality
    )


def _parry_modifiers(weapon: Weapon) -> list[Modifier]:
    """What parrying with ``weapon`` adds (Defensive +10)."""
    catalog = qualities()
    names = [quality.partition("(")[0] for quality in weapon.qualities]
    return [
        Modifier(_weapon_quality(weapon, catalog[name].label), catalog[name].parry_modifier)
        for name in names
        if name in catalog and catalog[name].covered and catalog[name].parry_modifier
    ]


def _reactions(
    target: WFRP2Character,
    options_given: WFRP2Options,
    weapon: Weapon,
    mode: Mode,
    acting: list[Quality],
    present: list[Circumstance],
) -> tuple[ReactionOption, ...]:
    if mode == "ranged":
        reason = Message("wfrp2.reason.ranged")
        return ReactionOption("parry", False, reason), ReactionOption("dodge", False, reason)
    shared = [
        Modifier(_weapon_quality(weapon, q.label), q.target_reaction_modifier)
        for q in acting
        if q.target_reaction_modifier
    ]
    shared += [Modifier(c.label, c.reaction_modifier) for c in present if c.reaction_modifier]
    barred = [c.label for c in present if c.no_reactions]
    options: list[ReactionOption] = []
    for name in ("parry", "dodge"):
        blocked = [c.label for c in present if name in c.blocks]
        if barred or blocked:
            options.append(ReactionOption(name, False, (barred or blocked)[0]))
            continue
        if name == "dodge":
            if not target.can_dodge:
                why = Message("wfrp2.reason.no_dodge_blow", character=target.name)
                options.append(ReactionOption(name, False, why))
            else:
                ag = target.characteristics.Ag
                options.append(ReactionOption(name, True, rated("Ag", ag), "Ag", ag, tuple(shared)))
            continue
        if not any("parry" in c.allows for c in present):
            options.append(ReactionOption(name, False, Message("wfrp2.reason.parry_needs")))
            continue
        parrying = _parry_weapon(target, options_given)
        if parrying is None:
            why = Message("wfrp2.reason.no_melee_weapon", character=target.name)
            options.append(ReactionOption(name, False, why))
            continue
        ws = target.characteristics.WS
        mods = (*_parry_modifiers(parrying), *shared)
        how = Message(
            "wfrp2.reason.parry_with", rated=rated("WS", ws), weapon=weapon_name(parrying.name)
        )
        options.append(ReactionOption(name, True, how, "WS", ws, mods, parrying.name))
    return tuple(options)


def reactions_available(request: AttackRequest) -> dict[str, ReactionOption]:
    """The reactions the target could use against this attack: ``{"parry": ..., "dodge": ...}``."""
    return {option.name: option for option in attack_setup(request).reactions}
