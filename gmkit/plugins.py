"""The games plugged into gmkit: found through their entry points, kept by id.

A game is a plugin: a package whose entry point in the group ``gmkit.games`` names its
:class:`~gmkit.games.Game` (``mygame = "gmkit_mygame:GAME"``); gmkit's own five are declared the
same way in its ``pyproject.toml``. ``pip install gmkit-mygame`` adds a game with no change to
gmkit.

This module is the seam between the rules' world and the games above it. The games (their
entries: :mod:`gmkit.games`) sit on top of the rules (sheets, systems, odds): an entry names its
parts in every one of those layers, so none of them may import an entry, nor the registry that
holds them. Where a lower layer is handed only a game's id (a sheet read from a file names its
game; a request's options are its game's model; a log names a condition), it asks :func:`entry`
here; everything above the games asks :func:`gmkit.games.game`, the same table.

An entry point is named after its game's id. Asking for one game loads that entry point alone
(Necromunda's rules load no other game's); asking for every game loads the whole group
(:mod:`importlib.metadata`). gmkit's own five are loaded by the same names when the group lacks
them (a source tree run without installing it). An id not found reads the group again: a package
installed since is found.
"""

from __future__ import annotations

from importlib import metadata
from typing import TYPE_CHECKING

from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.messages._catalog import add_catalogs, remove_catalogs

if TYPE_CHECKING:
    from gmkit.games._registry import Game

GROUP = "gmkit.games"
"""The entry-point group a game registers in."""

BUILTIN: tuple[tuple[str, str], ...] = (
    ("necromunda", "gmkit.games.necromunda:GAME"),
    ("dark_heresy", "gmkit.games.dark_heresy:GAME"),
    ("deathwatch", "gmkit.games.deathwatch:GAME"),
    ("wfrp2", "gmkit.games.wfrp2:GAME"),
    ("wfb6", "gmkit.games.wfb6:GAME"),
)
"""gmkit's own entry points, as its pyproject.toml declares them (a test compares), in the seeds'
order (000 Necromunda, 001 Dark Heresy, 004 Deathwatch, 002 WFRP, 003 WFB)."""

_ENTRIES: dict[str, Game] = {}
_LOADED: dict[tuple[str, str], str] = {}  # (name, value) of an entry point loaded -> its game id
_READ: list[bool] = []  # the whole group loaded once (an unknown id reads it again)


def entry_points() -> tuple[metadata.EntryPoint, ...]:
    """The group's entry points, gmkit's own first (in :data:`BUILTIN`'s order, by the same
    names when an install did not declare them), then the others by name."""
    found = list(metadata.entry_points(group=GROUP))
    named = {point.name for point in found}
    found += [metadata.EntryPoint(n, v, GROUP) for n, v in BUILTIN if n not in named]
    order = {name: index for index, (name, _) in enumerate(BUILTIN)}
    return tuple(sorted(found, key=lambda point: (order.get(point.name, len(order)), point.name)))


def _load(name: str | None = None) -> None:
    """Load the entry points not loaded yet (those named ``name``, when the group has one; else
    every one); each adds its game."""
    points = entry_points()
    named = [point for point in points if point.name == name]
    if not named:
        _READ[:] = [True]
    for point in named or points:
        key = (point.name, point.value)
        if key in _LOADED:
            continue
        # taken before loading: a game looked up while it loads is not loaded twice
        _LOADED[key] = ""
        try:
            found = point.load()
        except Exception as error:  # a broken package: said, naming it
            del _LOADED[key]
            problem = f"{type(error).__name__}: {error}"
            raise GmkitError(
                Message("games.plugin_broken", name=point.name, value=point.value, error=problem)
            ) from error
        if not isinstance(getattr(found, "id", None), str):
            del _LOADED[key]
            raise GmkitError(Message("games.plugin_not_a_game", name=point.name, value=point.value))
        _LOADED[key] = found.id
        add(found)


def add(game: Game) -> Game:
    """Add (or replace) a game; its message catalogs join gmkit's. Returns it."""
    _ENTRIES[game.id] = game
    if game.catalogs is not None:
        add_catalogs(game.catalogs)
    return game


def remove(game_id: str) -> None:
    """Take a game out (a test's); the entry point that gave it may give it again."""
    gone = _ENTRIES.pop(game_id, None)
    for key in [key for key, found in _LOADED.items() if found == game_id]:
        del _LOADED[key]
    shared = gone is not None and any(o.catalogs == gone.catalogs for o in _ENTRIES.values())
    if gone is not None and gone.catalogs is not None and not shared:
        remove_catalogs(gone.catalogs)


def entry(game_id: str) -> Game:
    """The game of ``game_id``; GmkitError naming the known games if none is."""
    found = _ENTRIES.get(game_id)
    if found is None:
        _load(game_id)
        found = _ENTRIES.get(game_id)
    if found is None:
        _load()
        found = _ENTRIES.get(game_id)
    if found is None:
        raise GmkitError(Message("games.unknown", game=repr(game_id), known=tuple(sorted(ids()))))
    return found


def known(game_id: str) -> Game | None:
    """The game of ``game_id``, or None (a family's data folder, "percentile", is no game)."""
    found = _ENTRIES.get(game_id)
    if found is None and not _READ:
        _load(game_id)
        found = _ENTRIES.get(game_id)
    return found


def loaded(game_id: str) -> Game | None:
    """The game of ``game_id`` if it is loaded already, or None: loads nothing (what a game's
    own rules may ask while its entry is being loaded)."""
    return _ENTRIES.get(game_id)


def entries() -> tuple[Game, ...]:
    """Every game, gmkit's own first (in the seeds' order), then the others as added."""
    if not _READ:
        _load()
    order = {name: index for index, (name, _) in enumerate(BUILTIN)}
    return tuple(sorted(_ENTRIES.values(), key=lambda game: order.get(game.id, len(order))))


def ids() -> tuple[str, ...]:
    return tuple(game.id for game in entries())


__all__ = [
    "BUILTIN",
    "GROUP",
    "add",
    "entries",
    "entry",
    "entry_points",
    "ids",
    "known",
    "loaded",
    "remove",
]
