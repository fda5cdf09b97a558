"""The simulation panel, driven through run(), its fields and its button."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.simulate import simulate
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._simulation import SimulationWidget

pytestmark = pytest.mark.usefixtures("english")  # tests/conftest.py: English, then again


@pytest.fixture
def encounter() -> Encounter:
    roster = next(r for r in demo_campaign().rosters if r.game == "wfb6")
    fight = Encounter("wfb6")
    for sheet in roster.sheets:
        fight.add(sheet)
    return fight


@pytest.fixture
def panel(encounter: Encounter) -> Iterator[SimulationWidget]:
    made = SimulationWidget(encounter, fights=800, seed=3)
    yield made
    made.close()


def test_run_shows_the_report_with_its_numbers_and_fills_the_progress_bar(panel, encounter):
    heard: list[float] = []
    panel.progress.observe(lambda change: heard.append(change["new"]), names="value")

    report = panel.run()

    assert report is not None
    assert report == simulate(encounter, 800, seed=3)  # the fields' count and seed
    assert panel.report is report
    assert panel.progress.value == 1.0
    assert panel.progress.bar_style == "success"
    assert len(heard) > 2
    assert heard == sorted(heard)
    shown = panel.table.value
    for side, chance in report.wins.items():
        assert f"<th>{side}</th><td>{chance * 100:.1f}%</td>" in shown
    for combatant in report.combatants:
        assert f"<td>{combatant.name}</td>" in shown
        assert f"{combatant.taken_out * 100:.1f}%" in shown
    assert f"{report.rounds:.2f}" in shown
    assert "Policy" in shown
    assert not panel.button.disabled


def test_the_button_runs_it_and_run_takes_a_count(panel):
    panel.button.click()
    assert panel.report is not None
    assert panel.report.fights == 800

    report = panel.run(fights=300)

    assert report is not None
    assert report.fights == 300
    assert panel.fights.value == 300
    assert "<b>300</b> fights" in panel.table.value


def test_a_changed_encounter_marks_the_report_stale(panel, encounter):
    assert "Simulate" in panel.status.value
    panel.run()
    assert panel.status.value == ""

    encounter.note("the goblins advance")

    assert "changed" in panel.status.value
    panel.run()
    assert panel.status.value == ""


def test_a_refusal_is_shown_not_raised():
    fight = Encounter("wfb6")
    roster = next(r for r in demo_campaign().rosters if r.game == "wfb6")
    fight.add(roster.sheets[0])  # one side only
    panel = SimulationWidget(fight, fights=10)

    assert panel.run() is None

    assert "two sides" in panel.status.value
    assert panel.progress.bar_style == "danger"
    assert not panel.button.disabled
    panel.close()


def test_labels_follow_the_language(panel):
    assert panel.button.description == "Simulate"
    LANGUAGE.value = "es"
    assert panel.button.description == "Simular"
    assert panel.fights.description == "Combates"
