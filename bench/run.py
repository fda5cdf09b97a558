"""Run every benchmark in this folder, one after another, and print what each goal measured.

    python bench/run.py              # all of them
    python bench/run.py store odds   # only those whose file name contains a word given
    python bench/run.py --markdown   # the summary also as README's Markdown table

Each ``bench_*.py`` prints its own tables and reports every figure a goal names through
``bench/goals.py``; the runner hands each one a file for those records and, at the end, prints
one line per goal of issue 14: its worst figure in this run, its case, the reference measured
in the same run where the goal is a ratio, the goal, and met or NOT met (a goal nothing
measured says so). The machine's cores and load average are printed before and after, since
a shared machine's figures mean little without them. The runner never fails a build on a slow
machine: a benchmark that crashes is reported, and the exit status is 0 unless no benchmark
file matches.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from goals import GOALS, Result, line, read_results, with_unit

HERE = Path(__file__).resolve().parent
LIMIT = 420  # seconds a benchmark may take before it is stopped and reported


def machine() -> str:
    one, five, fifteen = os.getloadavg()
    return (
        f"{os.cpu_count()} cores, load average {one:.2f} / {five:.2f} / {fifteen:.2f} "
        f"(1 / 5 / 15 min), Python {platform.python_version()}"
    )


def run(scripts: list[Path], records: Path) -> list[str]:
    """Run each benchmark in a fresh process; the verdict of each."""
    verdicts = []
    environment = {**os.environ, "GMKIT_BENCH_RESULTS": str(records)}
    for script in scripts:
        print(f"\n=== {script.stem} === ({machine()})", flush=True)
        started = time.perf_counter()
        try:
            finished = subprocess.run(
                [sys.executable, str(script)], check=False, timeout=LIMIT, env=environment
            )
            code: int | None = finished.returncode
        except subprocess.TimeoutExpired:
            code = None
        took = time.perf_counter() - started
        if code is None:
            verdict = f"STOPPED after {LIMIT} s"
        else:
            verdict = "ok" if code == 0 else f"FAILED (exit {code})"
        verdicts.append(f"{script.stem}: {verdict} in {took:.1f} s")
        print(f"--- {verdicts[-1]}", flush=True)
    return verdicts


def worst(results: list[Result]) -> Result:
    """The case furthest from its goal (the largest figure of an at-most goal)."""
    spec = GOALS[results[0].goal]
    pick = max if spec.direction == "at_most" else min
    return pick(results, key=lambda result: result.figure)


def summary(results: list[Result]) -> list[tuple[str, str, str, str, str]]:
    """One row per goal: title, worst figure (its case), reference, goal, verdict."""
    rows = []
    for key, spec in GOALS.items():
        mine = [result for result in results if result.goal == key]
        if not mine:
            rows.append((spec.title, "not measured", "", spec.describe(), "not measured"))
            continue
        bad = worst(mine)
        met = sum(result.met for result in mine)
        figure = f"{with_unit(bad.figure, spec.unit)} ({bad.case})"
        reference = ""
        if bad.reference is not None:
            reference = f"{bad.reference_name}: {bad.reference:g}"
        verdict = "met" if met == len(mine) else "NOT met"
        verdict += f" ({met}/{len(mine)} cases)" if len(mine) > 1 else ""
        rows.append((spec.title, figure, reference, spec.describe(), verdict))
    return rows


def main(arguments: list[str]) -> int:
    markdown = "--markdown" in arguments
    words = [word for word in arguments if not word.startswith("--")]
    scripts = sorted(HERE.glob("bench_*.py"))
    if words:
        scripts = [s for s in scripts if any(word in s.stem for word in words)]
    if not scripts:
        print("bench: no benchmark matches", words)
        return 1
    before = machine()
    with tempfile.TemporaryDirectory(prefix="gmkit-bench-") as folder:
        records = Path(folder) / "results.jsonl"
        records.touch()
        verdicts = run(scripts, records)
        results = read_results(str(records))
    print("\n=== summary: issue 14's goals, this run ===")
    print(f"before: {before}\nafter:  {machine()}")
    for verdict in verdicts:
        print(f"  {verdict}")
    print("\nevery figure:")
    for result in results:
        print(f"  {line(result)}")
    rows = summary(results)
    print("\nper goal (the worst case of this run):")
    for title, figure, reference, goal, verdict in rows:
        against = f" against {reference}" if reference else ""
        print(f"  {title}: {figure}{against}; goal {goal}: {verdict}")
    if markdown:
        print("\n| goal | worst figure of the run (case) | same-run reference | goal | met |")
        print("|---|---|---|---|---|")
        for row in rows:
            print("| " + " | ".join(cell.replace("|", "/") for cell in row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
