"""Necromunda's fighters, weapons and shots as the test files of odds/ and systems/ share them:
plain code they import (``from ..shared.necromunda import fighter``), not fixtures, since their
module constants are built with it."""

from __future__ import annotations

from typing import Any

from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems._catalogs import catalog
from gmkit.systems.base import AttackRequest
from gmkit.systems.necromunda import FighterState

WEAPONS = catalog("necromunda", "weapons")
HEAVY_BOLTER = {
    "name": "heavy bolter",
    "kind": "heavy",
    "short_range": 20,
    "long_range": 40,
    "strength": 5,
    "damage": "D3",
    "save_modifier": -2,
    "ammo_roll": 6,
}
LASCANNON = {
    "name": "lascannon",
    "kind": "heavy",
    "short_range": 20,
    "long_range": 60,
    "strength": 9,
    "damage": "D6",
    "save_modifier": -6,
    "ammo_roll": 4,
}
GRENADE = {"name": "krak grenade", "kind": "grenade", "short_range": 4, "long_range": 8}


def fighter(name: str = "Tom", **fields: Any) -> NecromundaFighter:
    """A fighter built from ``fields``; ``weapons`` by the catalog's name or as a dict."""
    weapons = [WEAPONS[w] if isinstance(w, str) else w for w in fields.pop("weapons", [])]
    return NecromundaFighter.build(name=name, weapons=weapons, **fields)


GANGER = fighter("Mordecai", weapons=["autogun", "boltgun", LASCANNON])
TARGET = fighter("Tom")


def shot(
    attacker: NecromundaFighter = GANGER,
    weapon: str = "autogun",
    target: NecromundaFighter = TARGET,
    distance: float | None = 10,
    circumstances: dict[str, Any] | None = None,
    **options: Any,
) -> AttackRequest:
    """A shot (the ganger's autogun at Tom, 10 inches away by default)."""
    circumstances = circumstances or {}
    return AttackRequest(
        attacker, weapon, target, distance=distance, circumstances=circumstances, options=options
    )


def step(result: Any, title: str) -> Any:
    """The step of ``result`` titled ``title``."""
    return next(s for s in result.steps if str(s.title) == title)


def state_after(before: FighterState, result: Any) -> tuple[int, str]:
    """The flesh wounds ``result`` gives its target, and the state it leaves it in (from
    ``before``): standing, pinned, flesh wound, down or out of action."""
    injuries = [e.condition for e in result.effects if e.kind == "injury"]
    out = "out of action" in injuries
    down = (before.down or "down" in injuries) and not out
    flesh = injuries.count("flesh wound")
    pinned = before.pinned or any(e.kind == "pinned" for e in result.effects)
    state = (
        "out of action"
        if out
        else "down"
        if down
        else "flesh wound"
        if flesh
        else "pinned"
        if pinned
        else "standing"
    )
    return flesh, state
