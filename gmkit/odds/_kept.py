"""What the d100 odds engines keep between calls, forgotten on demand: a benchmark's "first time
for a new attacker or weapon" (``bench/bench_odds_d100.py``). Above the engines it empties."""

from __future__ import annotations

from gmkit.odds import _imperial as imperial
from gmkit.odds import _imperial_damage as imperial_damage
from gmkit.odds import _imperial_float as imperial_float
from gmkit.odds import _wfrp2 as wfrp2


def clear_caches() -> None:
    """Forget every weapon profile's and sheet's tables the d100 engines keep (a benchmark's
    "first time for a new attacker or weapon"); the d100 roll tables stay."""
    for kept in (
        imperial_damage._ROLLS,
        imperial_damage._PROFILES,
        imperial_damage._HITS,
        imperial_damage._SOAKS,
        imperial._COMPS,
        imperial._KEPT,
        imperial_float._GRIDS,
        wfrp2._DAMAGE,
        wfrp2._CHAINS,
        wfrp2._KEPT,
    ):
        kept.clear()


__all__ = ["clear_caches"]
