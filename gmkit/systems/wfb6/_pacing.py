"""WFB 6e's pacing (003): the sides take turns of four phases (movement, magic, shooting,
close combat); seed 003 gives the shooting phase only, so the others' actions are the GM's (each
refused with what to do instead, which the GM may override); the fallen are those its book
declares."""

from __future__ import annotations

from gmkit.systems._conditions import DeclaredFallen
from gmkit.systems.turns import TurnStructure
from gmkit.systems.wfb6._conditions import BOOK

WFB6 = TurnStructure(
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
    fallen=DeclaredFallen(lambda: BOOK),
    phase_actions={
        "movement": ("move", "march", "charge"),
        "magic": ("cast",),
        "shooting": ("shoot",),
        "close combat": ("fight",),
    },
    both_sides_phases=("close combat",),
    not_covered={
        "move": "turns.not_covered.wfb6_movement",
        "march": "turns.not_covered.wfb6_movement",
        "charge": "turns.not_covered.wfb6_movement",
        "cast": "turns.not_covered.wfb6_magic",
        "fight": "turns.not_covered.wfb6_close_combat",
    },
)

__all__ = ["WFB6"]
