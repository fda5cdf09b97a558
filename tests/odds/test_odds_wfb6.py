"""WFB 6e odds: hand-written exact references, and the resolver run over every die."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from gmkit.errors import GmkitError
from gmkit.odds import curve, exhaustive, odds
from gmkit.odds._wfb6 import STATES
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.systems.base import AttackRequest
from gmkit.systems.wfb6 import Situation, UnitOnTable

from ..shared.wfb6 import BOW, CROSSBOW, HANDGUN, REPEATER, ROCK

F = Fraction
MISSILE = {
    "name": "fireball",
    "range_cm": 60,
    "strength": 4,
    "shots": 3,
    "special": ["magic missile"],
}
VOLLEY = {"name": "volley", "range_cm": 40, "strength": 3, "shots": 2}
DARTS = {"name": "darts", "range_cm": 40, "strength": 3, "shots": 2, "special": ["magic missile"]}


def shooter(BS: int = 3) -> WFB6Character:
    return WFB6Character.build(
        name="Shooter",
        side="Orcs",
        role="rank and file",
        unit="Archers",
        BS=BS,
        weapons=[BOW, REPEATER, CROSSBOW, HANDGUN, MISSILE, ROCK, VOLLEY, DARTS],
    )


SPEARMAN = WFB6Character.build(
    name="Spearman", side="Empire", role="rank and file", unit="Spearmen"
)
ARMOURED = WFB6Character.build(
    name="Swordsman",
    side="Empire",
    role="rank and file",
    unit="Swordsmen",
    armour=[{"name": "heavy armour", "save": 5}],
)
CAPTAIN = WFB6Character.build(
    name="Captain Hals",
    side="Empire",
    unit="Swordsmen",
    T=4,
    W=2,
    armour=[{"name": "plate", "save": 4}],
)
CHAMPION = WFB6Character.build(name="Sergeant", side="Empire", role="champion", unit="Swordsmen")
LONE = WFB6Character.build(name="Anselm", side="Empire")
SPEARMEN = UnitOnTable.of([SPEARMAN], rank_and_file=10, shooter_distance_cm=20)
SWORDSMEN = UnitOnTable.of([ARMOURED, CHAMPION, CAPTAIN], rank_and_file=12, shooter_distance_cm=20)
FEW = UnitOnTable.of([ARMOURED, CAPTAIN], rank_and_file=3, shooter_distance_cm=20)
MILITIAMAN = WFB6Character.build(
    name="Militiaman", side="Empire", role="rank and file", unit="Militia"
)
SERJEANT = WFB6Character.build(name="Serjeant", side="Empire", unit="Militia", W=2)
MILITIA = UnitOnTable.of([MILITIAMAN, SERJEANT], rank_and_file=2, shooter_distance_cm=20)
SCREEN = UnitOnTable(
    "Halberdiers", "Empire", rank_and_file=10, distance_cm=5, shooter_distance_cm=20
)


def shot(
    weapon: str,
    target: WFB6Character,
    *units: UnitOnTable,
    distance: float = 20,
    bs: int = 3,
    **fields: Any,
) -> AttackRequest:
    options = {"situation": Situation(units, distance_cm=distance)} | fields.pop("options", {})
    return AttackRequest(shooter(bs), weapon, target, options=options, **fields)


def test_bs3_at_4_up_against_t3_with_s3():
    result = odds(shot("bow", SPEARMAN, SPEARMEN))  # 7 - 3 = 4+; S 3 against T 3: 4+
    assert result.hit == F(1, 2)
    assert result.per_hit == {0: F(1, 2), 1: F(1, 2)}
    assert result.states == {
        "no hit": F(1, 2),
        "no wound": F(1, 4),
        "wounded, not slain": 0,
        "slain": F(1, 4),
    }
    assert list(result.states) == list(STATES)
    troops = result.member("Spearmen (rank and file)")
    assert (troops.models, troops.wounds_each, troops.p_slain) == (10, 1, F(1, 4))
    assert all(dist.total() == 1 for _, dist in result.distributions())


def test_lone_character_at_long_range_and_the_seven_up_chart():
    result = odds(shot("bow", LONE, distance=40))  # 4+, -1 lone character, -1 long range
    assert result.hit == F(1, 6)
    clumsy = odds(shot("bow", LONE, distance=40, bs=1))  # 6 + 2 = 8: a 6, then 5+
    assert clumsy.hit == F(1, 6) * F(1, 3)
    assert clumsy.p("slain") == F(1, 18) * F(1, 2)


def test_saves_by_strength_and_armour_piercing():
    crossbow = odds(shot("crossbow", ARMOURED, SWORDSMEN))  # 5+ save, S 4: 6+
    assert crossbow.per_hit == {1: F(2, 3) * F(5, 6), 0: 1 - F(2, 3) * F(5, 6)}
    handgun = odds(shot("handgun", ARMOURED, SWORDSMEN))  # 5+, S 4 -1, armour piercing -1
    assert handgun.per_hit == {1: F(2, 3), 0: F(1, 3)}


def test_multiple_shots_are_binomial():
    result = odds(shot("repeater", SPEARMAN, SPEARMEN))  # -1 multiple shots: 5+
    assert result.hits == {k: F(1, 3) ** k * F(2, 3) ** (3 - k) * (1, 3, 3, 1)[k] for k in range(4)}
    # S 4 against T 3: 3+; each shot an unsaved wound with 1/3 * 2/3
    assert result.wounds == {
        k: F(2, 9) ** k * F(7, 9) ** (3 - k) * (1, 3, 3, 1)[k] for k in range(4)
    }
    assert result.details["models slain"] == result.wounds


def test_look_out_sir_sends_a_template_hit_to_the_rank_and_file():
    result = odds(shot("rock", CAPTAIN, SWORDSMEN))
    assert result.hit == 1
    assert result.p("look out sir") == F(5, 6)
    assert result.details["hit on"] == {
        "Swordsmen (rank and file)": F(5, 6),
        "Captain Hals": F(1, 6),
    }
    captain = result.member("Captain Hals")
    assert captain.wounds == {1: F(1, 6) * F(5, 6), 0: 1 - F(5, 36)}  # S 8 vs T 4: 2+, no save
    assert captain.slain == {0: 1}  # W 2: one wound cannot slay him
    champion = odds(shot("rock", CHAMPION, SWORDSMEN))
    assert champion.details["hit on"].p("Swordsmen (Sergeant, champion)") == F(1, 6)


def test_hits_shared_in_a_small_unit():
    result = odds(shot("repeater", ARMOURED, FEW, options={}))
    two = result.hits.p(2)
    assert two == 3 * F(1, 3) ** 2 * F(2, 3)
    members = [member.name for member in result.members]
    assert members == [f"Swordsmen (rank and file {n})" for n in (1, 2, 3)] + ["Captain Hals"]
    # 1 hit: each of 4 members 1/4; 2 hits: 1/2; 3 hits: 3/4
    expected = sum(result.hits.p(h) * F(h, 4) for h in (1, 2, 3))
    assert all(m.hits.p(1) == expected and m.hits.p(2) == 0 for m in result.members)
    repeated = odds(shot("repeater", ARMOURED, FEW, options={"excess_distinct": False}))
    assert repeated.member("Captain Hals").hits.p(3) == result.hits.p(3) * F(1, 4) ** 3


def test_automatic_no_shot_and_out_of_range():
    assert odds(shot("fireball", LONE)).hits == {3: 1}
    moved = odds(shot("crossbow", SPEARMAN, SPEARMEN, circumstances={"moved": True}))
    assert moved.hits == {0: 1}
    assert moved.states == {"no hit": 1}
    assert odds(shot("bow", SPEARMAN, SPEARMEN, distance=61)).hit == 0


def test_a_refused_target_cannot_be_hit():
    result = odds(shot("bow", CAPTAIN, SWORDSMEN))  # not larger than his unit
    assert result.hit == 0
    assert result.states.p("no hit") == 1
    assert "may not be targeted" in str(result.notes[0])
    with pytest.raises(GmkitError, match="no weapon"):
        odds(shot("sling", LONE))


def test_the_gm_may_allow_a_refused_shot():
    refused = odds(shot("bow", LONE, SCREEN, distance=30))  # screened, farther than the screen
    assert (refused.hit, refused.states.p("no hit")) == (0, 1)
    assert "not the closest legal target: Anselm at 30 cm, Halberdiers at 20 cm" in str(
        refused.notes[0]
    )
    allowed = odds(shot("bow", LONE, SCREEN, distance=30, options={"gm_allows_shot": True}))
    assert allowed.hit == F(1, 3)  # 4+, -1 for a lone infantry character (30 cm: not long range)
    assert allowed.p("wounded") == F(1, 3) * F(1, 2)  # S 3 against T 3, no armour
    assert allowed.notes == ()


def test_curve_over_the_total_modifier():
    request = shot("bow", LONE, distance=40)
    line = curve(request)
    assert line.current == -2
    assert line[-2] == odds(request)
    hits = line.of(lambda o: o.hit)
    assert hits[0] == F(1, 2)
    assert hits[-4] == F(1, 6) * F(1, 3)
    assert hits[4] == F(5, 6)
    assert curve(shot("rock", CAPTAIN, SWORDSMEN)).current is None


def outcome(result):
    """Hits, and per member label: (hits, unsaved wounds), from the resolver's steps (their
    messages' parameters) and effects."""
    members = {}
    for step in result.steps:
        if step.title.id == "wfb6.to_wound.title":
            member = str(step.title.arguments["member"])
            members[member] = [step.outcome.arguments["hits"], 0]
    for effect in result.effects:
        if effect.kind == "damage":
            members[str(effect.note) if effect.note else effect.target][1] += effect.amount
    return result.hits, tuple(sorted((name, tuple(v)) for name, v in members.items()))


def slain_of(member, wounds: int) -> int:
    """Models slain by ``wounds``: a single model at its W; the rank and file one per W."""
    if member.models == 1:
        return int(wounds >= member.wounds_each)
    return min(wounds // member.wounds_each, member.models or wounds)


def check_exactly(request: AttackRequest, limit: int = 20_000) -> None:
    result = odds(request)
    exact = exhaustive(request, outcome, limit=limit)
    assert exact.map(lambda o: o[0]) == result.hits
    for member in result.members:

        def taken(o, name=member.name):
            return dict(o[1]).get(name, (0, 0))

        assert exact.map(lambda o, taken=taken: taken(o)[0]) == member.hits
        assert exact.map(lambda o, taken=taken: taken(o)[1]) == member.wounds
        assert exact.map(lambda o, t=taken, m=member: slain_of(m, t(o)[1])) == member.slain
    named = {member.name: member for member in result.members}

    def totals(o):
        wounds = sum(w for _, (_, w) in o[1])
        slain = sum(slain_of(named[name], w) for name, (_, w) in o[1])
        state = (
            "no hit"
            if not o[0]
            else "slain"
            if slain
            else "wounded, not slain"
            if wounds
            else "no wound"
        )
        return wounds, slain, state

    assert exact.map(lambda o: totals(o)[0]) == result.wounds
    assert exact.map(lambda o: totals(o)[1]) == result.details["models slain"]
    assert exact.map(lambda o: totals(o)[2]) == result.states


@pytest.mark.parametrize(
    "request_",
    [
        shot("bow", SPEARMAN, SPEARMEN),
        shot("bow", LONE, distance=40, bs=1),
        shot("handgun", ARMOURED, SWORDSMEN),
        shot("rock", CAPTAIN, SWORDSMEN),
        shot("rock", CHAMPION, SWORDSMEN),
        shot("volley", SPEARMAN, SPEARMEN),
        shot("darts", MILITIAMAN, MILITIA),
        shot("darts", MILITIAMAN, MILITIA, options={"excess_distinct": False}),
        shot("fireball", MILITIAMAN, MILITIA),
        shot("fireball", CAPTAIN, FEW),
        shot("bow", LONE, SCREEN, distance=30, options={"gm_allows_shot": True}),
        shot("bow", CAPTAIN, SWORDSMEN, options={"gm_allows_shot": True}),
    ],
)
def test_hand_cases_equal_the_resolver_over_every_die(request_):
    check_exactly(request_)
