"""Exact odds of an attack's outcomes, computed from the rules the resolver uses.

With the ``AttackRequest`` a panel would resolve::

    from gmkit.odds import curve, odds

    result = odds(request)                  # exact Fractions
    result.hit, result.p("out of action"), result.states, result.expected_damage
    result.as_float()                       # the same, as floats in plain dicts
    curve(request).of(lambda o: o.hit)      # total to-hit modifier -> chance to hit
    fast_odds(request)                      # the same as floats (within 1e-12), fast
    fast_odds(request).exact()              # ... and the exact odds on demand
    fast_curve(request)                     # the curve as floats (what the panel draws)

:mod:`gmkit.odds._core` holds the common value (:class:`Odds`, :class:`Dist`, :class:`Curve`)
and the dispatch by game, through the game's registry entry (its ``odds``): a module per game
family computes them (``imperial``, ``wfrp2``, ``necromunda``, ``wfb6``). :mod:`gmkit.odds._fast`
is the float path (float engines for the d100 games; the exact odds converted elsewhere).
"""

from __future__ import annotations

from gmkit.odds._core import (
    Curve,
    Dist,
    MemberOdds,
    Odds,
    TooManyPaths,
    curve,
    exhaustive,
    game_of,
    odds,
    simulate,
)
from gmkit.odds._fast import FastCurve, FastOdds, fast_curve, fast_odds

__all__ = [
    "Curve",
    "Dist",
    "FastCurve",
    "FastOdds",
    "MemberOdds",
    "Odds",
    "TooManyPaths",
    "curve",
    "exhaustive",
    "fast_curve",
    "fast_odds",
    "game_of",
    "odds",
    "simulate",
]
