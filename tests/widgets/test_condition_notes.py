"""A condition the GM types in words is a note (issue 22, item 4): kept on the chips as typed,
marked as a note with the reason on hover, and the turn pane says so when it is added; a
condition of the game is neither marked nor remarked on."""

from __future__ import annotations

import pytest

from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._tracker_text import chips
from gmkit.widgets._turn_panel import TurnPanel


@pytest.fixture
def panel():
    roster = next(r for r in demo_campaign().rosters if r.game == "dark_heresy")
    fight = Encounter("dark_heresy")
    fight.add_many(roster.sheets[:3])
    made = TurnPanel(fight)
    yield made
    made.close()
    LANGUAGE.value = "en"


def chip_of(panel, ident, name):
    return next(
        chip
        for chip in chips("dark_heresy", panel.encounter.state.combatants[ident])
        if chip[0] == name
    )


def test_a_note_is_said_when_added_and_marked_on_its_chip(panel):
    tull = panel.encounter.state.present[0].id
    assert panel.add_condition(tull, "aimed: at the door")
    assert (
        panel.message == "'aimed: at the door': Aimed does not carry that; a note, no rule reads it"
    )
    _, label, tip = chip_of(panel, tull, "aimed: at the door")
    assert label == "Aimed (at the door) (note)"
    assert "does not carry that; a note, no rule reads it" in tip
    LANGUAGE.value = "es"
    assert panel.add_condition(tull, "behind the pews")
    assert panel.message.startswith("'behind the pews' no es una condición de las reglas")
    assert chip_of(panel, tull, "behind the pews")[1] == "Behind the pews (nota)"


def test_a_condition_of_the_game_is_not_a_note(panel):
    tull = panel.encounter.state.present[0].id
    assert panel.add_condition(tull, "stunned", 1)
    assert panel.message == ""
    _, label, tip = chip_of(panel, tull, "stunned")
    assert label == "Stunned · 1 rd"
    assert tip == "Remove Stunned"
