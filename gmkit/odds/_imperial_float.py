"""The 40k odds (Dark Heresy, Deathwatch) as floats: the exact engine's own parts, in float64.

:class:`FloatImperial` runs the exact engine's matrix path (:meth:`ImperialOdds._matrix`: one
test whose degrees buy hits, no cover worn down between hits; the usual case) with float64
arrays instead of exact integers, and its ``odds_of`` the same way. Everything that does not
depend on the test's target is the exact model's (:class:`~gmkit.odds._imperial.ImperialOdds`):
the landings (exact integer counts per target, memoised), the damage components of each
degrees of success (``HitDamage``), the soak's index maps, the locations, the sheet's states,
read once and turned into float arrays once per model. Per target only a few small products
and convolutions remain; a curve reuses one model for its 121 targets.

The other attacks (several tests, cover worn down hit by hit) are the exact engine's odds
converted (:meth:`FastOdds.of_exact`): the same numbers, not faster.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from gmkit.messages import Message, Text
from gmkit.odds._fast import FastCurve, FastOdds, FloatDist
from gmkit.odds._float_weights import (
    EMPTY,
    Codes,
    Vec,
    at_least,
    conditional,
    conv,
    dist,
    divided,
    float_dist,
    plus,
    point,
    remap,
    remap_by,
)
from gmkit.odds._imperial import GAMES, ImperialOdds, _kept, imperial_curve
from gmkit.odds._percentile import FURY_DEPTH, MODIFIERS, Grid, success_chance
from gmkit.systems._imperial import hordes
from gmkit.systems._imperial.terms import fury as fury_term
from gmkit.systems._percentile import LOCATIONS
from gmkit.systems.base import AttackRequest

FloatGrid = tuple[int, np.ndarray, list[tuple[int, int]], np.ndarray]
_GRIDS: dict[int, tuple[Any, FloatGrid]] = {}  # id(HitDamage) -> (it, its float rows)


class FloatImperial:
    """The float odds of one 40k attack at any target number (see the module docstring)."""

    def __init__(self, model: ImperialOdds) -> None:
        self.model = model
        self.kinds = ("wounds", "damaging") if model.rules is not None else ("wounds",)
        cover_worn = model.cover.points > 0 and model.rules is None
        self.matrix = (
            model.tests == 1 and model.later_zero and not (cover_worn and model.per_test > 1)
        )
        self._grids: dict[int, FloatGrid] = {}
        self._points: dict[int, FastOdds] = {}
        self._maps: dict[tuple[Any, ...], tuple[int, int, np.ndarray]] = {}
        self._state_of: dict[int, str] | None = None

    def at(self, target: int | None = None) -> FastOdds:
        model = self.model
        target = model.target if target is None else max(0, target)
        found = self._points.get(target)
        if found is None:
            found = self._at(target) if self.matrix else FastOdds.of_exact(model.at(target))
            self._points[target] = found
        return found

    # --- a hit's damage before the soak ---------------------------------------------------

    def _grid(self, dm: int) -> FloatGrid:
        """(lo, float rows of the components then the tails, their (won, lost), tail masses)."""
        found = self._grids.get(dm)
        if found is None:
            damage = self.model.damage_at(dm)  # kept by the exact engine for its profile
            kept = _GRIDS.get(id(damage))
            if kept is not None and kept[0] is damage:
                self._grids[dm] = kept[1]
                return kept[1]
            grid = damage.grid
            if grid.rows.dtype == object:
                rows = np.array([[c / grid.den for c in row] for row in grid.rows.tolist()])
            else:
                rows = grid.rows.astype(np.float64) / float(grid.den)
            masses = np.array([float(tail.mass) for tail in damage.tails.values()])
            found = (grid.lo, rows, list(damage.keys), masses)
            self._grids[dm] = found
            if len(_GRIDS) > 1024:
                _GRIDS.clear()
            _GRIDS[id(damage)] = (damage, found)
        return found

    def raw(self, dm: int, p: float) -> Vec:
        lo, rows, keys, _ = self._grid(dm)
        weights = np.array([p**a * (1 - p) ** b for a, b in keys])
        return lo, weights @ rows

    def cut(self, p: float) -> float:
        _, _, keys, masses = self._grid(0)
        tails = keys[len(keys) - len(masses) :]
        return float(sum(p**a * (1 - p) ** b * m for (a, b), m in zip(tails, masses, strict=True)))

    def soaked(self, first: str | None, block: Vec, kind: str) -> Vec:
        """``block`` (raw damage codes) after the soak at ``first`` (the model's maps)."""
        model = self.model
        lo, values = block
        targets = model._targets(first, Grid(lo, values[None, :], 1), kind)
        return remap(block, targets)

    # --- the odds at one target -----------------------------------------------------------

    def _at(self, target: int) -> FastOdds:
        model = self.model
        p = float(success_chance(target))  # a Fury confirmation is the attack's test again
        shots = model.shots(target)
        rules = model.strike.damage_rules
        by_row, hit_counts, den = model.landing_rows(target)
        most = max(hit_counts)
        hits: Vec = (0, np.array([hit_counts.get(n, 0) / den for n in range(most + 1)]))
        cut = self.cut(p)
        results: dict[str, Vec] = {}
        if not by_row:
            nothing = point(0)
            results = {kind: nothing for kind in self.kinds}
            return self._odds(target, shots, hits, results, nothing, nothing, nothing, {}, 0.0)
        row_mass = {key: sum(row.values()) for key, row in by_row.items()}
        landed_count = sum(row_mass.values())
        landed = landed_count / den
        dms = sorted({dm for row in by_row.values() for dm in row} | {0})
        raws = [self.raw(dm, p) for dm in dms]
        lo = min(r[0] for r in raws)
        width = max(r[0] + len(r[1]) for r in raws) - lo
        grid = np.zeros((len(dms), width))
        for index, (start, values) in enumerate(raws):
            grid[index, start - lo : start - lo + len(values)] = values
        rows = list(by_row)
        matrix = np.array([[by_row[r].get(dm, 0) for dm in dms] for r in rows]) / den
        mixed = matrix @ grid
        expected = sum(n * c for n, c in hit_counts.items()) / den
        zero_row: Vec = (lo, grid[dms.index(0)])
        shares: list[Vec] = []
        first_wounds = EMPTY
        singles = np.array([n == 1 for _, n in rows])
        for kind in self.kinds:
            out, block = self._struck(rows, lo, mixed, kind)  # each row's first hit, soaked
            struck = [(out, row) for row in block]
            found = (out, block[singles].sum(axis=0)) if singles.any() else EMPTY
            if kind == "wounds":
                first_wounds = (out, block.sum(axis=0))
                shares.append((out, first_wounds[1] / expected))
            for first in sorted({f for f, n in rows if n > 1}, key=lambda f: (f is None, str(f))):
                top = max(n for f, n in rows if f == first)
                spots = model.locations(first, top)
                later = [self.soaked(spot, zero_row, kind) for spot in spots[1:]]
                if kind == "wounds":  # a landing hit picked at random among them
                    for k in range(2, top + 1):
                        mass = sum(row_mass[r] for r in rows if r[0] == first and r[1] >= k)
                        share = mass / den / expected
                        shares.append((later[k - 2][0], later[k - 2][1] * share))
                value = EMPTY
                for n in range(top, 1, -1):  # Horner's rule from the last hit
                    if n < top:
                        value = conv(value, later[n - 1])
                    for index, (f, count) in enumerate(rows):
                        if f == first and count == n:
                            value = plus(value, struck[index])
                found = plus(found, conv(value, later[0]))
            for extra in range(model.explosive):
                dm = rules.degrees_for_hit(0, 2 + extra)
                hit = self._soaked_point(dm, p, kind)
                found = conv(found, hit)
                if kind == "wounds":
                    shares.append((hit[0], hit[1] * landed / expected))
            results[kind] = plus(found, point(0, 1 - landed))
        per_hit = EMPTY
        for part in shares:
            per_hit = plus(per_hit, part)
        first_raw = conditional((lo, mixed.sum(axis=0)))
        first_wounds = conditional(first_wounds)
        if model.stride > 1:
            stride = model.stride
            first_raw = divided(first_raw, stride)
            first_wounds = divided(first_wounds, stride)
        places: dict[str, float] = {}
        for (first, _), mass in row_mass.items():
            if first is not None:
                places[first] = places.get(first, 0.0) + mass / landed_count
        return self._odds(
            target, shots, hits, results, per_hit, first_raw, first_wounds, places, cut
        )

    def _struck(
        self, rows: list[tuple[str | None, int]], lo: int, mixed: np.ndarray, kind: str
    ) -> tuple[int, np.ndarray]:
        """Every row of ``mixed`` (raw codes from ``lo``) through the soak at its row's first
        location, on one grid of wounds codes: (its lowest code, the rows)."""
        key = (tuple(first for first, _ in rows), lo, mixed.shape[1], kind)
        found = self._maps.get(key)
        if found is None:
            block = Grid(lo, mixed, 1)
            targets = np.stack([self.model._targets(first, block, kind) for first, _ in rows])
            out = int(targets.min())
            width = int(targets.max()) - out + 1
            flat = (np.arange(len(rows))[:, None] * width + (targets - out)).ravel()
            found = self._maps[key] = (out, width, flat)
        out, width, flat = found
        counts = np.bincount(flat, weights=mixed.ravel(), minlength=len(rows) * width)
        return out, counts.reshape(len(rows), width)

    def _states(self, codes: Vec) -> FloatDist[str]:
        """The sheet's states (``ImperialOdds._damage_states``, read once per code)."""
        lo, values = codes
        present = np.flatnonzero(values)
        found: dict[str, float] = {}
        state_of = self._state_of
        if state_of is None:  # the sheet's, across requests (it is immutable)
            state_of = self._state_of = _kept(
                self.model.strike.target, f"codes {self.model.stride}"
            )
        for code, weight in zip((present + lo).tolist(), values[present].tolist(), strict=True):
            state = state_of.get(code)
            if state is None:
                one = self.model._damage_states(Codes((code, np.ones(1))))  # type: ignore[arg-type]
                state = state_of[code] = next(iter(one))
            found[state] = found.get(state, 0.0) + weight
        return FloatDist(found)

    def _soaked_point(self, dm: int, p: float, kind: str) -> Vec:
        """A hit with no location behind no cover points (the Explosive hit on a horde)."""
        model = self.model
        lo, values = self.raw(dm, p)
        targets, _ = model.soak_rule(None, 0).targets(lo, lo + len(values) - 1, model.stride)
        if kind == "damaging":
            targets = (targets // model.stride > 0).astype(targets.dtype)
        return remap((lo, values), targets)

    # --- the common value, as floats ------------------------------------------------------

    def _odds(
        self,
        target: int,
        shots: Any,
        hits: Vec,
        results: Mapping[str, Vec],
        per_hit: Vec,
        first_raw: Vec,
        first_wounds: Vec,
        places: Mapping[str, float],
        cut: float,
    ) -> FastOdds:
        model = self.model
        stride = model.stride
        codes = results["wounds"]
        wounds = divided(codes, stride)
        events: dict[str, float] = {
            "test": shots.successes / shots.den,
            "jam": shots.jams / shots.den,
            "hit": at_least(hits, 1),
            "wounded": at_least(wounds, 1),
        }
        details: dict[str, FloatDist[Any]] = {}
        lost: FloatDist[int] | None = None
        if model.setup.auto_hit:
            details["degrees of success"] = FloatDist({"automatic hit": 1.0})
        else:
            failed = shots.den - shots.successes - shots.jams
            counted: dict[Any, int] = {**shots.by_degrees, "failure": failed, "jam": shots.jams}
            details["degrees of success"] = FloatDist(
                {key: count / shots.den for key, count in counted.items()}
            )
        if places:
            order = {name: index for index, name in enumerate(LOCATIONS)}
            details["first hit location"] = FloatDist(
                dict(sorted(places.items(), key=lambda item: order.get(item[0], 99)))
            )
        details["first hit damage"] = dist(first_raw)
        details["first hit wounds"] = dist(first_wounds)
        if model.rules is None:
            remaining = model.remaining
            values = np.arange(codes[0], codes[0] + len(codes[1]), dtype=np.int64)
            critical = remap(codes, np.maximum(0, values // stride - remaining) + values % stride)
            damage = dist(wounds)
            events["critically damaged"] = at_least(critical, 1)
            details["critical damage"] = dist(critical)
            states = self._states(codes)
        else:
            rules = model.rules
            magnitude = remap_by(results["damaging"], lambda n: hordes.magnitude_loss(n, rules))
            damage = FloatDist({0: 1.0})
            events["critically damaged"] = 0.0
            events["magnitude lost"] = at_least(magnitude, 1)
            details["magnitude lost"] = lost = dist(magnitude)
            states = float_dist(model._horde_states(Codes(magnitude)))  # type: ignore[arg-type]
        conditions = model._conditions(Fraction(events["hit"]))  # names and tests' chances
        events.update({name: float(value) for name, value in conditions.items()})
        fury = fury_term(model.game)
        notes: list[Text] = [Message("odds.note.fury_depth", fury=fury, depth=model.fury_depth)]
        if cut:
            hit_cut = 1 - float(sum(w * (1 - cut) ** n for n, w in enumerate(hits[1])))
            events["fury beyond depth"] = hit_cut
            notes.append(Message("odds.note.fury_cut_damage", chance=hit_cut))
        if model.empty:
            notes.append(Message("odds.note.empty", weapon=model.weapon.name))
        return FastOdds(
            game=model.game,
            hits=dist(hits),
            per_hit=dist(divided(per_hit, stride)),
            wounds=dist(wounds),
            damage=damage,
            states=states,
            events=events,
            details=details,
            notes=tuple(notes),
            magnitude_lost=lost,
            make_exact=lambda: model.at(target),
        )


def fast_imperial_odds(request: AttackRequest, *, fury_depth: int = FURY_DEPTH) -> FastOdds:
    """The float odds of ``request`` (a Dark Heresy or Deathwatch attack)."""
    return FloatImperial(ImperialOdds(request, fury_depth=fury_depth)).at()


def fast_imperial_curve(
    request: AttackRequest, modifiers: Sequence[int] | None = None, *, fury_depth: int = FURY_DEPTH
) -> FastCurve:
    """:func:`~gmkit.odds._imperial.imperial_curve` as floats (one model for every point)."""
    model = ImperialOdds(request, fury_depth=fury_depth)
    engine = FloatImperial(model)
    chosen = tuple(MODIFIERS if modifiers is None else modifiers)
    current = None if (model.setup.auto_hit or model.setup.auto_fail) else model.modifier
    points = tuple(engine.at(model.base + m) for m in chosen)
    return FastCurve(
        chosen, points, current, lambda: imperial_curve(request, chosen, fury_depth=fury_depth)
    )


__all__ = ["GAMES", "FloatImperial", "fast_imperial_curve", "fast_imperial_odds"]
