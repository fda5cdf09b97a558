"""The GM's inbox on the table: the players' requests waiting, each with Accept and Refuse.

A row per request (:class:`gmkit.seats.Inbox`): the player, what they ask in words ("Jessa
Kell: Standard Attack with Autopistol (single shot) at Cultist Ban, table's dice 34, 7"), and
the situation's reason when it cannot be accepted now. Accept makes it the GM's own command
(one event, one undo); Refuse sends the GM's word back (the box beside it, may be empty). The
checkboxes let kinds through as they come (end of turn, non-attack actions, attacks with the
table's dice), so they can be set before the first request comes. :meth:`InboxPanel.refresh`
reads the seats file: the dashboard's poll calls it (every 0.3 s), never a GM's click, so a
click reads no file it does not write.
"""

from __future__ import annotations

import html
from collections.abc import Callable

import ipywidgets as widgets

from gmkit.encounter import Encounter
from gmkit.encounter._terms import action_name
from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.seats import AUTO_KINDS, Asked, Inbox, SeatsFile
from gmkit.seats._intents import ActionIntent, AttackIntent, EndTurnIntent, Intent
from gmkit.systems import _choices as choices
from gmkit.widgets._i18n import LANGUAGE, t, words


def asked_text(encounter: Encounter, asked: Asked) -> Text:
    """What a request asks, in words (the GM's language when rendered)."""
    intent = asked.intent
    state = encounter.state
    who = state.combatants.get(intent.combatant)
    name = who.name if who is not None else intent.combatant
    if isinstance(intent, EndTurnIntent):
        return Message("seats.ask.end_turn", name=name)
    dice: Text = (
        Message("seats.ask.typed", dice=tuple(intent.dice))
        if intent.dice is not None
        else Message("seats.ask.gmkit_rolls")
    )
    if isinstance(intent, ActionIntent):
        return Message(
            "seats.ask.action", name=name, action=action_name(encounter.game, intent.action)
        )
    assert isinstance(intent, AttackIntent)
    target = state.combatants.get(intent.target)
    labels = {c.id: c.label for c in choices.actions(encounter.game)}
    return Message(
        "seats.ask.attack",
        name=name,
        action=labels.get(intent.action, Message.verbatim(intent.action)),
        weapon=intent.weapon,
        target=target.name if target is not None else intent.target,
        dice=dice,
    )


class InboxPanel(widgets.VBox):
    """The players' requests of the dashboard's encounter (see the module docstring)."""

    def __init__(
        self,
        encounter: Encounter,
        seats: SeatsFile,
        on_edit: Callable[[Intent], object] | None = None,
    ) -> None:
        """``on_edit``: what Edit does with a player's attack (the dashboard fills its attack
        panel with it); None: no Edit button."""
        self.inbox = Inbox(encounter, seats)
        self.encounter = encounter
        self.title = widgets.HTML()
        self.rows = widgets.VBox()
        self.auto = {
            kind: widgets.Checkbox(value=False, indent=False, layout={"width": "auto"})
            for kind in AUTO_KINDS
        }
        for box in self.auto.values():
            box.observe(self._on_auto, names="value")
        self.message = widgets.HTML()
        automatic = widgets.HBox(list(self.auto.values()), layout={"flex_flow": "row wrap"})
        super().__init__(children=[self.title, self.rows, automatic, self.message])
        self.add_class("gmkit-inbox")
        self.waiting: list[Asked] = []
        self._rows_shown: tuple[object, ...] | None = None  # the requests and language drawn
        self.on_edit = on_edit
        LANGUAGE.observe(self._on_language, names="value")
        self.refresh()

    def close(self) -> None:
        if self.comm is None:
            return
        LANGUAGE.unobserve(self._on_language, names="value")
        for part in (*self.auto.values(), self.rows, self.title, self.message):
            part.close()
        super().close()

    def refresh(self) -> None:
        """Read the seats file: let through what the GM allowed, show what waits."""
        try:
            self.waiting = self.inbox.poll()
        except GmkitError as error:
            self._say(words(error.message), error=True)
            return
        self._render()

    def accept(self, ident: int) -> None:
        self._run(lambda: self.inbox.accept(ident))

    def refuse(self, ident: int, reason: str = "") -> None:
        self._run(lambda: self.inbox.refuse(ident, reason))

    def edit(self, ident: int) -> None:
        """Take the request into the GM's attack panel (the phone reads the GM takes it)."""
        edit = self.on_edit
        if edit is not None:
            self._run(lambda: edit(self.inbox.take(ident)))

    def _run(self, command: Callable[[], object]) -> None:
        try:
            command()
        except GmkitError as error:
            self._say(words(error.message), error=True)
        else:
            self._say("")
        self.refresh()

    def _say(self, text: str, *, error: bool = False) -> None:
        css = "gmkit-error" if error else "gmkit-prompt"
        self.message.value = f"<div class='{css}'>{html.escape(text)}</div>" if text else ""

    def _on_auto(self, _change: object) -> None:
        self.inbox.set_auto(kind for kind, box in self.auto.items() if box.value)
        self.refresh()

    def _on_language(self, _change: object) -> None:
        self._render()

    def _render(self) -> None:
        """The title, the boxes and the rows; the rows made again only when what waits, or
        the language, changed (the poll reads the file every 0.3 s: a button the GM is about
        to click is never replaced under the pointer)."""
        count = len(self.waiting)
        title = f"<b>{html.escape(t('inbox'))}: {count}</b>"
        if self.title.value != title:
            self.title.value = title
        for kind, box in self.auto.items():
            if box.description != t(f"auto_{kind}"):
                box.description = t(f"auto_{kind}")
        shown = (tuple(a.request.id for a in self.waiting), LANGUAGE.value)
        if shown == self._rows_shown:
            return
        self._rows_shown = shown
        for row in self.rows.children:
            row.close()
        self.rows.children = [self._row(asked) for asked in self.waiting]

    def _row(self, asked: Asked) -> widgets.Widget:
        ident = asked.request.id
        said = f"<b>{html.escape(asked.seat.player)}</b> · "
        said += html.escape(words(asked_text(self.encounter, asked)))
        if asked.why_not:
            said += f" <span class='gmkit-error'>({html.escape(words(asked.why_not))})</span>"
        fits = {"width": "auto", "flex": "0 0 auto"}
        accept = widgets.Button(description=t("accept"), disabled=bool(asked.why_not), layout=fits)
        accept.on_click(lambda _b: self.accept(ident))
        word = widgets.Text(placeholder=t("refuse_word"), layout={"width": "9em"})
        refuse = widgets.Button(description=t("refuse"), layout=fits)
        refuse.on_click(lambda _b: self.refuse(ident, word.value))
        shown = [widgets.HTML(said), accept]
        if self.on_edit is not None and isinstance(asked.intent, AttackIntent):
            edit = widgets.Button(description=t("edit_request"), layout=fits)
            edit.on_click(lambda _b: self.edit(ident))
            shown.append(edit)
        return widgets.HBox([*shown, word, refuse])


__all__ = ["InboxPanel", "asked_text"]
