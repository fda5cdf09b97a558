"""A fight as the simulation's tables read it: its fighters (the combatants, their sides,
conditions and counters, the attacks each can make), the game and its registry entry, and the
request of each attack, built by the encounter itself (``Encounter.attack_request``), so the
odds see what an attack at the table would.

:func:`gmkit.simulate._fighters.prepare_fight` makes one from an encounter; a game's simulation
hook reads it (``Game.simulation.tables``: :mod:`gmkit.odds.pool_tables`,
:mod:`gmkit.odds._necromunda_tables`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gmkit.sheets.base import Sheet
from gmkit.systems.base import AttackRequest

if TYPE_CHECKING:
    from gmkit.encounter import Encounter
    from gmkit.games._registry import Game


@dataclass(frozen=True)
class Option:
    """One attack a combatant can make: a weapon in a mode, with that mode's default action."""

    weapon: str
    mode: str
    action: str

    @property
    def label(self) -> str:
        return f"{self.weapon} ({self.mode.replace('_', ' ')})"


@dataclass(frozen=True)
class Fighter:
    """A combatant as the simulation sees it."""

    index: int
    id: str
    name: str
    side: str
    sheet: Sheet
    conditions: tuple[str, ...]
    counters: Mapping[str, int]
    key: str  # the sheet, conditions and counters: what the odds of its attacks depend on
    options: tuple[Option, ...] = ()


@dataclass
class Fight:
    """The combatants of one encounter, ready for the odds: the game (its id, and its registry
    entry: the hooks the tables read), the encounter that builds each attack's request."""

    game: str
    entry: Game
    encounter: Encounter
    fighters: tuple[Fighter, ...]
    sides: tuple[str, ...]
    distance: float
    notes: list[str] = field(default_factory=list)

    @property
    def initiative(self) -> bool:
        return self.entry.turns.kind == "initiative"

    def side_index(self, fighter: Fighter) -> int:
        return self.sides.index(fighter.side)

    def foes(self, fighter: Fighter) -> tuple[Fighter, ...]:
        return tuple(other for other in self.fighters if other.side != fighter.side)

    def request(
        self, attacker: Fighter, option: Option, target: Fighter, **options: Any
    ) -> AttackRequest:
        """The request the encounter would build for this attack, with ``options`` added (an
        option given as None is left to its default)."""
        return self.encounter.attack_request(
            attacker.id,
            option.weapon,
            target.id,
            action=option.action,
            mode=option.mode,
            distance=self.distance,
            options={name: value for name, value in options.items() if value is not None},
        )


__all__ = ["Fight", "Fighter", "Option"]
