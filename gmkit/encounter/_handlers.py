"""The fold's handlers, one per event kind: registered with :func:`handles` by the modules that
define them (:mod:`gmkit.encounter._fold`, :mod:`gmkit.encounter._units`), read by the fold."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gmkit.encounter._state import EncounterState

Event = Mapping[str, Any]
Handler = Callable[[EncounterState, Event], EncounterState]
HANDLERS: dict[str, Handler] = {}
"""Event kind -> the function that folds it."""


def handles(kind: str) -> Callable[[Handler], Handler]:
    """Register the decorated function as the fold of events of ``kind``."""

    def register(function: Handler) -> Handler:
        HANDLERS[kind] = function
        return function

    return register


__all__ = ["HANDLERS", "Event", "Handler", "handles"]
