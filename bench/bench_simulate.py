"""Encounter simulation: 10,000 fights of 5 against 5 per game, cold, and 1,000,000 with progress.

Each demo roster's two sides are padded (copies of their members, renamed) or trimmed to five
combatants each; ``gmkit.simulate.simulate`` then fights them.

Cold: each figure is a fresh Python process (``--cold GAME FIGHTS``). Not timed: the
interpreter's start, ``numpy`` and ``gmkit.sheets`` (with pydantic and pandas: what any sheet
needs), and building the two sides from the demo rosters (the input). Timed, and added:
``import gmkit.simulate`` (the encounter, the games' registry and rules modules it brings),
then ``simulate(sides, 10_000, seed=1)`` to the report: every rule table (YAML) the fight reads
that building the sheets did not, the attack options of each sheet, the exact odds tables and
the fights. The median of ``RUNS`` processes per game is reported as ``simulate.10k``, split
into the import, options and odds tables ("odds") and fights; "warm" is a second run in this
process with another seed (the odds from the caches, as the widget's second click).

A million: the slowest game of the cold runs (``--million-all``: every game), in a fresh process
too, with ``fights_done`` driving a progress bar on stderr (a chunk of 10,000 fights at a time,
so memory stays that of one chunk); reported as ``simulate.1m``. It asserts nothing.

    .venv/bin/python bench/bench_simulate.py [--quick] [--million-all]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from goals import report

QUICK = "--quick" in sys.argv
FIGHTS = 10_000
MILLION = 100_000 if QUICK else 1_000_000
RUNS = 1 if QUICK else 3
SIZE = 5
GAMES = ("necromunda", "dark_heresy", "deathwatch", "wfrp2", "wfb6")


def five_a_side(roster: Any) -> dict[str, list[Any]]:
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


def sides_of(game: str) -> dict[str, list[Any]]:
    from gmkit.demo import demo_campaign

    return five_a_side(next(r for r in demo_campaign().rosters if r.game == game))


def cold(game: str, fights: int, bar: bool) -> None:
    """In a fresh process: the sides built (not timed), then the simulation timed; one JSON
    line on stdout."""
    import numpy  # noqa: F401  (not timed: the input's)

    import gmkit.sheets  # noqa: F401

    before = set(sys.modules)
    started, cpu = time.perf_counter(), time.process_time()
    from gmkit.simulate import simulate

    imported, imported_cpu = time.perf_counter() - started, time.process_time() - cpu
    modules = len(set(sys.modules) - before)
    sides = sides_of(game)
    started, cpu = time.perf_counter(), time.process_time()

    def shown(done: int, total: int) -> None:
        filled = int(40 * done / total)
        print(f"\r  {game} [{'#' * filled}{'.' * (40 - filled)}] {done:,}/{total:,}", end="",
              file=sys.stderr, flush=True)  # fmt: skip

    result = simulate(sides, fights, seed=1, fights_done=shown if bar else None)
    seconds = time.perf_counter() - started + imported
    cpu = time.process_time() - cpu + imported_cpu
    if bar:
        print(file=sys.stderr)
    print(
        json.dumps(
            {
                "seconds": seconds,
                "cpu": cpu,
                "odds": result.seconds["odds"],
                "fights": result.seconds["fights"],
                "import": imported,
                "modules": modules,
                "wins": list(result.wins.values()),
                "draw": result.draw,
                "rounds": result.rounds,
            }
        )
    )


def fresh(game: str, fights: int, bar: bool = False) -> dict[str, Any]:
    command = [sys.executable, __file__, "--cold", game, str(fights)] + (["--bar"] if bar else [])
    done = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True, env=os.environ)
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def main() -> None:
    from gmkit.simulate import simulate

    print(
        f"{FIGHTS:,} fights of {SIZE} against {SIZE} per game, cold (a fresh process each, median "
        f"of {RUNS}; see the docstring for what cold includes); load average "
        f"{' '.join(f'{load:.2f}' for load in os.getloadavg())}"
    )
    header = (
        f"{'game':<12} {'cold s':>7} {'import s':>8} {'odds s':>7} {'fights s':>9} "
        f"{'warm s':>7} {'fights/s cold':>14}  wins / draw / rounds"
    )
    print(header)
    colds: dict[str, float] = {}
    for game in GAMES:
        runs = [fresh(game, FIGHTS) for _ in range(RUNS)]
        middle = sorted(runs, key=lambda run: run["seconds"])[len(runs) // 2]
        colds[game] = statistics.median(run["seconds"] for run in runs)
        simulate(sides_of(game), FIGHTS, seed=2)  # this process's first: tables read
        started = time.perf_counter()
        simulate(sides_of(game), FIGHTS, seed=3)
        warm_s = time.perf_counter() - started
        wins = " / ".join(f"{chance:.3f}" for chance in middle["wins"])
        print(
            f"{game:<12} {colds[game]:7.2f} {middle['import']:8.2f} {middle['odds']:7.2f} "
            f"{middle['fights']:9.2f} {warm_s:7.2f} {FIGHTS / colds[game]:14,.0f}  "
            f"{wins} / {middle['draw']:.3f} / {middle['rounds']:.1f}"
        )
        each = ", ".join(f"{run['seconds']:.2f}" for run in runs)
        cpu = statistics.median(run.get("cpu", float("nan")) for run in runs)
        detail = (
            f"median of {RUNS} fresh processes ({each} s; CPU {cpu:.2f} s, the figure least "
            f"moved by the machine's load); import {middle['import']:.2f} s "
            f"({middle['modules']} modules), options and odds tables {middle['odds']:.2f} s, "
            f"fights {middle['fights']:.2f} s"
        )
        report("simulate.10k", f"{game}, 5 against 5", colds[game], detail=detail)
    print()
    chosen = list(GAMES) if "--million-all" in sys.argv else [max(colds, key=colds.__getitem__)]
    print(f"{MILLION:,} fights, a fresh process each, the progress bar on stderr")
    for game in chosen:
        run = fresh(game, MILLION, bar=True)
        report(
            "simulate.1m",
            f"{game}, 5 against 5, {MILLION:,} fights",
            run["seconds"],
            detail=(
                f"cold: import {run['import']:.2f} s, options and odds tables {run['odds']:.2f} s,"
                f" fights {run['fights']:.2f} s; CPU {run.get('cpu', float('nan')):.2f} s"
            ),
        )
    print(f"load average {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    if "--cold" in sys.argv:
        at = sys.argv.index("--cold")
        cold(sys.argv[at + 1], int(sys.argv[at + 2]), "--bar" in sys.argv)
    else:
        main()
