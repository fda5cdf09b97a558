"""Ammunition through the encounter: the rounds each shot fires are counted, the clip runs dry
(the next shot is refused, naming the reload), and Reload fills it again (Dark Heresy, 001)."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.encounter._effects import with_rounds_spent
from gmkit.errors import RulesError
from gmkit.sheets._dark_heresy import DarkHeresyCharacter

PROFILE = dict(WS=35, BS=40, S=30, T=30, Ag=30, Int=30, Per=30, WP=30, Fel=30)
PISTOL = dict(
    name="Stub Revolver",
    weapon_class="pistol",
    range=30,
    rof="S/-/-",
    damage="1d10+3",
    damage_type="I",
    pen=0,
    clip=2,
    reload="Half",
)


@pytest.fixture
def fight() -> Encounter:
    fight = Encounter("dark_heresy")
    shooter = DarkHeresyCharacter.build(name="Vex", characteristics=PROFILE, wounds=10)
    fight.add(shooter.edit(weapons=[PISTOL]), ident="vex")
    fight.add(DarkHeresyCharacter.build(name="Cultist", characteristics=PROFILE, wounds=10))
    fight.set_initiative("vex", 20)
    fight.set_initiative("cultist", 10)
    fight.start()
    return fight


def shoot(fight: Encounter, dice: list[int]) -> None:
    fight.attack("vex", "Stub Revolver", "cultist", EnteredDice(dice), distance=10)


def test_the_sheet_the_rules_see_holds_what_is_left_in_the_clip(fight):
    sheet = fight.combatant("vex").sheet
    assert with_rounds_spent(sheet, {}) is sheet
    emptied = with_rounds_spent(sheet, {"ammo spent: Stub Revolver": 5})
    assert emptied.weapons[0].loaded == 0  # never below empty
    assert sheet.weapons[0].loaded == 2  # the sheet itself is untouched


def test_a_clip_runs_dry_and_reload_fills_it(fight):
    shoot(fight, [90])  # a miss still fires its round
    shoot(fight, [90])
    assert fight.combatant("vex").counters == {"ammo spent: Stub Revolver": 2}
    request = fight.attack_request("vex", "Stub Revolver", "cultist", distance=10)
    assert request.attacker.weapons[0].loaded == 0
    with pytest.raises(RulesError, match="Stub Revolver"):
        shoot(fight, [10, 5])
    fight.next_turn()
    fight.next_turn()  # Vex's turn again
    result = fight.act("vex", "reload", weapon="Stub Revolver", as_type="half")
    assert "Stub Revolver" in str(result.steps[0])
    assert fight.combatant("vex").counters.get("ammo spent: Stub Revolver", 0) == 0
    shoot(fight, [10, 5])  # loaded again: the shot is taken
    assert fight.combatant("vex").counters["ammo spent: Stub Revolver"] == 1
