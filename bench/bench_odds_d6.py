"""Exact odds of D6 attacks (Necromunda, WFB 6e) against a 1,000,000-trial numpy Monte Carlo.

Prints, for a few representative attacks per game: the median time of the full odds
(``gmkit.odds.odds``, warm: the same request again), of the first odds for a new attacker
(a fresh copy of the sheet each run, so nothing of that attacker was computed before; the
game's tables already read by the process), of a vectorised numpy Monte Carlo of the same
attack with 1,000,000 trials (its numbers read from the rules: ``shot_setup``, the injury
table, the damage dice, the to-hit and save modifiers; median of several runs), their ratio,
and the median time of the game's curve (the total to-hit modifier -4..+4: the nine points a
D6 game has, where the d100 games have 121). Each goal's figure goes through
``bench/goals.py``'s ``report`` (``odds.warm``, ``odds.first``, ``odds.curve`` per attack;
``odds.monte_carlo`` for the multi-shot attacks, the goal's bursts). It also repeats the
measurement that chose the engine (Fractions, integer counts over a common denominator, numpy
floats). It asserts nothing: timings belong to the machine that runs them.

    /work/venv/bin/python bench/bench_odds_d6.py [--quick]
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from functools import partial
from itertools import count
from math import comb
from typing import Any

import numpy as np

from gmkit.dice import distribution
from gmkit.odds import curve, odds
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.sheets._wfb6 import WFB6Character, resolve_strength
from gmkit.systems._catalogs import catalog
from gmkit.systems._sixes import SEVEN_PLUS, to_hit_needed, to_wound_needed
from gmkit.systems.base import AttackRequest
from gmkit.systems.necromunda import injury_table, shot_setup
from gmkit.systems.necromunda._state import bled_out
from gmkit.systems.wfb6 import Situation, UnitOnTable, shot_modifiers
from gmkit.systems.wfb6._data import shooting_rules, targeting_rules
from gmkit.systems.wfb6._targeting import target_modifiers

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from goals import GOALS, report

TRIALS = 1_000_000
QUICK = "--quick" in sys.argv
RUNS_ODDS = 50 if QUICK else 300
RUNS_CURVE = 20 if QUICK else 100
RUNS_MC = 3 if QUICK else 7


_FRESH = count(1)


def first_ms(request: AttackRequest, runs: int) -> float:
    """The median time of the odds for a new attacker: a fresh copy of the sheet each run
    (made before the clock starts), so no cache of the engine knows it."""
    times = []
    for _ in range(runs):
        fresh = request.attacker.edit(name=f"{request.attacker.name} {next(_FRESH)}")
        again = replace(request, attacker=fresh)
        start = time.perf_counter()
        odds(again)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def median_ms(function: Callable[[], Any], runs: int) -> float:
    function()  # warm: tables read, expressions parsed
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


# -- the D6 roll, vectorised ------------------------------------------------------------------


def d6(rng: np.random.Generator, shape: Any) -> np.ndarray:
    return np.asarray(rng.integers(1, 7, size=shape, dtype=np.int8))


def roll_needed(rng: np.random.Generator, needed: int | None, shape: Any) -> np.ndarray:
    """sixes.roll_needed for many rolls: a natural 1 fails; 7+ needs a 6 then the chart."""
    if needed is None or needed >= 10:
        return np.zeros(shape, dtype=bool)
    first = d6(rng, shape)
    if needed <= 6:
        return np.asarray((first >= max(needed, 2)) & (first != 1))
    return np.asarray((first == 6) & (d6(rng, shape) >= SEVEN_PLUS[needed]))


# -- Necromunda -------------------------------------------------------------------------------

WEAPONS = catalog("necromunda", "weapons")
HEAVY_BOLTER = {
    "name": "heavy bolter",
    "kind": "heavy",
    "short_range": 20,
    "long_range": 40,
    "strength": 5,
    "damage": "D3",
    "save_modifier": -2,
    "ammo_roll": 6,
}
LASCANNON = {
    "name": "lascannon",
    "kind": "heavy",
    "short_range": 20,
    "long_range": 60,
    "strength": 9,
    "damage": "D6",
    "save_modifier": -6,
    "ammo_roll": 4,
}


def necromunda_requests() -> dict[str, AttackRequest]:
    juve = NecromundaFighter.build(name="Jeb", BS=2, weapons=[WEAPONS["laspistol"]])
    ganger = NecromundaFighter.build(
        name="Mordecai", weapons=[WEAPONS["autogun"], HEAVY_BOLTER, LASCANNON]
    )
    tom = NecromundaFighter.build(name="Tom")
    meshed = NecromundaFighter.build(name="Ike", armour={"name": "mesh armour", "save": 5})
    leader = NecromundaFighter.build(name="Boss", T=4, W=2, WS=4, BS=4)
    return {
        "juve laspistol, 7+ (6 then 4+)": AttackRequest(
            juve, "laspistol", tom, distance=12, circumstances={"partial_cover": True}
        ),
        "autogun, mesh armour, saves on": AttackRequest(
            ganger, "autogun", meshed, distance=10, options={"armour_saves": True}
        ),
        "heavy bolter D3 at a W2 leader": AttackRequest(
            ganger, "heavy bolter", leader, distance=18
        ),
        "lascannon D6, high impact": AttackRequest(ganger, "lascannon", tom, distance=30),
    }


def necromunda_monte_carlo(request: AttackRequest, rng: np.random.Generator) -> dict[str, float]:
    """The shot, 1,000,000 times at once: P(hit), P(out of action), P(ammo roll failed)."""
    setup = shot_setup(request)
    target: NecromundaFighter = request.target  # type: ignore[assignment]
    shooter: NecromundaFighter = request.attacker  # type: ignore[assignment]
    n = TRIALS
    if setup.weapon.template:
        hit, first = np.ones(n, dtype=bool), None
    else:
        first = d6(rng, n)
        needed = setup.needed if setup.band != "out of range" else None
        if needed is None or needed >= 10:
            hit = np.zeros(n, dtype=bool)
        elif needed <= 6:
            hit = (first >= needed) & (first != 1)
        else:
            hit = (first == 6) & (d6(rng, n) >= SEVEN_PLUS[needed])
    jam = np.zeros(n, dtype=bool)
    ammo = setup.weapon.ammo_roll
    if first is not None and isinstance(ammo, int):
        jam = (first == 6) & ~roll_needed(rng, ammo, n)
    wounded = hit & roll_needed(rng, setup.to_wound, n)
    if request.options.armour_saves and target.armour_save is not None:
        save = max(2, target.armour_save - setup.weapon.save_modifier)
        if save <= 6:
            wounded &= ~roll_needed(rng, save, n)
    if setup.weapon.damage.strip() == "1":
        caused = wounded.astype(np.int64)
    else:
        dist = distribution(setup.weapon.damage, shooter.bonuses())
        outcomes = np.array([max(1, o) for o, _ in dist.items()])
        weights = np.array([float(p) for _, p in dist.items()])
        caused = np.where(wounded, rng.choice(outcomes, size=n, p=weights), 0)
    state = setup.target_state.with_changes(pinned=not setup.target_state.down)
    left = state.wounds(target)
    rolls = np.where(caused >= max(left, 1), caused - max(0, left - 1), 0)
    rolls = np.where(caused > 0, rolls, 0)
    chart = injury_table(setup.high_impact)
    code = {"flesh wound": 0, "down": 1, "out of action": 2}
    lut = np.array([0] + [code[chart[face]] for face in range(1, 7)], dtype=np.int8)
    bleed = next(f for f in range(1, 20) if bled_out(target, f))
    flesh = np.full(n, state.flesh(target), dtype=np.int64)
    out = np.zeros(n, dtype=bool)
    for roll in range(int(rolls.max(initial=0))):
        active = (rolls > roll) & ~out
        result = lut[d6(rng, n)]
        flesh += active & (result == 0)
        out |= active & (((result == 0) & (flesh >= bleed)) | (result == 2))
    return {"hit": hit.mean(), "out of action": out.mean(), "ammo roll failed": jam.mean()}


# -- WFB 6e -----------------------------------------------------------------------------------

BOW = {"name": "bow", "range_cm": 60, "strength": 3}
REPEATER = {"name": "repeater", "range_cm": 60, "strength": 4, "shots": 3}
ROCK = {"name": "rock", "range_cm": 150, "strength": 8, "special": ["stone thrower"]}


def wfb6_requests() -> dict[str, AttackRequest]:
    archer = WFB6Character.build(
        name="Archer",
        side="Orcs",
        role="rank and file",
        unit="Archers",
        weapons=[BOW, REPEATER, ROCK],
    )
    swordsman = WFB6Character.build(
        name="Swordsman",
        side="Empire",
        role="rank and file",
        unit="Swordsmen",
        armour=[{"name": "heavy", "save": 5}],
    )
    captain = WFB6Character.build(
        name="Captain",
        side="Empire",
        unit="Swordsmen",
        T=4,
        W=2,
        armour=[{"name": "plate", "save": 4}],
    )
    lone = WFB6Character.build(
        name="Anselm", side="Empire", T=3, armour=[{"name": "heavy", "save": 5}]
    )
    big = UnitOnTable.of([swordsman, captain], rank_and_file=15, shooter_distance_cm=30)
    few = UnitOnTable.of([swordsman, captain], rank_and_file=3, shooter_distance_cm=30)
    return {
        "bow at a lone character, long range": AttackRequest(archer, "bow", lone, distance=40),
        "repeater (3 shots) at a big unit": AttackRequest(
            archer, "repeater", swordsman, options={"situation": Situation((big,), 30)}
        ),
        "repeater (3 shots), 3 troops + captain": AttackRequest(
            archer, "repeater", swordsman, options={"situation": Situation((few,), 30)}
        ),
        "stone thrower, Look out Sir": AttackRequest(
            archer, "rock", captain, options={"situation": Situation((big,), 60)}
        ),
    }


def _unsaved(
    rng: np.random.Generator, hits: np.ndarray, profile: WFB6Character, strength: int, weapon: Any
) -> np.ndarray:
    """Unsaved wounds from ``hits`` (per trial) on ``profile``: a die per hit to wound, a die
    per wound to save (the saves by Strength of shooting.yaml)."""
    most = int(hits.max(initial=0))
    if most == 0:
        return np.zeros(len(hits), dtype=np.int64)
    mask = np.arange(most) < hits[:, None]
    wounds = mask & roll_needed(rng, to_wound_needed(strength, profile.T), mask.shape)
    if profile.armour_save is not None:
        modifiers = shooting_rules().save_modifiers(strength, weapon)
        save = profile.armour_save - sum(m.value for m in modifiers)
        if save <= 6:
            wounds &= ~roll_needed(rng, max(save, 2), mask.shape)
    return np.asarray(wounds.sum(axis=1))


def wfb6_monte_carlo(request: AttackRequest, rng: np.random.Generator) -> dict[str, float]:
    """The shot, 1,000,000 times at once: P(hit), P(any unsaved wound), P(the designated
    model (or one of its unit) slain)."""
    shooter: WFB6Character = request.attacker  # type: ignore[assignment]
    target: WFB6Character = request.target  # type: ignore[assignment]
    weapon = next(w for w in shooter.weapons if w.name == request.weapon)
    situation: Situation = request.options.situation or Situation(distance_cm=request.distance)
    kind = targeting_rules().kind_of(weapon, request.mode)
    unit = situation.unit_of(target)
    strength = resolve_strength(weapon.strength, shooter.S)
    n = TRIALS
    if kind.to_hit == "template":
        hits = np.ones(n, dtype=np.int64)
    else:
        modifiers = target_modifiers(target) + shot_modifiers(weapon, situation.distance_cm)
        needed = to_hit_needed(shooter.BS, modifiers)
        hits = roll_needed(rng, needed, (n, weapon.shots)).sum(axis=1)
    wounds = np.zeros(n, dtype=np.int64)
    slain = np.zeros(n, dtype=bool)
    if unit is None:  # a lone model
        wounds = _unsaved(rng, hits, target, strength, weapon)
        slain = wounds >= target.W
    elif kind.to_hit == "template":  # "Look out, Sir!": 2+ sends the hit to the rank and file
        rules = targeting_rules().look_out_sir
        dodged = d6(rng, n) >= rules.needed
        assert unit.trooper is not None
        troops = _unsaved(rng, np.where(dodged, hits, 0), unit.trooper, strength, weapon)
        own = _unsaved(rng, np.where(dodged, 0, hits), target, strength, weapon)
        wounds, slain = troops + own, (troops >= unit.trooper.W) | (own >= target.W)
    elif unit.troops >= targeting_rules().unit_models:  # the rank and file take every hit
        assert unit.trooper is not None
        wounds = _unsaved(rng, hits, unit.trooper, strength, weapon)
        slain = wounds >= unit.trooper.W
    else:  # shared: hits // members each, the rest one each to members picked at random
        profiles = [unit.trooper] * unit.troops + list(unit.characters)
        members = len(profiles)
        base, extra = hits // members, hits % members
        rank = np.argsort(np.argsort(rng.random((n, members)), axis=1), axis=1)
        for index, profile in enumerate(profiles):
            assert profile is not None
            taken = _unsaved(rng, base + (rank[:, index] < extra), profile, strength, weapon)
            wounds += taken
            slain |= taken >= profile.W
    return {"hit": (hits > 0).mean(), "wounded": (wounds > 0).mean(), "slain": slain.mean()}


# -- the engine -------------------------------------------------------------------------------


def kernel_fractions(
    shots: int = 10, p: Fraction = Fraction(1, 2), q: Fraction = Fraction(1, 3)
) -> dict[int, Fraction]:
    hits = {h: comb(shots, h) * p**h * (1 - p) ** (shots - h) for h in range(shots + 1)}
    total: dict[int, Fraction] = {}
    for h, ph in hits.items():
        for w in range(h + 1):
            total[w] = total.get(w, Fraction(0)) + ph * comb(h, w) * q**w * (1 - q) ** (h - w)
    return total


def kernel_counts(shots: int = 10) -> tuple[dict[int, int], int]:
    (pn, pd), (qn, qd) = (3, 6), (12, 36)
    total: dict[int, int] = {}
    for h in range(shots + 1):
        ch = comb(shots, h) * pn**h * (pd - pn) ** (shots - h) * qd ** (shots - h)
        for w in range(h + 1):
            total[w] = total.get(w, 0) + ch * comb(h, w) * qn**w * (qd - qn) ** (h - w)
    return total, pd**shots * qd**shots


def kernel_numpy(shots: int = 10, p: float = 0.5, q: float = 1 / 3) -> np.ndarray:
    h = np.arange(shots + 1)
    ph = np.array([comb(shots, k) for k in h], float) * p**h * (1 - p) ** (shots - h)
    table = np.zeros((shots + 1, shots + 1))
    for k in h:
        w = np.arange(k + 1)
        table[k, : k + 1] = np.array([comb(k, j) for j in w]) * q**w * (1 - q) ** (k - w)
    return np.asarray(ph @ table)


def main() -> None:
    rng = np.random.default_rng(7)
    warm, first, curve_goal = GOALS["odds.warm"], GOALS["odds.first"], GOALS["odds.curve"]
    print(
        f"Exact odds vs a {TRIALS:,}-trial numpy Monte Carlo (medians; goals: odds "
        f"{warm.describe()} warm, {first.describe()} for a new attacker, curve "
        f"{curve_goal.describe()}, Monte Carlo / exact {GOALS['odds.monte_carlo'].describe()} "
        "for multi-shot attacks); load average "
        f"{' '.join(f'{load:.2f}' for load in os.getloadavg())}\n"
    )
    header = (
        f"{'attack':44s} {'odds ms':>8s} {'first ms':>8s} {'MC ms':>8s} {'ratio':>8s} "
        f"{'curve ms':>9s}  check"
    )
    games: list[tuple[str, str, dict[str, AttackRequest], Any, tuple[str, str]]] = [
        ("Necromunda", "Necromunda", necromunda_requests(), necromunda_monte_carlo,
         ("hit", "out of action")),
        ("WFB 6e", "WFB6", wfb6_requests(), wfb6_monte_carlo, ("wounded", "slain")),
    ]  # fmt: skip
    lines: list[tuple[str, str, float, float, float, float, float]] = []
    for game, short, requests, monte_carlo, headlines in games:
        print(game)
        print(header)
        for name, request in requests.items():
            exact = odds(request)
            odds_ms = median_ms(partial(odds, request), RUNS_ODDS)
            new_ms = first_ms(request, RUNS_CURVE)
            curve_ms = median_ms(partial(curve, request), RUNS_CURVE)
            mc_ms = median_ms(partial(monte_carlo, request, rng), RUNS_MC)
            sampled = monte_carlo(request, rng)
            ratio = mc_ms / odds_ms
            check = "; ".join(
                f"P({h}) {float(exact.p(h)):.4f} (MC {sampled[h]:.4f})" for h in headlines
            )
            print(
                f"{name:44s} {odds_ms:8.3f} {new_ms:8.3f} {mc_ms:8.1f} {ratio:7.0f}x "
                f"{curve_ms:9.3f}  {check}"
            )
            lines.append((short, name, odds_ms, new_ms, curve_ms, mc_ms, ratio))
        print()
    for short, name, odds_ms, new_ms, curve_ms, mc_ms, ratio in lines:
        case = f"{short} {name}"
        report("odds.warm", case, odds_ms)
        report("odds.first", case, new_ms, detail="a fresh copy of the attacker each run")
        report("odds.curve", case, curve_ms, detail="the game's curve: 9 points, -4..+4")
        if "shots" in name:  # the multi-shot attacks: the goal's bursts
            report(
                "odds.monte_carlo",
                case,
                ratio,
                reference=("exact odds, ms", odds_ms),
                detail=f"Monte Carlo {mc_ms:.1f} ms, median of {RUNS_MC} runs",
            )
    print()
    print("Engine (10 shots at 1/2, each an unsaved wound at 1/3: the total's distribution)")
    for label, kernel in (
        ("Fractions", kernel_fractions),
        ("integer counts over one denominator (chosen)", kernel_counts),
        ("numpy float64 (not exact)", kernel_numpy),
    ):
        print(f"  {label:48s} {median_ms(kernel, 200) * 1e3:8.1f} us")
    counts, denominator = kernel_counts()
    same = {k: Fraction(c, denominator) for k, c in counts.items()} == kernel_fractions()
    print(f"  integer counts equal the Fractions exactly: {same}")


if __name__ == "__main__":
    main()
