"""The event log in memory: append, undo and redo as markers, states kept for each step.

The log is append-only: undo and redo are events too (``{"kind": "undo"}``), so a reader that
follows the file sees them and a replay of the stored log rebuilds exactly the live state. The
effective events are the log with undone events taken out; ``states[k]`` is the state after the
first ``k`` effective events, so an undo returns the state before the command exactly. The
states an undo took off are kept with the events (``undone_states``), so a redo puts back
exactly the state the undo took, not a new fold of it.

Between :meth:`EventLog.begin` and :meth:`EventLog.end` every event accepted is journaled, so
:meth:`EventLog.rollback` takes them all back exactly (the events of one GM action that the
store could not commit, or that a later command of the same action refused).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gmkit.encounter._fold import fold
from gmkit.encounter._state import EncounterState
from gmkit.errors import RulesError
from gmkit.messages import Message

MARKERS = ("undo", "redo")


class EventLog:
    def __init__(self, game: str) -> None:
        self.game = game
        self.raw: list[dict[str, Any]] = []  # every event as written, markers included
        self.done: list[dict[str, Any]] = []  # the effective events
        self.undone: list[dict[str, Any]] = []  # the redo stack
        self.states: list[EncounterState] = [EncounterState(game)]
        self.undone_states: list[EncounterState] = []  # the states the redo stack gives back
        self._journal: list[tuple[str, list[Any], list[EncounterState]]] | None = None

    @property
    def state(self) -> EncounterState:
        return self.states[-1]

    def check(self, event: Mapping[str, Any]) -> EncounterState:
        """The state ``event`` would lead to; RulesError if the rules refuse it."""
        if event.get("kind") == "undo":
            if not self.done:
                raise RulesError(Message("encounter.nothing_to_undo"))
            return self.states[-2]
        if event.get("kind") == "redo":
            if not self.undone:
                raise RulesError(Message("encounter.nothing_to_redo"))
            return self.undone_states[-1]
        return fold(self.state, event)

    def accept(self, event: dict[str, Any], next_state: EncounterState) -> None:
        """Record ``event`` (already checked into ``next_state``)."""
        self.raw.append(event)
        kind = event.get("kind")
        if kind == "undo":
            self.undone.append(self.done.pop())
            self.undone_states.append(self.states.pop())
        elif kind == "redo":
            self.done.append(self.undone.pop())
            self.states.append(self.undone_states.pop())
        else:
            if self._journal is not None:  # the redo stack it clears, kept to give back
                self._journal.append(("event", list(self.undone), list(self.undone_states)))
            if self.undone:
                self.undone.clear()
                self.undone_states.clear()
            self.done.append(event)
            self.states.append(next_state)
            return
        if self._journal is not None:
            self._journal.append((str(kind), [], []))

    def replay(self, event: dict[str, Any]) -> None:
        self.accept(event, self.check(event))

    # --- one GM action: all of its events, or none -----------------------------------

    def begin(self) -> None:
        """Journal the events accepted from now on (one action's), for :meth:`rollback`."""
        if self._journal is not None:
            raise RuntimeError("an action is already open on this log")
        self._journal = []

    def end(self) -> None:
        """Stop journaling: the events accepted since :meth:`begin` stay."""
        self._journal = None

    def rollback(self) -> None:
        """Take back every event accepted since :meth:`begin`, last first: the lists are then
        exactly what they were (the redo stack an event cleared given back too)."""
        journal, self._journal = self._journal or [], None
        for kind, undone, undone_states in reversed(journal):
            self.raw.pop()
            if kind == "undo":
                self.done.append(self.undone.pop())
                self.states.append(self.undone_states.pop())
            elif kind == "redo":
                self.undone.append(self.done.pop())
                self.undone_states.append(self.states.pop())
            else:
                self.done.pop()
                self.states.pop()
                self.undone[:] = undone
                self.undone_states[:] = undone_states
