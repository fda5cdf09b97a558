"""The processes the store tests start: ``python workers.py <role> ...``.

- ``append PATH ENCOUNTER [AUTOCHECKPOINT]``: append events forever with ``append_event``,
  printing each seq right after its transaction commits (the crash test SIGKILLs it).
- ``gm PATH NAME TOTAL SEED``: the GM's writer: play an encounter through ``Encounter`` commands
  until its log holds TOTAL events; print a JSON report.
- ``player PATH NAME TOTAL MODE``: a player view: poll ``events(after=last)`` every 20 ms until the
  event TOTAL arrives, following with ``Encounter.refresh``; print a JSON report.
- ``stale PATH ENCOUNTER SEQ``: a second writer appending ``SEQ``; exit 0 if refused.

Also imported by the tests (tests/store/conftest.py) for :func:`payload_for` and
:func:`digest`.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from typing import Any

WORDS = ("ambush", "sump", "las-bolt", "frag", "pinned", "wounded", "grenade", "overwatch")


def payload_for(seq: int) -> dict[str, Any]:
    """The event the append writer writes as ``seq``: deterministic, 20 B to ~6 kB, so some
    events spill onto overflow pages and a kill can land mid-way through any of them."""
    size = (seq * 7919) % 6007
    text = " ".join(WORDS[(seq + i) % len(WORDS)] for i in range(size // 8))
    return {"kind": "note", "seq": seq, "text": text, "visibility": "gm", "n": [seq] * (seq % 5)}


def digest(payload: dict[str, Any]) -> str:
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def append(path: str, encounter: int, autocheckpoint: int) -> None:
    from gmkit.store import CampaignStore

    store = CampaignStore(path)
    if autocheckpoint:  # checkpoint often, so that kills also land inside a checkpoint
        store._connection.execute(f"PRAGMA wal_autocheckpoint = {autocheckpoint}")
    seq = store.last_seq(encounter)
    while True:
        seq += 1
        store.append_event(encounter, payload_for(seq), seq=seq)
        print(seq, flush=True)  # after the commit: every seq printed is durable


def state_report(fight: Any) -> dict[str, Any]:
    return {
        "events": len(fight.events),
        "state": repr(fight.state),
        "player_view": json.loads(json.dumps(fight.player_view(), default=str)),
    }


def gm(path: str, name: str, total: int, seed: int) -> None:
    import random

    from gmkit.dice import SeededDice
    from gmkit.encounter import Encounter
    from gmkit.errors import RulesError
    from gmkit.store import CampaignStore

    store = CampaignStore(path)
    fight = Encounter.open(store, name)
    roster = next(r for r in store.rosters() if r.game == fight.game)
    committed: dict[int, float] = {}
    slowest = 0.0
    rng = random.Random(seed)
    dice = SeededDice(seed)
    refused = 0

    def command(action: Any, *args: Any, **options: Any) -> None:
        nonlocal slowest, refused
        before = len(fight.events)
        started = time.perf_counter()
        try:
            action(*args, **options)
        except RulesError:
            refused += 1
            return
        slowest = max(slowest, time.perf_counter() - started)
        assert len(fight.events) == before + 1
        committed[before + 1] = time.time()

    for sheet in roster.sheets:
        command(fight.add, sheet)
    command(fight.roll_initiative, dice)
    command(fight.start, dice)
    ids = list(fight.state.combatants)
    while len(fight.events) < total:
        roll = rng.random()
        if roll < 0.5:
            command(fight.next_turn)
        elif roll < 0.7:
            condition = rng.choice(["stunned", "on fire", "prone", "pinned"])
            command(fight.add_condition, rng.choice(ids), condition, rounds=rng.randint(1, 3))
        elif roll < 0.85:
            command(fight.note, f"note {len(fight.events)}", gm_only=rng.random() < 0.5)
        elif roll < 0.95:
            command(fight.undo)
        else:
            command(fight.redo)
    stored = store.events(fight.encounter_id or 0)
    report = {
        "seqs": [event.seq for event in stored],
        "digests": [digest(event.payload) for event in stored],
        "written": [digest(event) for event in fight.events],
        "committed": committed,
        "slowest_command": slowest,
        "refused": refused,
        **state_report(fight),
    }
    store.close()
    print(json.dumps(report), flush=True)


def player(path: str, name: str, total: int, mode: str) -> None:
    from gmkit.encounter import Encounter
    from gmkit.store import CampaignStore

    store = CampaignStore(path, readonly=mode == "readonly")
    fight = Encounter.open(store, name)
    ident = fight.encounter_id or 0
    print("ready", flush=True)
    seqs: list[int] = []
    digests: list[str] = []
    seen: dict[int, float] = {}
    polls = 0
    last = 0
    deadline = time.monotonic() + 120
    while last < total:
        if time.monotonic() > deadline:
            raise SystemExit(f"player: saw {last} of {total} events before the deadline")
        new = store.events(ident, after=last)
        now = time.time()
        polls += 1
        for event in new:
            seqs.append(event.seq)
            digests.append(digest(event.payload))
            seen[event.seq] = now
        if new:
            last = new[-1].seq
            fight.refresh()
        if last < total:
            time.sleep(0.02)
    store.close()
    report = {"seqs": seqs, "digests": digests, "seen": seen, "polls": polls}
    print(json.dumps({**report, **state_report(fight)}), flush=True)


def stale(path: str, encounter: int, seq: int) -> None:
    from gmkit.store import CampaignStore, StoreError

    store = CampaignStore(path)
    try:
        store.append_event(encounter, {"kind": "note", "text": "from the second writer"}, seq=seq)
    except StoreError as error:
        print(f"refused: {error}", flush=True)
        raise SystemExit(0) from None
    raise SystemExit("the stale append was accepted")


def main(argv: list[str]) -> None:
    role, path, *rest = argv
    if role == "append":
        append(path, int(rest[0]), int(rest[1]) if len(rest) > 1 else 0)
    elif role == "gm":
        gm(path, rest[0], int(rest[1]), int(rest[2]))
    elif role == "player":
        player(path, rest[0], int(rest[1]), rest[2])
    elif role == "stale":
        stale(path, int(rest[0]), int(rest[1]))
    else:
        raise SystemExit(f"unknown role {role!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
