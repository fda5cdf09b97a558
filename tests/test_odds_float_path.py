"""The float path of the d100 odds (``gmkit.odds._fast``) against the exact engine.

Every benchmark attack of ``bench/bench_odds_d100.py`` and every demo attacker's weapons at
every other demo combatant (single shots, bursts, melee; a horde; a called shot; cover; a
helpless target): every distribution, every event and every expectation of ``fast_odds`` within
1e-12 of ``odds`` (the same names, the same outcomes), and the curve point by point. The
exact Fractions come on demand and are the exact engine's.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from gmkit.demo import demo_campaign
from gmkit.errors import GmkitError
from gmkit.odds import curve, odds
from gmkit.odds._fast import FastCurve, FastOdds, fast_curve, fast_odds, largest_error, panel_curve
from gmkit.odds._imperial import ImperialOdds
from gmkit.odds._imperial_float import FloatImperial
from gmkit.systems.base import AttackRequest

TOLERANCE = 1e-12
Case = tuple[str, str, str, str, dict[str, Any]]

# the attacks of bench/bench_odds_d100.py (ATTACKS), the same list
BENCH: list[Case] = [
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

MORE: list[Case] = [
    ("dark_heresy", "Sergeant Varro Tull", "Lasgun", "Cultist Ban",
     {"distance": 20, "action": "called_shot", "called_location": "head",
      "circumstances": {"darkness": True}}),
    ("dark_heresy", "Jessa Kell", "Shotgun", "Cultist Hesk", {"distance": 5}),
    ("dark_heresy", "Cultist Hesk", "Autogun", "Ilse Marr",
     {"distance": 20, "action": "full_auto_burst", "mode": "full"}),
    ("dark_heresy", "Sergeant Varro Tull", "Lasgun", "Cultist Ban",
     {"distance": 20, "circumstances": {"cover": 4}}),
    ("dark_heresy", "Sergeant Varro Tull", "Lasgun", "Cultist Ban",
     {"distance": 20, "action": "semi_auto_burst", "mode": "semi",
      "circumstances": {"cover": 4}}),
    ("deathwatch", "Brother Varek", "Astartes Heavy Bolter", "Ork Boyz mob",
     {"distance": 30, "action": "full_auto_burst", "mode": "full"}),
    ("deathwatch", "Brother Ilarion", "Astartes Chainsword", "Nob Gritfang", {"mode": "melee"}),
    ("deathwatch", "Brother Castor", "Astartes Bolter (Godwyn)", "Nob Gritfang",
     {"distance": 30, "circumstances": {"target_helpless": True}}),
    ("deathwatch", "Nob Gritfang", "Ork Shoota", "Brother Castor",
     {"distance": 20, "action": "semi_auto_burst", "mode": "semi"}),
]  # fmt: skip


@cache
def sheets(game: str) -> dict[str, Any]:
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    return {sheet.name: sheet for sheet in roster.sheets}


def request_of(game: str, attacker: str, weapon: str, target: str, extra: dict[str, Any]) -> Any:
    found = sheets(game)
    return AttackRequest(found[attacker], weapon, found[target], **extra)


def every_demo_attack() -> list[Case]:
    """Each demo combatant's every weapon at every other demo combatant of its game."""
    found = []
    for game in ("dark_heresy", "deathwatch", "wfrp2"):
        for attacker, sheet in sheets(game).items():
            for weapon in sheet.weapons:
                for target in sheets(game):
                    if target == attacker:
                        continue
                    extra: dict[str, Any] = {"distance": 10}
                    if not weapon.is_ranged:
                        extra = {"mode": "melee"}
                    elif game == "wfrp2":
                        extra = {"mode": "ranged", "distance": 10}
                    found.append((game, attacker, weapon.name, target, extra))
    return found


def checked(case: Case) -> tuple[FastOdds, Any] | None:
    request = request_of(*case)
    try:
        exact = odds(request)
    except GmkitError:
        with pytest.raises(GmkitError):  # the float path refuses what the exact one refuses
            fast_odds(request)
        return None
    return fast_odds(request), exact


@pytest.mark.parametrize("case", BENCH + MORE, ids=lambda c: f"{c[0]}-{c[2]}-{c[3]}")
def test_every_distribution_of_a_benchmark_attack_is_within_1e_12(case: Case) -> None:
    found = checked(case)
    assert found is not None, "a benchmark attack has odds"
    fast, exact = found
    assert [name for name, _ in fast.distributions()] == [n for n, _ in exact.distributions()]
    assert set(fast.events) == set(exact.events)
    for name, dist in exact.distributions():
        mine = dict(fast.distributions())[name]
        assert {key for key in mine if mine[key]} == {key for key in dist if dist[key]}, name
        assert abs(mine.total() - 1.0) < TOLERANCE, name
    assert largest_error(fast, exact) <= TOLERANCE
    assert fast.exact() == exact  # the exact odds on demand are the exact engine's
    assert fast.as_float().keys() == exact.as_float().keys()


def test_every_demo_attack_is_within_1e_12() -> None:
    cases = every_demo_attack()
    worst, compared = 0.0, 0
    for case in cases:
        found = checked(case)
        if found is None:
            continue
        fast, exact = found
        error = largest_error(fast, exact)
        assert error <= TOLERANCE, (case, error)
        worst, compared = max(worst, error), compared + 1
    assert compared >= 60  # most demo pairs have odds (a few are refused: a shield...)
    assert worst > 0  # floats, really: not the exact numbers converted


def test_the_matrix_attacks_run_on_floats_not_on_the_exact_engine() -> None:
    request = request_of(*BENCH[5])  # a full-auto burst at a horde
    model = ImperialOdds(request)
    engine = FloatImperial(model)
    assert engine.matrix
    fast = engine.at()
    assert not model._odds  # the exact engine computed nothing
    assert fast.exact() == odds(request)  # ... until asked
    assert model._odds


@pytest.mark.parametrize("case", [BENCH[0], BENCH[2], BENCH[5], BENCH[7], MORE[3]])
def test_the_float_curve_is_the_exact_curve_within_1e_12(case: Case) -> None:
    request = request_of(*case)
    fast, exact = fast_curve(request), curve(request)
    assert isinstance(fast, FastCurve)
    assert fast.modifiers == exact.modifiers == tuple(range(-60, 61))
    assert fast.current == exact.current
    worst = max(
        largest_error(mine, theirs) for mine, theirs in zip(fast.points, exact.points, strict=True)
    )
    assert worst <= TOLERANCE
    assert fast.exact() == exact


def test_the_panel_draws_the_float_curve_where_there_is_a_float_engine() -> None:
    assert isinstance(panel_curve(request_of(*BENCH[0])), FastCurve)
