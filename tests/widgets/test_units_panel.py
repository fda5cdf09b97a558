"""The units panel (WFB 6e) driven as the GM's clicks drive it: units and distances set on the
table, shown, refused with the reason, and read by the next shot."""

from __future__ import annotations

import pytest

from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.widgets._units_panel import UnitsPanel, has_units


@pytest.fixture
def fight() -> Encounter:
    roster = next(r for r in demo_campaign().rosters if r.game == "wfb6")
    fight = Encounter("wfb6")
    fight.add_many(roster.sheets)
    return fight


@pytest.fixture
def panel(fight):
    made = UnitsPanel(fight)
    yield made
    made.close()


def test_only_the_mass_battle_game_holds_units():
    assert has_units("wfb6")
    assert not any(has_units(g) for g in ("dark_heresy", "deathwatch", "wfrp2", "necromunda"))


def test_a_unit_is_set_from_the_controls_and_shown(panel, fight):
    assert "no unit on the table yet" in panel.table.value
    assert "Reikland Swordsmen" in panel.unit_name.options  # the names the sheets give
    panel.unit_name.value = "Reikland Swordsmen"
    panel.rank_and_file.value = 15
    panel.champions.value = 1
    panel.trooper.value = fight.combatant("Swordsman").id
    panel.characters.value = (fight.combatant("Captain Ottilie Hals").id,)
    panel.set_button.click()
    unit = fight.state.units["Reikland Swordsmen"]
    assert (unit.rank_and_file, unit.champions, unit.side) == (15, 1, "Empire")
    assert unit.characters == (fight.combatant("Captain Ottilie Hals").id,)
    assert "<td>Reikland Swordsmen</td><td>Empire</td><td>15/15</td>" in panel.table.value
    assert "Captain Ottilie Hals" in panel.table.value
    panel.engaged.value = True
    panel.set_button.click()
    assert fight.state.units["Reikland Swordsmen"].engaged
    fight.undo()
    assert not fight.state.units["Reikland Swordsmen"].engaged
    panel.select_unit("Reikland Swordsmen")  # the controls show the unit as it stands
    assert panel.engaged.value is False
    assert panel.rank_and_file.value == 15


def test_a_new_unit_is_shown_as_its_sheets_describe_it(panel, fight):
    panel.unit_name.value = "Reikland Swordsmen"  # typed: not on the table yet
    hals, swordsman = fight.combatant("Captain Ottilie Hals"), fight.combatant("Swordsman")
    assert panel.characters.value == (hals.id,)  # her sheet names the unit
    assert panel.trooper.value == swordsman.id  # its rank and file's profile
    assert (panel.troop_type.value, panel.champions.value) == ("infantry", 1)  # Brandt
    panel.rank_and_file.value = 15
    panel.set_button.click()
    unit = fight.state.units["Reikland Swordsmen"]
    assert (unit.troop_type, unit.characters, unit.trooper) == (
        "infantry",
        (hals.id,),
        swordsman.id,
    )
    assert (unit.rank_and_file, unit.champions, unit.side) == (15, 1, "Empire")


def test_distances_are_set_between_units_and_combatants(panel, fight):
    panel.set_unit("Reikland Swordsmen", rank_and_file=15)
    panel.end_a.value = fight.combatant("Father Anselm").id
    panel.end_b.value = "Reikland Swordsmen"
    panel.distance.value = 10
    panel.distance_button.click()
    assert fight.distance_between("Father Anselm", "Reikland Swordsmen") == 10
    shown = panel.table.value.split("<ul class='gmkit-distances'>")[1]
    assert shown.count("<li>") == 1
    assert "Father Anselm" in shown
    assert "Reikland Swordsmen" in shown
    assert ": 10 cm</li>" in shown


def test_refusals_are_shown_and_change_nothing(panel, fight):
    before = len(fight.events)
    assert not panel.set_unit("   ", rank_and_file=3)
    assert panel.message
    assert not panel.set_unit("Reikland Swordsmen", troop_type="dragon")
    assert "dragon" in panel.message
    assert not panel.set_distance("Father Anselm", "Father Anselm", 5)
    assert panel.message
    assert len(fight.events) == before
    assert panel.remove_unit("Nobody") is False
    assert len(fight.events) == before
