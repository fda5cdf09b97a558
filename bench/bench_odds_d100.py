"""d100 odds (Dark Heresy, Deathwatch, WFRP 2e): the float path and the exact engine against a
numpy Monte Carlo of the same attacks (prints only; each goal through ``bench/goals.py``).

For a few representative attacks per game (the demo fights): the float path
(``gmkit.odds._fast.fast_odds``, what the attack panel draws) and the exact engine
(``gmkit.odds.odds``), each warm (median of 41) and the first time for a new attacker or weapon
(every weapon and sheet table forgotten: ``clear_caches``; median of 5 and 3); a
1,000,000-trial vectorised numpy Monte Carlo of the same attack (the same numbers: the target
from ``Strike.test``, the jam threshold, ``extra_hits``, the location table and the Multiple
Hits rows, the soak per location from ``Soak``, the weapon's dice with Tearing and degrees as a
minimum, Righteous / Ulric's Fury with its confirmation), median of three runs, and its ratio
to the exact odds; the 121-point curve against the modifier (float path, median of 3; the exact
curve once); and the float path's largest error against the exact engine over every
distribution of the odds and of every curve point. The Monte Carlo's hit and wounded chances
are printed next to the exact ones as a check.

Goals (``bench/goals.py``): ``odds.first``, ``odds.warm``, ``odds.curve`` (float path),
``odds.float_error`` per attack, ``odds.monte_carlo`` per burst (against the exact odds).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from goals import report

from gmkit.demo import demo_campaign
from gmkit.dice import parse
from gmkit.odds import curve, odds
from gmkit.odds._fast import fast_curve, fast_odds, largest_error
from gmkit.odds._imperial import ImperialOdds
from gmkit.odds._kept import clear_caches
from gmkit.odds._percentile import ScriptedDice, location_table
from gmkit.odds._wfrp2 import WFRPOdds
from gmkit.systems._imperial.resolve_test import extra_hits
from gmkit.systems._percentile import LOCATIONS
from gmkit.systems.base import AttackRequest
from gmkit.systems.wfrp2._damage import FURY_LIMIT, weapon_damage

TRIALS = 1_000_000
CARLO_RUNS = 3
GAME_NAMES = {"dark_heresy": "DH", "deathwatch": "DW", "wfrp2": "WFRP"}

ATTACKS: list[tuple[str, str, str, str, dict[str, Any]]] = [
    ("dark_heresy", "Sergeant Varro Tull", "Lasgun", "Cultist Ban", {"distance": 20}),
    ("dark_heresy", "Sergeant Varro Tull", "Lasgun", "Demagogue Ostrava",
     {"distance": 20, "action": "semi_auto_burst", "mode": "semi"}),
    ("dark_heresy", "Demagogue Ostrava", "Chainsword", "Ilse Marr", {"mode": "melee"}),
    ("deathwatch", "Brother Castor", "Astartes Bolter (Godwyn)", "Nob Gritfang",
     {"distance": 30}),
    ("deathwatch", "Brother Castor", "Astartes Bolter (Godwyn)", "Nob Gritfang",
     {"distance": 30, "action": "semi_auto_burst", "mode": "semi"}),
    ("deathwatch", "Brother Castor", "Astartes Bolter (Godwyn)", "Ork Boyz mob",
     {"distance": 30, "action": "full_auto_burst", "mode": "full"}),
    ("wfrp2", "Gunther Brandauer", "Hand Weapon", "Gor Bloodhorn", {"mode": "melee"}),
    ("wfrp2", "Elsa Wendt", "Bow", "Ungor Snitch", {"mode": "ranged", "distance": 20}),
]  # fmt: skip


def request_of(game: str, attacker: str, weapon: str, target: str, extra: dict[str, Any]) -> Any:
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    sheets = {sheet.name: sheet for sheet in roster.sheets}
    return AttackRequest(sheets[attacker], weapon, sheets[target], **extra)


def median_ms(work: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


# --- the Monte Carlo: vectorised numpy, the same numbers --------------------------------------


def dice_of(expression: str, names: dict[str, int], tearing: bool) -> tuple[int, int, int, int]:
    """(dice, sides, kept, constant) of an ``NdX+C`` weapon (Tearing: one more die, the lowest
    dropped)."""
    parsed = parse(expression)
    (term,) = parsed.dice
    constant = 0
    text = str(parsed)
    for name, value in names.items():
        text = text.replace(name, str(value))
    rest = text.replace(str(term), "0", 1)
    constant = int(eval(rest, {"__builtins__": {}}))  # only numbers are left
    count = term.count + (1 if tearing else 0)
    return count, term.sides, term.count, constant


def roll_damage(
    rng: np.random.Generator, n: int, dice: tuple[int, int, int, int], minimum: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Damage and whether a kept die shows a natural 10 (d5: a d10 halved)."""
    count, sides, kept, constant = dice
    rolled = rng.integers(1, 11 if sides == 5 else sides + 1, size=(n, count))
    reads = (rolled + 1) // 2 if sides == 5 else rolled
    order = np.argsort(-reads, axis=1, kind="stable")[:, :kept]
    kept_reads = np.take_along_axis(reads, order, axis=1)
    kept_rolls = np.take_along_axis(rolled, order, axis=1)
    lowest = kept_reads.argmin(axis=1)
    low = kept_reads[np.arange(n), lowest]
    raised = np.maximum(low, np.minimum(minimum, sides))
    total = kept_reads.sum(axis=1) + (raised - low) + constant
    return total, (kept_rolls == 10).any(axis=1)


def monte_carlo_imperial(model: ImperialOdds, rng: np.random.Generator) -> dict[str, float]:
    n, setup, strike = TRIALS, model.setup, model.strike
    target, fury = model.target, strike.fury_rules
    tearing = bool(strike.weapon.quality("Tearing"))
    dice = dice_of(strike.expression, strike.attacker.bonuses(), tearing)
    roll = rng.integers(1, 101, n)
    jam = roll >= setup.jam_from if (model.ranged and setup.jam_from) else np.zeros(n, bool)
    success = (roll <= target) & ~jam
    degrees = np.where(success, (target - roll) // 10, 0)
    more = np.array([min(model.per_test, 1 + extra_hits(setup.mode, d)) for d in range(40)])
    hits = np.where(success, more[np.clip(degrees, 0, 39)], 0)
    most = max(1, int(hits.max()))
    if model.rules is None:  # where each hit lands: the table, then the Multiple Hits rows
        table = location_table(model.game)
        first = np.array([LOCATIONS.index(table[r - 1]) for r in range(1, 101)])[roll - 1]
        rows = np.array(
            [[LOCATIONS.index(s) for s in model.locations(loc, most)] for loc in LOCATIONS]
        )
        spots: list[str | None] = list(LOCATIONS)
    else:
        first, rows, spots = np.zeros(n, dtype=np.int64), np.zeros((1, most), int), [None]
    lo, hi = -20, 200
    soak = np.stack([model.soak_rule(spot, 0).targets(lo, hi, 1)[0] for spot in spots])
    wounds = np.zeros(n, dtype=np.int64)
    damaging = np.zeros(n, dtype=np.int64)
    minimum = degrees if strike.damage_rules.degrees_minimum else np.zeros(n, dtype=np.int64)
    none = np.zeros(n, dtype=np.int64)
    for k in range(most):
        active = hits > k
        damage, ten = roll_damage(rng, n, dice, minimum if k == 0 else none)
        live = ten & active
        if fury.confirm:
            live &= rng.integers(1, 101, n) <= target
        for _ in range(fury.max_chain):
            if not live.any():
                break
            if fury.on_confirm == "weapon_damage":
                added, again = roll_damage(rng, n, dice, none)
            else:
                added = rng.integers(1, 11, n)
                again = added == 10
            damage = damage + np.where(live, added, 0)
            live &= again
            if fury.chain_confirms:
                live &= rng.integers(1, 101, n) <= target
        taken = soak[rows[first, k], np.clip(damage, lo, hi) - lo]
        wounds += np.where(active, taken, 0)
        damaging += active & (taken > 0)
    return {
        "hit": float((hits > 0).mean()),
        "wounded": float((wounds > 0).mean()),
        "damaging": float((damaging > 0).mean()),
    }


def monte_carlo_wfrp(model: WFRPOdds, rng: np.random.Generator) -> dict[str, float]:
    n, setup, target = TRIALS, model.setup, model.target
    roll = rng.integers(1, 101, n)
    hit = (roll <= target) | setup.auto_hit
    table = location_table("wfrp2")
    absorbed = np.array([model.absorbed[table[r - 1]] for r in range(1, 101)])[roll - 1]
    kept = rng.integers(1, 11, size=(n, setup.damage_dice)).max(axis=1)
    part = weapon_damage(model.attacker, setup.weapon.damage, ScriptedDice())
    damage = kept + part
    live = (kept == 10) & hit & model.fury
    if not setup.auto_hit:
        live &= rng.integers(1, 101, n) <= target
    for _ in range(FURY_LIMIT):
        if not live.any():
            break
        added = rng.integers(1, 11, n)
        damage = damage + np.where(live, added, 0)
        live &= added == 10
    lost = np.where(hit, np.maximum(0, damage - absorbed), 0)
    return {"hit": float(hit.mean()), "wounded": float((lost > 0).mean())}


def first_ms(request: Any, work: Callable[[Any], Any], runs: int) -> float:
    """The median time of ``work(request)`` with every weapon and sheet table forgotten."""
    times = []
    for _ in range(runs):
        clear_caches()
        start = time.perf_counter()
        work(request)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def curve_error(fast: Any, exact: Any) -> float:
    return max(largest_error(a, b) for a, b in zip(fast.points, exact.points, strict=True))


def main() -> None:
    rng = np.random.default_rng(7)
    print(f"d100 odds: the float path (gmkit.odds._fast, what the panel draws) and the exact "
          f"engine (gmkit.odds.odds), against a {TRIALS:,}-trial numpy Monte Carlo "
          f"({CARLO_RUNS} runs, median)")  # fmt: skip
    odds(request_of(*ATTACKS[0]))  # imports and tables loaded: "first" is a new weapon's
    header = (
        f"{'game':<12} {'attack':<44} {'first':>6} {'fast':>6} {'exact':>6} {'MC ms':>7} "
        f"{'MC/ex':>6} {'curve':>6} {'ex.curve':>8} {'error':>8}  "
        f"{'P(hit) exact/MC':>17} {'P(wounded) exact/MC':>21}"
    )
    print(header)
    rows = []
    for game, attacker, weapon, target, extra in ATTACKS:
        request = request_of(game, attacker, weapon, target, extra)
        first = first_ms(request, fast_odds, 5)
        first_exact = first_ms(request, odds, 3)
        result = odds(request)
        fast = median_ms(partial(fast_odds, request), 41)
        exact = median_ms(partial(odds, request), 41)
        model: Any = WFRPOdds(request) if game == "wfrp2" else ImperialOdds(request)
        carlo_of = monte_carlo_wfrp if game == "wfrp2" else monte_carlo_imperial
        carlo_times = []
        for _ in range(CARLO_RUNS):
            start = time.perf_counter()
            estimate = carlo_of(model, rng)
            carlo_times.append((time.perf_counter() - start) * 1e3)
        carlo = statistics.median(carlo_times)
        fast_curve(request)
        drawn = median_ms(partial(fast_curve, request), 3)
        start = time.perf_counter()
        exact_line = curve(request)
        exact_curve = (time.perf_counter() - start) * 1e3
        error = max(
            largest_error(fast_odds(request), result), curve_error(fast_curve(request), exact_line)
        )
        wounded = (
            result.p("magnitude lost") if "magnitude lost" in result.events else result.p("wounded")
        )
        seen = (
            estimate.get("damaging") if "magnitude lost" in result.events else estimate["wounded"]
        )
        mode = extra.get("mode", "single")
        label = f"{weapon[:20]} -> {target[:14]} ({mode})"
        print(
            f"{game:<12} {label:<44} {first:>6.1f} {fast:>6.2f} {exact:>6.2f} {carlo:>7.0f} "
            f"{carlo / exact:>5.0f}x {drawn:>6.1f} {exact_curve:>8.0f} {error:>8.1e}  "
            f"{float(result.hit):>8.4f}/{estimate['hit']:.4f} "
            f"{float(wounded):>12.4f}/{seen:.4f}"
        )
        rows.append((game, label, mode, first, first_exact, fast, exact, carlo, drawn,
                     exact_curve, error))  # fmt: skip
    print()
    for game, label, mode, first, first_exact, fast, exact, carlo, drawn, ex_curve, error in rows:
        case = f"{GAME_NAMES[game]} {label}"
        report("odds.first", case, first, detail=f"exact engine {first_exact:.1f} ms")
        report("odds.warm", case, fast, detail=f"float path; exact engine {exact:.2f} ms")
        report("odds.curve", case, drawn, detail=f"float path; exact curve {ex_curve:.0f} ms")
        report("odds.float_error", case, error, detail="every distribution, odds and curve")
        if mode in ("semi", "full"):
            report(
                "odds.monte_carlo", case, carlo / exact, reference=("exact odds ms", exact),
                detail=f"Monte Carlo {carlo:.0f} ms, median of {CARLO_RUNS} runs",
            )  # fmt: skip


if __name__ == "__main__":
    main()
