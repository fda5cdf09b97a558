"""Dark Heresy odds: references written by hand, the resolver over every sequence of dice, and
the curve against the modifier."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from gmkit.odds import curve, exhaustive, odds
from gmkit.odds._imperial import ImperialOdds, imperial_odds
from gmkit.odds._percentile import MODIFIERS, OddsError
from gmkit.sheets._dark_heresy import DarkHeresyCharacter
from gmkit.systems.base import AttackRequest

PROFILE = dict(WS=40, BS=40, S=30, T=20, Ag=30, Int=30, Per=30, WP=30, Fel=30)
TRAINED = ["Basic Weapon Training", "Pistol Training", "Melee Weapon Training"]
STUBBER = dict(name="Stubber", weapon_class="basic", range=100, rof="S/3/6", damage="1d10+3",
               clip=30, reload="Full")  # fmt: skip
SIXER = dict(name="Sixer", weapon_class="basic", range=100, rof="S/2/3", damage="1d6+6", pen=1,
             clip=30, reload="Full")  # fmt: skip
BLADE = dict(name="Blade", weapon_class="melee", damage="1d6")
FLAMER = dict(name="Flamer", weapon_class="basic", range=20, rof="S/-/-", damage="1d10+4",
              pen=2, clip=6, reload="Full", qualities=["Flame"])  # fmt: skip


def sheet(name: str, **fields: Any) -> DarkHeresyCharacter:
    data = {
        "name": name,
        "characteristics": {**PROFILE, **fields.pop("chars", {})},
        "wounds": fields.pop("wounds", 20),
        "weapons": fields.pop("weapons", [STUBBER, SIXER, BLADE, FLAMER]),
        "talents": TRAINED,
        **fields,
    }
    return DarkHeresyCharacter.build(data)


def shot(**changes: Any) -> AttackRequest:
    """BS 40, no modifiers, a 1d10+3 weapon; the target soaks 5 everywhere (TB 2, AP 3)."""
    target = changes.pop("target", None) or sheet("Heretic", armour_points={"all": 3})
    fields = {"action": "standard_attack", "mode": "single", **changes}
    return AttackRequest(sheet("Acolyte"), fields.pop("weapon", "Stubber"), target, **fields)


def test_a_single_shot_by_hand():
    result = odds(shot())
    assert result.p("test") == Fraction(40, 100)
    assert result.hit == Fraction(40, 100)
    assert result.p("jam") == Fraction(5, 100)  # 96-100 (all misses at 40 anyway)
    assert result.hits == {0: Fraction(60, 100), 1: Fraction(40, 100)}
    # 1d10+3 against a soak of 5: a wound on 3 or more (a natural 10 only adds)
    assert result.per_hit.at_least(1) == Fraction(8, 10)
    assert result.p("wounded") == Fraction(40, 100) * Fraction(8, 10)
    # 1, 10, 20, 30, 40 read 10, 01, 02, 03, 04: the head
    assert result.details["first hit location"]["head"] == Fraction(5, 40)
    assert result.details["degrees of success"][3] == Fraction(10, 100)
    assert all(dist.total() == 1 for _, dist in result.distributions())


def test_righteous_fury_adds_the_weapon_again_when_confirmed():
    damage = odds(shot()).details["first hit damage"]
    p = Fraction(40, 100)  # the confirmation is the attack's test again
    assert damage[4] == Fraction(1, 10)  # a 1 and 3
    assert damage[13] == Fraction(1, 10) * (1 - p)  # a 10, not confirmed
    assert damage[17] == Fraction(1, 10) * p * Fraction(1, 10)  # 13 + (1 + 3)
    assert 14 not in damage
    assert 16 not in damage


def test_a_semi_auto_burst_jams_on_94_and_over():
    model = ImperialOdds(shot(action="semi_auto_burst", mode="semi"))
    result = model.at()
    assert result.p("jam") == Fraction(7, 100)
    assert result.p("test") == Fraction(min(model.target, 93), 100)
    assert max(result.hits) == 3


def test_the_house_rule_deals_1d5_critical_damage_on_a_natural_10():
    result = odds(shot(options={"righteous_fury_house_rule": True}))
    hit_ten = Fraction(40, 100) * Fraction(1, 10)
    assert result.p("critically damaged") == hit_ten  # wounds never run out here
    assert result.details["critical damage"][3] == hit_ten / 5
    assert result.states["critically damaged"] == hit_ten


def test_fury_chains_longer_than_the_depth_are_reported_and_exact_to_the_guard():
    short = imperial_odds(shot(), fury_depth=1)
    full = imperial_odds(shot(), fury_depth=20)  # the resolver's max_chain
    assert short.p("fury beyond depth") > 0
    assert "fury beyond depth" not in full.events
    assert short.hit == full.hit
    assert short.p("wounded") == full.p("wounded")
    assert short.wounds.mean() < full.wounds.mean()  # the cut chains count as a lower bound


def test_flame_hits_without_a_test_and_sets_the_target_on_fire():
    result = odds(shot(weapon="Flamer", distance=10))
    assert result.p("test") == 1
    assert result.details["degrees of success"] == {"automatic hit": 1}
    assert result.details["first hit location"]["body"] == Fraction(40, 100)
    assert result.p("on fire") == Fraction(70, 100)  # the target's Ag 30 test fails


def _outcome(result: Any) -> tuple[int, int]:
    return result.hits, sum(e.amount for e in result.effects if e.kind == "damage")


@pytest.mark.parametrize(
    "changes",
    [
        {"weapon": "Sixer", "action": "semi_auto_burst", "mode": "semi", "distance": 30,
         "circumstances": {"cover": 3}},
        {"weapon": "Blade", "mode": "melee", "options": {"reaction": "parry"}},
    ],
)  # fmt: skip
def test_odds_equal_the_resolver_over_every_sequence_of_dice(changes: dict[str, Any]):
    target = sheet("Heretic", armour_points={"body": 4, "arms": 1}, weapons=[BLADE])
    request = shot(target=target, **changes)
    exact = exhaustive(request, _outcome, limit=200_000)
    result = odds(request)
    assert exact.map(lambda o: o[0]) == result.hits
    assert exact.map(lambda o: o[1]) == result.damage
    assert exact.map(lambda o: o[1]) == result.wounds


def test_special_attacks_are_left_to_the_resolver():
    with pytest.raises(OddsError, match="special attacks"):
        odds(shot(weapon="Blade", action="stun", mode="melee"))


def test_the_curve_runs_over_the_modifiers_and_meets_the_odds():
    request = shot(distance=30)
    found = curve(request)
    assert found.modifiers == tuple(MODIFIERS)
    assert len(found.points) == 121
    here = found[found.current]
    direct = odds(request)
    assert here.hits == direct.hits
    assert here.wounds == direct.wounds
    chances = list(found.of(lambda o: o.hit).values())
    assert chances == sorted(chances)
    assert found[-60].hit == 0  # BS 40 - 60
    assert found[60].hit == Fraction(95, 100)  # 100 reached, 96-100 jam


def test_a_reaction_spent_this_round_is_not_in_the_odds():
    """The odds count reactions as the resolver does: a dodge already spent this round (the
    encounter's ``target_reactions``) leaves none, exactly as ``reactions_left=0`` says."""
    dodging = {"reaction": "dodge"}
    fresh = odds(shot(options=dodging))
    spent = odds(shot(options={**dodging, "target_reactions": {"reaction": 1}}))
    none_left = odds(shot(options={**dodging, "reactions_left": 0}))
    assert spent.hit == none_left.hit == Fraction(40, 100)
    assert fresh.hit < spent.hit  # Ag 30 dodges some hits while a reaction is left
