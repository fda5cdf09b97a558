"""What the dashboard keeps in view for the GM, asked of the page through the keyboard widget
(:meth:`~gmkit.widgets._shortcuts.Shortcuts.reveal`: only the boxes that scroll around the
element move, never the page):

- the actor's row, on each turn change (a phase too): in a long fight the tracker's rows
  scroll, and the GM may have scrolled them to look at someone;
- the question "Remove Cultist Ban?" under its row, when it is asked;
- *Do it* (and *Do it anyway* beside it when refused), when the turn's actions open or an
  action is chosen, and *Add condition* when the conditions open.

``InView(shortcuts).watch(encounter, tracker, turn_panel)`` for an encounter shown;
``drop()`` when it goes. It reads the widgets' state and sends nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any

from gmkit._forms.action import ActionForm
from gmkit.encounter import Encounter
from gmkit.widgets._shortcuts import Shortcuts
from gmkit.widgets._tracker import InitiativeTracker, TrackerRow
from gmkit.widgets._turn_panel import TurnPanel

__all__ = ["ADD_CONDITION", "CONFIRM", "DO_IT", "InView"]

CONFIRM = ".gmkit-tracker .gmkit-confirm"
DO_IT = ".gmkit-turn-panel .gmkit-do-line"  # Do it, and Do it anyway when refused
ADD_CONDITION = ".gmkit-turn-panel .gmkit-add-condition"


class InView:
    """Asks the page to show what the GM needs next (see the module docstring)."""

    def __init__(self, shortcuts: Shortcuts) -> None:
        self.shortcuts = shortcuts
        self._encounter: Encounter | None = None
        self._tracker: InitiativeTracker | None = None
        self._panel: TurnPanel | None = None
        self._undo: list[Callable[[], object]] = []
        self._turn: tuple[Any, ...] = ()  # the turn whose actor's row was asked for
        self._action = ""  # the turn form's action when last looked at

    def watch(self, encounter: Encounter, tracker: InitiativeTracker, panel: TurnPanel) -> None:
        """Follow this encounter's turns, its tracker's Remove and its turn panel's folds."""
        self.drop()
        self._encounter, self._tracker, self._panel = encounter, tracker, panel
        self._undo.append(encounter.subscribe(lambda _e: self.follow_actor()))
        self._observe(tracker, self._on_removing, "removing")
        self._observe(panel.actions_toggle, self._on_fold, "value")
        self._observe(panel.conditions_toggle, self._on_fold, "value")
        self._undo.append(panel.form.subscribe(self._on_form))
        self._action = panel.form.action
        self.follow_actor()

    def _observe(self, widget: Any, handler: Callable[[dict[str, Any]], None], name: str) -> None:
        widget.observe(handler, names=name)
        self._undo.append(lambda: widget.unobserve(handler, names=name))

    def drop(self) -> None:
        """Stop following (the encounter shown changes, or the dashboard closes)."""
        for undo in reversed(self._undo):
            with suppress(ValueError):  # a form closed first has forgotten its listeners
                undo()
        self._undo.clear()
        self._encounter = self._tracker = self._panel = None
        self._turn = ()

    def follow_actor(self) -> None:
        """On a turn change (a phase too) since the last call, the actor's row asked for."""
        encounter = self._encounter
        if encounter is None:
            return
        state = encounter.state
        turn = (state.started, state.round, state.turn, state.phase)
        if turn == self._turn:
            return
        self._turn = turn
        row = self.actor_row()
        if row is not None:
            self.shortcuts.reveal(f".gmkit-tracker .{row.css_class}")

    def actor_row(self) -> TrackerRow | None:
        """The row of whoever acts now (the situation's actor); else, in a game where a side
        acts, its first member's shown."""
        tracker, encounter = self._tracker, self._encounter
        if tracker is None or encounter is None:
            return None
        actor = encounter.situation.actor
        if actor is not None and actor in tracker.rows:
            return tracker.rows[actor]
        acting = tracker.highlighted
        shown = tracker.rows_box.children
        return next((r for r in shown if isinstance(r, TrackerRow) and r.ident in acting), None)

    def _on_removing(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self.shortcuts.reveal(CONFIRM)

    def _on_fold(self, change: dict[str, Any]) -> None:
        panel = self._panel
        if change["new"] and panel is not None:
            opened = change["owner"] is panel.actions_toggle
            self.shortcuts.reveal(DO_IT if opened else ADD_CONDITION)

    def _on_form(self, form: ActionForm) -> None:
        before, self._action = self._action, form.action
        panel = self._panel
        chosen = form.action and form.action != before  # in the controls, or by its button
        if chosen and panel is not None and panel.actions_toggle.value:
            self.shortcuts.reveal(DO_IT)
