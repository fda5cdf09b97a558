"""Warhammer Fantasy Battle 6e rule data: targeting around characters and shot modifiers.

Two tables under ``systems/data/wfb6/``, each replaceable whole by a GM through
``GMKIT_DATA_PATH`` (:func:`gmkit.systems.tables.table`):

- ``targeting.yaml`` (:func:`targeting_rules`): the 12 cm of Proximity to friendly troops,
  the 5 models that screen a character or take a unit's hits, the "Look out, Sir!" roll, the
  reading of "closest legal target", and the kinds of attack (missile, magic missile, other
  spells, templates, cannon, breath, template spells) with how each picks its target.
- ``shooting.yaml`` (:func:`shooting_rules`): the to-hit modifier catalog, the armour save
  modifier by Strength and the weapon rules the resolver reads (armour piercing, move or fire).

Both are validated on reading; an error names the file and the field.
"""

from __future__ import annotations

from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gmkit.errors import GmkitError
from gmkit.sheets.wfb6 import Weapon
from gmkit.systems.base import Modifier
from gmkit.systems.tables import table

Reading = Literal["near_character", "battlefield"]


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


_DataT = TypeVar("_DataT", bound=_Data)


class AttackKind(_Data):
    """How one kind of attack picks its target (``targeting.yaml``, ``attack_kinds``)."""

    id: str = ""
    targets: Literal["models", "points"]
    proximity: bool
    look_out_sir: bool
    to_hit: Literal["roll", "automatic", "template"]


class LookOutSirRule(_Data):
    needed: int = Field(ge=2, le=6)
    troops: int = Field(ge=1)


class TargetingRules(_Data):
    """``targeting.yaml``: see the comments in the file."""

    proximity_cm: float = Field(ge=0)
    screen_models: int = Field(ge=1)
    closest_reading: Reading
    unit_models: int = Field(ge=1)
    look_out_sir: LookOutSirRule
    attack_kinds: dict[str, AttackKind]
    weapon_specials: dict[str, str]
    shoots_into_combat: list[str] = Field(default_factory=list)

    def kind(self, attack: str) -> AttackKind:
        """The attack kind ``attack`` (an id of ``attack_kinds``), or GmkitError naming them."""
        if attack not in self.attack_kinds:
            known = ", ".join(self.attack_kinds)
            raise GmkitError(f"unknown kind of attack {attack!r}; known: {known}")
        return self.attack_kinds[attack].model_copy(update={"id": attack})

    def kind_of(self, weapon: Weapon, mode: str | None = None) -> AttackKind:
        """The kind of attack ``weapon`` makes: ``mode`` when it names a kind, else the first
        special rule of the weapon that names one, else ``missile``."""
        if mode in self.attack_kinds:
            return self.kind(mode)
        specials = {name.casefold(): kind for name, kind in self.weapon_specials.items()}
        for rule in weapon.special:
            if rule.casefold() in specials:
                return self.kind(specials[rule.casefold()])
        return self.kind("missile")


class ToHitEntry(_Data):
    id: str
    name: str
    value: int
    automatic: bool = False

    def modifier(self, value: int | None = None) -> Modifier:
        return Modifier(self.name, self.value if value is None else value)


class ShootingRules(_Data):
    """``shooting.yaml``: see the comments in the file."""

    to_hit: list[ToHitEntry]
    save_by_strength: dict[int, int]
    save_specials: dict[str, int] = Field(default_factory=dict)
    move_or_fire: list[str] = Field(default_factory=list)

    def entry(self, entry_id: str) -> ToHitEntry:
        for entry in self.to_hit:
            if entry.id == entry_id:
                return entry
        raise GmkitError(f"shooting.yaml has no to-hit modifier {entry_id!r}")

    def save_modifiers(self, strength: int, weapon: Weapon) -> tuple[Modifier, ...]:
        """The armour save modifiers of a hit of ``strength`` from ``weapon``."""
        found: list[Modifier] = []
        if self.save_by_strength.get(strength):
            found.append(Modifier(f"Strength {strength}", self.save_by_strength[strength]))
        specials = {name.casefold(): value for name, value in self.save_specials.items()}
        found += [
            Modifier(rule, specials[rule.casefold()])
            for rule in weapon.special
            if rule.casefold() in specials
        ]
        return tuple(found)

    def moves_or_fires(self, weapon: Weapon) -> bool:
        rules = {name.casefold() for name in self.move_or_fire}
        return any(rule.casefold() in rules for rule in weapon.special)


def _load(cls: type[_DataT], name: str) -> _DataT:
    try:
        return cls.model_validate(table("wfb6", name))
    except ValidationError as error:
        problems = "; ".join(
            ".".join(str(part) for part in item["loc"]) + ": " + item["msg"]
            for item in error.errors(include_url=False)
        )
        raise GmkitError(f"wfb6 table {name}.yaml: {problems}") from None


def targeting_rules() -> TargetingRules:
    """The validated ``targeting.yaml`` (packaged, or the GM's on ``GMKIT_DATA_PATH``)."""
    return _load(TargetingRules, "targeting")


def shooting_rules() -> ShootingRules:
    """The validated ``shooting.yaml`` (packaged, or the GM's on ``GMKIT_DATA_PATH``)."""
    return _load(ShootingRules, "shooting")
