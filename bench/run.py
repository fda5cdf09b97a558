"""Run every benchmark in this folder, one after another, and print their tables.

    python bench/run.py            # all of them
    python bench/run.py store odds # only those whose file name contains a word given

Each ``bench_*.py`` prints figures and ratios measured in its own single run, with the goal
beside each. This runner never fails a build on a slow machine: a benchmark that crashes is
reported, and the exit status is 0 unless a benchmark file is missing altogether.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIMIT = 300  # seconds a benchmark may take before it is stopped and reported


def main(words: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if words:
        scripts = [s for s in scripts if any(word in s.stem for word in words)]
    if not scripts:
        print("bench: no benchmark matches", words)
        return 1
    for script in scripts:
        print(f"\n=== {script.stem} ===", flush=True)
        started = time.perf_counter()
        try:
            finished = subprocess.run([sys.executable, str(script)], check=False, timeout=LIMIT)
            code = finished.returncode
        except subprocess.TimeoutExpired:
            code = None
        took = time.perf_counter() - started
        if code is None:
            verdict = f"STOPPED after {LIMIT} s"
        else:
            verdict = "ok" if code == 0 else f"FAILED (exit {code})"
        print(f"--- {script.stem}: {verdict} in {took:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
