"""The combat log: every effective event of an encounter, newest first, filterable, to CSV.

A view of the encounter's log (``encounter.log_frame()``): one row per event (round, whose
turn, kind, actor, target, rolls, dice, outcome, visibility). Filter by round, actor and kind
with the dropdowns; rows whose dice were physical (typed by the GM) are marked. ``frame()`` is
the log with the filters applied, newest first; ``export_csv(path)`` writes it, as does the
export button, into the folder field.

Each row is one or two lines in a column 440 px wide (round, actor, what happened, the dice;
every die and the whole line on hover: :mod:`gmkit.widgets._combat_log_rows`); the turns passing
in a round fold into one line ("Turns: A, B and C") unless the "Every turn" toggle
(``show_turn_events``) or the kind filter "turn" asks for each.

The table shows one page of ``page_rows`` rows (the newest 50 by default); once there are more,
"Older" and "Newer" (``show_page``) page through them. It follows the encounter cheaply: a
row is worked out once per event (the rows of events already shown are kept; an undo drops
the last), and the table, the filters' options and the pager are sent to the page only when
what they show changed.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pandas as pd
from traitlets import Bool

from gmkit.encounter import Encounter, combat_log
from gmkit.encounter._views import event_text
from gmkit.widgets._combat_log_rows import COLUMNS, STYLE, TURN_KINDS, cell, folded, heads, row_html
from gmkit.widgets._i18n import LANGUAGE, t
from gmkit.widgets._style import THEME_CLASS, style_widget
from gmkit.widgets._tracker import Shared

__all__ = ["ALL", "SHOWN_ROWS", "CombatLog"]

ALL = ""
"""A filter dropdown's value for "All" (None would read as no selection, shown blank)."""

SHOWN_ROWS = 50
"""Rows drawn in the table, a page (the newest first); ``frame()`` and the CSV keep every row."""

_COLUMNS = COLUMNS


def _text(key: str) -> str:
    return t(f"log.{key}")


@dataclass(frozen=True)
class _Row:
    """One event's row, and what it was worked out from (kept while those are unchanged)."""

    event: Mapping[str, Any]
    after: Any  # the state after the event
    record: dict[str, Any]
    html: str


class CombatLog(widgets.VBox):
    """Round / actor / kind dropdowns, the log as an HTML table (a page of it), CSV export.

    ``CombatLog(encounter, folder="exports")``: the export button writes
    ``<folder>/<encounter name>-log.csv``. ``page_rows``: rows per page of the table.
    """

    show_turns = Bool(
        False, help="each turn passing on its own row (False: a round's turns share one line)"
    )

    def __init__(
        self,
        encounter: Encounter,
        *,
        folder: str | Path = ".",
        page_rows: int = SHOWN_ROWS,
        with_style: bool = True,
        **kwargs: Any,
    ) -> None:
        self.encounter = encounter
        self.page_rows = max(1, int(page_rows))
        self.page = 0  # 0: the newest rows
        self._rows: list[_Row] = []
        self._options: dict[str, list[Any]] = {}
        self._quiet = False  # True while the dropdowns' options are being replaced
        shared = self._shared = Shared()
        initial = {"description_width": "initial"}
        self.round_filter = shared.make(widgets.Dropdown, layout={"width": "8em"}, style=initial)
        self.actor_filter = shared.make(widgets.Dropdown, layout={"width": "13em"}, style=initial)
        self.kind_filter = shared.make(widgets.Dropdown, layout={"width": "10em"}, style=initial)
        for dropdown in self._dropdowns().values():
            dropdown.observe(self._on_filter, names="value")
        self.turns_toggle = shared.make(widgets.ToggleButton, layout={"width": "auto"})
        self.turns_toggle.observe(
            lambda change: self.show_turn_events(bool(change["new"])), names="value"
        )
        self.folder = shared.make(
            widgets.Text, value=str(folder), layout={"width": "12em"}, style=initial
        )
        self.export_button = shared.make(widgets.Button)
        self.export_button.on_click(lambda _button: self.export())
        self.message_area = shared.make(widgets.HTML)
        self.table = shared.make(widgets.HTML)
        self.table.add_class("gmkit-log")
        self.pager: widgets.HBox | None = None  # built once there is more than a page
        self.filters = shared.make(
            widgets.HBox,
            children=[
                *self._dropdowns().values(),
                self.turns_toggle,
                self.folder,
                self.export_button,
            ],
            layout={"flex_flow": "row wrap", "align_items": "center"},
        )
        style = [style_widget()] if with_style else []
        # The table's rules, sent once: a <style> inside the table's value would be sent and
        # parsed again, restyling the whole page, at every log update.
        table_style = shared.make(widgets.HTML, value=STYLE, layout={"display": "none"})
        super().__init__(
            children=[*style, table_style, self.filters, self.message_area, self.table], **kwargs
        )
        self.add_class(THEME_CLASS)
        self._relabel()
        self._unsubscribe: Callable[[], None] | None = encounter.subscribe(self._on_change)
        LANGUAGE.observe(self._on_language, names="value")
        self._read()
        self._render()

    # --- the user's actions -------------------------------------------------------------

    def frame(self) -> pd.DataFrame:
        """The log with the filters applied, newest first."""
        log = self.encounter.log_frame()
        for name, dropdown in self._dropdowns().items():
            chosen = dropdown.value
            if chosen in (ALL, None):
                continue
            if name == "actor":  # an event of several actors lists them: "A, B"
                log = log[log[name].map(lambda actors, who=chosen: _lists(actors, who))]
            else:
                log = log[log[name] == chosen]
        return log.iloc[::-1].reset_index(drop=True)

    def export_csv(self, path: str | Path) -> Path:
        """Write :meth:`frame` to ``path`` as CSV; returns the path."""
        target = Path(path)
        self.frame().to_csv(target, index=False)
        return target

    def export(self) -> Path | None:
        """What the export button does: write into the folder field's folder (created if
        need be) as ``<encounter name>-log.csv``; the path or the failure is shown."""
        name = re.sub(r"[^\w.-]+", "-", self.encounter.name).strip("-") or "encounter"
        target = Path(self.folder.value or ".") / f"{name}-log.csv"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            self.export_csv(target)
        except OSError as error:
            self._say(f"{t('export_csv')}: {error}", error=True)
            return None
        self._say(f"{t('export_csv')}: {target}")
        return target

    def show_turn_events(self, on: bool = True) -> None:
        """Each turn passing on its own row (``on``), or a round's turns as one line: what
        the "Every turn" toggle does."""
        self.show_turns = bool(on)
        if self.turns_toggle.value != self.show_turns:
            self.turns_toggle.value = self.show_turns
        self.page = 0
        self._render_table()

    def show_page(self, page: int) -> None:
        """Show page ``page`` of the table (0: the newest rows; clamped to the pages there
        are): what the Older and Newer buttons do."""
        self.page = max(0, int(page))
        self._render_table()

    @property
    def pages(self) -> int:
        """How many pages the filtered log makes (at least one)."""
        return max(1, -(-len(self._shown()) // self.page_rows))

    def close(self) -> None:
        if self._unsubscribe is None:
            return  # closed already
        self._unsubscribe()
        self._unsubscribe = None
        LANGUAGE.unobserve(self._on_language, names="value")
        for part in (*self.filters.children, *self.children):
            part.close()
        if self.pager is not None:
            for part in self.pager.children:
                part.close()
        self._shared.close()
        super().close()

    # --- helpers --------------------------------------------------------------------------

    def _dropdowns(self) -> dict[str, widgets.Dropdown]:
        return {"round": self.round_filter, "actor": self.actor_filter, "kind": self.kind_filter}

    def _say(self, text: str, *, error: bool = False) -> None:
        css = "gmkit-error" if error else "gmkit-message"
        shown = f"<div class='{css}'>{html.escape(text)}</div>" if text else ""
        if self.message_area.value != shown:
            self.message_area.value = shown

    def _on_change(self, _encounter: object) -> None:
        if self._read():
            self._render()

    def _on_filter(self, _change: object) -> None:
        if not self._quiet:
            self.page = 0
            self._render_table()

    def _on_language(self, _change: object) -> None:
        self._relabel()
        self._rows.clear()  # the outcomes are words: made again in the new language
        self._read()
        self._render()

    def _relabel(self) -> None:
        self.round_filter.description = t("round")
        self.actor_filter.description = t("actor")
        self.kind_filter.description = t("kind")
        self.folder.description = t("folder")
        self.export_button.description = t("export_csv")
        self.turns_toggle.description = _text("show_turns")
        self.turns_toggle.tooltip = _text("show_turns_help")
        if self.pager is not None:
            newer, older, _ = self.pager.children
            older.description, newer.description = _text("older"), _text("newer")

    def _read(self) -> bool:
        """Bring the rows up to the encounter's effective events; True if any changed.

        ``states[k]`` is the state after the first ``k`` events (what ``log_frame`` reads):
        the rows whose event and state are the same objects as when they were made are kept
        (the log only grows, or loses its last events to an undo), the others made again."""
        events = self.encounter.effective_events
        states = self.encounter.states  # the states log_frame reads
        kept = min(len(self._rows), len(events))
        while kept and not (
            self._rows[kept - 1].event is events[kept - 1]
            and self._rows[kept - 1].after is states[kept]
        ):
            kept -= 1
        if kept == len(self._rows) == len(events):
            return False
        del self._rows[kept:]
        if len(events) > kept:
            frame = combat_log(tuple(events[kept:]), list(states[kept:]), language=LANGUAGE.value)
            records: list[dict[str, Any]] = frame.to_dict("records")  # type: ignore[assignment]
            for offset, record in enumerate(records):
                record["event"] = kept + offset + 1  # numbered from the log's first event
                number = kept + offset
                before, after = states[number], states[number + 1]
                said = event_text(events[number], LANGUAGE.value, before=before, after=after)
                record["said"] = record["outcome"] or said  # what happened, in a line
                now = after.current.name if after.current else (after.current_side or "")
                record["to"], record["to_round"] = now, after.round  # the turn after it
                shown = row_html(record, t)
                self._rows.append(_Row(events[number], states[number + 1], record, shown))
        return True

    def _render(self) -> None:
        """New options for the dropdowns (the current choice kept when it still exists),
        then the table."""
        self._quiet = True
        try:
            for name, dropdown in self._dropdowns().items():
                values: list[Any] = list(dict.fromkeys(row.record[name] for row in self._rows))
                if name == "round":
                    values = sorted(int(v) for v in values)
                elif name == "actor":
                    values = self._actors(values)
                else:
                    values = sorted(str(v) for v in values if v)
                options = ((t("all"), ALL), *((_cell(name, v), v) for v in values))
                chosen = dropdown.value if dropdown.value in values else ALL
                if tuple(dropdown.options) != options:
                    with dropdown.hold_sync():  # options and choice: one message
                        dropdown.options = options
                        dropdown.value = chosen
                elif dropdown.value != chosen:
                    dropdown.value = chosen
        finally:
            self._quiet = False
        self._render_table()

    def _actors(self, shown: list[Any]) -> list[str]:
        """Each actor once: a cell listing several ("A, B") counts for each combatant named."""
        known = {c.name for c in self.encounter.state.combatants.values()}
        actors: set[str] = set()
        for value in (str(v) for v in shown if v):
            named = {value} if value in known else {n for n in known if _lists(value, n)}
            actors |= named or {value}
        return sorted(actors)

    def _shown(self) -> list[_Row | dict[str, Any]]:
        """The rows the filters keep, newest first, a round's turns folded into one (a
        record) unless every turn is asked for (the toggle, or the kind filter "turn")."""
        chosen = {name: box.value for name, box in self._dropdowns().items()}
        rows: Iterable[_Row] = reversed(self._rows)
        for name, value in chosen.items():
            if value in (ALL, None):
                continue
            if name == "actor":
                rows = [r for r in rows if _lists(str(r.record["actor"]), value)]
            else:
                rows = [r for r in rows if r.record[name] == value]
        if self.show_turns or chosen["kind"] in TURN_KINDS:
            return list(rows)
        return folded(list(rows), lambda row: row.record, LANGUAGE.value)

    def _render_table(self) -> None:
        shown = self._shown()
        pages = max(1, -(-len(shown) // self.page_rows))
        self.page = min(self.page, pages - 1)
        first = self.page * self.page_rows
        page = shown[first : first + self.page_rows]
        body = "".join(
            row.html if isinstance(row, _Row) else row_html(row, t, ("gmkit-folded",))
            for row in page
        )
        table = f"<table><thead><tr>{heads(t)}</tr></thead><tbody>{body}</tbody></table>"
        if self.table.value != table:
            self.table.value = table
        self._render_pager(first, len(page), len(shown), pages)

    def _render_pager(self, first: int, count: int, total: int, pages: int) -> None:
        """Older / Newer and "rows 51–100 of 312", once the log is longer than a page."""
        if pages == 1 and self.pager is None:
            return
        if self.pager is None:
            older = self._shared.make(widgets.Button)
            newer = self._shared.make(widgets.Button)
            older.on_click(lambda _button: self.show_page(self.page + 1))
            newer.on_click(lambda _button: self.show_page(self.page - 1))
            where = self._shared.make(widgets.HTML)
            self.pager = widgets.HBox([newer, older, where])  # its own layout: hidden at times
            shown: tuple[widgets.Widget, ...] = tuple(self.children)  # type: ignore[has-type]
            self.children = (*shown, self.pager)
            self._relabel()
        newer, older, where = self.pager.children
        _assign(older, disabled=self.page >= pages - 1)
        _assign(newer, disabled=self.page == 0)
        span = f"{first + 1}–{first + count}" if count else "0"
        _assign(where, value=f"{span} {html.escape(_text('of'))} {total}")
        _assign(self.pager.layout, display="" if pages > 1 else "none")


def _assign(widget: widgets.Widget, **values: Any) -> None:
    """Assign only the traits whose value differs: an equal value sends nothing."""
    for name, value in values.items():
        if getattr(widget, name) != value:
            setattr(widget, name, value)


def _lists(actors: str, name: str) -> bool:
    """Whether the actor cell ``actors`` ("A" or "A, B, C") names ``name``."""
    return (
        actors == name
        or actors.startswith(f"{name}, ")
        or actors.endswith(f", {name}")
        or f", {name}, " in actors
    )


def _cell(column: str, value: Any) -> str:
    """A cell as the GM reads it: a kind, dice or visibility key in words."""
    return cell(column, value, t)
