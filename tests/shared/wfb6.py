"""WFB 6e's weapons, models and units as the test files of odds/, systems/ and encounter/ share
them: plain code they import (``from ..shared.wfb6 import BOW``), not fixtures, since their
module constants are built with it."""

from __future__ import annotations

from typing import Any

from gmkit.sheets._wfb6 import WFB6Character
from gmkit.systems.wfb6 import UnitOnTable

BOW = {"name": "bow", "range_cm": 60, "strength": 3}
REPEATER = {"name": "repeater", "range_cm": 60, "strength": 4, "shots": 3}
CROSSBOW = {"name": "crossbow", "range_cm": 75, "strength": 4, "special": ["move or fire"]}
HANDGUN = {"name": "handgun", "range_cm": 60, "strength": 4, "special": ["armour piercing"]}
ROCK = {"name": "rock", "range_cm": 150, "strength": 8, "special": ["stone thrower"]}


def character(name: str = "Anselm", troop_type: str = "infantry", **fields: Any) -> WFB6Character:
    """An Empire model (on a warhorse when mounted and no mount is given)."""
    if troop_type in ("cavalry", "monstrous_cavalry") and "mount" not in fields:
        fields["mount"] = "warhorse"
    return WFB6Character.build(name=name, side="Empire", troop_type=troop_type, **fields)


def friends(
    models: int = 10, distance: float = 8, shooter: float = 30, **fields: Any
) -> UnitOnTable:
    """The Swordsmen on the table: ``models`` of rank and file, ``distance`` cm from the
    target, ``shooter`` cm from the shooter."""
    fields.setdefault("troop_type", "infantry")
    return UnitOnTable(
        "Swordsmen",
        "Empire",
        rank_and_file=models,
        distance_cm=distance,
        shooter_distance_cm=shooter,
        **fields,
    )


def bretonnian(**fields: Any) -> WFB6Character:
    """A Bretonnian Knight of the Realm, rank and file of the Knights, on a warhorse."""
    made: dict[str, Any] = {
        "name": "Knight",
        "side": "Bretonnia",
        "role": "rank and file",
        "unit": "Knights",
        "troop_type": "cavalry",
        "mount": "warhorse",
    }
    return WFB6Character.build(**{**made, **fields})
