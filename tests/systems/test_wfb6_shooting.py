"""WFB 6e characters shooting: a lone character freely, a character in a unit at the unit's
target unless it cannot, a character and its mount splitting fire as the text's dragon does."""

from __future__ import annotations

import pytest

from gmkit.errors import GmkitError
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.systems.wfb6 import UnitOnTable, may_shoot_at


def character(name: str = "Anselm", troop_type: str = "infantry", **fields) -> WFB6Character:
    if troop_type in ("cavalry", "monstrous_cavalry") and "mount" not in fields:
        fields["mount"] = "warhorse"
    return WFB6Character.build(name=name, side="Empire", troop_type=troop_type, **fields)


BOW = {"name": "long bow", "range_cm": 75, "strength": 3}
BREATH = {"name": "fire breath", "range_cm": 20, "strength": 4, "special": ["breath weapon"]}


def enemy(name: str, distance: float, **fields) -> UnitOnTable:
    return UnitOnTable(name, "Orcs", rank_and_file=10, shooter_distance_cm=distance, **fields)


def test_a_lone_character_shoots_freely_within_range_and_sight():
    archer = character(weapons=[BOW])
    ruling = may_shoot_at(archer, "long bow", enemy("Boyz", 60))
    assert ruling.allowed is True
    assert str(ruling.steps[0].outcome) == "may shoot"
    assert str(ruling.reason) == "chooses freely: Boyz at 60 cm is within 75 cm"
    assert may_shoot_at(archer, "long bow", enemy("Boyz", 80)).allowed is False
    assert may_shoot_at(archer, "long bow", enemy("Boyz", 30, visible=False)).allowed is False


def test_a_character_in_a_unit_shoots_at_the_units_target_unless_it_cannot():
    archer = character(unit="Archers", weapons=[BOW])
    units_target, other = enemy("Boyz", 50), enemy("Wolves", 40)
    assert may_shoot_at(archer, "long bow", units_target, primary=units_target).allowed
    refused = may_shoot_at(archer, "long bow", other, primary=units_target)
    assert refused.allowed is False
    assert str(refused.reason).startswith("must shoot at Boyz, the unit's target")
    beyond = enemy("Trolls", 90)
    freed = may_shoot_at(archer, "long bow", other, primary=beyond)
    assert freed.allowed is True
    assert str(freed.reason).startswith("split fire: it cannot shoot at Trolls (Trolls at 90 cm")
    engaged = enemy("Goblins", 30, engaged=True)
    assert may_shoot_at(archer, "long bow", other, primary=engaged).allowed is True


def test_rider_and_dragon_split_fire_only_when_one_target_is_out_of_reach():
    rider = character("Elector", troop_type="monster", mount="dragon", weapons=[BOW, BREATH])
    far, near, also_near = enemy("Cannon crew", 60), enemy("Boyz", 10), enemy("Wolves", 10)
    assert may_shoot_at(rider, "long bow", far).allowed is True
    assert may_shoot_at(rider, "fire breath", near, primary=far).allowed is True
    assert may_shoot_at(rider, "long bow", near).allowed is True
    assert may_shoot_at(rider, "fire breath", also_near, primary=near).allowed is False


def test_shooting_errors_name_the_weapon():
    with pytest.raises(GmkitError, match="has no weapon 'sling'; known: long bow"):
        may_shoot_at(character(weapons=[BOW]), "sling", enemy("Boyz", 10))
    sword = character(weapons=[{"name": "sword"}])
    assert str(may_shoot_at(sword, "sword", enemy("Boyz", 10)).reason).endswith(
        "not a missile weapon"
    )
    with pytest.raises(GmkitError, match="shooter's distance to Boyz"):
        may_shoot_at(character(weapons=[BOW]), "long bow", UnitOnTable("Boyz", "Orcs", 10))
