"""Necromunda odds: hand-written exact references, and the resolver run over every die."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from gmkit.errors import RulesError
from gmkit.odds import curve, exhaustive, odds
from gmkit.odds._necromunda import STATES, wound_outcomes
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems.base import AttackRequest
from gmkit.systems.necromunda import SYSTEM, FighterState, resolve_wounds

from ..shared.necromunda import HEAVY_BOLTER, LASCANNON, fighter, state_after

F = Fraction
GANGER = fighter(
    "Mordecai", weapons=["stub gun", "autogun", "boltgun", "flamer", HEAVY_BOLTER, LASCANNON]
)
JUVE = fighter("Jeb", fighter_type="juve", BS=2, weapons=["laspistol"])
TARGET = fighter("Tom")


def shot(
    weapon: str = "stub gun",
    target: NecromundaFighter = TARGET,
    distance: float = 6,
    attacker: NecromundaFighter = GANGER,
    **options: Any,
) -> AttackRequest:
    circumstances = options.pop("circumstances", {})
    return AttackRequest(
        attacker, weapon, target, distance=distance, circumstances=circumstances, options=options
    )


def test_bs3_at_4_up_against_t3_with_s3():
    result = odds(shot())  # stub gun at short range: no modifier, 7 - 3 = 4+
    assert result.hit == F(1, 2)
    assert result.per_hit == {0: F(1, 2), 1: F(1, 2)}  # S 3 against T 3: 4+
    assert result.wounds == {0: F(3, 4), 1: F(1, 4)}
    assert result.states == {
        "standing": F(1, 2),
        "pinned": F(1, 4),
        "flesh wound": F(1, 4) * F(1, 6),
        "down": F(1, 4) * F(4, 6),
        "out of action": F(1, 4) * F(1, 6),
    }
    assert list(result.states) == list(STATES)
    assert result.p("pinned by the hit") == F(1, 2)  # every hit pins
    assert result.p("pinned") == F(1, 4)  # the state: pinned, and nothing worse
    assert result.p("ammo roll failed") == F(1, 6) * F(1, 2)  # a 6 to hit, then 4+ fails
    assert result.expected_damage == F(1, 4)
    assert result.members[0].slain == {0: F(23, 24), 1: F(1, 24)}
    assert all(dist.total() == 1 for _, dist in result.distributions())


def test_the_juves_seven_up_shot():
    request = AttackRequest(
        JUVE, "laspistol", TARGET, distance=12, circumstances={"partial_cover": True}
    )
    result = odds(request)  # 7 - 2 + 1 (partial cover) + 1 (long range) = 7: a 6, then 4+
    assert result.hit == F(1, 6) * F(1, 2)
    assert result.p("out of action") == F(1, 12) * F(1, 2) * F(1, 6)
    assert result.p("ammo roll failed") == F(1, 6) * F(1, 6)  # laspistol: 2+


@pytest.mark.parametrize(
    ("high_impact", "expected"),
    [
        (False, {"flesh wound": F(1, 6), "down": F(4, 6), "out of action": F(1, 6)}),
        (True, {"flesh wound": F(1, 6), "down": F(3, 6), "out of action": F(2, 6)}),
    ],
)
def test_injury_outcomes_of_one_wound(high_impact, expected):
    after = wound_outcomes(TARGET, FighterState(pinned=True), 1, high_impact=high_impact)

    def name(state: FighterState) -> str:
        if state.out_of_action:
            return "out of action"
        return "down" if state.down else "flesh wound"

    assert after.map(name) == expected
    assert after.total() == 1


def test_wound_outcomes_match_resolve_wounds_over_every_die():
    cases = [
        (TARGET, FighterState(), 3, False),
        (fighter(W=2, WS=1, BS=2), FighterState(pinned=True), 3, True),
        (fighter(WS=1, BS=1), FighterState(down=True, wounds_left=0), 2, False),
        (fighter(W=3), FighterState(flesh_wounds=2), 2, False),
    ]
    for target, state, wounds, high_impact in cases:
        exact = wound_outcomes(target, state, wounds, high_impact=high_impact)

        def resolve(request, source, target=target, state=state, wounds=wounds, hi=high_impact):
            return resolve_wounds(target, state, wounds, source, high_impact=hi)

        by_dice = exhaustive(shot(), lambda outcome: outcome.state, resolve=resolve)
        assert exact == by_dice
    with pytest.raises(RulesError, match="already out of action"):
        wound_outcomes(TARGET, FighterState(out_of_action=True), 1)


def test_template_hits_and_takes_no_ammo_roll():
    result = odds(shot("flamer"))
    assert result.hit == 1
    assert result.p("wounded") == F(2, 3)  # S 4 against T 3: 3+
    assert result.p("ammo roll failed") == 0


def test_out_of_range_misses_but_the_die_still_calls_for_the_ammo_roll():
    result = odds(shot("stub gun", distance=17))
    assert result.hit == 0
    assert result.states == {"standing": 1}
    assert result.p("ammo roll failed") == F(1, 6) * F(1, 2)


def test_d3_wounds_on_a_two_wound_fighter():
    target = fighter("Big", W=2, T=5)
    result = odds(shot("heavy bolter", target, distance=10))  # 4+ to hit, S 5 against T 5: 4+
    wounded = F(1, 2) * F(1, 2)
    assert result.wounds == {0: 1 - wounded, 1: wounded / 3, 2: wounded / 3, 3: wounded / 3}
    assert result.damage == {0: 1 - wounded, 1: wounded / 3, 2: 2 * wounded / 3}
    # 1 wound: none left to roll for; 2: one injury roll; 3: two rolls
    out = F(1, 3) * F(1, 6) + F(1, 3) * (1 - F(5, 6) ** 2)
    assert result.p("out of action") == wounded * out
    assert result.details["wounds left"] == {2: 1 - wounded, 1: wounded / 3, 0: 2 * wounded / 3}


def test_high_impact_d6_wounds():
    brute = fighter("Brute", T=4, WS=10)  # WS 10: flesh wounds never bleed it out here
    result = odds(shot("lascannon", brute, distance=30))  # 4+; S 9 against T 4: 2+
    # W 1: D6 wounds, each an injury roll; out of action on 5-6 (high impact)
    out = sum(F(1, 6) * (1 - F(4, 6) ** wounds) for wounds in range(1, 7))
    assert result.p("out of action") == F(1, 2) * F(5, 6) * out
    bleeds = odds(shot("lascannon", fighter("Ganger", T=4), distance=30))  # WS 3, BS 3
    assert bleeds.p("out of action") > result.p("out of action")  # 3 flesh wounds: out


def test_armour_saves_when_the_setting_is_on():
    armoured = fighter("Plated", armour={"name": "carapace armour", "save": 4})
    with_saves = odds(shot("boltgun", armoured, distance=10, armour_saves=True))
    # BS 3, short +1: 3+; S 4 against T 3: 3+; carapace 4+, boltgun -1: 5+
    assert with_saves.hit == F(2, 3)
    assert with_saves.p("saved") == F(2, 3) * F(2, 3) * F(1, 3)
    assert with_saves.p("wounded") == F(2, 3) * F(2, 3) * F(2, 3)
    without = odds(shot("boltgun", armoured, distance=10))
    assert without.p("saved") == 0
    assert without.p("wounded") == F(4, 9)
    lascannon = odds(shot("lascannon", armoured, distance=10, armour_saves=True))
    assert lascannon.p("saved") == 0  # 4+ less -6: no save possible


def test_flesh_wound_bleeds_out_a_fighter_of_ws1_bs1():
    frail = fighter("Frail", WS=1, BS=1)
    result = odds(shot("flamer", frail))
    wounded = F(2, 3)
    assert result.p("out of action") == wounded * F(2, 6)
    assert result.p("flesh wound taken") == wounded * F(1, 6)
    assert result.p("flesh wound") == 0  # a flesh wound that bleeds out: out of action


def test_a_down_target_is_not_pinned_and_ignores_down():
    result = odds(shot("flamer", target_state=FighterState(down=True)))
    assert result.p("pinned by the hit") == 0
    assert result.p("went down") == 0  # the down result changes nothing: no effect
    assert result.states == {"down": 1 - F(2, 3) / 6, "out of action": F(2, 3) / 6}


def test_refusals_raise_as_the_resolver_raises():
    gone = shot(target_state=FighterState(out_of_action=True), gm_allows_shot=True)
    with pytest.raises(RulesError, match="may not shoot") as from_odds:
        odds(gone)
    with pytest.raises(RulesError, match="may not shoot") as from_rules:
        SYSTEM.resolve_attack(gone, None)  # type: ignore[arg-type]
    assert str(from_odds.value) == str(from_rules.value)
    pinned = shot(attacker_state=FighterState(pinned=True))
    with pytest.raises(RulesError, match="pinned"):
        odds(pinned)
    allowed = odds(shot(attacker_state=FighterState(pinned=True), gm_allows_shot=True))
    assert allowed.hit == F(1, 2)
    assert "allowed by the GM" in allowed.notes[0]


def test_curve_over_the_total_modifier():
    request = AttackRequest(
        JUVE, "laspistol", TARGET, distance=12, circumstances={"partial_cover": True}
    )
    line = curve(request)
    assert line.modifiers == tuple(range(-4, 5))
    assert line.current == -2
    assert line[line.current] == odds(request)
    hits = line.of(lambda o: o.hit)
    assert hits[-4] == F(1, 6) * F(1, 6)  # 7 - 2 + 4 = 9: a 6, then 6
    assert hits[0] == F(1, 3)
    assert hits[3] == F(5, 6)
    assert hits[4] == F(5, 6)  # never past 2+
    assert all(hits[m] <= hits[m + 1] for m in range(-4, 4))
    assert all(point.p("ammo roll failed") == F(1, 36) for _, point in line)
    assert curve(request, [-6])[-6].hit == 0  # 10+: cannot hit
    assert curve(shot("flamer")).current is None


def _outcome(request: AttackRequest):
    before = FighterState.read(request.options.target_state)

    def read(result):
        flesh, state = state_after(before, result)
        lost = sum(e.amount for e in result.effects if e.kind == "damage")
        return result.hits, lost, flesh, state, any(e.kind == "jam" for e in result.effects)

    return read


@pytest.mark.parametrize(
    "request_",
    [
        shot(),
        shot("flamer", fighter(WS=1, BS=1)),
        shot("heavy bolter", fighter("Big", W=2, T=5), distance=10),
        shot("boltgun", fighter(armour={"name": "mesh armour", "save": 5}), armour_saves=True),
        shot("autogun", target_state=FighterState(down=True, wounds_left=0), distance=20),
        AttackRequest(JUVE, "laspistol", TARGET, distance=12, circumstances={"cover": True}),
    ],
)
def test_hand_cases_equal_the_resolver_over_every_die(request_):
    result = odds(request_)
    exact = exhaustive(request_, _outcome(request_))
    assert exact.map(lambda o: o[0]) == result.hits
    assert exact.map(lambda o: o[1]) == result.damage
    assert exact.map(lambda o: o[2]) == result.details["flesh wounds"]
    assert exact.map(lambda o: o[3]) == result.states
    assert exact.chance(lambda o: o[4]) == result.p("ammo roll failed")
