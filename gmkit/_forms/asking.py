"""The defender's player asked for their reaction: the attack form's hit, put to a seat.

When the attack form shows a hit not yet applied, with no reaction chosen, on a combatant a
connected seat plays (:meth:`gmkit.seats.QuestionBook.present`) and the rules leave it a
reaction (the form's ``offered.reactions``: the game's offers and the encounter's pools),
:meth:`ReactionAsk.consider` asks that seat: each reaction with its odds of negating the hit
(:func:`gmkit.systems._reaction_dice.reaction_odds`, the rules' own code) and the attacker
named only if the players may see him ("an enemy" for a hidden one). :meth:`ReactionAsk.poll`
(the GM's page calls it on its timer) takes the reply into the form
(:meth:`~gmkit._forms.attack.AttackForm.answer_reaction`: the same dice, the reaction's die as
the player rolled it or gmkit's) for the GM to apply; after ``seconds`` without a reply the
question expires and the GM decides, as without seats. A result that changes meanwhile (the
GM resolved again, chose another target, applied) withdraws the question.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from gmkit._forms.attack import AttackForm
from gmkit.encounter import Encounter
from gmkit.errors import GmkitError
from gmkit.games import game as find_game
from gmkit.messages import Message, Text
from gmkit.seats import Seat, SeatsFile
from gmkit.seats._questions import ASK_SECONDS, Question, ReactionChoice
from gmkit.systems._reaction_dice import reaction_odds
from gmkit.systems.base import AttackResult

Asking = Literal["", "asked", "answered", "expired", "withdrawn"]


@dataclass(frozen=True, slots=True)
class AskState:
    """Where the asking stands: ``state``, the seat's player, seconds left, the reply said."""

    state: Asking = ""
    player: str = ""
    left: float = 0.0
    said: Text = ""


class ReactionAsk:
    """The attack form's hits put to the defenders' seats (see the module docstring)."""

    def __init__(
        self,
        encounter: Encounter,
        seats: SeatsFile,
        *,
        seconds: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.encounter, self.seats = encounter, seats
        self._seconds = seconds  # None: the seats file's (the GM's setting)
        self._clock = clock
        self.question: Question | None = None
        self._about: AttackResult | None = None  # the result the question is about
        self._settled: AttackResult | None = None  # the last result asked about, settled
        self.state = AskState()

    def seat_of(self, ident: str) -> Seat | None:
        """The connected seat playing combatant ``ident``, or None."""
        book = self.seats.questions
        for seat in self.seats.seats(self.encounter.name):
            if seat.plays(ident) and book.present(seat.key):
                return seat
        return None

    def consider(self, form: AttackForm) -> Question | None:
        """Ask the defender's seat about the form's hit when it should (see the module
        docstring); the question asked, or None. A question about another result is
        withdrawn."""
        result = form.result
        if self.question is not None and result is not self._about:
            self.withdraw()
        if self.question is None and self.state.state and result is not self._settled:
            self.state = AskState()  # another result: what was said of the last one is done
        if self.question is not None or result is None or result is self._settled:
            return None
        if form.applied or not result.hit:
            return None
        if form.reaction or not form.offered.reactions or form.request is None:
            return None
        seat = self.seat_of(form.target)
        if seat is None:
            return None
        rules = find_game(form.game).rules
        choices = []
        for choice in form.offered.reactions:
            request = form.request.with_options(reaction=choice.id)
            odds = reaction_odds(rules, request, form.dice.used, result.hits)
            sides = odds.die.sides if odds.die is not None else 0
            choices.append(ReactionChoice(choice.id, choice.label, float(odds.odds), sides))
        state = self.encounter.state
        attacker = state.combatants[form.attacker]
        target = state.combatants[form.target]
        who: Text = Message("seats.question.an_enemy") if attacker.hidden else attacker.name
        text = Message("seats.question.hit", attacker=who, target=target.name, hits=result.hits)
        seconds = self._seconds if self._seconds is not None else self.seats.ask_seconds
        self.question = self.seats.questions.ask(
            seat.key, self.encounter.name, target.id, text, tuple(choices), seconds
        )
        self._about = result
        self.state = AskState("asked", seat.player, seconds)
        return self.question

    def poll(self, form: AttackForm) -> AskState:
        """Take the reply into ``form`` once given; expire the question past its time."""
        question = self.question
        if question is None:
            return self.state
        if form.result is not self._about:
            self.withdraw()
            return self.state
        found = self.seats.questions.get(question.id)
        player = self.state.player
        if found is not None and found.reply is not None and found.status == "answered":
            self.seats.questions.close(question.id, "done")
            self.question = None
            reply = found.reply
            choice = found.choice(reply.reaction)
            said: Text = Message("seats.question.takes_it")
            if choice is not None:
                said = Message(
                    "seats.question.chose",
                    reaction=choice.label,
                    die=reply.die if reply.die is not None else "gmkit",
                )
            try:
                form.answer_reaction(reply.reaction, reply.die)
            except GmkitError as error:  # the rules refuse it now: the GM decides
                said = error.message
            self._about, self._settled = None, form.result
            self.state = AskState("answered", player, 0.0, said)
            return self.state
        left = question.until - self._clock()
        if left <= 0:
            self.seats.questions.close(question.id, "expired")
            self._settled = self._about
            self.question = self._about = None
            self.state = AskState("expired", player)
            return self.state
        self.state = AskState("asked", player, left)
        return self.state

    def withdraw(self) -> None:
        """The GM decides without the reply (or the result it was about is gone)."""
        if self.question is not None:
            self.seats.questions.close(self.question.id, "withdrawn")
            self.state = AskState("withdrawn", self.state.player)
            self._settled = self._about
        self.question = self._about = None


__all__ = ["ASK_SECONDS", "AskState", "Asking", "ReactionAsk"]
