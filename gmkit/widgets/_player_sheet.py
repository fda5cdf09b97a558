"""A friend's sheet on the players' page, folded under the row (:mod:`gmkit.widgets._player`):
the profile and the kit the players know anyway, each line labelled in the page's language
(``widgets.sheet_<field>``). Only the fields below show, in this order, and only when set: the
sheet's bookkeeping (damage taken, fatigue, flags such as ``minion``) is the tracker's, and its
wounds are the row's."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from gmkit.sheets._labels import field_label
from gmkit.widgets._i18n import named, t, words

__all__ = ["SHOWN", "sheet_details"]

PROFILE = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
"""The profile of the d6 games' sheets (Necromunda, WFB), kept as fields of their own."""

SHOWN = (
    "characteristics",
    "profile",
    "secondary",
    "fate_total",
    "fortune",
    "armour",
    "weapons",
    "talents",
    "skills",
    "traits",
    "special_rules",
    "mount",
    "injuries",
)
"""The fields a friend's folded sheet shows (``profile``: the d6 games' M WS BS ... Ld)."""


def _named(item: Any, game: str, language: str) -> str:
    """An item (a weapon, a talent) by its name in ``language``, as its game's data names it."""
    name = str(item.get("name", "")) if isinstance(item, Mapping) else str(item)
    return named(game, name, language)


def _shown(value: Any, game: str, language: str) -> str:
    """A field's value as one line: a profile as "WS 41, BS 36" (in Spanish the Spanish books'
    abbreviations: "HA 41, HP 36"), a list by its names."""
    if isinstance(value, Mapping) and "name" in value:  # one item (Necromunda's armour)
        return _named(value, game, language)
    if isinstance(value, Mapping):
        return ", ".join(
            f"{words(field_label(game, str(key)), language)} {number}"
            for key, number in value.items()
        )
    if isinstance(value, list):
        listed = (_named(item, game, language) for item in value)
        return ", ".join(name for name in listed if name)
    return str(value)


def sheet_details(sheet: Mapping[str, Any], language: str) -> str:
    """The sheet folded in a ``<details>`` ("" when nothing of it shows)."""
    values = dict(sheet)
    if any(key in values for key in PROFILE):
        values["profile"] = {key: values[key] for key in PROFILE if key in values}
    parts = []
    for key in SHOWN:
        value = values.get(key)
        if value in (None, "", [], {}) or isinstance(value, bool):
            continue
        shown = _shown(value, str(values.get("game", "")), language)
        if shown:
            label = html.escape(t(f"sheet_{key}", language))
            parts.append(f"<b>{label}</b> {html.escape(shown)}")
    if not parts:
        return ""
    summary = html.escape(t("sheet", language))
    return f"<details><summary>{summary}</summary>{' · '.join(parts)}</details>"
