"""Deathwatch's SYSTEM: the registry, initiative with Unnatural Agility, an attack."""

from __future__ import annotations

from gmkit.dice import EnteredDice
from gmkit.sheets.deathwatch import DeathwatchCharacter
from gmkit.systems import system
from gmkit.systems.base import AttackRequest
from gmkit.systems.deathwatch import SYSTEM
from gmkit.systems.imperial.setup import AttackSetup

PROFILE = {
    "WS": 44,
    "BS": 47,
    "S": 45,
    "T": 43,
    "Ag": 40,
    "Int": 38,
    "Per": 41,
    "WP": 42,
    "Fel": 35,
}
BOLT_PISTOL = {
    "name": "Bolt Pistol", "weapon_class": "pistol", "range": 30, "rof": "S/3/-",
    "damage": "2d10+5", "damage_type": "X", "pen": 5, "clip": 14, "reload": "Full",
    "qualities": ["Tearing"],
}  # fmt: skip


def marine(name: str, **fields: object) -> DeathwatchCharacter:
    return DeathwatchCharacter.build(name=name, characteristics=PROFILE, wounds=20, **fields)


def test_the_registry_gives_this_system():
    assert system("deathwatch") is SYSTEM
    assert SYSTEM.game == "deathwatch"


def test_initiative_uses_the_unnatural_agility_bonus():
    swift = marine("Swift", unnatural={"Ag": 2})  # AgB 4 x2 = 8
    plain = marine("Plain")
    result = SYSTEM.initiative([plain, swift], EnteredDice([9, 2]))
    assert [(e.name, e.score) for e in result.order] == [("Plain", 13), ("Swift", 10)]
    assert result.order[1].base == 8


def test_a_bolt_pistol_shot_with_degrees_tearing_and_power_armour():
    brother = marine("Castor", weapons=[BOLT_PISTOL])
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
