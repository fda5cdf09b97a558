"""Dark Heresy and Deathwatch odds against the resolver: per game, 50 seeded random attacks
(catalog weapons, random profiles, armour, distances, modes, actions, circumstances, reactions,
hordes), each resolved 4,000 times through ``system(game).resolve_attack`` with seeded dice
(200,000 resolutions a game, on two processes), every headline outcome within 4 standard
errors (plus one resolution's worth, for the rare events) of the exact odds."""

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
from gmkit.odds._percentile import OddsError
from gmkit.sheets._dark_heresy import DarkHeresyCharacter
from gmkit.sheets._deathwatch import DeathwatchCharacter
from gmkit.systems import _choices as choices
from gmkit.systems import system
from gmkit.systems._catalogs import catalog
from gmkit.systems.base import AttackRequest

REQUESTS = 50
TRIALS = 4_000
SEED = 20260707
KEYS = ("WS", "BS", "S", "T", "Ag", "Int", "Per", "WP", "Fel")
SHEETS = {"dark_heresy": DarkHeresyCharacter, "deathwatch": DeathwatchCharacter}
TALENTS = {
    "dark_heresy": [
        "Basic Weapon Training",
        "Pistol Training",
        "Heavy Weapon Training",
        "Melee Weapon Training",
        "Thrown Weapon Training",
    ],
    "deathwatch": ["Astartes Weapon Training"],
}
WEIGHTS = {
    "called_shot": 0.4,
    "full_auto_burst": 2.0,
    "semi_auto_burst": 2.0,
    "multiple_attacks": 2.0,
}
FLAGS = (
    "darkness",
    "fog",
    "engaged_in_melee",
    "higher_ground",
    "target_prone",
    "target_stunned",
    "target_running",
    "target_helpless",
    "target_unaware",
    "attacker_fatigued",
)


def _profile(rng: random.Random, low: int, high: int) -> dict[str, int]:
    return {key: rng.randint(low, high) for key in KEYS}


def _sheet(rng: random.Random, game: str, name: str, weapons: list[Any], target: bool) -> Any:
    armour = list(catalog(game, "armour").values())
    data: dict[str, Any] = {
        "name": name,
        "characteristics": _profile(rng, 25, 60),
        "wounds": rng.randint(8, 24),
        "weapons": [w.model_dump() for w in weapons],
        "talents": list(TALENTS[game]) + (["Swift Attack"] if rng.random() < 0.3 else []),
    }
    if rng.random() < 0.7:
        data["armour"] = [rng.choice(armour).model_dump()]
    elif rng.random() < 0.5:
        data["armour_points"] = {
            place: rng.randint(0, 8) for place in ("head", "arms", "body", "legs")
        }
    if game == "deathwatch" and rng.random() < 0.4:
        data["unnatural"] = {"S": rng.choice([1, 2]), "T": rng.choice([1, 2])}
    if target:
        data["damage"] = rng.choice([0, 0, rng.randint(0, data["wounds"])])
        if game == "deathwatch" and rng.random() < 0.3:
            size = rng.randint(10, 40)
            data["tier"] = "troop"
            data["horde"] = {"magnitude_max": size, "magnitude": rng.randint(1, size)}
            if rng.random() < 0.5:
                data["horde"]["armour"] = rng.randint(0, 6)
    return SHEETS[game].build(data)


def _circumstances(rng: random.Random, game: str, action: str) -> dict[str, Any]:
    found: dict[str, Any] = {}
    if rng.random() < 0.35:
        found["cover"] = rng.randint(2, 12)
    for flag in FLAGS:
        if rng.random() < 0.06:
            found[flag] = True
    if rng.random() < 0.2:
        found["gm_modifier"] = rng.choice([-30, -20, -10, 10, 20, 30])
    if rng.random() < 0.1:
        found["size"] = rng.choice([-20, -10, 10, 20, 30])
    offered = {choice.id for choice in choices.circumstances(game, action)}
    return {key: value for key, value in found.items() if key in offered}


def random_request(rng: random.Random, game: str) -> AttackRequest:
    weapons = list(catalog(game, "weapons").values())
    carried = rng.sample(weapons, 2)
    attacker = _sheet(rng, game, "Attacker", carried, target=False)
    target = _sheet(rng, game, "Target", rng.sample(weapons, 1), target=True)
    weapon = rng.choice([*carried, carried[0]]).name if rng.random() < 0.95 else "Unarmed"
    offered = choices.attack_choices(game, attacker, weapon)
    mode = rng.choice([m.id for m in offered.modes]) if offered.modes else "melee"
    legal = choices.attack_choices(game, attacker, weapon, mode=mode)
    actions = [a.id for a in legal.actions] or ["standard_attack"]
    weights = [WEIGHTS.get(a, 1.0) for a in actions]
    action = rng.choices(actions, weights)[0]
    called = None
    if action == "called_shot":
        called = rng.choice(choices.locations(game, action))
    options: dict[str, Any] = {}
    roll = rng.random()
    if roll < 0.45:
        options["reaction"] = rng.choice(["dodge", "parry"])
        if rng.random() < 0.2:
            options["reactions_left"] = rng.choice([0, 2])
    if game == "dark_heresy" and rng.random() < 0.25:
        options["righteous_fury_house_rule"] = True
    if rng.random() < 0.1:
        options["prepared"] = {"aim": rng.choice(["half", "full"])}
    reach = max(2, getattr(next((w for w in carried if w.name == weapon), None), "range", 0))
    distance = round(rng.uniform(1, reach * 1.5), 1) if rng.random() < 0.85 else None
    return AttackRequest(
        attacker,
        weapon,
        target,
        action=action,
        mode=mode,
        distance=distance,
        called_location=called,
        circumstances=_circumstances(rng, game, action),
        options=options,
    )


@cache
def requests(game: str) -> tuple[tuple[AttackRequest, ...], int]:
    """50 attacks the rules resolve and the odds answer, and how many draws were refused (by
    the rules, or special attacks the odds leave to the resolver)."""
    rng = random.Random(f"{SEED}-{game}")
    found: list[AttackRequest] = []
    refused = 0
    while len(found) < REQUESTS:
        request = random_request(rng, game)
        try:
            odds(request)
            system(game).resolve_attack(request, _Dice())
        except OddsError:
            refused += 1
            continue
        except GmkitError:
            refused += 1
            continue
        found.append(request)
    return tuple(found), refused


class _Dice:
    """A probe: every die reads 1 (resolving once to see the rules accept the request)."""

    def __init__(self) -> None:
        self.history: list[Any] = []

    def roll_die(self, sides: int, purpose: str) -> Any:
        from gmkit.dice import DieRoll

        return DieRoll(sides, 1, purpose, physical=False)


def read(result: Any) -> tuple[int, bool, bool, bool, int, bool, bool]:
    """What a resolution shows: hits, jam, wounded, critically damaged, magnitude lost, on
    fire, pinned."""
    target = result.request.target
    effects = result.effects
    damage = sum(e.amount for e in effects if e.kind == "damage" and e.target == target.name)
    critical = any(e.kind == "critical" and e.target == target.name for e in effects)
    critical = critical or damage > target.wounds_remaining
    return (
        result.hits,
        any(e.kind == "jam" for e in effects),
        damage > 0,
        critical,
        sum(e.amount for e in effects if e.kind == "magnitude"),
        any(e.kind == "condition" and e.condition == "on_fire" for e in effects),
        any(e.kind == "pinned" for e in effects),
    )


def headline(result: Odds, horde: bool) -> dict[str, tuple[Fraction, Any]]:
    """Outcome name -> (exact chance, test of a resolution's outcome)."""
    checks: dict[str, tuple[Fraction, Any]] = {
        "hit": (result.hit, lambda o: o[0] > 0),
        "jam": (result.p("jam"), lambda o: o[1]),
        "critically damaged": (result.p("critically damaged"), lambda o: o[3]),
    }
    for count in result.hits:
        checks[f"{count} hits"] = (result.hits.p(count), lambda o, n=count: o[0] == n)
    if horde:
        lost = result.details["magnitude lost"]
        checks["magnitude lost"] = (result.p("magnitude lost"), lambda o: o[4] > 0)
        for amount in lost:
            checks[f"magnitude -{amount}"] = (lost.p(amount), lambda o, n=amount: o[4] == n)
    else:
        checks["wounded"] = (result.p("wounded"), lambda o: o[2])
    if "on fire" in result.events:
        checks["on fire"] = (result.p("on fire"), lambda o: o[5])
    if "pinned" in result.events:
        checks["pinned"] = (result.p("pinned"), lambda o: o[6])
    return checks


def tallies(game: str, sample: tuple[AttackRequest, ...]) -> list[dict[Any, int]]:
    """Each request resolved TRIALS times (seeded), the sample split over two processes."""
    resolve = system(game).resolve_attack
    context = multiprocessing.get_context("fork")
    halves = [list(range(0, len(sample), 2)), list(range(1, len(sample), 2))]
    pipes = [context.Pipe(duplex=False) for _ in halves]

    def work(numbers: list[int], sender: Any) -> None:
        found = {
            n: simulate(sample[n], read, TRIALS, f"{SEED}-{game}-{n}", resolve=resolve)
            for n in numbers
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


@pytest.mark.parametrize("game", ["dark_heresy", "deathwatch"])
def test_the_sample_covers_the_rules(game: str):
    sample, refused = requests(game)
    assert refused >= 1
    assert {r.mode for r in sample} >= {"single", "melee"}
    assert {r.mode for r in sample} & {"semi", "full"}
    assert any(r.options.reaction == "dodge" for r in sample)
    assert any(r.options.reaction == "parry" for r in sample)
    assert any(r.circumstances.get("cover") for r in sample)
    assert any(r.action == "called_shot" for r in sample)
    if game == "deathwatch":
        assert sum(1 for r in sample if getattr(r.target, "horde", None) is not None) >= 5
    else:
        assert any(r.options.righteous_fury_house_rule for r in sample)


@pytest.mark.slow  # 200,000 resolutions
@pytest.mark.parametrize("game", ["dark_heresy", "deathwatch"])
def test_odds_agree_with_200000_resolutions(game: str):
    sample, _ = requests(game)
    counted = tallies(game, sample)
    checked = 0
    for number, (request, tally) in enumerate(zip(sample, counted, strict=True)):
        result = odds(request)
        assert all(dist.total() == 1 for _, dist in result.distributions())
        assert sum(tally.values()) == TRIALS
        horde = getattr(request.target, "horde", None) is not None
        for name, (exact, test) in headline(result, horde).items():
            seen = sum(count for key, count in tally.items() if test(key)) / TRIALS
            p = float(exact)
            error = 4 * math.sqrt(p * (1 - p) / TRIALS) + 1 / TRIALS
            assert abs(seen - p) <= error, (game, number, name, seen, exact, request)
            checked += 1
    assert checked >= REQUESTS * 6
