"""The combat log: every effective event of an encounter, newest first, filterable, to CSV.

A view of ``encounter.log_frame()``: one row per event (round, whose turn, kind, actor, target,
rolls, dice, outcome, visibility). Filter by round, actor and kind with the dropdowns; rows
whose dice were physical (typed by the GM) are marked. ``frame()`` is what is shown (the filters
applied, newest first); ``export_csv(path)`` writes it, as does the export button, into the
folder field. It follows the encounter: every change re-reads the log.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pandas as pd

from gmkit.encounter import Encounter
from gmkit.widgets.i18n import LANGUAGE, t
from gmkit.widgets.style import THEME_CLASS, style_widget

__all__ = ["ALL", "CombatLog"]

ALL = ""
"""A filter dropdown's value for "All" (None would read as no selection, shown blank)."""

SHOWN_ROWS = 300
"""Rows drawn in the table (the newest); ``frame()`` and the CSV keep every row."""

_COLUMNS = (  # the frame's columns; each heading is the label of the same key
    "event",
    "round",
    "turn",
    "kind",
    "actor",
    "target",
    "rolls",
    "dice",
    "outcome",
    "visibility",
)


class CombatLog(widgets.VBox):
    """Round / actor / kind dropdowns, the log as an HTML table, and CSV export.

    ``CombatLog(encounter, folder="exports")``: the export button writes
    ``<folder>/<encounter name>-log.csv``.
    """

    def __init__(self, encounter: Encounter, *, folder: str | Path = ".", **kwargs: Any) -> None:
        self.encounter = encounter
        self._log = encounter.log_frame()
        self._quiet = False  # True while the dropdowns' options are being replaced
        self.round_filter = widgets.Dropdown(layout=widgets.Layout(width="12em"))
        self.actor_filter = widgets.Dropdown(layout=widgets.Layout(width="20em"))
        self.kind_filter = widgets.Dropdown(layout=widgets.Layout(width="16em"))
        for dropdown in self._dropdowns().values():
            dropdown.style.description_width = "initial"
            dropdown.observe(self._on_filter, names="value")
        self.folder = widgets.Text(value=str(folder), layout=widgets.Layout(width="20em"))
        self.folder.style.description_width = "initial"
        self.export_button = widgets.Button()
        self.export_button.on_click(lambda _button: self.export())
        self.message_area = widgets.HTML()
        self.table = widgets.HTML()
        self.table.add_class("gmkit-log")
        self.filters = widgets.HBox(
            [*self._dropdowns().values(), self.folder, self.export_button],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        super().__init__(
            children=[style_widget(), self.filters, self.message_area, self.table], **kwargs
        )
        self.add_class(THEME_CLASS)
        self._relabel()
        self._unsubscribe: Callable[[], None] | None = encounter.subscribe(self._on_change)
        LANGUAGE.observe(self._on_language, names="value")
        self._render()

    # --- the user's actions -------------------------------------------------------------

    def frame(self) -> pd.DataFrame:
        """The log as shown: the filters applied, newest first."""
        log = self._log
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

    def close(self) -> None:
        if self._unsubscribe is None:
            return  # closed already
        self._unsubscribe()
        self._unsubscribe = None
        LANGUAGE.unobserve(self._on_language, names="value")
        for part in (*self.filters.children, *self.children):
            part.close()
        super().close()

    # --- helpers --------------------------------------------------------------------------

    def _dropdowns(self) -> dict[str, widgets.Dropdown]:
        return {"round": self.round_filter, "actor": self.actor_filter, "kind": self.kind_filter}

    def _say(self, text: str, *, error: bool = False) -> None:
        css = "gmkit-error" if error else "gmkit-message"
        self.message_area.value = f"<div class='{css}'>{html.escape(text)}</div>" if text else ""

    def _on_change(self, _encounter: object) -> None:
        self._log = self.encounter.log_frame()
        self._render()

    def _on_filter(self, _change: object) -> None:
        if not self._quiet:
            self._render_table()

    def _on_language(self, _change: object) -> None:
        self._relabel()
        self._render()

    def _relabel(self) -> None:
        self.round_filter.description = t("round")
        self.actor_filter.description = t("actor")
        self.kind_filter.description = t("kind")
        self.folder.description = t("folder")
        self.export_button.description = t("export_csv")

    def _render(self) -> None:
        """New options for the dropdowns (the current choice kept when it still exists),
        then the table."""
        self._quiet = True
        try:
            for name, dropdown in self._dropdowns().items():
                values: list[Any] = self._log[name].drop_duplicates().tolist()
                if name == "round":
                    values = sorted(int(v) for v in values)
                elif name == "actor":
                    values = self._actors(values)
                else:
                    values = sorted(str(v) for v in values if v)
                options = [(t("all"), ALL), *((str(v), v) for v in values)]
                chosen = dropdown.value
                if list(dropdown.options) != options:
                    dropdown.options = options
                dropdown.value = chosen if chosen in values else ALL
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

    def _render_table(self) -> None:
        shown = self.frame().head(SHOWN_ROWS)
        heads = "".join(f"<th>{html.escape(t(column))}</th>" for column in _COLUMNS)
        rows = [_row(record) for record in shown.to_dict("records")]
        self.table.value = (
            f"<table><thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )


def _lists(actors: str, name: str) -> bool:
    """Whether the actor cell ``actors`` ("A" or "A, B, C") names ``name``."""
    return (
        actors == name
        or actors.startswith(f"{name}, ")
        or actors.endswith(f", {name}")
        or f", {name}, " in actors
    )


def _row(record: Mapping[str, Any]) -> str:
    classes = []
    if record["dice"] in ("physical", "mixed"):
        classes.append("gmkit-physical")
    if record["visibility"] != "public":
        classes.append("gmkit-gm")
    cells = []
    for column in _COLUMNS:
        value = html.escape(str(record[column]))
        if column == "rolls":  # a physical die is written d10=7*: shown bold
            value = re.sub(r"(d\d+=\d+)\*", r"<b>\1*</b>", value)
        cells.append(f"<td class='gmkit-{column}'>{value}</td>")
    css = f" class='{' '.join(classes)}'" if classes else ""
    return f"<tr{css}>{''.join(cells)}</tr>"
