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
- :meth:`OddsView.show_curve` (the button) computes the curve over the game's own range of
  total modifiers (``gmkit.odds._fast.panel_curve``: floats within 1e-12 of the exact
  ``gmkit.odds.curve`` where the game has a float engine, each point's exact value in its
  ``data-p``; the exact curve elsewhere) (-60..+60 for the d100 games, -4..+4 for the D6 ones)
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
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
from traitlets import Unicode

from gmkit.errors import GmkitError
from gmkit.odds import Curve, Dist, Odds, odds
from gmkit.odds._fast import FastCurve, panel_curve
from gmkit.systems.base import AttackRequest
from gmkit.widgets._attack_view import label
from gmkit.widgets._i18n import LANGUAGE, words
from gmkit.widgets._odds_charts import (
    bars_svg,
    chart_name,
    curve_html,
    curve_svg,
    headline,
    percent,
    summary_html,
)
from gmkit.widgets._sync import assign as _set
from gmkit.widgets._tracker import Shared

__all__ = ["OddsView", "bars_svg", "curve_svg", "percent"]

_E = html.escape

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
        self.curve: Curve | FastCurve | None = None
        self.headline: dict[str, Fraction] = {}
        self._charts: dict[str, Dist[Any]] = {}
        self._syncing = False
        self._closed = False
        self._curve_on = False  # the button was pressed (and not pressed again to hide)
        self._shown: tuple[object, ...] | None = None  # what _render last put on screen
        self._chart_options: tuple[object, tuple[tuple[str, str], ...]] = (None, ())
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
            found = self._odds(request)
            if self.odds is None or not _same_odds(found, self.odds):
                self.odds = found  # else the same numbers as on screen: kept, not drawn again
            self.reason = ""
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

    def show_curve(self) -> Curve | FastCurve | None:
        """Compute and draw the odds of the request at each modifier of the game's range (the
        float curve where the game has a float engine: ``gmkit.odds._fast.panel_curve``)."""
        if self.request is None or self.odds is None:
            self.curve_reason = self.reason or label("no_odds", "no odds to show")
        elif self.curve is None:
            try:
                self.curve, self.curve_reason = panel_curve(self.request), ""
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
        shown = (self.odds, self.reason, self.chart, self.curve, self._curve_on, LANGUAGE.value)
        if self._shown is not None and all(a is b for a, b in zip(shown, self._shown, strict=True)):
            return  # the same odds, chart and words as on screen: nothing to send
        self._shown = shown
        _set(self.title_html, value=f"<b>{_E(label('odds', 'Odds'))}</b>")
        _set(self.curve_button, disabled=self.odds is None)
        result = self.odds
        if result is None:
            self.headline, self._charts = {}, {}
            reason = f"<div class='gmkit-odds-reason'>{_E(self.reason)}</div>"
            _set(self.summary_html, value=reason)
            _set(self.chart_html, value="")
            self._sync_chart_box()
            self._render_curve()
            return
        self._charts = dict(result.distributions())
        if self.chart not in self._charts:
            self.chart = "damage"
        self.headline = headline(result)
        _set(self.summary_html, value=summary_html(result, self.headline))
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
            _set(self.curve_html, value=curve_html(self.curve, order))

    def _sync_chart_box(self) -> None:
        self._syncing = True
        try:
            box = self.chart_box
            key = (tuple(self._charts), LANGUAGE.value)
            if self._chart_options[0] != key:  # the charts' names, made once per set
                self._chart_options = (key, tuple([(chart_name(n), n) for n in self._charts]))
            options = self._chart_options[1]
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


def _same_odds(found: Odds, shown: Odds) -> bool:
    try:
        return found is shown or bool(found == shown)
    except Exception:  # details that do not compare: drawn again
        return False


def _same(request: AttackRequest, shown: AttackRequest | None) -> bool:
    try:
        return bool(request == shown)
    except Exception:  # options that do not compare (an array...): compute again
        return False


def _why(error: Exception) -> str:
    if isinstance(error, GmkitError):
        return words(error.message)
    if isinstance(error, ValueError):
        return str(error)
    return f"odds failed ({type(error).__name__}: {error})"
