"""Dark Heresy's SYSTEM: the registry, attacks, initiative and 001's group initiative."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import GmkitError
from gmkit.sheets._dark_heresy import DarkHeresyCharacter
from gmkit.systems import system
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems.base import AttackRequest, Effect, GameSystem
from gmkit.systems.dark_heresy import SYSTEM, group_initiative


@pytest.fixture(scope="session")
def acolyte(acolyte):
    """Ten wounds, and the Agility second: ``acolyte("Quick", 45)``."""

    def make(name: str, agility: int = 30, **fields: object) -> DarkHeresyCharacter:
        return acolyte(name, chars={"Ag": agility}, wounds=10, **fields)

    return make


def test_the_registry_gives_this_system():
    found: GameSystem = system("dark_heresy")
    assert found is SYSTEM
    assert SYSTEM.game == "dark_heresy"


def test_the_worked_example_of_001_through_the_system(acolyte):
    shooter = acolyte("Acolyte", weapons=["Laspistol"])
    heretic = acolyte("Heretic", armour_points={"right_leg": 5})
    setup = AttackSetup("BS", (), "single", rounds=1, jam_from=96)
    result = SYSTEM.resolve_attack(
        AttackRequest(shooter, "Laspistol", heretic), EnteredDice([18, 8]), setup
    )
    assert [(e.kind, e.amount, e.location) for e in result.effects] == [
        ("ammo", 1, None),
        ("damage", 2, "right_leg"),
    ]
    after = SYSTEM.apply_effects(heretic, result.effects)
    assert after.sheet.damage == 2


def test_sheets_of_another_game_are_refused(acolyte, marine):
    brother = marine("Castor")
    shooter = acolyte("Acolyte", weapons=["Laspistol"])
    with pytest.raises(GmkitError, match="deathwatch sheet"):
        SYSTEM.resolve_attack(AttackRequest(shooter, "Laspistol", brother), EnteredDice([18]))


def test_initiative_is_a_d10_plus_agility_bonus_highest_first(acolyte):
    result = SYSTEM.initiative([acolyte("Slow", 30), acolyte("Quick", 45)], EnteredDice([7, 3]))
    assert [(e.name, e.score) for e in result.order] == [("Slow", 10), ("Quick", 7)]
    assert str(result.steps[0].detail) == "d10 7 + AgB 3"


def test_initiative_ties_go_to_the_higher_bonus_then_a_roll_off(acolyte):
    result = SYSTEM.initiative([acolyte("A", 30), acolyte("B", 40)], EnteredDice([5, 4]))
    assert result.names == ["B", "A"]  # 8 each: AgB 4 beats 3
    tied = SYSTEM.initiative([acolyte("A"), acolyte("B")], EnteredDice([5, 5, 2, 9]))
    assert tied.names == ["B", "A"]
    assert [roll.value for roll in tied.roll_offs] == [2, 9]


def test_initiative_refuses_two_combatants_of_one_name(acolyte):
    with pytest.raises(GmkitError, match="share a name"):
        SYSTEM.initiative([acolyte("A"), acolyte("A")], EnteredDice([1, 2]))


def test_group_initiative_one_die_per_group_with_its_best_agility_bonus(acolyte):
    groups = {
        "Acolytes": [acolyte("Vex", 30), acolyte("Mira", 45)],
        "Cultists": [acolyte("Cultist 1", 20), acolyte("Cultist 2", 25)],
    }
    result, members = group_initiative(groups, EnteredDice([2, 6]))
    assert [(e.name, e.score) for e in result.order] == [("Cultists", 8), ("Acolytes", 6)]
    assert members["Acolytes"] == ("Vex", "Mira")
    assert (
        SYSTEM.group_initiative(groups, EnteredDice([9, 1])).__getitem__(0).names[0] == "Acolytes"
    )


def test_clearing_a_jam_through_the_system(acolyte, weapon):
    shooter = acolyte("Acolyte", weapons=[weapon("Laspistol", loaded=12)])
    cleared = SYSTEM.clear_jam(shooter, "Laspistol", EnteredDice([12]))
    assert cleared.success
    assert [e.amount for e in cleared.effects if e.kind == "ammo"] == [12]


# --- apply_effect: what the encounter calls for each effect ------------------------------------


def applied(sheet, effect: Effect):
    """``SYSTEM.apply_effect`` for an effect that is the sheet's business."""
    found = SYSTEM.apply_effect(sheet, effect)
    assert found is not None
    return found


def test_apply_effect_changes_the_sheet_it_is_given_whatever_the_target_says(acolyte):
    heretic = acolyte("Heretic")
    sheet, follow = applied(heretic, Effect("damage", "c2", 4, "body", "Energy"))
    assert (sheet.name, sheet.damage, follow) == ("Heretic", 4, ())
    assert heretic.damage == 0  # a new sheet; the old one is untouched


@pytest.mark.parametrize(
    "effect",
    [
        Effect("condition", "c2", condition="stunned", rounds=1),
        Effect("remove_condition", "c2", condition="prone"),
        Effect("ammo", "c2", 1, weapon="Laspistol"),
        Effect("jam", "c2", weapon="Laspistol"),
        Effect("reaction", "c2", condition="dodge"),
        Effect("cover", "c2", 1, "body"),
        Effect("pinned", "c2", condition="pinned"),
        Effect("note", "c2", note="moved 1 m"),
    ],
)
def test_apply_effect_leaves_the_encounters_effects_to_the_encounter(acolyte, effect):
    assert SYSTEM.apply_effect(acolyte("Heretic", weapons=["Laspistol"]), effect) is None


def test_apply_effect_returns_what_follows_addressed_like_the_effect(acolyte):
    tired, follow = applied(acolyte("Heretic", fatigue=3), Effect("fatigue", "c2", 1))  # TB 3
    assert tired.fatigue == 4
    assert [(e.kind, e.target, e.condition) for e in follow] == [("condition", "c2", "unconscious")]
    dying = acolyte("Heretic", damage=10, critical_damage=9)
    _, follow = applied(dying, Effect("critical", "c2", 3, "body", "Energy"))
    assert [(e.target, e.condition) for e in follow] == [("c2", "dead")]  # past the tables' 10
    # 10 critical damage: the seed lost the table (a placeholder row), so the GM is asked
    _, row = applied(dying, Effect("critical", "c2", 1, "head", "Energy"))
    assert [(e.kind, e.target) for e in row] == [("note", "c2")]
    assert str(row[0].note) == (
        "10 critical damage (Energy, head): no critical table provided: the GM decides the effect"
    )
    assert not any(e.kind == "condition" for e in row)  # a placeholder never applies
