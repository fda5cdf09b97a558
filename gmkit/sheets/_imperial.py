"""The Imperial family: what Dark Heresy and Deathwatch sheets share (004 builds on 001's rules).

``ImperialWeapon`` and ``ImperialCharacter`` are the shapes both games use;
``gmkit.sheets._dark_heresy`` and ``gmkit.sheets._deathwatch`` extend them. Their profile, armour
and weapon qualities are d100 pieces and live in ``gmkit.sheets._percentile``.

Choices where the rule texts are silent:

- ``wounds`` is the threshold, ``damage`` what was taken (0..wounds); wounds left are the
  difference. What goes beyond wounds is ``critical_damage`` (0..10: the critical tables end at
  10, where every entry is death). Whether critical damage may come below the threshold is each
  game's rule (see its module).
- Damage states (004's Healing, the same in Dark Heresy's book): lightly damaged while damage
  <= 2 x TB, heavily damaged above that, critically damaged with any critical damage.
  ``seriously_wounded`` is heavily or critically damaged.
- Fatigue 0..20 (no rule caps it): any level gives -10 to tests; more levels than TB knock the
  character out for 10 - TB minutes, at least 1 (004; 001 gives no minimum).
- Movement: half = AgB, full = 2 x AgB (004's Move), charge = 3 x AgB, run = 6 x AgB (the
  books' table; the seeds give none), all with unnatural Agility. Initiative adds AgB (001).
- Fate: ``fate_total`` 0..20, ``fate_current`` 0..total (absent means all of them).
- Melee damage is written without SB, as the books print it; the attack adds the wielder's SB
  (004, step four): ``ImperialWeapon.adds_strength_bonus``. An absent ``loaded`` is a full clip.
  A melee weapon with a range can be thrown that far and then needs a fire mode.
- Training: "<Class> [Weapon] Training [(Group/Group)]" trains a weapon class (Pistol Training
  (Las), Melee Weapon Training (Chain/Primitive)); with groups, only those groups; a weapon with
  no group only needs its class. Grenades (group "Grenade") need none; untrained is -20 (001).
  "Two-Weapon Wielder (Melee)" / "(Ballistic)" / "(Melee/Ballistic)" and "Ambidextrous" are read
  by name: off-hand -20 unless ambidextrous; attacking with both -20, -10 if ambidextrous (004).
- ``armour`` lists the pieces worn (catalog entries); ``armour_points`` may type the points per
  location (a stat block, natural armour, an override). Untyped, each location takes the best
  piece there: the books do not add armour up, and Dark Heresy's house rule of "two layers"
  (001) does not say how they would.
- Sealed armour (004: on fire, the Willpower test is passed in completely sealed armour): a
  piece's ``sealed`` (the catalog's power armour), or the sheet's ``sealed_armour`` where the
  GM says so (a stat block with typed armour points; a piece that is not); ``in_sealed_armour``.
- Size: ``size`` a category of the game's ``sizes.yaml`` (its id, English or Spanish name:
  "Hulking", "Corpulento"; the id is kept) or a whole number, the modifier to hit it as the
  attack's circumstance took it before (-60..60); absent, the default (Average). The rules
  (``systems.imperial.sizes``) give the attack its modifier.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from gmkit.messages import Message
from gmkit.sheets import _percentile as d100
from gmkit.sheets._fields import Refusal, Whole, at_most, fill_absent, ranged
from gmkit.sheets._labels import weapon_class
from gmkit.sheets._percentile import ArmourPoints, Count, ImperialArmour
from gmkit.sheets.base import Model, Name, Sheet

_SHOOTERS = ("pistol", "basic", "heavy")
_CLASSES = ("melee", "pistol", "basic", "heavy", "thrown")
Wounds = Annotated[Whole, ranged(1, 1000)]
Critical = Annotated[Whole, ranged(0, 10)]
Small = Annotated[Whole, ranged(0, 20)]


class ImperialWeapon(Model):
    """A Dark Heresy / Deathwatch weapon, as its book's table prints it."""

    model_config = ConfigDict(validate_default=True)
    QUALITIES: ClassVar[Mapping[str, bool]] = d100.IMPERIAL_QUALITIES

    name: Name
    weapon_class: Annotated[d100.WeaponClass, BeforeValidator(d100.lower_text)]
    group: d100.Group = Field("", description="training group: Las, SP, Bolt, Chain, Grenade ...")
    range: Count = Field(0, description="metres; for a melee weapon, how far it can be thrown")
    rof: d100.RateOfFire = "-/-/-"
    damage: str
    damage_type: Annotated[d100.DamageType, BeforeValidator(d100.damage_type_name)] = "Impact"
    pen: Annotated[Whole, ranged(0, 30)] = 0
    clip: Count = 0
    loaded: Annotated[Count, at_most("clip", "sheets.loaded_past_clip")] = 0
    reload: d100.Reload = "-"
    qualities: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _full_clip(cls, data: Any) -> Any:
        return fill_absent(data, "loaded", "clip", 0)

    @field_validator("range")
    @classmethod
    def _range(cls, value: int, info: ValidationInfo) -> int:
        kind = info.data.get("weapon_class")
        if kind in (*_SHOOTERS, "thrown") and value < 1:
            raise Refusal(Message("sheets.weapon_needs_range", kind=weapon_class(kind)))
        return value

    @field_validator("rof")
    @classmethod
    def _rof_fits_class(cls, value: str, info: ValidationInfo) -> str:
        kind, reach = info.data.get("weapon_class"), info.data.get("range", 0)
        if kind == "melee" and not reach and value != "-/-/-":
            raise Refusal(Message("sheets.melee_has_no_rof"))
        if kind is not None and (kind != "melee" or reach) and value == "-/-/-":
            raise Refusal(Message("sheets.needs_fire_mode"))
        return value

    @field_validator("damage")
    @classmethod
    def _damage(cls, value: str) -> str:
        return d100.check_damage(value, d100.IMPERIAL_BONUS_NAMES, dice=True)

    @field_validator("clip")
    @classmethod
    def _clip(cls, value: int, info: ValidationInfo) -> int:
        kind = info.data.get("weapon_class")
        if kind == "melee" and value:
            raise Refusal(Message("sheets.melee_has_no_clip"))
        if kind in _SHOOTERS and value < 1:
            raise Refusal(Message("sheets.weapon_needs_clip", kind=weapon_class(kind)))
        return value

    @field_validator("qualities")
    @classmethod
    def _qualities(cls, value: list[str]) -> list[str]:
        return d100.check_qualities(value, cls.QUALITIES, d100.IMPERIAL_EXCLUSIVE)

    @property
    def single(self) -> bool:
        return d100.parse_rof(self.rof)[0]

    @property
    def semi(self) -> int:
        """Most hits of a semi-auto burst (0: no such mode)."""
        return d100.parse_rof(self.rof)[1]

    @property
    def full(self) -> int:
        """Most hits of a full-auto burst (0: no such mode)."""
        return d100.parse_rof(self.rof)[2]

    @property
    def is_ranged(self) -> bool:
        return self.weapon_class != "melee"

    @property
    def adds_strength_bonus(self) -> bool:
        """Melee hits add the wielder's SB (004, step four)."""
        return self.weapon_class == "melee"

    @property
    def two_handed(self) -> bool:
        """Basic and heavy weapons take both hands (001; basic one-handed at -20)."""
        return self.weapon_class in ("basic", "heavy")

    @property
    def reload_half_actions(self) -> int | None:
        return d100.reload_half_actions(self.reload)

    def quality(self, name: str) -> int | bool:
        """This weapon's quality ``name``: its number, True, or False if it lacks it."""
        return d100.quality_value(self.qualities, name)


class SealedArmour(ImperialArmour):
    """A piece of armour that may be completely sealed (power armour: 004's fire)."""

    sealed: bool = Field(False, description="completely sealed: on fire, WP passes (004)")


def _size(game: str, value: Any) -> str | int | None:
    """A sheet's ``size`` as kept: a category's id, a whole number, or None (the default)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    from gmkit.systems._imperial import sizes  # the rules read the sheets' models

    found = sizes.read(game, value)
    if found is None:
        raise Refusal(sizes.refusal(game))
    return found


class ImperialCharacter(Sheet):
    """A Dark Heresy or Deathwatch character; subclasses set ``game`` and their models."""

    weapon_model: ClassVar[type] = ImperialWeapon
    armour_model: ClassVar[type] = ImperialArmour
    UNIVERSAL_TRAINING: ClassVar[frozenset[str]] = frozenset()

    characteristics: d100.ImperialCharacteristics
    unnatural: d100.Unnatural = d100.Unnatural()
    wounds: Wounds
    damage: Annotated[Count, at_most("wounds", "sheets.damage_past_wounds", full_follows=False)] = (
        Field(0, description="damage taken, up to wounds")
    )
    critical_damage: Critical = 0
    fatigue: Small = 0
    fate_total: Small = 0
    fate_current: Annotated[Small, at_most("fate_total")] = 0
    armour: list[ImperialArmour] = Field(default_factory=list, description="pieces worn")
    armour_points: ArmourPoints | None = Field(None, description="typed; absent: from armour")
    sealed_armour: bool | None = Field(None, description="sealed; absent: from the pieces worn")
    size: str | int | None = Field(None, description="size category or modifier; absent: Average")
    weapons: list[ImperialWeapon] = Field(default_factory=list)
    talents: d100.Tags = Field(default_factory=list)
    traits: d100.Tags = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _all_fate(cls, data: Any) -> Any:
        return fill_absent(data, "fate_current", "fate_total", 0)

    @field_validator("size", mode="before")
    @classmethod
    def _size(cls, value: Any) -> str | int | None:
        game = cls.model_fields["game"].default
        return _size(game if game in ("dark_heresy", "deathwatch") else "deathwatch", value)

    @property
    def in_sealed_armour(self) -> bool:
        """Whether the character wears completely sealed armour: the sheet's ``sealed_armour``
        when given, else any piece worn that is ``sealed``."""
        if self.sealed_armour is not None:
            return self.sealed_armour
        return any(getattr(piece, "sealed", False) for piece in self.armour)

    # --- derived values ------------------------------------------------------------------

    def bonus(self, key: str) -> int:
        """Characteristic ``key``'s bonus: tens digit times its unnatural multiplier."""
        value, multiplier = getattr(self.characteristics, key), getattr(self.unnatural, key)
        return d100.bonus_of(int(value)) * int(multiplier)

    def bonuses(self) -> dict[str, int]:
        """The named bonuses dice expressions may use: WSB, BSB, SB, TB, AgB, IntB, ..."""
        return {f"{key}B": self.bonus(key) for key in d100.IMPERIAL_KEYS}

    @property
    def movement(self) -> dict[str, int]:
        """Metres per half move, full move, charge and run."""
        agility = self.bonus("Ag")
        return {"half": agility, "full": 2 * agility, "charge": 3 * agility, "run": 6 * agility}

    @property
    def effective_armour(self) -> ArmourPoints:
        """``armour_points`` if typed, else the best points of the pieces at each location."""
        if self.armour_points is not None:
            return self.armour_points
        return ArmourPoints.worn((piece.points for piece in self.armour), stack=False)

    def armour_at(self, location: d100.Location) -> int:
        """Armour points protecting ``location``."""
        return self.effective_armour.at(location)

    @property
    def wounds_remaining(self) -> int:
        return self.wounds - self.damage

    @property
    def damage_state(self) -> str:
        """unharmed, lightly damaged, heavily damaged or critically damaged."""
        if self.critical_damage:
            return "critically damaged"
        if self.damage > 2 * self.bonus("T"):
            return "heavily damaged"
        return "lightly damaged" if self.damage else "unharmed"

    @property
    def seriously_wounded(self) -> bool:
        return self.damage_state in ("heavily damaged", "critically damaged")

    @property
    def critically_damaged(self) -> bool:
        return self.critical_damage > 0

    @property
    def fatigue_penalty(self) -> int:
        """-10 to every test with any fatigue."""
        return -10 if self.fatigue else 0

    @property
    def unconscious_from_fatigue(self) -> bool:
        return self.fatigue > self.bonus("T")

    @property
    def unconscious_minutes(self) -> int:
        """How long too much fatigue knocks the character out: 10 - TB, at least 1."""
        return max(1, 10 - self.bonus("T"))

    @property
    def ambidextrous(self) -> bool:
        return d100.talent_specialities(self.talents, "Ambidextrous") is not None

    @property
    def two_weapon_wielder(self) -> tuple[str, ...]:
        """Melee and/or Ballistic: the kinds of Two-Weapon Wielder the character has."""
        kinds = d100.talent_specialities(self.talents, "Two-Weapon Wielder") or frozenset()
        return tuple(sorted(k.capitalize() for k in kinds & {"melee", "ballistic"}))

    @property
    def off_hand_penalty(self) -> int:
        return 0 if self.ambidextrous else -20

    @property
    def two_weapon_penalty(self) -> int:
        """Attacking with both weapons (with the talent): -20, or -10 if ambidextrous."""
        return -10 if self.ambidextrous else -20

    @property
    def weapon_training(self) -> dict[str, list[str]]:
        """Weapon class -> trained groups (lower case; "*" for every group)."""
        universal = d100.talent_specialities(self.talents, *self.UNIVERSAL_TRAINING) is not None
        found: dict[str, list[str]] = {}
        for kind in _CLASSES:
            names = (f"{kind} training", f"{kind} weapon training")
            groups = d100.talent_specialities(self.talents, *names)
            if universal or groups is not None:
                every = universal or not groups or "universal" in groups
                found[kind] = ["*"] if every or groups is None else sorted(groups)
        return found

    def trained(self, weapon: ImperialWeapon) -> bool:
        """Whether a talent trains the character in ``weapon``."""
        group = weapon.group.casefold()
        if group in ("grenade", "grenades"):
            return True
        groups = self.weapon_training.get(weapon.weapon_class, [])
        return bool(groups) and ("*" in groups or not group or group in groups)

    def untrained_penalty(self, weapon: ImperialWeapon) -> int:
        return 0 if self.trained(weapon) else -20

    def summary(self) -> dict[str, Any]:
        """The nine characteristics, wounds left of total, body armour, weapons."""
        line: dict[str, Any] = {
            key: getattr(self.characteristics, key) for key in d100.IMPERIAL_KEYS
        }
        line["W"] = f"{self.wounds_remaining}/{self.wounds}"
        line["AP body"] = self.armour_at("body")
        line["weapons"] = ", ".join(weapon.name for weapon in self.weapons) or "-"
        return line

    def derived(self) -> dict[str, Any]:
        return {
            "bonuses": self.bonuses(),
            "armour_points": self.effective_armour.model_dump(),
            "movement": self.movement,
            "initiative_bonus": self.bonus("Ag"),
            "wounds_remaining": self.wounds_remaining,
            "damage_state": self.damage_state,
            "seriously_wounded": self.seriously_wounded,
            "critically_damaged": self.critically_damaged,
            "fatigue_penalty": self.fatigue_penalty,
            "unconscious_from_fatigue": self.unconscious_from_fatigue,
            "unconscious_minutes": self.unconscious_minutes,
            "ambidextrous": self.ambidextrous,
            "two_weapon_wielder": list(self.two_weapon_wielder),
            "off_hand_penalty": self.off_hand_penalty,
            "weapon_training": self.weapon_training,
        }
