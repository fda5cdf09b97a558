"""Necromunda (1st edition) fighters, weapons, armour and gang types.

Mechanics follow seed 000 and the seed README's rulings; where the texts are silent:

- Profile: M WS BS S T W I A Ld, each 0..10 (the text: "generally 1 to 10"; 0 prints as
  "-"). The defaults are the averages the text gives (M 4, WS/BS/S/T/I 3, W 1, A 1, Ld 7).
- Gang name: the base sheet's ``side``. ``gang_type`` is free text (ids of ``gangs.yaml``
  are suggested, not enforced: the seed names only some of the gangs that exist).
- Status (standing / pinned / down / out of action) belongs to the encounter, which tracks a
  fight. The sheet keeps what outlasts a turn: ``flesh_wounds`` (for the rest of the battle)
  and ``injuries`` (lasting, campaign injuries, free text: the seed has no such table). Wounds
  lost during a fight are the encounter's too.
- Flesh wounds: each is -1 WS and -1 BS, floored at 0. The fighter is out of action when
  flesh wounds have brought both to 0; more than ``max(WS, BS, 1)`` are refused.
- To hit: ``to_hit_target`` is 7 - effective BS, before modifiers (the resolver adds them,
  then applies "never better than 2+"); ``to_hit_needed`` is that number with no modifiers.
- Weapon range bands: short is 0..``short_range`` inches inclusive, long is beyond that up to
  ``long_range`` inclusive (the Arsenal prints "0-8 / 8-16": the shared 8" counts as short).
  Template weapons and close combat weapons have no bands.
- Strength: a number, ``"user"`` or ``"user+N"`` (``"user-N"``): the fighter's S plus N.
  Weapons of effective Strength 7+ are high impact.
- Ammo roll: the number needed on a D6 (``"4+"`` is stored as 4), ``"auto"`` kept as the
  Arsenal prints it (the seed does not define it: the resolver decides), or None for weapons
  that never take one. Close combat weapons take none.
- Save modifier: -6..+6 (beyond that a D6 save cannot change); armour save: 2..6 or None.
- Fighter types: leader, heavy, ganger, juve (the text's "Novato"), hired gun; gang-specific
  titles (a Redemptionist Priest) go in ``gang_type`` / ``notes``.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BeforeValidator, Field, ValidationInfo, field_validator

from gmkit.dice import parse
from gmkit.errors import DiceSyntaxError
from gmkit.messages import Message, as_message
from gmkit.sheets._fields import (
    D6Save,
    D6Target,
    Refusal,
    Strength,
    Whole,
    d6_target,
    ranged,
    unique,
    weapon_strengths,
)
from gmkit.sheets._fields import resolve_strength as resolve_strength  # re-exported
from gmkit.sheets._labels import weapon_class
from gmkit.sheets.base import Model, Name, Sheet, Text

FighterType = Literal["leader", "heavy", "ganger", "juve", "hired gun"]
WeaponKind = Literal["pistol", "basic", "special", "heavy", "close combat", "grenade"]
RangeBand = Literal["short", "long", "out of range"]
PROFILE = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
"""The profile in the order the game prints it."""
HIGH_IMPACT = 7
"""Weapons of this Strength or more take a fighter out of action on 5-6 (seed 000)."""

Stat = Annotated[Whole, ranged(0, 10)]
"""A profile value: 0..10."""


def _ammo(value: Any) -> Any:
    """An ammo roll: as ``d6_target``, or "auto"."""
    if isinstance(value, str) and value.strip().lower() == "auto":
        return "auto"
    try:
        return d6_target(value)
    except ValueError:
        raise Refusal(Message("sheets.ammo_roll")) from None


def _dice(text: str) -> str:
    try:
        parse(text)
    except DiceSyntaxError as error:
        raise Refusal(as_message(error.message)) from None
    return text


DiceText = Annotated[str, AfterValidator(_dice)]


class Weapon(Model):
    """A weapon of the Arsenal: range bands in inches with their to-hit modifiers."""

    name: Name
    kind: WeaponKind = "basic"
    template: bool = False
    short_range: Annotated[int, ranged(1, 120)] | None = Field(None, validate_default=True)
    long_range: Annotated[int, ranged(1, 120)] | None = Field(None, validate_default=True)
    to_hit_short: Annotated[int, ranged(-3, 3)] = 0
    to_hit_long: Annotated[int, ranged(-3, 3)] = 0
    strength: Strength = "user"
    damage: DiceText = "1"
    save_modifier: Annotated[int, ranged(-6, 6)] = 0
    ammo_roll: Annotated[D6Target | Literal["auto"] | None, BeforeValidator(_ammo)] = None
    special: list[Name] = Field(default_factory=list)

    @field_validator("short_range", "long_range", "to_hit_short", "to_hit_long", "ammo_roll")
    @classmethod
    def _fits_kind(cls, value: Any, info: ValidationInfo) -> Any:
        kind, template = info.data.get("kind"), info.data.get("template")
        if kind is None or template is None:
            return value  # already refused on its own field
        if kind == "close combat" or template:
            close = kind == "close combat"
            if info.field_name == "ammo_roll":
                if close and value is not None:
                    raise Refusal(Message("sheets.close_combat_no_ammo_roll"))
            elif value:
                which = "close_combat" if close else "template"
                raise Refusal(Message(f"sheets.{which}_no_range_bands"))
        elif info.field_name in ("short_range", "long_range") and value is None:
            raise Refusal(Message("sheets.weapon_needs_range_bands", kind=weapon_class(kind)))
        short = info.data.get("short_range")
        if info.field_name == "long_range" and None not in (value, short) and value <= short:
            raise Refusal(Message("sheets.more_than_short_range", short=short))
        return value

    def range_band(self, distance: float) -> RangeBand | None:
        """The band a target ``distance`` inches away falls in; None for template/melee."""
        if distance < 0:
            raise Refusal(Message("sheets.negative_distance", distance=distance))
        if self.short_range is None or self.long_range is None:
            return None
        if distance <= self.short_range:
            return "short"
        return "long" if distance <= self.long_range else "out of range"

    def range_modifier(self, distance: float) -> int | None:
        """The to-hit modifier at ``distance``; None when the shot is out of range."""
        band = self.range_band(distance)
        if band == "out of range":
            return None
        return {"short": self.to_hit_short, "long": self.to_hit_long}.get(band or "", 0)


class Armour(Model):
    """Armour worn by a fighter: the D6 roll that saves (``"4+"`` is stored as 4)."""

    name: Name
    save: D6Save = None
    special: list[Name] = Field(default_factory=list)


def _identifier(value: str) -> str:
    if not re.fullmatch(r"[a-z][a-z0-9_]*", value):
        raise Refusal(Message("sheets.identifier"))
    return value


class StatLine(Model):
    """A fighter type's starting profile in ``gangs.yaml``; ``example`` marks invented lines."""

    fighter_type: FighterType
    title: Name
    M: Stat
    WS: Stat
    BS: Stat
    S: Stat
    T: Stat
    W: Stat
    I: Stat  # noqa: E741 - the rules' own name for Initiative
    A: Stat
    Ld: Stat
    example: bool = False
    source: Text = ""


class GangType(Model):
    """One gang type of ``gangs.yaml``: what the seed says of its nature, in our words."""

    id: Annotated[str, AfterValidator(_identifier)]
    name: Name
    name_es: Text = ""
    group: Text = ""
    outlaw: bool | None = None
    leader: Text = ""
    nature: list[Text] = Field(default_factory=list)
    profiles: list[StatLine] = Field(default_factory=list)


class NecromundaFighter(Sheet):
    """A gang fighter. Derived values are properties; see the module docstring for choices."""

    GAME_TITLE: ClassVar[str] = "Necromunda"
    weapon_model: ClassVar[type] = Weapon
    armour_model: ClassVar[type] = Armour

    game: Literal["necromunda"] = "necromunda"
    gang_type: Text = ""
    fighter_type: FighterType = "ganger"
    M: Stat = 4
    WS: Stat = 3
    BS: Stat = 3
    S: Stat = 3
    T: Stat = 3
    W: Stat = 1
    I: Stat = 3  # noqa: E741 - the rules' own name for Initiative
    A: Stat = 1
    Ld: Stat = 7
    weapons: Annotated[list[Weapon], unique("sheets.weapon_twice")] = Field(default_factory=list)
    armour: Armour | None = None
    skills: Annotated[list[Name], unique("sheets.skill_twice")] = Field(default_factory=list)
    injuries: Annotated[list[Name], unique("sheets.injury_twice")] = Field(
        default_factory=list, description="lasting injuries"
    )
    flesh_wounds: Stat = 0

    @field_validator("flesh_wounds")
    @classmethod
    def _not_past_out_of_action(cls, value: int, info: ValidationInfo) -> int:
        ws, bs = info.data.get("WS"), info.data.get("BS")
        if ws is not None and bs is not None and value > (most := max(ws, bs, 1)):
            raise Refusal(Message("sheets.flesh_wounds_past_out_of_action", most=most))
        return value

    @property
    def effective_ws(self) -> int:
        """WS after flesh wounds (-1 each, never below 0)."""
        return max(0, self.WS - self.flesh_wounds)

    @property
    def effective_bs(self) -> int:
        """BS after flesh wounds (-1 each, never below 0)."""
        return max(0, self.BS - self.flesh_wounds)

    @property
    def out_of_action(self) -> bool:
        """Flesh wounds have brought both WS and BS to 0: out of action through blood loss."""
        return self.flesh_wounds > 0 and self.effective_ws == 0 and self.effective_bs == 0

    @property
    def to_hit_target(self) -> int:
        """7 - effective BS: the number modifiers are applied to."""
        return 7 - self.effective_bs

    @property
    def to_hit_needed(self) -> int:
        """The D6 roll needed with no modifiers: never better than 2; 7+ means a 6 then more."""
        return max(2, self.to_hit_target)

    @property
    def run_distance(self) -> int:
        """Inches when running or charging: double M."""
        return 2 * self.M

    @property
    def armour_save(self) -> int | None:
        return self.armour.save if self.armour else None

    @property
    def weapon_strengths(self) -> dict[str, int]:
        """Each weapon's Strength with "user" resolved against this fighter's S."""
        return weapon_strengths(self.weapons, self.S)

    @property
    def high_impact_weapons(self) -> list[str]:
        """Weapons of Strength 7+ in this fighter's hands."""
        return [name for name, s in self.weapon_strengths.items() if s >= HIGH_IMPACT]

    def spotting_range(self, multiplier: int = 1) -> int:
        """Inches within which this fighter spots hidden enemies (I x the system's setting)."""
        return self.I * multiplier

    def summary(self) -> dict[str, Any]:
        """M WS BS S T W I A Ld (WS and BS after flesh wounds), save, weapons."""
        line: dict[str, Any] = {key: getattr(self, key) for key in PROFILE}
        line.update(WS=self.effective_ws, BS=self.effective_bs)
        line["Sv"] = f"{self.armour_save}+" if self.armour_save else "-"
        line["weapons"] = ", ".join(weapon.name for weapon in self.weapons) or "-"
        return line

    def derived(self) -> dict[str, Any]:
        return {
            "effective_ws": self.effective_ws,
            "effective_bs": self.effective_bs,
            "out_of_action": self.out_of_action,
            "to_hit_target": self.to_hit_target,
            "to_hit_needed": self.to_hit_needed,
            "run_distance": self.run_distance,
            "armour_save": self.armour_save,
            "weapon_strengths": self.weapon_strengths,
            "high_impact_weapons": self.high_impact_weapons,
        }

    def bonuses(self) -> dict[str, int]:
        """Names dice expressions may use: the fighter's Strength."""
        return {"S": self.S}
