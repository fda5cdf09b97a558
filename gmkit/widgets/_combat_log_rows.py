"""The combat log's rows as HTML: one or two lines each, in a column 440 px wide.

Formatting only (the words are the narration's and the catalogs'). A row shows the round, the
actor and what happened (the narration's line, two lines at most, the whole of it on hover),
the dice in one line (every die in its tooltip, the table's dice in bold); the event's number, the
turn, the kind, the target, the kind of dice and who may see it stay in the row (their cells
are hidden: the log's filters and its readers use them) and mark it (``gmkit-physical``,
``gmkit-gm``).

The turns passing within a round fold into one line ("Turns: Castor, Ilarion and Varek"):
:func:`folded` takes the rows newest first and gives them with each round's turn events as one
row, at the place of the round's newest turn.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gmkit.encounter._views import LOG_COLUMNS
from gmkit.messages import Message, render

__all__ = ["COLUMNS", "HIDDEN", "STYLE", "TURN_KINDS", "cell", "folded", "heads", "row_html"]

COLUMNS = LOG_COLUMNS  # the frame's columns; each heading is the label of the same key
HIDDEN = ("event", "turn", "kind", "target", "dice", "visibility")
"""Columns kept in each row but not shown (the outcome names the target; the row's marks say
the dice and who sees it)."""
TURN_KINDS = ("turn",)
"""The kinds of event folded into one line per round (a turn passing)."""
_WORDED = ("kind", "dice", "visibility")
"""The columns whose cells are keys the log shows in words (``widgets.log.<column>.<key>``)."""

STYLE = """<style>
.gmkit-log table { table-layout: fixed; width: 100%; max-width: 100%; }
.gmkit-log th, .gmkit-log td { padding: 1px 4px; line-height: 1.3; overflow: hidden; }
.gmkit-log .gmkit-event, .gmkit-log .gmkit-turn, .gmkit-log .gmkit-kind,
.gmkit-log .gmkit-target, .gmkit-log .gmkit-dice, .gmkit-log .gmkit-visibility {
  display: none; }
.gmkit-log .gmkit-round { width: 3.8em; text-align: right; font-variant-numeric: tabular-nums; }
.gmkit-log .gmkit-actor { width: 6em; white-space: nowrap; text-overflow: ellipsis; }
.gmkit-log .gmkit-rolls { width: 5em; white-space: nowrap; text-overflow: ellipsis;
  font-size: 0.8em; opacity: 0.85; }
.gmkit-log th.gmkit-round, .gmkit-log th.gmkit-actor, .gmkit-log th.gmkit-rolls,
.gmkit-log th.gmkit-outcome { white-space: nowrap; text-overflow: ellipsis; font-size: 0.8em; }
.gmkit-log td.gmkit-outcome > div { display: -webkit-box; -webkit-box-orient: vertical;
  -webkit-line-clamp: 2; overflow: hidden; }
.gmkit-log tr:hover td.gmkit-outcome > div { -webkit-line-clamp: unset; }
.gmkit-log tr:hover td.gmkit-actor { white-space: normal; }
.gmkit-log td.gmkit-rolls[title] { cursor: help; }
.gmkit-log tr.gmkit-folded td { opacity: 0.7; font-size: 0.9em; }
.gmkit-log tr.gmkit-gm td.gmkit-round { border-left: 3px dashed #8888; }
.gmkit-log tr.gmkit-physical td.gmkit-rolls { opacity: 1; }
</style>"""


def cell(column: str, value: Any, word: Callable[[str], str]) -> str:
    """A cell as the GM reads it: a kind, dice or visibility key in words (``word`` gives a
    label by key, the key itself when there is none)."""
    text = str(value)
    if column in _WORDED and text:
        worded = word(f"log.{column}.{text}")
        return text if worded == f"log.{column}.{text}" else worded
    return text


def heads(label: Callable[[str], str]) -> str:
    """The headings, each with its column's class (the table is laid out by its first row;
    a hidden column's heading is hidden with it)."""
    return "".join(
        f"<th class='gmkit-{column}'>{html.escape(label(column))}</th>" for column in COLUMNS
    )


def row_html(record: Mapping[str, Any], word: Callable[[str], str], css: Sequence[str] = ()) -> str:
    """One event's row (``css``: more classes for it)."""
    classes = list(css)
    if record["dice"] in ("physical", "mixed"):
        classes.append("gmkit-physical")
    if record["visibility"] != "public":
        classes.append("gmkit-gm")
    cells = []
    for column in COLUMNS:
        value = html.escape(cell(column, record[column], word))
        if column == "rolls":  # a physical die is written d10=7*: shown bold
            shown = re.sub(r"(d\d+=\d+)\*", r"<b>\1*</b>", value)
            title = f" title='{value}'" if value else ""
            cells.append(f"<td class='gmkit-rolls'{title}>{shown}</td>")
        elif column == "outcome":  # the event's own text, else the narration's line
            said = html.escape(str(record.get("said") or record[column]))
            cells.append(f"<td class='gmkit-outcome' title='{said}'><div>{said}</div></td>")
        elif column == "actor" and value:
            cells.append(f"<td class='gmkit-actor' title='{value}'>{value}</td>")
        else:
            cells.append(f"<td class='gmkit-{column}'>{value}</td>")
    marked = f" class='{' '.join(classes)}'" if classes else ""
    return f"<tr{marked}>{''.join(cells)}</tr>"


def folded(
    rows: Sequence[Any], record: Callable[[Any], Mapping[str, Any]], language: str
) -> list[Any]:
    """``rows`` (newest first) with each round's turn events as one: the newest of them, its
    line "Turns: A, B and C" (whose turns began, in order) and its rolls all the round's turn
    rolls. Returns the rows kept and, in place of the newest turn of a round, a dict record
    (the folded row's) for :func:`row_html`."""
    turns: dict[Any, list[Mapping[str, Any]]] = {}
    for row in rows:
        found = record(row)
        if found["kind"] in TURN_KINDS:
            turns.setdefault(_round(found), []).append(found)
    shown: list[Any] = []
    done: set[Any] = set()
    for row in rows:
        found = record(row)
        if found["kind"] not in TURN_KINDS:
            shown.append(row)
            continue
        if _round(found) in done:
            continue
        done.add(_round(found))
        shown.append(fold(turns[_round(found)], language))
    return shown


def _round(record: Mapping[str, Any]) -> Any:
    """The round a turn event belongs to: the one it passes into (the turn that begins round 2
    is round 2's, though the log counts it in round 1, the round before it)."""
    return record.get("to_round", record["round"])


def fold(turns: Sequence[Mapping[str, Any]], language: str) -> dict[str, Any]:
    """One record for a round's turn events (``turns`` newest first)."""
    newest, oldest_first = turns[0], list(reversed(turns))
    whose = (str(t.get("to") or t["actor"] or t["turn"]) for t in oldest_first)
    names = tuple(name for name in dict.fromkeys(whose) if name)
    text = (
        Message("widgets.log.turns_folded", names=names)
        if names
        else Message("widgets.log.turns_folded_count", count=len(turns))
    )
    rolls = " ".join(str(t["rolls"]) for t in oldest_first if t["rolls"])
    dice = {str(t["dice"]) for t in turns if t["dice"]}
    return {
        **newest,
        "round": _round(newest),
        "actor": "",
        "rolls": rolls,
        "dice": dice.pop() if len(dice) == 1 else ("mixed" if dice else ""),
        "outcome": "",
        "said": render(text, language),
        "visibility": "public" if all(t["visibility"] == "public" for t in turns) else "gm",
    }
