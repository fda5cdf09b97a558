"""Exact odds of a Dark Heresy or Deathwatch attack, from the rules the resolver uses.

``imperial_odds(request)`` (also ``gmkit.odds.odds`` for these games) returns the common
:class:`~gmkit.odds._core.Odds`: ``hits`` (hits landing, the resolver's ``AttackResult.hits``),
``per_hit`` (the wounds of a landing hit, one picked at random among them), ``wounds`` (in
all, after soak), ``damage`` (as the ``damage`` effects report it: none for a horde),
``states`` (the target's damage state by its sheet's rule; a horde's standing), ``events``
(test, jam, hit, wounded, critically damaged, magnitude lost, on fire, pinned, and "fury beyond
depth") and ``details`` (degrees of success, the first hit's location, damage and wounds,
critical damage, magnitude lost); for a horde target the result (:class:`ImperialAttackOdds`)
also has ``magnitude_lost`` (a distribution) and ``expected_magnitude_lost``, since a horde
takes no ``damage``. ``imperial_curve`` gives them for every total modifier from
-60 to +60; :class:`ImperialOdds` keeps what does not depend on the modifier, so its
``at(target)`` is cheap.

Read from the resolver's own parts (:mod:`gmkit.systems._imperial`), never copied:

- ``modifiers.attack_setup``: the characteristic, modifiers, hit cap, rounds, jam threshold,
  reactions, automatic hits and failures, extra damage dice; ``Strike.test`` gives the target
  (the +/-60 cap included).
- Per d100 roll: ``percentile.degrees``, ``resolve_test.extra_hits``, ``percentile.hit_location``
  and ``multiple_hit_locations``; a horde's hits are ``hordes.horde_hits`` (its Flame d5 played
  out), its magnitude ``hordes.magnitude_loss``, its Explosive hit ``explosive_extra_hits``.
- The reaction is ``resolve_reactions.react`` itself, played once per kind of roll (the reaction
  test's target read from its step, each class of degrees played once).
- Each hit: :mod:`gmkit.odds._imperial_damage` (``Strike.roll_weapon``, ``FuryRules``, ``Soak``,
  ``Cover.after_hit``; ``DamageRules.degrees_for_hit`` decides which hits use the degrees).
- Fire and pinning: ``resolve.catch_fire`` and ``resolve_fire.pinning``, read for their tests'
  targets; states: the sheet's ``damage_state`` and the horde's ``broken`` and ``destroyed``.

The attack's structure (one test whose degrees buy hits; several melee tests, each with its own
location; the reaction on the first attack that lands; the cover worn down hit by hit; the
Explosive hit after the others) follows ``resolve.attack``; the agreement tests in
``tests/odds`` check the odds against the resolver itself.

Engine: exact integer weights in numpy (:mod:`gmkit.odds._percentile`). One test without cover
worn between hits (the usual case) runs as matrices: the first hit's damage for every degree of
success mixed in one product, the soak as an index map per location, the later hits added by
Horner's rule per first location. Several tests, or cover worn down between hits, run hit by
hit over the states (reactions left, a hit landed, cover points, hits so far).

Left out: special attacks (stun, knock-down, feint, manoeuvre, grapple, declaring overwatch)
raise :class:`~gmkit.odds._percentile.OddsError`; the fatigue of unarmed blows and what the
critical tables do with the critical damage are not given.

Why over 400 lines: one engine for both 40k games, a section per stage of the attack as the
resolver runs it (test, reaction, hits, locations, damage with Righteous Fury, soak, hordes),
each reading the one before; the damage arithmetic is in ``imperial_damage``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np

from gmkit.dice import distribution
from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.odds._core import Curve, Dist, Odds
from gmkit.odds._imperial_damage import HitDamage, SoakRule, hit_damage, soaked, with_points
from gmkit.odds._percentile import (
    FURY_DEPTH,
    LIMIT,
    MODIFIERS,
    ONE,
    ZERO,
    Grid,
    OddsError,
    Residues,
    ScriptedDice,
    Weights,
    chances,
    dtype_for,
    lcm_of,
    location_chances,
    location_table,
    outcomes,
    remap_rows,
    residues,
    roll_table,
    row_sum,
    stack,
    success_chance,
    to_dist,
    total,
    weighted,
)
from gmkit.systems._imperial import hordes, resolve_fire
from gmkit.systems._imperial.cover import cover_of
from gmkit.systems._imperial.damage_soak import toughness_bonus
from gmkit.systems._imperial.effects import CRITICAL_MAX
from gmkit.systems._imperial.modifiers import attack_setup
from gmkit.systems._imperial.options import fury_house_rule
from gmkit.systems._imperial.resolve import called_location_refused, catch_fire, special_attack
from gmkit.systems._imperial.resolve_hit import Strike, find_weapon
from gmkit.systems._imperial.resolve_reactions import react, reactions_left
from gmkit.systems._imperial.resolve_special import grapple
from gmkit.systems._imperial.resolve_test import extra_hits
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems._imperial.terms import fury as fury_term
from gmkit.systems._percentile import LOCATIONS, multiple_hit_locations
from gmkit.systems._tables import table
from gmkit.systems.base import AttackRequest

GAMES = ("dark_heresy", "deathwatch")
T = TypeVar("T")

Landing = tuple[str | None, int, int, bool]  # first location, hits landing, degrees, reaction used
State = tuple[int, bool, int, int]  # reactions left, a hit landed, cover points, hits so far
HitKey = tuple[str | None, int, int]  # location, cover points before, degrees as a minimum


@dataclass(frozen=True, repr=False)  # Odds' short repr, not every field
class ImperialAttackOdds(Odds):
    """The common odds, with what a horde target loses: ``magnitude_lost`` (its distribution,
    None when the target is no horde) and ``expected_magnitude_lost``. A horde takes no
    ``damage`` (it loses magnitude instead), so its odds card reads these."""

    magnitude_lost: Dist[int] | None = None

    @property
    def expected_magnitude_lost(self) -> Fraction:
        """The magnitude a horde target is expected to lose (0 for any other target)."""
        return self.magnitude_lost.mean() if self.magnitude_lost is not None else ZERO

    def as_float(self) -> dict[str, Any]:
        found = super().as_float()
        if self.magnitude_lost is not None:
            found["magnitude_lost"] = self.magnitude_lost.as_float()
            found["expected_magnitude_lost"] = float(self.expected_magnitude_lost)
        return found


@dataclass(frozen=True, slots=True)
class Shots:
    """One attack test against a target number: jams, successes, and how its hits fall, as
    counts over ``den`` (the d100's 100)."""

    jams: int
    successes: int
    by_degrees: Mapping[int, int]
    groups: Mapping[tuple[int, int, str | None], int]  # (degrees, hits, location) -> count
    den: int = 100

    @property
    def jam(self) -> Fraction:
        return Fraction(self.jams, self.den)

    @property
    def test(self) -> Fraction:
        return Fraction(self.successes, self.den)

    @property
    def degrees(self) -> dict[int, Fraction]:
        return {d: Fraction(c, self.den) for d, c in self.by_degrees.items()}


NO_SHOTS = Shots(0, 0, {}, {})


@dataclass(frozen=True)
class Outcome:
    """An attack's odds on the engine's weights, before they become the common ``Odds``."""

    target: int
    shots: Shots
    hits: Weights
    wounds: Weights  # codes: wounds * stride + house-rule critical damage
    damaging: Weights | None  # hordes: hits that dealt damage
    per_hit: Weights  # wounds codes of a landing hit picked at random
    first_raw: Weights  # the first landing hit's damage codes before the soak (given a landing)
    first_wounds: Weights  # ... after the soak
    location: Mapping[str, Fraction]  # the first landing hit's location (given a landing)
    cut: Fraction  # mass of Fury chains longer than the depth


class ImperialOdds:
    """What an attack's odds need that does not depend on the modifier; ``at(target)``."""

    def __init__(
        self,
        request: AttackRequest,
        setup: AttackSetup | None = None,
        *,
        fury_depth: int = FURY_DEPTH,
    ) -> None:
        game = getattr(request.attacker, "game", "")
        if game not in GAMES:
            raise OddsError(Message("imperial.odds.not_a_40k_game", game=repr(game), known=GAMES))
        if fury_depth < 1:
            raise OddsError(Message("imperial.odds.fury_depth"))
        setup = setup or attack_setup(request, game)
        named = setup.mode if special_attack(setup.mode) else request.action
        special = special_attack(setup.mode) or special_attack(request.action)
        if special is None and request.options.grapple:
            special, named = grapple, "grapple"
        fired = special is resolve_fire.declare_overwatch and request.options.overwatch
        if special is not None and not fired:
            raise OddsError(Message("imperial.odds.special_attack", attack=named))
        self.game, self.request, self.setup = game, request, setup
        self.fury_depth = fury_depth
        weapon, unarmed = find_weapon(request.attacker, request.weapon)  # type: ignore[arg-type]
        self.weapon = weapon
        self.dice = ScriptedDice()
        self.strike = strike = Strike(request, setup, self.dice, weapon, unarmed)
        self.dice.play([1])
        probe = strike.test(Message("imperial.odds.probe"))
        self.base, self.modifier, self.target = probe.base, probe.modifier, probe.target
        self.ranged = setup.characteristic == "BS"
        cap, self.empty = max(1, setup.max_hits), False
        if self.ranged and setup.rounds:
            self.empty = weapon.loaded <= 0
            spent = min(setup.rounds, weapon.loaded)
            if 0 < spent < setup.rounds:
                cap = min(cap, spent)
        self.tests = cap if not self.ranged and cap > 1 else 1
        self.per_test = cap // self.tests
        self.rules = hordes.horde_rules(game) if strike.is_horde else None
        self.cover = cover_of(request)
        self.reactions_left = reactions_left(request, game)  # the resolver's own count
        self.house = fury_house_rule(request.options) and bool(
            strike.fury_rules.house_rule_critical
        )
        self.explosive = (
            hordes.explosive_extra_hits(weapon, self.rules) if self.rules is not None else 0
        )
        self.stride = 1
        if self.house:
            most = max(distribution(str(strike.fury_rules.house_rule_critical)))
            self.stride = max(1, most) * self.tests * self.per_test + 1
        target_sheet = strike.target
        self.toughness = toughness_bonus(target_sheet, int(weapon.quality("Felling")))
        horde = getattr(target_sheet, "horde", None)
        self.horde_armour = (
            target_sheet.horde_armour  # type: ignore[attr-defined]
            if horde is not None
            else None
        )
        self.remaining = int(getattr(target_sheet, "wounds_remaining", 0))
        rules = strike.damage_rules
        self.later_zero = all(
            rules.degrees_for_hit(d, k) == 0 for d in range(0, 21) for k in (2, 3)
        )
        self.armour: dict[str | None, int] = _kept(target_sheet, "armour")
        self._cache: dict[Any, Any] = {}
        self._damage: dict[int, HitDamage] = {}
        self._odds: dict[int, Odds] = {}

    # --- pieces that do not depend on the modifier --------------------------------------------

    def _memo(self, key: Any, make: Callable[[], T]) -> T:
        found: T | None = self._cache.get(key)
        if found is None:
            found = make()
            self._cache[key] = found
        return found

    def damage_at(self, dm: int) -> HitDamage:
        """A hit's damage with ``dm`` as a die's minimum (before the soak)."""
        found = self._damage.get(dm)
        if found is None:
            found = hit_damage(self.strike, dm, self.fury_depth, self.stride, self.house)
            self._damage[dm] = found
        return found

    def soak_rule(self, location: str | None, points: int) -> SoakRule:
        armour = self.horde_armour
        if armour is None:
            armour = self.armour.get(location)
            if armour is None:
                armour = self.strike.target.armour_at(location)  # type: ignore[arg-type]
                self.armour[location] = armour  # the sheet is immutable: kept with it
        return SoakRule(
            armour,
            self.toughness,
            self.weapon.pen,
            self.strike.armour_multiplier,
            with_points(self.cover, points),
            location,
        )

    def reaction(self, hits: int, left: int) -> tuple[dict[tuple[int, bool], int], int]:
        """(hits negated, reaction spent) -> count over a denominator, for ``hits`` hits."""
        return self._memo(("react", hits, min(left, 1)), lambda: self._reaction(hits, left))

    def _reaction(self, hits: int, left: int) -> tuple[dict[tuple[int, bool], int], int]:
        def play(value: int) -> tuple[int, bool, Any]:
            self.dice.play([value])
            found = react(self.strike, hits, left)
            return found.cancelled, found.used, found

        cancelled, used, found = play(1)
        if self.dice.index == 0:
            return {(cancelled, used): 1}, 1
        aimed = [step.target for step in found.steps if step.target is not None]
        if self.dice.index > 1 or not aimed:  # not one d100 test: play every roll
            return weighted(outcomes(lambda d: play(d.values[0])[:2], dice=self.dice))
        classes: dict[tuple[bool, int], list[int]] = {}
        table = roll_table(int(aimed[-1]))
        for roll, (success, degrees) in zip(range(1, 101), table, strict=True):
            classes.setdefault((success, min(degrees, hits)), []).append(roll)
        result: dict[tuple[int, bool], int] = {}
        for rolls in classes.values():
            key = play(rolls[0])[:2]
            result[key] = result.get(key, 0) + len(rolls)
        return result, 100

    def horde_hits(self, degrees: int, hits: int) -> tuple[dict[int, int], int]:
        """Hits on a horde from a test with ``degrees`` that scored ``hits`` (counts)."""
        if self.rules is None:
            return {hits: 1}, 1
        kept = _kept(self.weapon, "horde hits")  # the weapon's, across requests
        rules_table = table(self.game, "hordes")  # kept with it: the same rules, the same hits
        key = (self.game, self.ranged, degrees, hits)
        found = kept.get(key)
        if found is None or found[0] is not rules_table:
            found = kept[key] = (rules_table, self._horde_hits(degrees, hits))
        return found[1]

    def _horde_hits(self, degrees: int, hits: int) -> tuple[dict[int, int], int]:
        rules, melee = self.rules, not self.ranged
        assert rules is not None

        def count(dice: ScriptedDice) -> int:
            return hordes.horde_hits(self.weapon, melee, degrees, hits, dice, rules).hits

        return weighted(outcomes(count, dice=self.dice))

    def first_location(self, roll_location: str | None) -> str | None:
        if self.rules is not None:
            return None
        called = self.setup.called_location or self.request.called_location
        if called:
            if called not in LOCATIONS:
                raise GmkitError(called_location_refused(called))
            return called
        return roll_location

    def locations(self, first: str | None, hits: int) -> tuple[str | None, ...]:
        if first is None:
            return (None,) * hits
        return self._memo(("locs", first, hits), lambda: tuple(multiple_hit_locations(first, hits)))

    # --- pieces that depend on the target number ----------------------------------------------

    def shots(self, target: int) -> Shots:
        """The attack test against ``target``: jams, degrees, and (degrees, hits, location)."""
        if self.empty:
            return NO_SHOTS
        return self._memo(("shots", target), lambda: self._shots(target))

    def _shots(self, target: int) -> Shots:
        setup = self.setup
        groups: dict[tuple[int, int, str | None], int] = {}
        if setup.auto_fail:
            return NO_SHOTS
        if setup.auto_hit:
            first = self.first_location(None)
            if first is None and self.rules is None:
                for location, chance in location_chances(self.game).items():
                    groups[(0, 1, location)] = int(chance * 100)
            else:
                groups[(0, 1, first)] = 100
            return Shots(0, 100, {}, groups)
        jam_from = setup.jam_from if self.ranged else None
        places: tuple[str | None, ...] = tuple(location_table(self.game))
        fixed = self.first_location(None)
        if fixed is not None or self.rules is not None:
            places = (fixed,) * 100
        more = {d: min(self.per_test, 1 + extra_hits(setup.mode, d)) for d in range(0, 30)}
        counts: dict[tuple[int, int, str | None], int] = {}
        degree_counts: dict[int, int] = {}
        jams = successes = 0
        for roll, (success, degrees) in zip(range(1, 101), roll_table(target), strict=True):
            if jam_from is not None and roll >= jam_from:
                jams += 1
                continue
            if not success:
                continue
            successes += 1
            degree_counts[degrees] = degree_counts.get(degrees, 0) + 1
            hits = more.get(degrees)
            if hits is None:
                hits = min(self.per_test, 1 + extra_hits(setup.mode, degrees))
            key = (degrees, hits, places[roll - 1])
            counts[key] = counts.get(key, 0) + 1
        return Shots(jams, successes, dict(sorted(degree_counts.items())), counts)

    def landings(self, target: int, left: int) -> tuple[dict[Landing, int], int]:
        """How a test's hits land: (first location, hits, degrees, reaction spent) -> count,
        over a denominator."""
        return self._memo(("land", target, min(left, 1)), lambda: self._landings(target, left))

    def _landings(self, target: int, left: int) -> tuple[dict[Landing, int], int]:
        shots = self.shots(target)
        parts = []
        reactions: dict[int, tuple[dict[tuple[int, bool], int], int]] = {}
        for (degrees, hits, location), count in shots.groups.items():
            horde, horde_den = self.horde_hits(degrees, hits)
            for landed, horde_count in horde.items():
                known = reactions.get(landed)
                if known is None:
                    known = reactions[landed] = self.reaction(landed, left)
                react, react_den = known
                parts.append(
                    (degrees, location, landed, count * horde_count, horde_den, react, react_den)
                )
        horde_den = lcm_of(part[4] for part in parts)
        react_den = lcm_of(part[6] for part in parts)
        found: dict[Landing, int] = {}
        for degrees, location, landed, count, h_den, react, r_den in parts:
            scale = count * (horde_den // h_den) * (react_den // r_den)
            for (cancelled, used), react_count in react.items():
                key = (location, max(0, landed - cancelled), degrees, used)
                found[key] = found.get(key, 0) + scale * react_count
        return found, shots.den * horde_den * react_den

    def landing_chances(self, target: int, left: int) -> dict[Landing, Fraction]:
        found, den = self.landings(target, left)
        return {key: Fraction(count, den) for key, count in found.items()}

    def raw(self, dm: int, p: Fraction) -> tuple[Weights, Fraction]:
        """A hit's damage codes before the soak, and the mass of Fury chains cut short."""
        return self._memo(("raw", dm, p), lambda: self.damage_at(dm).at(p))

    def hit(
        self, location: str | None, points: int, dm: int, p: Fraction, kind: str
    ) -> dict[int, Weights]:
        """One hit at ``location`` behind cover of ``points``: wounds codes (``kind``
        "wounds") or whether it dealt damage ("damaging"), by the cover left after it."""
        key = ("hit", location, points, dm, p, kind)
        found = self._cache.get(key)
        if found is None:
            if kind == "damaging":
                stride = self.stride
                found = {
                    after: dist.remap(lambda code: 1 if code // stride > 0 else 0)
                    for after, dist in self.hit(location, points, dm, p, "wounds").items()
                }
            else:
                found = soaked(self.raw(dm, p)[0], self.soak_rule(location, points), self.stride)
            self._cache[key] = found
        return found

    def hit_total(self, key: HitKey, p: Fraction, kind: str) -> Weights:
        return total(self.hit(*key, p, kind).values())

    # --- the odds --------------------------------------------------------------------------

    def at(self, target: int | None = None) -> Odds:
        """The odds with the test's target number ``target`` (default: the request's)."""
        target = self.target if target is None else max(0, target)  # below 1: all the same
        found = self._odds.get(target)
        if found is None:
            found = self._odds[target] = self.odds_of(self.outcome(target))
        return found

    def outcome(self, target: int | None = None) -> Outcome:
        target = self.target if target is None else target
        p = success_chance(target)  # a Fury confirmation is the attack's test again
        shots = self.shots(target)
        single = self.tests == 1
        cover_worn = self.cover.points > 0 and self.rules is None
        if single and self.later_zero and not (cover_worn and self.per_test > 1):
            return self._matrix(target, p, shots)
        return self._stepwise(target, p, shots)

    def _first(
        self, target: int, p: Fraction
    ) -> tuple[dict[str, Fraction], Weights, Weights, Fraction]:
        """The first landing hit (from the first test): location, damage, wounds, chance."""
        stride = self.stride
        lands = {
            k: w for k, w in self.landing_chances(target, self.reactions_left).items() if k[1] > 0
        }
        landed = sum(lands.values(), ZERO)
        if not landed:
            return {}, Weights.point(0), Weights.point(0), ZERO
        rules = self.strike.damage_rules
        places: dict[str, Fraction] = {}
        by_dm: dict[int, Fraction] = {}
        by_hit: dict[HitKey, Fraction] = {}
        for (location, _, degrees, _), chance in lands.items():
            share = chance / landed
            if location is not None:
                places[location] = places.get(location, ZERO) + share
            dm = rules.degrees_for_hit(degrees, 1)
            by_dm[dm] = by_dm.get(dm, ZERO) + share
            key = (location, self.cover.points, dm)
            by_hit[key] = by_hit.get(key, ZERO) + share
        raw = total(self.raw(dm, p)[0].scaled(w) for dm, w in by_dm.items())
        wounds = total(self.hit_total(key, p, "wounds").scaled(w) for key, w in by_hit.items())
        raw = raw.remap(lambda code: code // stride)
        wounds = wounds.remap(lambda code: code // stride)
        return _in_order(places), raw, wounds, landed

    def raw_grid(self, dms: tuple[int, ...], p: Fraction) -> Grid:
        """The damage codes before the soak for each of ``dms``, one row each (one product)."""
        found = [self.damage_at(dm) for dm in dms]
        key = tuple(id(item) for item in found)
        comps = _COMPS.get(key)
        if comps is None or any(a is not b for a, b in zip(comps[0], found, strict=True)):
            if len(_COMPS) > 512:
                _COMPS.clear()
            comps = _COMPS[key] = (found, *self._comps(dms))
        _, keys, grid = comps
        power = max((a + b for _, (a, b) in keys), default=0)
        won = p.numerator * (100 // p.denominator)
        weights = [[0] * len(keys) for _ in dms]
        for column, (row, (a, b)) in enumerate(keys):
            weights[row][column] = won**a * (100 - won) ** b * 100 ** (power - a - b)
        den = grid.den * 100**power
        matrix = np.array(weights, dtype=dtype_for(den))
        return Grid(grid.lo, matrix @ grid.rows.astype(matrix.dtype), den)

    def _comps(self, dms: tuple[int, ...]) -> tuple[list[tuple[int, tuple[int, int]]], Grid]:
        keys: list[tuple[int, tuple[int, int]]] = []
        parts: list[Weights] = []
        for row, dm in enumerate(dms):
            found = self.damage_at(dm)
            for key, dist in (*found.components.items(), *found.tails.items()):
                keys.append((row, key))
                parts.append(dist)
        return keys, stack(parts)

    def landing_rows(
        self, target: int
    ) -> tuple[dict[tuple[str | None, int], dict[int, int]], dict[int, int], int]:
        """The landings at ``target`` tallied over one denominator: per (first location, hits)
        the counts of each first hit's degrees for damage, and the counts of each number of
        hits (Explosive's extra hit included; 0 holds the misses)."""
        rules = self.strike.damage_rules
        lands, den = self.landings(target, self.reactions_left)
        by_row: dict[tuple[str | None, int], dict[int, int]] = {}
        hit_counts: dict[int, int] = {}
        for (first, count, degrees, _), chance in lands.items():
            extra = self.explosive if count else 0
            hit_counts[count + extra] = hit_counts.get(count + extra, 0) + chance
            if count:
                row = by_row.setdefault((first, count), {})
                dm = rules.degrees_for_hit(degrees, 1)
                row[dm] = row.get(dm, 0) + chance
        hit_counts[0] = hit_counts.get(0, 0) + den - sum(hit_counts.values())
        return by_row, hit_counts, den

    def _matrix(self, target: int, p: Fraction, shots: Shots) -> Outcome:
        """One test, no cover worn between hits: matrices and Horner's rule."""
        rules = self.strike.damage_rules
        by_row, hit_counts, den = self.landing_rows(target)
        row_mass = {key: sum(row.values()) for key, row in by_row.items()}
        landed_count = sum(row_mass.values())
        hits = Weights.from_counts(hit_counts, den)
        cut = self.damage_at(0).cut(p)
        if not by_row:
            nothing = Weights.point(0)
            return Outcome(
                target, shots, hits, nothing, nothing if self.rules else None,
                nothing, nothing, nothing, {}, ZERO,
            )  # fmt: skip
        landed = Fraction(landed_count, den)
        dms = tuple(sorted({dm for row in by_row.values() for dm in row} | {0}))
        raws = self.raw_grid(dms, p)
        rows = list(by_row)
        mixed_den = den * raws.den
        matrix = np.array(
            [[by_row[r].get(dm, 0) for dm in dms] for r in rows], dtype=dtype_for(mixed_den)
        )
        mixed = Grid(raws.lo, matrix @ raws.rows.astype(matrix.dtype), mixed_den)
        kinds = ("wounds", "damaging") if self.rules is not None else ("wounds",)
        results: dict[str, Weights] = {}
        shares: list[Weights] = []
        first_wounds = Weights.empty()
        expected = Fraction(sum(n * c for n, c in hit_counts.items()), den)
        singles = [index for index, (_, n) in enumerate(rows) if n == 1]
        longer = sorted({first for first, n in rows if n > 1}, key=lambda f: (f is None, str(f)))
        for kind in kinds:
            targets = np.stack([self._targets(first, mixed, kind) for first, _ in rows])
            struck = remap_rows(mixed, targets)  # each row's first hit after the soak
            found = row_sum(struck, singles) if singles else Weights.empty()
            if kind == "wounds":
                first_wounds = row_sum(struck)
                shares.append(first_wounds.scaled(1 / expected))
            chains = []
            for first in longer:
                mine = [index for index, r in enumerate(rows) if r[0] == first and r[1] > 1]
                counts = [rows[index][1] for index in mine]
                spots = self.locations(first, max(counts))
                later = [self._later(spot, raws, dms.index(0), kind, p) for spot in spots[1:]]
                chains.append((mine, counts, later))
                if kind == "wounds":  # a landing hit picked at random among them
                    for k in range(2, max(counts) + 1):
                        mass = sum(row_mass[r] for r in rows if r[0] == first and r[1] >= k)
                        shares.append(later[k - 2].scaled(Fraction(mass, den) / expected))
            if chains:
                merged: dict[tuple[int, ...], Chain] = {}  # the same later hits: one chain
                for mine, counts, later in chains:
                    key = tuple(id(hit) for hit in later)
                    if key in merged:
                        merged[key][0].extend(mine)
                        merged[key][1].extend(counts)
                    else:
                        merged[key] = (list(mine), list(counts), later)
                found = found + _horner(struck, list(merged.values()))
            for extra in range(self.explosive):
                dm = rules.degrees_for_hit(0, 2 + extra)
                hit = self.hit_total((None, 0, dm), p, kind)
                found = found.conv(hit)
                if kind == "wounds":
                    shares.append(hit.scaled(landed / expected))
            results[kind] = found + Weights.point(0, ONE - landed)
        stride = self.stride
        first_raw = row_sum(mixed).conditional()
        first_wounds = first_wounds.conditional()
        if stride > 1:
            first_raw = first_raw.remap(lambda code: code // stride)
            first_wounds = first_wounds.remap(lambda code: code // stride)
        places: dict[str, Fraction] = {}
        for (first, _), mass in row_mass.items():
            if first is not None:
                places[first] = places.get(first, ZERO) + Fraction(mass, landed_count)
        return Outcome(
            target, shots, hits, results["wounds"], results.get("damaging"), total(shares),
            first_raw, first_wounds, _in_order(places), cut,
        )  # fmt: skip

    def _targets(self, first: str | None, block: Grid, kind: str) -> Any:
        key = ("targets", first, block.lo, block.width, kind)
        found = self._cache.get(key)
        if found is None:
            found, _ = self.soak_rule(first, self.cover.points).targets(
                block.lo, block.lo + block.width - 1, self.stride
            )
            if kind == "damaging":
                found = (found // self.stride > 0).astype(found.dtype)
            self._cache[key] = found
        return found

    def _later(self, spot: str | None, raws: Grid, row: int, kind: str, p: Fraction) -> Weights:
        """A later hit (no degrees) at ``spot``, after the soak, from the raw grid's row."""
        key = ("later", self.soak_rule(spot, self.cover.points).key, p, kind)
        found = self._cache.get(key)
        if found is None:
            whole = Weights(raws.lo, raws.rows[row], raws.den)
            found = self._cache[key] = whole.remap_array(self._targets(spot, raws, kind))
        return found

    def _stepwise(self, target: int, p: Fraction, shots: Shots) -> Outcome:
        """Test by test, hit by hit, over the states (several tests; cover worn down)."""
        kinds = ("wounds", "damaging") if self.rules is not None else ("wounds",)
        found: dict[str, dict[State, Weights]] = {}
        picked: dict[HitKey, Fraction] = {}
        for kind in kinds:
            found[kind] = self._run(target, p, kind, shots, picked if kind == "wounds" else None)
        states = found["wounds"]
        hit_mass: dict[int, Fraction] = {}
        for (_, _, _, count), dist in states.items():
            hit_mass[count] = hit_mass.get(count, ZERO) + dist.mass
        hits = Weights.from_counts(*_counts(hit_mass))
        expected = sum((n * w for n, w in hit_mass.items()), ZERO)
        per_hit = total(
            self.hit_total(key, p, "wounds").scaled(w / expected) for key, w in picked.items()
        )
        damaging = total(found["damaging"].values()) if self.rules is not None else None
        location, first_raw, first_wounds, _ = self._first(target, p)
        return Outcome(
            target, shots, hits, total(states.values()), damaging, per_hit, first_raw,
            first_wounds, location, self.raw(0, p)[1],
        )  # fmt: skip

    def _run(
        self,
        target: int,
        p: Fraction,
        kind: str,
        shots: Shots,
        picked: dict[HitKey, Fraction] | None,
    ) -> dict[State, Weights]:
        """The attack's tests in turn: the weights of the total, by state."""
        rules = self.strike.damage_rules
        states: dict[State, Weights] = {
            (self.reactions_left, False, self.cover.points, 0): Weights.point(0)
        }

        def put(into: dict[State, Weights], state: State, dist: Weights) -> None:
            if not dist.is_empty:
                into[state] = into[state] + dist if state in into else dist

        for _ in range(self.tests):
            after: dict[State, Weights] = {}
            for (left, landed, points, hits), dist in states.items():
                lands = self.landing_chances(target, left) if shots.groups else {}
                missed = ONE - sum(lands.values(), ZERO)
                put(after, (left, landed, points, hits), dist.scaled(missed))
                for (first, count, degrees, used), chance in lands.items():
                    now = left - int(used)
                    part = dist.scaled(chance)
                    if count == 0:
                        put(after, (now, landed, points, hits), part)
                        continue
                    run: dict[int, Weights] = {points: part}
                    spots = self.locations(first, count)
                    for index, spot in enumerate(spots):
                        dm = rules.degrees_for_hit(degrees, index + 1)  # within its test
                        run = self._step(run, spot, dm, p, kind, picked)
                    for cover_left, added in run.items():
                        put(after, (now, True, cover_left, hits + count), added)
            states = after
            if shots.jams:  # a jam ends the attack (ranged: one test)
                break
        if self.explosive:
            ended: dict[State, Weights] = {}
            for (left, landed, points, hits), dist in states.items():
                if hits == 0:
                    put(ended, (left, landed, points, hits), dist)
                    continue
                run = {points: dist}
                for extra in range(self.explosive):
                    dm = rules.degrees_for_hit(0, hits + extra + 1)
                    run = self._step(run, None, dm, p, kind, picked)
                for cover_left, added in run.items():
                    put(ended, (left, landed, cover_left, hits + self.explosive), added)
            states = ended
        return states

    def _step(
        self,
        before: Mapping[int, Weights],
        spot: str | None,
        dm: int,
        p: Fraction,
        kind: str,
        picked: dict[HitKey, Fraction] | None,
    ) -> dict[int, Weights]:
        found: dict[int, Weights] = {}
        for points, dist in before.items():
            if picked is not None:
                key = (spot, points, dm)
                picked[key] = picked.get(key, ZERO) + dist.mass
            for after, hit in self.hit(spot, points, dm, p, kind).items():
                added = dist.conv(hit)
                found[after] = found[after] + added if after in found else added
        return found

    # --- the common value ----------------------------------------------------------------------

    def odds_of(self, outcome: Outcome) -> Odds:
        stride = self.stride
        wounds = (
            outcome.wounds if stride == 1 else outcome.wounds.remap(lambda code: code // stride)
        )
        hits = to_dist(outcome.hits)
        events: dict[str, Fraction] = {
            "test": outcome.shots.test,
            "jam": outcome.shots.jam,
            "hit": outcome.hits.at_least(1),
            "wounded": wounds.at_least(1),
        }
        details: dict[str, Dist[Any]] = {}
        lost: Dist[int] | None = None
        shots = outcome.shots
        if self.setup.auto_hit:
            details["degrees of success"] = Dist({"automatic hit": 1}, 1)
        else:
            failed = shots.den - shots.successes - shots.jams
            found: dict[Any, int] = {**shots.by_degrees, "failure": failed, "jam": shots.jams}
            details["degrees of success"] = Dist(found, shots.den)
        if outcome.location:
            details["first hit location"] = chances(outcome.location)
        details["first hit damage"] = to_dist(outcome.first_raw)
        details["first hit wounds"] = to_dist(outcome.first_wounds)
        if self.rules is None:
            remaining = self.remaining
            critical = (
                outcome.wounds.floor_shift(remaining)
                if stride == 1
                else outcome.wounds.remap(
                    lambda code: max(0, code // stride - remaining) + code % stride
                )
            )
            damage = to_dist(wounds)
            events["critically damaged"] = critical.at_least(1)
            details["critical damage"] = to_dist(critical)
            states = self._damage_states(outcome.wounds)
        else:
            rules = self.rules
            assert outcome.damaging is not None
            magnitude = outcome.damaging.remap(lambda n: hordes.magnitude_loss(n, rules))
            damage = Dist.certain(0)
            events["critically damaged"] = ZERO
            events["magnitude lost"] = magnitude.at_least(1)
            details["magnitude lost"] = lost = to_dist(magnitude)
            states = self._horde_states(magnitude)
        events.update(self._conditions(events["hit"]))
        fury = fury_term(self.game)
        notes: list[Text] = [Message("odds.note.fury_depth", fury=fury, depth=self.fury_depth)]
        if outcome.cut:
            hit_cut = ONE - sum(
                (w * (1 - outcome.cut) ** n for n, w in outcome.hits.probabilities().items()),
                ZERO,
            )
            events["fury beyond depth"] = hit_cut
            notes.append(Message("odds.note.fury_cut_damage", chance=float(hit_cut)))
        if self.empty:
            notes.append(Message("odds.note.empty", weapon=self.weapon.name))
        return ImperialAttackOdds(
            game=self.game,
            hits=hits,
            per_hit=to_dist(
                outcome.per_hit if stride == 1 else outcome.per_hit.remap(lambda c: c // stride)
            ),
            wounds=to_dist(wounds),
            damage=damage,
            states=states,
            events=events,
            details=details,
            notes=tuple(notes),
            magnitude_lost=lost,
        )

    def _damage_states(self, codes: Weights) -> Dist[str]:
        """The target's ``damage_state`` (its sheet's rule) after the damage and criticals."""
        sheet = self.strike.target
        stride = self.stride
        found: dict[str, int] = {}
        seen = _kept(sheet, "states")
        room = sheet.wounds - sheet.damage
        for code, count in codes.items():
            wounds, crit = code // stride, code % stride
            taken = min(wounds, room)
            beyond = wounds - taken + crit
            key = (sheet.damage + taken, min(CRITICAL_MAX, sheet.critical_damage + beyond))
            state = seen.get(key)
            if state is None:
                update = {"damage": key[0], "critical_damage": key[1]}
                state = seen[key] = sheet.model_copy(update=update).damage_state
            found[state] = found.get(state, 0) + count
        return Dist(found, codes.den)

    def _horde_states(self, magnitude: Weights) -> Dist[str]:
        """A horde's standing after the magnitude it lost (its sheet's ``broken``)."""
        horde = self.strike.target.horde  # type: ignore[attr-defined]
        found: dict[str, int] = {}
        for lost, count in magnitude.items():
            after = horde.model_copy(update={"magnitude": max(0, horde.magnitude - lost)})
            state = "destroyed" if after.destroyed else "broken" if after.broken else "standing"
            found[state] = found.get(state, 0) + count
        return Dist(found, magnitude.den)

    def _conditions(self, hit: Fraction) -> dict[str, Fraction]:
        found: dict[str, Fraction] = {}
        strike = self.strike
        if hit and self.weapon.quality("Flame") and self.rules is None:
            self.dice.play([100])
            steps, effects = catch_fire(strike)
            name = (effects[0].condition or "on_fire") if effects else "on_fire"
            aimed = [s.target for s in steps if s.target is not None]
            if aimed:
                found[name.replace("_", " ")] = hit * (1 - success_chance(int(aimed[0])))
        if self.setup.mode == "suppressing" or self.request.options.overwatch:
            self.dice.play([100])
            steps, effects = resolve_fire.pinning(strike.target, self.dice)
            name = (effects[0].condition or effects[0].kind) if effects else "pinned"
            aimed = [s.target for s in steps if s.target is not None]
            if aimed:
                found[str(name).replace("_", " ")] = 1 - success_chance(int(aimed[0]))
        return found


Chain = tuple[list[int], list[int], list[Weights]]  # rows, their hits, the later hits


def _horner(struck: Grid, chains: Sequence[Chain]) -> Weights:
    """The totals of the rows of ``struck`` (each row: the first hit of ``n`` hits, for the
    ``n`` given) with the later hits added, by Horner's rule from the last hit: exact integers
    in int64 while they fit, else modulo primes (:class:`Residues`)."""
    most = max(max(counts) for _, counts, _ in chains)
    common = lcm_of(hit.den for _, _, later in chains for hit in later)
    den = struck.den * common ** (most - 1)
    if den < LIMIT:
        found = Weights.empty()
        for mine, counts, later in chains:
            value = Weights.empty()
            for n in range(max(counts), 1, -1):
                if n < max(counts):
                    value = value.conv(later[n - 1])
                with_n = [row for row, count in zip(mine, counts, strict=True) if count == n]
                if with_n:
                    value = value + row_sum(struck, with_n)
            found = found + value.conv(later[0])
        return found
    primes = Residues.primes_for(den)
    rows = residues(struck.rows, primes)  # (primes, rows, values)
    seen: dict[int, Residues] = {}

    def of(hit: Weights) -> Residues:
        found = seen.get(id(hit))
        if found is None:
            found = seen[id(hit)] = Residues.of(hit, common // hit.den, primes)
        return found

    total_res = Residues.empty(primes)
    for mine, counts, later in chains:
        top = max(counts)
        hits = [of(hit) for hit in later]
        chain = Residues.empty(primes)
        for n in range(top, 1, -1):
            if n < top:
                chain = chain.conv(hits[n - 1], primes)
            with_n = [row for row, count in zip(mine, counts, strict=True) if count == n]
            if with_n:
                row = Residues(struck.lo, rows[:, with_n, :].sum(axis=1) % primes[:, None])
                chain = chain.plus(row.scaled(common ** (top - n), primes), primes)
        chain = chain.conv(hits[0], primes).scaled(common ** (most - top), primes)
        total_res = total_res.plus(chain, primes)
    return total_res.exact(den, primes)


def _in_order(places: Mapping[str, Fraction]) -> dict[str, Fraction]:
    order = {name: index for index, name in enumerate(LOCATIONS)}
    return dict(sorted(places.items(), key=lambda item: order.get(item[0], 99)))


def _counts(chances_by_value: Mapping[int, Fraction]) -> tuple[dict[int, int], int]:
    den = lcm_of(value.denominator for value in chances_by_value.values() if value)
    return {k: int(v * den) for k, v in chances_by_value.items() if v}, den


_COMPS: dict[tuple[int, ...], tuple[list[HitDamage], list[tuple[int, tuple[int, int]]], Grid]] = {}
_KEPT: dict[tuple[int, str], tuple[Any, dict[Any, Any]]] = {}


def _kept(sheet: Any, what: str) -> dict[Any, Any]:
    """Values already read from the immutable ``sheet`` (its armour, its states), kept with a
    reference to it so its id cannot be reused while they are."""
    found = _KEPT.get((id(sheet), what))
    if found is None or found[0] is not sheet:
        if len(_KEPT) > 512:
            _KEPT.clear()
        found = (sheet, {})
        _KEPT[(id(sheet), what)] = found
    return found[1]


def imperial_odds(
    request: AttackRequest, *, fury_depth: int = FURY_DEPTH, setup: AttackSetup | None = None
) -> Odds:
    """The exact odds of ``request`` (a Dark Heresy or Deathwatch attack)."""
    return ImperialOdds(request, setup, fury_depth=fury_depth).at()


def imperial_curve(
    request: AttackRequest,
    modifiers: Sequence[int] | None = None,
    *,
    fury_depth: int = FURY_DEPTH,
    setup: AttackSetup | None = None,
) -> Curve:
    """The odds of ``request`` at each total modifier (default -60..+60), other things equal."""
    model = ImperialOdds(request, setup, fury_depth=fury_depth)
    chosen = tuple(MODIFIERS if modifiers is None else modifiers)
    current = None if (model.setup.auto_hit or model.setup.auto_fail) else model.modifier
    return Curve(chosen, tuple(model.at(model.base + m) for m in chosen), current)


__all__ = [
    "GAMES",
    "ImperialAttackOdds",
    "ImperialOdds",
    "Outcome",
    "imperial_curve",
    "imperial_odds",
]
