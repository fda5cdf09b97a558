"""One hit of a 40k attack, from the damage dice to the effects: what every hit shares.

:class:`Strike` gathers what all the hits of one attack share (the sheets, the weapon, the
setup, the game's damage and Fury rules, the dice); :func:`resolve_hit` turns one hit at one
location into explained steps and effects: the damage roll (degrees of success as a die's
minimum where the game says so), Righteous Fury, cover, armour, Toughness Bonus, and the
fatigue of an unarmed blow.

Choices where the texts are silent:

- The weapon is found on the attacker's sheet by name (case-insensitive); "Unarmed" (or
  "fists") without such a weapon on the sheet is the game's unarmed attack
  (``systems/data/<game>/unarmed.yaml``).
- Damage expressions may name any bonus of the attacker (``1d10+SB``); a melee weapon adds SB
  unless its expression already names it (004, step four: "add the Strength Bonus").
- A target is helpless (004: two natural 10s confirm Righteous Fury) when the setup rolls
  extra damage dice for it (``AttackSetup.extra_damage_dice``).
- Unarmed fatigue (004) is read on the damage roll, Fury included, before armour and
  Toughness: "a hit that inflicts damage equal to or greater than the Toughness Bonus".
- Degrees of success as a die's minimum (Deathwatch) go to the first hit *of each test*: the
  separate attacks of Swift and Lightning Attack each use their own test's degrees (004:
  "resolve each attack separately"); the extra hits of one burst do not. ``Strike.progress``
  counts the hits of the test being resolved (``take_shot`` starts each test at none).
- A horde's size bonus to hit (the seeds' README ruling, ``hordes.yaml`` ``size_bonus``) is one
  of the set-up's modifiers (``modifiers.attack_setup``): the preview shows the target number
  ``Strike.test`` rolls against.
- A hit on a horde whose least damage roll still deals damage (every die showing 1, after
  armour and Toughness) takes its one magnitude without a damage roll: 004 counts any damage
  alike, so no die is asked (nor Righteous Fury's, which only adds damage). The roll is made
  where it matters otherwise: cover to wear, an unarmed blow's fatigue, the house rule's
  critical damage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from gmkit.dice import DiceSource, parse
from gmkit.dice._sources import ScriptedDice
from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.sheets import sheet_type
from gmkit.sheets._dark_heresy import ImperialCharacter, ImperialWeapon
from gmkit.systems._imperial.cover import Cover
from gmkit.systems._imperial.damage import DamageRoll, DamageRules, _linear, roll_damage
from gmkit.systems._imperial.damage_fury import FuryRules, righteous_fury
from gmkit.systems._imperial.damage_soak import Soak, toughness_bonus
from gmkit.systems._imperial.options import ImperialOptions, fury_house_rule
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems._imperial.terms import fury, hit_label
from gmkit.systems._percentile import PercentileTest, location_name, roll_test
from gmkit.systems._tables import table
from gmkit.systems.base import AttackRequest, Effect, Modifier, Step

UNARMED_NAMES = ("unarmed", "fists")
NO_COVER = Cover()


@dataclass(frozen=True, slots=True)
class UnarmedRules:
    """A game's unarmed attack (``unarmed.yaml``)."""

    weapon: ImperialWeapon
    armour_multiplier: int = 2
    fatigue_levels: int = 1
    fatigue_when_damage_reaches_tb: bool = True

    @classmethod
    def of(cls, game: str) -> UnarmedRules:
        data: Mapping[str, Any] = table(game, "unarmed")
        model: type[ImperialWeapon] = sheet_type(game).weapon_model  # type: ignore[attr-defined]
        return cls(
            weapon=model.model_validate(data["weapon"]),
            armour_multiplier=int(data.get("armour_multiplier", 2)),
            fatigue_levels=int(data.get("fatigue_levels", 1)),
            fatigue_when_damage_reaches_tb=bool(data.get("fatigue_when_damage_reaches_tb", True)),
        )


def find_weapon(attacker: ImperialCharacter, name: str) -> tuple[ImperialWeapon, bool]:
    """The weapon ``name`` on ``attacker``'s sheet, and whether it is the unarmed attack."""
    wanted = name.strip().casefold()
    for weapon in attacker.weapons:
        if weapon.name.casefold() == wanted:
            return weapon, wanted in UNARMED_NAMES
    if wanted in UNARMED_NAMES:
        return UnarmedRules.of(attacker.game).weapon, True
    listed = tuple(weapon.name for weapon in attacker.weapons)
    if not listed:
        raise GmkitError(Message("imperial.hit.no_weapons", name=attacker.name, weapon=repr(name)))
    raise GmkitError(
        Message("imperial.hit.no_weapon", name=attacker.name, weapon=repr(name), listed=listed)
    )


@dataclass
class Progress:
    """Where one attack stands while it is resolved (the one mutable part of a strike): the
    hits of the test being resolved so far, and the ally a shot into melee hit instead."""

    test_hits: int = 0
    ally_hit: Message | None = None


@dataclass(frozen=True)
class Strike:
    """What every hit of one attack shares."""

    request: AttackRequest
    setup: AttackSetup
    source: DiceSource
    weapon: ImperialWeapon
    unarmed: bool = False
    progress: Progress = field(default_factory=Progress, compare=False, repr=False)

    @property
    def game(self) -> str:
        return self.request.attacker.game

    @property
    def attacker(self) -> ImperialCharacter:
        return self.request.attacker  # type: ignore[return-value]

    @property
    def target(self) -> ImperialCharacter:
        return self.request.target  # type: ignore[return-value]

    @property
    def options(self) -> ImperialOptions:
        found: ImperialOptions = self.request.options
        return found

    @property
    def is_horde(self) -> bool:
        return getattr(self.target, "horde", None) is not None

    @cached_property
    def damage_rules(self) -> DamageRules:
        return DamageRules.of(self.game)

    @cached_property
    def fury_rules(self) -> FuryRules:
        return FuryRules.of(self.game)

    @cached_property
    def unarmed_rules(self) -> UnarmedRules:
        return UnarmedRules.of(self.game)

    @property
    def expression(self) -> str:
        """The weapon's damage as this attacker rolls it (SB added for melee)."""
        text = self.weapon.damage
        if self.weapon.adds_strength_bonus and "SB" not in parse(text).names:
            text = f"{text}+SB"
        return text

    @property
    def armour_multiplier(self) -> int:
        if self.unarmed:
            return self.unarmed_rules.armour_multiplier
        primitive = self.setup.primitive_armour_double or bool(self.weapon.quality("Primitive"))
        return 2 if primitive else 1

    def test(self, purpose: Text, modifiers: Sequence[Modifier] | None = None) -> PercentileTest:
        """The attack's test (again, for a confirmation), capped at +/-60."""
        key = self.setup.characteristic
        base = int(getattr(self.attacker.characteristics, key))
        chosen = self.setup.modifiers if modifiers is None else modifiers
        return roll_test(key, base, chosen, self.source, purpose, cap=60)

    def roll_weapon(self, purpose: Text, degrees: int = 0, extra_rolls: int = 0) -> DamageRoll:
        return roll_damage(
            self.expression,
            self.source,
            purpose,
            names=self.attacker.bonuses(),
            degrees=degrees,
            tearing=bool(self.weapon.quality("Tearing")),
            proven=int(self.weapon.quality("Proven")),
            extra_rolls=extra_rolls,
            rules=self.damage_rules,
        )


@dataclass(frozen=True, slots=True)
class HitOutcome:
    """One hit, resolved: its steps, its effects, the wounds it cost, the cover left."""

    steps: tuple[Step, ...]
    effects: tuple[Effect, ...]
    wounds: int
    cover_left: Cover


def _horde_damage_certain(
    strike: Strike, location: str | None, degrees: int, cover: Cover
) -> int | None:
    """The least wounds a hit on a horde deals when every roll of its damage deals some (004:
    any damage takes one magnitude, however much: the dice change nothing), else None. Not
    when the roll matters otherwise: cover it wears, an unarmed blow's fatigue, the house
    rule's critical damage from a Righteous Fury, a die that subtracts."""
    horde = getattr(strike.target, "horde", None)
    if horde is None or strike.unarmed or cover.at(location):
        return None
    if fury_house_rule(strike.options) and strike.fury_rules.house_rule_critical:
        return None
    terms, _ = _linear(parse(strike.expression).root, 1, strike.attacker.bonuses(), "")
    if any(sign < 0 for sign, _ in terms):
        return None
    weapon = strike.weapon
    least = roll_damage(  # every die showing 1: the least the roll can total
        strike.expression,
        ScriptedDice(rest=1),
        "",
        names=strike.attacker.bonuses(),
        degrees=degrees,
        tearing=bool(weapon.quality("Tearing")),
        proven=int(weapon.quality("Proven")),
        extra_rolls=strike.setup.extra_damage_dice,
        rules=strike.damage_rules,
    ).total
    soak = Soak(
        least,
        strike.target.horde_armour,  # type: ignore[attr-defined]
        toughness_bonus(strike.target, int(weapon.quality("Felling"))),
        pen=weapon.pen,
        armour_multiplier=strike.armour_multiplier,
    )
    return soak.wounds if soak.wounds > 0 else None


def resolve_hit(
    strike: Strike, number: int, location: str | None, degrees: int, cover: Cover = NO_COVER
) -> HitOutcome:
    """Damage, Righteous Fury and soak for hit ``number`` at ``location`` (None: a horde),
    behind ``cover`` (``cover.cover_of`` the request; none by default)."""
    label = hit_label(number)
    target, weapon = strike.target, strike.weapon
    strike.progress.test_hits += 1
    in_test = strike.progress.test_hits  # the first hit of its own test uses the degrees
    degrees_here = strike.damage_rules.degrees_for_hit(degrees, in_test)
    least = _horde_damage_certain(strike, location, degrees_here, cover)
    if least is not None:  # every roll takes one magnitude: no die asked (004)
        title = Message("imperial.hit.damage_title", hit=label)
        outcome = Message("imperial.hit.horde_not_rolled", least=least)
        step = Step(title, outcome, Message("imperial.hit.horde_every_roll"))
        return HitOutcome((step,), (), least, cover)
    damage = strike.roll_weapon(
        Message("imperial.hit.damage_die", hit=label),
        degrees=degrees_here,
        extra_rolls=strike.setup.extra_damage_dice,
    )
    where = location_name(location) if location else Message("imperial.hit.the_horde")
    title = Message("imperial.hit.damage_title", hit=label)
    outcome = Message("imperial.hit.damage_at", damage=damage.total, where=where)
    steps = [Step(title, outcome, damage.explain(), damage.rolls)]
    house_rule = fury_house_rule(strike.options)
    fury_name = fury(strike.game)
    found = righteous_fury(
        damage,
        strike.fury_rules,
        strike.source,
        confirm=strike.test,
        reroll=strike.roll_weapon,
        damage_rules=strike.damage_rules,
        helpless=strike.setup.extra_damage_dice > 0,
        house_rule=house_rule,
        label=label,
        fury=fury_name,
    )
    steps.extend(found.steps)
    if damage.tens and house_rule and not strike.fury_rules.house_rule_critical:
        detail = Message("imperial.fury.no_house_rule", game=strike.game)
        steps.append(Step(fury_name, Message("imperial.fury.house_rule_not_used"), detail))
    total = damage.total + found.extra_damage
    horde = getattr(target, "horde", None)
    armour = target.horde_armour if horde is not None else target.armour_at(location)  # type: ignore[attr-defined, arg-type]
    felling = int(weapon.quality("Felling"))
    soak = Soak(
        total,
        armour,
        toughness_bonus(target, felling),
        pen=weapon.pen,
        armour_multiplier=strike.armour_multiplier,
        cover=cover.at(location),
    )
    taken = Message("imperial.hit.soak_outcome", wounds=soak.wounds)
    steps.append(Step(Message("imperial.hit.soak_title", hit=label), taken, soak.explain()))
    effects: list[Effect] = []
    kind = weapon.damage_type
    left = cover.after_hit(location, total)
    if left.points < cover.points:
        worn = cover.points - left.points
        note = Message("imperial.hit.cover_beaten")
        effects.append(Effect("cover", target.name, worn, location, note=note))
    if found.critical:
        note = Message("imperial.hit.fury_critical", fury=fury_name)
        effects.append(Effect("critical", target.name, found.critical, location, kind, note=note))
    if soak.wounds and horde is None:
        effects.append(Effect("damage", target.name, soak.wounds, location, kind))
    rules = strike.unarmed_rules if strike.unarmed else None
    if rules and rules.fatigue_when_damage_reaches_tb and total > 0 and total >= soak.toughness:
        note = Message("imperial.hit.unarmed_fatigue")
        effects.append(Effect("fatigue", target.name, rules.fatigue_levels, note=note))
    return HitOutcome(tuple(steps), tuple(effects), soak.wounds, left)
