"""WFRP 2e odds against the resolver: 50 seeded random attacks (catalog weapons and armour,
random profiles, actions, circumstances, reactions, Ulric's Fury on or off), each resolved
4,000 times through ``system("wfrp2").resolve_attack`` with seeded dice (200,000 resolutions,
on two processes), every headline outcome within 4 standard errors (plus one resolution's
worth, for the rare events) of the exact odds."""

from __future__ import annotations

import math
import multiprocessing
import random
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from gmkit.errors import GmkitError
from gmkit.odds import Odds, odds, simulate
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems import _choices as choices
from gmkit.systems import system
from gmkit.systems._catalogs import catalog
from gmkit.systems.base import AttackRequest

GAME = "wfrp2"
REQUESTS = 50
TRIALS = 4_000
SEED = 20260707
KEYS = ("WS", "BS", "S", "T", "Ag", "Int", "WP", "Fel")
ACTION_WEIGHTS = {"swift_attack": 2.5, "bonus_attack": 0.3}


def _sheet(rng: random.Random, name: str, weapons: list[Any]) -> WFRP2Character:
    armour = list(catalog(GAME, "armour").values())
    wounds = rng.randint(8, 16)
    data: dict[str, Any] = {
        "name": name,
        "characteristics": {key: rng.randint(25, 60) for key in KEYS},
        "secondary": {"A": rng.choice([1, 1, 2, 3]), "W": wounds, "M": 4},
        "wounds_current": rng.choice([wounds, wounds, rng.randint(0, wounds)]),
        "weapons": [w.model_dump() for w in weapons],
        "armour": [a.model_dump() for a in rng.sample(armour, rng.choice([0, 1, 1, 2]))],
        "skills": ["Dodge Blow"] if rng.random() < 0.6 else [],
        "talents": ["Ambidextrous"] if rng.random() < 0.1 else [],
    }
    return WFRP2Character.build(data)


def random_request(rng: random.Random) -> AttackRequest:
    weapons = list(catalog(GAME, "weapons").values())
    attacker = _sheet(rng, "Attacker", rng.sample(weapons, 2))
    target = _sheet(rng, "Target", rng.sample(weapons, rng.choice([1, 2])))
    weapon = rng.choice([*choices.weapons(GAME, attacker)])
    offered = choices.attack_choices(GAME, attacker, weapon)
    actions = [a.id for a in offered.actions] or ["standard_attack"]
    action = rng.choices(actions, [ACTION_WEIGHTS.get(a, 1.0) for a in actions])[0]
    found: dict[str, Any] = {}
    for item in choices.circumstances(GAME, action):
        if item.kind == "flag" and rng.random() < 0.08:
            found[item.id] = True
        if item.kind == "number" and rng.random() < 0.2:
            found[item.id] = rng.choice([-30, -20, -10, 10, 20, 30])
    if rng.random() < 0.35:
        found[rng.choice(["target_parry_stance", "target_second_weapon"])] = True
    options: dict[str, Any] = {}
    if rng.random() < 0.6:
        options["reaction"] = rng.choice(["parry", "dodge"])
    if rng.random() < 0.2:
        options["ulrics_fury"] = False
    ranged = offered.modes and offered.modes[0].id == "ranged"
    distance = None
    if ranged:
        reach = next((w.range_long for w in attacker.weapons if w.name == weapon), 20)
        distance = round(rng.uniform(1, reach), 1)
    elif action == "charge_attack":
        distance = round(rng.uniform(4, attacker.movement["charge"]), 1)
    return AttackRequest(
        attacker,
        weapon,
        target,
        action=action,
        mode="ranged" if ranged else "melee",
        distance=distance,
        circumstances=found,
        options=options,
    )


@cache
def requests() -> tuple[tuple[AttackRequest, ...], int]:
    """50 attacks the rules resolve, and how many draws the rules refused."""
    rng = random.Random(SEED)
    found: list[AttackRequest] = []
    refused = 0
    while len(found) < REQUESTS:
        request = random_request(rng)
        try:
            odds(request)
        except GmkitError:
            refused += 1
            continue
        found.append(request)
    return tuple(found), refused


def read(result: Any) -> tuple[int, int, bool, int]:
    """What a resolution shows: blows landed, wounds lost, a critical hit, wounds left."""
    target = result.request.target
    lost = sum(e.amount for e in result.effects if e.kind == "damage")
    critical = any(e.kind == "critical" for e in result.effects)
    return result.hits, lost, critical, max(0, target.wounds_current - lost)


def headline(result: Odds) -> dict[str, tuple[Fraction, Any]]:
    """Outcome name -> (exact chance, test of a resolution's outcome)."""
    checks: dict[str, tuple[Fraction, Any]] = {
        "hit": (result.hit, lambda o: o[0] > 0),
        "wounded": (result.p("wounded"), lambda o: o[1] > 0),
        "critically damaged": (result.p("critically damaged"), lambda o: o[2]),
        "damage >= 5": (result.damage.at_least(5), lambda o: o[1] >= 5),
    }
    for count in result.hits:
        checks[f"{count} hits"] = (result.hits.p(count), lambda o, n=count: o[0] == n)
    left = result.details["wounds left"]
    checks["no wounds left"] = (left.p(0), lambda o: o[3] == 0)
    return checks


def tallies(sample: tuple[AttackRequest, ...]) -> list[dict[Any, int]]:
    """Each request resolved TRIALS times (seeded), the sample split over two processes."""
    resolve = system(GAME).resolve_attack
    context = multiprocessing.get_context("fork")
    halves = [list(range(0, len(sample), 2)), list(range(1, len(sample), 2))]
    pipes = [context.Pipe(duplex=False) for _ in halves]

    def work(numbers: list[int], sender: Any) -> None:
        found = {
            n: simulate(sample[n], read, TRIALS, f"{SEED}-{n}", resolve=resolve) for n in numbers
        }
        sender.send(found)
        sender.close()

    workers = [
        context.Process(target=work, args=(numbers, sender))
        for numbers, (_, sender) in zip(halves, pipes, strict=True)
    ]
    for worker in workers:
        worker.start()
    found: dict[int, dict[Any, int]] = {}
    for receiver, _ in pipes:
        found.update(receiver.recv())
    for worker in workers:
        worker.join()
        assert worker.exitcode == 0
    return [found[n] for n in range(len(sample))]


def test_the_sample_covers_the_rules():
    sample, _ = requests()
    assert {r.mode for r in sample} == {"melee", "ranged"}
    assert sum(1 for r in sample if r.action == "swift_attack" and r.attacker.secondary.A > 1) >= 3
    assert any(r.options.get("reaction") == "parry" for r in sample)
    assert any(r.options.get("reaction") == "dodge" for r in sample)
    assert any(r.options.get("ulrics_fury") is False for r in sample)
    assert any(r.circumstances.get("target_helpless") for r in sample)
    assert any(r.target.wounds_current < r.target.secondary.W for r in sample)


@pytest.mark.slow  # 200,000 resolutions
def test_odds_agree_with_200000_resolutions():
    sample, _ = requests()
    counted = tallies(sample)
    checked = 0
    for number, (request, tally) in enumerate(zip(sample, counted, strict=True)):
        result = odds(request)
        assert all(dist.total() == 1 for _, dist in result.distributions())
        assert sum(tally.values()) == TRIALS
        for name, (exact, test) in headline(result).items():
            seen = sum(count for key, count in tally.items() if test(key)) / TRIALS
            p = float(exact)
            error = 4 * math.sqrt(p * (1 - p) / TRIALS) + 1 / TRIALS
            assert abs(seen - p) <= error, (number, name, seen, exact, request)
            checked += 1
    assert checked >= REQUESTS * 6
