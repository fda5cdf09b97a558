"""The words for what the odds name by key: a target's states, events, distributions.

The odds engines key their outcomes by English names ("out of action", "first hit location");
those stay keys (tests and callers read them). :func:`odds_label` gives the message a view
shows one with: ``odds.term.<key>`` in the catalogs, a hit location's own name, a horde's
magnitude lost (:func:`magnitude_key`: "magnitude -2" reads "loses 2 magnitude"), "Member:
hits" for a model's own distributions, else the key as it is.
"""

from __future__ import annotations

import re
from typing import Any

from gmkit.messages import Message, catalogs
from gmkit.systems._percentile import LOCATIONS, location_name

MAGNITUDE = re.compile(r"^magnitude -(\d+)$")


def magnitude_key(lost: int) -> str:
    """The key of a horde's state after losing ``lost`` magnitude: "magnitude -2"."""
    return f"magnitude -{lost}"


def _slug(key: str) -> str:
    return re.sub(r"\W+", "_", key.strip().lower()).strip("_")


def odds_label(key: Any) -> Message:
    """The words for an outcome, a state, an event or a distribution of the odds."""
    if isinstance(key, bool):
        return Message("odds.term.yes" if key else "odds.term.no")
    if isinstance(key, tuple):
        return Message("common.list", items=tuple(odds_label(part) for part in key))
    if not isinstance(key, str):
        return Message.verbatim(str(key))
    if key in LOCATIONS:
        return location_name(key)
    lost = MAGNITUDE.match(key)
    if lost is not None:
        count = int(lost.group(1))
        if not count:
            return Message("odds.term.no_magnitude_lost")
        return Message("odds.term.magnitude_minus", lost=count)
    found = f"odds.term.{_slug(key)}"
    if catalogs().english(found) is not None:
        return Message(found)
    member, _, what = key.rpartition(": ")
    if member:
        return Message("odds.term.member", member=member, what=odds_label(what))
    return Message.verbatim(key.replace("_", " "))


__all__ = ["magnitude_key", "odds_label"]
