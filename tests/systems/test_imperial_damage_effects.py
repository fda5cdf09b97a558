"""Applying effects to 40k sheets: wounds, critical damage, fatigue, ammunition, healing."""

from __future__ import annotations

import functools
import types

import pytest

from gmkit.systems._imperial import effects as fx
from gmkit.systems.base import Effect


@pytest.fixture(scope="session")
def acolyte(acolyte):
    """Ten wounds (TB 3)."""
    return functools.partial(acolyte, wounds=10)


@pytest.fixture
def no_criticals_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """A criticals module whose tables have no rows (the GM has not filled them)."""
    stub = types.ModuleType("gmkit.systems._imperial.criticals")
    stub.critical_effect = lambda game, location, damage_type, value: None  # type: ignore[attr-defined]
    monkeypatch.setattr(fx, "criticals", stub)


def test_damage_fills_wounds(acolyte):
    applied = fx.apply(acolyte(damage=2), Effect("damage", "Acolyte", 5, "body", "Energy"))
    assert (applied.sheet.damage, applied.sheet.critical_damage) == (7, 0)
    assert applied.sheet.damage_state == "heavily damaged"  # 7 > 2 x TB 3


@pytest.mark.usefixtures("no_criticals_table")
def test_damage_beyond_wounds_is_critical_damage_at_its_location(acolyte):
    applied = fx.apply(acolyte(damage=8), Effect("damage", "Acolyte", 5, "right_arm", "Energy"))
    assert (applied.sheet.damage, applied.sheet.critical_damage) == (10, 3)
    assert applied.sheet.damage_state == "critically damaged"
    assert tuple(map(str, applied.notes)) == ("2 damage", "3 critical damage (Energy, right arm)")


def test_critical_damage_calls_the_critical_table_and_returns_its_effects(monkeypatch, marine):
    calls = []

    class Row:
        def to_effects(self, target, location):
            return (Effect("condition", target, location=location, condition="stunned", rounds=1),)

    def critical_effect(game, location, damage_type, value):
        calls.append((game, location, damage_type, value))
        return Row()

    stub = types.ModuleType("gmkit.systems._imperial.criticals")
    stub.critical_effect = critical_effect  # type: ignore[attr-defined]
    monkeypatch.setattr(fx, "criticals", stub)
    sheet = marine(damage=20, critical_damage=1)
    applied = fx.apply(sheet, Effect("damage", "Castor", 2, "head", "Explosive"))
    assert calls == [("deathwatch", "head", "Explosive", 3)]  # the total critical damage
    assert applied.sheet.critical_damage == 3
    assert [(e.condition, e.rounds) for e in applied.follow_up] == [("stunned", 1)]
    assert len(applied.criticals) == 1


@pytest.mark.usefixtures("no_criticals_table")
def test_critical_damage_stops_at_ten(acolyte):
    applied = fx.apply(acolyte(damage=10, critical_damage=8), Effect("damage", "Acolyte", 5))
    assert applied.sheet.critical_damage == 10
    assert "past the tables' 10: dead" in str(applied.notes[0])


@pytest.mark.usefixtures("no_criticals_table")
def test_house_rule_critical_leaves_wounds_and_kills_a_minion(acolyte):
    minion = acolyte(damage=1, minion=True)
    applied = fx.apply(minion, Effect("critical", "Acolyte", 2, "body", "Energy"))
    assert (applied.sheet.damage, applied.sheet.critical_damage) == (1, 2)
    assert applied.sheet.dead
    assert [effect.condition for effect in applied.follow_up] == ["dead"]


@pytest.mark.usefixtures("no_criticals_table")
def test_a_bare_critical_on_a_deathwatch_sheet_fills_its_wounds_first(marine):
    applied = fx.apply(marine(damage=4), Effect("critical", "Castor", 2, "body"))
    assert (applied.sheet.damage, applied.sheet.critical_damage) == (20, 2)


def test_more_fatigue_than_toughness_bonus_knocks_out_for_ten_minus_tb_minutes(acolyte):
    sheet = acolyte(fatigue=3)  # TB 3
    applied = fx.apply(sheet, Effect("fatigue", "Acolyte", 1))
    assert applied.sheet.fatigue == 4
    assert [(e.kind, e.condition) for e in applied.follow_up] == [("condition", "unconscious")]
    assert tuple(map(str, applied.notes)) == ("more fatigue than TB: unconscious for 7 minutes",)
    assert not fx.apply(acolyte(fatigue=1), Effect("fatigue", "Acolyte", 1)).follow_up


def test_waking_and_resting_off_fatigue(acolyte, marine):
    assert fx.wake_from_fatigue(marine(fatigue=5)).fatigue == 1  # 004
    assert fx.wake_from_fatigue(acolyte(fatigue=5)).fatigue == 5  # 001 says nothing of it
    assert fx.recover_fatigue(marine(fatigue=4), 20).fatigue == 2  # a level per 10 minutes
    assert fx.recover_fatigue(marine(fatigue=4), 60).fatigue == 0  # an hour: all of it
    assert fx.recover_fatigue(acolyte(fatigue=4), 120).fatigue == 2  # 001: a level an hour


def test_ammunition_and_magnitude_go_down_never_below_zero(acolyte, marine, weapon):
    shooter = acolyte(weapons=[weapon("Lasgun", loaded=30)])
    assert (
        fx.apply_effect(shooter, Effect("ammo", "Acolyte", 3, weapon="Lasgun")).weapons[0].loaded
        == 27
    )
    assert (
        fx.apply_effect(shooter, Effect("ammo", "Acolyte", 99, weapon="Lasgun")).weapons[0].loaded
        == 0
    )
    mob = marine(name="Mob", tier="troop", horde={"magnitude_max": 30})
    applied = fx.apply(mob, Effect("magnitude", "Mob", 4))
    assert applied.sheet.horde is not None
    assert applied.sheet.horde.magnitude == 26
    gone = fx.apply(mob, Effect("magnitude", "Mob", 40))
    assert tuple(map(str, gone.notes)) == ("magnitude 0 of 30", "destroyed")


def test_effects_for_someone_else_or_the_encounter_leave_the_sheet_alone(acolyte):
    sheet = acolyte()
    assert fx.apply(sheet, Effect("damage", "Somebody else", 5)).sheet is sheet
    assert fx.apply(sheet, Effect("condition", "Acolyte", condition="stunned")).sheet is sheet
    assert fx.apply(sheet, Effect("jam", "Acolyte", weapon="Lasgun")).sheet is sheet


@pytest.mark.usefixtures("no_criticals_table")
def test_apply_effects_in_order(acolyte):
    effects = [
        Effect("damage", "Acolyte", 4, "body"),
        Effect("damage", "Acolyte", 8, "head", "Rending"),
        Effect("fatigue", "Acolyte", 1),
    ]
    applied = fx.apply_effects(acolyte(), effects)
    assert (applied.sheet.damage, applied.sheet.critical_damage, applied.sheet.fatigue) == (
        10,
        2,
        1,
    )


def test_natural_healing_lightly_damaged_a_point_a_day_or_tb_in_bed(acolyte):
    sheet = acolyte(damage=5)  # TB 3: lightly damaged up to 6
    assert fx.heal(sheet, 2).damage == 3
    assert fx.heal(sheet, 1, resting=True).damage == 2
    assert fx.heal(sheet, 30).damage == 0


def test_natural_healing_heavily_damaged_a_point_a_week_or_tb_with_a_week_of_rest(acolyte):
    sheet = acolyte(damage=9)
    assert fx.heal(sheet, 6).damage == 9
    assert fx.heal(sheet, 7).damage == 8
    assert fx.heal(sheet, 7, resting=True).damage == 6
    assert fx.heal(sheet, 8, resting=True).damage == 3  # then lightly damaged: TB a day in bed
    assert fx.heal(sheet, 21).damage == 6  # three weeks: 8, 7, 6, still a week at a time


def test_critical_damage_heals_only_with_rest_and_medical_care(marine):
    sheet = marine(damage=20, critical_damage=2)
    assert fx.heal(sheet, 14, resting=True).critical_damage == 2
    healed = fx.heal(sheet, 7, resting=True, medical=True)
    assert (healed.critical_damage, healed.damage) == (1, 20)
    assert fx.heal(sheet, 14, resting=True, medical=True).critical_damage == 0
