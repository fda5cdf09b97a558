"""The odds view on its own: formatting, the charts' geometry, and every way of having no odds."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import cache

import ipywidgets
import pytest

from gmkit import plugins
from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.games import OddsEngine, game
from gmkit.odds import Dist, curve, odds
from gmkit.systems.base import AttackRequest
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._odds_view import OddsView, bars_svg, percent

from .odds_html import tags, tile


@cache
def roster(game: str):
    return next(r for r in demo_campaign().rosters if r.game == game)


def juve_shot(cover: bool = True) -> AttackRequest:
    """Little Jeb's stub gun at Scabby Tom, 12", in partial cover (7+ to hit) or not (6+)."""
    encounter = Encounter("necromunda")
    encounter.add_many(roster("necromunda").sheets)
    return encounter.attack_request(
        "little-jeb",
        "stub gun",
        "scabby-tom",
        action="shoot",
        mode="shooting",
        distance=12,
        circumstances={"partial_cover": True} if cover else {},
    )


@pytest.fixture
def view():
    made = OddsView()
    yield made
    made.close()


# --- formatting -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chance", "shown"),
    [
        (Fraction(1, 12), "8.3%"),
        (Fraction(1, 6), "16.7%"),
        (Fraction(0), "0%"),
        (Fraction(1), "100%"),
        (Fraction(1, 10_000), "<0.1%"),
        (Fraction(9_999, 10_000), ">99.9%"),
        (Fraction(1, 2), "50.0%"),
    ],
)
def test_a_chance_is_a_percentage_that_never_rounds_to_certain(chance, shown):
    assert percent(chance) == shown


def test_one_bar_per_outcome_in_order_heights_proportional():
    dist = Dist({3: 1, 0: 2, 1: 1, 7: 0}, 4)  # 7 is listed and cannot happen
    bars = tags(bars_svg(dist, height=100), "rect", "gmkit-bar")
    assert [bar["data-outcome"] for bar in bars] == ["0", "1", "3", "7"]
    assert [Fraction(bar["data-p"]) for bar in bars] == [dist.p(k) for k in (0, 1, 3, 7)]
    assert [float(bar["height"]) for bar in bars] == [100, 50, 50, 0]


# --- the odds of a request --------------------------------------------------------------------


def test_the_headline_is_the_odds_exactly(view):
    request = juve_shot()
    expected = odds(request)
    assert view.update(request) == expected
    assert view.odds == expected
    assert view.headline == {
        "hit": Fraction(1, 12),
        **{state: expected.states.p(state) for state in expected.states},
        "expected damage": expected.expected_damage,
    }
    assert tile(view, "hit") == "8.3%"
    assert tile(view, "out of action") == percent(expected.p("out of action"))
    assert tile(view, "expected damage") == f"{float(expected.expected_damage):.2f}"
    assert "title='1/12'" in view.summary_html.value  # the exact chance as the tooltip
    assert view.reason == ""


def test_the_events_the_headline_does_not_show_are_listed(view):
    view.update(juve_shot())
    assert "ammo roll failed <b>8.3%</b>" in view.summary_html.value
    assert "went down" in view.summary_html.value


def test_the_states_bar_has_a_segment_per_possible_state(view):
    request = juve_shot()
    view.update(request)
    expected = odds(request)
    segments = tags(view.summary_html.value, "rect", "gmkit-state")
    assert [s["data-state"] for s in segments] == [k for k in expected.states if expected.states[k]]
    widths = [float(s["width"]) for s in segments]
    assert sum(widths) == pytest.approx(480, abs=0.02)  # widths are written to 0.01


def test_the_damage_chart_by_default_and_any_distribution_on_request(view):
    request = juve_shot()
    view.update(request)
    expected = odds(request)
    assert view.chart == "damage"
    bars = tags(view.chart_html.value, "rect", "gmkit-bar")
    assert {int(b["data-outcome"]): Fraction(b["data-p"]) for b in bars} == dict(expected.damage)
    assert set(view.charts) == {name for name, _ in expected.distributions()}
    view.select_chart("states")
    bars = tags(view.chart_html.value, "rect", "gmkit-bar")
    assert [b["data-outcome"] for b in bars] == list(expected.states)
    view.chart_box.value = "hits"  # the control calls the same method
    assert view.chart == "hits"
    with pytest.raises(ValueError, match="no distribution 'nope'"):
        view.select_chart("nope")


def engine(monkeypatch, odds_function=None, curve_function=None, *, none=False):
    """Necromunda's registry entry with another odds engine (or none) for the test."""
    entry = game("necromunda")
    assert entry.odds is not None
    made = None if none else OddsEngine(odds_function or entry.odds.odds, curve_function)
    monkeypatch.setitem(plugins._ENTRIES, "necromunda", replace(entry, odds=made))
    return entry.odds


def counted(monkeypatch, calls):
    real = game("necromunda").odds
    engine(monkeypatch, lambda r: calls.append(r) or real.odds(r), real.curve)


def test_the_same_request_is_not_computed_again(view, monkeypatch):
    calls = []
    counted(monkeypatch, calls)
    view.update(juve_shot())
    view.update(juve_shot())  # equal, though another object
    assert len(calls) == 1
    view.update(juve_shot(cover=False))
    assert len(calls) == 2
    assert view.headline["hit"] == Fraction(1, 6)


def test_odds_seen_before_are_kept(view, monkeypatch):
    calls = []
    counted(monkeypatch, calls)
    for cover in (True, False, True, False):  # the turn coming back to the same attack
        view.update(juve_shot(cover=cover))
    assert len(calls) == 2
    assert view.headline["hit"] == Fraction(1, 6)


def test_an_unchanged_view_sends_nothing(view, monkeypatch):
    view.update(juve_shot())
    sent = []  # every update the page would be sent
    monkeypatch.setattr(ipywidgets.Widget, "_send", lambda w, msg, buffers=None: sent.append(w))
    view.update(juve_shot())
    view.update(juve_shot(cover=False))
    changed = len(sent)
    assert changed  # the odds changed
    view.update(juve_shot(cover=False))
    assert len(sent) == changed


# --- the curve --------------------------------------------------------------------------------


def test_the_curve_on_demand_one_point_per_modifier(view):
    request = juve_shot()
    view.update(request)
    assert view.curve is None
    assert view.curve_html.value == ""
    line = view.show_curve()
    assert line == curve(request)
    points = tags(view.curve_html.value, "circle", "gmkit-curve-point")
    assert [int(p["data-modifier"]) for p in points] == list(range(-4, 5))
    assert [Fraction(p["data-p"]) for p in points] == [line[m].hit for m in range(-4, 5)]
    lines = tags(view.curve_html.value, "polyline", "gmkit-curve-line")
    assert [ln["data-series"] for ln in lines] == ["hit", *odds(request).states]
    assert all(len(ln["points"].split()) == 9 for ln in lines)
    (now,) = tags(view.curve_html.value, "line", "gmkit-curve-now")
    assert now["data-modifier"] == "-2"
    assert view.curve_button.description == "Hide odds by modifier"
    view.curve_button.click()
    assert view.curve_html.value == ""


def test_a_new_request_drops_the_curve(view):
    view.update(juve_shot())
    view.show_curve()
    view.update(juve_shot(cover=False))
    assert view.curve is None
    assert "the attack changed" in view.curve_html.value
    assert view.show_curve() is not None
    (now,) = tags(view.curve_html.value, "line", "gmkit-curve-now")
    assert now["data-modifier"] == "-1"  # long range only, without the cover


# --- no odds: said, never raised --------------------------------------------------------------


def test_no_request_says_why(view):
    assert "choose the attacker" in view.summary_html.value
    view.update(None, "distance: a shot needs the distance to the target in inches")
    assert view.odds is None
    assert view.headline == {}
    assert "a shot needs the distance" in view.summary_html.value
    assert view.chart_html.value == ""
    assert view.curve_button.disabled
    assert view.show_curve() is None
    assert "a shot needs the distance" in view.curve_html.value


def test_a_game_without_odds_says_so(view, monkeypatch):
    engine(monkeypatch, none=True)
    assert view.update(juve_shot()) is None
    assert "no odds for 'necromunda' yet" in view.reason
    assert "games with odds: dark_heresy" in view.reason
    assert "no odds for &#x27;necromunda&#x27; yet" in view.summary_html.value


def test_a_bug_in_an_odds_module_is_shown_not_raised(view, monkeypatch):
    engine(monkeypatch, lambda request: 1 // 0)
    view.update(juve_shot())
    assert view.reason.startswith("odds failed (ZeroDivisionError")


def test_a_curve_that_fails_is_shown_not_raised(view, monkeypatch):
    engine(monkeypatch, curve_function=None)
    view.update(juve_shot())
    assert view.show_curve() is None
    assert "no curves for 'necromunda' yet" in view.curve_reason
    assert "no curves for &#x27;necromunda&#x27; yet" in view.curve_html.value
    assert view.odds is not None  # the odds themselves are still shown


def test_spanish_keeps_the_numbers_and_closing_twice_is_harmless():
    made = OddsView()
    made.update(juve_shot())
    try:
        LANGUAGE.value = "es"
        assert tile(made, "hit") == "8.3%"
    finally:
        LANGUAGE.value = "en"
    made.close()
    made.close()


# --- the states' colours: by how bad they are for the target --------------------------------

GREEN, RED = "#59a14f", "#e15759"
HARMLESS_AND_WORST = {
    "dark_heresy": ("unharmed", "critically damaged"),
    "deathwatch": ("unharmed", "critically damaged"),
    "wfrp2": ("unhurt", "seriously wounded"),
    "necromunda": ("standing", "out of action"),
    "wfb6": ("no hit", "slain"),
}


def demo_request(name: str) -> AttackRequest:
    """The first demo attack of the game whose odds name three states or more."""
    from gmkit.widgets._attack import AttackPanel

    encounter = Encounter(name)
    encounter.add_many(roster(name).sheets)
    panel = AttackPanel(encounter, seed=1)
    try:
        for attacker in [c.id for c in encounter.state.present]:
            panel.select_attacker(attacker)
            for target in panel.targets:
                panel.select_target(target)
                panel.set_distance(6)
                request = panel.form.request
                if request is not None and len(odds(request).states) >= 3:
                    return request
    finally:
        panel.close()
    raise AssertionError(f"no demo attack of {name} with three states")


@pytest.mark.parametrize(
    "name",
    [
        "dark_heresy",
        "deathwatch",
        "wfrp2",
        "necromunda",
        "wfb6",
    ],
)
def test_the_states_are_coloured_from_harmless_green_to_worst_red(view, name):
    request = demo_request(name)
    view.update(request)
    states = list(odds(request).states)
    harmless, worst = HARMLESS_AND_WORST[name]
    assert {harmless, worst} <= set(states), states
    fills = {
        s["data-state"]: s["fill"] for s in tags(view.summary_html.value, "rect", "gmkit-state")
    }
    from gmkit.widgets._odds_charts import severity_colours

    colours = severity_colours(states)
    assert (colours[harmless], colours[worst]) == (GREEN, RED), (states, colours)
    assert {state: colours[state] for state in fills} == fills  # the bar shows the same
    reds = [int(colours[s][1:3], 16) - int(colours[s][3:5], 16) for s in states]
    assert reds == sorted(reds)  # each state redder than the one before
    tiles = tags(view.summary_html.value, "div", "gmkit-odds-tile")
    marked = {t["data-key"]: t.get("style", "") for t in tiles if t.get("style")}
    assert (
        marked.get(worst) == f"border-left: 6px solid {RED}"
        or marked.get(f"state: {worst}") == f"border-left: 6px solid {RED}"
    ), marked
