"""A sixth game as a plugin: Duel (tests/plugins/gmkit-duel) is a package of its own, installed
by pip (the ``duel_site`` fixture) and found through its entry point in ``gmkit.games``. It is
played at the table in English and in Spanish: the right wounds on the tracker, on the dashboard
and in the players' view, its own odds, a simulation that counts its two wounds, its own
catalogs' words, its own data's names. No file of gmkit names it."""

from __future__ import annotations

import html
import re
from fractions import Fraction
from pathlib import Path

import ipywidgets as widgets
import pytest

from gmkit import plugins
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter, event_text, player_view
from gmkit.games import game, game_ids
from gmkit.messages import catalogs, problems, render
from gmkit.odds import fast_odds, odds
from gmkit.simulate import simulate
from gmkit.store import CampaignStore
from gmkit.systems._catalogs import local_name
from gmkit.widgets._dashboard import Dashboard
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._player import PlayerView
from gmkit.widgets._tracker import InitiativeTracker

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def language():
    yield LANGUAGE
    LANGUAGE.value = "en"


def shown(root: widgets.Widget) -> str:
    """The words a widget tree shows (its HTML's tags taken out)."""
    parts, todo = [], [root]
    while todo:
        part = todo.pop()
        todo.extend(getattr(part, "children", ()))
        for name in ("value", "description", "tooltip"):
            value = getattr(part, name, None)
            if isinstance(value, str):
                parts.append(value)
        for option in getattr(part, "options", ()) or ():
            parts.append(str(option[0] if isinstance(option, tuple) else option))
    text = re.sub(r"<style.*?</style>", " ", "\n".join(parts), flags=re.S)
    return html.unescape(re.sub(r"<[^>]*>", " ", text))


def wounds_on(tracker: InitiativeTracker, name: str) -> str:
    """The wounds the tracker's row of ``name`` shows ("1/2")."""
    text = shown(tracker)
    line = next(line for line in text.splitlines() if name in line)
    found = re.search(r"(\d+)/(\d+)", text[text.index(line) :])
    assert found is not None, text
    return found.group(0)


def test_duel_is_an_installed_package_found_through_its_entry_point(duel, duel_site):
    assert Path(duel.__file__).is_relative_to(duel_site)  # the installed copy, not tests/
    (found,) = duel_site.glob("gmkit_duel-*.dist-info/entry_points.txt")
    assert "[gmkit.games]\nduel = gmkit_duel:GAME" in found.read_text()
    points = {point.name: point.value for point in plugins.entry_points()}
    assert points["duel"] == "gmkit_duel:GAME"
    assert list(points)[:5] == [name for name, _ in plugins.BUILTIN]  # gmkit's own first
    assert game_ids()[:5] == tuple(name for name, _ in plugins.BUILTIN)
    assert "duel" in game_ids()
    entry = game("duel")
    assert entry.catalogs is not None
    assert entry.catalogs.is_relative_to(duel_site)  # its catalogs ship in its own package
    assert (entry.catalogs / "duel.pot").is_file()
    assert (entry.catalogs / "es" / "LC_MESSAGES" / "duel.po").is_file()
    assert catalogs().english("duel.strike") == "Strike"
    assert [line for line in problems() if line.startswith("duel.")] == []  # all in Spanish


def test_without_it_gmkit_knows_no_duel(duel_site):
    assert "duel" not in game_ids()
    assert catalogs().english("duel.strike") is None  # its catalogs left with it


def test_gmkit_names_no_duel():
    """Every file of gmkit (code, data, catalogs, docs in the package): not a word of Duel."""
    word = re.compile(r"\bduel\b", re.IGNORECASE)
    named = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "gmkit").rglob("*"))
        if path.is_file()
        and "__pycache__" not in path.parts
        and word.search(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert named == []


def fight_in(store: CampaignStore, duel) -> Encounter:
    fight = Encounter.create(store, "Cliffs of Insanity", "duel")
    fight.add(duel.Duellist.build(name="Inigo", side="Montoya", skill=8), ident="inigo")
    fight.add(duel.Duellist.build(name="Rugen", side="Rugen", skill=6), ident="rugen")
    fight.start()
    fight.attack("inigo", "Sword", "rugen", EnteredDice([1, 1]), action="strike", mode="melee")
    return fight


def test_a_duel_is_played_at_the_table_with_its_own_wounds(duel, tmp_path, language):
    with CampaignStore(tmp_path / "duel.gmk", create=True) as store:
        fight = fight_in(store, duel)
        rugen = fight.state.combatant("rugen")
        assert rugen.counters == {"damage": 1}
        assert game("duel").health(rugen.sheet, rugen.counters) == (1, 2)
        tracker = InitiativeTracker(fight, seed=1)
        try:
            assert wounds_on(tracker, "Rugen") == "1/2"
            assert wounds_on(tracker, "Inigo") == "2/2"
        finally:
            tracker.close()
        dashboard = Dashboard(store, "Cliffs of Insanity", follow=False)
        try:
            assert dashboard.tracker is not None
            assert wounds_on(dashboard.tracker, "Rugen") == "1/2"
            assert dashboard.attack is not None
            assert dashboard.attack.form.weapon == "Sword"
            assert "Strike" in shown(dashboard)
            language.value = "es"
            words = shown(dashboard)
            assert "Estocada" in words  # the action, from Duel's own catalogs
            assert "Espada" in words  # the weapon's name, from Duel's own data
            fields = r"Destreza\s+8\s+Heridas\s+2"  # its sheet's fields, labelled by duel.field
            assert re.search(fields, words)
            assert wounds_on(dashboard.tracker, "Rugen") == "1/2"
        finally:
            dashboard.close()


def test_the_players_see_a_duellist_hurt_not_down(duel, tmp_path, language):
    with CampaignStore(tmp_path / "duel.gmk", create=True) as store:
        fight = fight_in(store, duel)
        view = player_view(fight.state, player_sides=("Montoya",))
        rugen = next(c for c in view["combatants"] if c["name"] == "Rugen")
        assert rugen["wounds"] == "bloodied"  # 1 of 2 left: not "down"
        fight.set("enemy_wounds", "exact")
        view = player_view(fight.state, player_sides=("Montoya",), language="es")
        rugen = next(c for c in view["combatants"] if c["name"] == "Rugen")
        assert rugen["wounds"] == "1/2"
        page = PlayerView(store, "Cliffs of Insanity", ["Montoya"], follow=False)
        try:
            text = shown(page)
            assert "1/2" in text
            assert "down" not in text.lower()
        finally:
            page.close()
        fight.attack("inigo", "Sword", "rugen", EnteredDice([1, 1]), action="strike", mode="melee")
        fight.set("enemy_wounds", "band")
        view = player_view(fight.state, player_sides=("Montoya",))
        rugen = next(c for c in view["combatants"] if c["name"] == "Rugen")
        assert rugen["wounds"] == "down"  # the second wound: now down


def test_the_log_reads_in_english_and_in_spanish(duel, tmp_path):
    with CampaignStore(tmp_path / "duel.gmk", create=True) as store:
        fight = fight_in(store, duel)
        attack = fight.effective_events[-1]
        assert event_text(attack, "en") == "Inigo hits"
        assert event_text(attack, "es") == "Inigo acierta"
        result = fight.try_attack(
            "inigo", "Sword", "rugen", EnteredDice([6, 6]), action="strike", mode="melee"
        )
        assert result.steps[0].render("en") == "Strike: miss (12 against 8)"
        assert result.steps[0].render("es") == "Estocada: falla (12 contra 8)"
        assert render(game("duel").title, "es") == "Duelo"
        assert local_name("duel", "Sword", "es") == "Espada"


def test_its_odds_are_its_own_exact_and_float(duel):
    fight = Encounter("duel")
    fight.add(duel.Duellist.build(name="A", side="x", skill=7), ident="a")
    fight.add(duel.Duellist.build(name="B", side="y"), ident="b")
    request = fight.attack_request("a", "Sword", "b", action="strike", mode="melee")
    assert odds(request).hit == Fraction(21, 36)  # 2d6 at or under 7
    assert fast_odds(request).hit == pytest.approx(21 / 36, abs=1e-12)  # no float engine
    lunge = fight.attack_request(
        "a", "Sword", "b", action="strike", mode="melee", options={"lunge": True}
    )
    assert odds(lunge).hit == Fraction(30, 36)  # at or under 9


def test_the_simulation_counts_its_two_wounds(duel):
    """A sure swordsman against one who hits on double ones: two strikes take the other out, so
    every fight lasts two rounds (one wound each, as a reading of one wound a duellist would
    have it, would end them all in the first)."""
    sides = {
        "Montoya": [duel.Duellist.build(name="Inigo", skill=12)],
        "Rugen": [duel.Duellist.build(name="Rugen", skill=2)],
    }
    report = simulate(sides, 2000, seed=3)
    assert report.game == "duel"
    assert report.rounds == 2.0
    assert report.wins["Montoya"] > 0.99
    assert report.unit == "paces"
    assert "Duel: no feints, salutes or bleeding; one strike a turn." in report.simplifications
