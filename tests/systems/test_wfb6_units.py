"""WFB 6e rules with a situation the encounter read from its units (``from_table``): what the
table lacks is asked for as the encounter's commands give it, as a refusal (RulesError), in
English and Spanish; a situation built by hand keeps its Python-facing errors."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import GmkitError, RulesError
from gmkit.messages import render
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.systems.base import AttackRequest
from gmkit.systems.wfb6 import Situation, UnitOnTable, resolve_attack

BOW = {"name": "bow", "range_cm": 60, "strength": 3}
BALL = {"name": "cannon ball", "range_cm": 150, "strength": 10, "special": ["cannon"]}
SHOOTER = WFB6Character.build(
    name="Archer", side="Orcs", role="rank and file", unit="Archers", weapons=[BOW, BALL]
)
PRIEST = WFB6Character.build(name="Anselm", side="Empire", T=4)
CAPTAIN = WFB6Character.build(name="Hals", side="Empire", unit="Swordsmen", T=4)


def refusal(target, situation, weapon="bow") -> GmkitError:
    """What the rules raise for this shot (a die never gets rolled)."""
    request = AttackRequest(SHOOTER, weapon, target, options={"situation": situation})
    with pytest.raises(GmkitError) as caught:
        resolve_attack(request, EnteredDice([4, 4, 4]))
    return caught.value


@pytest.mark.parametrize("from_table", [True, False])
def test_a_screened_character_without_distances(from_table):
    near = UnitOnTable("Swordsmen", "Empire", rank_and_file=10, distance_cm=8)
    no_distance = Situation((near,), from_table=from_table)
    caught = refusal(PRIEST, no_distance)
    assert isinstance(caught, RulesError) is from_table
    if from_table:
        assert render(caught.message) == (
            "Anselm is screened by Swordsmen: measure the distance from the shooter to Anselm "
            "(set_distance, or type it for the shot)"
        )
        assert render(caught.message, "es") == (
            "Anselm está protegido por Swordsmen: mide la distancia del tirador a Anselm "
            "(set_distance, o escríbela para el disparo)"
        )
    else:
        assert render(caught.message) == "Anselm is screened by Swordsmen: give the distance to it"
    to_unit = Situation((near,), distance_cm=30, from_table=from_table)
    caught = refusal(PRIEST, to_unit)
    assert isinstance(caught, RulesError) is from_table
    expected = (
        "measure the distance from the shooter to Swordsmen (a legal target near the "
        "character): set_distance"
        if from_table
        else "give the shooter's distance to Swordsmen (shooter_distance_cm)"
    )
    assert render(caught.message) == expected


def test_a_hit_passed_to_rank_and_file_without_a_trooper():
    unit = UnitOnTable("Swordsmen", "Empire", rank_and_file=10, characters=(CAPTAIN,))
    caught = refusal(CAPTAIN, Situation((unit,), from_table=True), "cannon ball")
    assert isinstance(caught, RulesError)
    assert render(caught.message, "es") == (
        "Swordsmen: indica su soldado tipo, el combatiente cuya hoja es la de su tropa"
    )
    by_hand = refusal(CAPTAIN, Situation((unit,)), "cannon ball")
    assert not isinstance(by_hand, RulesError)
    assert render(by_hand.message) == "Swordsmen: give the unit a trooper sheet (its T and save)"
