"""The odds of an attack before the dice: headline numbers, a chart, the curve by modifier.

A thin view over :mod:`gmkit.odds`: it holds no rule of any game. Every number it shows is
the :class:`~gmkit.odds.Odds` of the request it was given (exact ``Fraction``s, shown as
percentages with the exact value as the tooltip); which outcomes there are, and their names,
are the game's odds module's (``Odds.states``, ``Odds.events``, ``Odds.distributions()``).

- :meth:`OddsView.update` takes the ``AttackRequest`` the attack panel would resolve (``None``
  with the reason when there is none yet) and shows: the chance of a hit, the chance of each of
  the target's states afterwards, the expected damage (and wounds and hits where they say
  more), the other named events, the per-model odds where hits spread over several models, the
  odds module's notes, and a bar chart of one distribution (``damage`` by default; any of
  ``Odds.distributions()`` with :meth:`OddsView.select_chart`).
- :meth:`OddsView.show_curve` (the button) computes ``gmkit.odds.curve(request)`` over the
  game's own range of total modifiers (-60..+60 for the d100 games, -4..+4 for the D6 ones)
  and draws the chance of a hit and of each state at each modifier, the request's own
  modifier marked. A curve belongs to one request: when the request changes it is dropped (the
  button computes it again).
- A game without odds, a module that failed to import, a refused request or an attack the odds
  do not cover: the view says why (``reason``, ``curve_reason``) and raises nothing.

Charts are inline SVG in an ``HTML`` widget, generated here (no plotting library; Voila
renders them without a round trip to the kernel for an image).

Odds are a pure function of the request: the last ``KEPT_ODDS`` computed are kept, so going
back to a request seen before (the turn coming round to the same attacker) computes nothing;
a part of the view is sent to the page only when what it shows changed, and the view's
widgets share their layouts and styles.
"""

from __future__ import annotations

import html
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
from traitlets import Unicode

from gmkit.errors import GmkitError
from gmkit.odds import Curve, Dist, Odds, curve, odds
from gmkit.systems.base import AttackRequest
from gmkit.widgets.attack_view import label
from gmkit.widgets.i18n import LANGUAGE, words
from gmkit.widgets.tracker import Shared

__all__ = ["OddsView", "bars_svg", "curve_svg", "percent"]

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
"""Colours of the states, by their place in ``Odds.states`` (no meaning of their own)."""
BAR_COLOUR = "#4e79a7"
BAR_HEIGHT = 120
"""Height in pixels of the tallest bar (the most likely outcome)."""
CURVE_WIDTH, CURVE_HEIGHT = 480, 160
KEPT_ODDS = 32
"""Odds kept by request (the newest), so a request seen again is not computed again."""

_STYLE = """
<style>
.gmkit-odds-view { border-top: 1px solid #8884; margin-top: 4px; padding-top: 4px; }
.gmkit-odds-tiles { display: flex; flex-wrap: wrap; gap: 6px; margin: 4px 0; }
.gmkit-odds-tile { border: 1px solid #8886; border-radius: 6px; padding: 2px 10px;
  min-width: 5.5em; text-align: center; }
.gmkit-odds-tile.gmkit-odds-main { border-width: 2px; }
.gmkit-odds-value { font-size: 1.35em; font-weight: 700; font-variant-numeric: tabular-nums; }
.gmkit-odds-label { font-size: 0.85em; opacity: 0.8; }
.gmkit-odds-events, .gmkit-odds-notes { font-size: 0.9em; margin: 2px 0; }
.gmkit-odds-reason { border-left: 4px solid #ffb347; padding-left: 0.6em; }
.gmkit-odds-legend span { margin-right: 1em; white-space: nowrap; }
.gmkit-odds-view svg text { font-size: 10px; fill: currentColor; }
</style>
"""


# --- formatting (numbers only: no rule) ---------------------------------------------------------


def percent(chance: Fraction) -> str:
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
    if isinstance(outcome, tuple):
        return ", ".join(_outcome(part) for part in outcome)
    return str(outcome)


def _ordered(dist: Dist[Any]) -> list[Any]:
    """The outcomes of ``dist``: numbers in order, anything else in the order the odds list."""
    outcomes = list(dist)
    if all(isinstance(o, int) and not isinstance(o, bool) for o in outcomes):
        return sorted(outcomes)
    return outcomes


def _name(key: str) -> str:
    return key.replace("_", " ")


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
        shown = _E(_outcome(outcome))
        parts.append(
            f"<rect class='gmkit-bar' data-outcome='{shown}' data-p='{chance}' "
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
    line: Curve,
    series: Sequence[tuple[str, Callable[[Odds], Fraction], str]],
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

    def y(chance: Fraction) -> float:
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
        values = line.of(pick)
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
                    f"data-p='{value}' cx='{x(modifier):.1f}' cy='{y(value):.2f}' r='{dot}' "
                    f"fill='{colour}'><title>{modifier:+d}: {_E(name)} {_E(percent(value))} "
                    f"({value})</title></circle>"
                )
    parts.append("</svg>")
    legend = "".join(
        f"<span><span style='color:{colour}'>&#9632;</span> {_E(name)}</span>"
        for name, _, colour in series
    )
    return "".join(parts) + f"<div class='gmkit-odds-legend'>{legend}</div>"


# --- the view ----------------------------------------------------------------------------------


class OddsView(widgets.VBox):
    """The odds of one attack request (see the module docstring).

    ``request``, ``odds`` and ``curve`` are what is shown (``None`` when nothing is);
    ``headline`` maps each headline number's key (``"hit"``, each state's name,
    ``"expected damage"``; ``"expected wounds"`` and ``"expected hits"`` where they differ
    from damage, or where there can be more than one hit) to its exact value.
    """

    chart = Unicode("damage", help="the distribution charted: a name of Odds.distributions()")
    reason = Unicode("", help="why there are no odds to show ('' when there are)")
    curve_reason = Unicode("", help="why the curve could not be computed ('' when it could)")

    def __init__(self, **kwargs: Any) -> None:
        self.request: AttackRequest | None = None
        self.odds: Odds | None = None
        self.curve: Curve | None = None
        self.headline: dict[str, Fraction] = {}
        self._charts: dict[str, Dist[Any]] = {}
        self._syncing = False
        self._closed = False
        self._curve_on = False  # the button was pressed (and not pressed again to hide)
        self._kept: OrderedDict[tuple[Any, ...], list[tuple[AttackRequest, Odds]]] = OrderedDict()
        self._shared = shared = Shared()
        self.title_html = shared.make(widgets.HTML)
        self.summary_html = shared.make(widgets.HTML)
        self.chart_box = shared.make(widgets.Dropdown, layout={"width": "22em"})
        self.curve_button = shared.make(widgets.Button, layout={"width": "auto"})
        self.chart_html = shared.make(widgets.HTML)
        self.curve_html = shared.make(widgets.HTML)
        self.chart_box.observe(self._on_chart, names="value")
        self.curve_button.on_click(lambda _: self._toggle_curve())
        super().__init__(
            children=[
                shared.make(widgets.HTML, value=_STYLE, layout={"display": "none"}),
                self.title_html,
                self.summary_html,
                shared.make(widgets.HBox, children=[self.chart_box, self.curve_button]),
                self.chart_html,
                self.curve_html,
            ],
            **kwargs,
        )
        self.add_class("gmkit-odds-view")  # not gmkit-odds: the dice tray's line
        LANGUAGE.observe(self._on_language, names="value")
        self.update(None)

    def close(self) -> None:
        if not self._closed:  # once: the panel closes it, then ipywidgets again on deletion
            self._closed = True
            LANGUAGE.unobserve(self._on_language, names="value")
            for child in self.children:
                for part in getattr(child, "children", ()):
                    part.close()
                child.close()
            self._shared.close()
        super().close()

    # --- public ----------------------------------------------------------------------------

    def update(self, request: AttackRequest | None, reason: str = "") -> Odds | None:
        """Show the odds of ``request`` (``None``: none, because of ``reason``). Errors are
        shown, not raised; the curve of another request is dropped."""
        if request is None:
            self.request, self.odds, self.curve, self.curve_reason = None, None, None, ""
            self.reason = reason or label(
                "odds_need_attack", "choose the attacker, weapon, action and target"
            )
            self._render()
            return None
        if self.odds is not None and _same(request, self.request):
            return self.odds  # the same request: the same odds (they are a pure function)
        self.request, self.curve, self.curve_reason = request, None, ""
        try:
            self.odds, self.reason = self._odds(request), ""
        except Exception as error:  # a refusal, a game without odds, or a bug: shown
            self.odds, self.reason = None, _why(error)
        self._render()
        return self.odds

    def _odds(self, request: AttackRequest) -> Odds:
        """``odds(request)``, or the odds kept from an equal request (found by what is cheap
        to compare, the names and scalars, then checked equal)."""
        key = (
            getattr(request.attacker, "name", id(request.attacker)),
            request.weapon,
            getattr(request.target, "name", id(request.target)),
            request.action,
            request.mode,
            request.distance,
            request.called_location,
        )
        kept = self._kept.get(key, [])
        for seen, result in kept:
            if _same(request, seen):
                self._kept.move_to_end(key)
                return result
        result = odds(request)
        self._kept[key] = [*kept[-3:], (request, result)]
        self._kept.move_to_end(key)
        while len(self._kept) > KEPT_ODDS:
            self._kept.popitem(last=False)
        return result

    def show_curve(self) -> Curve | None:
        """Compute and draw the odds of the request at each modifier of the game's range."""
        if self.request is None or self.odds is None:
            self.curve_reason = self.reason or label("no_odds", "no odds to show")
        elif self.curve is None:
            try:
                self.curve, self.curve_reason = curve(self.request), ""
            except Exception as error:  # shown, as the odds' own errors are
                self.curve, self.curve_reason = None, _why(error)
        self._curve_on = True
        self._render_curve()
        return self.curve

    def hide_curve(self) -> None:
        self._curve_on = False
        self._render_curve()

    def select_chart(self, name: str) -> None:
        """Chart the distribution ``name`` (one of ``Odds.distributions()``)."""
        if self._charts and name not in self._charts:
            known = ", ".join(self._charts)
            raise ValueError(f"chart: no distribution {name!r}; known: {known}")
        self.chart = name
        self._render()

    @property
    def charts(self) -> tuple[str, ...]:
        """The distributions that can be charted (``Odds.distributions()``'s names)."""
        return tuple(self._charts)

    # --- rendering -------------------------------------------------------------------------

    def _render(self) -> None:
        _set(self.title_html, value=f"<b>{_E(label('odds', 'Odds'))}</b>")
        _set(self.curve_button, disabled=self.odds is None)
        result = self.odds
        if result is None:
            self.headline, self._charts = {}, {}
            _set(self.summary_html, value=f"<div class='gmkit-odds-reason'>{_E(self.reason)}</div>")
            _set(self.chart_html, value="")
            self._sync_chart_box()
            self._render_curve()
            return
        self._charts = dict(result.distributions())
        if self.chart not in self._charts:
            self.chart = "damage"
        self.headline = _headline(result)
        _set(self.summary_html, value=_summary_html(result, self.headline))
        self._sync_chart_box()
        _set(self.chart_html, value=bars_svg(self._charts[self.chart]))
        self._render_curve()

    def _render_curve(self) -> None:
        on = self._curve_on
        _set(
            self.curve_button,
            description=label("hide_curve", "Hide odds by modifier")
            if on and self.curve is not None
            else label("show_curve", "Odds by modifier"),
        )
        if not on:
            _set(self.curve_html, value="")
        elif self.curve is None:
            why = self.curve_reason or label("curve_dropped", "the attack changed: press again")
            _set(self.curve_html, value=f"<div class='gmkit-odds-reason'>{_E(why)}</div>")
        else:
            order = tuple(self.odds.states) if self.odds is not None else ()
            _set(self.curve_html, value=_curve_html(self.curve, order))

    def _sync_chart_box(self) -> None:
        self._syncing = True
        try:
            box = self.chart_box
            options = tuple((_name(name), name) for name in self._charts)
            value = self.chart if self._charts else None
            with box.hold_sync():  # what changed, in one message (unchanged: nothing sent)
                _set(box, description=label("chart", "Chart"))
                if tuple(box.options) != options:
                    box.options = options
                _set(box, value=value, disabled=not self._charts)
        finally:
            self._syncing = False

    def _on_chart(self, change: Mapping[str, Any]) -> None:
        if not self._syncing and change["new"]:
            self.select_chart(change["new"])

    def _toggle_curve(self) -> None:
        if self._curve_on and self.curve is not None:
            self.hide_curve()
        else:
            self.show_curve()

    def _on_language(self, change: Mapping[str, Any]) -> None:
        self._render()


def _set(widget: widgets.Widget, **values: Any) -> None:
    """Assign only the traits whose value differs: an equal value sends nothing."""
    for name, value in values.items():
        if getattr(widget, name) != value:
            setattr(widget, name, value)


def _same(request: AttackRequest, shown: AttackRequest | None) -> bool:
    try:
        return bool(request == shown)
    except Exception:  # options that do not compare (an array...): compute again
        return False


def _why(error: Exception) -> str:
    if isinstance(error, GmkitError | ValueError):
        return str(error)
    return f"odds failed ({type(error).__name__}: {error})"


def _headline(result: Odds) -> dict[str, Fraction]:
    shown: dict[str, Fraction] = {"hit": result.hit}
    for state in result.states:
        key = state if state not in shown else f"state: {state}"
        shown[key] = result.states.p(state)
    shown["expected damage"] = result.expected_damage
    if result.expected_wounds != result.expected_damage:
        shown["expected wounds"] = result.expected_wounds
    if max(result.hits, default=0) > 1:
        shown["expected hits"] = result.expected_hits
    return shown


def _tile(key: str, text: str, exact: Fraction, caption: str, main: bool = False) -> str:
    extra = " gmkit-odds-main" if main else ""
    return (
        f"<div class='gmkit-odds-tile{extra}' data-key='{_E(key)}' title='{exact}'>"
        f"<div class='gmkit-odds-value'>{_E(text)}</div>"
        f"<div class='gmkit-odds-label'>{_E(caption)}</div></div>"
    )


_CAPTIONS = {
    "hit": ("odds_hit", "hit"),
    "expected damage": ("expected_damage", "expected damage"),
    "expected wounds": ("expected_wounds", "expected wounds"),
    "expected hits": ("expected_hits", "expected hits"),
}


def _summary_html(result: Odds, headline: Mapping[str, Fraction]) -> str:
    tiles = []
    for key, value in headline.items():
        if key in _CAPTIONS:
            text = percent(value) if key == "hit" else _amount(value)
            tiles.append(_tile(key, text, value, label(*_CAPTIONS[key]), main=True))
        else:
            tiles.append(_tile(key, percent(value), value, key))
    states = _states_bar(result.states)
    others = [
        f"<span title='{value}'>{_E(name)} <b>{_E(percent(value))}</b></span>"
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
    parts, at = [], 0.0
    colours = _colours(tuple(states))
    for state in states:
        chance = states.p(state)
        if not chance:
            continue
        wide = width * float(chance)
        colour = colours[state]
        parts.append(
            f"<rect class='gmkit-state' data-state='{_E(state)}' x='{at:.2f}' y='0' "
            f"width='{wide:.2f}' height='{height}' fill='{colour}'>"
            f"<title>{_E(state)}: {_E(percent(chance))} ({chance})</title></rect>"
        )
        at += wide
    legend = "".join(
        f"<span><span style='color:{colours[state]}'>&#9632;</span> {_E(state)}</span>"
        for state in states
        if states.p(state)
    )
    return (
        f"<svg class='gmkit-odds-states' xmlns='http://www.w3.org/2000/svg' width='{width}' "
        f"height='{height}' viewBox='0 0 {width} {height}'>{''.join(parts)}</svg>"
        f"<div class='gmkit-odds-legend'>{legend}</div>"
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


def _colours(states: Sequence[str]) -> dict[str, str]:
    """A colour per state, by its place among ``states`` (the same in the bar and the curve)."""
    return {state: PALETTE[index % len(PALETTE)] for index, state in enumerate(states)}


def _curve_html(line: Curve, order: Sequence[str] = ()) -> str:
    """The curve's chances of a hit and of each state; ``order``: the states as the shown odds
    list them (their colours in the states bar)."""
    states = list(order)
    for point in line.points:
        states.extend(state for state in point.states if state not in states)
    colours = _colours(states)
    series: list[tuple[str, Callable[[Odds], Fraction], str]] = [
        (label("odds_hit", "hit"), lambda o: o.hit, "currentColor")
    ]
    series.extend((state, _state_pick(state), colours[state]) for state in states)
    note = ""
    if line.current is None:
        note = (
            f"<p class='gmkit-odds-notes'>"
            f"{_E(label('modifier_no_matter', 'the modifier changes nothing for this attack'))}"
            "</p>"
        )
    return note + curve_svg(line, series)


def _state_pick(state: str) -> Callable[[Odds], Fraction]:
    return lambda point: point.states.p(state)
