"""The attack a seat's combatant may make now, on the player's phone.

Weapon, mode, attack and target are chosen among those the rules and the situation allow, as
the GM's attack panel offers them: the same model below both
(:class:`~gmkit._forms.attack.AttackForm`, its cascade and defaults), so the phone offers
nothing the table would refuse. The targets are the foes the players can see (never a hidden
one). Under them: the odds of a hit for that choice (:func:`gmkit.odds.odds`, exact), or why
the rules refuse it; a box for the table's dice (empty: gmkit rolls); *Send attack*, which
hands the choice to the seat's controls as a request (nothing is written to the fight here).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from gmkit._forms import AttackForm
from gmkit._forms.seat import seat_attack, seat_foes
from gmkit.encounter import Encounter
from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.widgets._i18n import named, t, words
from gmkit.widgets._seat_words import attack_odds, error_html


class SeatAttack(widgets.VBox):
    """A seat's attack chooser (see the module docstring); ``send`` takes the request."""

    def __init__(self, encounter: Encounter, send: Callable[[dict[str, Any]], bool]) -> None:
        self.encounter, self._ask_gm = encounter, send  # (Widget._send is ipywidgets')
        self.form: AttackForm | None = None  # made for the first turn of the seat's own
        labelled = {"description_width": "5em"}  # the CSS fits them to the phone's width
        self.weapon = widgets.Dropdown(style=labelled)
        self.mode = widgets.Dropdown(style=labelled)
        self.action = widgets.Dropdown(style=labelled)
        self.target = widgets.Dropdown(style=labelled)
        for control, name in (
            (self.weapon, "weapon"),
            (self.mode, "mode"),
            (self.action, "action"),
            (self.target, "target"),
        ):
            control.add_class(f"gmkit-seat-{name}")
        for control, select in (
            (self.weapon, "select_weapon"),
            (self.mode, "select_mode"),
            (self.action, "select_action"),
            (self.target, "select_target"),
        ):
            control.observe(self._chooser(select), names="value")
        self.odds = widgets.HTML()
        self.dice = widgets.Text(layout={"flex": "1 1 auto", "width": "auto"})
        self.send_button = widgets.Button(layout={"width": "auto"})
        self.send_button.on_click(lambda _b: self.send())
        super().__init__(
            [
                self.weapon,
                self.mode,
                self.action,
                self.target,
                self.odds,
                widgets.HBox([self.dice, self.send_button], layout={"width": "100%"}),
            ]
        )
        self.add_class("gmkit-seat-attack")
        self._syncing = False
        self.acting: str | None = None

    def show(self, acting: str | None) -> None:
        """The chooser for ``acting`` (the seat's combatant whose turn it is; None: hidden)."""
        self.acting = acting
        default = self.encounter.situation.default_attack_of(acting) if acting else None
        if acting is None or default is None or not default.action:
            self.layout.display = "none"
            return
        self.layout.display = ""
        form = self.form
        if form is None:
            form = self.form = AttackForm(self.encounter)
        if form.attacker != acting:
            form.select_attacker(acting)
        self._sync(form)
        self.send_button.description = t("seat_send_attack")
        self.dice.placeholder = t("seat_dice")
        for control, key in (
            (self.weapon, "weapon"),
            (self.mode, "mode"),
            (self.action, "action"),
            (self.target, "target"),
        ):
            if control.description != t(key):
                control.description = t(key)

    def send(self) -> bool | Message:
        """The choice as a request, with the dice typed (none: gmkit rolls); the message
        saying why, when the dice typed are not dice."""
        form = self.form
        if form is None or self.acting is None:
            return False
        request = seat_attack(form, self.acting, self.dice.value, self.encounter.state.events)
        if isinstance(request, Message):
            return request
        sent = self._ask_gm(request)
        if sent:
            self.dice.value = ""
        return sent

    def close(self) -> None:
        if self.form is not None:
            self.form.close()
            self.form = None
        super().close()

    # --- inside ---------------------------------------------------------------------------------

    def _chooser(self, select: str) -> Callable[[dict[str, Any]], None]:
        def chosen(change: dict[str, Any]) -> None:
            form = self.form
            if self._syncing or form is None or change["new"] is None:
                return
            try:
                getattr(form, select)(change["new"])
            except GmkitError as error:  # not offered now: said, the form unchanged
                self.odds.value = error_html(words(error.message))
                return
            self._sync(form)

        return chosen

    def _sync(self, form: AttackForm) -> None:
        """The dropdowns as the form offers them now, and the odds."""
        game = self.encounter.game
        foes = seat_foes(self.encounter, form)  # never a hidden one, never their own side
        self._syncing = True
        try:
            _set(self.weapon, [(named(game, w), w) for w in form.offered.weapons], form.weapon)
            _set(self.mode, [(words(c.label), c.id) for c in form.offered.modes], form.mode)
            _set(self.action, [(words(c.label), c.id) for c in form.offered.actions], form.action)
            _set(self.target, [(c.name, c.id) for c in foes], form.target)
        finally:
            self._syncing = False
        self.mode.layout.display = "" if len(form.offered.modes) > 1 else "none"
        self._render_odds(form)

    def _render_odds(self, form: AttackForm) -> None:
        self.odds.value, may_send = attack_odds(self.encounter, form)
        self.send_button.disabled = not may_send


def _set(control: widgets.Dropdown, options: list[tuple[str, str]], value: str) -> None:
    """``control`` with ``options`` (set only when they changed: never under a finger)."""
    if list(control.options) != options:
        control.options = options
    ids = [ident for _, ident in options]
    if value in ids and control.value != value:
        control.value = value


__all__ = ["SeatAttack"]
