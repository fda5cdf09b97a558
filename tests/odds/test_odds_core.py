"""The common odds value (Dist, Odds, Curve), the dispatch by game, and the resolver checks."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from gmkit.dice import DiceSource
from gmkit.errors import GmkitError
from gmkit.games import OddsEngine, game, register, unregister
from gmkit.odds import (
    Curve,
    Dist,
    Odds,
    TooManyPaths,
    curve,
    exhaustive,
    game_of,
    odds,
    simulate,
)
from gmkit.odds._sixes import Probe, faces, needed_at
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems._sixes import roll_needed
from gmkit.systems.base import AttackRequest, AttackResult, Step

F = Fraction


def test_bernoulli_and_binomial_are_exact_and_sum_to_one():
    coin = Dist.bernoulli(F(1, 3))
    assert (coin[True], coin[False], coin.total()) == (F(1, 3), F(2, 3), 1)
    three = Dist.binomial(3, F(1, 2))
    assert dict(three) == {0: F(1, 8), 1: F(3, 8), 2: F(3, 8), 3: F(1, 8)}
    assert three.mean() == F(3, 2)
    assert three.at_least(2) == F(1, 2)
    assert Dist.binomial(0, F(1, 6)) == {0: 1}
    with pytest.raises(ValueError, match="between 0 and 1"):
        Dist.bernoulli(F(3, 2))
    with pytest.raises(ValueError, match="positive"):
        Dist({0: 1}, 0)


def test_mixture_given_map_combine_and_thin():
    die = Dist({face: 1 for face in range(1, 7)}, 6)
    assert die.map(lambda face: face >= 5) == {True: F(1, 3), False: F(2, 3)}
    # a d6, then that many coin flips: P(no heads) = mean of (1/2)^n
    heads = die.given(lambda n: Dist.binomial(n, F(1, 2)))
    assert heads.total() == 1
    assert heads.p(0) == sum(F(1, 6) * F(1, 2) ** n for n in range(1, 7))
    two = die.combine(die, lambda a, b: a + b)
    assert two.p(7) == F(1, 6)
    assert two.total() == 1
    thinned = Dist({1: 1, 3: 1}, 2).thin(F(1, 2))
    assert thinned.total() == 1
    assert thinned.p((3, 3)) == F(1, 2) * F(1, 8)
    assert thinned.p((1, 0)) == F(1, 4)
    mixed = Dist.mixture([(1, Dist.certain("a")), (2, die.map(str))], 3)
    assert mixed.p("a") == F(1, 3)
    assert mixed.p("1") == F(2, 18)


def test_equality_reading_and_views():
    one = Dist({0: 0, 1: 6}, 6)
    assert one == Dist.certain(1)  # a listed impossible outcome counts as 0
    assert one == {1: F(1)}
    assert one != Dist.certain(0)
    assert one.p("missing") == 0
    with pytest.raises(KeyError):
        one["missing"]
    assert one.reduced().denominator == 1
    assert Dist({0: 2, 1: 4}, 6).reduced().counts == {0: 1, 1: 2}
    assert Dist.certain(2).with_keys([0, 1, 2]).as_float() == {0: 0.0, 1: 0.0, 2: 1.0}
    assert list(Dist.certain(2).with_keys([0, 1])) == [0, 1, 2]
    assert "1/3" in repr(Dist.bernoulli(F(1, 3)))
    assert Dist.chance(Dist({1: 1, 2: 1, 3: 1}, 3), lambda n: n > 1) == F(2, 3)


HALF = F(1, 2)


def _odds(game: str = "toy", hit: Fraction = HALF) -> Odds:
    hits = Dist.bernoulli(hit).map(int)
    return Odds(
        game=game,
        hits=hits,
        per_hit=Dist.certain(1),
        wounds=hits,
        damage=hits,
        states=hits.map(lambda h: "hit" if h else "missed"),
        events={"hit": hit},
    )


def test_odds_reads_events_states_and_floats():
    result = _odds()
    assert (result.hit, result.expected_hits, result.expected_damage) == (F(1, 2),) * 3
    assert result.p("hit") == F(1, 2)
    assert result.p("missed") == F(1, 2)
    assert result.p("unknown") == 0
    floats = result.as_float()
    assert floats["hit"] == 0.5
    assert floats["states"] == {"hit": 0.5, "missed": 0.5}
    assert all(dist.total() == 1 for _, dist in result.distributions())
    with pytest.raises(KeyError, match="no member"):
        result.member("nobody")


class _Toy:
    game = "toy"
    name = "toy"


def _toy_game(engine: OddsEngine | None) -> None:
    """A toy game: Necromunda's parts under another id, with the odds engine given."""
    register(replace(game("necromunda"), id="toy", odds=engine))


def test_registry_dispatches_by_the_attacker_sheets_game():
    fighter = NecromundaFighter.build(name="Tom")
    request = AttackRequest(fighter, "x", fighter)
    assert game_of(request) == "necromunda"
    assert game("necromunda").odds is not None
    assert game("necromunda").odds.curve is not None
    try:
        _toy_game(None)
        toy = AttackRequest(_Toy(), "x", _Toy())  # type: ignore[arg-type]
        with pytest.raises(GmkitError, match="no odds for 'toy'"):
            odds(toy)
        with pytest.raises(GmkitError, match="no curves for 'toy'"):
            curve(toy)
        _toy_game(OddsEngine(lambda request: _odds()))
        assert odds(toy).hit == F(1, 2)
        with pytest.raises(GmkitError, match="no curves"):
            curve(toy)

        def toy_curve(request, modifiers):
            points = tuple(modifiers or (0, 1))
            return Curve(points, tuple(_odds(hit=F(1 + m, 3)) for m in points), 0)

        _toy_game(OddsEngine(lambda request: _odds(), toy_curve))
        line = curve(toy)
        assert line.of(lambda o: o.hit) == {0: F(1, 3), 1: F(2, 3)}
        assert line.as_float(lambda o: o.hit)[1] == pytest.approx(2 / 3)
        assert line[1].hit == F(2, 3)
        with pytest.raises(KeyError, match="no point"):
            line[5]
    finally:
        unregister("toy")
    with pytest.raises(GmkitError, match="character sheet"):
        AttackRequest(object(), "x", object())  # type: ignore[arg-type]


@pytest.fixture
def toy_game():
    """The toy game registered (no odds of its own): requests of ``_Toy`` sheets are valid."""
    _toy_game(None)
    yield
    unregister("toy")


def _toy_resolve(request: AttackRequest, source: DiceSource) -> AttackResult:
    """A to-hit roll at 7+ (a 6, then 4+), then a d3 of damage on a hit."""
    test = roll_needed(7, source, "to hit")
    if not test.success:
        return AttackResult(request, (Step("To hit", "miss"),), ())
    damage = source.roll_die(3, "damage").value
    return AttackResult(request, (Step("Damage", str(damage)),), (), hits=1)


def test_exhaustive_runs_the_resolver_over_every_dice_sequence(toy_game):
    request = AttackRequest(_Toy(), "x", _Toy())  # type: ignore[arg-type]
    exact = exhaustive(request, lambda r: (r.hits, r.steps[-1].outcome), resolve=_toy_resolve)
    assert exact.total() == 1
    assert exact.p((0, "miss")) == 1 - F(1, 12)
    assert exact.p((1, "2")) == F(1, 36)
    with pytest.raises(TooManyPaths):
        exhaustive(request, lambda r: r.hits, resolve=_toy_resolve, limit=5)


def test_simulate_is_seeded_and_counts_every_trial(toy_game):
    request = AttackRequest(_Toy(), "x", _Toy())  # type: ignore[arg-type]
    first = simulate(request, lambda r: r.hits, 600, seed=3, resolve=_toy_resolve)
    assert first == simulate(request, lambda r: r.hits, 600, seed=3, resolve=_toy_resolve)
    assert sum(first.values()) == 600
    assert 20 <= first.get(1, 0) <= 80  # 1/12 of 600 is 50


def test_probe_and_faces_read_a_rule_without_deciding_it():
    probe = Probe([6, 3])
    assert [probe.roll_die(6, "a").value for _ in range(3)] == [6, 3, 1]
    assert tuple(probe.sides) == (6, 6, 6)
    assert Probe([9]).roll_die(3, "clamped").value == 3
    four_up = faces(lambda p: roll_needed(4, p, "test").success)
    assert four_up == {True: F(1, 2), False: F(1, 2)}
    assert faces(lambda p: "no die") == {"no die": 1}
    with pytest.raises(ValueError, match="not one d6"):
        faces(lambda p: (p.roll_die(6, "a"), p.roll_die(6, "b")))
    assert needed_at(3, 0) == 4
    assert needed_at(3, 3) == 2
    assert needed_at(2, -2) == 7
