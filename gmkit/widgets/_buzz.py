"""The phone's buzz: a vibration where the browser allows it (an invisible anywidget).

A seat's page buzzes when the turn comes to one of its combatants and when its player is asked
to react to a hit (:class:`~gmkit.widgets._seat_controls.SeatControls`). The browser side calls
``navigator.vibrate`` (Android's browsers, once the page was touched; nothing where the browser
has none: an iPhone's page shows the cue alone).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import anywidget
from traitlets import Int

STATIC = Path(__file__).parent / "static"

PATTERN = (200, 100, 200)
"""Milliseconds on, off, on: two short pulses."""


class Buzz(anywidget.AnyWidget):
    """Vibrate the phone showing it (:meth:`buzz`)."""

    _esm = STATIC / "buzz.js"

    buzzed = Int(0, help="how many times the phone was asked to vibrate")

    def buzz(self, pattern: Sequence[int] = PATTERN) -> None:
        """Ask the browser to vibrate ``pattern`` (milliseconds on, off, on...)."""
        self.buzzed += 1
        self.send({"buzz": [int(ms) for ms in pattern]})


__all__ = ["PATTERN", "Buzz"]
