"""WFB 6e targeting: Proximity to friendly troops, closest legal target, templates and spells,
characters inside units, and the to-hit modifiers a target brings."""

from __future__ import annotations

import pytest

from gmkit.errors import GmkitError
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.systems.wfb6 import (
    Situation,
    UnitOnTable,
    may_target,
    screening_units,
    target_modifiers,
)

from ..shared.wfb6 import character, friends

# --- Proximity to friendly troops -------------------------------------------------------


def test_no_friendly_unit_near_a_lone_character_is_a_free_target():
    ruling = may_target(character(), Situation(distance_cm=50))
    assert ruling.allowed is True
    assert "no friendly unit of 5+ models" in str(ruling.reason)
    assert [str(m) for m in ruling.modifiers] == ["Lone infantry character -1"]


def test_a_screened_character_farther_than_the_unit_may_not_be_targeted():
    ruling = may_target(character(), Situation((friends(shooter=30),), distance_cm=35))
    assert ruling.allowed is False
    assert ruling.modifiers == ()
    assert str(ruling.reason) == (
        "screened by Swordsmen, not the closest legal target: Anselm at 35 cm, Swordsmen at 30 cm"
    )


def test_a_screened_character_that_is_the_closest_may_be_targeted_ties_included():
    assert may_target(character(), Situation((friends(shooter=30),), distance_cm=29)).allowed
    tie = may_target(character(), Situation((friends(shooter=30),), distance_cm=30))
    assert tie.allowed is True
    assert [m.value for m in tie.modifiers] == [-1]


@pytest.mark.parametrize(("distance", "screened"), [(12, True), (12.5, False), (0, True)])
def test_proximity_is_twelve_centimetres_or_less(distance, screened):
    near = friends(distance=distance, shooter=20)
    assert len(screening_units(character(), Situation((near,)))) == int(screened)
    assert may_target(character(), Situation((near,), distance_cm=40)).allowed is not screened


def test_four_models_do_not_screen_but_champion_and_joined_character_count_to_five():
    four = friends(models=4)
    assert screening_units(character(), Situation((four,))) == ()
    captain = character("Captain Hals", unit="Swordsmen")
    five = UnitOnTable(
        "Swordsmen",
        "Empire",
        rank_and_file=3,
        champions=1,
        characters=(captain,),
        distance_cm=8,
        shooter_distance_cm=30,
    )
    assert five.models_at_least(2) == 5
    assert screening_units(character(), Situation((five,))) == (five,)
    assert may_target(character(), Situation((five,), distance_cm=40)).allowed is False


def test_enemy_units_do_not_screen():
    enemies = UnitOnTable("Orcs", "Orcs", rank_and_file=20, distance_cm=5, shooter_distance_cm=20)
    assert may_target(character(), Situation((enemies,), distance_cm=40)).allowed is True


@pytest.mark.parametrize(
    ("char_type", "unit_type", "screened"),
    [
        ("infantry", "swarm", False),
        ("infantry", "infantry", True),
        ("infantry", "cavalry", True),
        ("cavalry", "infantry", False),
        ("cavalry", "war_beast", True),  # the same rung
        ("cavalry", "monstrous_infantry", True),
        ("monstrous_cavalry", "cavalry", False),
        ("chariot", "war_machine", False),
        ("monster", "chariot", False),
    ],
)
def test_the_size_ladder_decides_who_screens(char_type, unit_type, screened):
    lone = character(troop_type=char_type)
    near = friends(troop_type=unit_type)
    assert (screening_units(lone, Situation((near,))) != ()) is screened


def test_a_large_target_flag_screens_like_the_top_rung():
    lone = character(troop_type="chariot", large_target=True)
    assert screening_units(lone, Situation((friends(troop_type="chariot"),))) == ()
    big = friends(troop_type="chariot", large_target=True)
    assert screening_units(lone, Situation((big,))) == (big,)


def test_engaged_and_unseen_units_are_not_legal_targets_so_the_character_is_closest():
    engaged = friends(shooter=20, engaged=True)
    unseen = UnitOnTable(
        "Halberdiers",
        "Empire",
        rank_and_file=10,
        distance_cm=6,
        shooter_distance_cm=15,
        visible=False,
    )
    situation = Situation((engaged, unseen), distance_cm=40)
    ruling = may_target(character(), situation)
    assert ruling.allowed is True
    assert str(ruling.reason) == (
        "screened by Swordsmen, Halberdiers but no other legal target there: it is the closest"
    )
    into_combat = Situation((engaged, unseen), distance_cm=40, shoots_into_combat=True)
    assert may_target(character(), into_combat).allowed is False


def test_the_seed_reading_looks_only_within_twelve_cm_the_other_reading_everywhere():
    screen = friends(distance=10, shooter=50)
    far = UnitOnTable(
        "Spearmen", "Empire", rank_and_file=10, distance_cm=40, shooter_distance_cm=25
    )
    near_reading = Situation((screen, far), distance_cm=45)
    assert may_target(character(), near_reading).allowed is True
    battlefield = Situation((screen, far), distance_cm=45, reading="battlefield")
    ruling = may_target(character(), battlefield)
    assert ruling.allowed is False
    assert str(ruling.reason).endswith("Anselm at 45 cm, Spearmen at 25 cm (whole battlefield)")


def test_missing_distances_are_asked_for():
    with pytest.raises(GmkitError, match="give the distance"):
        may_target(character(), Situation((friends(),)))
    no_shooter = friends(shooter=None)
    with pytest.raises(GmkitError, match="shooter's distance to Swordsmen"):
        may_target(character(), Situation((no_shooter,), distance_cm=10))


# --- Templates and spells ----------------------------------------------------------------


@pytest.mark.parametrize("attack", ["template", "cannon", "breath", "template_spell"])
def test_templates_target_points_so_a_screened_character_is_fair_game(attack):
    ruling = may_target(character(), Situation((friends(),), distance_cm=60), attack)
    assert ruling.allowed is True
    assert str(ruling.reason).endswith("targets a point on the table, not a model: no restriction")


def test_magic_missiles_obey_proximity_other_spells_do_not():
    situation = Situation((friends(shooter=30),), distance_cm=35)
    assert may_target(character(), situation, "magic_missile").allowed is False
    spell = may_target(character(), situation, "spell")
    assert spell.allowed is True
    assert "not a magic missile" in str(spell.reason)
    assert may_target(character(), Situation(in_sight=False), "spell").allowed is False


def test_unknown_attack_kind_is_refused_naming_the_known():
    with pytest.raises(GmkitError, match="known: missile, magic_missile, spell"):
        may_target(character(), Situation(), "lightning")


def test_a_target_out_of_sight_or_in_combat_may_not_be_targeted():
    assert str(may_target(character(), Situation(in_sight=False)).reason) == (
        "Anselm is out of sight"
    )
    assert may_target(character(), Situation(engaged=True)).allowed is False
    assert may_target(character(), Situation(engaged=True, shoots_into_combat=True)).allowed


# --- Modifiers a target brings ------------------------------------------------------------


def test_target_modifiers_lone_infantry_mounted_large_and_in_a_unit():
    assert [m.value for m in target_modifiers(character())] == [-1]
    assert target_modifiers(character(troop_type="cavalry")) == ()
    dragon = character(troop_type="monster", mount="dragon")
    assert [(str(m.source), m.value) for m in target_modifiers(dragon)] == [("Large target", 1)]
    assert target_modifiers(character(unit="Swordsmen")) == ()


# --- Characters inside units --------------------------------------------------------------


def test_a_character_larger_than_its_unit_is_always_a_target():
    knight = character("Sir Aldo", troop_type="cavalry", unit="Swordsmen")
    unit = friends(models=20, characters=(knight,))
    ruling = may_target(knight, Situation((unit,), distance_cm=30))
    assert ruling.allowed is True
    assert str(ruling.reason) == "Sir Aldo (size 3) is larger than Swordsmen (2)"
    dragon = character("Lord", troop_type="monster", mount="dragon", unit="Swordsmen")
    ruling = may_target(dragon, Situation((friends(characters=(dragon,)),)))
    assert ruling.allowed is True
    assert [m.value for m in ruling.modifiers] == [1]


def test_a_character_not_larger_than_its_unit_is_never_designated():
    captain = character("Captain Hals", unit="Swordsmen")
    big = may_target(captain, Situation((friends(models=4, champions=1, characters=(captain,)),)))
    assert big.allowed is False
    assert str(big.reason).endswith("its 5 rank-and-file models take every hit")
    small = may_target(captain, Situation((friends(models=3, characters=(captain,)),)))
    assert small.allowed is False
    assert str(small.reason).endswith("with 3 rank-and-file models its hits are shared")


def test_rank_and_file_targets_are_the_unit_and_a_missing_unit_is_asked_for():
    trooper = WFB6Character.build(name="Swordsman", side="Empire", role="rank and file", unit="X")
    assert may_target(trooper, Situation()).allowed is True
    with pytest.raises(GmkitError, match="list it in the situation"):
        may_target(character(unit="Nowhere"), Situation())
