"""Dark Heresy's and Deathwatch's pacing (001, 004): initiative of 1d10 + Agility Bonus, a turn
of two half actions, one reaction a round; the fallen are those their books declare."""

from __future__ import annotations

from gmkit.systems._conditions import DeclaredFallen
from gmkit.systems._imperial.kinds import book
from gmkit.systems._percentile_turns import D100_ACTIONS, REACTION_CONDITIONS, agility_bonus
from gmkit.systems.turns import TurnStructure

FORTY_K = TurnStructure(
    kind="initiative",
    turn_pools={"actions": 2},
    action_costs=D100_ACTIONS,
    round_pools={"reaction": 1},
    reaction_costs={"dodge": {"reaction": 1}, "parry": {"reaction": 1}},
    initiative_base=agility_bonus,
    initiative_base_name="Agility Bonus",
    reaction_conditions=REACTION_CONDITIONS,
    fallen=DeclaredFallen(lambda: book("dark_heresy"), lambda: book("deathwatch")),
)

__all__ = ["FORTY_K"]
