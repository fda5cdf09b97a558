"""WFB 6e hits inside units: all on the rank and file, shared in small units (the seed's three
knights and two characters taking seven hits), and "Look out, Sir!"."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice, SeededDice
from gmkit.errors import DiceValueError, GmkitError
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.systems.wfb6 import UnitOnTable, allocate_hits, look_out_sir


def bretonnian(name: str, role: str = "character") -> WFB6Character:
    return WFB6Character.build(
        name=name,
        side="Bretonnia",
        role=role,
        unit="Knights of the Realm",
        troop_type="cavalry",
        mount="warhorse",
    )


KNIGHT = bretonnian("Knight", "rank and file")
LORD = bretonnian("Lord Gilles")
PALADIN = bretonnian("Paladin Roland")
SEED_UNIT = UnitOnTable.of([KNIGHT, LORD, PALADIN], rank_and_file=3)


def test_the_seed_example_three_knights_two_characters_seven_hits():
    dice = EnteredDice([4, 1])  # d5 among the five, then d4 among the four left
    allocation = allocate_hits(SEED_UNIT, 7, dice)
    assert allocation.table == {
        "Knights of the Realm (rank and file 1)": 2,
        "Knights of the Realm (rank and file 2)": 1,
        "Knights of the Realm (rank and file 3)": 1,
        "Lord Gilles": 2,
        "Paladin Roland": 1,
    }
    assert allocation.hits_on("Lord Gilles") == 2
    assert allocation.hits_on("Knights of the Realm") == 4  # the rank and file together
    assert [(roll.sides, roll.value) for roll in allocation.rolls] == [(5, 4), (4, 1)]
    assert str(allocation.steps[0].outcome) == "1 on each model, 2 left over"
    assert str(allocation.steps[1].detail) == (
        "d5=4 among 1=Knights of the Realm (rank and file 1), "
        "2=Knights of the Realm (rank and file 2), 3=Knights of the Realm (rank and file 3), "
        "4=Lord Gilles, 5=Paladin Roland"
    )
    assert str(allocation.steps[2].outcome) == "on Knights of the Realm (rank and file 1)"
    assert dice.pending == ()


def test_the_excess_goes_among_all_members_not_only_the_survivors_of_the_even_share():
    # A model that already took its even share can take an excess hit too (the text's rule).
    allocation = allocate_hits(SEED_UNIT, 6, EnteredDice([5]))
    assert allocation.table["Paladin Roland"] == 2
    assert sum(allocation.table.values()) == 6


def test_left_over_hits_may_fall_twice_on_one_model_when_asked():
    allocation = allocate_hits(SEED_UNIT, 7, EnteredDice([4, 4]), distinct=False)
    assert allocation.table["Lord Gilles"] == 3
    assert [roll.sides for roll in allocation.rolls] == [5, 5]


def test_fewer_hits_than_models_are_assigned_at_random():
    allocation = allocate_hits(SEED_UNIT, 2, EnteredDice([5, 2]))
    assert allocation.table == {
        "Knights of the Realm (rank and file 1)": 0,
        "Knights of the Realm (rank and file 2)": 1,
        "Knights of the Realm (rank and file 3)": 0,
        "Lord Gilles": 0,
        "Paladin Roland": 1,
    }


def test_seeded_allocation_is_reproducible():
    first = allocate_hits(SEED_UNIT, 8, SeededDice(6))
    again = allocate_hits(SEED_UNIT, 8, SeededDice(6))
    assert first.table == again.table
    # d5=5 the paladin, d4=1 the first knight, d3=2 the third knight (of the three left)
    assert [(roll.sides, roll.value) for roll in first.rolls] == [(5, 5), (4, 1), (3, 2)]
    assert first.table == {
        "Knights of the Realm (rank and file 1)": 2,
        "Knights of the Realm (rank and file 2)": 1,
        "Knights of the Realm (rank and file 3)": 2,
        "Lord Gilles": 1,
        "Paladin Roland": 2,
    }


def test_five_rank_and_file_champion_included_take_every_hit_and_roll_nothing():
    unit = UnitOnTable("Knights", "Bretonnia", rank_and_file=4, champions=1, characters=(LORD,))
    dice = EnteredDice()
    allocation = allocate_hits(unit, 9, dice)
    assert allocation.table == {"Knights (rank and file)": 9}
    assert allocation.hits_on("Lord Gilles") == 0
    assert dice.history == []
    assert str(allocation.steps[0].detail).startswith("5 rank-and-file models")


def test_a_small_unit_shares_with_its_champion_four_models_and_a_character():
    unit = UnitOnTable("Knights", "Bretonnia", rank_and_file=3, champions=1, characters=(LORD,))
    allocation = allocate_hits(unit, 5, EnteredDice())
    assert list(allocation.table.values()) == [1, 1, 1, 1, 1]
    assert "Knights (champion 1)" in allocation.table


def test_a_larger_character_designated_takes_all_the_hits():
    infantry = UnitOnTable("Men-at-arms", "Bretonnia", rank_and_file=3, characters=(LORD,))
    allocation = allocate_hits(infantry, 3, EnteredDice(), target=LORD)
    assert allocation.table == {"Lord Gilles": 3}
    shot_at_the_unit = allocate_hits(infantry, 4, EnteredDice())
    assert shot_at_the_unit.table["Lord Gilles"] == 1


def test_allocation_refuses_nonsense_and_asks_for_missing_dice():
    with pytest.raises(ValueError, match="must not be negative"):
        allocate_hits(SEED_UNIT, -1, EnteredDice())
    with pytest.raises(GmkitError, match="no models left"):
        allocate_hits(UnitOnTable("Gone", "Bretonnia"), 1, EnteredDice())
    with pytest.raises(DiceValueError, match="left-over hit 1 of 2: roll a d5"):
        allocate_hits(SEED_UNIT, 7, EnteredDice())
    assert allocate_hits(SEED_UNIT, 0, EnteredDice()).table == dict.fromkeys(
        allocate_hits(SEED_UNIT, 5, EnteredDice()).table, 0
    )


# --- "Look out, Sir!" ---------------------------------------------------------------------

CAPTAIN = WFB6Character.build(name="Captain Hals", side="Empire", unit="Swordsmen")
SWORDSMEN = UnitOnTable("Swordsmen", "Empire", rank_and_file=5, characters=(CAPTAIN,))


@pytest.mark.parametrize(
    ("roll", "dodged", "hit_on"), [(1, False, "Captain Hals"), (2, True, "Swordsmen")]
)
def test_look_out_sir_two_plus_passes_the_hit_a_one_takes_it(roll, dodged, hit_on):
    check = look_out_sir(CAPTAIN, SWORDSMEN, EnteredDice([roll]), "template")
    assert (check.eligible, check.dodged, check.hit_on) == (True, dodged, hit_on)
    assert [r.value for r in check.rolls] == [roll]
    assert check.steps[0].target == 2
    if dodged:
        assert str(check.steps[0].detail) == (
            "5 models of its size or larger in Swordsmen; 2 against 2+: success; the hit goes "
            "to the rank and file even beyond the unit's number of models"
        )


@pytest.mark.parametrize("attack", ["template", "cannon", "breath", "template_spell"])
def test_look_out_sir_applies_to_templates_cannon_breath_and_template_spells(attack):
    assert look_out_sir(CAPTAIN, SWORDSMEN, EnteredDice([6]), attack).dodged is True


@pytest.mark.parametrize("attack", ["missile", "magic_missile", "spell"])
def test_normal_shooting_and_spells_allow_no_look_out_sir_unless_the_spell_says_so(attack):
    dice = EnteredDice([6])
    check = look_out_sir(CAPTAIN, SWORDSMEN, dice, attack)
    assert (check.eligible, check.dodged, check.hit_on) == (False, False, "Captain Hals")
    assert dice.history == []
    assert look_out_sir(CAPTAIN, SWORDSMEN, dice, attack, spell_allows=True).dodged is True


def test_characters_do_not_count_towards_five_the_command_group_does():
    four = UnitOnTable("Swordsmen", "Empire", rank_and_file=4, characters=(CAPTAIN, LORD))
    check = look_out_sir(CAPTAIN, four, EnteredDice([6]))
    assert check.eligible is False
    assert str(check.steps[0].detail).endswith("(characters do not count); it needs 5")
    with_champion = UnitOnTable("Swordsmen", "Empire", rank_and_file=4, champions=1)
    assert look_out_sir(CAPTAIN, with_champion, EnteredDice([3])).dodged is True


def test_a_champion_may_take_it_a_trooper_or_lone_character_may_not():
    champion = WFB6Character.build(name="Brandt", side="Empire", role="champion", unit="Swordsmen")
    assert look_out_sir(champion, SWORDSMEN, EnteredDice([4])).dodged is True
    trooper = champion.edit(role="rank and file")
    assert look_out_sir(trooper, SWORDSMEN, EnteredDice([4])).eligible is False
    lone = CAPTAIN.edit(unit="")
    assert (
        str(look_out_sir(lone, None, EnteredDice([4])).steps[0].detail)
        == "Captain Hals is not in a unit"
    )


def test_a_model_larger_than_its_unit_may_not_take_it():
    knight = bretonnian("Sir Aldo").edit(unit="Swordsmen", side="Empire")
    infantry = UnitOnTable("Swordsmen", "Empire", rank_and_file=20, characters=(knight,))
    check = look_out_sir(knight, infantry, EnteredDice([6]))
    assert check.eligible is False
    assert str(check.steps[0].detail) == "Sir Aldo (size 3) is larger than Swordsmen (2)"
    cavalry = UnitOnTable("Knights", "Bretonnia", rank_and_file=5, troop_type="cavalry")
    assert look_out_sir(CAPTAIN.edit(unit="Knights"), cavalry, EnteredDice([2])).dodged is True
