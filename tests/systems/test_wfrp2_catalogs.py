"""WFRP 2e actions, circumstances and qualities are data (seed 002), and a GM can replace them."""

from __future__ import annotations

import pytest
import yaml

from gmkit.errors import GmkitError
from gmkit.sheets._wfrp2 import QUALITIES
from gmkit.systems._tables import table
from gmkit.systems.wfrp2 import actions, circumstances, qualities, turn_problems
from gmkit.systems.wfrp2._catalogs import Grant


@pytest.fixture
def fresh_tables():
    table.cache_clear()
    yield
    table.cache_clear()


def test_every_action_of_002_is_in_the_catalog_with_its_type():
    types = {key: item.type for key, item in actions().items()}
    assert types == {
        "cautious_attack": "full",
        "charge_attack": "full",
        "swift_attack": "full",
        "all_out_attack": "full",
        "run": "full",
        "defensive_stance": "full",
        "disengage": "full",
        "jump": "full",
        "aim": "half",
        "standard_attack": "half",
        "move": "half",
        "ready": "half",
        "feint": "half",
        "manoeuvre": "half",
        "stand_mount": "half",
        "parry_stance": "half",
        "delay": "half",
        "cast": "varies",
        "reload": "varies",
        "use_skill": "varies",
        "bonus_attack": "free",
    }


def test_the_attack_actions_carry_002s_modifiers_and_attacks():
    found = {
        key: (item.attack, item.attacks, dict(item.modifiers))
        for key, item in actions().items()
        if item.is_attack
    }
    assert found == {
        "cautious_attack": ("melee", 1, {"WS": -10}),
        "charge_attack": ("melee", 1, {"WS": 10}),
        "swift_attack": ("any", "A", {}),
        "all_out_attack": ("melee", 1, {"WS": 20}),
        "standard_attack": ("any", 1, {}),
        "bonus_attack": ("melee", 1, {}),
    }
    assert actions()["charge_attack"].min_distance == 4
    assert actions()["feint"].on_win == Grant("feint", 2)


def test_circumstances_carry_002s_numbers():
    found = circumstances()
    assert dict(found["target_running"].modifiers) == {"WS": 20, "BS": -20}
    assert dict(found["target_defensive_stance"].modifiers) == {"WS": -20}
    assert dict(found["target_stunned"].modifiers) == {"WS": 20}
    assert (found["target_helpless"].auto_hit, found["target_helpless"].extra_damage) == (
        True,
        "1d10",
    )
    assert found["target_cautious"].reaction_modifier == 10
    assert dict(found["off_hand"].modifiers) == {"WS": -20}
    assert dict(found["aimed"].modifiers) == {"WS": 10, "BS": 10}
    assert found["target_parry_stance"].allows == ("parry",)
    assert (found["target_parried"].blocks, found["target_dodged"].blocks) == (
        ("parry",),
        ("dodge",),
    )
    assert {c.source for c in found.values()} == {"002", "gmkit"}


def test_each_granted_condition_has_its_circumstance():
    granted = {g.condition for a in actions().values() for g in a.grants}
    linked = {c.condition for c in circumstances().values() if c.condition}
    assert granted - linked == {"delayed_half_action"}  # changes nothing about being attacked


def test_every_sheet_quality_is_in_the_quality_catalog():
    assert set(qualities()) == set(QUALITIES)
    covered = {name for name, item in qualities().items() if item.covered}
    assert covered == {
        "Armour Piercing",
        "Balanced",
        "Defensive",
        "Fast",
        "Impact",
        "Precise",
        "Slow",
        "Tiring",
    }


@pytest.mark.parametrize(
    ("taken", "problems"),
    [
        (["aim", "standard_attack"], ()),
        (["move", "standard_attack", "bonus_attack"], ()),
        (["charge_attack"], ()),
        (["run", "move"], ("a full action (Run) leaves no time for half actions",)),
        (["move", "move", "aim"], ("at most two half actions a turn (3 taken)",)),
        (["run", "jump"], ("only one full action a turn (Run, Jump)",)),
    ],
)
def test_a_turn_is_one_full_or_two_half_actions(taken, problems):
    assert tuple(str(problem) for problem in turn_problems(taken)) == problems


def test_a_gm_catalog_replaces_the_packaged_one(tmp_path, monkeypatch, fresh_tables):
    (tmp_path / "wfrp2").mkdir()
    mine = [
        {"id": "higher_ground", "name": "Higher ground", "modifiers": {"WS": 10}, "source": "house"}
    ]
    (tmp_path / "wfrp2" / "circumstances.yaml").write_text(yaml.safe_dump(mine))
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    assert list(circumstances()) == ["higher_ground"]
    assert dict(circumstances()["higher_ground"].modifiers) == {"WS": 10}


@pytest.mark.parametrize(
    ("name", "entries", "message"),
    [
        ("actions", [{"id": "nap", "type": "long"}], "entry 'nap': type must be one of"),
        ("actions", [{"id": "nap", "type": "full", "snore": 1}], "unknown field snore"),
        (
            "actions",
            [{"id": "hit", "type": "half", "attack": "melee", "attacks": -1}],
            "attacks must be",
        ),
        ("actions", [{"id": "hit", "type": "half", "modifiers": {"WS": "lots"}}], "whole numbers"),
        ("circumstances", [{"id": "fog", "blocks": ["duck"]}], "parry or dodge only"),
        ("circumstances", [{"id": "fog", "bearer": "bystander"}], "bearer is target or attacker"),
        ("circumstances", [{"id": "fog", "sheet": "a_cloak"}], "sheet: names no reading"),
        ("qualities", [{"name": "Huge", "damage_dice": 0}], "damage_dice"),
        ("qualities", {"Impact": 2}, "must be a YAML list"),
    ],
)
def test_a_malformed_catalog_is_named(tmp_path, monkeypatch, fresh_tables, name, entries, message):
    (tmp_path / "wfrp2").mkdir()
    (tmp_path / "wfrp2" / f"{name}.yaml").write_text(yaml.safe_dump(entries))
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    loader = {"actions": actions, "circumstances": circumstances, "qualities": qualities}[name]
    with pytest.raises(GmkitError, match=message):
        loader()
