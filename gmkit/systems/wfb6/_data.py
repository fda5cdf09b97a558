"""Warhammer Fantasy Battle 6e rule data: targeting around characters and shot modifiers.

Two tables under ``systems/data/wfb6/``, each replaceable whole by a GM through
``GMKIT_DATA_PATH`` (:func:`gmkit.systems._tables.table`):

- ``targeting.yaml`` (:func:`targeting_rules`): the 12 cm of Proximity to friendly troops,
  the 5 models that screen a character or take a unit's hits, the "Look out, Sir!" roll, the
  reading of "closest legal target", and the kinds of attack (missile, magic missile, other
  spells, templates, cannon, breath, template spells) with how each picks its target.
- ``shooting.yaml`` (:func:`shooting_rules`): the to-hit modifier catalog, the armour save
  modifier by Strength and the weapon rules the resolver reads (armour piercing, move or fire).

Both are validated on reading; an error names the file and the field. The names a GM sees
(to-hit modifiers, kinds of attack, save modifiers) are data terms of the catalogs
(``wfb6.modifier.<id>``, ``wfb6.attack_kind.<id>``, ``wfb6.save_special.<rule>``): a GM's
renamed or new entry shows as the file names it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.sheets._wfb6 import Weapon
from gmkit.systems._tables import table
from gmkit.systems.base import Modifier

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

    @property
    def term(self) -> Message:
        """The kind's name as a GM reads it (the catalogs' term, or its id)."""
        return attack_kind_term(self.id)


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

    @model_validator(mode="before")
    @classmethod
    def _kinds_know_their_ids(cls, data: Any) -> Any:
        kinds = data.get("attack_kinds") if isinstance(data, dict) else None
        if isinstance(kinds, dict):
            named = {k: {**v, "id": k} if isinstance(v, dict) else v for k, v in kinds.items()}
            data = {**data, "attack_kinds": named}
        return data

    def kind(self, attack: str) -> AttackKind:
        """The attack kind ``attack`` (an id of ``attack_kinds``), or GmkitError naming them."""
        if attack not in self.attack_kinds:
            known = tuple(self.attack_kinds)
            raise GmkitError(Message("wfb6.attack_kind.unknown", attack=repr(attack), known=known))
        return self.attack_kinds[attack]

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

    @property
    def term(self) -> Message:
        """The modifier's name: ``wfb6.modifier.<id>``, in English the file's ``name``."""
        return Message.term(f"wfb6.modifier.{self.id}", self.name)

    def modifier(self, value: int | None = None) -> Modifier:
        return Modifier(self.term, self.value if value is None else value)


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
        raise GmkitError(Message("wfb6.modifier.missing", modifier=repr(entry_id)))

    def save_modifiers(self, strength: int, weapon: Weapon) -> tuple[Modifier, ...]:
        """The armour save modifiers of a hit of ``strength`` from ``weapon``."""
        found: list[Modifier] = []
        if self.save_by_strength.get(strength):
            by_strength = Message("wfb6.save.strength", strength=strength)
            found.append(Modifier(by_strength, self.save_by_strength[strength]))
        specials = {name.casefold(): (name, value) for name, value in self.save_specials.items()}
        for rule in weapon.special:
            if rule.casefold() in specials:
                name, value = specials[rule.casefold()]
                found.append(Modifier(save_special_term(name, rule), value))
        return tuple(found)

    def moves_or_fires(self, weapon: Weapon) -> bool:
        rules = {name.casefold() for name in self.move_or_fire}
        return any(rule.casefold() in rules for rule in weapon.special)


_VALIDATED: dict[str, tuple[Any, _Data]] = {}
"""Table name -> (the parsed YAML it was validated from, the model): validated once per file
read (a GM's new file, read anew by :func:`table`, is validated anew)."""


def _load(cls: type[_DataT], name: str) -> _DataT:
    raw = table("wfb6", name)
    kept = _VALIDATED.get(name)
    if kept is not None and kept[0] is raw and isinstance(kept[1], cls):
        return kept[1]
    try:
        found = cls.model_validate(raw)
    except ValidationError as error:
        problems = tuple(
            ".".join(str(part) for part in item["loc"]) + ": " + item["msg"]
            for item in error.errors(include_url=False)
        )
        message = Message("wfb6.table_invalid", table=f"{name}.yaml", problems=problems)
        raise GmkitError(message) from None
    _VALIDATED[name] = (raw, found)
    return found


def _slug(name: str) -> str:
    return "_".join(name.casefold().split())


def attack_kind_term(kind: str) -> Message:
    """A kind of attack's name (``wfb6.attack_kind.<id>``; in English its id, as the file
    names it)."""
    return Message.term(f"wfb6.attack_kind.{kind}", kind)


def save_special_term(name: str, rule: str) -> Message:
    """A weapon rule's save modifier named as the sheet writes ``rule`` (``name`` is the
    file's entry it matches: ``wfb6.save_special.<name>``)."""
    return Message.term(f"wfb6.save_special.{_slug(name)}", rule)


def modifier_list(modifiers: Iterable[Modifier]) -> Message:
    """Modifiers as a list ("Long range -1, Soft cover -1"), or "no modifier"."""
    listed = tuple(Message("common.modifier", source=m.source, value=m.value) for m in modifiers)
    return Message("common.list", items=listed) if listed else Message("wfb6.no_modifier")


def targeting_rules() -> TargetingRules:
    """The validated ``targeting.yaml`` (packaged, or the GM's on ``GMKIT_DATA_PATH``)."""
    return _load(TargetingRules, "targeting")


def shooting_rules() -> ShootingRules:
    """The validated ``shooting.yaml`` (packaged, or the GM's on ``GMKIT_DATA_PATH``)."""
    return _load(ShootingRules, "shooting")
