"""Folding a 10,000-event encounter log, and opening a 100,000-event one from the campaign
file, measured in one run (prints; asserts nothing).

    python bench/bench_fold.py [--open-events N]

The log is a Dark Heresy fight of 8 combatants played through the commands (turns, conditions,
notes); the 100,000-event log repeats its fight past the start (every event replays: turns,
conditions on the same combatants, notes). "fold" is ``EventLog.replay`` of every event;
"open" is what the table does: ``CampaignStore(path)`` (the file's checks: every event decoded
once) then ``Encounter.open`` (read, fold). Medians of several runs.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from goals import report

from gmkit.demo import demo_campaign
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.encounter._log import EventLog
from gmkit.store import CampaignStore

EVENTS = 10_000
OPEN_EVENTS = 100_000
FOLDS = 7
OPENS = 3


def build_log(events: int = EVENTS) -> list[dict]:
    """A Dark Heresy fight of 8 combatants: turns, conditions and notes up to ``events``."""
    roster = next(r for r in demo_campaign().rosters if r.game == "dark_heresy")
    fight = Encounter("dark_heresy")
    ids = fight.add_many(roster.sheets)
    fight.roll_initiative(SeededDice(1))
    fight.start(SeededDice(2))
    step = 0
    while fight.last_seq < events:
        step += 1
        if step % 5 == 0:
            fight.add_condition(ids[step % len(ids)], "stunned", rounds=2)
        elif step % 7 == 0:
            fight.note(f"note {step}")
        else:
            fight.next_turn()
    return [dict(event) for event in fight.events]


def longer(events: list[dict], count: int) -> list[dict]:
    """``events`` with the fight after its start repeated up to ``count`` events."""
    start = next(n for n, event in enumerate(events) if event["kind"] == "started") + 1
    body = events[start:]
    out = list(events)
    while len(out) < count:
        out.extend(body[: count - len(out)])
    return out


def fold_once(events: list[dict], *, collect: bool = False) -> float:
    """Seconds to fold ``events``; with the collector off, as ``Encounter.refresh`` folds a
    long log (the goal's figure), or on (``collect``: how the collector weighs on it)."""
    log = EventLog("dark_heresy")
    gc.collect()
    if not collect:
        gc.disable()
    try:
        started = time.perf_counter()
        for event in events:
            log.replay(event)
        return time.perf_counter() - started
    finally:
        gc.enable()


def write(path: Path, events: list[dict]) -> None:
    with CampaignStore(path, create=True) as store:
        encounter = store.create_encounter("bench", "dark_heresy")
        with store.transaction() as connection:
            connection.executemany(
                "INSERT INTO events (encounter, seq, payload) VALUES (?, ?, ?)",
                (
                    (encounter, seq, json.dumps(event, ensure_ascii=False, sort_keys=True))
                    for seq, event in enumerate(events, start=1)
                ),
            )


def open_once(path: Path) -> tuple[float, float]:
    """Seconds to open the file (its checks), and to open the encounter (read and fold)."""
    gc.collect()
    started = time.perf_counter()
    with CampaignStore(path) as store:
        checked = time.perf_counter()
        Encounter.open(store, "bench")
        opened = time.perf_counter()
    return checked - started, opened - checked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--open-events", type=int, default=OPEN_EVENTS)
    options = parser.parse_args()
    began = time.perf_counter()
    events = build_log()
    folds = [fold_once(events) for _ in range(FOLDS)]
    fold_ms = statistics.median(folds) * 1000
    collected_ms = statistics.median(fold_once(events, collect=True) for _ in range(FOLDS)) * 1e3
    many = longer(events, options.open_events)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.gmk"
        write(path, many)
        opens = [open_once(path) for _ in range(OPENS)]
        size = path.stat().st_size
    check_s = statistics.median(check for check, _ in opens)
    encounter_s = statistics.median(encounter for _, encounter in opens)
    open_s = statistics.median(check + encounter for check, encounter in opens)
    print(f"fold of a {len(events):,}-event log (median of {FOLDS}); open of {len(many):,}")
    print(f"{'measure':<44} {'figure':>10}")
    print(f"{'fold in memory (collector off, as on open)':<44} {fold_ms:>8.1f}ms")
    print(f"{'fold in memory, the collector on':<44} {collected_ms:>8.1f}ms")
    print(f"{'fold per event':<44} {fold_ms / len(events) * 1000:>8.1f}us")
    print(f"{'open: the file and its checks':<44} {check_s:>9.2f}s")
    print(f"{'open: the encounter (read and fold)':<44} {encounter_s:>9.2f}s")
    print(f"{'open per event':<44} {open_s / len(many) * 1e6:>8.1f}us")
    print(f"  campaign file {size // 1024:,} KiB; {time.perf_counter() - began:.1f} s in all")
    spread = ", ".join(f"{value * 1000:.0f}" for value in folds)
    report("fold", f"{len(events):,} events, Dark Heresy, 8 combatants", fold_ms,
           detail=f"runs {spread} ms")  # fmt: skip
    report(
        "open",
        f"{len(many):,} events from the campaign file",
        open_s,
        detail=f"checks {check_s:.2f} s, read and fold {encounter_s:.2f} s",
    )


if __name__ == "__main__":
    main()
