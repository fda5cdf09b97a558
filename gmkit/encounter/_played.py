"""Whether an encounter's log has been played, and what replacing it would lose.

A prep notebook writes an encounter's set-up (combatants added, settings, notes, units,
distances); everything else in a log is the fight itself: initiative, turns, actions,
attacks, conditions, rolls due, a removal, a reveal, an undo. Re-running a prep cell replaces
an encounter that is only set up without a word; one that has been played is replaced only
when the GM says so (``replace="played"``), since its events cannot be had back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from gmkit.errors import GmkitError
from gmkit.messages import Message

SETUP_KINDS = frozenset(
    {"added", "renamed", "sheet_edited", "setting", "note", "unit_set", "unit_removed", "distance"}
)
"""The kinds of event a fight's preparation writes. Any other kind (an undo marker too) is
play: a GM did it at the table."""

Replace = bool | Literal["played"]
"""What ``prep.encounter`` / ``Encounter.create`` take as ``replace``: False (refuse a name in
use), True (replace one that is only set up), ``"played"`` (replace it even if played)."""


@dataclass(frozen=True, slots=True)
class Played:
    """What a log holds beyond its set-up: how many events, how many of them attacks."""

    events: int
    attacks: int


class PlayedEncounterError(GmkitError):
    """A played encounter would have been replaced without the GM's word; nothing changed."""


def played(events: Iterable[Mapping[str, Any]]) -> Played | None:
    """What of ``events`` (a log as stored) is play, or None if it is only set up."""
    play = [event for event in events if event.get("kind") not in SETUP_KINDS]
    if not play:
        return None
    attacks = sum(1 for event in play if event.get("kind") == "attack")
    return Played(events=len(play), attacks=attacks)


def check_replace(replace: object) -> Replace:
    """``replace`` as one of the three words it may be, or a refusal naming the field."""
    if isinstance(replace, bool):
        return replace
    if replace == "played":
        return "played"
    raise GmkitError(Message("encounter.replace_word", given=repr(replace)[:40]))


def refuse_if_played(name: str, events: Iterable[Mapping[str, Any]]) -> None:
    """Refuse (:class:`PlayedEncounterError`) to replace the encounter ``name`` whose log is
    ``events`` if it has been played, saying what would be lost and how to keep it."""
    lost = played(events)
    if lost is not None:
        raise PlayedEncounterError(
            Message(
                "encounter.played_not_replaced",
                encounter=repr(name),
                events=lost.events,
                attacks=lost.attacks,
            )
        )
