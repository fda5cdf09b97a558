"""Dark Heresy (1st edition, with seed 001's house rules) sheets.

``Weapon``, ``Armour`` and ``DarkHeresyCharacter`` build on the Imperial base Dark Heresy shares
with Deathwatch (``gmkit.sheets._imperial``, whose docstring lists the choices they share).
``ImperialWeapon`` and ``ImperialCharacter`` can still be imported from here.

Dark Heresy's own choices where the rule texts are silent:

- Critical damage may exist below the wounds threshold: seed 001's house Righteous Fury deals
  1d5 critical damage "without changing real wounds".
- Seed 001's carrying house rules allow exceptions with the GM's leave, so breaking them is a
  warning (a message) in ``derived()["house_rule_warnings"]``, not an error: one main ranged
  weapon (basic or heavy), one pistol, two melee weapons; at most two armour layers at a
  location, power armour alone, one synthskin; and one piece on the head (001's example: no
  second helmet over the first), so two pieces covering the Head are a warning even though two
  layers elsewhere are allowed.
- ``minion``: seed 001's house Righteous Fury kills an unimportant minion at 1 critical damage.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar, Literal

from pydantic import Field

from gmkit.messages import Message
from gmkit.sheets import _percentile as d100
from gmkit.sheets._imperial import ImperialCharacter, ImperialWeapon, SealedArmour


class Weapon(ImperialWeapon):
    """A Dark Heresy weapon."""


class Armour(SealedArmour):
    """A piece of Dark Heresy armour (``sealed``: completely sealed, 004's fire)."""


class DarkHeresyCharacter(ImperialCharacter):
    """An acolyte, a foe or a minion of Dark Heresy."""

    GAME_TITLE: ClassVar[str] = "Dark Heresy"
    weapon_model: ClassVar[type] = Weapon
    armour_model: ClassVar[type] = Armour

    game: Literal["dark_heresy"] = "dark_heresy"
    armour: list[Armour] = Field(default_factory=list)  # type: ignore[assignment]
    weapons: list[Weapon] = Field(default_factory=list)  # type: ignore[assignment]
    SINGLE_PIECE_LOCATIONS: ClassVar[tuple[str, ...]] = ("head",)
    """Locations that take one piece of armour (001: never a second helmet over the first)."""

    minion: bool = Field(False, description="an unimportant minion: dies at 1 critical damage")

    @property
    def dead(self) -> bool:
        """A minion with any critical damage is dead (001, house Righteous Fury)."""
        return self.minion and self.critical_damage > 0

    @property
    def house_rule_warnings(self) -> list[Message]:
        """Seed 001's carrying limits this sheet breaks (allowed with the GM's leave)."""
        warnings: list[Message] = []
        counts = Counter(weapon.weapon_class for weapon in self.weapons)
        if counts["basic"] + counts["heavy"] > 1:
            warnings.append(Message("sheets.warning.main_ranged_weapons"))
        if counts["pistol"] > 1:
            warnings.append(Message("sheets.warning.pistols"))
        if counts["melee"] > 2:
            warnings.append(Message("sheets.warning.melee_weapons"))
        if sum(piece.kind == "synthskin" for piece in self.armour) > 1:
            warnings.append(Message("sheets.warning.synthskins"))
        for location in d100.LOCATIONS:
            layers = [
                piece.kind
                for piece in self.armour
                if piece.kind != "synthskin" and piece.points.at(location)
            ]
            where = Message(f"sheets.armour_at.{location}")
            if "power" in layers and len(layers) > 1:
                warnings.append(Message("sheets.warning.power_armour_layered", location=where))
            elif len(layers) > 2:
                warnings.append(Message("sheets.warning.armour_layers", location=where))
            elif location in self.SINGLE_PIECE_LOCATIONS and len(layers) > 1:
                warnings.append(Message("dark_heresy.warning.two_helmets", location=where))
        return warnings

    def derived(self) -> dict[str, Any]:
        return {
            **super().derived(),
            "dead": self.dead,
            "house_rule_warnings": self.house_rule_warnings,
        }
