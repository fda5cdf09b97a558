"""Warhammer Fantasy Roleplay (2nd edition) sheets: profile, wounds, weapons, armour.

Mechanics follow seed 002. Choices where it is silent:

- Main profile WS BS S T Ag Int WP Fel, 0..100. Secondary profile: A 0..10 (default 1),
  W 1..200, M 0..10 (default 4, a human's), Mag 0..10, IP 0..100, FP 0..10. SB and TB are
  the tens digits of S and T and are never typed: a sheet that types them is refused.
- ``wounds_current`` runs 0..W (absent: W). Seed 002: a hit that takes wounds below zero is a
  critical; a survivor counts as having 0 wounds, so the sheet never goes below 0.
- Wound states (002): "unhurt" at full wounds, "lightly wounded" with more than 3 left,
  "seriously wounded" with 3 or fewer (a character of W 3 or less is unhurt only when full).
  Natural healing: 1 wound a day when lightly wounded, 1 a week when seriously (002).
- ``fortune`` runs 0..FP (absent: FP): fortune points are the day's share of fate points.
- Weapon damage is the weapon's part only, relative to SB ("SB", "SB-3") or a number for
  missiles ("3"): the attack rolls the 1d10 (002, step three), so dice are refused here.
  Unarmed attacks are ``UNARMED_DAMAGE`` (SB-4) with armour points doubled (002).
- Weapon groups: Ordinary or one of the specialist groups (Cavalry, Crossbow, Engineer,
  Entangling, Fencing, Flail, Gunpowder, Longbow, Parrying, Sling, Throwing, Two-handed).
  A specialist weapon needs the talent "Specialist Weapon Group (<group>)"; without it the
  attack is at -20 (the book's rule; 002 gives none).
- ``armour`` lists the pieces worn; ``armour_points`` may type the points per location (a
  creature's hide, an override). Untyped, the pieces add up (leather, mail and plate are worn
  over each other: a full suit of plate is 5). Catalog "Full ..." suits already hold the total.
- Ranges are short/long in metres (0/0 for a hand weapon); reload as in the other d100 games.
- Movement in metres (002 counts in metres): move = 2 x M, charge = 4 x M, run = 6 x M (the
  book's table). Initiative is Ag + 1d10 (002): ``initiative_base`` is Ag.
- Off-hand attacks are at -20 (002) unless the character has Ambidextrous. Dodging needs the
  advanced skill Dodge Blow (002): ``can_dodge``.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from gmkit.messages import Message
from gmkit.sheets._fields import Refusal, Whole, at_most, ranged
from gmkit.sheets._percentile import (
    ArmourPoints,
    Characteristic,
    CoveringPoints,
    Location,
    Reload,
    Tags,
    bonus_of,
    check_damage,
    check_qualities,
    lower_text,
    quality_table,
    quality_value,
    talent_specialities,
)
from gmkit.sheets.base import Model, Name, Sheet

KEYS = ("WS", "BS", "S", "T", "Ag", "Int", "WP", "Fel")
BONUS_NAMES = frozenset(f"{key}B" for key in KEYS)
QUALITIES = quality_table(
    "Armour Piercing, Balanced, Defensive, Experimental, Fast, Impact, Precise, Pummelling, "
    "Shrapnel, Slow, Snare, Special, Tiring, Unreliable"
)
EXCLUSIVE = (("Fast", "Slow"),)
GROUPS = (
    "Ordinary",
    "Cavalry",
    "Crossbow",
    "Engineer",
    "Entangling",
    "Fencing",
    "Flail",
    "Gunpowder",
    "Longbow",
    "Parrying",
    "Sling",
    "Throwing",
    "Two-handed",
)
UNARMED_DAMAGE = "SB-4"
UNARMED_ARMOUR_MULTIPLIER = 2
SERIOUS_WOUNDS = 3
"""With this many wounds or fewer left a character is seriously wounded (002)."""

WoundState = Literal["unhurt", "lightly wounded", "seriously wounded"]
ArmourKind = Literal["leather", "mail", "plate", "other"]
Metres = Annotated[Whole, ranged(0, 1000)]
Small = Annotated[Whole, ranged(0, 10)]


def _group(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    for group in GROUPS:
        if group.casefold() == value.strip().casefold():
            return group
    raise Refusal(Message("sheets.unknown_weapon_group", group=repr(value), known=GROUPS))


class Characteristics(Model):
    """The main profile: WS BS S T Ag Int WP Fel, each 0..100."""

    WS: Characteristic
    BS: Characteristic
    S: Characteristic
    T: Characteristic
    Ag: Characteristic
    Int: Characteristic
    WP: Characteristic
    Fel: Characteristic


class Secondary(Model):
    """The typed secondary profile: A W M Mag IP FP (SB and TB are derived)."""

    A: Small = 1
    W: Annotated[Whole, ranged(1, 200)]
    M: Small = 4
    Mag: Small = 0
    IP: Annotated[Whole, ranged(0, 100)] = 0
    FP: Small = 0

    @model_validator(mode="before")
    @classmethod
    def _no_derived(cls, data: Any) -> Any:
        if isinstance(data, dict):
            typed = [key for key in ("SB", "TB") if key in data]
            if len(typed) == 1:
                raise Refusal(Message("sheets.bonus_typed", bonus=typed[0]))
            if typed:
                raise Refusal(Message("sheets.bonuses_typed"))
        return data


class Weapon(Model):
    """A WFRP 2e weapon: group, damage relative to SB, ranges, reload and qualities."""

    model_config = ConfigDict(validate_default=True)

    name: Name
    group: Annotated[str, BeforeValidator(_group)] = "Ordinary"
    damage: str
    range_short: Metres = 0
    range_long: Metres = 0
    reload: Reload = "-"
    qualities: list[str] = Field(default_factory=list)

    @field_validator("damage")
    @classmethod
    def _damage(cls, value: str) -> str:
        return check_damage(value, BONUS_NAMES, dice=False)

    @field_validator("range_long")
    @classmethod
    def _ranges(cls, value: int, info: ValidationInfo) -> int:
        short = info.data.get("range_short")
        if short and not value:
            raise Refusal(Message("sheets.needs_long_range"))
        if short is not None and value < short:
            raise Refusal(Message("sheets.long_range_below_short", short=short))
        return value

    @field_validator("reload")
    @classmethod
    def _reload_needs_range(cls, value: str, info: ValidationInfo) -> str:
        if value != "-" and info.data.get("range_long") == 0:
            raise Refusal(Message("sheets.reload_without_range"))
        return value

    @field_validator("qualities")
    @classmethod
    def _qualities(cls, value: list[str]) -> list[str]:
        return check_qualities(value, QUALITIES, EXCLUSIVE)

    @property
    def is_ranged(self) -> bool:
        return self.range_long > 0

    @property
    def specialist(self) -> bool:
        """Specialist weapons need a Specialist Weapon Group talent."""
        return self.group != "Ordinary"

    def quality(self, name: str) -> int | bool:
        return quality_value(self.qualities, name)


class Armour(Model):
    """A piece of WFRP 2e armour and its armour points where it covers."""

    name: Name
    kind: Annotated[ArmourKind, BeforeValidator(lower_text)] = "other"
    points: CoveringPoints


class WFRP2Character(Sheet):
    """A WFRP 2e character, NPC or monster."""

    GAME_TITLE: ClassVar[str] = "Warhammer Fantasy Roleplay (2nd edition)"
    weapon_model: ClassVar[type] = Weapon
    armour_model: ClassVar[type] = Armour

    game: Literal["wfrp2"] = "wfrp2"
    characteristics: Characteristics
    secondary: Secondary
    wounds_current: Annotated[Whole, ranged(0, 200), at_most("secondary.W")]
    fortune: Annotated[Small, at_most("secondary.FP")]
    armour: list[Armour] = Field(default_factory=list, description="pieces worn")
    armour_points: ArmourPoints | None = Field(None, description="typed; absent: from armour")
    weapons: list[Weapon] = Field(default_factory=list)
    skills: Tags = Field(default_factory=list)
    talents: Tags = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _defaults_from_profile(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        secondary = data.get("secondary")
        if isinstance(secondary, Secondary):
            secondary = secondary.model_dump()
        secondary = secondary if isinstance(secondary, dict) else {}
        filled = dict(data)
        if "wounds_current" not in filled and "W" in secondary:
            filled["wounds_current"] = secondary["W"]
        if "fortune" not in filled:
            filled["fortune"] = secondary.get("FP", 0)
        return filled

    # --- derived values ------------------------------------------------------------------

    @property
    def SB(self) -> int:
        """Strength Bonus: the tens digit of S."""
        return bonus_of(self.characteristics.S)

    @property
    def TB(self) -> int:
        """Toughness Bonus: the tens digit of T."""
        return bonus_of(self.characteristics.T)

    def bonuses(self) -> dict[str, int]:
        """The named bonuses dice expressions may use: SB, TB, and WSB, AgB, ... alike."""
        return {f"{key}B": bonus_of(getattr(self.characteristics, key)) for key in KEYS}

    @property
    def movement(self) -> dict[str, int]:
        """Metres per move (half action), charge and run."""
        m = self.secondary.M
        return {"move": 2 * m, "charge": 4 * m, "run": 6 * m}

    @property
    def initiative_base(self) -> int:
        """Initiative is Ag + 1d10 (002)."""
        return self.characteristics.Ag

    @property
    def effective_armour(self) -> ArmourPoints:
        """``armour_points`` if typed, else the pieces' points added up at each location."""
        if self.armour_points is not None:
            return self.armour_points
        return ArmourPoints.worn((piece.points for piece in self.armour), stack=True)

    def armour_at(self, location: Location) -> int:
        """Armour points protecting ``location``."""
        return self.effective_armour.at(location)

    @property
    def wounds_lost(self) -> int:
        return self.secondary.W - self.wounds_current

    @property
    def wound_state(self) -> WoundState:
        if self.wounds_current == self.secondary.W:
            return "unhurt"
        if self.wounds_current > SERIOUS_WOUNDS:
            return "lightly wounded"
        return "seriously wounded"

    @property
    def natural_healing(self) -> str:
        """How fast wounds come back without a physician (002)."""
        return {"unhurt": "-", "lightly wounded": "1 a day"}.get(self.wound_state, "1 a week")

    @property
    def ambidextrous(self) -> bool:
        return talent_specialities(self.talents, "Ambidextrous") is not None

    @property
    def off_hand_penalty(self) -> int:
        return 0 if self.ambidextrous else -20

    @property
    def can_dodge(self) -> bool:
        return talent_specialities(self.skills, "Dodge Blow") is not None

    @property
    def specialist_groups(self) -> tuple[str, ...]:
        """The specialist weapon groups the talents train."""
        known = talent_specialities(self.talents, "Specialist Weapon Group") or frozenset()
        return tuple(group for group in GROUPS[1:] if group.casefold() in known)

    def trained(self, weapon: Weapon) -> bool:
        return not weapon.specialist or weapon.group in self.specialist_groups

    def untrained_penalty(self, weapon: Weapon) -> int:
        return 0 if self.trained(weapon) else -20

    def summary(self) -> dict[str, Any]:
        """The main profile, A, wounds left of total, M, body armour, weapons."""
        line: dict[str, Any] = {key: getattr(self.characteristics, key) for key in KEYS}
        line["A"] = self.secondary.A
        line["W"] = f"{self.wounds_current}/{self.secondary.W}"
        line["M"] = self.secondary.M
        line["AP body"] = self.armour_at("body")
        line["weapons"] = ", ".join(weapon.name for weapon in self.weapons) or "-"
        return line

    def derived(self) -> dict[str, Any]:
        return {
            "SB": self.SB,
            "TB": self.TB,
            "bonuses": self.bonuses(),
            "armour_points": self.effective_armour.model_dump(),
            "movement": self.movement,
            "initiative_base": self.initiative_base,
            "wounds_lost": self.wounds_lost,
            "wound_state": self.wound_state,
            "natural_healing": self.natural_healing,
            "ambidextrous": self.ambidextrous,
            "off_hand_penalty": self.off_hand_penalty,
            "can_dodge": self.can_dodge,
            "specialist_groups": list(self.specialist_groups),
        }
