"""Crash test: writers SIGKILLed at seeded moments never lose a committed event or leave half of
one. The writer (workers.py append) prints each seq right after its transaction commits."""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time

import pytest
from postgres_server import stored_rows

from gmkit.store import CampaignStore, is_database_url

SEED = 20240501
KILLS = {"file": 100, "postgresql": 50}


def read_lines(process, count: int) -> list[str]:
    """``count`` lines from the writer (it must not die before printing them)."""
    lines = []
    while len(lines) < count:
        line = process.stdout.readline()
        if not line:
            _, err = process.communicate()
            raise AssertionError(f"writer exited with {process.returncode} early:\n{err}")
        lines.append(line)
    return lines


def check_file(path, workers, reported: int) -> int:
    """The campaign after a kill: every reported seq is there, seqs are 1..n with n at most one
    past the last reported (committed, killed before printing), every payload whole."""
    rows = stored_rows(str(path))
    seqs = [seq for seq, _ in rows]
    assert seqs == list(range(1, len(seqs) + 1)), "seqs not contiguous"
    assert reported <= len(seqs) <= reported + 1
    for seq, text in rows:
        assert json.loads(text) == workers.payload_for(seq)
    with CampaignStore(path) as store:
        assert store.last_seq(1) == len(seqs)
        assert [event.seq for event in store.events(1, after=len(seqs) - 3)] == seqs[-3:]
        assert store.rosters() == []
    return len(seqs)


@pytest.mark.slow  # writers killed with SIGKILL, in subprocesses: not in `scripts/test --quick`
def test_sigkilled_writers_lose_nothing_committed(campaign_at, spawn, workers):
    rng = random.Random(SEED)
    path = campaign_at("crash")
    database = is_database_url(path)
    kills = KILLS["postgresql" if database else "file"]
    with CampaignStore(path, create=True) as store:
        assert store.create_encounter("crash", "necromunda") == 1
    durable = 0  # events in the file after the last kill
    unprinted = early = often = 0
    started = time.monotonic()
    for kill in range(kills):
        lines = 0 if rng.random() < 0.15 else rng.randint(1, 30)  # 0: kill while it starts
        pause = rng.uniform(0, 0.3) if lines == 0 else rng.choice([0, 0, rng.uniform(0, 0.004)])
        autocheckpoint = rng.choice([0, 2, 16])  # pages; 0: SQLite's default of 1000
        autocheckpoint = 0 if database else autocheckpoint  # a file's write-ahead log only
        early += lines == 0
        often += autocheckpoint > 0
        writer = spawn("append", path, 1, autocheckpoint)
        watchdog = threading.Timer(30, writer.kill)
        watchdog.start()
        try:
            seen = read_lines(writer, lines)
            time.sleep(pause)
            os.kill(writer.pid, signal.SIGKILL)
            writer.wait(timeout=30)
            # read() and not communicate(): communicate reads the raw pipe and would skip the
            # lines readline() already pulled into the text buffer.
            rest, err = writer.stdout.read(), writer.stderr.read()
        finally:
            watchdog.cancel()
        assert writer.returncode == -signal.SIGKILL, f"kill {kill}: {err}"
        assert err == "", f"kill {kill}: {err}"
        complete = [line for line in seen + rest.splitlines(keepends=True) if line.endswith("\n")]
        printed = [int(line) for line in complete]
        assert printed == list(range(durable + 1, durable + 1 + len(printed))), f"kill {kill}"
        last_printed = printed[-1] if printed else durable
        count = check_file(path, workers, last_printed)
        unprinted += count - last_printed
        durable = count
    elapsed = time.monotonic() - started
    print(
        f"\n{kills} SIGKILLs ({early} while starting, {often} writers checkpointing often): "
        f"{durable} events durable, {unprinted} committed but killed before printing, "
        f"{elapsed:.1f} s"
    )
    assert durable >= kills
