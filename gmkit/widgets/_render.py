"""HTML for sheets and rosters: formatting only, from the sheet's own fields and derived(),
each field named in the GM's language (:func:`gmkit.sheets._labels.field_label`), and each value
of the rules' vocabulary (``sheets.value.*``: "unharmed", "leader", "right arm") too."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pandas as pd

from gmkit.messages import VERBATIM, Message, catalogs
from gmkit.sheets._labels import field_label
from gmkit.sheets.base import Sheet
from gmkit.widgets._i18n import LANGUAGE, named, t, words

_SKIP = {"game", "name", "side", "notes"}


def _cell(value: Any, game: str = "") -> str:
    if isinstance(value, bool):
        return words(Message("widgets.yes" if value else "widgets.no"))
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        shown = (f"{html.escape(_label(str(k), game))} {_cell(v, game)}" for k, v in value.items())
        return ", ".join(shown) or "-"
    if isinstance(value, list | tuple):
        if value and all(isinstance(item, Mapping) for item in value):
            return _table(value, game)
        return ", ".join(_cell(item, game) for item in value) or "-"
    if isinstance(value, str) and value:
        return html.escape(_value(value, game))
    return html.escape(str(value)) if value not in (None, "") else "-"


def _value(text: str, game: str = "") -> str:
    """A value of the rules' own vocabulary (a damage state, a fighter type, a hit location:
    ``sheets.value.<value>`` in the catalogs) in the GM's language; a name of the game's data
    (a weapon, a quality, a talent) as its data names it in that language; any other text (a
    character's name, a value the GM typed) as it is."""
    return _kept("value", game, text, _make_value)


def _make_value(text: str, game: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    message_id = f"sheets.value.{'v' if slug[:1].isdigit() else ''}{slug}"
    if not slug or catalogs().english(message_id) is None:
        return named(game, text) if game else text
    return words(Message(message_id))


def _table(rows: Iterable[Mapping[str, Any]], game: str = "") -> str:
    frame = pd.DataFrame(
        [{_label(k, game): _cell(v, game) for k, v in row.items()} for row in rows]
    ).fillna("-")
    return frame.to_html(index=False, escape=False, classes="gmkit-table", border=0)


_WORDS: dict[tuple[str, str, str, str], str] = {}  # (kind, game, text, language) -> words
_WORDS_FROM: list[object] = [None]  # the catalogs they were read from
_WORDS_MOST = 4096  # kept at most; past it the cache starts again


def _kept(kind: str, game: str, text: str, make: Callable[[str, str], str]) -> str:
    """``make(text, game)``, made once per language while the catalogs are the same (a card
    drawn again after every event shows the same labels)."""
    if _WORDS_FROM[0] is not catalogs():
        _WORDS.clear()
        _WORDS_FROM[0] = catalogs()
    key = (kind, game, text, LANGUAGE.value)
    found = _WORDS.get(key)
    if found is None:
        if len(_WORDS) >= _WORDS_MOST:
            _WORDS.clear()
        found = _WORDS[key] = make(text, game)
    return found


def _label(key: str, game: str = "") -> str:
    """A field's label, or a key that is a name of the game's data (a weapon's, in a sheet's
    strength per weapon), in the GM's language."""
    if not game:
        return key.replace("_", " ")
    return _kept("label", game, key, _make_label)


def _make_label(key: str, game: str) -> str:
    found = field_label(game, key)
    return named(game, key) if found.id == VERBATIM else words(found)


def _row(game: str, key: str, value: Any) -> str:
    """A labelled value as a table row, made once per value and language (a card drawn again
    after an event that changed one field makes one row)."""
    return _kept("row", game, json.dumps([key, value], default=str), _make_row)


def _make_row(shown: str, game: str) -> str:
    key, value = json.loads(shown)
    return f"<tr><th>{html.escape(_label(key, game))}</th><td>{_cell(value, game)}</td></tr>"


def field_rows(game: str, values: Mapping[str, Any]) -> str:
    """Table rows of a sheet's values (its derived ones...), each labelled and shown in the
    GM's language."""
    return "".join([_row(game, key, value) for key, value in values.items()])


def sheet_html(sheet: Sheet, *, show_gm: bool = True) -> str:
    """The sheet as an HTML card: identity, typed fields, then what the rules derive."""
    data = sheet.model_dump(mode="json") if show_gm else sheet.public_view()
    rows = "".join([_row(sheet.game, k, v) for k, v in data.items() if k not in _SKIP])
    derived = field_rows(sheet.game, sheet.derived())
    notes = ""
    if show_gm and sheet.notes:
        gm = html.escape(t("gm"))
        notes = f"<p class='gmkit-gm-note'><b>{gm}:</b> {html.escape(sheet.notes)}</p>"
    side = f" <span class='gmkit-side'>({html.escape(sheet.side)})</span>" if sheet.side else ""
    return (
        f"<div class='gmkit-sheet'><h3>{html.escape(sheet.name)}{side}</h3>"
        f"<table class='gmkit-fields'>{rows}</table>"
        f"<h4>{html.escape(t('derived'))}</h4><table class='gmkit-derived'>{derived}</table>"
        f"{notes}</div>"
    )


def roster_summary_html(sheets: Iterable[Sheet]) -> str:
    """One line per character: name, side and the game's roster line (``summary()``)."""
    listed = list(sheets)
    rows = [{"name": s.name, "side": s.side, **s.summary()} for s in listed]
    game = listed[0].game if listed else ""
    return _table(rows, game) if rows else f"<p>{html.escape(t('nobody'))}</p>"


STYLE = """
<style>
.gmkit-table { border-collapse: collapse; font-size: 0.95em; }
.gmkit-table th, .gmkit-table td { padding: 2px 8px; text-align: left; }
.gmkit-fields th, .gmkit-derived th { text-align: left; padding-right: 1em; vertical-align: top; }
.gmkit-gm-note { border-left: 3px solid #b58900; padding-left: 0.5em; }
.lm-TabBar-tab { flex: 0 0 auto !important; max-width: none !important; }
.gmkit-choices { flex-wrap: wrap; column-gap: 12px; }  /* a notebook's column: the choices wrap */
</style>
"""
"""CSS for gmkit's HTML; the dashboards display it once."""
