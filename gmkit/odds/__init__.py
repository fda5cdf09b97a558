"""Exact odds of an attack's outcomes, computed from the rules the resolver uses.

With the ``AttackRequest`` a panel would resolve::

    from gmkit.odds import curve, odds

    result = odds(request)                  # exact Fractions
    result.hit, result.p("out of action"), result.states, result.expected_damage
    result.as_float()                       # the same, as floats in plain dicts
    curve(request).of(lambda o: o.hit)      # total to-hit modifier -> chance to hit

:mod:`gmkit.odds.core` holds the common value (:class:`Odds`, :class:`Dist`, :class:`Curve`)
and the dispatch by game, through the game's registry entry (its ``odds``): a module per game
family computes them (``imperial``, ``wfrp2``, ``necromunda``, ``wfb6``).
"""

from __future__ import annotations

from gmkit.odds.core import (
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

__all__ = [
    "Curve",
    "Dist",
    "MemberOdds",
    "Odds",
    "TooManyPaths",
    "curve",
    "exhaustive",
    "game_of",
    "odds",
    "simulate",
]
