"""Deathwatch's SYSTEM: the registry, initiative with Unnatural Agility, an attack."""

from __future__ import annotations

from gmkit.dice import EnteredDice
from gmkit.systems import system
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems.base import AttackRequest, Effect
from gmkit.systems.deathwatch import SYSTEM


def test_the_registry_gives_this_system():
    assert system("deathwatch") is SYSTEM
    assert SYSTEM.game == "deathwatch"


def test_initiative_uses_the_unnatural_agility_bonus(marine):
    swift = marine("Swift", unnatural={"Ag": 2})  # AgB 4 x2 = 8
    plain = marine("Plain")
    result = SYSTEM.initiative([plain, swift], EnteredDice([9, 2]))
    assert [(e.name, e.score) for e in result.order] == [("Plain", 13), ("Swift", 10)]
    assert result.order[1].base == 8


def test_a_bolt_pistol_shot_with_degrees_tearing_and_power_armour(marine):
    brother = marine("Castor", weapons=["Bolt Pistol"])
    traitor = marine("Traitor", armour_points={"all": 8}, unnatural={"T": 2})  # TB 8
    setup = AttackSetup("BS", (), "single", rounds=1, jam_from=96)
    # 17 vs 47: 3 degrees; 17 -> 71: right leg; Tearing 3 dice keep 2: 2, 6, 1 -> 2 reads 3
    source = EnteredDice([17, 2, 6, 1])
    result = SYSTEM.resolve_attack(AttackRequest(brother, "Bolt Pistol", traitor), source, setup)
    assert source.pending == ()
    # 3 + 6 + 5 = 14 - (AP 8 - Pen 5 = 3) - TB 8 = 3
    assert [(e.kind, e.amount, e.location) for e in result.effects] == [
        ("ammo", 1, None),
        ("damage", 3, "right_leg"),
    ]
    assert SYSTEM.apply_effects(traitor, result.effects).sheet.damage == 3


def test_apply_effect_damage_past_wounds_calls_the_critical_table(marine):
    brother = marine("Castor", damage=20)  # at full wounds: the rest is critical damage
    found = SYSTEM.apply_effect(brother, Effect("damage", "c1", 2, "head", "Impact"))
    assert found is not None
    sheet, follow = found
    assert (sheet.damage, sheet.critical_damage) == (20, 2)
    # 004 lost the table: no placeholder row applies; the GM is asked, addressed to the id
    prompt = follow[0]
    assert (prompt.kind, prompt.target, prompt.amount, prompt.location, prompt.damage_type) == (
        "note",
        "c1",
        2,
        "head",
        "Impact",
    )
    assert not any(e.kind == "condition" for e in follow)
    assert {e.target for e in follow} == {"c1"}
    assert SYSTEM.apply_effect(brother, Effect("ammo", "c1", 1, weapon="Bolter")) is None


def test_apply_effect_on_a_horde_lowers_its_magnitude(marine):
    mob = marine("Ork mob", wounds=12, tier="troop", horde={"magnitude_max": 30})
    found = SYSTEM.apply_effect(mob, Effect("magnitude", "c3", 4))
    assert found is not None
    assert found[0].horde is not None
    assert (found[0].horde.magnitude, found[1]) == (26, ())
