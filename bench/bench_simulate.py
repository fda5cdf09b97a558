"""Encounter simulation: 10,000 fights of 5 against 5 per game, from the demo rosters.

Each demo roster's two sides are padded (copies of their members, renamed) or trimmed to five
combatants each; ``gmkit.simulate.simulate`` then fights them 10,000 times. Printed per game:
the time of the first run in this process (cold: the options and the exact odds tables
computed, the game's data files read), split into odds tables and fights; the time of a second
run with another seed (warm: the odds come from the cache, as the widget's second click);
fights per second (cold, and of the fights alone); the goal beside them. It asserts nothing.

    /work/venv/bin/python bench/bench_simulate.py [--quick]
"""

from __future__ import annotations

import sys
import time

from gmkit.demo import demo_campaign
from gmkit.sheets.roster import Roster
from gmkit.simulate import simulate

FIGHTS = 2_000 if "--quick" in sys.argv else 10_000
SIZE = 5
GOAL_S = 2.0


def five_a_side(roster: Roster) -> dict[str, list]:
    """The roster's first two sides, five each: padded with renamed copies, or trimmed."""
    sides = {}
    for side, members in list(roster.sides.items())[:2]:
        chosen = list(members[:SIZE])
        copy = 0
        while len(chosen) < SIZE:
            model = members[copy % len(members)]
            copy += 1
            chosen.append(model.edit(name=f"{model.name} ({copy + 1})"))
        sides[side] = chosen
    return sides


def main() -> None:
    print(f"{FIGHTS:,} fights of {SIZE} against {SIZE} per game (goal: <= {GOAL_S:.1f} s cold)")
    header = (
        f"{'game':<12} {'cold s':>7} {'odds s':>7} {'fights s':>9} {'warm s':>7} "
        f"{'fights/s cold':>14} {'fights/s (fights only)':>23}  goal  wins / draw / rounds"
    )
    print(header)
    for roster in demo_campaign().rosters:
        sides = five_a_side(roster)
        started = time.perf_counter()
        cold = simulate(sides, FIGHTS, seed=1)
        cold_s = time.perf_counter() - started
        started = time.perf_counter()
        simulate(sides, FIGHTS, seed=2)
        warm_s = time.perf_counter() - started
        fights_s = cold.seconds["fights"]
        verdict = "met" if cold_s <= GOAL_S else "MISSED"
        wins = " / ".join(f"{chance:.3f}" for chance in cold.wins.values())
        print(
            f"{roster.game:<12} {cold_s:7.2f} {cold.seconds['odds']:7.2f} {fights_s:9.2f} "
            f"{warm_s:7.2f} {FIGHTS / cold_s:14,.0f} {FIGHTS / fights_s:23,.0f}  {verdict:<5} "
            f"{wins} / {cold.draw:.3f} / {cold.rounds:.1f}"
        )


if __name__ == "__main__":
    main()
