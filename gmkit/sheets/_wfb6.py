"""Warhammer Fantasy Battle (6th edition) models: characters, champions and rank and file.

Mechanics follow seed 003 (characters shooting and being shot) and the seed README. The sheet
class is :class:`WFB6Character` (``WFB6Model`` is an alias): one model on the table, which a
GM mostly keeps for characters but which serves champions and rank and file as well.

Where the texts are silent:

- Profile: M WS BS S T W I A Ld. M is in centimetres, the unit of the Spanish texts (a human
  moves 10), 0..60; every other value is 0..10 (0 prints as "-").
- Troop types are the seed's size ladder, kept as data in ``troop_types.yaml`` (read once
  from the package; the ids there are the only accepted ``troop_type`` values). A model and
  its mount are one model: a knight is ``cavalry``, a character on a dragon is ``monster``.
- Large target: ``large_target`` None takes the troop type's default (monsters are large
  targets); True or False overrides it. A large target is on the top rung of the ladder.
- Unit membership: ``role`` is rank and file, champion or character; ``unit`` names the unit
  the model belongs to or has joined (empty: a lone character; rank and file and champions
  always belong to one). How many models a unit has left is the encounter's, so the rules
  that count to 5 (proximity, hits inside small units, "Look out, Sir!") are decided there;
  the sheet gives them the model's size and role.
- ``mount`` names the mount; troop types say whether a mount is required, allowed or not.
- Missile weapons: range in cm (None: a close combat weapon), Strength as a number or
  ``"user"`` / ``"user+N"``, shots per turn, special rules as strings.
- Armour: a piece either gives a save (light armour 6+) or improves one (a shield +1); at most
  one piece gives a save. ``armour_save`` is the resulting roll needed before any modifier
  (it may reach 1 or less; the resolver applies the Strength modifiers).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Annotated, Any, ClassVar, Literal

import yaml
from pydantic import AfterValidator, Field, ValidationInfo, field_validator

from gmkit.messages import Message
from gmkit.sheets._fields import (
    D6Save,
    Refusal,
    Strength,
    Whole,
    check_unique,
    ranged,
    unique,
    weapon_strengths,
)
from gmkit.sheets._fields import resolve_strength as resolve_strength  # re-exported
from gmkit.sheets.base import Model, Name, Sheet, Text

Role = Literal["rank and file", "champion", "character"]
PROFILE = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
"""The profile in the order the game prints it."""
TOP_SIZE = 6
"""The ladder's top rung: monsters and any model with the Large Target rule."""

Stat = Annotated[Whole, ranged(0, 10)]


class TroopType(Model):
    """One rung entry of ``troop_types.yaml``."""

    id: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    name: Name
    name_es: Text = ""
    size: Annotated[Whole, ranged(1, TOP_SIZE)]
    large_target: bool = False
    mount: Literal["required", "allowed", "none"] = "none"


@cache
def troop_types() -> dict[str, TroopType]:
    """The packaged troop-type ladder by id, smallest first (validated once)."""
    path = resources.files("gmkit").joinpath("systems", "data", "wfb6", "troop_types.yaml")
    entries = yaml.safe_load(path.read_text("utf-8"))
    ladder = {entry["id"]: TroopType.model_validate(entry) for entry in entries}
    sizes = [kind.size for kind in ladder.values()]
    if sizes != sorted(sizes) or len(ladder) != len(entries):
        raise Refusal(Message("sheets.troop_types_order"))
    return ladder


def size_rank(troop_type: str, large_target: bool | None = None) -> int:
    """The ladder rung of a troop type; a large target is always on the top rung."""
    kind = troop_types()[troop_type]
    flagged = kind.large_target if large_target is None else large_target
    return TOP_SIZE if flagged else kind.size


def _known_troop_type(value: str) -> str:
    if value not in troop_types():
        raise Refusal(Message("sheets.one_of", choices=tuple(troop_types())))
    return value


class Weapon(Model):
    """A weapon: missile weapons have a range in cm; close combat weapons have none."""

    name: Name
    range_cm: Annotated[Whole, ranged(1, 500)] | None = None
    strength: Strength = "user"
    shots: Annotated[Whole, ranged(1, 10)] = 1
    special: list[Name] = Field(default_factory=list)

    @property
    def is_missile(self) -> bool:
        return self.range_cm is not None

    def in_range(self, distance_cm: float) -> bool:
        """Whether a target ``distance_cm`` away is within range (False for melee weapons)."""
        if distance_cm < 0:
            raise Refusal(Message("sheets.negative_distance", distance=distance_cm))
        return self.range_cm is not None and distance_cm <= self.range_cm


class Armour(Model):
    """Armour: ``save`` it gives on its own (light 6+), or ``improves`` a save (shield 1)."""

    name: Name
    save: D6Save = None
    improves: Annotated[Whole, ranged(0, 3)] = 0
    special: list[Name] = Field(default_factory=list)


class WFB6Character(Sheet):
    """A model of a Warhammer army; see the module docstring for the choices made."""

    GAME_TITLE: ClassVar[str] = "Warhammer Fantasy Battle (6th edition)"
    weapon_model: ClassVar[type] = Weapon
    armour_model: ClassVar[type] = Armour

    game: Literal["wfb6"] = "wfb6"
    M: Annotated[Whole, ranged(0, 60)] = 10
    WS: Stat = 3
    BS: Stat = 3
    S: Stat = 3
    T: Stat = 3
    W: Stat = 1
    I: Stat = 3  # noqa: E741 - the rules' own name for Initiative
    A: Stat = 1
    Ld: Stat = 7
    troop_type: Annotated[str, AfterValidator(_known_troop_type)] = "infantry"
    large_target: bool | None = None
    role: Role = "character"
    unit: Text = Field("", validate_default=True)
    mount: Text = Field("", validate_default=True)
    weapons: Annotated[list[Weapon], unique("sheets.weapon_twice")] = Field(default_factory=list)
    armour: list[Armour] = Field(default_factory=list)
    special_rules: Annotated[list[Name], unique("sheets.special_rule_twice")] = Field(
        default_factory=list
    )

    @field_validator("unit")
    @classmethod
    def _unit_for_troops(cls, unit: str, info: ValidationInfo) -> str:
        role = info.data.get("role")
        if not unit and role in ("rank and file", "champion"):
            which = "rank_and_file" if role == "rank and file" else "champion"
            raise Refusal(Message(f"sheets.{which}_needs_unit"))
        return unit

    @field_validator("mount")
    @classmethod
    def _mount_fits_troop_type(cls, mount: str, info: ValidationInfo) -> str:
        troop_type = info.data.get("troop_type")
        if troop_type is None:
            return mount  # already refused on its own field
        policy = troop_types()[troop_type].mount
        if mount and policy == "none":
            raise Refusal(Message("sheets.rides_no_mount", troop_type=repr(troop_type)))
        if not mount and policy == "required":
            raise Refusal(Message("sheets.needs_mount", troop_type=repr(troop_type)))
        return mount

    @field_validator("armour")
    @classmethod
    def _one_base_save(cls, armour: list[Armour]) -> list[Armour]:
        check_unique(armour, "sheets.armour_twice")
        if len([piece for piece in armour if piece.save is not None]) > 1:
            raise Refusal(Message("sheets.one_base_save"))
        return armour

    @property
    def is_large_target(self) -> bool:
        """The sheet's flag, or the troop type's default when the flag is unset."""
        if self.large_target is not None:
            return self.large_target
        return troop_types()[self.troop_type].large_target

    @property
    def size_rank(self) -> int:
        """The rung on the size ladder (1 swarm .. 6 monsters and large targets)."""
        return size_rank(self.troop_type, self.is_large_target)

    @property
    def mounted(self) -> bool:
        return bool(self.mount)

    @property
    def is_lone_character(self) -> bool:
        """A character not with a unit: a unit of one model, free to move and shoot."""
        return self.role == "character" and not self.unit

    @property
    def counts_as_infantry_character(self) -> bool:
        """A man-sized character: infantry, on foot, not a large target."""
        return (
            self.role == "character"
            and self.troop_type == "infantry"
            and not self.mounted
            and not self.is_large_target
        )

    @property
    def shot_at_modifier(self) -> int:
        """To-hit modifier for shooting at this model: +1 large target; -1 lone infantry
        character (the text's case); 0 otherwise."""
        if self.is_large_target:
            return 1
        return -1 if self.is_lone_character and self.counts_as_infantry_character else 0

    @property
    def look_out_sir_candidate(self) -> bool:
        """A character or champion inside a unit: may take "Look out, Sir!" when the unit
        has 5+ rank and file of its size or larger (the encounter counts them)."""
        return self.role in ("character", "champion") and bool(self.unit)

    @property
    def weapon_strengths(self) -> dict[str, int]:
        """Each weapon's Strength with "user" resolved against this model's S."""
        return weapon_strengths(self.weapons, self.S)

    @property
    def armour_save(self) -> int | None:
        """The D6 roll that saves before modifiers; None without armour."""
        if not self.armour:
            return None
        base = min((piece.save for piece in self.armour if piece.save is not None), default=7)
        return base - sum(piece.improves for piece in self.armour)

    def same_size_or_larger(self, other_size_rank: int) -> bool:
        """Whether a model of ``other_size_rank`` is this model's size or larger (it screens
        this character for proximity and "Look out, Sir!")."""
        return other_size_rank >= self.size_rank

    def summary(self) -> dict[str, Any]:
        """M WS BS S T W I A Ld, save, role and unit, weapons."""
        line: dict[str, Any] = {key: getattr(self, key) for key in PROFILE}
        save = self.armour_save
        line["Sv"] = f"{max(save, 2)}+" if save is not None else "-"
        line["role"] = f"{self.role} ({self.unit})" if self.unit else self.role
        line["weapons"] = ", ".join(weapon.name for weapon in self.weapons) or "-"
        return line

    def derived(self) -> dict[str, Any]:
        return {
            "is_large_target": self.is_large_target,
            "size_rank": self.size_rank,
            "mounted": self.mounted,
            "is_lone_character": self.is_lone_character,
            "counts_as_infantry_character": self.counts_as_infantry_character,
            "shot_at_modifier": self.shot_at_modifier,
            "look_out_sir_candidate": self.look_out_sir_candidate,
            "weapon_strengths": self.weapon_strengths,
            "armour_save": self.armour_save,
        }

    def bonuses(self) -> dict[str, int]:
        """Names dice expressions may use: the model's Strength."""
        return {"S": self.S}


WFB6Model = WFB6Character
"""The name the design brief used; the same class."""
