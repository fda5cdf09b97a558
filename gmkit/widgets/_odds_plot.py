"""A plot of an odds table: one bar per attack (attacker, weapon, mode, target), the target's
states side by side, each as wide as its chance, coloured from the least to the most harmful (a
horde's states are the magnitude it loses).

Formatting only: :func:`odds_plot` draws the rows of :func:`gmkit.encounter._overview.odds_frame`
(its ``label`` column already in the reader's language; the mode named in the frame's language,
``frame.attrs``). No rule lives here.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets
import pandas as pd

from gmkit.messages import Message, render
from gmkit.systems.offers import mode_label
from gmkit.widgets._odds_charts import severity_colours

_E = html.escape
_STYLE = (
    "<style>.gmkit-odds-plot{font:13px sans-serif;border-collapse:collapse}"
    ".gmkit-odds-plot td{padding:2px 8px 2px 0;white-space:nowrap}"
    ".gmkit-odds-plot .gmkit-bar{display:flex;width:360px;height:16px;background:#eee}"
    ".gmkit-odds-plot .gmkit-bar span{display:block;height:100%}"
    ".gmkit-odds-legend span{margin-right:12px}</style>"
)


def odds_plot(frame: pd.DataFrame, *, width: int = 360) -> widgets.HTML:
    """The ``state`` rows of an odds table as bars, with a legend; hover a part for its
    chance. Rows of other kinds are left out (print the frame to read them)."""
    states = frame[frame["kind"] == "state"]
    language = str(frame.attrs.get("language", "en"))
    if states.empty:
        empty = render(Message("widgets.odds_plot_empty"), language)
        return widgets.HTML(f"<p>{_E(empty)}</p>")
    keys = ["attacker", "weapon", "mode", "target"]
    order = _severity_order(states, keys)
    colours = severity_colours(order)
    names = dict(zip(states["outcome"], states["label"], strict=False))
    game = frame.attrs.get("game", "")
    rows = []
    for (attacker, weapon, mode, target), group in states.groupby(keys, sort=False):
        parts = "".join(_part(row, colours[row["outcome"]], width) for _, row in group.iterrows())
        mode_words = render(mode_label(str(mode), str(game)), language)
        rows.append(
            f"<tr><td>{_E(str(attacker))}</td><td>{_E(str(weapon))}</td>"
            f"<td>{_E(mode_words)}</td><td>{_E(str(target))}</td><td><div class='gmkit-bar' "
            f"style='width:{width}px'>{parts}</div></td></tr>"
        )
    legend = "".join(
        f"<span><span style='color:{colours[key]}'>&#9632;</span> {_E(str(names[key]))}</span>"
        for key in order
    )
    return widgets.HTML(
        f"{_STYLE}<table class='gmkit-odds-plot'>{''.join(rows)}</table>"
        f"<div class='gmkit-odds-legend'>{legend}</div>"
    )


def _severity_order(states: pd.DataFrame, keys: list[str]) -> list[str]:
    """The states from the least to the most harmful: each attack lists its own in that order
    (``Odds.states``); an attack that cannot reach a state leaves it out, so the longest list
    sets the order and a state only some attacks know goes after its predecessor."""
    lists = [list(group["outcome"]) for _, group in states.groupby(keys, sort=False)]
    order: list[str] = max(lists, key=lambda listed: len(listed))[:]
    for listed in lists:
        for index, state in enumerate(listed):
            if state not in order:
                before = listed[index - 1] if index else None
                order.insert(order.index(before) + 1 if before in order else 0, state)
    return order


def _part(row: Any, colour: str, width: int) -> str:
    value = float(row["value"])
    if value <= 0:
        return ""
    tip = f"{row['label']}: {value:.1%}"
    return (
        f"<span class='gmkit-state' data-state='{_E(str(row['outcome']))}' "
        f"style='width:{value * width:.1f}px;background:{colour}' title='{_E(tip)}'></span>"
    )


__all__ = ["odds_plot"]
