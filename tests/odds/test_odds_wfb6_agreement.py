"""WFB 6e odds against the resolver: 50 seeded random shots, each resolved 4,000 times
(200,000 resolutions) through ``system("wfb6").resolve_attack``, and resolved over every
sequence of dice where that is small enough."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from gmkit.odds import Odds, TooManyPaths, exhaustive, odds, simulate
from gmkit.odds._wfb6 import STATES
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.systems._catalogs import catalog
from gmkit.systems.base import AttackRequest
from gmkit.systems.wfb6 import Situation, UnitOnTable

REQUESTS = 50
TRIALS = 4_000
SEED = 20260708
EXTRA_WEAPONS = [
    {"name": "repeater", "range_cm": 60, "strength": 4, "shots": 3},
    {"name": "volley", "range_cm": 40, "strength": 3, "shots": 2},
    {"name": "stone thrower", "range_cm": 150, "strength": 8, "special": ["stone thrower"]},
    {"name": "great cannon", "range_cm": 150, "strength": 10, "special": ["cannon"]},
    {"name": "fire breath", "range_cm": 20, "strength": 4, "special": ["breath weapon"]},
    {"name": "fireball", "range_cm": 60, "strength": 4, "shots": 3, "special": ["magic missile"]},
    {"name": "bolt", "range_cm": 60, "strength": 5, "shots": 1, "special": ["spell"]},
    {"name": "comet", "range_cm": 60, "strength": 5, "special": ["template spell"]},
]
ARMOUR = [
    [],
    [{"name": "light armour", "save": 6}],
    [{"name": "light armour", "save": 6}, {"name": "shield", "improves": 1}],
    [{"name": "heavy armour", "save": 5}],
    [{"name": "plate", "save": 4}, {"name": "shield", "improves": 1}],
]
PROFILES = [
    {"troop_type": "infantry"},
    {"troop_type": "cavalry", "mount": "warhorse"},
    {"troop_type": "monster"},
    {"troop_type": "monstrous_infantry"},
]


def _weapons() -> list[Any]:
    return [*catalog("wfb6", "weapons").values(), *EXTRA_WEAPONS]


def _model(
    rng: random.Random, name: str, role: str, unit: str = "", **fields: Any
) -> WFB6Character:
    fields.setdefault("T", rng.randint(3, 5))
    fields.setdefault("W", rng.choice([1, 1, 2, 3]))
    return WFB6Character.build(
        name=name, side="Empire", role=role, unit=unit, armour=rng.choice(ARMOUR), **fields
    )


def _circumstances(rng: random.Random) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, chance in (("moved", 0.2), ("stand_and_shoot", 0.1)):
        if rng.random() < chance:
            found[key] = True
    cover = rng.choice([None, None, "soft_cover", "hard_cover"])
    if cover:
        found[cover] = True
    if rng.random() < 0.15:
        found["gm"] = rng.choice([-1, 1])
    if rng.random() < 0.1:
        found["long_range"] = rng.choice([True, False])
    return found


def _target(rng: random.Random) -> tuple[WFB6Character, tuple[UnitOnTable, ...], str]:
    """A target model, the units around it, and the scenario's name."""
    scenario = rng.choice(["lone", "lone", "big unit", "small unit", "champion", "character"])
    if scenario == "lone":
        body = rng.choice(PROFILES)
        target = _model(rng, "Anselm", "character", **body)
        units: tuple[UnitOnTable, ...] = ()
        if rng.random() < 0.5:  # friends nearby: Proximity, closest legal target
            units = (
                UnitOnTable(
                    "Swordsmen",
                    "Empire",
                    rank_and_file=rng.randint(3, 12),
                    distance_cm=rng.choice([5, 12, 20]),
                    shooter_distance_cm=rng.choice([10, 30, 60]),
                ),
            )
        return target, units, scenario
    name = "Guard"
    trooper = _model(rng, "Guardsman", "rank and file", name)
    models = [trooper]
    rank_and_file = rng.randint(5, 20) if scenario == "big unit" else rng.randint(1, 4)
    if rng.random() < 0.4 or scenario == "champion":
        models.append(_model(rng, "Sergeant", "champion", name, T=trooper.T, W=trooper.W))
    characters = rng.randint(1, 2) if scenario in ("small unit", "character") else rng.randint(0, 1)
    for number in range(characters):
        body = rng.choice(PROFILES[:1] * 3 + PROFILES) if scenario == "character" else {}
        models.append(_model(rng, f"Captain {number + 1}", "character", name, **body))
    unit = UnitOnTable.of(
        models, rank_and_file=rank_and_file, shooter_distance_cm=rng.choice([10, 30])
    )
    if scenario == "champion":
        return models[1], (unit,), scenario
    if scenario == "character":
        return models[-1], (unit,), scenario
    return trooper, (unit,), scenario


def random_request(rng: random.Random) -> AttackRequest:
    weapon = rng.choice(_weapons())
    name = weapon["name"] if isinstance(weapon, dict) else weapon.name
    reach = weapon["range_cm"] if isinstance(weapon, dict) else weapon.range_cm
    special = ["shoots into combat"] if rng.random() < 0.1 else []
    shooter = WFB6Character.build(
        name="Shooter",
        side="Orcs",
        role="rank and file",
        unit="Archers",
        BS=rng.randint(1, 6),
        S=rng.randint(3, 4),
        weapons=[weapon],
        special_rules=special,
    )
    target, units, _ = _target(rng)
    situation = Situation(
        units,
        distance_cm=round(rng.uniform(0, reach + 15), 1),
        in_sight=rng.random() < 0.95,
        engaged=rng.random() < 0.05,
    )
    options: dict[str, Any] = {"situation": situation}
    if rng.random() < 0.3:
        options["excess_distinct"] = False
    if rng.random() < 0.1:
        options["look_out_sir"] = True
    return AttackRequest(shooter, name, target, circumstances=_circumstances(rng), options=options)


@cache
def requests() -> tuple[AttackRequest, ...]:
    rng = random.Random(SEED)
    return tuple(random_request(rng) for _ in range(REQUESTS))


def outcome(result) -> tuple[int, tuple[tuple[str, tuple[int, int]], ...], bool]:
    """Hits; per model label (hits, unsaved wounds) from the wound steps (their messages'
    parameters) and damage effects; whether "Look out, Sir!" passed."""
    members: dict[str, list[int]] = {}
    dodged = False
    for step in result.steps:
        if step.title.id == "wfb6.to_wound.title":
            member = str(step.title.arguments["member"])
            members[member] = [step.outcome.arguments["hits"], 0]
        if step.outcome.id == "wfb6.look_out_sir.dodged":
            dodged = True
    for effect in result.effects:
        if effect.kind == "damage":
            members[str(effect.note) if effect.note else effect.target][1] += effect.amount
    taken = tuple(sorted((name, (hits, wounds)) for name, (hits, wounds) in members.items()))
    return result.hits, taken, dodged


def _slain(member, wounds: int) -> int:
    if member.models == 1:
        return int(wounds >= member.wounds_each)
    return min(wounds // member.wounds_each, member.models or wounds)


def summary(result: Odds):
    """Outcome of a resolution -> (state, {label: models slain}), by the odds' members."""
    named = {member.name: member for member in result.members}

    def read(o) -> tuple[str, dict[str, int]]:
        hits, taken, _ = o
        wounds = sum(w for _, (_, w) in taken)
        slain = {name: _slain(named[name], w) for name, (_, w) in taken}
        state = (
            "no hit"
            if not hits
            else "slain"
            if any(slain.values())
            else "wounded, not slain"
            if wounds
            else "no wound"
        )
        return state, slain

    return read


def headline(result: Odds) -> dict[str, tuple[Fraction, Any]]:
    read = summary(result)
    checks: dict[str, tuple[Fraction, Any]] = {
        "hit": (result.hit, lambda o: o[0] > 0),
        "wounded": (result.p("wounded"), lambda o: any(w for _, (_, w) in o[1])),
        "look out sir": (result.p("look out sir"), lambda o: o[2]),
    }
    for state in STATES:
        checks[state] = (result.states.p(state), lambda o, state=state: read(o)[0] == state)
    for member in result.members:
        checks[f"{member.name} slain"] = (
            member.p_slain,
            lambda o, name=member.name: read(o)[1].get(name, 0) > 0,
        )
    return checks


def test_the_sample_covers_the_rules():
    sample = requests()
    results = [odds(request) for request in sample]
    assert any(r.notes for r in results)  # refused targets
    assert any(r.p("look out sir") for r in results)
    assert any(len(r.members) > 2 for r in results)  # shared among a small unit
    assert any(r.hits.p(0) == 1 and not r.notes for r in results)  # no shot, out of range
    assert any(len(r.hits) > 2 for r in results)  # several shots
    assert any(r.hits.p(1) == 1 for r in results)  # templates and spells
    assert any(
        req.options.excess_distinct is False and len(r.members) > 2
        for req, r in zip(sample, results, strict=True)
    )
    assert any(0 < r.hit < Fraction(1, 6) for r in results)  # the 7+ chart


@pytest.mark.slow  # 200,000 resolutions
def test_odds_agree_with_200000_resolutions():
    checked = 0
    for number, request in enumerate(requests()):
        result = odds(request)
        assert all(dist.total() == 1 for _, dist in result.distributions())
        shared = set(result.events) & set(result.states)  # a shared name: the same chance
        assert all(result.events[name] == result.states[name] for name in shared)
        tally = simulate(request, outcome, TRIALS, seed=f"{SEED}-{number}")
        for name, (exact, test) in headline(result).items():
            seen = sum(count for key, count in tally.items() if test(key)) / TRIALS
            p = float(exact)
            error = 4 * math.sqrt(p * (1 - p) / TRIALS)
            assert abs(seen - p) <= error + 1e-12, (number, name, seen, exact)
            checked += 1
    assert checked >= REQUESTS * 7


def test_odds_equal_the_resolver_over_every_sequence_of_dice():
    enumerated = 0
    for request in requests():
        try:
            exact = exhaustive(request, outcome, limit=3_000)
        except TooManyPaths:
            continue
        result = odds(request)
        read = summary(result)
        assert exact.map(lambda o: o[0]) == result.hits
        assert exact.map(lambda o, read=read: read(o)[0]) == result.states
        assert exact.map(lambda o: sum(w for _, (_, w) in o[1])) == result.wounds
        assert exact.chance(lambda o: o[2]) == result.p("look out sir")
        for member in result.members:

            def taken(o, name=member.name):
                return dict(o[1]).get(name, (0, 0))

            assert exact.map(lambda o, taken=taken: taken(o)[0]) == member.hits
            assert exact.map(lambda o, taken=taken: taken(o)[1]) == member.wounds
        enumerated += 1
    assert enumerated >= 35
