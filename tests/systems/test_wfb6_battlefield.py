"""WFB 6e battlefield values: units on the table and the situation around a shot."""

from __future__ import annotations

import doctest

import pytest

from gmkit.errors import GmkitError
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.systems.wfb6 import Situation, UnitOnTable
from gmkit.systems.wfb6 import _battlefield as wfb6_battlefield

from ..shared.wfb6 import bretonnian, character, friends


def test_unit_of_counts_roles_and_takes_the_troopers_type():
    knight = bretonnian()
    champion = knight.edit(name="Gallant", role="champion")
    lord = character("Lord", troop_type="cavalry", unit="Knights").edit(side="Bretonnia")
    unit = UnitOnTable.of([knight, knight.edit(name="Knight 2"), champion, lord], engaged=True)
    assert (unit.name, unit.side, unit.rank_and_file, unit.champions) == (
        "Knights",
        "Bretonnia",
        2,
        1,
    )
    assert (unit.troops, unit.models, unit.size, unit.engaged) == (3, 4, 3, True)
    assert unit.characters == (lord,)
    assert unit.trooper == knight
    assert UnitOnTable.of([knight], rank_and_file=14).troops == 14


def test_situation_finds_a_models_unit_and_lone_characters_have_none():
    captain = character("Captain Hals", unit="Swordsmen")
    unit = friends(characters=(captain,))
    situation = Situation([unit])  # a list becomes a tuple
    assert situation.units == (unit,)
    assert situation.unit_of(captain) is unit
    assert situation.unit_of(character()) is None


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"rank_and_file": -1}, "must not be negative"),
        ({"troop_type": "dragon"}, "troop type 'dragon'"),
        ({"distance_cm": -2}, "distances must not be negative"),
    ],
)
def test_unit_on_table_refuses_nonsense(fields, message):
    with pytest.raises(GmkitError, match=message):
        UnitOnTable("X", "Empire", **fields)


def test_unit_on_table_refuses_a_trooper_as_a_character_and_bad_situations():
    trooper = WFB6Character.build(name="S", side="Empire", role="rank and file", unit="X")
    with pytest.raises(GmkitError, match="count rank and file and champions instead"):
        UnitOnTable("X", "Empire", characters=(trooper,))
    with pytest.raises(GmkitError, match="must not be negative"):
        Situation(distance_cm=-1)
    with pytest.raises(GmkitError, match="reading must be"):
        Situation(reading="anywhere")
    with pytest.raises(GmkitError, match="a name or at least one model"):
        UnitOnTable.of([])


def test_the_battlefield_module_example_runs():
    result = doctest.testmod(wfb6_battlefield)
    assert (result.failed, result.attempted) == (0, 5)
