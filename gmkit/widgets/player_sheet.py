"""A friend's sheet on the players' page, folded under the row (:mod:`gmkit.widgets.player`):
the profile and the kit the players know anyway, each line labelled in the page's language
(``widgets.sheet_<field>``). Only the fields below show, in this order, and only when set: the
sheet's bookkeeping (damage taken, fatigue, flags such as ``minion``) is the tracker's, and its
wounds are the row's."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from gmkit.widgets.i18n import t

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


def _named(item: Any) -> str:
    return str(item.get("name", "")) if isinstance(item, Mapping) else str(item)


def _shown(value: Any) -> str:
    """A field's value as one line: a profile as "WS 41, BS 36", a list by its names."""
    if isinstance(value, Mapping) and "name" in value:  # one item (Necromunda's armour)
        return _named(value)
    if isinstance(value, Mapping):
        return ", ".join(f"{key} {number}" for key, number in value.items())
    if isinstance(value, list):
        return ", ".join(name for name in (_named(item) for item in value) if name)
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
        shown = _shown(value)
        if shown:
            label = html.escape(t(f"sheet_{key}", language))
            parts.append(f"<b>{label}</b> {html.escape(shown)}")
    if not parts:
        return ""
    summary = html.escape(t("sheet", language))
    return f"<details><summary>{summary}</summary>{' · '.join(parts)}</details>"
