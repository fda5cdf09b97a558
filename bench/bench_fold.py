"""Folding a 10,000-event encounter log (goal: at most 200 ms), and opening it from the
campaign file, measured in one run (prints; asserts nothing)."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from gmkit.demo import demo_campaign
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.encounter.log import EventLog
from gmkit.store import CampaignStore

EVENTS = 10_000
GOAL_MS = 200.0


def build_log() -> list[dict]:
    """A Dark Heresy fight of 8 combatants: turns, conditions and notes up to EVENTS events."""
    roster = next(r for r in demo_campaign().rosters if r.game == "dark_heresy")
    fight = Encounter("dark_heresy")
    ids = fight.add_many(roster.sheets)
    fight.roll_initiative(SeededDice(1))
    fight.start(SeededDice(2))
    step = 0
    while len(fight.events) < EVENTS:
        step += 1
        current = fight.state.current
        if step % 5 == 0 and current is not None:
            fight.add_condition(ids[step % len(ids)], "stunned", rounds=2)
        elif step % 7 == 0:
            fight.note(f"note {step}")
        else:
            fight.next_turn()
    return [dict(event) for event in fight.events]


def fold_once(events: list[dict]) -> float:
    log = EventLog("dark_heresy")
    started = time.perf_counter()
    for event in events:
        log.replay(event)
    return time.perf_counter() - started


def open_once(path: Path) -> float:
    started = time.perf_counter()
    with CampaignStore(path) as store:
        Encounter.open(store, "bench")
    return time.perf_counter() - started


def main() -> None:
    events = build_log()
    folds = [fold_once(events) for _ in range(5)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.gmk"
        with CampaignStore(path, create=True) as store:
            encounter_id = store.create_encounter("bench", "dark_heresy")
            with store.transaction() as connection:
                for seq, event in enumerate(events, start=1):
                    import json

                    connection.execute(
                        "INSERT INTO events (encounter, seq, payload) VALUES (?, ?, ?)",
                        (encounter_id, seq, json.dumps(event, sort_keys=True)),
                    )
        opens = [open_once(path) for _ in range(3)]
    fold_ms = statistics.median(folds) * 1000
    open_ms = statistics.median(opens) * 1000
    print(f"fold of a {len(events):,}-event log (median of 5)")
    print(f"{'measure':<36} {'figure':>10} {'goal':>10}")
    print(f"{'fold in memory':<36} {fold_ms:>8.1f}ms {GOAL_MS:>8.0f}ms")
    print(f"{'per event':<36} {fold_ms / len(events) * 1000:>8.1f}us {'':>10}")
    print(f"{'open from the campaign file':<36} {open_ms:>8.1f}ms {'':>10}")
    print(f"{'open / fold ratio':<36} {open_ms / fold_ms:>9.2f}x {'':>10}")


if __name__ == "__main__":
    main()
