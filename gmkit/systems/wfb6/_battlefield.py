"""The battlefield around a shot in Warhammer Fantasy Battle 6e: encounter state, not sheets.

Who stands where, how many models a unit has left, whether it is engaged or in sight: the
sheets hold none of that (a sheet is one model), so the rules read it from two small frozen
values a GM builds in a few lines. Distances are in centimetres, as in the Spanish texts.

- :class:`UnitOnTable`: a unit (or a lone model) on the table: its name and side, how many
  rank-and-file models and champions it has left, the characters that joined it (their
  sheets), its troop type, and where it stands: ``distance_cm`` from the character whose
  targeting is being decided (Proximity to friendly troops), ``shooter_distance_cm`` from the
  shooter (the closest legal target, range), ``engaged`` in combat, ``visible`` to the shooter.
- :class:`Situation`: one shot's surroundings: the units that matter, the shooter's distance
  to the target model and whether that model is in sight and engaged.

>>> from gmkit.sheets._wfb6 import WFB6Character
>>> knight = WFB6Character.build(name="Knight", side="Bretonnia", role="rank and file",
...     unit="Knights of the Realm", troop_type="cavalry", mount="warhorse")
>>> lord = WFB6Character.build(name="Lord", side="Bretonnia", unit="Knights of the Realm",
...     troop_type="cavalry", mount="barded warhorse")
>>> unit = UnitOnTable.of([knight, lord], rank_and_file=3, shooter_distance_cm=40)
>>> (unit.name, unit.troops, unit.models, unit.size)
('Knights of the Realm', 3, 4, 3)

Where the texts are silent:

- A unit's size is its rank and file's (the troop type and Large Target flag given, or taken
  from the ``trooper`` sheet); champions are that size; each joined character has its own.
- Champions share the rank and file's profile (``trooper``) when they are wounded.
- A unit whose ``distance_cm`` is unknown (None) is not within 12 cm of the character.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.sheets._wfb6 import WFB6Character, size_rank, troop_types


def role_name(role: str) -> Message:
    """A model's role as a GM reads it: rank and file, champion or character."""
    return Message(f"wfb6.role.{role.replace(' ', '_')}")


@dataclass(frozen=True)
class UnitOnTable:
    """A unit on the table as the targeting rules see it (see the module docstring).

    ``rank_and_file`` counts the models left other than champions and characters (the
    musician and standard bearer are rank and file); ``champions`` counts champions;
    ``characters`` are the sheets of the characters that joined the unit. A lone character
    is a unit of one: ``UnitOnTable("Father Anselm", "Empire", characters=(anselm,))``.
    """

    name: str
    side: str
    rank_and_file: int = 0
    champions: int = 0
    characters: tuple[WFB6Character, ...] = ()
    troop_type: str = "infantry"
    large_target: bool | None = None
    trooper: WFB6Character | None = None
    distance_cm: float | None = None
    shooter_distance_cm: float | None = None
    engaged: bool = False
    visible: bool = True

    def __post_init__(self) -> None:
        unit = repr(self.name)
        if self.rank_and_file < 0 or self.champions < 0:
            raise GmkitError(Message("wfb6.unit.negative_counts", unit=unit))
        if self.troop_type not in troop_types():
            known = tuple(troop_types())
            raise GmkitError(
                Message(
                    "wfb6.unit.troop_type", unit=unit, troop_type=repr(self.troop_type), known=known
                )
            )
        for distance in (self.distance_cm, self.shooter_distance_cm):
            if distance is not None and distance < 0:
                raise GmkitError(Message("wfb6.unit.negative_distance", unit=unit))
        for character in self.characters:
            if character.role != "character":
                name, role = repr(character.name), role_name(character.role)
                raise GmkitError(
                    Message("wfb6.unit.not_a_character", unit=unit, character=name, role=role)
                )
        object.__setattr__(self, "characters", tuple(self.characters))

    @classmethod
    def of(
        cls,
        models: Iterable[WFB6Character],
        *,
        name: str | None = None,
        side: str | None = None,
        rank_and_file: int | None = None,
        **where: Any,
    ) -> UnitOnTable:
        """A unit built from its models' sheets.

        Rank-and-file and champion sheets are counted (``rank_and_file`` overrides the count,
        so one sheet can stand for a whole regiment); character sheets join as characters.
        The first rank-and-file sheet (else champion) is the ``trooper`` and gives the unit
        its troop type. ``name`` and ``side`` default to the first model's ``unit`` and
        ``side``; ``where`` sets the other fields (``distance_cm=8``, ``engaged=True``...).
        """
        sheets = list(models)
        if not sheets and name is None:
            raise GmkitError(Message("wfb6.unit.unnamed"))
        troops = [sheet for sheet in sheets if sheet.role == "rank and file"]
        champions = [sheet for sheet in sheets if sheet.role == "champion"]
        characters = tuple(sheet for sheet in sheets if sheet.role == "character")
        trooper: WFB6Character | None = where.pop("trooper", None)
        if trooper is None and (troops or champions):
            trooper = (troops or champions)[0]
        if trooper is not None:
            where.setdefault("troop_type", trooper.troop_type)
            where.setdefault("large_target", trooper.large_target)
        return cls(
            name=name if name is not None else (sheets[0].unit or sheets[0].name),
            side=side if side is not None else sheets[0].side,
            rank_and_file=len(troops) if rank_and_file is None else rank_and_file,
            champions=len(champions),
            characters=characters,
            trooper=trooper,
            **where,
        )

    @property
    def size(self) -> int:
        """The unit's rung on the size ladder (its rank and file's)."""
        return size_rank(self.troop_type, self.large_target)

    @property
    def is_large_target(self) -> bool:
        if self.large_target is not None:
            return self.large_target
        return troop_types()[self.troop_type].large_target

    @property
    def troops(self) -> int:
        """Rank and file plus champions: the count of 5 for shooting and "Look out, Sir!"."""
        return self.rank_and_file + self.champions

    @property
    def models(self) -> int:
        """Every model: rank and file, champions and joined characters."""
        return self.troops + len(self.characters)

    def models_at_least(self, size: int) -> int:
        """How many of its models (champions and characters included) are ``size`` or
        larger: the count of 5 for Proximity to friendly troops."""
        troops = self.troops if self.size >= size else 0
        return troops + sum(1 for character in self.characters if character.size_rank >= size)

    def has(self, model: WFB6Character) -> bool:
        """Whether ``model`` belongs to this unit (by the unit name on its sheet, or as one
        of its characters)."""
        return model.unit == self.name or any(c.name == model.name for c in self.characters)


@dataclass(frozen=True)
class Situation:
    """One shot's surroundings (see the module docstring).

    ``distance_cm``: from the shooter to the target model (range, closest legal target).
    ``in_sight`` / ``engaged``: the target model (or its unit) is in the shooter's sight /
    engaged in combat. ``shoots_into_combat``: the shooter may shoot into combat (the
    resolver also grants it by the shooter's special rules). ``reading``: the reading of
    "closest legal target"; None takes ``targeting.yaml``'s (the seed's recommendation).
    ``from_table``: read by the encounter from the units and distances the GM set
    (:mod:`gmkit.encounter._units`): what is missing is asked for as a command would give it.
    """

    units: tuple[UnitOnTable, ...] = field(default_factory=tuple)
    distance_cm: float | None = None
    in_sight: bool = True
    engaged: bool = False
    shoots_into_combat: bool = False
    reading: str | None = None
    from_table: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", tuple(self.units))
        if self.distance_cm is not None and self.distance_cm < 0:
            raise GmkitError(Message("wfb6.situation.negative_distance"))
        if self.reading not in (None, "near_character", "battlefield"):
            raise GmkitError(Message("wfb6.situation.reading", reading=repr(self.reading)))

    def unit_of(self, model: WFB6Character) -> UnitOnTable | None:
        """The unit ``model`` belongs to, if listed (lone characters have none)."""
        if model.role == "character" and not model.unit:
            return None
        return next((unit for unit in self.units if unit.has(model)), None)
