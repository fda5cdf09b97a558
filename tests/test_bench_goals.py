"""bench/goals.py and bench/run.py: the goals' verdicts and the runner's summary (no timing)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import goals  # noqa: E402
import run  # noqa: E402


def test_a_goal_at_most_and_at_least() -> None:
    assert goals.GOALS["odds.warm"].met(1.0)
    assert not goals.GOALS["odds.warm"].met(1.01)
    assert goals.GOALS["appends"].met(500)
    assert not goals.GOALS["appends"].met(499.9)
    assert goals.GOALS["load_state"].limit == pytest.approx(147 / 2)


def test_report_writes_a_record_the_runner_reads(tmp_path: Path, monkeypatch, capsys) -> None:
    records = tmp_path / "results.jsonl"
    monkeypatch.setenv("GMKIT_BENCH_RESULTS", str(records))
    goals.report("click", "next turn", 1.8, reference=("bare Button->Label", 12.0))
    goals.report("click", "attack", 1.2, reference=("bare Button->Label", 12.0))
    printed = capsys.readouterr().out
    assert "NOT met" in printed
    assert "against bare Button->Label: 12" in printed
    results = goals.read_results(str(records))
    assert [r.figure for r in results] == [1.8, 1.2]
    assert [r.met for r in results] == [False, True]
    row = next(r for r in run.summary(results) if r[0].startswith("click"))
    assert row[1] == "1.8 x (next turn)"
    assert row[4] == "NOT met (1/2 cases)"
    missing = next(r for r in run.summary(results) if r[0].startswith("fold"))
    assert missing[1] == "not measured"


def test_an_unknown_goal_or_record_is_refused(tmp_path: Path) -> None:
    with pytest.raises(KeyError, match=r"no goal 'odds\.hot'"):
        goals.report("odds.hot", "x", 1.0)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"goal": "fold", "figure": 1.0}) + "\n")
    with pytest.raises(ValueError, match=r"bad\.jsonl:1: not a benchmark result"):
        goals.read_results(str(bad))


def test_the_runner_says_a_benchmark_that_matches_nothing() -> None:
    finished = subprocess.run(
        [sys.executable, str(BENCH / "run.py"), "no-such-benchmark"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert finished.returncode == 1
    assert "no benchmark matches" in finished.stdout
