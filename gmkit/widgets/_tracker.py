"""The initiative tracker: who acts now, what they have left, and the buttons that move the fight.

A thin view of an :class:`~gmkit.encounter.Encounter`: it reads ``encounter.state`` and sends
the encounter's commands; no rule of any game lives here. Every button calls a public method
(``next_turn()``, ``roll_initiative()``, ``set_initiative()``, ``remove()`` then
``confirm_remove()``...) that tests and dashboards call the same way. A command the rules refuse
(:class:`~gmkit.errors.RulesError`, or a die value the dice refuse) is shown in the message area
and changes nothing.

Built for 1,000 combatants: a row (:class:`~gmkit.widgets._tracker_row.TrackerRow`) is five
widget models in the initiative games (four in the sides games; a box of chips while the
combatant bears conditions), layouts and styles shared, kept in a dict by combatant id and
updated in place. A render sends the header first (whose turn: what the GM looks at), then works
out again only what changed: the rows whose combatant, triggers or context changed are drawn
(:mod:`gmkit.widgets._tracker_drawn`), the order only when it may have changed, and only the rows
whose marks changed are re-marked (:mod:`gmkit.widgets._tracker_marks`), so a turn change costs
the same at 10 combatants as at 1,000 (a look at each combatant, two class messages). Who acts
now, the selected row and the row asked to be removed are classes toggled on the rows (the look
is :mod:`gmkit.widgets._tracker_style`'s static CSS; no ``<style>`` is ever rewritten). The
"acted" mark is the encounter's (:attr:`~gmkit.encounter._core.EncounterCore.acted`), and Undo /
Redo say what they take back (``undo_text`` / ``redo_text``).

The row is :mod:`gmkit.widgets._tracker_row`, its texts :mod:`gmkit.widgets._tracker_text`.
``Shared`` is re-exported from :mod:`gmkit.widgets._shared_looks`, where it lives.

Why over 400 lines: the tracker's buttons, rows and what changed since the last render share
one state (only what changed is sent).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

import ipywidgets as widgets
from ipywidgets.widgets.widget_string import HTMLStyle, TextStyle
from traitlets import Unicode, observe

from gmkit.dice import DiceSource, EnteredDice, SeededDice
from gmkit.encounter import Combatant, Encounter, EncounterState
from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.sheets.base import Sheet
from gmkit.systems.turns import turn_structure
from gmkit.widgets._i18n import LANGUAGE, t, words
from gmkit.widgets._shared_looks import Shared
from gmkit.widgets._style import THEME_CLASS, style_widget
from gmkit.widgets._tracker_drawn import Drawn, by_owner
from gmkit.widgets._tracker_initiative import (
    box_help,
    read_initiative,
    roll_button,
    rolled_rest,
    took,
)
from gmkit.widgets._tracker_marks import NO_MARKS, Marks
from gmkit.widgets._tracker_row import ConfirmBar, TrackerRow
from gmkit.widgets._tracker_style import tracker_style_widget
from gmkit.widgets._tracker_text import acting, chips, header_html, reminders_html, row_html
from gmkit.widgets._tracker_text import ordered as shown_order

__all__ = ["MODELS_PER_ROW", "InitiativeTracker", "Shared", "TrackerRow", "parse_values"]

T = TypeVar("T")

MODELS_PER_ROW = 5
"""Widget models one combatant's row adds in an initiative game (HBox, the initiative Text,
HTML, two Buttons; layouts and styles shared); one fewer in a sides game."""


def parse_values(text: str) -> list[str]:
    """Values typed from physical dice: ``"7, 4, 9"`` (commas, semicolons or spaces)."""
    return [part for part in re.split(r"[\s,;]+", text.strip()) if part]


class InitiativeTracker(widgets.VBox):
    """The order (current actor highlighted, who has acted marked), round, side and phase, the
    action budget, markers and condition chips, an initiative box per row, with Next / Previous
    / Roll initiative / Start and Undo / Redo saying what they take back.

    ``InitiativeTracker(encounter, seed=7)`` rolls with ``SeededDice(7)`` (or pass ``dice``);
    values typed in the dice field (``"7, 4, 9"``) are used instead, as physical dice.
    """

    selected = Unicode(
        "", help="id of the selected combatant, whose sheet the dashboard shows ('' for none)"
    )
    message = Unicode("", help="the last refusal or note shown in the message area")
    removing = Unicode(
        "", help="id of the combatant whose Remove waits for its confirmation ('' for none)"
    )

    def __init__(
        self,
        encounter: Encounter,
        *,
        seed: int | str | None = None,
        dice: DiceSource | None = None,
        with_style: bool = True,
        **kwargs: Any,
    ) -> None:
        """``with_style``: carry gmkit's CSS (off where the page has it already); the tracker's
        own rows' CSS (:mod:`gmkit.widgets._tracker_style`) it always carries."""
        self.encounter = encounter
        self.dice: DiceSource = dice if dice is not None else SeededDice(seed)
        self._structure = turn_structure(encounter.game)
        self._rows: dict[str, TrackerRow] = {}
        self._side_classes: dict[str, str] = {}
        self._highlighted: frozenset[str] = frozenset()
        self._marks = NO_MARKS  # what the rows' classes show (a new row has no mark)
        self._drawn = Drawn()  # what the rows were last drawn from
        self._shown: list[widgets.Widget] = []  # the rows in the order shown
        self._place: dict[str, int] = {}  # where each present combatant's row is shown
        self._stale: set[str] = set()  # rows whose initiative box holds what the GM typed
        self._shared: dict[str, widgets.Widget] = {
            "row_layout": widgets.Layout(width="100%"),
            "html_layout": widgets.Layout(width="auto"),
            "html_style": HTMLStyle(),
            "button_layout": widgets.Layout(width="auto"),
            "button_style": widgets.ButtonStyle(),
        }
        if self._structure.kind == "initiative":  # the rows' initiative boxes
            self._shared.update(init_layout=widgets.Layout(width="2.6em"), text_style=TextStyle())
        self._looks = looks = Shared()  # the other widgets' layouts and styles
        self.header = looks.make(widgets.HTML)
        self.header.add_class("gmkit-header")
        self.previous_button = self._button(self.previous_turn)
        self.next_button = self._button(self.next_turn)
        self.undo_button = self._button(self.undo)
        self.redo_button = self._button(self.redo)
        self.roll_button = self._button(self.roll_initiative)
        self.start_button = self._button(self.start)
        self.dice_values = looks.make(
            widgets.Text,
            placeholder="7, 4, 9",
            layout={"width": "16em"},
            style={"description_width": "initial"},
        )
        tools: list[widgets.Widget] = [self.previous_button, self.next_button]
        if self._structure.kind == "initiative":
            tools += [self.roll_button, self.dice_values]
        tools.append(self.start_button)
        for part, css in (
            (self.previous_button, "gmkit-previous"),
            (self.next_button, "gmkit-next"),
            (self.roll_button, "gmkit-roll"),
            (self.dice_values, "gmkit-dice-values"),
            (self.start_button, "gmkit-start"),
        ):  # named for the dashboard's CSS (what it hides once of no use)
            part.add_class(css)
        self.undo_button.add_class("gmkit-undo")
        self.redo_button.add_class("gmkit-redo")
        tools += [self.undo_button, self.redo_button]  # on a line of their own (the CSS)
        self.toolbar = looks.make(widgets.HBox, children=tools, layout={"flex_flow": "row wrap"})
        self.toolbar.add_class("gmkit-toolbar")
        self.reminder_area = looks.make(widgets.HTML)
        self.message_area = looks.make(widgets.HTML)
        self._confirm: ConfirmBar | None = None  # made for the first Remove
        self.rows_box = looks.make(widgets.VBox, layout={"max_height": "65vh", "overflow": "auto"})
        self.rows_box.add_class("gmkit-rows")
        super().__init__(
            children=[
                *([style_widget()] if with_style else []),
                tracker_style_widget(),
                self.header,
                self.toolbar,
                self.reminder_area,
                self.message_area,
                self.rows_box,
            ],
            **kwargs,
        )
        self.add_class(THEME_CLASS)
        self.add_class("gmkit-tracker")
        self.add_class(f"gmkit-{self._structure.kind}")  # gmkit-initiative or gmkit-sides
        self._relabel()
        self._unsubscribe: Callable[[], None] | None = encounter.subscribe(self._on_change)
        LANGUAGE.observe(self._on_language, names="value")
        self._render()

    # --- the user's actions ------------------------------------------------------------

    def next_turn(self) -> None:
        """End the current turn (or phase) and begin the next."""
        self._run(self.encounter.next_turn)

    def previous_turn(self) -> None:
        self._run(self.encounter.previous_turn)

    def undo(self) -> None:
        """Take back the last command, as the Undo button says (not the preparation: see
        :attr:`~gmkit.encounter._core.EncounterCore.can_undo`)."""
        if not self.encounter.can_undo:
            self._say(words(Message("encounter.nothing_to_undo")), error=True)
            return
        self._run(self.encounter.undo)

    def redo(self) -> None:
        """Put back what the last Undo took, as the Redo button says."""
        self._run(self.encounter.redo)

    def set_initiative(self, ident: str, value: str | int) -> bool:
        """The table's initiative for a combatant (id or name), typed in its row's box: the
        total (``12``), the d10 as rolled (``d7``: the base added) or a sum (``7+4``), and the
        message line says which it took (:mod:`gmkit.widgets._tracker_initiative`); anything
        else is refused naming the combatant. The rows are sorted again. True if set."""
        found = self._run(lambda: self.encounter.combatant(ident))
        if found is None:
            return False
        text = str(value).strip()
        typed = read_initiative(text)
        if typed is None:
            if text:  # an emptied box: the score stays, nothing to say
                problem = Message("widgets.initiative_not_number", name=found.name, value=text)
                self._say(words(problem), error=True)
            if found.id in self._rows:
                self._rows[found.id].show_initiative(found.initiative)
            return False
        fight = self.encounter
        score = self._run(lambda: fight.set_initiative(found.id, typed.score, die=typed.die))
        if score is None:
            return False
        self._say(words(took(typed, found.name, score, found.initiative_base)))
        return True

    def remove_condition(self, ident: str, name: str) -> bool:
        """Take condition ``name`` off a combatant (id or name): its chip's cross."""

        def remove() -> bool:
            self.encounter.remove_condition(ident, name)
            return True

        return self._run(remove) is not None

    def roll_initiative(self, values: str | None = None) -> dict[str, int] | None:
        """Roll initiative for everyone present without a score ("Roll the rest": the scores
        typed stay, and the message line says whose): with ``values`` (``"7, 4, 9"``,
        physical dice in the order rolled), else the dice field's values, else the tracker's
        dice. Returns the scores rolled by id, or None if refused."""
        source = self._source(values)
        fight = self.encounter
        rolled = self._run(lambda: fight.roll_initiative(source, rest=True), source, values)
        kept = rolled_rest(fight.state, rolled) if rolled else None
        if kept is not None:
            self._say("; ".join(part for part in (words(kept), self.message) if part))
        return rolled

    def start(self, values: str | None = None, *, surprised: Iterable[str] = ()) -> None:
        """Begin round 1 (``surprised``: ids or names who lose it); a tie's roll-off takes
        ``values``, the dice field or the dice."""
        source = self._source(values)
        chosen = tuple(surprised)
        self._run(lambda: self.encounter.start(source, surprised=chosen), source, values)

    def add(
        self,
        sheet: Sheet,
        *,
        side: str | None = None,
        hidden: bool = False,
        initiative: int | None = None,
        values: str | None = None,
    ) -> str | None:
        """Add a combatant (the dashboard's add); returns its id, or None if refused. A late
        joiner in an initiative game takes ``initiative``, else rolls (``values``, the dice
        field or the dice)."""
        source = self._source(values)
        return self._run(
            lambda: self.encounter.add(
                sheet, side=side, hidden=hidden, initiative=initiative, source=source
            ),
            source,
            values,
        )

    def remove(self, ident: str) -> None:
        """Ask to take a combatant (id or name) out of the fight (its row's remove button):
        "Remove Cultist Ban? [Remove] [Keep]" under its row; only :meth:`confirm_remove`
        removes, :meth:`cancel_remove` keeps it."""
        found = self._run(lambda: self.encounter.combatant(ident))
        if found is not None:
            self.removing = found.id

    def confirm_remove(self) -> None:
        """Remove the combatant :meth:`remove` asked about (the confirmation's Remove)."""
        ident, self.removing = self.removing, ""
        if ident:
            self._run(lambda: self.encounter.remove(ident))

    def cancel_remove(self) -> None:
        """Keep the combatant :meth:`remove` asked about (the confirmation's Keep)."""
        self.removing = ""

    def select(self, ident: str) -> None:
        """Select a combatant (id or name): the dashboard shows its sheet (its row's button)."""
        found = self._run(lambda: self.encounter.combatant(ident))
        if found is not None:
            self.selected = found.id

    # --- reading -------------------------------------------------------------------------

    @property
    def rows(self) -> Mapping[str, TrackerRow]:
        """Every row built so far, by combatant id (rows of removed combatants are kept)."""
        return MappingProxyType(self._rows)

    @property
    def highlighted(self) -> frozenset[str]:
        """Ids of the combatants highlighted as acting now (the current actor, or the current
        side's members)."""
        return self._highlighted

    def close(self) -> None:
        """Stop following the encounter and the language; close every widget of the tracker."""
        unsubscribe = getattr(self, "_unsubscribe", None)
        if unsubscribe is None:
            return  # closed already (or never made)
        unsubscribe()
        self._unsubscribe = None
        LANGUAGE.unobserve(self._on_language, names="value")
        for row in self._rows.values():
            row.close()
        confirm = [self._confirm] if self._confirm is not None else []
        # the initiative's button and dice are made for every game, shown only where it has
        # initiative: closed either way (an unshown one kept the tracker alive in ipywidgets)
        unshown = [self.roll_button, self.dice_values]
        parts = (*self.children, *self.toolbar.children, *confirm, *unshown)
        for part in (*parts, *self._shared.values()):
            part.close()
        self._looks.close()
        super().close()

    # --- commands --------------------------------------------------------------------------

    def _button(self, action: Callable[[], object], **looks: Any) -> widgets.Button:
        button = self._looks.make(widgets.Button, **looks)
        button.on_click(lambda _button: action())
        return button

    def _source(self, values: str | None) -> DiceSource:
        typed = parse_values(self.dice_values.value if values is None else values)
        return EnteredDice(typed) if typed else self.dice

    def _run(
        self,
        command: Callable[[], T],
        source: DiceSource | None = None,
        values: str | None = None,
    ) -> T | None:
        """Send ``command``; a refusal is shown, not raised. Typed values the command read
        are used up (the field cleared; any left over are reported)."""
        try:
            result = command()
        except GmkitError as error:
            self._say(error.render(LANGUAGE.value), error=True)
            return None
        note = ""
        if isinstance(source, EnteredDice) and source.history:  # the typed dice were needed
            if values is None:
                self.dice_values.value = ""  # the typed dice have been read
            if source.pending:
                unused = ", ".join(str(value) for value in source.pending)
                note = f"{t('unused_values')}: {unused}"
        self._say(note)
        return result

    def _say(self, text: str, *, error: bool = False) -> None:
        self.message = text
        css = "gmkit-error" if error else "gmkit-message"
        self.message_area.value = f"<div class='{css}'>{html.escape(text)}</div>" if text else ""

    # --- rendering ---------------------------------------------------------------------------

    def _on_change(self, _encounter: object) -> None:
        self._render()

    def _on_language(self, _change: object) -> None:
        self._relabel()
        for row in self._rows.values():
            row.relabel()
        self._render()

    @observe("selected", "removing")
    def _on_marks(self, _change: object) -> None:
        self._render_marks(self.encounter.state)
        self._render_confirm()

    def _relabel(self) -> None:
        self.previous_button.description = t("previous_turn")
        self.next_button.description = t("next_turn")
        self.start_button.description = t("start")
        self.dice_values.description = t("physical_dice")
        if self._confirm is not None:
            self._confirm.relabel()

    def _render(self) -> None:
        """What changed, most wanted first: the header (whose turn), the marks, the rows'
        text and order, then the buttons (each a message of its own to the page). Only the rows
        whose inputs changed are worked out again, and the order only when it may have
        (:class:`~gmkit.widgets._tracker_drawn.Drawn`): a turn change at 1,000 combatants draws
        no row and re-marks two."""
        state = self.encounter.state
        self._highlighted = frozenset(acting(state))
        self._render_header(state)
        changes = self._drawn.changes(state, LANGUAGE.value)
        if changes.reorder:
            ordered = shown_order(self._structure, state)
            self._shown = [self._rows.get(c.id) or self._new_row(c) for c in ordered]
            self._place = {c.id: n for n, c in enumerate(ordered)}
        asked = state.combatants.get(self.removing) if self.removing else None
        if self.removing and (asked is None or asked.removed):
            self.removing = ""  # gone meanwhile (an undo, another window)
        self._render_marks(state)
        self._render_rows(state, changes.ids | self._stale)
        self._place_confirm(list(self._shown))
        self._render_history()
        self.start_button.disabled = state.started
        self._render_roll(state)
        self.next_button.disabled = not state.started
        self.previous_button.disabled = not state.started

    def _render_roll(self, state: EncounterState) -> None:
        """Roll initiative, or "Roll the rest" once some rows have a score; off when
        everyone has one, or once the fight has started (a late joiner rolls as it is added)."""
        label, help_text, off = roll_button(state)
        _assign(self.roll_button, description=words(label), tooltip=words(help_text))
        _assign(self.roll_button, disabled=off)

    def _render_rows(self, state: EncounterState, idents: Iterable[str]) -> None:
        """The text, initiative box and chips of the rows of ``idents`` that are shown, in the
        order shown."""
        self._stale = set()
        place = self._place
        triggers = by_owner(state.triggers)
        for ident in sorted((i for i in idents if i in place), key=place.__getitem__):
            combatant = state.combatants[ident]
            row = self._rows[ident]
            row.show(row_html(self._structure, state, combatant, triggers))
            row.show_initiative(combatant.initiative)
            if row.initiative_box is not None:
                help_text = box_help(combatant.name, combatant.initiative_base)
                _assign(row.initiative_box, tooltip=words(help_text))
            row.show_conditions(chips(self.encounter.game, combatant))

    def _typed_initiative(self, ident: str, value: str) -> None:
        """A score typed in a row's box: its row is drawn again at the next render whatever
        the encounter makes of it (the box shows the encounter's score, not what was typed)."""
        self._stale.add(ident)
        self.set_initiative(ident, value)

    def _render_history(self) -> None:
        """Undo and Redo labelled with what they take back (the full text as the tooltip);
        live when there is something to take back (the text is None exactly when not: each
        is read once, as ``can_undo`` reads the whole log)."""
        fight = self.encounter
        for button, text, plain in (
            (self.undo_button, fight.undo_text, t("undo")),
            (self.redo_button, fight.redo_text, t("redo")),
        ):
            label = words(text) if text is not None else plain
            if button.description != label:
                with button.hold_sync():  # one message
                    button.description = label
                    button.tooltip = label
            button.disabled = text is None

    def _render_confirm(self) -> None:
        self._place_confirm([c for c in self.rows_box.children if c is not self._confirm])

    def _place_confirm(self, shown: list[widgets.Widget]) -> None:
        """Show the rows ``shown``, the confirmation under the row whose Remove was clicked."""
        found = self.encounter.state.combatants.get(self.removing)
        row = self._rows.get(self.removing)
        if found is not None and row is not None and row in shown:
            self.confirm_bar.ask(found.name)
            shown.insert(shown.index(row) + 1, self.confirm_bar)
        if tuple(shown) != tuple(self.rows_box.children):
            self.rows_box.children = tuple(shown)

    @property
    def confirm_bar(self) -> ConfirmBar:
        """ "Remove Cultist Ban? [Remove] [Keep]" (made the first time it is asked for)."""
        if self._confirm is None:
            self._confirm = ConfirmBar(self._shared, self.confirm_remove, self.cancel_remove)
        return self._confirm

    @property
    def confirm_button(self) -> widgets.Button:
        return self.confirm_bar.confirm_button

    @property
    def keep_button(self) -> widgets.Button:
        return self.confirm_bar.keep_button

    @property
    def confirm_text(self) -> widgets.HTML:
        return self.confirm_bar.text

    def _new_row(self, combatant: Combatant) -> TrackerRow:
        side_class = self._side_classes.setdefault(
            combatant.side, f"gmkit-s{len(self._side_classes) + 1}"
        )
        initiative = self._structure.kind == "initiative"
        row = TrackerRow(
            combatant.id,
            css_class=f"gmkit-r{len(self._rows) + 1}",
            side_class=side_class,
            shared=self._shared,
            on_select=self.select,
            on_remove=self.remove,
            on_initiative=self._typed_initiative if initiative else None,
            on_uncondition=self.remove_condition,
        )
        self._rows[combatant.id] = row
        marked = self._marks.flags(combatant.id)
        if marked:  # every row carries its marks; later changes reach it through Marks.changed
            row.flag(marked)
        return row

    def _render_marks(self, state: EncounterState) -> None:
        """Toggle the rows' classes: the current actor, who acts now, who has acted, the
        selected row, the row asked to be removed; only the rows whose marks may have changed
        are looked at (:meth:`~gmkit.widgets._tracker_marks.Marks.changed`), and a message goes
        only to those whose classes did."""
        current = self.encounter.situation.actor  # the one who acts now (a side: its next)
        acted = self.encounter.acted
        marks = Marks(current, self._highlighted, acted, self.selected, self.removing)
        before, self._marks = self._marks, marks
        rows, place = self._rows, self._place
        shown_last = len(place)  # the new current actor's row first, then in the order shown
        for ident in sorted(
            marks.changed(before), key=lambda i: (i != current, place.get(i, shown_last))
        ):
            row = rows.get(ident)
            if row is not None:
                row.flag(marks.flags(ident))

    def _render_header(self, state: EncounterState) -> None:
        """Round and whose turn (or side and phase); the reminders of the last turn change."""
        header = header_html(self._structure, state)
        if self.header.value != header:
            self.header.value = header
        reminders = reminders_html(state)
        if self.reminder_area.value != reminders:
            self.reminder_area.value = reminders


def _assign(widget: widgets.Widget, **values: object) -> None:
    """Assign only the traits whose value differs: an equal value sends nothing."""
    for name, value in values.items():
        if getattr(widget, name) != value:
            setattr(widget, name, value)
