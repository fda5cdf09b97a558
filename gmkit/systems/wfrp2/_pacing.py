"""WFRP 2e's pacing (002): initiative of 1d10 + Agility, a turn of two half actions, a parry
and a dodge a round; the fallen are those its book declares."""

from __future__ import annotations

from gmkit.systems._conditions import DeclaredFallen
from gmkit.systems._percentile_turns import ALL_OUT_ATTACK, D100_ACTIONS, agility
from gmkit.systems.turns import TurnStructure
from gmkit.systems.wfrp2._conditions import book

WFRP2 = TurnStructure(
    kind="initiative",
    turn_pools={"actions": 2},
    action_costs=D100_ACTIONS,
    round_pools={"parry": 1, "dodge": 1},
    reaction_costs={"dodge": {"dodge": 1}, "parry": {"parry": 1}},
    initiative_base=agility,
    initiative_base_name="Agility",
    reaction_conditions={"all_out_attack": ALL_OUT_ATTACK},
    fallen=DeclaredFallen(book),
)

__all__ = ["WFRP2"]
