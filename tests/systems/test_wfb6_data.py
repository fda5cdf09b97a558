"""WFB 6e: the registry, the module example, the data tables and a GM's overrides of them."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
import yaml

from gmkit.errors import GmkitError
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.systems import system, wfb6
from gmkit.systems._tables import table
from gmkit.systems.wfb6 import SYSTEM, Situation, UnitOnTable, shot_modifiers
from gmkit.systems.wfb6._data import shooting_rules, targeting_rules

from ..shared.wfb6 import BOW


def test_registry_and_protocol():
    assert system("wfb6") is SYSTEM
    assert SYSTEM.game == "wfb6"
    assert SYSTEM.may_target is wfb6.may_target


def test_the_module_example_runs():
    result = doctest.testmod(wfb6)
    assert (result.failed, result.attempted) == (0, 13)


def test_the_packaged_tables():
    targeting = targeting_rules()
    assert (targeting.proximity_cm, targeting.screen_models, targeting.unit_models) == (12, 5, 5)
    assert (targeting.look_out_sir.needed, targeting.look_out_sir.troops) == (2, 5)
    assert targeting.closest_reading == "near_character"
    assert targeting.kind("magic_missile").proximity is True
    assert targeting.kind("spell").proximity is False
    assert {k for k, v in targeting.attack_kinds.items() if v.look_out_sir} == {
        "template",
        "cannon",
        "breath",
        "template_spell",
    }
    shooting = shooting_rules()
    assert {e.id: e.value for e in shooting.to_hit} == {
        "long_range": -1,
        "moved": -1,
        "stand_and_shoot": -1,
        "soft_cover": -1,
        "hard_cover": -2,
        "multiple_shots": -1,
        "lone_infantry_character": -1,
        "large_target": 1,
        "gm": 0,
    }
    weapon = WFB6Character.build(name="x", weapons=[BOW]).weapons[0]
    assert shooting.save_modifiers(3, weapon) == ()
    assert [m.value for m in shooting.save_modifiers(7, weapon)] == [-4]


def test_weapon_special_rules_choose_the_kind_of_attack():
    rules = targeting_rules()
    sheet = WFB6Character.build(
        name="x",
        weapons=[BOW, {"name": "gun", "range_cm": 100, "strength": 10, "special": ["Cannon"]}],
    )
    bow, gun = sheet.weapons
    assert rules.kind_of(bow).id == "missile"
    assert rules.kind_of(gun).id == "cannon"
    assert rules.kind_of(bow, "magic_missile").id == "magic_missile"
    assert rules.kind_of(gun, "single").id == "cannon"


def test_a_gm_may_widen_proximity_in_data(gm_data: Path):
    packaged = table("wfb6", "targeting")
    gm_data.joinpath("targeting.yaml").write_text(yaml.safe_dump({**packaged, "proximity_cm": 20}))
    table.cache_clear()
    priest = WFB6Character.build(name="Anselm", side="Empire")
    near = UnitOnTable(
        "Swordsmen", "Empire", rank_and_file=15, distance_cm=15, shooter_distance_cm=30
    )
    assert SYSTEM.may_target(priest, Situation((near,), distance_cm=40)).allowed is False


def test_a_broken_gm_table_is_refused_naming_the_field(gm_data: Path):
    gm_data.joinpath("shooting.yaml").write_text("to_hit: []\nsave_by_strength: nope\n")
    with pytest.raises(GmkitError, match=r"wfb6 table shooting\.yaml: save_by_strength"):
        shot_modifiers(WFB6Character.build(name="x", weapons=[BOW]).weapons[0])
