"""The registry of games: a :class:`Game` per game, declaring every hook gmkit asks a game for.

A game is a plugin on top of the rules' world. Its entry names its parts in every layer below
it: the sheet model and how hurt a sheet is (``health``), the rules, the options model of its
attacks, what a panel may offer (:class:`~gmkit.systems.offers.Offers`), the pacing of its
fight and its rules of the turn beyond attacks (``acting``), the conditions that take a
combatant out (``fallen``, from its rules' book and its pacing), the unit it measures in, its
exact and float odds, its simulation's hooks, (a mass-battle game) how its fights hold units
(``table``), the folder of its message catalogs and the folder of its data files. Nothing below
the games names one: a lower layer is handed the game (or the part it needs) by its caller, or,
handed only an id, asks the seam :mod:`gmkit.plugins`, which holds the same entries.

Adding a game is one package holding those parts and one entry point in the group
``gmkit.games`` (``mygame = "gmkit_mygame:GAME"``): ``pip install`` it and every layer finds
it. :func:`register` adds one by hand (a test's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gmkit import plugins
from gmkit.messages import Message
from gmkit.systems._conditions import ConditionBook
from gmkit.systems.acting import NoTurnRules
from gmkit.systems.health import default_health

if TYPE_CHECKING:
    from gmkit.sheets.base import Sheet
    from gmkit.systems.acting import TurnRules
    from gmkit.systems.base import AttackRequest, GameSystem
    from gmkit.systems.offers import Offers
    from gmkit.systems.options import AttackOptions
    from gmkit.systems.turns import TurnStructure

Health = Callable[["Sheet", Mapping[str, int]], tuple[int, int]]
"""``health(sheet, counters)`` -> (left, total): wounds (or a horde's magnitude), never below 0."""


@dataclass(frozen=True)
class OddsEngine:
    """A game's exact odds: ``odds(request)`` and ``curve(request, modifiers)`` (None: the
    game's useful range of total modifiers)."""

    odds: Callable[[AttackRequest], Any]
    curve: Callable[[AttackRequest, Sequence[int] | None], Any] | None = None


@dataclass(frozen=True)
class FastEngine:
    """A game's float odds (:mod:`gmkit.odds._fast`): ``odds(request)`` -> ``FastOdds`` and
    ``curve(request, modifiers)`` -> ``FastCurve``. A game without one: its exact odds, as
    floats."""

    odds: Callable[[AttackRequest], Any]
    curve: Callable[[AttackRequest, Sequence[int] | None], Any]


@dataclass(frozen=True)
class Simulation:
    """How many fights of a game are simulated at once (:mod:`gmkit.simulate`).

    - ``tables(fight, progress)`` builds the per-attack outcome tables;
    - ``distance``: the fixed distance between foes (in the game's unit);
    - ``notes``: what the simulation leaves out for this game;
    - ``floor``: a pool of wounds at which a combatant is out: 0, damage past its wounds takes
      it out (the d100 games); 1, reaching 0 does (WFB 6e; a horde's magnitude always);
    - ``reactions``: the odds take the target's reaction as an option (``reaction``,
      ``target_reactions``: the d100 games);
    - ``alone(target, distance)``: the target as it stands alone on the table at that distance
      (its sheet as the odds see it, and the request's options saying so: a WFB 6e model as a
      unit of one); None, the target as it is.
    """

    tables: Callable[..., Any]
    distance: float
    notes: tuple[Message, ...] = ()
    floor: int = 0
    reactions: bool = False
    alone: Callable[[Sheet, float], tuple[Sheet, Mapping[str, Any]]] | None = None


@dataclass(frozen=True)
class Table:
    """A mass-battle game's table: its fights hold units (``Encounter.set_unit``).
    ``troop_types()`` gives the troop types a unit may be (id -> English name); ``situation(
    state, attacker, target)`` reads the encounter's units and distances into what the game's
    attack rules take (the sheets as placed on the table, and the situation of the shot)."""

    troop_types: Callable[[], Any]
    situation: Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class Game:
    """One game, with its hooks (see the module docstring)."""

    id: str
    title: Message
    sheet: type[Sheet]
    rules: GameSystem
    options: type[AttackOptions]
    offers: Offers
    turns: TurnStructure
    unit: str  # "m", "in", "cm"
    odds: OddsEngine | None = None
    fast: FastEngine | None = None  # the float odds; None: the exact odds as floats
    simulation: Simulation | None = None
    # the rules of the turn beyond attacks: restrictions, non-attack actions, rolls due
    acting: TurnRules = field(default_factory=NoTurnRules)
    table: Table | None = None  # a mass-battle game's units on the table (WFB)
    health: Health = default_health  # how hurt a sheet is: (left, total)
    catalogs: Path | None = None  # its message catalogs' folder; None: in gmkit's own
    data: Path | None = None  # its data files' folder (weapons.yaml...); None: it has none
    extras: dict[str, Any] = field(default_factory=dict)  # what only this game's parts read

    @property
    def book(self) -> ConditionBook:
        """The conditions it declares: its rules' ``conditions`` (an empty book if none)."""
        found = getattr(self.rules, "conditions", None)
        return found if isinstance(found, ConditionBook) else ConditionBook(self.id)

    @property
    def fallen(self) -> tuple[str, ...]:
        """The conditions that take a combatant out of the fight: those its book declares, and
        those its pacing names (a game that declares no conditions)."""
        return tuple(dict.fromkeys((*self.book.fallen, *self.turns.fallen)))

    @property
    def out_of_the_fight(self) -> frozenset[str]:
        """The names that make a combatant never a default attacker or target: the fallen and
        those its book marks out (unconscious)."""
        return self.book.out | frozenset(self.fallen)


def register(entry: Game) -> Game:
    """Add (or replace) a game by hand (its entry point does it for an installed one)."""
    return plugins.add(entry)


def unregister(game_id: str) -> None:
    """Take a game out of the registry (a test's toy game)."""
    plugins.remove(game_id)


def game(game_id: str) -> Game:
    """The entry of ``game_id``; GmkitError naming the known games if there is none."""
    return plugins.entry(game_id)


def health(sheet: Sheet, counters: Mapping[str, int]) -> tuple[int, int]:
    """How hurt ``sheet`` is, as its game says (its entry's ``health``): (left, total)."""
    return game(sheet.game).health(sheet, counters)


def games() -> tuple[Game, ...]:
    """Every registered game, the built-in ones first."""
    return plugins.entries()


def game_ids() -> tuple[str, ...]:
    return plugins.ids()


__all__ = [
    "FastEngine",
    "Game",
    "Health",
    "OddsEngine",
    "Simulation",
    "Table",
    "game",
    "game_ids",
    "games",
    "health",
    "register",
    "unregister",
]
