"""Deathwatch odds: degrees of success as the damage die's minimum, hordes and their magnitude,
called shots, references by hand and the resolver over every sequence of dice."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from gmkit.odds import curve, exhaustive, odds
from gmkit.odds._imperial import ImperialOdds, imperial_odds
from gmkit.odds._percentile import success_chance
from gmkit.sheets._deathwatch import DeathwatchCharacter
from gmkit.systems.base import AttackRequest

PROFILE = dict(WS=40, BS=40, S=40, T=50, Ag=40, Int=30, Per=30, WP=30, Fel=30)
GUN = dict(name="Gun", weapon_class="basic", range=100, rof="S/3/4", damage="1d10", clip=30,
           reload="Full")  # fmt: skip
SIXER = dict(name="Sixer", weapon_class="basic", range=100, rof="S/2/3", damage="1d6+6", pen=1,
             clip=30, reload="Full")  # fmt: skip


def sheet(name: str, **fields: Any) -> DeathwatchCharacter:
    data = {
        "name": name,
        "characteristics": {**PROFILE, **fields.pop("chars", {})},
        "wounds": fields.pop("wounds", 20),
        "weapons": [GUN, SIXER],
        "talents": ["Astartes Weapon Training"],
        **fields,
    }
    return DeathwatchCharacter.build(data)


def horde(**fields: Any) -> DeathwatchCharacter:
    return sheet("Mob", tier="troop", horde={"magnitude_max": 20, **fields}, chars={"T": 30})


def shot(bs: int = 40, target: DeathwatchCharacter | None = None, **changes: Any) -> AttackRequest:
    fields = {"action": "standard_attack", "mode": "single", **changes}
    attacker = sheet("Brother", chars={"BS": bs})
    return AttackRequest(attacker, fields.pop("weapon", "Gun"), target or sheet("Foe"), **fields)


def test_degrees_of_success_are_the_least_the_damage_die_reads():
    # BS 90, 1d10 against TB 5 and no armour: a wound needs a 6. Rolls 1-30 have 6 or more
    # degrees (the die reads at least 6); rolls 31-90 wound on a 6-10.
    result = odds(shot(90))
    assert result.p("test") == Fraction(90, 100)
    assert result.p("wounded") == Fraction(30, 100) + Fraction(60, 100) * Fraction(5, 10)
    assert result.details["degrees of success"][8] == Fraction(10, 100)
    assert all(dist.total() == 1 for _, dist in result.distributions())


def test_a_horde_loses_a_magnitude_per_damaging_hit():
    # BS 40, 1d10 against a horde of TB 3 and no armour: damage on a 4 or more
    result = odds(shot(40, horde()))
    assert result.p("magnitude lost") == Fraction(40, 100) * Fraction(7, 10)
    assert result.details["magnitude lost"] == {0: Fraction(18, 25), 1: Fraction(7, 25)}
    assert result.damage == {0: 1}  # a horde takes magnitude, not damage effects
    assert "first hit location" not in result.details
    assert result.states == {"standing": 1}


def test_a_horde_breaks_when_its_magnitude_falls_low():
    result = odds(shot(40, horde(magnitude=5)))  # one more lost: 4 of 20, under 25 %
    assert result.states["broken"] == result.p("magnitude lost")


def test_a_called_shot_lands_where_it_was_called():
    result = odds(shot(40, action="called_shot", called_location="head"))
    assert result.details["first hit location"] == {"head": 1}
    assert result.p("test") == Fraction(20, 100)  # Called Shot -20


def test_fury_depth_bounds_the_chains_and_the_guard_makes_them_exact():
    short = imperial_odds(shot(60), fury_depth=1)
    assert 0 < short.p("fury beyond depth") < Fraction(1, 100)
    assert "fury beyond depth" not in imperial_odds(shot(60), fury_depth=20).events


def _outcome(result: Any) -> tuple[int, int, int]:
    damage = sum(e.amount for e in result.effects if e.kind == "damage")
    lost = sum(e.amount for e in result.effects if e.kind == "magnitude")
    return result.hits, damage, lost


@pytest.mark.parametrize(
    "changes",
    [
        {"action": "semi_auto_burst", "mode": "semi", "distance": 30},
        {"action": "semi_auto_burst", "mode": "semi", "distance": 30, "horde": True},
    ],
)
def test_odds_equal_the_resolver_over_every_sequence_of_dice(changes: dict[str, Any]):
    target = (
        horde(armour=2)
        if changes.pop("horde", False)
        else sheet("Foe", armour_points={"body": 4, "arms": 2}, chars={"T": 35})
    )
    request = shot(55, target, weapon="Sixer", **changes)
    exact = exhaustive(request, _outcome, limit=200_000)
    result = odds(request)
    assert exact.map(lambda o: o[0]) == result.hits
    assert exact.map(lambda o: o[1]) == result.damage
    if target.is_horde:
        assert exact.map(lambda o: o[2]) == result.details["magnitude lost"]


def test_the_curve_gives_121_points_with_the_magnitude():
    found = curve(shot(40, horde(), distance=50))
    assert len(found.points) == 121
    lost = list(found.of(lambda o: o.p("magnitude lost")).values())
    assert lost == sorted(lost)
    assert found[0].p("magnitude lost") == odds(shot(40, horde())).p("magnitude lost")


@pytest.mark.parametrize(
    ("mode", "options"), [("semi", {}), ("full", {"reaction": "dodge"}), ("full", {})]
)
def test_the_matrix_engine_and_the_hit_by_hit_engine_agree_exactly(mode: str, options: dict):
    # a bolter's Tearing 2d10, degrees as a minimum and Fury chains: counts past int64, so
    # the matrices run modulo primes; the hit-by-hit engine in Python integers
    bolter = dict(name="Bolter", weapon_class="basic", range=100, rof="S/3/5", damage="2d10+5",
                  pen=5, clip=30, reload="Full", qualities=["Tearing"])  # fmt: skip
    attacker = DeathwatchCharacter.build(
        name="Brother", characteristics={**PROFILE, "BS": 55}, wounds=20, weapons=[bolter],
        talents=["Astartes Weapon Training"],
    )  # fmt: skip
    target = sheet("Foe", armour_points={"body": 6, "arms": 4, "head": 2}, chars={"Ag": 45})
    action = f"{mode}_auto_burst"
    request = AttackRequest(attacker, "Bolter", target, action=action, mode=mode, distance=30,
                            options=options)  # fmt: skip
    model = ImperialOdds(request)
    chance = success_chance(model.target)
    shots = model.shots(model.target)
    matrix = model._matrix(model.target, chance, shots)
    stepwise = model._stepwise(model.target, chance, shots)
    assert matrix.wounds.den.bit_length() > 61 or mode == "semi"
    assert matrix.wounds == stepwise.wounds
    assert matrix.hits == stepwise.hits
    assert matrix.per_hit == stepwise.per_hit
    assert matrix.first_wounds == stepwise.first_wounds
