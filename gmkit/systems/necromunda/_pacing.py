"""Necromunda's pacing (000): the sides take turns of four phases (movement, shooting, close
combat, recovery), a fighter's move, shot and fight each once a turn; the fallen are those its
book declares."""

from __future__ import annotations

from gmkit.systems._conditions import DeclaredFallen
from gmkit.systems.necromunda._conditions import BOOK
from gmkit.systems.turns import TurnStructure

NECROMUNDA = TurnStructure(
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
    fallen=DeclaredFallen(lambda: BOOK),
    phase_actions={
        "movement": ("move", "run", "charge"),
        "shooting": ("shoot",),
        "close combat": ("fight",),
        "recovery": (),
    },
    both_sides_phases=("close combat",),
    not_covered={"fight": "turns.not_covered.necromunda_close_combat"},
)

__all__ = ["NECROMUNDA"]
