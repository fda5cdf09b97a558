"""The resolvers' attacks per second, per game, on the demo fights (prints; asserts nothing)."""

from __future__ import annotations

import statistics
import time

from gmkit.demo import demo_campaign
from gmkit.dice import SeededDice
from gmkit.systems import system
from gmkit.systems.base import AttackRequest

ATTACKS = {
    "dark_heresy": ("Sergeant Varro Tull", "Lasgun", "Cultist Ban", {"distance": 20}),
    "deathwatch": (
        "Brother Castor",
        "Astartes Bolter (Godwyn)",
        "Nob Gritfang",
        {"distance": 30, "action": "semi_auto_burst", "mode": "semi"},
    ),
    "wfrp2": ("Gunther Brandauer", "Hand Weapon", "Gor Bloodhorn", {"mode": "melee"}),
    "necromunda": ("Mordecai", "lasgun", "Scabby Tom", {"distance": 10}),
    "wfb6": ("Night Goblin Archer", "short bow", "Swordsman", {"distance": 20}),
}


def measure(game: str, seconds: float = 0.6) -> tuple[float, float]:
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    sheets = {sheet.name: sheet for sheet in roster.sheets}
    attacker, weapon, target, extra = ATTACKS[game]
    request = AttackRequest(sheets[attacker], weapon, sheets[target], **extra)
    rules = system(game)
    source = SeededDice(1)
    rules.resolve_attack(request, source)  # warm caches
    samples = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        for _ in range(20):
            rules.resolve_attack(request, source)
        samples.append((time.perf_counter() - start) / 20)
    median = statistics.median(samples)
    return 1 / median, median * 1e6


def main() -> None:
    print("resolver: attacks per second (median of batches of 20, seeded dice)")
    print(f"{'game':<12} {'attacks/s':>10} {'us/attack':>10}")
    for game in ATTACKS:
        rate, micro = measure(game)
        print(f"{game:<12} {rate:>10.0f} {micro:>10.1f}")


if __name__ == "__main__":
    main()
