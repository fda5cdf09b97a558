"""Dark Heresy's SYSTEM: the registry, attacks, initiative and 001's group initiative."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import GmkitError
from gmkit.sheets.dark_heresy import DarkHeresyCharacter
from gmkit.sheets.deathwatch import DeathwatchCharacter
from gmkit.systems import system
from gmkit.systems.base import AttackRequest, GameSystem
from gmkit.systems.dark_heresy import SYSTEM, group_initiative
from gmkit.systems.imperial.setup import AttackSetup

PROFILE = {
    "WS": 40,
    "BS": 40,
    "S": 35,
    "T": 35,
    "Ag": 30,
    "Int": 30,
    "Per": 30,
    "WP": 30,
    "Fel": 30,
}
LASPISTOL = {
    "name": "Laspistol", "weapon_class": "pistol", "range": 30, "rof": "S/2/-",
    "damage": "1d10+2", "damage_type": "E", "clip": 30, "reload": "Half",
}  # fmt: skip


def acolyte(name: str, agility: int = 30, **fields: object) -> DarkHeresyCharacter:
    chars = {**PROFILE, "Ag": agility}
    return DarkHeresyCharacter.build(name=name, characteristics=chars, wounds=10, **fields)


def test_the_registry_gives_this_system():
    found: GameSystem = system("dark_heresy")
    assert found is SYSTEM
    assert SYSTEM.game == "dark_heresy"


def test_the_worked_example_of_001_through_the_system():
    shooter = acolyte("Acolyte", weapons=[LASPISTOL])
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


def test_sheets_of_another_game_are_refused():
    marine = DeathwatchCharacter.build(name="Castor", characteristics=PROFILE, wounds=20)
    shooter = acolyte("Acolyte", weapons=[LASPISTOL])
    with pytest.raises(GmkitError, match="deathwatch sheet"):
        SYSTEM.resolve_attack(AttackRequest(shooter, "Laspistol", marine), EnteredDice([18]))


def test_initiative_is_a_d10_plus_agility_bonus_highest_first():
    result = SYSTEM.initiative([acolyte("Slow", 30), acolyte("Quick", 45)], EnteredDice([7, 3]))
    assert [(e.name, e.score) for e in result.order] == [("Slow", 10), ("Quick", 7)]
    assert result.steps[0].detail == "d10 7 + AgB 3"


def test_initiative_ties_go_to_the_higher_bonus_then_a_roll_off():
    result = SYSTEM.initiative([acolyte("A", 30), acolyte("B", 40)], EnteredDice([5, 4]))
    assert result.names == ["B", "A"]  # 8 each: AgB 4 beats 3
    tied = SYSTEM.initiative([acolyte("A"), acolyte("B")], EnteredDice([5, 5, 2, 9]))
    assert tied.names == ["B", "A"]
    assert [roll.value for roll in tied.roll_offs] == [2, 9]


def test_initiative_refuses_two_combatants_of_one_name():
    with pytest.raises(GmkitError, match="share a name"):
        SYSTEM.initiative([acolyte("A"), acolyte("A")], EnteredDice([1, 2]))


def test_group_initiative_one_die_per_group_with_its_best_agility_bonus():
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


def test_clearing_a_jam_through_the_system():
    shooter = acolyte("Acolyte", weapons=[{**LASPISTOL, "group": "Las", "loaded": 12}])
    cleared = SYSTEM.clear_jam(shooter, "Laspistol", EnteredDice([12]))
    assert cleared.success
    assert [e.amount for e in cleared.effects if e.kind == "ammo"] == [12]
