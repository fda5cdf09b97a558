"""A player's seat on the phones' server: what the seat may do now, and what its phone sends.

A :class:`Desk` is one seat's (however many of the player's phones are open on it): the attack
chooser's choices (an :class:`~gmkit._forms.attack.AttackForm`, the model below the GM's panel
and the Voila seat alike), the last line said to the player. :meth:`Desk.picture` is the seat's
part of the page in a language (your turn, the attack with its odds, the actions allowed, End
turn, the GM's answers, a hit to react to), from the same functions the Voila seat calls
(:mod:`gmkit._forms.seat`, :mod:`gmkit.widgets._seat_words`); it is made again only when
something it shows changed. :meth:`Desk.handle` takes a phone's :class:`SeatMessage`: a
choice of the chooser, the attack, an action, End turn, a reply to the question. Nothing is
written to the fight: a request goes to the seats file (:meth:`gmkit.seats.SeatsFile.send`),
the GM decides.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, ClassVar

from gmkit._forms import AttackForm
from gmkit._forms.seat import seat_acting, seat_attack, seat_foes
from gmkit._phones._room import Room
from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.seats import Seat, SeatsFile
from gmkit.seats._questions import TOUCH_SECONDS
from gmkit.widgets._i18n import named, t, words
from gmkit.widgets._seat_words import (
    answers_html,
    attack_odds,
    cue_html,
    error_html,
    question_text,
    reaction_labels,
    replied_html,
    seconds_left_html,
)

ANSWERS = 4
FIELDS = ("weapon", "mode", "action", "target")
_TEXT_MOST = 40  # characters of a typed die or a choice's id a phone may send


@dataclass(frozen=True)
class SeatMessage:
    """What a seat's phone may send (each kind with exactly its fields, short strings)."""

    kind: str
    fields: dict[str, Any]

    SHAPES: ClassVar[dict[str, frozenset[str]]] = {
        "choose": frozenset({"field", "value"}),
        "attack": frozenset({"dice"}),
        "action": frozenset({"action"}),
        "end_turn": frozenset(),
        "reply": frozenset({"question", "reaction", "die"}),
    }

    @classmethod
    def read(cls, found: dict[str, Any]) -> SeatMessage:
        kind = found.get("kind")
        shape = cls.SHAPES.get(kind) if isinstance(kind, str) else None
        if shape is None or set(found) - {"kind"} != shape:
            raise ValueError("a seat's message of an unknown kind or shape")
        fields = {name: found[name] for name in shape}
        for name, value in fields.items():
            if name == "question":
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ValueError("a question is its number")
            elif not isinstance(value, str) or len(value) > _TEXT_MOST:
                raise ValueError(f"{name}: a short text")
        if kind == "choose" and fields["field"] not in FIELDS:
            raise ValueError("an unknown field of the attack")
        return cls(str(kind), fields)


class Desk:
    """One seat's state on the phones' server (see the module docstring)."""

    def __init__(self, room: Room, seat: Seat, seats: SeatsFile) -> None:
        self.room, self.seat, self.seats = room, seat, seats
        self.form: AttackForm | None = None
        self.said: tuple[Text, bool] = ("", False)
        self._touched = float("-inf")
        self._made: dict[str, tuple[Any, dict[str, Any]]] = {}  # language -> (key, picture)

    def touch(self) -> None:
        """Tell the GM's table a phone of this seat is open (it asks only seats that are)."""
        now = time.monotonic()
        if now - self._touched >= TOUCH_SECONDS:
            self._touched = now
            self.seats.questions.touch(self.seat.key)

    # --- what the phone shows ---------------------------------------------------------------

    def picture(self, language: str) -> dict[str, Any]:
        """The seat's part of the page in ``language``, made again only when it changed."""
        answers = self.seats.answers(self.seat.key)[-ANSWERS:]
        question = self.seats.questions.latest(self.seat.key)
        now = self.seats.now()
        if question is not None and (
            question.status not in ("open", "answered") or question.until < now
        ):
            question = None
        left = max(0, round(question.until - now)) if question is not None else 0
        form = self.form
        key = (
            self.room.version,
            tuple((r.id, r.status, r.answer) for r in answers),
            (question.id, question.status, question.reply, left) if question else None,
            self.said,
            tuple(getattr(form, name) for name in FIELDS) if form else None,
        )
        kept = self._made.get(language)
        if kept is not None and kept[0] == key:
            return kept[1]
        answered = bool(answers) and answers[-1].status not in ("pending", "accepting")
        if answered and self.said == (Message("widgets.seat_sent"), False):
            self.said = ("", False)  # "sent" said its part: the answer is listed
        made = self._make(language, answers, question, left)
        self._made[language] = (key, made)
        return made

    def _make(self, language: str, answers: list[Any], question: Any, left: int) -> dict[str, Any]:
        encounter = self.room.encounter
        acting = seat_acting(encounter, self.seat)
        text, error = self.said
        said = words(text, language) if text else ""
        made: dict[str, Any] = {
            "acting": acting or "",
            "cue": cue_html(encounter.state.combatants[acting].name, language) if acting else "",
            "attack": self._attack(acting, language),
            "actions": self._actions(acting, language),
            "end_turn": t("end_turn", language) if acting else "",
            "said": (error_html(said) if error else f"<div class='gmkit-prompt'>{said}</div>")
            if said
            else "",
            "answers": answers_html(answers, language),
            "question": None,
        }
        if question is not None:
            made["question"] = {
                "id": question.id,
                "text": question_text(question, language),
                "choices": reaction_labels(question, language) if question.status == "open" else [],
                "die": t("seat_react_die", language),
                "left": seconds_left_html(left, language) if question.status == "open" else "",
                "replied": replied_html(question, language),
            }
        return made

    def _attack(self, acting: str | None, language: str) -> dict[str, Any] | None:
        encounter = self.room.encounter
        default = encounter.situation.default_attack_of(acting) if acting else None
        if acting is None or default is None or not default.action:
            return None
        form = self._form_for(acting)
        foes = seat_foes(encounter, form)
        game = encounter.game
        options = {
            "weapon": [(w, named(game, w, language)) for w in form.offered.weapons],
            "mode": [(c.id, words(c.label, language)) for c in form.offered.modes],
            "action": [(c.id, words(c.label, language)) for c in form.offered.actions],
            "target": [(c.id, c.name) for c in foes],
        }
        odds, may_send = attack_odds(encounter, form, language)
        return {
            "fields": [
                {
                    "name": name,
                    "label": t(name, language),
                    "options": options[name],
                    "value": getattr(form, name),
                    "shown": name != "mode" or len(options["mode"]) > 1,
                }
                for name in FIELDS
            ],
            "odds": odds,
            "may_send": may_send,
            "send": t("seat_send_attack", language),
            "dice": t("seat_dice", language),
        }

    def _form_for(self, acting: str) -> AttackForm:
        """The chooser's form, its attacker ``acting`` (made the first time)."""
        form = self.form
        if form is None:
            form = self.form = AttackForm(self.room.encounter)
        if form.attacker != acting:
            form.select_attacker(acting)
        return form

    def _actions(self, acting: str | None, language: str) -> list[tuple[str, str]]:
        if acting is None:
            return []
        encounter = self.room.encounter
        footing = encounter.situation.of(acting)
        shown = []
        for info in encounter.actions():
            permit = footing.actions.get(info.id)
            if permit is not None and permit.allowed:
                shown.append((info.id, words(info.label, language)))
        return shown

    # --- what the phone sends ----------------------------------------------------------------

    def handle(self, message: SeatMessage) -> None:
        """Do what the phone asked (a refusal is said to the player, in their language)."""
        encounter = self.room.encounter
        acting = seat_acting(encounter, self.seat)
        fields = message.fields
        if message.kind == "reply":
            self._reply(fields)
            return
        if acting is None:
            self._say(Message("widgets.seat_not_your_turn"), error=True)
            return
        if message.kind == "choose":
            self._choose(str(fields["field"]), str(fields["value"]))
        elif message.kind == "attack":
            form = self._form_for(acting)
            seat_foes(encounter, form)  # its target one the seat may pick, as shown
            request = seat_attack(form, acting, str(fields["dice"]), encounter.state.events)
            if isinstance(request, Message):
                self._say(request, error=True)
            else:
                self._request(request)
        elif message.kind == "action":
            self._request({"kind": "action", "combatant": acting, "action": fields["action"]})
        else:
            self._request({"kind": "end_turn", "combatant": acting})

    def _choose(self, name: str, value: str) -> None:
        form = self.form
        if form is None:
            return
        try:
            getattr(form, f"select_{name}")(value)
        except GmkitError as error:  # not offered now: said, the form unchanged
            self._say(error.message, error=True)
            return
        self._say("")

    def _request(self, payload: dict[str, Any]) -> None:
        try:
            self.seats.send(self.seat.key, payload)
        except GmkitError as error:
            self._say(error.message, error=True)
            return
        self._say(Message("widgets.seat_sent"))

    def _reply(self, fields: dict[str, Any]) -> None:
        question = self.seats.questions.latest(self.seat.key)
        if question is None or question.id != fields["question"]:
            return  # an old question's button: the GM has moved on
        typed = str(fields["die"]).strip()
        payload: dict[str, object] = {"reaction": fields["reaction"]}
        if typed and fields["reaction"]:
            if not typed.isdigit():
                sides = max((choice.sides for choice in question.choices), default=0)
                self._say(Message("seats.reply.die", got=repr(typed)[:20], sides=sides), True)
                return
            payload["die"] = int(typed)
        try:
            self.seats.questions.reply(self.seat.key, question.id, payload)
        except GmkitError as error:
            self._say(error.message, error=True)

    def _say(self, text: Text, error: bool = False) -> None:
        self.said = (text, error)
