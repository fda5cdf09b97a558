"""How fast the campaign file takes events: durable appends per second, measured in one run.

    python bench/bench_store.py [--dir FOLDER] [--events N]

Each append is ``CampaignStore.append_event``: one transaction that checks the expected seq and
commits with ``synchronous=FULL`` (the WAL is fsynced, so the event survives a power cut). For
context, the same appends in the same run with ``synchronous=NORMAL`` (survives a crash of the
process, not of the machine) and ``synchronous=OFF`` (nothing fsynced), and the durable appends
again while 4 player processes poll the file every 20 ms. Goal: at least 500 durable appends/s.
Modes are interleaved over several rounds and the median taken, so a disk's bad second does not
land on one mode only. Put ``--dir`` on the disk the campaigns live on.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gmkit.store import CampaignStore

GOAL = 500
ROUNDS = 3
SECONDS = 1.5  # at most, per measure: the whole run stays under 30 s
PLAYER = """
import sys, time
from gmkit.store import CampaignStore
store = CampaignStore(sys.argv[1], readonly=True)
last = 0
print("ready", flush=True)
while True:
    new = store.events(1, after=last)
    if new:
        last = new[-1].seq
    time.sleep(0.02)
"""


def payload(seq: int) -> dict[str, object]:
    """An event of a typical size (an attack with its rolls is a few hundred bytes)."""
    rolls = [
        {"sides": 10, "value": (seq * 7 + i) % 10 + 1, "purpose": f"damage die {i}"}
        for i in range(4)
    ]
    return {
        "kind": "attack",
        "attacker": "ilse-marr",
        "target": "cultist-3",
        "rolls": rolls,
        "visibility": "public",
        "seq": seq,
    }


def appends_per_second(path: Path, synchronous: str, events: int) -> float:
    with CampaignStore(path) as store:
        store._connection.execute(f"PRAGMA synchronous = {synchronous}")
        encounter = store.encounter_id("bench")
        seq = store.last_seq(encounter)
        started = time.perf_counter()
        deadline = started + SECONDS  # a slow disk ends the measure early, not the run late
        done = 0
        while done < events and (done % 50 or time.perf_counter() < deadline):
            seq += 1
            store.append_event(encounter, payload(seq), seq=seq)
            done += 1
        return done / (time.perf_counter() - started)


def with_players(path: Path, events: int, count: int = 4) -> float:
    players = [
        subprocess.Popen(
            [sys.executable, "-c", PLAYER, str(path)], stdout=subprocess.PIPE, text=True
        )
        for _ in range(count)
    ]
    try:
        for player in players:
            assert player.stdout is not None
            if player.stdout.readline() != "ready\n":
                raise SystemExit("a player process did not start")
        return appends_per_second(path, "FULL", events)
    finally:
        for player in players:
            player.kill()
            player.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=None, help="folder for the campaign file")
    parser.add_argument(
        "--events", type=int, default=2000, help="appends per mode and round (at most)"
    )
    options = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=options.dir) as folder:
        path = Path(folder) / "bench.gmk"
        with CampaignStore(path, create=True) as store:
            store.create_encounter("bench", "dark_heresy")
        appends_per_second(path, "FULL", 100)  # warm up: page cache, WAL file grown
        rates: dict[str, list[float]] = {"FULL": [], "NORMAL": [], "OFF": [], "FULL+4": []}
        for _ in range(ROUNDS):
            for mode in ("FULL", "NORMAL", "OFF"):
                rates[mode].append(appends_per_second(path, mode, options.events))
            rates["FULL+4"].append(with_players(path, options.events))
        with CampaignStore(path, readonly=True) as store:
            total = store.last_seq(1)
        size = path.stat().st_size
    median = {mode: statistics.median(values) for mode, values in rates.items()}
    print(
        f"campaign file in {options.dir or tempfile.gettempdir()}; {options.events} appends "
        f"per mode and round, {ROUNDS} rounds, medians; {total} events, {size // 1024} KiB"
    )
    labels = {
        "FULL": "durable (synchronous=FULL)",
        "NORMAL": "synchronous=NORMAL",
        "OFF": "synchronous=OFF",
        "FULL+4": "durable, 4 players polling",
    }
    for mode, label in labels.items():
        spread = ", ".join(f"{value:,.0f}" for value in rates[mode])
        print(f"  {label:<28} {median[mode]:>9,.0f} appends/s  ({spread})")
    durable = median["FULL"]
    print(f"  ratio OFF / FULL:    {median['OFF'] / durable:6.1f}x  (what durability costs)")
    print(f"  ratio NORMAL / FULL: {median['NORMAL'] / durable:6.1f}x")
    print(f"  ratio FULL+4 / FULL: {median['FULL+4'] / durable:6.2f}x  (players polling)")
    verdict = "met" if durable >= GOAL else "NOT met"
    print(f"  goal {GOAL} durable appends/s: {verdict} ({durable / GOAL:.1f}x the goal)")
    print(f"  {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
