"""HTML for sheets and rosters: formatting only, from the sheet's own fields and derived()."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from gmkit.sheets.base import Sheet

_SKIP = {"game", "name", "side", "notes"}


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        return ", ".join(f"{html.escape(str(k))} {_cell(v)}" for k, v in value.items()) or "-"
    if isinstance(value, list | tuple):
        if value and all(isinstance(item, Mapping) for item in value):
            return _table(value)
        return ", ".join(_cell(item) for item in value) or "-"
    return html.escape(str(value)) if value not in (None, "") else "-"


def _table(rows: Iterable[Mapping[str, Any]]) -> str:
    frame = pd.DataFrame([{k: _cell(v) for k, v in row.items()} for row in rows]).fillna("-")
    return frame.to_html(index=False, escape=False, classes="gmkit-table", border=0)


def _label(key: str) -> str:
    return key.replace("_", " ")


def sheet_html(sheet: Sheet, *, show_gm: bool = True) -> str:
    """The sheet as an HTML card: identity, typed fields, then what the rules derive."""
    data = sheet.model_dump(mode="json") if show_gm else sheet.public_view()
    rows = "".join(
        f"<tr><th>{html.escape(_label(key))}</th><td>{_cell(value)}</td></tr>"
        for key, value in data.items()
        if key not in _SKIP
    )
    derived = "".join(
        f"<tr><th>{html.escape(_label(key))}</th><td>{_cell(value)}</td></tr>"
        for key, value in sheet.derived().items()
    )
    notes = ""
    if show_gm and sheet.notes:
        notes = f"<p class='gmkit-gm-note'><b>GM:</b> {html.escape(sheet.notes)}</p>"
    side = f" <span class='gmkit-side'>({html.escape(sheet.side)})</span>" if sheet.side else ""
    return (
        f"<div class='gmkit-sheet'><h3>{html.escape(sheet.name)}{side}</h3>"
        f"<table class='gmkit-fields'>{rows}</table>"
        f"<h4>Derived</h4><table class='gmkit-derived'>{derived}</table>{notes}</div>"
    )


def roster_summary_html(sheets: Iterable[Sheet]) -> str:
    """One line per character: name, side and the game's roster line (``summary()``)."""
    rows = [{"name": s.name, "side": s.side, **s.summary()} for s in sheets]
    return _table(rows) if rows else "<p>(nobody)</p>"


STYLE = """
<style>
.gmkit-table { border-collapse: collapse; font-size: 0.95em; }
.gmkit-table th, .gmkit-table td { padding: 2px 8px; text-align: left; }
.gmkit-fields th, .gmkit-derived th { text-align: left; padding-right: 1em; vertical-align: top; }
.gmkit-gm-note { border-left: 3px solid #b58900; padding-left: 0.5em; }
.lm-TabBar-tab { flex: 0 0 auto !important; max-width: none !important; }
</style>
"""
"""CSS for gmkit's HTML; the dashboards display it once."""
