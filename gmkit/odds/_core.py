"""Exact odds of an attack's outcomes: the common value, and one entry point for every game.

:func:`odds` takes the same :class:`~gmkit.systems.base.AttackRequest` the resolver takes and
returns an :class:`Odds`: exact probabilities (``fractions.Fraction``) of the hit, the number
of hits, the wounds a hit causes and the total after saves, the damage the effects report, the
target's state afterwards, named events and, per model that can take hits, its own odds.
:func:`curve` gives the odds of the same attack against the total to-hit (or test) modifier.

Each game's module computes its odds from the rule functions its resolver uses; the game's
registry entry (:class:`~gmkit.games.Game`) names them in its ``odds``
(:class:`~gmkit.games.OddsEngine`: the odds function, and the curve function if it has one),
and :func:`odds` and :func:`curve` dispatch by the request's game (found by id through
:mod:`gmkit.plugins`: the games sit above the odds).

Checking odds against the resolver (for every game's tests): :func:`exhaustive` runs the
resolver over every sequence of dice (the exact distribution of any outcome of the result,
for small attacks); :func:`simulate` counts outcomes over seeded resolutions.

Every distribution here is a :class:`~gmkit.dice._dist.Dist` (integer counts over one
denominator, a ``Fraction`` made only when a probability is read), the dice's type too.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING, Any, TypeVar

from gmkit.dice import ReplayedDice, SeededDice
from gmkit.dice._dist import ONE, ZERO, Dist
from gmkit.errors import GmkitError, NeedDie
from gmkit.messages import Message, Text, render
from gmkit.plugins import entries, entry
from gmkit.systems.base import AttackRequest

if TYPE_CHECKING:
    from gmkit.games._registry import OddsEngine

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class MemberOdds:
    """The odds of one model (or the rank and file of a unit) that can take hits.

    ``name`` is the resolver's label for it (its effects name ``target``, with ``name`` in
    the note when they differ); ``models`` is how many models it stands for (None: not
    known), ``wounds_each`` its profile's W.
    """

    name: str
    target: str
    models: int | None
    wounds_each: int
    hits: Dist[int]
    per_hit: Dist[int]  # wounds one hit on it causes, after saves
    wounds: Dist[int]  # wounds it takes in all, after saves
    slain: Dist[int]  # models of it slain (out of action)

    @property
    def p_slain(self) -> Fraction:
        """The chance that at least one of its models is slain."""
        return ONE - self.slain.p(0)

    def distributions(self) -> Iterator[tuple[str, Dist[Any]]]:
        for name in ("hits", "per_hit", "wounds", "slain"):
            yield f"{self.name}: {name}", getattr(self, name)

    def as_float(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "models": self.models,
            "wounds_each": self.wounds_each,
            "hits": self.hits.as_float(),
            "per_hit": self.per_hit.as_float(),
            "wounds": self.wounds.as_float(),
            "slain": self.slain.as_float(),
            "p_slain": float(self.p_slain),
        }


@dataclass(frozen=True)
class Odds:
    """The exact odds of one attack's outcomes (every value a ``Fraction`` or a :class:`Dist`).

    - ``hits``: the number of hits (``hit`` is the chance of at least one).
    - ``per_hit``: the wounds one hit causes after to-wound and saves (where hits land on
      different models, a hit picked at random among them: weighted by expected hits).
    - ``wounds``: the wounds caused in all, after saves; ``damage``: the wounds lost as the
      resolver's ``damage`` effects report them (Necromunda: never more than were left).
    - ``states``: the target's state afterwards, outcomes that exclude each other (Necromunda:
      standing, pinned, flesh wound, down, out of action; WFB: no hit, no wound, wounded but
      not slain, slain), listed from the least to the most harmful to the target (the panel
      colours them in that order).
    - ``events``: named chances that need not exclude each other ("hit", "wounded", "out of
      action", "ammo roll failed", "look out sir"...); an event never shares a state's name
      unless it is the same chance.
    - ``members``: per model that can take hits (the target; in WFB each model or the rank and
      file of the unit).
    - ``details``: a game's own distributions ("flesh wounds", "models slain", "hit on",
      degrees of success...).
    - ``notes``: why nothing can happen (a refused target) and choices the odds made.
    """

    game: str
    hits: Dist[int]
    per_hit: Dist[int]
    wounds: Dist[int]
    damage: Dist[int]
    states: Dist[str]
    events: Mapping[str, Fraction] = field(default_factory=dict)
    members: tuple[MemberOdds, ...] = ()
    details: Mapping[str, Dist[Any]] = field(default_factory=dict)
    notes: tuple[Text, ...] = ()  # messages (the renderer words them)

    @property
    def hit(self) -> Fraction:
        """The chance of at least one hit."""
        return ONE - self.hits.p(0)

    @property
    def expected_hits(self) -> Fraction:
        return self.hits.mean()

    @property
    def expected_wounds(self) -> Fraction:
        return self.wounds.mean()

    @property
    def expected_damage(self) -> Fraction:
        return self.damage.mean()

    def p(self, name: str) -> Fraction:
        """The chance of a named event or state (0 when the odds do not know the name)."""
        if name in self.events:
            return self.events[name]
        return self.states.p(name)

    def member(self, name: str) -> MemberOdds:
        for member in self.members:
            if name in (member.name, member.target):
                return member
        known = ", ".join(member.name for member in self.members) or "none"
        raise KeyError(f"no member {name!r}; known: {known}")

    def distributions(self) -> Iterator[tuple[str, Dist[Any]]]:
        """Every distribution held (name, Dist): each sums to exactly 1."""
        for name in ("hits", "per_hit", "wounds", "damage", "states"):
            yield name, getattr(self, name)
        for member in self.members:
            yield from member.distributions()
        yield from self.details.items()

    def rows(self, language: str = "en") -> list[dict[str, Any]]:
        """The odds as tidy rows: ``kind`` (hit: the chance of at least one hit, always the
        first row; state; event; expected), ``outcome`` (its key
        as the odds name it), ``label`` (its words in ``language``), ``value`` (a float: a
        chance, or an expected number) and ``exact`` (the Fraction).

        A target that loses magnitude (a horde: ``details["magnitude lost"]``) has for states
        the magnitude it loses ("magnitude -0", "magnitude -1"...: one attack rarely breaks
        it, so its standing alone would read "standing 100%"); its standing beyond "standing"
        (broken, destroyed) are events, and the magnitude it is expected to lose a row."""
        from gmkit.odds._labels import magnitude_key, odds_label  # the words come last

        found: list[tuple[str, str, Fraction]] = [("hit", "hit", self.hit)]
        lost = self.details.get("magnitude lost")
        if lost is None:
            found += [("state", str(state), self.states.p(state)) for state in self.states]
        else:
            found += [("state", magnitude_key(n), lost.p(n)) for n in sorted(lost)]
        found += [("event", name, value) for name, value in self.events.items() if name != "hit"]
        if lost is not None:
            found += [
                ("event", str(state), self.states.p(state))
                for state in self.states
                if state != "standing" and str(state) not in self.events
            ]
        found += [
            ("expected", "hits", self.expected_hits),
            ("expected", "wounds", self.expected_wounds),
            ("expected", "damage", self.expected_damage),
        ]
        if lost is not None:
            found.append(("expected", "magnitude lost", lost.mean()))
        return [
            {
                "kind": kind,
                "outcome": key,
                "label": render(odds_label(key), language),
                "value": float(value),
                "exact": value,
            }
            for kind, key, value in found
        ]

    def frame(self, language: str = "en") -> Any:
        """:meth:`rows` as a pandas DataFrame, one row per outcome."""
        import pandas as pd

        return pd.DataFrame(self.rows(language))

    def __repr__(self) -> str:
        states = ", ".join(f"{state} {float(self.states.p(state)):.1%}" for state in self.states)
        return (
            f"Odds({self.game}: hit {float(self.hit):.1%}, expected damage "
            f"{float(self.expected_damage):.2f}; {states})"
        )

    def as_float(self) -> dict[str, Any]:
        """The same odds as floats, in plain dicts (for a table, a chart or pandas)."""
        return {
            "game": self.game,
            "hit": float(self.hit),
            "expected_hits": float(self.expected_hits),
            "expected_wounds": float(self.expected_wounds),
            "expected_damage": float(self.expected_damage),
            "hits": self.hits.as_float(),
            "per_hit": self.per_hit.as_float(),
            "wounds": self.wounds.as_float(),
            "damage": self.damage.as_float(),
            "states": self.states.as_float(),
            "events": {name: float(value) for name, value in self.events.items()},
            "members": {member.name: member.as_float() for member in self.members},
            "details": {name: dist.as_float() for name, dist in self.details.items()},
            "notes": [render(note) for note in self.notes],
        }


@dataclass(frozen=True)
class Curve:
    """The odds of one attack at each total to-hit (or test) modifier.

    ``current`` is the request's own total modifier (None where modifiers change nothing:
    a template, an automatic hit, a target out of range); ``curve[m]`` is the odds at ``m``.
    """

    modifiers: tuple[int, ...]
    points: tuple[Odds, ...]
    current: int | None = None

    def __getitem__(self, modifier: int) -> Odds:
        try:
            return self.points[self.modifiers.index(modifier)]
        except ValueError:
            raise KeyError(f"no point at modifier {modifier}; have {self.modifiers}") from None

    def __iter__(self) -> Iterator[tuple[int, Odds]]:
        return iter(zip(self.modifiers, self.points, strict=True))

    def of(self, pick: Callable[[Odds], Fraction]) -> dict[int, Fraction]:
        """One number per modifier: ``curve.of(lambda o: o.p("out of action"))``."""
        return {modifier: pick(point) for modifier, point in self}

    def as_float(self, pick: Callable[[Odds], Fraction]) -> dict[int, float]:
        return {modifier: float(value) for modifier, value in self.of(pick).items()}


OddsFunction = Callable[[AttackRequest], Odds]
CurveFunction = Callable[[AttackRequest, "Sequence[int] | None"], Curve]


def _engine(game: str, want_curve: bool = False) -> OddsEngine:
    engine = entry(game).odds
    if engine is None or (want_curve and engine.curve is None):
        with_them = tuple(
            one.id
            for one in entries()
            if one.odds is not None and (not want_curve or one.odds.curve is not None)
        )
        which = "odds.no_curves" if want_curve else "odds.no_odds"
        raise GmkitError(Message(which, game=repr(game), known=with_them))
    return engine


def game_of(request: AttackRequest) -> str:
    """The game of a request: its attacker sheet's ``game``."""
    game = getattr(request.attacker, "game", None)
    if not isinstance(game, str):
        raise GmkitError("odds: the attacker must be a character sheet of a game")
    return game


def odds(request: AttackRequest) -> Odds:
    """The exact odds of ``request``'s outcomes, by its game's registered function."""
    result: Odds = _engine(game_of(request)).odds(request)
    return result


def curve(request: AttackRequest, modifiers: Sequence[int] | None = None) -> Curve:
    """The odds of ``request`` at each total modifier (None: the game's useful range)."""
    engine = _engine(game_of(request), want_curve=True)
    assert engine.curve is not None
    found: Curve = engine.curve(request, modifiers)
    return found


# -- checking odds against the resolver ---------------------------------------------------------


class TooManyPaths(GmkitError):
    """:func:`exhaustive` gave up: the attack has more dice sequences than its limit."""


def _resolver(request: AttackRequest) -> Callable[[AttackRequest, Any], Any]:
    return entry(game_of(request)).rules.resolve_attack


def exhaustive(
    request: AttackRequest,
    outcome: Callable[[Any], K],
    *,
    resolve: Callable[[AttackRequest, Any], Any] | None = None,
    limit: int = 20_000,
) -> Dist[K]:
    """The exact distribution of ``outcome(result)`` by resolving ``request`` with every
    sequence of dice: the resolver itself, run once per node of its tree of dice.

    A reference for tests of the odds of small attacks; raises :class:`TooManyPaths` past
    ``limit`` resolutions. ``resolve`` defaults to the game's ``system(game).resolve_attack``.
    """
    resolve = resolve or _resolver(request)
    found: dict[K, Fraction] = {}
    pending: list[tuple[tuple[int, int], ...]] = [()]
    runs = 0
    while pending:
        prefix = pending.pop()
        runs += 1
        if runs > limit:
            raise TooManyPaths(f"exhaustive: more than {limit} resolutions")
        try:
            result = resolve(request, ReplayedDice(prefix))
        except NeedDie as need:
            pending.extend((*prefix, (need.sides, value)) for value in range(need.sides, 0, -1))
            continue
        weight = Fraction(1)
        for sides, _ in prefix:
            weight /= sides
        key = outcome(result)
        found[key] = found.get(key, ZERO) + weight
    common = lcm(*(value.denominator for value in found.values()))
    return Dist({key: int(value * common) for key, value in found.items()}, common)


def simulate(
    request: AttackRequest,
    outcome: Callable[[Any], K],
    trials: int,
    seed: int | str,
    *,
    resolve: Callable[[AttackRequest, Any], Any] | None = None,
) -> dict[K, int]:
    """How often each ``outcome(result)`` came up in ``trials`` resolutions of ``request``
    through the resolver, with seeded digital dice (the same seed, the same counts)."""
    resolve = resolve or _resolver(request)
    source = SeededDice(seed)
    tally: dict[K, int] = {}
    for _ in range(trials):
        key = outcome(resolve(request, source))
        tally[key] = tally.get(key, 0) + 1
        source.history.clear()
    return tally
