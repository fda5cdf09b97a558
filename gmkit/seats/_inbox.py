"""The GM's inbox: the players' requests for one encounter, checked, and accepted or refused.

:meth:`Inbox.asked` reads the requests not yet answered from the seats file; one that is no
intent (:func:`~gmkit.seats._intents.read_intent` refuses it) or comes from a closed seat is
refused at once, with the reason written back for the phone. Each other one is shown with
what the situation says of it now (:func:`~gmkit.seats._intents.check_intent`: "" when it may
be accepted).

:meth:`Inbox.accept` makes an intent exactly the command the GM would have given (one event,
one undo): an attack is ``Encounter.attack`` with its action spent, applied, with the dice the
phone typed (``EnteredDice``) or gmkit's; an action is ``Encounter.act``; an end of turn is
``Encounter.next_turn``. A request the encounter refuses by then (the target fell, the turn
passed: checked again at the moment of accepting, and at each poll) is answered stale with
the reason, never applied. :meth:`Inbox.refuse` sends the GM's word back. ``auto`` names the
kinds accepted as they come (``end_turn``, ``action``, ``typed_attack``: an attack with the
table's dice) by :meth:`Inbox.poll`, which a GM's page calls on a timer.

The reasons are written for the phone as messages (JSON), so a player reads them in their own
language (:func:`said`).
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gmkit.dice import DiceSource, EnteredDice, SeededDice
from gmkit.encounter import Encounter
from gmkit.errors import GmkitError
from gmkit.messages import Message, Text, as_message, from_json
from gmkit.seats._intents import (
    ActionIntent,
    AttackIntent,
    EndTurnIntent,
    Intent,
    IntentError,
    check_intent,
    read_intent,
)
from gmkit.seats._seats_file import Request, Seat, SeatError, SeatsFile, Status

AUTO_KINDS = ("end_turn", "action", "typed_attack")
"""What the GM may let through as it comes: an end of turn, a non-attack action, an attack
with the table's dice typed (an attack for gmkit to roll is always the GM's to accept)."""


@dataclass(frozen=True)
class Asked:
    """A request waiting in the inbox: whose seat, what it asks, and why not now ("": it may)."""

    request: Request
    seat: Seat
    intent: Intent
    why_not: Text


def said(text: Text) -> str:
    """A reason as the seats file keeps it for the phone (a message's JSON)."""
    return json.dumps(as_message(text).to_json()) if text else ""


def heard(answer: str) -> Text:
    """A reason the seats file kept (:func:`said`), to render in the reader's language."""
    if not answer:
        return ""
    try:
        return from_json(json.loads(answer))
    except (ValueError, GmkitError):
        return answer


class Inbox:
    """The players' requests of ``encounter`` (see the module docstring)."""

    def __init__(self, encounter: Encounter, seats: SeatsFile, *, auto: Iterable[str] = ()) -> None:
        self.encounter, self.seats = encounter, seats
        self.auto: frozenset[str] = frozenset()
        # the requests being accepted now: the command's own news (a listener that reads the
        # inbox again) must not answer them as stale while they are carried out
        self._accepting: set[int] = set()
        self.set_auto(auto)

    def set_auto(self, kinds: Iterable[str]) -> None:
        """The kinds accepted as they come (of :data:`AUTO_KINDS`)."""
        chosen = frozenset(kinds)
        unknown = sorted(chosen - set(AUTO_KINDS))
        if unknown:
            raise ValueError(f"auto: {unknown[0]!r} is not one of {', '.join(AUTO_KINDS)}")
        self.auto = chosen

    def asked(self) -> list[Asked]:
        """The requests waiting, each with what the situation says of it now; those that are
        no intent, or whose seat is closed, refused on the way (the reason to the phone)."""
        found = []
        for request in self.seats.pending(self.encounter.name):
            if request.id in self._accepting:
                continue
            seat = self.seats.seat(request.seat)
            if seat is None:
                self.seats.answer(request.id, "refused", said(Message("seats.closed")))
                continue
            try:
                intent = read_intent(request.payload)
            except IntentError as error:
                self.seats.answer(request.id, "refused", said(error.message))
                continue
            found.append(Asked(request, seat, intent, check_intent(self.encounter, seat, intent)))
        return found

    def poll(self) -> list[Asked]:
        """Answer what the situation refuses now (stale, when the fight moved on since the
        phone sent it: its ``seen``; else refused), accept what ``auto`` lets through; the
        requests still waiting for the GM."""
        waiting = []
        events = self.encounter.state.events
        for asked in self.asked():
            if asked.why_not:  # never applied: the phone reads why
                status: Status = "stale" if asked.intent.seen < events else "refused"
                with contextlib.suppress(SeatError):  # taken meanwhile by another reader
                    self.seats.answer(asked.request.id, status, said(asked.why_not))
                continue
            if self._automatic(asked.intent):
                with contextlib.suppress(IntentError):  # else marked stale, with why, by accept
                    self.accept(asked.request.id)
                continue
            waiting.append(asked)
        return waiting

    def _automatic(self, intent: Intent) -> bool:
        if isinstance(intent, EndTurnIntent):
            return "end_turn" in self.auto
        if isinstance(intent, ActionIntent):
            return "action" in self.auto
        return "typed_attack" in self.auto and intent.dice is not None

    def accept(self, ident: int, source: DiceSource | None = None) -> Any:
        """Make request ``ident`` the GM's command now (see the module docstring); its result.
        ``source``: the dice when the phone typed none (default: gmkit's, a fresh seed)."""
        asked = next((a for a in self.asked() if a.request.id == ident), None)
        if asked is None:
            raise IntentError(Message("seats.answered_already", id=ident))
        if asked.why_not:
            with contextlib.suppress(SeatError):  # taken meanwhile by another reader
                self.seats.answer(ident, "stale", said(asked.why_not))
            raise IntentError(asked.why_not)
        intent = asked.intent
        if not self.seats.claim(ident):  # another reader of the file took it first
            raise IntentError(Message("seats.answered_already", id=ident))
        self._accepting.add(ident)
        try:
            result = self._command(intent, source)
        except GmkitError as error:  # refused by the encounter by now: stale, with why
            self.seats.answer(ident, "stale", said(error.message))
            raise IntentError(error.message) from None
        finally:
            self._accepting.discard(ident)
        self.seats.answer(ident, "accepted")
        return result

    def _command(self, intent: Intent, source: DiceSource | None) -> Any:
        fight = self.encounter
        if isinstance(intent, EndTurnIntent):
            return fight.next_turn()
        dice: DiceSource = (
            EnteredDice(list(intent.dice))
            if intent.dice is not None
            else source or SeededDice(secrets.randbits(32))
        )
        if isinstance(intent, AttackIntent):
            return fight.attack(
                intent.combatant,
                intent.weapon,
                intent.target,
                dice,
                apply=True,
                spend=True,
                action=intent.action,
                mode=intent.mode,
            )
        return fight.act(
            intent.combatant,
            intent.action,
            dice,
            target=intent.target or None,
            weapon=intent.weapon or None,
        )

    def take(self, ident: int) -> Intent:
        """The GM takes request ``ident`` into their own panel (Edit): the phone reads that the
        GM takes it from here; its intent, to fill the panel with."""
        asked = next((a for a in self.asked() if a.request.id == ident), None)
        if asked is None:
            raise IntentError(Message("seats.answered_already", id=ident))
        self.seats.answer(ident, "taken", said(Message("seats.taken")))
        return asked.intent

    def refuse(self, ident: int, reason: str = "") -> None:
        """Refuse request ``ident``, with the GM's word to the phone (may be empty)."""
        word = Message.verbatim(reason.strip()) if reason.strip() else Message("seats.refused")
        self.seats.answer(ident, "refused", said(word))


__all__ = ["AUTO_KINDS", "Asked", "Inbox", "heard", "said"]
