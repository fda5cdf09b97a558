"""A large open fight kept out of the garbage collector's full passes.

An open fight keeps every state of its log (what the log's rows are read against), each with
its combatants. At 1,000 fighters, or after tens of thousands of events, that is millions of
references, and CPython's full collection, which comes every few dozen turns, walked them all:
a pause of 200-250 ms in the middle of a click (bench/bench_tracker.py, "slowest of 240
turns"). Once such a fight is open and drawn, :func:`settle` moves what lives to the
collector's permanent generation (``gc.freeze``): the full passes then walk only what play
made since. The next call (another fight picked) or :func:`release` (the page closed) first
hands those objects back and collects them (``gc.unfreeze``, ``gc.collect``), so a fight left
behind is freed, never kept frozen. A small fight is left to the collector as it is: its
passes are short, and freezing costs a full collection.

The freeze is the process's, as the collector is: one owner per process (a kernel's page,
which opens one fight at a time) calls these.
"""

from __future__ import annotations

import gc

from gmkit.encounter._core import EncounterCore

__all__ = ["LARGE", "release", "settle"]

LARGE = 200_000  # references kept (states kept x combatants) from which a fight is frozen


def kept(encounter: EncounterCore) -> int:
    """About how many references the fight keeps: its states kept times its combatants."""
    return len(encounter.states) * max(1, len(encounter.state.combatants))


def settle(encounter: EncounterCore | None) -> bool:
    """``encounter`` was opened (or None: none is shown now): whatever an earlier call froze is
    collected now; if the fight is large, what lives is frozen. Whether it was."""
    release()
    if encounter is None or kept(encounter) < LARGE:
        return False
    gc.collect()  # the garbage of opening it is not frozen with it
    gc.freeze()
    return True


def release() -> None:
    """Hand what :func:`settle` froze back to the collector, and collect it."""
    if gc.get_freeze_count():
        gc.unfreeze()
        gc.collect()
