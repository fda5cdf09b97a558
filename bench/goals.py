"""The goals of issue 14, and the one way a benchmark reports a figure against one.

A benchmark calls :func:`report` once per goal it measures, with the figure of this run and,
where the goal is a ratio, the reference measured in the same run. The line is printed at
once; when ``bench/run.py`` runs the benchmark it also receives the result as a JSON record
(``GMKIT_BENCH_RESULTS`` names the file), so the runner's summary table is built from declared
fields, never parsed back from the printed text.

    from goals import report
    report("odds.warm", "DH Lasgun single shot", 0.42)
    report("click", "next turn, click to screen", 31.0, reference=("bare Button->Label", 12.0))
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from typing import Literal

Direction = Literal["at_most", "at_least"]


@dataclass(frozen=True)
class Goal:
    """A goal of the issue: what is measured, its limit, and in what unit."""

    key: str
    title: str
    limit: float
    unit: str  # "ms", "s", "x", "KB", "/s", "kernels"
    direction: Direction = "at_most"
    ratio: bool = False  # the figure is a ratio to a reference measured in the same run

    def met(self, figure: float) -> bool:
        return figure <= self.limit if self.direction == "at_most" else figure >= self.limit

    def describe(self) -> str:
        sign = "<=" if self.direction == "at_most" else ">="
        return f"{sign} {self.limit:g} {self.unit}".rstrip()


GOALS: dict[str, Goal] = {
    goal.key: goal
    for goal in (
        Goal("odds.warm", "odds of one attack, median warm", 1.0, "ms"),
        Goal("odds.first", "odds the first time for a new attacker or weapon", 10.0, "ms"),
        Goal("odds.curve", "121-point curve against the modifier", 20.0, "ms"),
        Goal("odds.float_error", "fast float path, largest error against the exact", 1e-12, ""),
        Goal("odds.monte_carlo", "Monte Carlo (1M trials) / exact odds, bursts", 300.0, "x",
             "at_least", ratio=True),
        Goal("click", "click to updated screen / bare Button->Label", 1.5, "x", ratio=True),
        Goal("tti", "time to interactive / empty notebook", 1.2, "x", ratio=True),
        Goal("pool", "preheated kernels in the pool", 2.0, "kernels", "at_least"),
        Goal("load_state", "widget state at load", 73.5, "KB"),
        Goal("tracker.next_turn", "1,000 combatants: next turn", 5.0, "ms"),
        Goal("fold", "fold of 10,000 events", 100.0, "ms"),
        Goal("open", "open an encounter of 100,000 events", 1.0, "s"),
        Goal("simulate.10k", "10,000 fights of 5 against 5, cold", 1.0, "s"),
        Goal("simulate.1m", "1,000,000 fights of 5 against 5, with progress", 30.0, "s"),
        Goal("appends", "durable appends per second, one GM action a transaction", 500.0,
             "/s", "at_least"),
        Goal("phones.memory", "memory per phone / a kernel per phone", 0.1, "x", ratio=True),
        Goal("phones.update", "a phone's update, 10 tables of 6 phones / alone", 1.5, "x",
             ratio=True),
    )
}  # fmt: skip


@dataclass(frozen=True)
class Result:
    """One figure of one run against one goal."""

    goal: str
    case: str
    figure: float
    reference_name: str = ""
    reference: float | None = None  # the reference figure when the goal is a ratio
    detail: str = ""

    @property
    def met(self) -> bool:
        return GOALS[self.goal].met(self.figure)


def report(
    goal: str,
    case: str,
    figure: float,
    *,
    reference: tuple[str, float] | None = None,
    detail: str = "",
) -> Result:
    """Print one figure against its goal, and hand it to ``bench/run.py`` if it is listening.

    ``figure`` is in the goal's unit; for a ratio goal it is the ratio itself and ``reference``
    names the same run's reference and its figure (printed beside it)."""
    if goal not in GOALS:
        raise KeyError(f"bench: no goal {goal!r}; the goals are {', '.join(GOALS)}")
    result = Result(
        goal,
        case,
        float(figure),
        reference[0] if reference else "",
        reference[1] if reference else None,
        detail,
    )
    print("GOAL " + line(result), flush=True)
    target = os.environ.get("GMKIT_BENCH_RESULTS")
    if target:
        with open(target, "a", encoding="utf-8") as out:
            out.write(json.dumps(asdict(result)) + "\n")
    return result


def line(result: Result) -> str:
    spec = GOALS[result.goal]
    against = ""
    if result.reference is not None:
        against = f" (against {result.reference_name}: {result.reference:g})"
    verdict = "met" if result.met else "NOT met"
    detail = f"; {result.detail}" if result.detail else ""
    return (
        f"{spec.title} [{result.case}]: {with_unit(result.figure, spec.unit)}{against}, "
        f"goal {spec.describe()}: {verdict}{detail}"
    )


def with_unit(figure: float, unit: str) -> str:
    return f"{figure_text(figure)} {unit}".rstrip()


def figure_text(figure: float) -> str:
    if figure != 0 and abs(figure) < 1e-3:
        return f"{figure:.1e}"
    if abs(figure) >= 100:
        return f"{figure:,.0f}"
    return f"{figure:.3g}" if abs(figure) < 10 else f"{figure:.1f}"


def read_results(path: str) -> list[Result]:
    """The records a run left in ``path`` (each a Result's fields; anything else is refused)."""
    results = []
    with open(path, encoding="utf-8") as source:
        for number, text in enumerate(source, 1):
            fields = json.loads(text)
            if set(fields) != set(Result.__dataclass_fields__):
                raise ValueError(f"{path}:{number}: not a benchmark result: {sorted(fields)}")
            results.append(Result(**fields))
    return results
