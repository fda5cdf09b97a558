"""How each game's fight is paced: initiative or sides, phases, and the action budget.

The encounter reads these values and holds no rule of its own:

- ``initiative`` games (the d100 family): each combatant rolls ``1d10 + initiative_base``
  once (001: no re-roll between rounds); turns follow the order; surprised combatants lose the
  first round (001, 002).
- ``sides`` games (Necromunda, WFB): the sides take turns; a turn runs the phases in order.
- The budget: ``turn_pools`` are spent by actions in a turn (a full action costs both halves:
  001 "1 full or 2 half actions and any free actions"), ``round_pools`` by reactions in a round
  (001/004: one reaction; 002: one parry and one dodge). Defensive Stance's extra reaction and
  All Out Attack's "no reactions" come as effects of those actions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from gmkit.sheets.base import Sheet


@dataclass(frozen=True)
class TurnStructure:
    kind: Literal["initiative", "sides"]
    turn_pools: Mapping[str, int]
    action_costs: Mapping[str, Mapping[str, int]]  # action type -> pool -> cost
    round_pools: Mapping[str, int] = field(default_factory=dict)
    reaction_costs: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    phases: tuple[str, ...] = ()
    initiative_base: Callable[[Sheet], int] | None = None
    initiative_base_name: str = ""


def _agility_bonus(sheet: Sheet) -> int:
    return int(sheet.bonus("Ag"))  # type: ignore[attr-defined]


def _agility(sheet: Sheet) -> int:
    return int(sheet.characteristics.Ag)  # type: ignore[attr-defined]


_D100_ACTIONS: dict[str, dict[str, int]] = {
    "full": {"actions": 2},
    "half": {"actions": 1},
    "free": {},
    "extended": {"actions": 2},
}
_FORTY_K = TurnStructure(
    kind="initiative",
    turn_pools={"actions": 2},
    action_costs=_D100_ACTIONS,
    round_pools={"reaction": 1},
    reaction_costs={"dodge": {"reaction": 1}, "parry": {"reaction": 1}},
    initiative_base=_agility_bonus,
    initiative_base_name="Agility Bonus",
)

TURNS: dict[str, TurnStructure] = {
    "dark_heresy": _FORTY_K,
    "deathwatch": _FORTY_K,
    "wfrp2": TurnStructure(
        kind="initiative",
        turn_pools={"actions": 2},
        action_costs=_D100_ACTIONS,
        round_pools={"parry": 1, "dodge": 1},
        reaction_costs={"dodge": {"dodge": 1}, "parry": {"parry": 1}},
        initiative_base=_agility,
        initiative_base_name="Agility",
    ),
    "necromunda": TurnStructure(
        kind="sides",
        turn_pools={"move": 1, "shoot": 1, "fight": 1},
        action_costs={
            "move": {"move": 1},
            "run": {"move": 1, "shoot": 1},
            "charge": {"move": 1, "shoot": 1},
            "shoot": {"shoot": 1},
            "fight": {"fight": 1},
            "free": {},
        },
        phases=("movement", "shooting", "close combat", "recovery"),
    ),
    "wfb6": TurnStructure(
        kind="sides",
        turn_pools={"move": 1, "shoot": 1, "fight": 1},
        action_costs={
            "move": {"move": 1},
            "march": {"move": 1, "shoot": 1},
            "charge": {"move": 1, "shoot": 1},
            "shoot": {"shoot": 1},
            "cast": {},
            "fight": {"fight": 1},
            "free": {},
        },
        phases=("movement", "magic", "shooting", "close combat"),
    ),
}


def turn_structure(game: str) -> TurnStructure:
    return TURNS[game]


def describe(structure: TurnStructure) -> dict[str, Any]:
    return {
        "kind": structure.kind,
        "turn": dict(structure.turn_pools),
        "round": dict(structure.round_pools),
        "phases": list(structure.phases),
    }
