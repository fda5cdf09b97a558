"""The question on a defender's phone: a hit, and Dodge 42% / Parry 51% / Take it.

Shown in a seat's controls while the GM's table waits for the reaction of the seat's
combatant (:class:`gmkit.seats._questions.Question`, asked by :class:`gmkit._forms.asking.
ReactionAsk`): what happened, in the player's language, a button per reaction with its odds
(the rules' own, worked out on the GM's side), *Take it*, a box for the die the player rolled
at the table (empty: gmkit rolls it) and the seconds before the GM decides. A press writes the
reply to the seats file (:meth:`~gmkit.seats._questions.QuestionBook.reply`); nothing else.
The buttons are made again only for another question or language, never under a finger.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable

import ipywidgets as widgets

from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.seats import Seat, SeatsFile
from gmkit.seats._questions import Question
from gmkit.widgets._i18n import LANGUAGE, t, words
from gmkit.widgets._seat_words import (
    question_text,
    reaction_labels,
    replied_html,
    seconds_left_html,
)


class ReactionBox(widgets.VBox):
    """A seat's open question and its answer buttons (see the module docstring)."""

    def __init__(
        self, seat: Seat, seats: SeatsFile, *, clock: Callable[[], float] = time.time
    ) -> None:
        self.seat, self.seats, self._clock = seat, seats, clock
        self.text = widgets.HTML()
        self.buttons = widgets.HBox(layout={"flex_flow": "row wrap"})
        self.die = widgets.Text(layout={"width": "12em"})
        self.left = widgets.HTML()
        self.said = widgets.HTML()
        super().__init__([self.text, self.buttons, self.die, self.left, self.said])
        self.add_class("gmkit-seat-react")
        self.question: Question | None = None
        self._made: tuple[int, str] | None = None  # the question and language of the buttons
        self.render()

    def reply(self, reaction: str) -> bool:
        """Send ``reaction`` ("" takes the hit) with the die typed, if any."""
        question = self.question
        if question is None:
            return False
        typed = self.die.value.strip()
        payload: dict[str, object] = {"reaction": reaction}
        if typed and reaction:
            if not typed.isdigit():
                sides = max((choice.sides for choice in question.choices), default=0)
                self._say(words(Message("seats.reply.die", got=repr(typed)[:20], sides=sides)))
                return False
            payload["die"] = int(typed)
        try:
            self.seats.questions.reply(self.seat.key, question.id, payload)
        except GmkitError as error:
            self._say(words(error.message))
            return False
        self.render()
        return True

    def render(self) -> None:
        found = self.seats.questions.latest(self.seat.key)
        now = self._clock()
        if found is None or found.status not in ("open", "answered") or found.until < now:
            self.question = None
            self.layout.display = "none"
            return
        self.question = found
        self.layout.display = ""
        self.text.value = question_text(found)
        if found.status == "answered" and found.reply is not None:
            self.said.value = replied_html(found)
            self.buttons.layout.display = self.die.layout.display = "none"
            self.left.value = ""
            return
        self.buttons.layout.display = self.die.layout.display = ""
        made = (found.id, LANGUAGE.value)
        if self._made != made:
            self._made = made
            self._make_buttons(found)
            self.die.value = ""
            self.said.value = ""
        self.left.value = seconds_left_html(max(0, round(found.until - now)))

    def _make_buttons(self, question: Question) -> None:
        for old in self.buttons.children:
            old.close()
        buttons = []
        for reaction, label in reaction_labels(question):
            style = "info" if reaction else ""
            button = widgets.Button(description=label, button_style=style, layout={"width": "auto"})
            button.on_click(self._replier(reaction))
            buttons.append(button)
        self.buttons.children = buttons
        self.die.placeholder = t("seat_react_die")

    def _replier(self, reaction: str) -> Callable[[object], object]:
        return lambda _b: self.reply(reaction)

    def _say(self, text: str) -> None:
        self.said.value = f"<div class='gmkit-error'>{html.escape(text)}</div>" if text else ""


__all__ = ["ReactionBox"]
