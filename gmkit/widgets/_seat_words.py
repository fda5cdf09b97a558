"""A seat's words as HTML, in a language: what the seat's widgets on a Voila page and the
phones' server (:mod:`gmkit._phones._seat`) both show. Pure functions of the fight, the
seat's form and the seats file's records; every text escaped here."""

from __future__ import annotations

import html
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from gmkit._forms import AttackForm
from gmkit.encounter import Encounter
from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.odds import odds
from gmkit.seats._inbox import heard
from gmkit.seats._questions import Question
from gmkit.widgets._i18n import named, t, words
from gmkit.widgets._odds_charts import percent


def error_html(text: str) -> str:
    return f"<div class='gmkit-error'>{html.escape(text)}</div>" if text else ""


def cue_html(name: str, language: str | None = None) -> str:
    """ "Your turn: Ilse Marr"."""
    said = html.escape(t("your_turn", language))
    return f"<div class='gmkit-your-turn'>{said}: {html.escape(name)}</div>"


def attack_odds(
    encounter: Encounter, form: AttackForm, language: str | None = None
) -> tuple[str, bool]:
    """The odds of a hit for the form's choice (or why not), and whether it may be sent."""
    request = form.request
    if request is None:
        return error_html(words(form.problem, language) if form.problem else ""), False
    try:
        hit = percent(odds(request).hit)
    except GmkitError as error:  # the rules refuse this choice: said
        return error_html(words(error.message, language)), True
    weapon = html.escape(named(encounter.game, form.weapon, language))
    said = t("odds_hit", language)
    return f"<div class='gmkit-seat-odds'>{weapon}: <b>{hit}</b> {said}</div>", True


def answers_html(requests: Sequence[Any], language: str | None = None) -> str:
    """The seat's latest requests, newest first, with the GM's answers."""
    lines = []
    for request in reversed(requests):
        kind = str(request.payload.get("kind", ""))
        status = t(f"seat_status_{request.status}", language)
        why = words(heard(request.answer), language) if request.answer else ""
        text = (
            t(f"seat_kind_{kind}", language) if kind in ("attack", "action", "end_turn") else kind
        )
        lines.append(
            f"<li>{html.escape(text)}: <b>{html.escape(status)}</b>"
            + (f" ({html.escape(why)})" if why else "")
            + "</li>"
        )
    return f"<ul class='gmkit-seat-answers'>{''.join(lines)}</ul>" if lines else ""


def question_text(question: Question, language: str | None = None) -> str:
    return f"<div class='gmkit-seat-hit'>{html.escape(words(question.text, language))}</div>"


def reaction_labels(question: Question, language: str | None = None) -> list[tuple[str, str]]:
    """``(reaction, "Dodge 42%")`` for each reaction offered, then ``("", "Take it")``."""
    found = [
        (c.reaction, f"{words(c.label, language)} {percent(Fraction(repr(c.odds)))}")
        for c in question.choices
    ]
    return [*found, ("", t("seat_take_it", language))]


def replied_html(question: Question, language: str | None = None) -> str:
    """ "You chose: Dodge" once the player has answered."""
    if question.reply is None:
        return ""
    choice = question.choice(question.reply.reaction)
    chosen = words(choice.label, language) if choice is not None else t("seat_take_it", language)
    shown = words(Message("widgets.seat_replied", reaction=chosen), language)
    return f"<div class='gmkit-prompt'>{html.escape(shown)}</div>"


def seconds_left_html(seconds: int, language: str | None = None) -> str:
    said = words(Message("widgets.seat_react_left", seconds=seconds), language)
    return f"<div class='gmkit-seat-left'>{html.escape(said)}</div>"


__all__ = [
    "answers_html",
    "attack_odds",
    "cue_html",
    "error_html",
    "question_text",
    "reaction_labels",
    "replied_html",
    "seconds_left_html",
]
