"""A player's seat on their phone: their turn, what they may do, and the GM's answers.

Shown on the players' page opened with a seat's link (:class:`~gmkit.widgets._player.
PlayerView` with a seat). Everything it offers is the situation's word for the seat's
combatant: on their turn "Your turn",
the attack offered first (:attr:`~gmkit.encounter._situation.Situation.default_attack`: its
weapon, mode and action) at a foe of their choosing among those in sight, with the odds of a
hit for that target, a box for the table's dice (empty: gmkit rolls) and *Send*; a button per
turn action the situation allows (Aim, Reload...), and *End turn*. Nothing is written to the
fight: each press is a request in the seats file (:meth:`gmkit.seats.SeatsFile.send`) that
the GM accepts or refuses; the last answers are listed, in the player's language.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from gmkit._forms.seat import seat_acting
from gmkit.encounter import Encounter
from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.seats import Seat, SeatsFile
from gmkit.seats._questions import TOUCH_SECONDS
from gmkit.widgets._buzz import Buzz
from gmkit.widgets._i18n import t, words
from gmkit.widgets._seat_attack import SeatAttack
from gmkit.widgets._seat_question import ReactionBox
from gmkit.widgets._seat_words import answers_html, cue_html

ANSWERS = 4
"""The seat's latest requests listed with their answers."""


class SeatControls(widgets.VBox):
    """A seat's controls (see the module docstring)."""

    def __init__(self, encounter: Encounter, seat: Seat, seats: SeatsFile) -> None:
        self.encounter, self.seat, self.seats = encounter, seat, seats
        self.cue = widgets.HTML()
        self.attack_box = SeatAttack(encounter, self._request)  # weapon, mode, attack, target
        self.actions = widgets.HBox(layout={"flex_flow": "row wrap"})
        self.end_button = widgets.Button(button_style="warning")
        self.end_button.on_click(lambda _b: self.end_turn())
        self.said = widgets.HTML()
        self.answers = widgets.HTML()
        self.reaction_box = ReactionBox(seat, seats)  # a hit on one of theirs: react?
        self._touched = float("-inf")  # when the page last told the seats file it is open
        self._said: tuple[Text, bool] = ("", False)  # the last line said, to say again
        self.buzz = Buzz()  # the phone vibrates: their turn, a hit to react to
        self._cued: tuple[str | None, int | None] = (None, None)  # the turn and question buzzed
        super().__init__(
            [
                self.reaction_box,
                self.cue,
                self.attack_box,
                self.actions,
                self.end_button,
                self.said,
                self.answers,
                self.buzz,
            ]
        )
        self.add_class("gmkit-seat")
        self._buttons: dict[str, widgets.Button] = {}
        self.render()

    # --- what the player presses ---------------------------------------------------------------

    def send_attack(self) -> bool:
        """The attack chosen, as a request (the dice typed; none: gmkit rolls)."""
        refused = self.attack_box.send()
        if isinstance(refused, Message):
            self._say(refused, error=True)
            return False
        return refused

    # the chooser's parts, as the seat's (a notebook, a test)
    target = property(lambda self: self.attack_box.target, doc="the foe attacked")
    odds = property(lambda self: self.attack_box.odds, doc="the odds of a hit")
    dice = property(lambda self: self.attack_box.dice, doc="the table's dice typed")
    send_button = property(lambda self: self.attack_box.send_button)

    def send_action(self, action: str) -> bool:
        return self._request({"kind": "action", "combatant": self.acting, "action": action})

    def end_turn(self) -> bool:
        return self._request({"kind": "end_turn", "combatant": self.acting})

    def _request(self, payload: dict[str, Any]) -> bool:
        try:
            self.seats.send(self.seat.key, payload)
        except GmkitError as error:
            self._say(error.message, error=True)
            return False
        self._say(Message("widgets.seat_sent"))
        self.render()
        return True

    # --- what the phone shows ---------------------------------------------------------------

    @property
    def acting(self) -> str | None:
        """The seat's combatant whose turn it is, or None."""
        return seat_acting(self.encounter, self.seat)

    def render(self) -> None:
        now = time.monotonic()
        if now - self._touched >= TOUCH_SECONDS:  # the GM's table asks only a seat that is here
            self._touched = now
            self.seats.questions.touch(self.seat.key)
        self.reaction_box.render()
        acting = self.acting
        self._cue(acting)
        state = self.encounter.state
        if acting is None:
            self.cue.value = ""
        else:
            self.cue.value = cue_html(state.combatants[acting].name)
        self.attack_box.show(acting)
        self._render_said()
        self._render_actions(acting)
        self.end_button.description = t("end_turn")
        self.end_button.layout.display = "" if acting else "none"
        self._render_answers()

    def _cue(self, acting: str | None) -> None:
        """Buzz once when the turn comes to one of theirs, and once for each question."""
        question = self.reaction_box.question
        asked = question.id if question is not None and question.status == "open" else None
        cued = (acting, asked)
        if cued == self._cued:
            return
        if (acting is not None and acting != self._cued[0]) or (
            asked is not None and asked != self._cued[1]
        ):
            self.buzz.buzz()
        self._cued = cued

    def _render_actions(self, acting: str | None) -> None:
        if acting is None:
            self.actions.children = []
            return
        footing = self.encounter.situation.of(acting)
        shown = []
        for info in self.encounter.actions():
            permit = footing.actions.get(info.id)
            if permit is None or not permit.allowed:
                continue
            button = self._buttons.get(info.id)
            if button is None:
                button = self._buttons[info.id] = widgets.Button(layout={"width": "auto"})
                button.on_click(self._sender(info.id))
            button.description = words(info.label)
            shown.append(button)
        self.actions.children = shown

    def _sender(self, action: str) -> Callable[[object], object]:
        return lambda _b: self.send_action(action)

    def _render_answers(self) -> None:
        found = self.seats.answers(self.seat.key)[-ANSWERS:]
        answered = bool(found) and found[-1].status not in ("pending", "accepting")
        if answered and self._said == (Message("widgets.seat_sent"), False):
            self._say("")  # "sent: the GM decides" said its part: the answer is listed
        self.answers.value = answers_html(found)

    def _say(self, text: Text, *, error: bool = False) -> None:
        """A line under the controls, in the player's language (again when it changes)."""
        self._said = (text, error)
        self._render_said()

    def _render_said(self) -> None:
        text, error = self._said
        css = "gmkit-error" if error else "gmkit-prompt"
        shown = words(text) if text else ""
        self.said.value = f"<div class='{css}'>{html.escape(shown)}</div>" if shown else ""


__all__ = ["SeatControls"]
