"""How fast the campaign file takes events: durable appends per second, measured in one run.

    python bench/bench_store.py [--dir FOLDER] [--events N]

Each GM action is one transaction that checks the expected seq and commits with
``synchronous=FULL`` (the WAL is fsynced, so the action survives a power cut): an action of one
event (an attack, a turn) is ``CampaignStore.append_event``; an action of several (a roster of 8
added) is ``CampaignStore.append_events``, its events committed together (group commit). The
reference, in the same run and on the same file: bare SQLite with the same settings (WAL,
``synchronous=FULL``), one INSERT per event and one COMMIT per action. For context, the single
appends with ``synchronous=NORMAL`` (survives a crash of the process, not of the machine) and
``synchronous=OFF`` (nothing fsynced), and the durable appends again while 4 player processes
poll the file every 20 ms. Goal: at least 500 durable appends/s. Modes are interleaved over
several rounds and the median taken, so a disk's bad second does not land on one mode only.
Put ``--dir`` on the disk the campaigns live on.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from goals import GOALS, report

from gmkit.store import CampaignStore

GOAL = GOALS["appends"].limit
GROUP = 8  # events of one grouped action: a roster added
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


def grouped_per_second(path: Path, events: int) -> float:
    """Durable events per second, GROUP events an action, one transaction an action."""
    with CampaignStore(path) as store:
        encounter = store.encounter_id("bench")
        seq = store.last_seq(encounter)
        started = time.perf_counter()
        deadline = started + SECONDS
        done = 0
        while done < events and (done % 400 or time.perf_counter() < deadline):
            store.append_events(
                encounter, [payload(seq + 1 + i) for i in range(GROUP)], seq=seq + 1
            )
            seq += GROUP
            done += GROUP
        return done / (time.perf_counter() - started)


def bare_per_second(path: Path, events: int, group: int) -> float:
    """The reference: bare sqlite3 on the same file with the same settings (WAL,
    synchronous=FULL), ``group`` INSERTs and one COMMIT an action."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA synchronous = FULL")
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        (seq,) = connection.execute("SELECT coalesce(max(seq), 0) FROM events").fetchone()
        started = time.perf_counter()
        deadline = started + SECONDS
        done = 0
        while done < events and (done % 400 or time.perf_counter() < deadline):
            connection.execute("BEGIN IMMEDIATE")
            for _ in range(group):
                seq += 1
                text = json.dumps(payload(seq), ensure_ascii=False, sort_keys=True)
                connection.execute(
                    "INSERT INTO events (encounter, seq, payload) VALUES (1, ?, ?)", (seq, text)
                )
            connection.execute("COMMIT")
            done += group
        return done / (time.perf_counter() - started)
    finally:
        connection.close()


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
        rates: dict[str, list[float]] = {
            mode: [] for mode in ("FULL", "NORMAL", "OFF", "FULL+4", "bare", "group", "bare group")
        }
        for _ in range(ROUNDS):
            for mode in ("FULL", "NORMAL", "OFF"):
                rates[mode].append(appends_per_second(path, mode, options.events))
            rates["bare"].append(bare_per_second(path, options.events, 1))
            rates["group"].append(grouped_per_second(path, options.events))
            rates["bare group"].append(bare_per_second(path, options.events, GROUP))
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
        "bare": "bare SQLite, same settings",
        "group": f"durable, {GROUP} events an action",
        "bare group": f"bare SQLite, {GROUP} an action",
        "NORMAL": "synchronous=NORMAL",
        "OFF": "synchronous=OFF",
        "FULL+4": "durable, 4 players polling",
    }
    for mode, label in labels.items():
        spread = ", ".join(f"{value:,.0f}" for value in rates[mode])
        print(f"  {label:<30} {median[mode]:>9,.0f} appends/s  ({spread})")
    durable = median["FULL"]
    print(f"  ratio OFF / FULL:    {median['OFF'] / durable:6.1f}x  (what durability costs)")
    print(f"  ratio NORMAL / FULL: {median['NORMAL'] / durable:6.1f}x")
    print(f"  ratio FULL+4 / FULL: {median['FULL+4'] / durable:6.2f}x  (players polling)")
    print(f"  ratio group / FULL:  {median['group'] / durable:6.1f}x  (events an action)")
    print(f"  {time.perf_counter() - started:.1f} s")
    report(
        "appends",
        "one event an action (an attack, a turn)",
        durable,
        reference=("bare SQLite, same settings", median["bare"]),
        detail=f"{durable / median['bare']:.2f}x bare SQLite",
    )
    report(
        "appends",
        f"{GROUP} events an action (a roster added), one transaction",
        median["group"],
        reference=("bare SQLite, same settings", median["bare group"]),
        detail=f"{median['group'] / median['bare group']:.2f}x bare SQLite",
    )


if __name__ == "__main__":
    main()
