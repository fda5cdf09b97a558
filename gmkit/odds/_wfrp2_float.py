"""The WFRP 2e odds as floats: :meth:`WFRPOdds._at <gmkit.odds._wfrp2.WFRPOdds>` in float64.

The model (:class:`~gmkit.odds._wfrp2.WFRPOdds`: the damage without Fury, Ulric's Fury's chain,
the soak per location, the reactions' chances, the sheet's wound states) is the exact engine's;
per target the blow, the attacks in turn and the states run on float arrays
(:mod:`gmkit.odds._float_weights`). See :mod:`gmkit.odds._fast`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from gmkit.messages import Message, Text
from gmkit.odds._fast import FastCurve, FastOdds, FloatDist
from gmkit.odds._float_weights import (
    EMPTY,
    Codes,
    Vec,
    at_least,
    at_most,
    conv,
    dist,
    float_dist,
    mass,
    plus,
    point,
    remap,
    remap_by,
    scaled,
    split,
)
from gmkit.odds._percentile import FURY_DEPTH, MODIFIERS, Weights, roll_arrays, success_chance
from gmkit.odds._wfrp2 import WFRPOdds, critical_value, wfrp2_curve
from gmkit.systems._percentile import LOCATIONS
from gmkit.systems.base import AttackRequest
from gmkit.systems.wfrp2._resolve import GAME

State = tuple[frozenset[str], int]  # reactions spent, blows landed


def _vec(weights: Weights) -> Vec:
    if weights.is_empty:
        return EMPTY
    den = weights.den
    if weights.counts.dtype == object:
        return weights.lo, np.array([c / den for c in weights.counts.tolist()])
    return weights.lo, weights.counts.astype(np.float64) / float(den)


class FloatWFRP:
    """The float odds of one WFRP 2e attack at any target number."""

    def __init__(self, model: WFRPOdds) -> None:
        self.model = model
        self.plain = _vec(model.plain)
        self.called = _vec(model.called)
        self.confirmed = _vec(model.confirmed)
        self.called_mass = float(model.called.mass)
        self.cut_mass = float(model.chain_cut.mass)
        self.reactions = {name: float(chance) for name, chance in model.reactions.items()}
        self._points: dict[int, FastOdds] = {}

    def at(self, target: int | None = None) -> FastOdds:
        model = self.model
        target = model.target if target is None else max(0, target)
        found = self._points.get(target)
        if found is None:
            found = self._points[target] = self._at(target)
        return found

    def raw(self, p: float) -> tuple[Vec, float]:
        if not len(self.called[1]):
            return self.plain, 0.0
        confirm = 1.0 if self.model.setup.auto_hit else p
        found = plus(self.plain, scaled(self.called, 1 - confirm))
        found = plus(found, scaled(self.confirmed, confirm))
        return found, self.called_mass * self.cut_mass * confirm

    def _at(self, target: int) -> FastOdds:
        model, setup = self.model, self.model.setup
        exact_p = success_chance(target)
        p = float(exact_p)
        success, degrees = roll_arrays(target)
        hitting_rolls = np.ones(100, dtype=bool) if setup.auto_hit else success
        at_place = np.bincount(model.place_index[hitting_rolls], minlength=len(model.places))
        struck = {model.places[i]: int(n) for i, n in enumerate(at_place) if n}
        found, tally = np.unique(degrees[success], return_counts=True)
        by_degrees = {int(d): int(n) for d, n in zip(found, tally, strict=True)}
        hitting = int(hitting_rolls.sum())
        raw, cut = self.raw(p)
        blow = self._blow(raw, struck, hitting) if hitting else point(0)
        states, critical = self._run(hitting / 100, blow)
        hit_mass: dict[int, float] = {}
        for (_, landed), weights in states.items():
            hit_mass[landed] = hit_mass.get(landed, 0.0) + mass(weights)
        lost = EMPTY
        for weights in states.values():
            lost = plus(lost, weights)
        wounds = model.wounds
        values = np.arange(lost[0], lost[0] + len(lost[1]), dtype=np.int64)
        left = remap(lost, np.maximum(0, wounds - values))
        crossed = 1 - at_most(lost, wounds)
        critical = plus(critical, point(0, 1 - mass(critical)))
        name = model.target_sheet.name
        critical = remap_by(critical, lambda v: critical_value(name, v) if v else 0)
        events: dict[str, float] = {
            "test": p if not setup.auto_hit else 1.0,
            "hit": 1 - hit_mass.get(0, 0.0),
            "wounded": at_least(lost, 1),
            "critically damaged": crossed,
        }
        notes: list[Text] = [Message("odds.note.ulrics_fury_depth", depth=model.fury_depth)]
        if cut:
            beyond = 1 - sum(w * (1 - cut) ** n for n, w in hit_mass.items())
            events["fury beyond depth"] = beyond
            notes.append(Message("odds.note.fury_cut_dice", chance=beyond))
        failed = 100 - sum(by_degrees.values())
        counted: dict[Any, int] = {**by_degrees, "failure": failed}
        details: dict[str, FloatDist[Any]] = {
            "degrees of success": (
                FloatDist({"automatic hit": 1.0})
                if setup.auto_hit
                else FloatDist({k: n / 100 for k, n in counted.items()})
            ),
            "first hit damage": dist(raw),
            "first hit wounds": dist(blow),
            "critical value": dist(critical),
            "wounds left": dist(left),
        }
        if hitting:
            order = {loc: i for i, loc in enumerate(LOCATIONS)}
            placed = dict(sorted(struck.items(), key=lambda kv: order.get(kv[0], 99)))
            details["first hit location"] = FloatDist(
                {place: n / hitting for place, n in placed.items()}
            )
        hits = FloatDist({k: v for k, v in sorted(hit_mass.items()) if v})
        return FastOdds(
            game=GAME,
            hits=hits,
            per_hit=dist(blow),
            wounds=dist(lost),
            damage=dist(lost),
            states=float_dist(model._states(Codes(left))),  # type: ignore[arg-type]
            events=events,
            details=details,
            notes=tuple(notes),
            make_exact=lambda: model.at(target),
        )

    def _blow(self, raw: Vec, struck: Mapping[str, int], hitting: int) -> Vec:
        """The wounds one landing blow costs: the damage less the soak where it lands."""
        by_soak: dict[int, int] = {}
        for location, count in struck.items():
            soaked = self.model.absorbed[location]
            by_soak[soaked] = by_soak.get(soaked, 0) + count
        values = np.arange(raw[0], raw[0] + len(raw[1]), dtype=np.int64)
        found = EMPTY
        for soaked, count in by_soak.items():
            part = remap(raw, np.maximum(0, values - soaked))
            found = plus(found, scaled(part, count / hitting))
        return found

    def _run(self, h: float, blow: Vec) -> tuple[dict[State, Vec], Vec]:
        """Attack after attack (as ``WFRPOdds._run``), on floats."""
        model = self.model
        wounds, bonus = model.wounds, model.setup.critical_bonus
        states: dict[State, Vec] = {(frozenset(), 0): point(0)}
        critical = EMPTY

        def put(into: dict[State, Vec], state: State, weights: Vec) -> None:
            if len(weights[1]) and weights[1].any():
                into[state] = plus(into[state], weights) if state in into else weights

        for choice in model.choices:
            after: dict[State, Vec] = {}
            for (spent, landed), weights in states.items():
                put(after, (spent, landed), scaled(weights, 1 - h))
                hit = scaled(weights, h)
                if choice is not None and choice not in spent and choice in self.reactions:
                    turned = self.reactions[choice]
                    spent = spent | {choice}
                    put(after, (spent, landed), scaled(hit, turned))
                    hit = scaled(hit, 1 - turned)
                below, above = split(hit, wounds)
                reached = conv(below, blow)
                beyond = split(reached, wounds)[1]
                if len(beyond[1]):
                    critical = plus(critical, (beyond[0] + bonus - wounds, beyond[1]))
                put(after, (spent, landed + 1), plus(reached, conv(above, blow)))
            states = after
        return states, critical


def fast_wfrp2_odds(request: AttackRequest, *, fury_depth: int = FURY_DEPTH) -> FastOdds:
    """The float odds of ``request`` (a WFRP 2e attack)."""
    return FloatWFRP(WFRPOdds(request, fury_depth=fury_depth)).at()


def fast_wfrp2_curve(
    request: AttackRequest, modifiers: Sequence[int] | None = None, *, fury_depth: int = FURY_DEPTH
) -> FastCurve:
    """:func:`~gmkit.odds._wfrp2.wfrp2_curve` as floats (one model for every point)."""
    model = WFRPOdds(request, fury_depth=fury_depth)
    engine = FloatWFRP(model)
    chosen = tuple(MODIFIERS if modifiers is None else modifiers)
    current = None if model.setup.auto_hit else model.modifier
    points = tuple(engine.at(model.base + m) for m in chosen)
    return FastCurve(
        chosen, points, current, lambda: wfrp2_curve(request, chosen, fury_depth=fury_depth)
    )


__all__ = ["FloatWFRP", "fast_wfrp2_curve", "fast_wfrp2_odds"]
