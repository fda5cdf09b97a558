"""The initiative tracker: who acts now, what they have left, and the buttons that move the fight.

A thin view of an :class:`~gmkit.encounter.Encounter`: it reads ``encounter.state`` and sends
the encounter's commands; no rule of any game lives here. Every button calls a public method
(``next_turn()``, ``roll_initiative()``...) that tests and dashboards call the same way. A
command the rules refuse (:class:`~gmkit.errors.RulesError`, or a die value the dice refuse) is
shown in the message area and changes nothing.

Built for 200 combatants: a row is four widget models (an ``HBox`` holding one ``HTML`` for the
whole line and two buttons; layouts and styles are shared by every row), kept in a dict by
combatant id and updated in place: only rows whose text changed get a new value, a new
combatant appends a row, and a re-ordering re-assigns the children without building anything.
Who acts now (and who is selected) is not written into the rows: each row carries a fixed CSS
class, and one small ``<style>`` of the tracker (:func:`~gmkit.widgets.style.highlight_css`)
highlights those rows and shows their budget, so a turn or side change rewrites that style and
the rows whose text changed (conditions ticking, a budget reset), not every row of two sides.

Why over 400 lines: the tracker's rows, header, budget and buttons share one state (what
changed since the last render, so only that is sent); the row is its own class here.
"""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

import ipywidgets as widgets
from ipywidgets.widgets.widget_string import HTMLStyle
from traitlets import Unicode, observe

from gmkit.dice import DiceSource, EnteredDice, SeededDice
from gmkit.encounter import Combatant, Encounter, EncounterState, Trigger
from gmkit.encounter.terms import condition_name, phase_name
from gmkit.errors import GmkitError
from gmkit.sheets.base import Sheet
from gmkit.systems.health import health
from gmkit.systems.turns import pool_name, turn_structure
from gmkit.widgets.i18n import LANGUAGE, t, words
from gmkit.widgets.style import THEME_CLASS, highlight_css, style_widget

__all__ = ["MODELS_PER_ROW", "InitiativeTracker", "Shared", "TrackerRow", "parse_values"]

T = TypeVar("T")
W = TypeVar("W", bound=widgets.Widget)

MODELS_PER_ROW = 4
"""Widget models one combatant's row adds (HBox, HTML, two Buttons; layouts/styles shared)."""


class Shared:
    """The layouts and styles of a panel's widgets, shared: one ``Layout`` per distinct set
    of layout values and one style per style class and values, instead of a model of each
    for every widget (an unshared ``Layout`` is a model and ~1 KB of state at load).

    ``shared.make(widgets.Button, layout={"width": "auto"}, description="Go")`` builds a
    widget on them. Only for widgets whose layout and style are not changed one by one later
    (``display`` toggled...): such a widget keeps its own. ``close()`` closes them all (the
    panel's ``close``)."""

    def __init__(self) -> None:
        self._made: dict[tuple[Any, ...], widgets.Widget] = {}

    def layout(self, **values: Any) -> widgets.Layout:
        key = (widgets.Layout, *sorted(values.items()))
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = widgets.Layout(**values)
        return made

    def style(self, widget_class: type[widgets.Widget], **values: Any) -> widgets.Widget:
        klass = widget_class.class_traits()["style"].klass
        key = (klass, *sorted(values.items()))
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = klass(**values)
        return made

    def make(
        self,
        widget_class: type[W],
        *,
        layout: Mapping[str, Any] | None = None,
        style: Mapping[str, Any] | None = None,
        **traits: Any,
    ) -> W:
        """A ``widget_class`` widget on the shared layout (and style, if it has one)."""
        traits["layout"] = self.layout(**(layout or {}))
        if "style" in widget_class.class_traits():
            traits["style"] = self.style(widget_class, **(style or {}))
        made: W = widget_class(**traits)
        return made

    def close(self) -> None:
        for made in self._made.values():
            made.close()
        self._made.clear()


def parse_values(text: str) -> list[str]:
    """Values typed from physical dice: ``"7, 4, 9"`` (commas, semicolons or spaces)."""
    return [part for part in re.split(r"[\s,;]+", text.strip()) if part]


class TrackerRow(widgets.HBox):
    """One combatant's line: the whole row as one HTML, a sheet button and a remove button.

    ``css_class`` (``gmkit-r7``) and ``side_class`` (``gmkit-s1``) never change: the tracker's
    highlight style points at them. In the initiative games the current actor's row also
    carries ``gmkit-current`` (a hook for browser tests; a side's rows do not, to keep a side
    change from touching every row)."""

    def __init__(
        self,
        ident: str,
        *,
        css_class: str,
        side_class: str,
        shared: Mapping[str, widgets.Widget],
        on_select: Callable[[str], object],
        on_remove: Callable[[str], object],
    ) -> None:
        self.ident = ident
        self.css_class = css_class
        self.side_class = side_class
        self.html = widgets.HTML(layout=shared["html_layout"], style=shared["html_style"])
        self.select_button = widgets.Button(
            description=t("sheet"), layout=shared["button_layout"], style=shared["button_style"]
        )
        self.remove_button = widgets.Button(
            description=t("remove"), layout=shared["button_layout"], style=shared["button_style"]
        )
        self.select_button.on_click(lambda _button: on_select(ident))
        self.remove_button.on_click(lambda _button: on_remove(ident))
        super().__init__(
            children=[self.html, self.select_button, self.remove_button],
            layout=shared["row_layout"],
        )
        self._dom_classes: tuple[str, ...] = ("gmkit-row", css_class, side_class)

    def mark(self, current: bool) -> None:
        """Add or drop the ``gmkit-current`` class."""
        wanted: tuple[str, ...] = ("gmkit-row", self.css_class, self.side_class)
        wanted = (*wanted, "gmkit-current") if current else wanted
        if tuple(self._dom_classes) != wanted:
            self._dom_classes = wanted

    def show(self, text: str) -> bool:
        """Show ``text`` (only if it differs: one message); True if it changed."""
        if self.html.value == text:
            return False
        self.html.value = text
        return True

    def relabel(self) -> None:
        self.select_button.description = t("sheet")
        self.remove_button.description = t("remove")

    def close(self) -> None:
        for part in (self.html, self.select_button, self.remove_button):
            part.close()
        super().close()


class InitiativeTracker(widgets.VBox):
    """The order (current actor highlighted), round, side and phase, the action budget,
    markers and badges, with Next / Previous / Undo / Redo / Roll initiative / Start.

    ``InitiativeTracker(encounter, seed=7)`` rolls with ``SeededDice(7)`` (or pass ``dice``);
    values typed in the dice field (``"7, 4, 9"``) are used instead, as physical dice.
    """

    selected = Unicode(
        "", help="id of the selected combatant, whose sheet the dashboard shows ('' for none)"
    )
    message = Unicode("", help="the last refusal or note shown in the message area")

    def __init__(
        self,
        encounter: Encounter,
        *,
        seed: int | str | None = None,
        dice: DiceSource | None = None,
        with_style: bool = True,
        **kwargs: Any,
    ) -> None:
        """``with_style``: carry gmkit's CSS (off where the page has it already)."""
        self.encounter = encounter
        self.dice: DiceSource = dice if dice is not None else SeededDice(seed)
        self._structure = turn_structure(encounter.game)
        self._rows: dict[str, TrackerRow] = {}
        self._side_classes: dict[str, str] = {}
        self._scope = f"gmkit-t{next(_TRACKERS)}"
        self._highlighted: frozenset[str] = frozenset()
        self._marked: str | None = None
        self._shared: dict[str, widgets.Widget] = {
            "row_layout": widgets.Layout(width="100%", align_items="center"),
            "html_layout": widgets.Layout(flex="1 1 auto"),
            "html_style": HTMLStyle(),
            "button_layout": widgets.Layout(width="auto", min_width="5em"),
            "button_style": widgets.ButtonStyle(),
        }
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
        tools: list[widgets.Widget] = [
            self.previous_button,
            self.next_button,
            self.undo_button,
            self.redo_button,
        ]
        if self._structure.kind == "initiative":
            tools += [self.roll_button, self.dice_values]
        tools.append(self.start_button)
        self.toolbar = looks.make(widgets.HBox, children=tools, layout={"flex_flow": "row wrap"})
        self.reminder_area = looks.make(widgets.HTML)
        self.message_area = looks.make(widgets.HTML)
        self.highlight = looks.make(widgets.HTML, layout={"display": "none"})
        self.rows_box = looks.make(widgets.VBox, layout={"max_height": "65vh", "overflow": "auto"})
        super().__init__(
            children=[
                *([style_widget()] if with_style else []),
                self.highlight,
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
        self.add_class(self._scope)
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
        self._run(self.encounter.undo)

    def redo(self) -> None:
        self._run(self.encounter.redo)

    def roll_initiative(self, values: str | None = None) -> dict[str, int] | None:
        """Roll initiative for everyone present: with ``values`` (``"7, 4, 9"``, physical
        dice in the order rolled), else the dice field's values, else the tracker's dice.
        Returns the scores by id, or None if refused."""
        source = self._source(values)
        return self._run(lambda: self.encounter.roll_initiative(source), source, values)

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
        """Take a combatant (id or name) out of the fight (its row's remove button)."""
        self._run(lambda: self.encounter.remove(self.encounter.combatant(ident).id))

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
        if self._unsubscribe is None:
            return  # closed already
        self._unsubscribe()
        self._unsubscribe = None
        LANGUAGE.unobserve(self._on_language, names="value")
        for row in self._rows.values():
            row.close()
        for part in (*self.children, *self.toolbar.children, *self._shared.values()):
            part.close()
        self._looks.close()
        super().close()

    # --- commands --------------------------------------------------------------------------

    def _button(self, action: Callable[[], object]) -> widgets.Button:
        button = self._looks.make(widgets.Button)
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
            self._say(str(error), error=True)
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

    @observe("selected")
    def _on_selected(self, _change: object) -> None:
        self._render_highlight(self.encounter.state)

    def _relabel(self) -> None:
        self.previous_button.description = t("previous_turn")
        self.next_button.description = t("next_turn")
        self.undo_button.description = t("undo")
        self.redo_button.description = t("redo")
        self.roll_button.description = t("roll_initiative")
        self.start_button.description = t("start")
        self.dice_values.description = t("physical_dice")

    def _render(self) -> None:
        """What changed, most wanted first: the header (whose turn), the highlight, the rows'
        text and order, then the marks (each a message of its own to the page)."""
        state = self.encounter.state
        ordered = self._ordered(state)
        shown = [self._rows.get(c.id) or self._new_row(c) for c in ordered]
        self._highlighted = frozenset(self._acting(state))
        self._render_header(state)
        self._render_highlight(state)
        triggers: dict[str, list[Trigger]] = {}
        for trigger in state.triggers:
            triggers.setdefault(trigger.owner, []).append(trigger)
        for row, combatant in zip(shown, ordered, strict=True):
            row.show(self._row_html(state, combatant, triggers))
        if tuple(shown) != tuple(self.rows_box.children):
            self.rows_box.children = tuple(shown)
        self._mark(state)
        self.undo_button.disabled = not self.encounter.can_undo
        self.redo_button.disabled = not self.encounter.can_redo
        self.start_button.disabled = state.started
        self.next_button.disabled = not state.started
        self.previous_button.disabled = not state.started

    def _new_row(self, combatant: Combatant) -> TrackerRow:
        side_class = self._side_classes.setdefault(
            combatant.side, f"gmkit-s{len(self._side_classes) + 1}"
        )
        row = TrackerRow(
            combatant.id,
            css_class=f"gmkit-r{len(self._rows) + 1}",
            side_class=side_class,
            shared=self._shared,
            on_select=self.select,
            on_remove=self.remove,
        )
        self._rows[combatant.id] = row
        return row

    def _mark(self, state: EncounterState) -> None:
        """Move the ``gmkit-current`` class to the current actor's row (initiative games)."""
        current = state.current.id if state.current is not None else None
        if current == self._marked:
            return
        for ident, flag in ((self._marked, False), (current, True)):
            if ident in self._rows:
                self._rows[ident].mark(flag)
        self._marked = current

    def _render_highlight(self, state: EncounterState) -> None:
        """One style for who acts now (a side's class in the sides games) and the selected."""
        if state.current_side is not None and state.current_side in self._side_classes:
            current = [self._side_classes[state.current_side]]
        else:
            current = [self._rows[i].css_class for i in self._highlighted if i in self._rows]
        picked = self._rows.get(self.selected)
        selected = [picked.css_class] if picked is not None else []
        css = highlight_css(self._scope, sorted(current), selected)
        if self.highlight.value != css:
            self.highlight.value = css

    def _ordered(self, state: EncounterState) -> list[Combatant]:
        """Present combatants: by the order once started (initiative), by score before; by
        side in turn order (sides games); the rest in the order they joined."""
        present = state.present
        if self._structure.kind == "sides":
            rank = {side: n for n, side in enumerate(state.sides)}
            return sorted(present, key=lambda c: rank.get(c.side, len(rank)))
        if state.started:
            placed = {ident: n for n, ident in enumerate(state.order)}
            return sorted(present, key=lambda c: placed.get(c.id, len(placed)))
        return sorted(present, key=lambda c: (c.initiative is None, -(c.initiative or 0)))

    def _acting(self, state: EncounterState) -> set[str]:
        """Who may act now: the current actor, or every member of the current side."""
        if state.current is not None:
            return {state.current.id}
        side = state.current_side
        if side is None:
            return set()
        return {c.id for c in state.present if c.side == side}

    def _row_html(
        self, state: EncounterState, combatant: Combatant, triggers: Mapping[str, list[Trigger]]
    ) -> str:
        """The row's text: it depends on the combatant alone (and the round, for surprise), not
        on whose turn it is, so a turn change leaves it as it was."""
        cells = []
        if self._structure.kind == "initiative":
            score = "–" if combatant.initiative is None else str(combatant.initiative)
            cells.append(_cell("gmkit-init", score, t("initiative")))
        cells.append(_cell("gmkit-name", html.escape(combatant.name)))
        cells.append(_cell("gmkit-side", html.escape(combatant.side)))
        left, total = health(combatant.sheet, combatant.counters)
        label = t("magnitude") if getattr(combatant.sheet, "horde", None) else t("wounds")
        wounds_css = "gmkit-wounds gmkit-down" if left <= 0 else "gmkit-wounds"
        cells.append(_cell(wounds_css, f"{html.escape(label)} {left}/{total}"))
        if state.started:
            actions = _pools(self._structure.turn_pools, combatant.spent)
            cells.append(_cell("gmkit-budget", f"{html.escape(t('actions_left'))} {actions}"))
            reactions = self._reactions(combatant)
            if reactions:
                spent = any(combatant.reactions.get(pool) for pool in self._structure.round_pools)
                css = "gmkit-reactions gmkit-spent" if spent else "gmkit-reactions"
                cells.append(_cell(css, reactions))
        badges = self._badges(state, combatant, triggers.get(combatant.id, ()))
        if badges:
            cells.append(_cell("gmkit-badges", badges))
        line = "gmkit-line gmkit-hidden" if combatant.hidden else "gmkit-line"
        return f"<div class='{line}'>{''.join(cells)}</div>"

    def _reactions(self, combatant: Combatant) -> str:
        """Reactions left this round ('' in games without reactions)."""
        if not self._structure.round_pools:
            return ""
        left = _pools(self._structure.round_pools, combatant.reactions)
        return f"{html.escape(t('reactions_left'))} {left}"

    def _badges(
        self, state: EncounterState, combatant: Combatant, triggers: Iterable[Trigger]
    ) -> str:
        badges = []
        if combatant.hidden:
            badges.append(_badge(t("hidden"), "gmkit-secret"))
        if combatant.surprised and state.round == 1:
            badges.append(_badge(t("surprised"), "gmkit-marker"))
        if combatant.delayed:
            badges.append(_badge(t("delayed"), "gmkit-marker"))
        if combatant.readied:
            badges.append(_badge(f"{t('readied')}: {combatant.readied}", "gmkit-marker"))
        for trigger in triggers:
            text = trigger.kind + (f": {trigger.detail}" if trigger.detail else "")
            if trigger.expires_round is not None:
                text += f" (≤ {t('round')} {trigger.expires_round})"
            badges.append(_badge(text, "gmkit-marker"))
        for name, condition in combatant.conditions.items():
            shown = words(condition_name(self.encounter.game, name))
            text = shown if condition.rounds is None else f"{shown} ({condition.rounds})"
            tip = words(condition.reminder) or condition.ticks.replace("_", " ")
            badges.append(_badge(text, "gmkit-condition", tip))
        return "".join(badges)

    def _render_header(self, state: EncounterState) -> None:
        round_text = str(state.round) if state.started else "–"
        parts = [f"{html.escape(t('round'))} <span class='gmkit-now'>{round_text}</span>"]
        current = state.current
        if current is not None:
            name = html.escape(current.name)
            parts.append(f"{html.escape(t('turn'))}: <span class='gmkit-now'>{name}</span>")
            actions = _pools(self._structure.turn_pools, current.spent)
            budget = [f"{html.escape(t('actions_left'))} {actions}", self._reactions(current)]
            shown = " · ".join(part for part in budget if part)
            parts.append(f"<span class='gmkit-budget'>{shown}</span>")
        if state.current_side is not None:
            side = html.escape(state.current_side)
            parts.append(f"{html.escape(t('side'))}: <span class='gmkit-now'>{side}</span>")
            if self._structure.phases:
                phase = html.escape(words(phase_name(self._structure.phases[state.phase])))
                parts.append(f"{html.escape(t('phase'))}: <span class='gmkit-now'>{phase}</span>")
        header = " · ".join(parts)
        if self.header.value != header:
            self.header.value = header
        reminders = ""
        if state.reminders:
            texts = state.reminder_texts(LANGUAGE.value)
            items = "".join(f"<li>{html.escape(text)}</li>" for text in texts)
            reminders = (
                f"<div class='gmkit-reminders'><b>{html.escape(t('reminders'))}</b>"
                f"<ul>{items}</ul></div>"
            )
        if self.reminder_area.value != reminders:
            self.reminder_area.value = reminders


_TRACKERS = itertools.count(1)  # a CSS scope per tracker, for its highlight style


def _cell(css: str, content: str, title: str = "") -> str:
    tip = f" title='{html.escape(title, quote=True)}'" if title else ""
    return f"<span class='gmkit-cell {css}'{tip}>{content}</span>"


def _badge(text: str, css: str, title: str = "") -> str:
    tip = f" title='{html.escape(title, quote=True)}'" if title else ""
    return f"<span class='gmkit-badge {css}'{tip}>{html.escape(text)}</span>"


def _pools(pools: Mapping[str, int], used: Mapping[str, int]) -> str:
    """``2/2`` for one pool; ``move 1/1, shoot 0/1`` for several."""
    if len(pools) == 1:
        ((pool, total),) = pools.items()
        return f"{total - used.get(pool, 0)}/{total}"
    return ", ".join(
        f"{html.escape(words(pool_name(pool)))} {total - used.get(pool, 0)}/{total}"
        for pool, total in pools.items()
    )
