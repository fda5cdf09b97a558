"""The registry of games: one entry per game, everything that asks "which game?" asks here.

A :class:`Game` names its parts in every layer: the sheet model, the rules, the options model
of its attacks, what a panel may offer (:class:`~gmkit.systems.offers.Offers`), the pacing of
its fight and its rules of the turn beyond attacks (``acting``), the unit it measures in, its
exact odds, its simulation tables, and (a mass-battle game) how its fights hold units
(``table``). Adding a game is one package holding those parts and
one :func:`register` call (``tests/games`` registers a toy game that way).

The registry holds entries and imports none: lower layers (the rules' request type, the
encounter) look a game up at run time; the built-in games are registered on the first lookup
(:mod:`gmkit.games.builtin`), so importing this module never imports a game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gmkit.errors import GmkitError
from gmkit.messages import Message

if TYPE_CHECKING:
    from gmkit.sheets.base import Sheet
    from gmkit.systems.acting import TurnRules
    from gmkit.systems.base import AttackRequest, GameSystem
    from gmkit.systems.offers import Offers
    from gmkit.systems.options import AttackOptions
    from gmkit.systems.turns import TurnStructure


@dataclass(frozen=True)
class OddsEngine:
    """A game's exact odds: ``odds(request)`` and ``curve(request, modifiers)`` (None: the
    game's useful range of total modifiers)."""

    odds: Callable[[AttackRequest], Any]
    curve: Callable[[AttackRequest, Sequence[int] | None], Any] | None = None


@dataclass(frozen=True)
class Simulation:
    """How many fights of a game are simulated at once: ``tables(fight, progress)`` builds the
    per-attack outcome tables; ``distance`` is the fixed distance between foes (in the game's
    unit); ``notes`` say what the simulation leaves out for this game."""

    tables: Callable[..., Any]
    distance: float
    notes: tuple[Message, ...] = ()


@dataclass(frozen=True)
class Table:
    """A mass-battle game's table: its fights hold units (``Encounter.set_unit``).
    ``troop_types()`` gives the troop types a unit may be (id -> English name); ``situation(
    state, attacker, target)`` reads the encounter's units and distances into what the game's
    attack rules take (the sheets as placed on the table, and the situation of the shot)."""

    troop_types: Callable[[], Any]
    situation: Callable[[Any, Any, Any], Any]


def _no_turn_rules() -> TurnRules:
    from gmkit.systems.acting import NoTurnRules

    return NoTurnRules()


@dataclass(frozen=True)
class Game:
    """One game, with its parts (see the module docstring)."""

    id: str
    title: Message
    sheet: type[Sheet]
    rules: GameSystem
    options: type[AttackOptions]
    offers: Offers
    turns: TurnStructure
    unit: str  # "m", "in", "cm"
    odds: OddsEngine | None = None
    simulation: Simulation | None = None
    # the rules of the turn beyond attacks: restrictions, non-attack actions, rolls due
    acting: TurnRules = field(default_factory=_no_turn_rules)
    table: Table | None = None  # a mass-battle game's units on the table (WFB)
    extras: dict[str, Any] = field(default_factory=dict)  # what only this game's parts read


_GAMES: dict[str, Game] = {}
_BUILTIN_LOADED = False


def register(entry: Game) -> Game:
    """Add (or replace) a game; returns it."""
    _GAMES[entry.id] = entry
    return entry


def unregister(game_id: str) -> None:
    """Take a game out of the registry (a test's toy game)."""
    _GAMES.pop(game_id, None)


def _builtin() -> None:
    global _BUILTIN_LOADED
    if not _BUILTIN_LOADED:
        _BUILTIN_LOADED = True
        from gmkit.games import builtin  # noqa: F401  (registers the five games on import)


def game(game_id: str) -> Game:
    """The entry of ``game_id``; GmkitError naming the known games if there is none."""
    found = _GAMES.get(game_id)
    if found is None:
        _builtin()
        found = _GAMES.get(game_id)
    if found is None:
        known = tuple(sorted(_GAMES))
        raise GmkitError(Message("games.unknown", game=repr(game_id), known=known))
    return found


def games() -> tuple[Game, ...]:
    """Every registered game, the built-in ones first."""
    _builtin()
    return tuple(_GAMES.values())


def game_ids() -> tuple[str, ...]:
    return tuple(entry.id for entry in games())


__all__ = [
    "Game",
    "OddsEngine",
    "Simulation",
    "game",
    "game_ids",
    "games",
    "register",
    "unregister",
]
