"""Duel's exact odds (the registry's ``odds``): 2d6 at or under the strike's target; a hit takes
one wound. Its float odds are gmkit's conversion of these (it declares no float engine)."""

from __future__ import annotations

from fractions import Fraction

from gmkit.odds import Dist, Odds
from gmkit.systems.base import AttackRequest
from gmkit_duel.rules import GAME_ID, needed


def duel_odds(request: AttackRequest) -> Odds:
    target = needed(request)
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= target)
    hit = Fraction(ways, 36)
    hits = Dist({1: ways, 0: 36 - ways}, 36)
    states = Dist({"wounded": ways, "unhurt": 36 - ways}, 36)
    return Odds(GAME_ID, hits, Dist.certain(1), hits, hits, states, {"hit": hit})


__all__ = ["duel_odds"]
