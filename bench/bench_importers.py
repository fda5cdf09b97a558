"""Hostile files against the importers: the time each is refused in, beside a good roster's
import in the same run. Prints a table; asserts nothing (the tests assert the refusals).

Run: ``.venv/bin/python bench/bench_importers.py``. Goal (issue 13): every hostile input
answered in under 2 s.
"""

from __future__ import annotations

import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_hostile_files import HOSTILE, LAUGHS, MULTIPLIED

from gmkit.campaign import import_document, read_roster_file
from gmkit.errors import GmkitError

GOAL_S = 2.0
ROSTER = Path(__file__).resolve().parent.parent / "notebooks" / "acolytes.csv"


def timed(call: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        with contextlib.suppress(GmkitError):  # a refusal is the answer being timed
            call()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> int:
    folder = Path(tempfile.mkdtemp(prefix="gmkit-bench-"))
    good = timed(lambda: read_roster_file(ROSTER, game="dark_heresy"))
    cases: list[tuple[str, Callable[[], object]]] = []
    laughs = folder / "laughs.yaml"
    laughs.write_text(LAUGHS)
    cases.append(("billion laughs roster (gmkit import)", lambda: read_roster_file(laughs)))
    multiplied = folder / "multiplied.yaml"
    multiplied.write_text(MULTIPLIED)
    target = folder / "multiplied.gmk"
    cases.append(
        ("multiplied campaign document (gmkit table)", lambda: import_document(multiplied, target))
    )
    for number, (name, content, _) in enumerate(HOSTILE, start=1):
        path = folder / f"{number}-{name}"
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        cases.append((f"hostile {number} ({name})", lambda p=path: read_roster_file(p)))
    print(f"a good roster (acolytes.csv): {good * 1000:.1f} ms")
    print(f"{'input':48} {'ms':>9} {'x good':>8}  goal < {GOAL_S:.0f} s")
    worst = 0.0
    for label, call in cases:
        seconds = timed(call)
        worst = max(worst, seconds)
        print(f"{label:48} {seconds * 1000:9.1f} {seconds / good:8.1f}")
    print(f"worst: {worst * 1000:.1f} ms ({'met' if worst < GOAL_S else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
