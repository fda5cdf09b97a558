"""Necromunda odds against the resolver: 50 seeded random shots, each resolved 4,000 times
(200,000 resolutions) through ``system("necromunda").resolve_attack``, and resolved over
every sequence of dice where that is small enough."""

from __future__ import annotations

import math
import random
import re
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from gmkit.errors import RulesError
from gmkit.odds import Odds, TooManyPaths, exhaustive, odds, simulate
from gmkit.odds._necromunda import STATES
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems import system
from gmkit.systems._catalogs import catalog
from gmkit.systems.base import AttackRequest
from gmkit.systems.necromunda import FighterState, shot_setup

from ..shared.necromunda import HEAVY_BOLTER, LASCANNON, state_after

REQUESTS = 50
TRIALS = 4_000
SEED = 20260707
EXTRA_WEAPONS = [
    HEAVY_BOLTER,
    LASCANNON,
    {
        "name": "plasma pistol",
        "kind": "pistol",
        "short_range": 6,
        "long_range": 12,
        "to_hit_short": 2,
        "to_hit_long": -1,
        "strength": 6,
        "damage": "D3-1",
        "save_modifier": -3,
        "ammo_roll": 4,
    },
    {
        "name": "frag grenade",
        "kind": "grenade",
        "short_range": 4,
        "long_range": 8,
        "strength": 3,
        "damage": "1",
        "ammo_roll": "auto",
    },
]
ARMOUR = [None, *catalog("necromunda", "armour").values()]


def _weapons() -> list[Any]:
    shooting = [w for w in catalog("necromunda", "weapons").values() if w.kind != "close combat"]
    return [*shooting, *EXTRA_WEAPONS]


def _circumstances(rng: random.Random) -> dict[str, Any]:
    found: dict[str, Any] = {}
    cover = rng.choice([None, None, "partial_cover", "cover"])
    if cover:
        found[cover] = True
    if rng.random() < 0.2:
        found[rng.choice(["appearing", "charging", "disappearing"])] = True
    if rng.random() < 0.2:
        found["fast_moving"] = rng.choice([True, 8, 12])
    size = rng.choice([None, None, None, "small", "large"])
    if size:
        found[size] = True
    return found


def _target_state(rng: random.Random, target: NecromundaFighter) -> FighterState | None:
    kind = rng.choice(["fresh", "fresh", "pinned", "down", "hurt", "flesh", "hidden"])
    if kind == "fresh":
        return None
    if kind == "hurt":
        return FighterState(wounds_left=rng.randint(0, target.W - 1))
    if kind == "flesh":
        return FighterState(flesh_wounds=rng.randint(1, max(target.WS, target.BS) - 1 or 1))
    return FighterState(**{kind: True})


def random_request(rng: random.Random) -> AttackRequest:
    weapon = rng.choice(_weapons())
    name = weapon["name"] if isinstance(weapon, dict) else weapon.name
    shooter = NecromundaFighter.build(
        name="Shooter",
        BS=rng.randint(1, 5),
        S=rng.randint(2, 4),
        I=rng.randint(2, 6),
        weapons=[weapon],
    )
    ws, bs = rng.randint(1, 4), rng.randint(1, 4)
    target = NecromundaFighter.build(
        name="Target",
        T=rng.randint(2, 5),
        W=rng.choice([1, 1, 2, 3]),
        WS=ws,
        BS=bs,
        armour=rng.choice(ARMOUR),
        flesh_wounds=rng.choice([0, 0, 0, 1]) if max(ws, bs) > 1 else 0,
    )
    reach = (
        getattr(weapon, "long_range", None)
        or (weapon.get("long_range") if isinstance(weapon, dict) else None)
        or 12
    )
    options: dict[str, Any] = {}
    if (state := _target_state(rng, target)) is not None:
        options["target_state"] = state
    if rng.random() < 0.1:
        options["attacker_state"] = FighterState(hidden=True)
    if rng.random() < 0.4:
        options["armour_saves"] = True
    if rng.random() < 0.3:
        options["ammo_auto"] = rng.choice(["pass", "fail"])
    if rng.random() < 0.15:
        options["gm_allows_shot"] = True
    return AttackRequest(
        shooter,
        name,
        target,
        distance=round(rng.uniform(0, reach + 6), 1),
        circumstances=_circumstances(rng),
        options=options,
    )


@cache
def requests() -> tuple[tuple[AttackRequest, ...], int]:
    """50 shots the resolver accepts, and how many refused ones were checked on the way."""
    rng = random.Random(SEED)
    found: list[AttackRequest] = []
    refused = 0
    while len(found) < REQUESTS:
        request = random_request(rng)
        try:
            shot_setup(request)
            odds(request)
        except RulesError as error:
            message = re.escape(str(error))
            with pytest.raises(RulesError, match=f"^{message}$"):
                system("necromunda").resolve_attack(request, None)  # type: ignore[arg-type]
            refused += 1
            continue
        found.append(request)
    return tuple(found), refused


def outcome(request: AttackRequest):
    """What a resolution shows: hits, wounded, wounds lost, new flesh wounds, the state after
    (as the effects leave the target), a failed ammo roll."""
    before = FighterState.read(request.options.target_state)

    def read(result) -> tuple[int, bool, int, int, str, bool]:
        flesh, state = state_after(before, result)
        wounded = any(str(step.title) == "Wounds" for step in result.steps)
        lost = sum(e.amount for e in result.effects if e.kind == "damage")
        jam = any(e.kind == "jam" for e in result.effects)
        return result.hits, wounded, lost, flesh, state, jam

    return read


def headline(result: Odds) -> dict[str, tuple[Fraction, Any]]:
    """Outcome name -> (exact chance, test of a resolution's outcome)."""
    checks: dict[str, tuple[Fraction, Any]] = {
        "hit": (result.hit, lambda o: o[0] > 0),
        "wounded": (result.p("wounded"), lambda o: o[1]),
        "ammo roll failed": (result.p("ammo roll failed"), lambda o: o[5]),
    }
    for state in STATES:
        checks[state] = (result.states.p(state), lambda o, state=state: o[4] == state)
    return checks


def test_the_sample_covers_the_rules():
    sample, refused = requests()
    setups = [shot_setup(request) for request in sample]
    assert refused >= 1
    assert any(s.weapon.template for s in setups)
    assert any(s.band == "out of range" for s in setups)
    assert any((s.needed or 0) >= 7 for s in setups)
    assert any(s.weapon.damage != "1" for s in setups)
    assert any(s.high_impact for s in setups)
    assert any(s.target_state.down for s in setups)
    assert any(r.options.armour_saves and r.target.armour for r in sample)
    assert any(r.target.W > 1 for r in sample)


@pytest.mark.slow  # 200,000 resolutions
def test_odds_agree_with_200000_resolutions():
    sample, _ = requests()
    checked = 0
    for number, request in enumerate(sample):
        result = odds(request)
        assert all(dist.total() == 1 for _, dist in result.distributions())
        shared = set(result.events) & set(result.states)  # a shared name: the same chance
        assert all(result.events[name] == result.states[name] for name in shared)
        tally = simulate(request, outcome(request), TRIALS, seed=f"{SEED}-{number}")
        for name, (exact, test) in headline(result).items():
            seen = sum(count for key, count in tally.items() if test(key)) / TRIALS
            p = float(exact)
            error = 4 * math.sqrt(p * (1 - p) / TRIALS)
            assert abs(seen - p) <= error + 1e-12, (number, name, seen, exact, request)
            checked += 1
    assert checked == REQUESTS * 8


def test_odds_equal_the_resolver_over_every_sequence_of_dice():
    sample, _ = requests()
    enumerated = 0
    for request in sample:
        try:
            exact = exhaustive(request, outcome(request), limit=3_000)
        except TooManyPaths:
            continue
        result = odds(request)
        assert exact.map(lambda o: o[0]) == result.hits
        assert exact.chance(lambda o: o[1]) == result.p("wounded")
        assert exact.map(lambda o: o[2]) == result.damage
        assert exact.map(lambda o: o[3]) == result.details["flesh wounds"]
        assert exact.map(lambda o: o[4]) == result.states
        assert exact.chance(lambda o: o[5]) == result.p("ammo roll failed")
        enumerated += 1
    assert enumerated >= 35
