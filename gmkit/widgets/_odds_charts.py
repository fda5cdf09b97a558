"""The odds view's pictures: tiles, the states bar, bar charts and curves as inline SVG.

Formatting only: numbers from an :class:`~gmkit.odds.Odds` or :class:`~gmkit.odds.Curve`, words
from the catalogs (:func:`gmkit.odds._labels.odds_label` names a state, an event, a
distribution), in the widgets' language. No rule lives here.

Why over 400 lines: the tiles, the states bar, the bars and the curve share their scales,
colours and number formats; each picture is a few short functions.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from gmkit.odds import Curve, Dist, Odds
from gmkit.odds._fast import FastCurve, FastOdds
from gmkit.odds._labels import odds_label
from gmkit.widgets._attack_view import label
from gmkit.widgets._i18n import words

_E = html.escape

PALETTE: tuple[str, ...] = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
)
"""Colours of no meaning of their own (kept for callers; the states use ``SEVERITY``)."""
SEVERITY: tuple[str, ...] = ("#59a14f", "#edc948", "#f28e2b", "#e15759")
"""The states' colours from the least to the most harmful to the target: green, yellow, orange,
red; a state between two takes the colour between them (see :func:`severity_colours`)."""
BAR_COLOUR = "#4e79a7"
BAR_HEIGHT = 120
"""Height in pixels of the tallest bar (the most likely outcome)."""
CURVE_WIDTH, CURVE_HEIGHT = 480, 160

# --- formatting (numbers only: no rule) ---------------------------------------------------------


Chance = Fraction | float  # a float from the fast path (gmkit.odds._fast)


def _exact_text(value: Chance) -> str:
    """A chance written exactly ("1/12"; a float as the fraction it is)."""
    return str(Fraction(value))


def percent(chance: Chance) -> str:
    """A chance as a percentage with one decimal: 1/12 -> "8.3%"; never rounds a chance
    that can happen to 0% (or one that can fail to 100%)."""
    chance = Fraction(chance)
    if chance == 0:
        return "0%"
    if chance == 1:
        return "100%"
    value = float(chance) * 100
    if value < 0.05:
        return "<0.1%"
    if value >= 99.95:
        return ">99.9%"
    return f"{value:.1f}%"


def _amount(value: Fraction) -> str:
    return f"{float(value):.2f}"


def _outcome(outcome: Any) -> str:
    """An outcome as its key (the chart's data attribute)."""
    if isinstance(outcome, tuple):
        return ", ".join(_outcome(part) for part in outcome)
    return str(outcome)


def _shown(outcome: Any) -> str:
    """An outcome as the GM reads it: a number as it is, a state or a location in words."""
    if isinstance(outcome, int) and not isinstance(outcome, bool):
        return str(outcome)
    return words(odds_label(outcome))


def _ordered(dist: Dist[Any]) -> list[Any]:
    """The outcomes of ``dist``: numbers in order, anything else in the order the odds list."""
    outcomes = list(dist)
    if all([isinstance(o, int) and not isinstance(o, bool) for o in outcomes]):
        return sorted(outcomes)
    return outcomes


def chart_name(key: str) -> str:
    """A distribution's name in words ("first hit location", "Sergeant: hits")."""
    return words(odds_label(key))


def bars_svg(dist: Dist[Any], *, height: int = BAR_HEIGHT, colour: str = BAR_COLOUR) -> str:
    """A bar chart of ``dist``: one bar per outcome, its height proportional to its chance
    (the most likely outcome ``height`` pixels tall), the exact chance in each bar's tooltip."""
    outcomes = _ordered(dist)
    if not outcomes:
        return f"<p>{_E(label('nothing_to_chart', 'nothing to chart'))}</p>"
    chances = [dist.p(outcome) for outcome in outcomes]
    top = max(chances)
    count = len(outcomes)
    bar = max(4, min(36, 480 // count))
    left, above, below = 44, 14, 18
    width = left + count * bar + 8
    total = above + height + below
    every = max(1, -(-count // 16))  # label at most ~16 outcomes under the axis
    parts = [
        f"<svg class='gmkit-odds-bars' xmlns='http://www.w3.org/2000/svg' width='{width}' "
        f"height='{total}' viewBox='0 0 {width} {total}' role='img'>",
        f"<line x1='{left - 2}' y1='{above}' x2='{left - 2}' y2='{above + height}' "
        "stroke='currentColor' stroke-opacity='0.5'/>",
        f"<line x1='{left - 2}' y1='{above + height}' x2='{width - 4}' y2='{above + height}' "
        "stroke='currentColor' stroke-opacity='0.5'/>",
        f"<text x='{left - 5}' y='{above + 4}' text-anchor='end'>{_E(percent(top))}</text>",
        f"<text x='{left - 5}' y='{above + height}' text-anchor='end'>0</text>",
    ]
    for index, (outcome, chance) in enumerate(zip(outcomes, chances, strict=True)):
        tall = height * float(chance / top) if top else 0.0
        x = left + index * bar
        y = above + height - tall
        key, shown = _E(_outcome(outcome)), _E(_shown(outcome))
        parts.append(
            f"<rect class='gmkit-bar' data-outcome='{key}' data-p='{chance}' "
            f"x='{x + 1}' y='{y:.4f}' width='{max(1, bar - 2)}' height='{tall:.4f}' "
            f"fill='{colour}'><title>{shown}: {_E(percent(chance))} ({chance})</title></rect>"
        )
        if count <= 12 and chance:
            parts.append(
                f"<text x='{x + bar / 2:g}' y='{y - 2:.1f}' text-anchor='middle'>"
                f"{_E(percent(chance))}</text>"
            )
        if index % every == 0:
            parts.append(
                f"<text x='{x + bar / 2:g}' y='{above + height + 12}' text-anchor='middle'>"
                f"{shown[:10]}</text>"
            )
    parts.append("</svg>")
    return "".join(parts)


def _ticks(modifiers: Sequence[int]) -> list[int]:
    if len(modifiers) <= 13:
        return list(modifiers)
    low, high = min(modifiers), max(modifiers)
    step = next((s for s in (2, 5, 10, 20, 30, 50) if (high - low) / s <= 12), 100)
    return [m for m in modifiers if m % step == 0]


def curve_svg(
    line: Curve | FastCurve,
    series: Sequence[tuple[str, Callable[[Any], Chance], str]],
    *,
    width: int = CURVE_WIDTH,
    height: int = CURVE_HEIGHT,
) -> str:
    """Lines of the chances ``series`` (name, pick, colour) at each modifier of ``line``; the
    first series also as one point per modifier (tooltip: modifier, chance, exact)."""
    modifiers = line.modifiers
    if not modifiers:
        return f"<p>{_E(label('nothing_to_chart', 'nothing to chart'))}</p>"
    low, high = min(modifiers), max(modifiers)
    left, right, above, below = 40, 12, 10, 30

    def x(modifier: int) -> float:
        if high == low:
            return left + width / 2
        return left + (modifier - low) / (high - low) * width

    def y(chance: Chance) -> float:
        return above + height - float(chance) * height

    full_w, full_h = left + width + right, above + height + below
    parts = [
        f"<svg class='gmkit-odds-curve' xmlns='http://www.w3.org/2000/svg' width='{full_w}' "
        f"height='{full_h}' viewBox='0 0 {full_w} {full_h}' role='img'>"
    ]
    for quarter in range(5):
        level = Fraction(quarter, 4)
        parts.append(
            f"<line x1='{left}' y1='{y(level):g}' x2='{left + width}' y2='{y(level):g}' "
            f"stroke='currentColor' stroke-opacity='{0.5 if quarter == 0 else 0.15}'/>"
            f"<text x='{left - 4}' y='{y(level) + 3:g}' text-anchor='end'>{quarter * 25}%</text>"
        )
    for modifier in _ticks(modifiers):
        parts.append(
            f"<text x='{x(modifier):.1f}' y='{above + height + 13}' text-anchor='middle'>"
            f"{modifier:+d}</text>"
        )
    parts.append(
        f"<text x='{left + width / 2:g}' y='{full_h - 3}' text-anchor='middle'>"
        f"{_E(label('total_modifier', 'total modifier'))}</text>"
    )
    if line.current is not None and low <= line.current <= high:
        at = x(line.current)
        parts.append(
            f"<line class='gmkit-curve-now' data-modifier='{line.current}' x1='{at:.1f}' "
            f"y1='{above}' x2='{at:.1f}' y2='{above + height}' stroke='currentColor' "
            f"stroke-dasharray='4 3'><title>{_E(label('this_attack', 'this attack'))} "
            f"{line.current:+d}</title></line>"
        )
    dot = 2.5 if len(modifiers) <= 30 else 1.5
    for index, (name, pick, colour) in enumerate(series):
        values: Mapping[int, Chance] = line.of(pick)  # type: ignore[arg-type]
        points = " ".join(f"{x(m):.1f},{y(v):.2f}" for m, v in values.items())
        bold = 3 if index == 0 else 1.5
        parts.append(
            f"<polyline class='gmkit-curve-line' data-series='{_E(name)}' points='{points}' "
            f"fill='none' stroke='{colour}' stroke-width='{bold}'/>"
        )
        if index == 0:
            for modifier, value in values.items():
                parts.append(
                    f"<circle class='gmkit-curve-point' data-modifier='{modifier}' "
                    f"data-p='{_exact_text(value)}' cx='{x(modifier):.1f}' cy='{y(value):.2f}' "
                    f"r='{dot}' fill='{colour}'><title>{modifier:+d}: {_E(name)} "
                    f"{_E(percent(value))}{_exact_title(value)}</title></circle>"
                )
    parts.append("</svg>")
    legend = "".join(
        f"<span><span style='color:{colour}'>&#9632;</span> {_E(name)}</span>"
        for name, _, colour in series
    )
    return "".join(parts) + f"<div class='gmkit-odds-legend'>{legend}</div>"


# --- the view ----------------------------------------------------------------------------------


def headline(result: Odds) -> dict[str, Fraction]:
    shown: dict[str, Fraction] = {"hit": result.hit}
    for state in result.states:
        key = state if state not in shown else f"state: {state}"
        shown[key] = result.states.p(state)
    lost = getattr(result, "magnitude_lost", None)  # a horde target: magnitude, not damage
    if lost is not None:
        shown["expected magnitude lost"] = lost.mean()
    else:
        shown["expected damage"] = result.expected_damage
    if lost is None and result.expected_wounds != result.expected_damage:
        shown["expected wounds"] = result.expected_wounds
    if max(result.hits, default=0) > 1:
        shown["expected hits"] = result.expected_hits
    return shown


def _tile(
    key: str, text: str, exact: Fraction, caption: str, main: bool = False, colour: str = ""
) -> str:
    extra = " gmkit-odds-main" if main else ""
    marked = f" style='border-left: 6px solid {colour}'" if colour else ""
    return (
        f"<div class='gmkit-odds-tile{extra}'{marked} data-key='{_E(key)}' title='{exact}'>"
        f"<div class='gmkit-odds-value'>{_E(text)}</div>"
        f"<div class='gmkit-odds-label'>{_E(caption)}</div></div>"
    )


_CAPTIONS = {
    "hit": ("odds_hit", "hit"),
    "expected damage": ("expected_damage", "expected damage"),
    "expected magnitude lost": ("expected_magnitude_lost", "expected magnitude lost"),
    "expected wounds": ("expected_wounds", "expected wounds"),
    "expected hits": ("expected_hits", "expected hits"),
}


def summary_html(result: Odds, headline: Mapping[str, Fraction]) -> str:
    tiles = []
    colours = _colours(tuple(result.states))
    for key, value in headline.items():
        if key in _CAPTIONS:
            text = percent(value) if key == "hit" else _amount(value)
            tiles.append(_tile(key, text, value, label(*_CAPTIONS[key]), main=True))
        else:
            state = key.removeprefix("state: ")
            caption = words(odds_label(state))
            colour = colours.get(state, "")
            tiles.append(_tile(key, percent(value), value, caption, colour=colour))
    states = _states_bar(result.states)
    others = [
        f"<span title='{value}'>{_E(words(odds_label(name)))} <b>{_E(percent(value))}</b></span>"
        for name, value in result.events.items()
        if name not in headline and name != "hit"
    ]
    events = f"<p class='gmkit-odds-events'>{' &middot; '.join(others)}</p>" if others else ""
    members = _members_html(result) if len(result.members) > 1 else ""
    notes = "".join(f"<li>{_E(words(note))}</li>" for note in result.notes)
    notes = f"<ul class='gmkit-odds-notes'>{notes}</ul>" if notes else ""
    return f"<div class='gmkit-odds-tiles'>{''.join(tiles)}</div>{states}{events}{members}{notes}"


def _states_bar(states: Dist[str], width: int = 480, height: int = 14) -> str:
    """The states side by side in one bar, each as wide as its chance."""
    parts, legend, at = [], [], 0.0
    colours = _colours(tuple(states))
    for state in states:
        chance = states.p(state)
        if not chance:
            continue
        wide = width * float(chance)
        colour = colours[state]
        name = _E(words(odds_label(state)))
        parts.append(
            f"<rect class='gmkit-state' data-state='{_E(state)}' x='{at:.2f}' y='0' "
            f"width='{wide:.2f}' height='{height}' fill='{colour}'>"
            f"<title>{name}: {_E(percent(chance))} ({chance})</title></rect>"
        )
        legend.append(f"<span><span style='color:{colour}'>&#9632;</span> {name}</span>")
        at += wide
    return (
        f"<svg class='gmkit-odds-states' xmlns='http://www.w3.org/2000/svg' width='{width}' "
        f"height='{height}' viewBox='0 0 {width} {height}'>{''.join(parts)}</svg>"
        f"<div class='gmkit-odds-legend'>{''.join(legend)}</div>"
    )


def _members_html(result: Odds) -> str:
    head = "".join(
        f"<th>{_E(text)}</th>"
        for text in (
            "",
            label("expected_hits", "expected hits"),
            label("expected_wounds", "expected wounds"),
            label("odds_slain", "a model slain"),
        )
    )
    rows = "".join(
        f"<tr><td>{_E(member.name)}</td><td>{_amount(member.hits.mean())}</td>"
        f"<td>{_amount(member.wounds.mean())}</td>"
        f"<td title='{member.p_slain}'>{_E(percent(member.p_slain))}</td></tr>"
        for member in result.members
    )
    return f"<table class='gmkit-table gmkit-odds-members'><tr>{head}</tr>{rows}</table>"


def _colours(states: Sequence[str]) -> Mapping[str, str]:
    """A colour per state (the same in the tiles, the bar and the curve)."""
    return severity_colours(states)


def severity_colours(states: Sequence[str]) -> Mapping[str, str]:
    """A colour per state (see :func:`_severity_colours`), worked out once per list."""
    return _severity_colours(tuple(states))


@functools.lru_cache(maxsize=256)
def _severity_colours(states: tuple[str, ...]) -> Mapping[str, str]:
    """A colour per state by its place in the odds' severity order: ``Odds.states`` lists the
    target's states from the least to the most harmful to it (unhurt, standing, no hit first;
    slain, out of action last), so the first is green, the last red and those between them
    graded through yellow and orange (``SEVERITY``). A single state is green."""
    count = len(states)
    found: dict[str, str] = {}
    for index, state in enumerate(states):
        at = index / (count - 1) * (len(SEVERITY) - 1) if count > 1 else 0.0
        found[state] = _between(
            SEVERITY[int(at)], SEVERITY[min(int(at) + 1, len(SEVERITY) - 1)], at % 1
        )
    return MappingProxyType(found)  # kept: never changed by whoever reads it


def _between(low: str, high: str, part: float) -> str:
    """The colour ``part`` of the way from ``low`` to ``high`` (``#rrggbb``)."""
    a = [int(low[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(high[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * part):02x}" for x, y in zip(a, b, strict=True))


def _exact_title(value: Chance) -> str:
    """The exact chance in a tooltip (a float from the fast path has none to show)."""
    return f" ({value})" if isinstance(value, Fraction) else ""


def curve_html(line: Curve | FastCurve, order: Sequence[str] = ()) -> str:
    """The curve's chances of a hit and of each state; ``order``: the states as the shown odds
    list them (their colours in the states bar)."""
    states = list(order)
    for point in line.points:
        states.extend(state for state in point.states if state not in states)
    colours = _colours(states)
    series: list[tuple[str, Callable[[Any], Chance], str]] = [
        (label("odds_hit", "hit"), _hit, "currentColor")
    ]
    series.extend(
        (words(odds_label(state)), _state_pick(state), colours[state]) for state in states
    )
    note = ""
    if line.current is None:
        note = (
            f"<p class='gmkit-odds-notes'>"
            f"{_E(label('modifier_no_matter', 'the modifier changes nothing for this attack'))}"
            "</p>"
        )
    return note + curve_svg(line, series)


def _hit(point: Odds | FastOdds) -> Chance:
    return point.hit


def _state_pick(state: str) -> Callable[[Odds | FastOdds], Chance]:
    return lambda point: point.states.p(state)


__all__ = [
    "BAR_COLOUR",
    "BAR_HEIGHT",
    "PALETTE",
    "SEVERITY",
    "bars_svg",
    "chart_name",
    "curve_html",
    "curve_svg",
    "headline",
    "percent",
    "severity_colours",
    "summary_html",
]
