"""The initiative tracker at 200 combatants: time of next_turn() in the kernel (the encounter's
command plus the tracker's update) and widget models per row. Prints a table; asserts nothing.

Run: ``/work/venv/bin/python bench/bench_tracker.py`` (in this process: widget messages go to
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
from collections.abc import Callable

import ipywidgets

from gmkit.demo import demo_campaign
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.widgets.tracker import InitiativeTracker

COMBATANTS = 200
TURNS = 300  # more than one round, so round ends (every combatant re-folded) are measured
GOAL_MS = 30.0
GOAL_MODELS = 4.0


def models() -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # ipywidgets 8 deprecates the name
        return len(ipywidgets.Widget.widgets)


def filled(game: str, tracked: bool) -> tuple[Encounter, InitiativeTracker | None, float]:
    """An encounter of ``game`` with 200 combatants; with a tracker when ``tracked``, which
    watches them join (returns the models each row added)."""
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    fight = Encounter(game)
    tracker = InitiativeTracker(fight, seed=1) if tracked else None
    before = models()
    sheets = [roster.sheets[n % len(roster.sheets)] for n in range(COMBATANTS)]
    for sheet in sheets:
        if tracker is not None:
            tracker.add(sheet)
        else:
            fight.add(sheet)
    per_row = (models() - before) / COMBATANTS
    if fight.state.sides:
        fight.start()
    else:
        fight.roll_initiative(SeededDice(2))
        fight.start(SeededDice(3))
    return fight, tracker, per_row


def timed_ms(step: Callable[[], None], count: int) -> tuple[float, float]:
    """The median and the slowest of ``count`` calls, in milliseconds (after a collection,
    so the garbage of building 200 rows is not charged to a turn)."""
    gc.collect()
    times = []
    for _ in range(count):
        began = time.perf_counter()
        step()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    rows: list[tuple[str, str, str]] = []
    for game in ("dark_heresy", "necromunda"):
        fight, _, _ = filled(game, tracked=False)
        bare, _ = timed_ms(fight.next_turn, TURNS)
        fight, tracker, per_row = filled(game, tracked=True)
        assert tracker is not None
        through, slowest = timed_ms(tracker.next_turn, TURNS)
        rows += [
            (f"{game}: next_turn(), encounter alone", f"{bare:.2f} ms", ""),
            (f"{game}: tracker.next_turn() + update", f"{through:.2f} ms", f"<= {GOAL_MS:g} ms"),
            (f"{game}: slowest of those turns", f"{slowest:.2f} ms", ""),
            (f"{game}: widget models per row", f"{per_row:.2f}", f"<= {GOAL_MODELS:g}"),
        ]
        tracker.close()
    width = max(len(name) for name, _, _ in rows)
    print(f"{COMBATANTS} combatants, median of {TURNS} turns")
    print(f"{'measure':<{width}}  {'value':>10}  goal")
    for name, value, goal in rows:
        print(f"{name:<{width}}  {value:>10}  {goal}")


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
