"""The initiative tracker's next turn at 10, 100 and 1,000 combatants: the time of
``tracker.next_turn()`` (the encounter's command plus the tracker's update, what the GM's click
costs in the kernel), the encounter's command alone on a twin fight (measured interleaved with
it, turn for turn, so the machine's load falls on both alike), and the tracker's own update (its
``_render``, timed inside the same calls). Reported through ``bench/goals.py`` as
``tracker.next_turn`` (the median turn), the case naming the game and the count; asserts nothing.

Each fight is played for more than a round (every turn change, round ends included). The
slowest turn is printed too, with the garbage collector's share of it (a large fight is frozen
once open, as the dashboard does: gmkit.encounter._kept); in a sides game the side change
re-marks every row of both sides (who acts now, who has acted), one class message a row, the
one turn whose cost still grows with the count. "every row rendered" is the same tracker made
to forget what it drew before each turn (what the tracker did before rows were rendered only
when changed), for the ratio.

Run: ``.venv/bin/python bench/bench_tracker.py`` (in this process: widget messages go to
ipywidgets' dummy comm), or with ``--kernel`` to measure inside a fresh ipykernel, where every
widget update is serialized and sent on the kernel's iopub channel as in a notebook.
"""

from __future__ import annotations

import ast
import gc
import statistics
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import ipywidgets

sys.path.insert(0, str(Path(__file__).resolve().parent))

from goals import report

from gmkit.demo import demo_campaign
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.encounter._kept import release, settle
from gmkit.widgets._tracker import InitiativeTracker

COUNTS = (10, 100, 1000)
GAMES = ("dark_heresy", "necromunda")
SIDES_TURNS = 240  # a sides game's round is 8 turns (4 phases, 2 sides): 30 rounds
FULL_TURNS = 40  # turns of the "every row rendered" reference (slow: a few are enough)


def models() -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # ipywidgets 8 deprecates the name
        return len(ipywidgets.Widget.widgets)


def filled(game: str, count: int, tracked: bool) -> tuple[Encounter, InitiativeTracker | None]:
    """An encounter of ``game`` with ``count`` combatants, started; with a tracker when
    ``tracked``, which watches them join."""
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    fight = Encounter(game)
    tracker = InitiativeTracker(fight, seed=1) if tracked else None
    sheets = [roster.sheets[n % len(roster.sheets)] for n in range(count)]
    for sheet in sheets:
        if tracker is not None:
            tracker.add(sheet)
        else:
            fight.add(sheet)
    if fight.state.sides:
        fight.start()
    else:
        fight.roll_initiative(SeededDice(2))
        fight.start(SeededDice(3))
    return fight, tracker


@dataclass
class Turns:
    """Milliseconds per turn: the tracker's click, the encounter alone, the tracker's render,
    and the garbage collector's pauses during the click."""

    click: list[float]
    bare: list[float]
    render: list[float]
    collecting: list[float]

    def slowest(self) -> str:
        """The slowest click, and what took its time."""
        n = max(range(len(self.click)), key=self.click.__getitem__)
        return (
            f"{self.click[n]:.1f} (encounter {self.bare[n]:.1f}, tracker {self.render[n]:.1f}, "
            f"gc {self.collecting[n]:.1f})"
        )


class Collector:
    """The time the garbage collector spends, from ``gc.callbacks``."""

    def __init__(self) -> None:
        self.spent = 0.0
        self._began = 0.0

    def __call__(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.spent += ms_since(self._began)


def ms_since(began: float) -> float:
    return (time.perf_counter() - began) * 1000


def played(game: str, count: int, turns: int, *, forget: bool = False) -> Turns:
    """``turns`` next turns of a tracked fight, each followed by one of its untracked twin;
    ``forget``: the tracker renders every row each turn (the reference)."""
    bare_fight, _ = filled(game, count, tracked=False) if not forget else (None, None)
    _, tracker = filled(game, count, tracked=True)
    assert tracker is not None
    rendered: list[float] = []
    render = tracker._render

    def timed_render() -> None:
        began = time.perf_counter()
        if forget:  # every row drawn and its marks worked out, as before rows were kept
            tracker._drawn.forget()
        render()
        if forget:
            marks = tracker._marks
            for ident, row in tracker.rows.items():
                row.flag(marks.flags(ident))
        rendered.append(ms_since(began))

    tracker._render = timed_render  # type: ignore[method-assign]
    gc.collect()  # the garbage of building the rows is not charged to a turn
    settle(tracker.encounter)  # as the dashboard does once a fight is open: a large one frozen
    result = Turns([], [], rendered, [])
    collector = Collector()
    gc.callbacks.append(collector)
    try:
        for _ in range(turns):
            collector.spent = 0.0
            began = time.perf_counter()
            tracker.next_turn()
            result.click.append(ms_since(began))
            result.collecting.append(collector.spent)
            began = time.perf_counter()
            if bare_fight is not None:
                bare_fight.next_turn()
            result.bare.append(ms_since(began))
    finally:
        gc.callbacks.remove(collector)
    tracker.close()
    release()
    return result


def turns_for(game: str, count: int) -> int:
    """More than a round: every combatant's turn and the round's end."""
    return SIDES_TURNS if game == "necromunda" else max(240, count + 50)


def median(values: list[float]) -> float:
    return statistics.median(values)


def main() -> None:
    table: list[tuple[str, str, str, str, str, str]] = []
    for game in GAMES:
        for count in COUNTS:
            turns = turns_for(game, count)
            run = played(game, count, turns)
            click, bare, render = median(run.click), median(run.bare), median(run.render)
            slowest = run.slowest()
            full = median(played(game, count, FULL_TURNS, forget=True).render)
            report(
                "tracker.next_turn",
                f"{game}, {count} combatants",
                click,
                detail=(
                    f"encounter's command alone {bare:.2f} ms, tracker's update {render:.2f} ms"
                    f" (every row rendered: {full:.2f} ms); slowest of {turns} turns "
                    f"{slowest} ms"
                ),
            )
            table.append(
                (
                    f"{game}, {count}",
                    f"{click:.2f}",
                    f"{bare:.2f}",
                    f"{render:.2f}",
                    f"{full:.2f}",
                    slowest,
                )
            )
    heads = ("game, combatants", "click", "encounter", "tracker", "every row", "slowest: of which")
    widths = [max(len(row[n]) for row in [heads, *table]) for n in range(len(heads))]
    print("\nnext turn, ms (medians; 'click' = tracker.next_turn() with its update)")
    for row in [heads, *table]:
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))


def per_row_models(game: str, count: int = 200) -> float:
    """Widget models each row adds (layouts and styles shared): printed for the reader."""
    fight = Encounter(game)
    tracker = InitiativeTracker(fight, seed=1)
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    before = models()
    for n in range(count):
        tracker.add(roster.sheets[n % len(roster.sheets)])
    per_row = (models() - before) / count
    tracker.close()
    return per_row


def in_kernel() -> None:
    """Run :func:`main` inside a fresh ipykernel; its table comes back in the execute reply
    (the shell channel: iopub, flooded with widget messages, may drop output)."""
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")
    code = (
        "import contextlib, importlib.util, io\n"
        f"spec = importlib.util.spec_from_file_location('bench_tracker', {__file__!r})\n"
        "bench = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(bench)\n"
        "printed = io.StringIO()\n"
        "with contextlib.redirect_stdout(printed):\n"
        "    bench.main()\n"
    )
    try:
        ident = client.execute(code, silent=False, user_expressions={"out": "printed.getvalue()"})
        while True:
            reply = client.get_shell_msg(timeout=600)
            if reply["parent_header"].get("msg_id") == ident:
                break
    finally:
        client.stop_channels()
        manager.shutdown_kernel()
    content = reply["content"]
    if content["status"] != "ok":
        print("\n".join(content.get("traceback", [])))
        return
    shown = content["user_expressions"]["out"]
    print("in an ipykernel (widget messages serialized and sent on iopub)")
    print(ast.literal_eval(shown["data"]["text/plain"]), end="")


if __name__ == "__main__":
    if "--kernel" in sys.argv[1:]:
        in_kernel()
    else:
        main()
        print(f"widget models per row: {per_row_models('dark_heresy'):.2f} (dark_heresy), ", end="")
        print(f"{per_row_models('necromunda'):.2f} (necromunda)")
