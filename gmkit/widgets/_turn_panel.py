"""The turn panel: what a combatant does besides attacking, the rolls the turn asks for, and the
GM's hand on conditions: a thin view of :class:`~gmkit._forms.action.ActionForm`.

- **Rolls due**, always shown: what the last turn change asks for (on fire, blood loss, a
  recovery roll, the pin escape), each with *Roll*, a box for the table's die and *Dismiss*;
  and the decisions the GM owes (a critical no table gives the effect of: the GM gives it
  with the conditions below), each with *Decided*.
- **Buttons of the turn**, always shown: for whoever acts now, a button per non-attack action
  of the game (one the actor may not take now is greyed, and says why on hover): an action
  that needs nothing but its defaults is taken at once with gmkit's dice; one with inputs of
  its own opens the actions' controls with it chosen.
- **Actions** (folded; built when first opened): the actor (following whoever acts now), the
  game's non-attack actions (Aim, Reload, Move, Defensive Stance...; one the actor may not take
  now is marked and says why), the type it is taken as, the table's dice if typed and *Do it*
  (refused: *Do it anyway* with the GM's reason), then its target, weapon and inputs. While
  they are open the actions' buttons fold away (the controls list the same actions); with
  the conditions open too, the conditions come first (the shorter), so *Do it* stays in view.
- **The last result** (an action's, taken with its button or its controls, or a roll due's):
  its steps and effects, shown only while it is the last thing done in the fight. Another
  command (an attack, a condition, an undo) or the turn moving on (a phase too: in a sides game
  the same fighter may be followed) takes it away, and a refusal or prompt with it: the pane
  shows what is still true, never an old "hides" after the fighter shot and lost it.
- **Conditions** (folded): a combatant's conditions as chips (click one to remove it), a
  condition to add from the game's catalog or in the GM's own words, with its rounds, and the
  setting *Next skips the dead and the out of action*.

Every control calls a public method that tests call the same way (``select_action``,
``take``, ``reveal``, ``perform``, ``roll_due``, ``dismiss_due``, ``add_condition``,
``remove_condition``, ``set_skip_fallen``, ``open_actions``, ``open_conditions``); a refusal
is shown in the panel's message line and changes nothing. The folded parts cost nothing until
opened (:mod:`gmkit.widgets._turn_controls`).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
from traitlets import Unicode

from gmkit._forms.action import ActionForm
from gmkit.encounter import Encounter
from gmkit.errors import GmkitError, NeedDie
from gmkit.messages import Message
from gmkit.systems.acting import ActionResult
from gmkit.widgets._attack_view import result_html
from gmkit.widgets._i18n import LANGUAGE, t, words
from gmkit.widgets._sync import assign as _assign
from gmkit.widgets._tracker import Shared
from gmkit.widgets._turn_controls import ActionControls, ConditionControls

__all__ = ["TurnPanel"]


class TurnPanel(widgets.VBox):
    """Rolls due, non-attack actions and conditions (see the module docstring)."""

    message = Unicode("", help="the last refusal or prompt shown")

    def __init__(
        self,
        encounter: Encounter,
        *,
        seed: int | None = None,
        follow_actor: bool = True,
        **kwargs: Any,
    ) -> None:
        self.encounter = encounter
        self.form = ActionForm(encounter, seed=seed, follow_actor=follow_actor)
        self._shown_due: tuple[Any, ...] | None = None
        self._looks = looks = Shared()
        self.title = looks.make(widgets.HTML)
        self.due_box = looks.make(widgets.VBox)
        self.quick_box = looks.make(
            widgets.HBox, layout={"flex_flow": "row wrap", "align_items": "center"}
        )
        self.quick_box.add_class("gmkit-quick-actions")
        self._shown_quick: tuple[Any, ...] | None = None
        self._quick: dict[str, widgets.Button] = {}  # an action's button, made when first shown
        self._quick_drawn: dict[str, tuple[object, ...]] = {}  # what each button was drawn from
        self._quick_name: widgets.HTML | None = None
        self._reveal_button: widgets.Button | None = None
        self.actions_toggle = looks.make(widgets.ToggleButton, layout={"width": "auto"})
        self.conditions_toggle = looks.make(widgets.ToggleButton, layout={"width": "auto"})
        toggles = looks.make(widgets.HBox, children=[self.actions_toggle, self.conditions_toggle])
        self.actions_box = looks.make(widgets.VBox)
        self.conditions_box = looks.make(widgets.VBox)
        self.result = looks.make(widgets.HTML)
        self.result.add_class("gmkit-turn-result")
        self._result_seen: ActionResult | None = None  # the form's last result, and the
        self._result_at = 0  # event after which it came: shown while no other has come
        self._result_shown: tuple[Any, ...] = ()
        self.status = looks.make(widgets.HTML)
        self._said_at = 0  # the event after which the status line was written
        self.action_controls: ActionControls | None = None  # built when first opened
        self.condition_controls: ConditionControls | None = None
        super().__init__(
            children=[
                self.title,
                self.due_box,
                self.quick_box,
                toggles,
                self.conditions_box,  # the shorter first: with both open, Do it in view
                self.actions_box,
                self.result,
                self.status,
            ],
            **kwargs,
        )
        self.add_class("gmkit-turn-panel")
        self.actions_toggle.observe(lambda c: self.open_actions(bool(c["new"])), names="value")
        self.conditions_toggle.observe(
            lambda c: self.open_conditions(bool(c["new"])), names="value"
        )
        self._unsubscribe_form = self.form.subscribe(lambda _f: self._render())
        LANGUAGE.observe(self._on_language, names="value")
        self._relabel()
        self._render()

    # --- the GM's actions -------------------------------------------------------------------

    def open_actions(self, open_: bool = True) -> None:
        """Show (building on first use) or hide the actions' controls."""
        if open_ and self.action_controls is None:
            self.action_controls = ActionControls(self)
            self.action_controls.relabel()
        self._unfold(self.actions_box, self.actions_toggle, self.action_controls, open_)
        if open_:  # the controls list the same actions as the buttons: those fold away
            self.add_class("gmkit-actions-open")
        else:
            self.remove_class("gmkit-actions-open")

    def open_conditions(self, open_: bool = True) -> None:
        """Show (building on first use) or hide the conditions' controls."""
        if open_ and self.condition_controls is None:
            self.condition_controls = ConditionControls(self)
            self.condition_controls.relabel()
        self._unfold(self.conditions_box, self.conditions_toggle, self.condition_controls, open_)

    def select_actor(self, ident: str) -> bool:
        return self._run(lambda: self.form.select_actor(ident))

    def select_action(self, action: str) -> bool:
        """Choose a non-attack action (by id; the actions' controls open)."""
        if self.action_controls is None:
            self.open_actions(True)
        return self._run(lambda: self.form.select_action(action))

    def set_type(self, action_type: str) -> bool:
        return self._run(lambda: self.form.set_type(action_type))

    def select_target(self, ident: str) -> bool:
        return self._run(lambda: self.form.select_target(ident))

    def select_weapon(self, name: str) -> bool:
        return self._run(lambda: self.form.select_weapon(name))

    def set_input(self, name: str, value: Any) -> bool:
        return self._run(lambda: self.form.set_input(name, value))

    def perform(self, typed: str | None = None, *, override: str | None = None) -> bool:
        """Take the chosen action (``typed``: the table's dice; ``override``: the GM's reason
        to take a refused one); True when it was recorded."""
        done = self._run(lambda: self.form.perform(typed, override=override))
        if done and self.action_controls is not None:
            self.action_controls.cleared()
        return done

    def take(self, action: str) -> bool:
        """An action's button: taken at once when it needs nothing but its defaults, else
        chosen in the actions' controls (opened) for the GM to fill in."""
        done = self._run(lambda: self.form.take(action))
        if done and self.form.action:  # chosen, not taken: it has inputs to fill in
            self.open_actions(True)
        return done

    def reveal(self) -> bool:
        """Show the hidden actor to the players (their page said "an enemy acts")."""
        return self._run(lambda: self.encounter.reveal(self.form.actor))

    def roll_due(self, index: int, typed: str | None = None) -> bool:
        """Roll the ``index``-th roll due (``typed``: the table's die)."""
        return self._run(lambda: self.form.roll_due(index, typed))

    def dismiss_due(self, index: int, reason: str = "") -> bool:
        """Pass over the ``index``-th roll due."""
        return self._run(lambda: self.form.dismiss_due(index, reason))

    def add_condition(self, ident: str, name: str, rounds: int | str | None = None) -> bool:
        """Put ``name`` on ``ident`` for ``rounds`` (empty: until removed); a name the game
        does not declare is kept as a note, and the pane says so."""
        notes: list[Message] = []

        def add() -> None:
            note = self.form.add_condition(ident, name, rounds)
            if note is not None:
                notes.append(note)

        done = self._run(add)
        if done and notes:
            self._say(words(notes[0]))  # the name, and why no rule reads it
        if done and self.condition_controls is not None:
            self.condition_controls.cleared()
        return done

    def remove_condition(self, ident: str, name: str) -> bool:
        return self._run(lambda: self.form.remove_condition(ident, name))

    def set_skip_fallen(self, skip: bool) -> bool:
        """Whether Next passes over the dead and the out of action (on by default)."""
        return self._run(lambda: self.encounter.set("skip_fallen", bool(skip)))

    def close(self) -> None:
        if self.comm is None:  # closed already (ipywidgets closes again when collecting)
            return
        LANGUAGE.unobserve(self._on_language, names="value")
        self._unsubscribe_form()
        self.form.close()
        for part in (self.action_controls, self.condition_controls):
            if part is not None:
                part.close()
        for row in self.due_box.children:
            row.close()
        for made in (*self._quick.values(), self._quick_name, self._reveal_button):
            if made is not None:
                made.close()
        self._looks.close()
        super().close()

    # --- for the controls -------------------------------------------------------------------

    def name_of(self, ident: str) -> str:
        found = self.encounter.state.combatants.get(ident)
        return found.name if found is not None else ident

    @staticmethod
    def escape(text: str) -> str:
        return html.escape(text)

    # --- inside -------------------------------------------------------------------------------

    def _unfold(
        self, box: widgets.VBox, toggle: widgets.ToggleButton, part: Any, open_: bool
    ) -> None:
        wanted = [part.box] if open_ and part is not None else []
        if list(box.children) != wanted:
            box.children = wanted
        if toggle.value != open_:
            toggle.value = open_
        if open_ and part is not None:
            part.render()

    def _run(self, command: Callable[[], object]) -> bool:
        try:
            command()
        except NeedDie as need:
            self._say(words(need.message))
            return False
        except GmkitError as error:
            self._say(words(error.message), error=True)
            return False
        self._say("")
        self._render()
        return True

    def _say(self, text: str, *, error: bool = False) -> None:
        self.message = text
        self._said_at = self.encounter.last_seq
        css = "gmkit-error" if error else "gmkit-prompt"
        self.status.value = f"<div class='{css}'><b>{html.escape(text)}</b></div>" if text else ""

    def _render(self) -> None:
        if self.message and self.encounter.last_seq != self._said_at:
            self._say("")  # said of a fight that has moved on since
        self._render_due()
        self._render_quick()
        self._render_result()
        if self.actions_toggle.value and self.action_controls is not None:
            self.action_controls.render()
        if self.conditions_toggle.value and self.condition_controls is not None:
            self.condition_controls.render()

    def _render_due(self) -> None:
        due = (self.encounter.due, LANGUAGE.value)
        if due == self._shown_due:
            return
        self._shown_due = due
        for row in self.due_box.children:
            row.close()
        rows: list[widgets.Widget] = []
        for index, one in enumerate(self.encounter.due):
            who = html.escape(self.name_of(one.bearer))
            text = widgets.HTML(
                f"<b>{who}</b>: {html.escape(words(one.text))}", layout={"flex": "1 1 auto"}
            )
            fixed = {"flex": "0 0 auto", "width": "auto"}
            label = t("dismiss" if one.dice else "decided")
            dismiss = widgets.Button(description=label, layout=fixed)
            dismiss.on_click(lambda _b, i=index: self.dismiss_due(i))
            if not one.dice:  # a decision the GM owes (a critical): made with Conditions
                rows.append(widgets.HBox([text, dismiss], layout={"align_items": "center"}))
                continue
            typed = widgets.Text(placeholder=t("typed_dice"), layout={"flex": "0 0 8em"})
            roll = widgets.Button(description=t("roll"), layout=fixed)
            roll.on_click(
                lambda _b, i=index, box=typed: self.roll_due(i, box.value.strip() or None)
            )
            row = widgets.HBox([text, typed, roll, dismiss], layout={"align_items": "center"})
            rows.append(row)
        self.due_box.children = rows
        count = len(rows)
        self.title.value = (
            f"<div class='gmkit-slot-title'>{html.escape(t('rolls_due'))}: {count}</div>"
            if count
            else ""
        )

    def _render_result(self) -> None:
        """The form's last result while nothing else has happened since it came (see the
        module docstring); drawn again only when it, the language or that changes."""
        result, last = self.form.result, self.encounter.last_seq
        if result is not self._result_seen:
            self._result_seen, self._result_at = result, last
        current = result if result is not None and last == self._result_at else None
        key = (id(current), LANGUAGE.value)
        if key == self._result_shown:
            return
        self._result_shown = key
        shown = ""
        if current is not None:
            game = self.encounter.game
            shown = result_html(current.steps, current.summary, current.effects, game)
        if self.result.value != shown:
            self.result.value = shown

    def _render_quick(self) -> None:
        """The actor's buttons: the game's actions, each greyed (and saying why on hover) when
        not allowed now. Built once, on shared looks, and changed in place: a turn sends only
        the buttons whose state changed."""
        form, state = self.form, self.encounter.state
        actor = state.combatants.get(form.actor)
        offered = form.offered if actor is not None and state.started else ()
        hidden = actor is not None and actor.hidden and bool(offered)
        key = (
            form.actor,
            LANGUAGE.value,
            hidden,
            tuple((one.info.id, one.permit.reasons) for one in offered),  # words come later
        )
        if key == self._shown_quick:
            return
        self._shown_quick = key
        if not offered:
            if self.quick_box.children:
                self.quick_box.children = []
            return
        if self._quick_name is None:
            self._quick_name = self._looks.make(widgets.HTML, layout={"width": "auto"})
            self._quick_name.add_class("gmkit-quick-name")  # whose actions the buttons are
        _assign(self._quick_name, value=f"<b>{html.escape(actor.name if actor else '')}</b>:")
        shown: list[widgets.Widget] = [self._quick_name]
        if hidden:  # the players read "an enemy acts" until the GM shows who
            if self._reveal_button is None:
                self._reveal_button = self._looks.make(
                    widgets.Button, layout={"width": "auto"}, button_style="warning"
                )
                self._reveal_button.on_click(lambda _b: self.reveal())
            _assign(self._reveal_button, description=t("reveal_actor"))
            shown.append(self._reveal_button)
        for one in offered:
            button = self._quick.get(one.info.id)
            if button is None:
                button = self._quick[one.info.id] = self._looks.make(
                    widgets.Button, layout={"width": "auto"}
                )
                button.on_click(lambda _b, action=one.info.id: self.take(action))
            drawn = (one.permit.reasons, LANGUAGE.value)
            if self._quick_drawn.get(one.info.id) != drawn:  # only the buttons that changed
                self._quick_drawn[one.info.id] = drawn
                tip = words(one.info.help) if one.allowed else words(one.permit.why)
                _assign(button, description=words(one.info.label), disabled=not one.allowed)
                _assign(button, tooltip=tip)
            shown.append(button)
        if list(self.quick_box.children) != shown:
            self.quick_box.children = shown

    def _relabel(self) -> None:
        self.actions_toggle.description = t("turn_actions")
        self.conditions_toggle.description = t("conditions")
        for part in (self.action_controls, self.condition_controls):
            if part is not None:
                part.relabel()

    def _on_language(self, _change: object) -> None:
        self._shown_due = None
        self._shown_quick = None
        self._relabel()
        self._render()
