"""The simulation's fights-done callback, its chunks, and the reports a seed gives.

- ``fights_done(done, total)`` hears (0, total) once the odds are ready, then each chunk of
  ``BATCH`` fights, the last (total, total); listening changes nothing in the report.
- The reports of five against five (the demo rosters, padded as ``bench/bench_simulate.py``
  pads them) are pinned for a seed: the speed-ups of issue 14 keep every number.
- The panel shows the fights done in its language, through the same callback.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.errors import GmkitError
from gmkit.simulate import BATCH, simulate
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._simulation import SimulationWidget

pytestmark = pytest.mark.usefixtures("english")  # conftest.py: English, then again


def five_a_side(game: str) -> dict[str, list[Any]]:
    """The demo roster's first two sides, five each (renamed copies pad a side), as
    ``bench/bench_simulate.py`` makes them."""
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    sides = {}
    for side, members in list(roster.sides.items())[:2]:
        chosen = list(members[:5])
        copy = 0
        while len(chosen) < 5:
            model = members[copy % len(members)]
            copy += 1
            chosen.append(model.edit(name=f"{model.name} ({copy + 1})"))
        sides[side] = chosen
    return sides


def test_fights_done_hears_each_chunk_then_the_total() -> None:
    heard: list[tuple[int, int]] = []
    fights = 2 * BATCH + 500

    report = simulate(five_a_side("wfb6"), fights, seed=5, fights_done=lambda *a: heard.append(a))

    assert heard == [(0, fights), (BATCH, fights), (2 * BATCH, fights), (fights, fights)]
    assert report.fights == fights
    assert sum(report.win_counts.values()) + report.draw_count == fights


def test_listening_changes_nothing_in_the_report() -> None:
    sides = five_a_side("necromunda")
    fractions: list[float] = []
    counts: list[tuple[int, int]] = []

    quiet = simulate(sides, 1_500, seed=11)
    heard = simulate(
        sides,
        1_500,
        seed=11,
        progress=fractions.append,
        fights_done=lambda done, total: counts.append((done, total)),
    )

    assert heard == quiet
    assert counts == [(0, 1_500), (1_500, 1_500)]
    assert fractions[0] == 0.0
    assert fractions[-1] == 1.0


PINNED = {
    # game: (fights, win counts by side, draws, mean rounds, taken out of the first combatant)
    "necromunda": (
        2_500,
        {"The Ashen Brethren": 2004, "The Sump Scavvies": 399},
        97,
        15.0136,
        ("Brother Kael", 0.786),
    ),
    "wfrp2": (
        2_500,
        {"The party": 2181, "Beastmen": 311},
        8,
        11.2916,
        ("Gunther Brandauer", 0.1984),
    ),
    "wfb6": (
        2_500,
        {"Empire": 2500, "Night Goblins": 0},
        0,
        4.8028,
        ("Captain Ottilie Hals", 0.0184),
    ),
    "dark_heresy": (
        1_000,
        {"Acolytes": 794, "Pale Throne cult": 206},
        0,
        6.288,
        ("Sergeant Varro Tull", 0.283),
    ),
    "deathwatch": (
        1_000,
        {"Kill-team Aquila": 1000, "Waaagh! Gritfang": 0},
        0,
        8.229,
        ("Brother Castor", 0.02),
    ),
}  # fmt: skip


@pytest.mark.parametrize("game", sorted(PINNED))
def test_a_seed_gives_the_report_it_gave_before_the_speed_ups(game: str) -> None:
    fights, wins, draws, rounds, (first, taken_out) = PINNED[game]

    report = simulate(five_a_side(game), fights, seed=7)

    assert report.win_counts == wins
    assert report.draw_count == draws
    assert report.rounds == pytest.approx(rounds, abs=1e-12)
    assert report.combatants[0].name == first
    assert report.combatants[0].taken_out == pytest.approx(taken_out, abs=1e-12)


def test_a_bad_fights_count_is_refused_before_any_callback() -> None:
    heard: list[tuple[int, int]] = []
    with pytest.raises(GmkitError, match="fights must be a whole number"):
        simulate(five_a_side("wfb6"), 0, seed=1, fights_done=lambda *a: heard.append(a))
    assert heard == []


# --- the panel --------------------------------------------------------------------------


@pytest.fixture
def panel() -> Iterator[SimulationWidget]:
    fight = Encounter("wfb6")
    for side, members in five_a_side("wfb6").items():
        for sheet in members:
            fight.add(sheet, side=side)
    made = SimulationWidget(fight, fights=1_200, seed=3)
    yield made
    made.close()


def test_the_panel_counts_the_fights_done_through_the_callback(panel: SimulationWidget) -> None:
    shown: list[str] = []
    panel.done.observe(lambda change: shown.append(str(change["new"])), names="value")

    panel.button.click()

    assert panel.report is not None
    assert "0 of 1,200 fights" in shown[0]
    assert "1,200 of 1,200 fights" in panel.done.value
    assert panel.progress.value == 1.0


def test_run_counts_the_same_way_and_the_count_follows_the_language(
    panel: SimulationWidget,
) -> None:
    report = panel.run(fights=1)

    assert report is not None
    assert report.fights == 1
    assert "1 of 1 fight<" in panel.done.value
    LANGUAGE.value = "es"
    assert "1 de 1 combate<" in panel.done.value
    panel.run(fights=2_000)
    assert "2.000 de 2.000 combates" in panel.done.value
