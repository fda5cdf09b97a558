"""WFRP 2e odds: references written by hand, Ulric's Fury, critical hits, the resolver over
every sequence of dice, and the curve against the modifier."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from gmkit.odds import curve, exhaustive, odds
from gmkit.odds._percentile import MODIFIERS
from gmkit.odds._wfrp2 import wfrp2_odds
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems.base import AttackRequest

PROFILE = {"WS": 40, "BS": 40, "S": 30, "T": 20, "Ag": 40, "Int": 30, "WP": 30, "Fel": 30}
WEAPONS = [{"name": "Hand Weapon", "damage": "SB"}, {"name": "Sword", "damage": "SB"}]


def sheet(name: str, **fields: Any) -> WFRP2Character:
    wounds = fields.pop("W", 12)
    data = {
        "name": name,
        "characteristics": {**PROFILE, **fields.pop("chars", {})},
        "secondary": {"A": fields.pop("A", 1), "W": wounds},
        "weapons": WEAPONS,
        **fields,
    }
    return WFRP2Character.build(data)


def blow(**changes: Any) -> AttackRequest:
    """WS 40, a hand weapon (1d10 + SB 3); the target soaks 5 everywhere (TB 2, 3 points)."""
    target = changes.pop("target", None) or sheet("Foe", armour_points={"all": 3})
    attacker = changes.pop("attacker", None) or sheet("Hero")
    return AttackRequest(attacker, "Hand Weapon", target, mode="melee", **changes)


def test_a_blow_by_hand():
    result = odds(blow())
    assert result.p("test") == Fraction(40, 100)
    assert result.hits == {0: Fraction(60, 100), 1: Fraction(40, 100)}
    # 1d10+3 against a soak of 5: a wound on 3 or more
    assert result.per_hit.at_least(1) == Fraction(8, 10)
    assert result.p("wounded") == Fraction(40, 100) * Fraction(8, 10)
    assert result.states["unhurt"] == 1 - result.p("wounded")
    assert all(dist.total() == 1 for _, dist in result.distributions())


def test_a_helpless_target_is_hit_where_the_roll_says():
    result = odds(blow(circumstances={"target_helpless": True}))
    assert result.hit == 1
    where = result.details["first hit location"]
    assert where["right_arm"] == Fraction(20, 100)  # 16-35 of the table
    assert where["head"] == Fraction(15, 100)
    # and 1d10 more damage: only two 1s fail to beat the soak
    assert result.per_hit.p(0) == Fraction(1, 100)


def test_ulrics_fury_adds_dice_when_confirmed():
    damage = odds(blow()).details["first hit damage"]
    p = Fraction(40, 100)  # the confirmation is the attack's test again
    assert damage[4] == Fraction(1, 10)
    assert damage[13] == Fraction(1, 10) * (1 - p)
    assert damage[14] == Fraction(1, 10) * p * Fraction(1, 10)
    assert 23 not in damage  # 13 + 10 goes on to roll again
    off = odds(blow(options={"ulrics_fury": False})).details["first hit damage"]
    assert off == {v: Fraction(1, 10) for v in range(4, 14)}


def test_a_critical_hit_when_the_wounds_go_below_zero():
    down = sheet("Foe", armour_points={"all": 3}, wounds_current=1)
    result = odds(blow(target=down))
    # a hit losing 2 or more wounds (a 4 or more on the die) goes below zero
    assert result.p("critically damaged") == Fraction(40, 100) * Fraction(7, 10)
    assert result.details["critical value"][1] == Fraction(40, 100) * Fraction(1, 10)
    assert result.details["wounds left"][0] == Fraction(40, 100) * Fraction(8, 10)


def test_a_parry_turns_one_blow_of_a_swift_attack():
    defender = sheet("Foe", armour_points={"all": 3}, chars={"WS": 50})
    request = blow(
        attacker=sheet("Hero", A=2),
        target=defender,
        action="swift_attack",
        circumstances={"target_parry_stance": True},
        options={"reaction": "parry"},
    )
    result = odds(request)
    # each blow hits 40 %, the first that hits is parried half the time; then it is spent
    hit, parried = Fraction(40, 100), Fraction(50, 100)
    assert result.hits[2] == hit * (1 - parried) * hit
    assert result.hits[0] == (1 - hit) ** 2 + (1 - hit) * hit * parried + hit * parried * (1 - hit)


def test_fury_chains_longer_than_the_depth_are_reported():
    short = wfrp2_odds(blow(), fury_depth=1)
    assert short.p("fury beyond depth") == Fraction(40, 100) * Fraction(1, 10) * Fraction(
        40, 100
    ) * Fraction(1, 10)
    assert "fury beyond depth" not in wfrp2_odds(blow(), fury_depth=20).events


def _outcome(result: Any) -> tuple[int, int, bool]:
    lost = sum(e.amount for e in result.effects if e.kind == "damage")
    return result.hits, lost, any(e.kind == "critical" for e in result.effects)


@pytest.mark.parametrize("wounds", [12, 2])
def test_odds_equal_the_resolver_over_every_sequence_of_dice(wounds: int):
    target = sheet("Foe", armour_points={"body": 4, "head": 1}, wounds_current=wounds)
    request = blow(target=target, options={"ulrics_fury": False})
    exact = exhaustive(request, _outcome, limit=100_000)
    result = odds(request)
    assert exact.map(lambda o: o[0]) == result.hits
    assert exact.map(lambda o: o[1]) == result.damage
    assert exact.chance(lambda o: o[2]) == result.p("critically damaged")


def test_the_curve_runs_over_the_modifiers():
    request = blow(circumstances={"gm_modifier": 10})
    found = curve(request)
    assert found.modifiers == tuple(MODIFIERS)
    assert found.current == 10
    assert found[10].hits == odds(request).hits
    assert found[-40].hit == 0
    assert found[60].hit == 1
