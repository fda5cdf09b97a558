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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from gmkit.dice import DiceSource, parse
from gmkit.errors import GmkitError
from gmkit.sheets import sheet_type
from gmkit.sheets.dark_heresy import ImperialCharacter, ImperialWeapon
from gmkit.systems.base import AttackRequest, Effect, Modifier, Step
from gmkit.systems.imperial.cover import Cover
from gmkit.systems.imperial.damage import DamageRoll, DamageRules, roll_damage
from gmkit.systems.imperial.damage_fury import FuryRules, righteous_fury
from gmkit.systems.imperial.damage_soak import Soak, toughness_bonus
from gmkit.systems.imperial.setup import AttackSetup
from gmkit.systems.percentile import PercentileTest, roll_test
from gmkit.systems.tables import table

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
    listed = ", ".join(weapon.name for weapon in attacker.weapons) or "none"
    raise GmkitError(f"{attacker.name} has no weapon {name!r} (weapons: {listed}; or Unarmed)")


@dataclass(frozen=True)
class Strike:
    """What every hit of one attack shares."""

    request: AttackRequest
    setup: AttackSetup
    source: DiceSource
    weapon: ImperialWeapon
    unarmed: bool = False

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
    def options(self) -> Mapping[str, Any]:
        return self.request.options

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

    def test(self, purpose: str, modifiers: Sequence[Modifier] | None = None) -> PercentileTest:
        """The attack's test (again, for a confirmation), capped at +/-60."""
        key = self.setup.characteristic
        base = int(getattr(self.attacker.characteristics, key))
        chosen = self.setup.modifiers if modifiers is None else modifiers
        return roll_test(key, base, chosen, self.source, purpose, cap=60)

    def roll_weapon(self, purpose: str, degrees: int = 0, extra_rolls: int = 0) -> DamageRoll:
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


def resolve_hit(
    strike: Strike, number: int, location: str | None, degrees: int, cover: Cover = NO_COVER
) -> HitOutcome:
    """Damage, Righteous Fury and soak for hit ``number`` at ``location`` (None: a horde),
    behind ``cover`` (``cover.cover_of`` the request; none by default)."""
    label = f"hit {number}"
    target, weapon = strike.target, strike.weapon
    damage = strike.roll_weapon(
        f"damage ({label})",
        degrees=strike.damage_rules.degrees_for_hit(degrees, number),
        extra_rolls=strike.setup.extra_damage_dice,
    )
    where = location.replace("_", " ") if location else "the horde"
    steps = [
        Step(f"Damage ({label})", f"{damage.total} at {where}", damage.explain(), damage.rolls)
    ]
    house_rule = bool(strike.options.get("righteous_fury_house_rule"))
    fury = righteous_fury(
        damage,
        strike.fury_rules,
        strike.source,
        confirm=strike.test,
        reroll=strike.roll_weapon,
        damage_rules=strike.damage_rules,
        helpless=strike.setup.extra_damage_dice > 0,
        house_rule=house_rule,
        label=label,
    )
    steps.extend(fury.steps)
    if damage.tens and house_rule and not strike.fury_rules.house_rule_critical:
        steps.append(Step("Righteous Fury", "house rule not used", f"{strike.game} has none"))
    total = damage.total + fury.extra_damage
    horde = getattr(target, "horde", None)
    armour = horde.armour if horde is not None else target.armour_at(location)  # type: ignore[arg-type]
    felling = int(weapon.quality("Felling"))
    soak = Soak(
        total,
        armour,
        toughness_bonus(target, felling),
        pen=weapon.pen,
        armour_multiplier=strike.armour_multiplier,
        cover=cover.at(location),
    )
    steps.append(Step(f"Soak ({label})", f"{soak.wounds} damage taken", soak.explain()))
    effects: list[Effect] = []
    kind = weapon.damage_type
    left = cover.after_hit(location, total)
    if left.points < cover.points:
        worn = cover.points - left.points
        effects.append(Effect("cover", target.name, worn, location, note="the hit beat the cover"))
    if fury.critical:
        effects.append(
            Effect(
                "critical",
                target.name,
                fury.critical,
                location,
                kind,
                note="Righteous Fury (house rule): past armour and Toughness; wounds unchanged",
            )
        )
    if soak.wounds and horde is None:
        effects.append(Effect("damage", target.name, soak.wounds, location, kind))
    rules = strike.unarmed_rules if strike.unarmed else None
    if rules and rules.fatigue_when_damage_reaches_tb and total > 0 and total >= soak.toughness:
        effects.append(
            Effect("fatigue", target.name, rules.fatigue_levels, note="unarmed blow reached TB")
        )
    return HitOutcome(tuple(steps), tuple(effects), soak.wounds, left)
