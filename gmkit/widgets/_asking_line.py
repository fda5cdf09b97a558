"""The GM's line under the attack panel while a defender's player is asked for the reaction.

It shows what :class:`gmkit._forms.asking.ReactionAsk` says: "Asked Ana for the reaction: 14 s
left" with *I decide* (the GM takes the choice back at once), the player's answer once taken
into the panel ("Ana: Parry, die 3. The result below has it: apply it."), or that no answer
came in time. It listens to the attack form (a hit shown: ask) and the dashboard's poll reads
the reply (:meth:`AskingLine.poll`); it decides nothing itself.
"""

from __future__ import annotations

import contextlib
import html
from collections.abc import Callable

import ipywidgets as widgets

from gmkit._forms import AttackForm
from gmkit._forms.asking import AskState, ReactionAsk
from gmkit.messages import Message
from gmkit.widgets._i18n import t, words


class AskingLine(widgets.HBox):
    """The asking's state and *I decide* (see the module docstring)."""

    def __init__(self, asking: ReactionAsk, form: AttackForm) -> None:
        self.asking, self.form = asking, form
        self.text = widgets.HTML()
        self.decide_button = widgets.Button(layout={"width": "auto"})
        self.decide_button.on_click(lambda _b: self.decide())
        super().__init__([self.text, self.decide_button])
        self.add_class("gmkit-asking")
        self._shown: tuple[object, ...] | None = None
        self._unsubscribe: Callable[[], None] | None = form.subscribe(
            lambda _form: self._consider()
        )
        self.render()

    def decide(self) -> None:
        """The GM decides the reaction without the player's answer."""
        self.asking.withdraw()
        self.render()

    def poll(self) -> AskState:
        """Read the player's reply (the dashboard's timer)."""
        state = self.asking.poll(self.form)
        self.render()
        return state

    def render(self) -> None:
        state = self.asking.state
        left = round(state.left)
        shown = (state, left, t("ask_decide"))
        if shown == self._shown:
            return
        self._shown = shown
        self.decide_button.description = t("ask_decide")
        self.decide_button.layout.display = "" if state.state == "asked" else "none"
        if state.state == "asked":
            text = words(Message("widgets.ask_waiting", player=state.player, seconds=left))
            css = "gmkit-prompt"
        elif state.state == "answered":
            text = words(Message("widgets.ask_answered", player=state.player, said=state.said))
            css = "gmkit-now"
        elif state.state == "expired":
            text = words(Message("widgets.ask_expired", player=state.player))
            css = "gmkit-error"
        else:
            text, css = "", ""
        self.text.value = f"<div class='{css}'>{html.escape(text)}</div>" if text else ""
        self.layout.display = "" if text else "none"

    def close(self) -> None:
        unsubscribe, self._unsubscribe = self._unsubscribe, None
        if unsubscribe is not None:  # once: the dashboard closes its parts, then every widget
            with contextlib.suppress(ValueError):  # the form closed first forgot its listeners
                unsubscribe()
            self.asking.withdraw()
        super().close()

    def _consider(self) -> None:
        self.asking.consider(self.form)
        self.render()


__all__ = ["AskingLine"]
