"""Deathwatch sheets: battle-brothers, adversaries by tier, and hordes with a magnitude.

A Deathwatch character is the Imperial character Dark Heresy has too (``gmkit.sheets._imperial``)
with Deathwatch's weapon qualities, enemy tiers and hordes (seed 004). Choices where 004 is
silent:

- Critical damage is what exceeds wounds (004, step five), so a sheet with critical damage must
  have taken damage equal to its wounds; Dark Heresy's house rule, which allows otherwise, does
  not apply here.
- Unnatural characteristics multiply the bonus (Unnatural Strength x2: S 45 -> SB 8), and so
  reach movement (AgB) and fatigue (TB).
- "Astartes Weapon Training" trains every weapon class and group (004 names no training rule);
  the class trainings of Dark Heresy are read too.
- ``tier`` is "troop", "elite" or "master" for an adversary (004, Adversaries) and "character"
  for a battle-brother or anyone outside the tiers.
- A horde is a ``DeathwatchCharacter`` with ``horde`` set: its profile and weapons are one of
  its members', ``horde.magnitude`` stands for its wounds and ``horde.armour`` is its single
  armour value (004). Only troops form hordes here (004 keeps elites and masters beside them).
  ``magnitude`` may be 0 (destroyed); it may not exceed ``magnitude_max``, the starting value.
- Breaking (004): broken when the magnitude is below 25 % of the starting one; -10 to Willpower
  below 50 %; a Willpower test after losing 25 % of the starting magnitude in one turn
  (``break_test_loss`` is that loss, rounded up). The size bonus to hit a horde by its current
  magnitude (a table the text lost) is the seeds' README ruling, ``HordeRules.size_bonus``.
- A horde's armour: ``horde.armour`` when the sheet gives it; left out, the armour its members
  wear at the body (the sheet's ``armour`` list: an ork mob in flak has the flak's points).
- ``HORDE_RULES`` keeps 004's horde damage facts as data for the resolver (and a GM) to read.
"""

from __future__ import annotations

from math import ceil
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from gmkit.messages import Message
from gmkit.sheets._fields import Refusal, Whole, at_most, fill_absent, ranged
from gmkit.sheets._imperial import ImperialCharacter, ImperialWeapon, SealedArmour
from gmkit.sheets._percentile import IMPERIAL_QUALITIES, quality_table
from gmkit.sheets.base import Model

DEATHWATCH_QUALITIES = {
    **IMPERIAL_QUALITIES,
    **quality_table(
        "Corrosive, Force, Gyro-Stabilised, Indirect, Lance, Melta, Razor Sharp, Sanctified, "
        "Volatile",
        numbered="Concussive, Crippling, Devastating, Hallucinogenic, Haywire, Proven",
    ),
}
"""Deathwatch's weapon qualities: Dark Heresy's and the Astartes armoury's."""

Tier = Literal["character", "troop", "elite", "master"]
Magnitude = Annotated[Whole, ranged(0, 1000)]


class HordeRules(Model):
    """Seed 004's facts about hurting and breaking a horde."""

    magnitude_per_damaging_hit: int = 1
    """Every hit that deals any damage takes this much magnitude, however much damage."""
    explosive_extra_hits: int = 1
    """Explosive damage counts this many extra hits per attack, after all the others."""
    blast_hits_per_point: int = 1
    """A Blast(X) weapon that hits a horde hits it X times."""
    melee_degrees_per_extra_hit: int = 2
    """In melee, one extra hit per this many degrees of success."""
    power_field_extra_hits: int = 1
    """A melee weapon with Power Field deals this many extra hits."""
    flame_range_divisor: int = 4
    """A flame weapon hits ceil(range / 4) times, plus ``flame_extra_hits``."""
    flame_extra_hits: str = "1d5"
    psychic_hits_per_psy_rating: int = 1
    """A psychic power hits once per Psy Rating used."""
    psychic_area_extra_hits: str = "1d10"
    """An area power adds this many hits."""
    uses_hit_locations: bool = False
    single_armour_value: bool = True
    can_catch_fire: bool = False
    ganging_up_bonus: bool = False
    """Many attackers on one horde gain no ganging-up bonus."""
    willpower_bonus_per_magnitude: int = 1
    """Against pinning and fear, a horde adds its magnitude to its Willpower test."""
    break_test_loss_percent: int = 25
    """Losing this share of the starting magnitude in one turn calls for a Willpower test."""
    willpower_penalty_below_percent: int = 50
    willpower_penalty: int = -10
    auto_break_below_percent: int = 25
    size_bonus: tuple[tuple[int, int], ...] = ((30, 10), (60, 20), (90, 30), (120, 40))
    """(from magnitude, bonus to hit): the bonus of the highest step the current magnitude
    reaches, none below the first (the seeds' README ruling; 004 lost the table)."""

    def size_bonus_at(self, magnitude: int) -> int:
        """The bonus to hit a horde of ``magnitude`` (0 below the first step)."""
        reached = [bonus for start, bonus in sorted(self.size_bonus) if magnitude >= start]
        return reached[-1] if reached else 0

    def flame_hits(self, weapon_range: int, d5: int) -> int:
        """Hits of a flame weapon of ``weapon_range`` metres, given the rolled ``d5``."""
        return ceil(weapon_range / self.flame_range_divisor) + d5


HORDE_RULES = HordeRules()


class Horde(Model):
    """A horde's magnitude (its wounds, in effect) and its single armour value."""

    magnitude_max: Annotated[Whole, ranged(1, 1000)]
    magnitude: Annotated[Magnitude, at_most("magnitude_max")]
    armour: Annotated[Whole, ranged(0, 50)] | None = None
    """The horde's single armour value; None: the armour its members wear (at the body)."""

    @model_validator(mode="before")
    @classmethod
    def _full_strength(cls, data: Any) -> Any:
        return fill_absent(data, "magnitude", "magnitude_max")

    def _below(self, percent: int) -> bool:
        return self.magnitude * 100 < self.magnitude_max * percent

    @property
    def destroyed(self) -> bool:
        return self.magnitude == 0

    @property
    def broken(self) -> bool:
        """Below 25 % of its starting magnitude a horde breaks (004)."""
        return self._below(HORDE_RULES.auto_break_below_percent)

    @property
    def willpower_modifier(self) -> int:
        """-10 to Willpower below 50 % of the starting magnitude (004)."""
        below = self._below(HORDE_RULES.willpower_penalty_below_percent)
        return HORDE_RULES.willpower_penalty if below else 0

    @property
    def break_test_loss(self) -> int:
        """Magnitude lost in one turn that calls for a Willpower test (25 %, rounded up)."""
        return ceil(self.magnitude_max * HORDE_RULES.break_test_loss_percent / 100)

    @property
    def resist_bonus(self) -> int:
        """Bonus to Willpower tests against pinning and fear: the current magnitude."""
        return self.magnitude * HORDE_RULES.willpower_bonus_per_magnitude

    def derived(self) -> dict[str, Any]:
        return {
            "destroyed": self.destroyed,
            "broken": self.broken,
            "willpower_modifier": self.willpower_modifier,
            "break_test_loss": self.break_test_loss,
            "resist_bonus": self.resist_bonus,
        }


class Weapon(ImperialWeapon):
    """A Deathwatch weapon."""

    QUALITIES: ClassVar[dict[str, bool]] = DEATHWATCH_QUALITIES


class Armour(SealedArmour):
    """A piece of Deathwatch armour (``sealed``: completely sealed, 004's fire)."""


class DeathwatchCharacter(ImperialCharacter):
    """A battle-brother, an adversary of a tier, or a horde."""

    GAME_TITLE: ClassVar[str] = "Deathwatch"
    weapon_model: ClassVar[type] = Weapon
    armour_model: ClassVar[type] = Armour
    UNIVERSAL_TRAINING: ClassVar[frozenset[str]] = frozenset({"Astartes Weapon Training"})

    game: Literal["deathwatch"] = "deathwatch"
    armour: list[Armour] = Field(default_factory=list)  # type: ignore[assignment]
    weapons: list[Weapon] = Field(default_factory=list)  # type: ignore[assignment]
    tier: Tier = "character"
    horde: Horde | None = None

    @field_validator("critical_damage")
    @classmethod
    def _beyond_wounds(cls, value: int, info: ValidationInfo) -> int:
        wounds, damage = info.data.get("wounds"), info.data.get("damage")
        if value and wounds is not None and damage is not None and damage < wounds:
            raise Refusal(Message("sheets.critical_below_wounds", damage=damage, wounds=wounds))
        return value

    @field_validator("horde")
    @classmethod
    def _troops(cls, value: Horde | None, info: ValidationInfo) -> Horde | None:
        tier = info.data.get("tier")
        if value is not None and tier is not None and tier != "troop":
            raise Refusal(Message("sheets.horde_of_troops", tier=repr(tier)))
        return value

    @property
    def is_horde(self) -> bool:
        return self.horde is not None

    @property
    def horde_armour(self) -> int:
        """A horde's single armour value: ``horde.armour``, else its members' body armour."""
        if self.horde is not None and self.horde.armour is not None:
            return self.horde.armour
        return self.armour_at("body")

    def summary(self) -> dict[str, Any]:
        """The Imperial line, with a horde's magnitude left of its full size."""
        line = super().summary()
        if self.horde is not None:
            line["Mag"] = f"{self.horde.magnitude}/{self.horde.magnitude_max}"
        return line

    def derived(self) -> dict[str, Any]:
        values = {**super().derived(), "tier": self.tier, "is_horde": self.is_horde}
        if self.horde is not None:
            values["horde"] = self.horde.derived()
        return values
