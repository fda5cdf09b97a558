"""The players' page as HTML, from a projection alone: the header (the round, whose turn) and
the combatants' table (:func:`player_html`). Its own module: the players' view
(:mod:`gmkit.widgets._player`) and their notebook (:mod:`gmkit.widgets._player_notebook`) both draw
it."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from gmkit.encounter._terms import band_name
from gmkit.messages import render
from gmkit.widgets._i18n import LANGUAGE, t
from gmkit.widgets._player_sheet import sheet_details


def _wounds_cell(wounds: str | None, language: str) -> str:
    if wounds is None:  # the GM keeps enemy wounds hidden
        return "–"
    down = wounds.startswith("0/") or wounds == render(band_name("down"), language)
    css = " class='gmkit-down'" if down else ""
    return f"<span{css}>{html.escape(wounds)}</span>"


def player_html(view: Mapping[str, Any], language: str | None = None) -> tuple[str, str]:
    """The header (the round, whose turn) and the combatants table, as HTML, from a projection
    alone (made in ``language``: default, the current one). A hidden combatant's turn is
    "An enemy acts". Each cell carries its column's label (a phone shows it on a card)."""
    language = language or LANGUAGE.value
    round_text = str(view["round"]) if view["round"] else "–"

    def part(label: str, value: str, css: str = "gmkit-now") -> str:
        return f"<span class='gmkit-player-part'>{label} <span class='{css}'>{value}</span></span>"

    parts = [part(html.escape(t("round", language)), round_text)]
    if view.get("current"):
        name = html.escape(str(view["current"]))
        parts.append(part(f"{html.escape(t('turn', language))}:", name))
    elif view.get("hidden_turn"):
        acts = html.escape(t("enemy_acts", language))
        parts.append(
            part(f"{html.escape(t('turn', language))}:", acts, "gmkit-now gmkit-enemy-acts")
        )
    elif view.get("current_side"):
        side = html.escape(str(view["current_side"]))
        parts.append(part(f"{html.escape(t('side', language))}:", side))
    separator = "<span class='gmkit-player-sep'> · </span>"  # hidden on a phone: one a line
    header = f"<h2 class='gmkit-player-header'>{separator.join(parts)}</h2>"
    order = {name: n for n, name in enumerate(view.get("order", []))}
    combatants = sorted(
        view["combatants"], key=lambda c: (order.get(c["name"], len(order)), c["side"])
    )
    labels = {key: html.escape(t(key, language)) for key in ("character", "side", "wounds")}
    labels["conditions"] = html.escape(t("conditions", language))
    rows = []
    for entry in combatants:
        css = []
        if view.get("current") == entry["name"] or (
            not view.get("current")
            and not view.get("hidden_turn")
            and view.get("current_side") == entry["side"]
        ):
            css.append("gmkit-current")
        friend = len(entry.get("sheet", {})) > 1
        if friend:
            css.append("gmkit-friend")
        acted = entry["name"] in view.get("acted", ())
        if acted:
            css.append("gmkit-acted")
        conditions = ", ".join(c[:1].upper() + c[1:] for c in entry.get("conditions", ())) or "–"
        details = sheet_details(entry["sheet"], language) if friend else ""
        mark = "<span class='gmkit-acted-mark'>✓</span>" if acted else ""  # beside the name
        cells = [
            ("gmkit-pc-name", "character", html.escape(entry["name"]) + mark + details),
            ("gmkit-pc-side", "side", html.escape(entry["side"])),
            ("gmkit-pc-wounds", "wounds", _wounds_cell(entry.get("wounds"), language)),
            ("gmkit-pc-conditions", "conditions", html.escape(conditions)),
        ]
        tds = "".join(
            f"<td class='{cell}' data-label='{labels[key]}'>{value}</td>"
            for cell, key, value in cells
        )
        rows.append(f"<tr class='{' '.join(css)}'>{tds}</tr>")
    heads = "".join(
        f"<th>{labels[key]}</th>" for key in ("character", "side", "wounds", "conditions")
    )
    table = (
        f"<table class='gmkit-player-table'><tr class='gmkit-player-heads'>{heads}</tr>"
        f"{''.join(rows)}</table>"
    )
    return header, table


__all__ = ["player_html"]
