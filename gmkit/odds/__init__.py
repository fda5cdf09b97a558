"""Exact odds of an attack's outcomes, computed from the rules the resolver uses.

With the ``AttackRequest`` a panel would resolve::

    from gmkit.odds import curve, odds

    result = odds(request)                  # exact Fractions
    result.hit, result.p("out of action"), result.states, result.expected_damage
    result.as_float()                       # the same, as floats in plain dicts
    curve(request).of(lambda o: o.hit)      # total to-hit modifier -> chance to hit

:mod:`gmkit.odds.core` holds the common value (:class:`Odds`, :class:`Dist`, :class:`Curve`)
and the dispatch by game: a dict filled by :func:`register`, which each game's module calls
on import. Importing this package imports every module of it that exists (so a game's odds
are there as soon as its module is), in name order. A module that fails to import does not
take the other games' odds with it: the error is kept in ``UNAVAILABLE`` (module -> why) and
asking for the odds of a game no module registered names it.
"""

from __future__ import annotations

import pkgutil
from importlib import import_module

from gmkit.odds.core import (
    CURVES,
    ODDS,
    UNAVAILABLE,
    Curve,
    Dist,
    MemberOdds,
    Odds,
    TooManyPaths,
    curve,
    exhaustive,
    game_of,
    odds,
    register,
    simulate,
)

__all__ = [
    "CURVES",
    "ODDS",
    "UNAVAILABLE",
    "Curve",
    "Dist",
    "MemberOdds",
    "Odds",
    "TooManyPaths",
    "curve",
    "exhaustive",
    "game_of",
    "odds",
    "register",
    "simulate",
]


def _load() -> tuple[str, ...]:
    loaded = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        if info.name == "core" or info.name.startswith("_"):
            continue
        name = f"{__name__}.{info.name}"
        try:
            import_module(name)
        except Exception as error:  # kept, and named when the game is asked for
            UNAVAILABLE[name] = f"{type(error).__name__}: {error}"
        else:
            loaded.append(name)
    return tuple(loaded)


LOADED: tuple[str, ...] = _load()
"""The modules imported with the package (each game's registers its odds)."""
