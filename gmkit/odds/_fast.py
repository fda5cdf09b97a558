"""The odds as floats, fast, for what a view draws; the exact Fractions on demand.

``fast_odds(request)`` returns :class:`FastOdds`: the same shape as the exact
:class:`~gmkit.odds._core.Odds` (``hits``, ``per_hit``, ``wounds``, ``damage``, ``states``,
``events``, ``details``, ``notes``; ``hit``, ``p(name)``, ``expected_*``, ``distributions()``,
``as_float()``) with every probability a float within 1e-12 of the exact one
(``tests/test_odds_float_path.py`` checks every distribution against the exact engine), and
``exact()`` the exact :class:`Odds` of the same request, computed on the first call.
``fast_curve(request)`` is :func:`gmkit.odds.curve` the same way (:class:`FastCurve`).

The exact engine stays the reference: :func:`gmkit.odds.odds` is unchanged. A game declares its
float engine in its registry entry (``Game.fast``: a :class:`~gmkit.games.FastEngine`, the odds
and curve functions; the d100 games' are :mod:`gmkit.odds._imperial_float` and
:mod:`gmkit.odds._wfrp2_float`); a game without one gets its exact odds converted
(:meth:`FastOdds.of_exact`), so the fast path is always there and never differs from the exact
one by more than a float's rounding.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from gmkit.messages import Text, render
from gmkit.odds._core import Curve, Dist, MemberOdds, Odds, curve, game_of, odds
from gmkit.plugins import entry
from gmkit.systems.base import AttackRequest

if TYPE_CHECKING:
    from gmkit.games._registry import FastEngine

K = TypeVar("K", bound=Hashable)


class FloatDist(Mapping[K, float], Generic[K]):
    """Outcome -> probability as floats (the float twin of :class:`~gmkit.dice._dist.Dist`)."""

    __slots__ = ("_p",)

    def __init__(self, chances: Mapping[K, float]) -> None:
        self._p: dict[K, float] = dict(chances)

    @classmethod
    def of(cls, dist: Dist[K]) -> FloatDist[K]:
        """An exact distribution as floats (each its correctly rounded float)."""
        return cls(dist.as_float())

    def __getitem__(self, outcome: K) -> float:
        return self._p[outcome]

    def __iter__(self) -> Iterator[K]:
        return iter(self._p)

    def __len__(self) -> int:
        return len(self._p)

    def __repr__(self) -> str:
        shown = ", ".join(f"{key!r}: {value:.6g}" for key, value in self._p.items())
        return f"FloatDist({{{shown}}})"

    def p(self, outcome: K) -> float:
        """The probability of ``outcome`` (0 when it cannot happen)."""
        return self._p.get(outcome, 0.0)

    def chance(self, predicate: Callable[[K], bool]) -> float:
        return sum(value for key, value in self._p.items() if predicate(key))

    def at_least(self, outcome: Any) -> float:
        return self.chance(lambda key: key >= outcome)

    def at_most(self, outcome: Any) -> float:
        return self.chance(lambda key: key <= outcome)

    def mean(self) -> float:
        """The expected outcome (numeric outcomes)."""
        return float(sum(key * value for key, value in self._p.items()))  # type: ignore[operator, misc]

    def total(self) -> float:
        return sum(self._p.values())

    def as_float(self) -> dict[K, float]:
        return dict(self._p)


def _zero() -> FloatDist[Any]:
    return FloatDist({0: 1.0})


@dataclass(frozen=True, repr=False, eq=False)
class FastOdds:
    """The odds of one attack as floats (see the module docstring); :meth:`exact` gives the
    exact :class:`~gmkit.odds._core.Odds`, computed once on demand."""

    game: str
    hits: FloatDist[int]
    per_hit: FloatDist[int]
    wounds: FloatDist[int]
    damage: FloatDist[int]
    states: FloatDist[str]
    events: Mapping[str, float] = field(default_factory=dict)
    members: tuple[MemberOdds, ...] = ()  # exact (no float engine gives members yet)
    details: Mapping[str, FloatDist[Any]] = field(default_factory=dict)
    notes: tuple[Text, ...] = ()
    magnitude_lost: FloatDist[int] | None = None  # a horde target (40k): what it loses
    make_exact: Callable[[], Odds] | None = None
    _kept: list[Odds] = field(default_factory=list)

    @classmethod
    def of_exact(cls, found: Odds) -> FastOdds:
        """The exact ``found`` as floats (its :meth:`exact` is ``found`` itself)."""
        lost = getattr(found, "magnitude_lost", None)
        return cls(
            game=found.game,
            hits=FloatDist.of(found.hits),
            per_hit=FloatDist.of(found.per_hit),
            wounds=FloatDist.of(found.wounds),
            damage=FloatDist.of(found.damage),
            states=FloatDist.of(found.states),
            events={name: float(value) for name, value in found.events.items()},
            members=found.members,
            details={name: FloatDist.of(dist) for name, dist in found.details.items()},
            notes=found.notes,
            magnitude_lost=FloatDist.of(lost) if lost is not None else None,
            _kept=[found],
        )

    def exact(self) -> Odds:
        """The exact odds of the same attack (computed on the first call, then kept)."""
        if not self._kept:
            if self.make_exact is None:
                raise ValueError("exact: these float odds know no exact engine")
            self._kept.append(self.make_exact())
        return self._kept[0]

    @property
    def hit(self) -> float:
        """The chance of at least one hit."""
        return self.events.get("hit", 1.0 - self.hits.p(0))

    @property
    def expected_hits(self) -> float:
        return self.hits.mean()

    @property
    def expected_wounds(self) -> float:
        return self.wounds.mean()

    @property
    def expected_damage(self) -> float:
        return self.damage.mean()

    @property
    def expected_magnitude_lost(self) -> float:
        return self.magnitude_lost.mean() if self.magnitude_lost is not None else 0.0

    def p(self, name: str) -> float:
        """The chance of a named event or state (0 when the odds do not know the name)."""
        if name in self.events:
            return self.events[name]
        return self.states.p(name)

    def distributions(self) -> Iterator[tuple[str, FloatDist[Any]]]:
        """Every distribution held, by the exact odds' names and in their order."""
        for name in ("hits", "per_hit", "wounds", "damage", "states"):
            yield name, getattr(self, name)
        for member in self.members:
            for name, dist in member.distributions():
                yield name, FloatDist.of(dist)
        yield from self.details.items()

    def as_float(self) -> dict[str, Any]:
        """The same plain dicts as :meth:`Odds.as_float <gmkit.odds._core.Odds.as_float>`."""
        found: dict[str, Any] = {
            "game": self.game,
            "hit": self.hit,
            "expected_hits": self.expected_hits,
            "expected_wounds": self.expected_wounds,
            "expected_damage": self.expected_damage,
            "hits": self.hits.as_float(),
            "per_hit": self.per_hit.as_float(),
            "wounds": self.wounds.as_float(),
            "damage": self.damage.as_float(),
            "states": self.states.as_float(),
            "events": dict(self.events),
            "members": {member.name: member.as_float() for member in self.members},
            "details": {name: dist.as_float() for name, dist in self.details.items()},
            "notes": [render(note) for note in self.notes],
        }
        if self.magnitude_lost is not None:
            found["magnitude_lost"] = self.magnitude_lost.as_float()
            found["expected_magnitude_lost"] = self.expected_magnitude_lost
        return found

    def __repr__(self) -> str:
        states = ", ".join(f"{state} {self.states.p(state):.1%}" for state in self.states)
        return (
            f"FastOdds({self.game}: hit {self.hit:.1%}, expected damage "
            f"{self.expected_damage:.2f}; {states})"
        )


@dataclass(frozen=True, eq=False)
class FastCurve:
    """:class:`~gmkit.odds._core.Curve` as floats: ``curve[m]`` is the :class:`FastOdds` at
    total modifier ``m``; :meth:`exact` the exact curve (computed on demand)."""

    modifiers: tuple[int, ...]
    points: tuple[FastOdds, ...]
    current: int | None = None
    make_exact: Callable[[], Curve] | None = None

    def __getitem__(self, modifier: int) -> FastOdds:
        try:
            return self.points[self.modifiers.index(modifier)]
        except ValueError:
            raise KeyError(f"no point at modifier {modifier}; have {self.modifiers}") from None

    def __iter__(self) -> Iterator[tuple[int, FastOdds]]:
        return iter(zip(self.modifiers, self.points, strict=True))

    def of(self, pick: Callable[[FastOdds], float]) -> dict[int, float]:
        return {modifier: pick(point) for modifier, point in self}

    def as_float(self, pick: Callable[[FastOdds], float]) -> dict[int, float]:
        return {modifier: float(value) for modifier, value in self.of(pick).items()}

    def exact(self) -> Curve:
        if self.make_exact is None:
            raise ValueError("exact: this float curve knows no exact engine")
        return self.make_exact()


FastOddsFunction = Callable[[AttackRequest], FastOdds]
FastCurveFunction = Callable[[AttackRequest, "Sequence[int] | None"], FastCurve]


def _engine(request: AttackRequest) -> FastEngine | None:
    """The float engine of the request's game (its registry entry's ``fast``), or None."""
    return entry(game_of(request)).fast


def fast_odds(request: AttackRequest) -> FastOdds:
    """The odds of ``request`` as floats (its game's float engine, else its exact odds)."""
    engine = _engine(request)
    if engine is None:
        return FastOdds.of_exact(odds(request))
    found: FastOdds = engine.odds(request)
    return found


def fast_curve(request: AttackRequest, modifiers: Sequence[int] | None = None) -> FastCurve:
    """:func:`gmkit.odds.curve` as floats (its game's float engine, else the exact curve's)."""
    engine = _engine(request)
    if engine is None:
        line = curve(request, modifiers)
        points = tuple(FastOdds.of_exact(point) for point in line.points)
        return FastCurve(line.modifiers, points, line.current, lambda: line)
    found: FastCurve = engine.curve(request, modifiers)
    return found


def panel_curve(
    request: AttackRequest, modifiers: Sequence[int] | None = None
) -> Curve | FastCurve:
    """The curve a view draws: the float curve where the game has a float engine, else the
    exact :class:`~gmkit.odds._core.Curve` (nothing to gain by converting it)."""
    engine = _engine(request)
    if engine is None:
        return curve(request, modifiers)
    found: FastCurve = engine.curve(request, modifiers)
    return found


def largest_error(fast: FastOdds, exact: Odds) -> float:
    """The largest difference between ``fast`` and ``exact``: every probability of every
    distribution (an outcome missing on one side counting 0), every event, the expectations.
    Distributions or events named on one side only are an infinite error."""
    worst = 0.0
    theirs = dict(exact.distributions())
    mine = dict(fast.distributions())
    if set(theirs) != set(mine) or set(fast.events) != set(exact.events):
        return float("inf")
    for name, dist in theirs.items():
        other = mine[name]
        for key in set(dist) | set(other):
            worst = max(worst, abs(other.p(key) - float(dist.p(key))))
    for name, value in exact.events.items():
        worst = max(worst, abs(fast.events[name] - float(value)))
    for name in ("hit", "expected_hits", "expected_wounds", "expected_damage"):
        worst = max(worst, abs(getattr(fast, name) - float(getattr(exact, name))))
    lost = getattr(exact, "magnitude_lost", None)
    if (lost is None) != (fast.magnitude_lost is None):
        return float("inf")
    if lost is not None and fast.magnitude_lost is not None:
        for key in set(lost) | set(fast.magnitude_lost):
            worst = max(worst, abs(fast.magnitude_lost.p(key) - float(lost.p(key))))
    return worst


__all__ = [
    "FastCurve",
    "FastOdds",
    "FloatDist",
    "fast_curve",
    "fast_odds",
    "largest_error",
    "panel_curve",
]
