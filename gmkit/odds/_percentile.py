"""Exact odds for the d100 games: the machinery Dark Heresy, Deathwatch and WFRP 2e share.

- :class:`Weights`: exact weights over consecutive integers, ``counts[i] / den`` at
  ``lo + i``: integer counts over one common denominator (numpy ``int64`` while the
  denominator allows, Python integers beyond), so convolutions and mixtures run in numpy and
  stay exact; :func:`to_dist` makes the common :class:`gmkit.odds._core.Dist` of them.
- :func:`outcomes`: every outcome of a rule function that draws dice from a source, each with
  its exact weight, by running the rule itself on scripted dice (:class:`ScriptedDice`): the
  odds read the rules' own functions instead of copying their numbers.
- :func:`roll_table`, :func:`location_table`: a d100 test (``percentile.degrees``) and the hit
  location of each roll (``percentile.hit_location`` and the game's table), per roll.
- :func:`stack`, :func:`mix`: many weights on one grid (a 2-D integer array), so a mixture of
  many distributions is one matrix product.

Fury chains (Righteous Fury, Ulric's Fury) can go on without end in the books and up to the
resolvers' guard (20 extra rolls); the odds follow them to ``fury_depth`` extra rolls and put
the mass of the longer chains at the damage already rolled (a lower bound), reported as the
event ``"fury beyond depth"``. With ``fury_depth`` at the resolver's guard the odds are exact.

Why :class:`Weights` (and its stack :class:`Grid`, and :class:`Residues` for the counts that
outgrow int64) is not a second distribution type: it is this engine's working form, integer
arrays laid on a grid of consecutive outcomes so that sums and mixtures are numpy operations;
nothing outside the engine sees it: the odds leave as :class:`~gmkit.dice._dist.Dist`.

Why over 400 lines: the arrays and the operations on them are one piece (each operation knows
the layout of the others); the per-game engines (``imperial``, ``wfrp2``) use them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import gcd, prod
from typing import Any, TypeVar

import numpy as np

from gmkit.dice import ScriptedDice
from gmkit.errors import GmkitError
from gmkit.odds._core import Dist
from gmkit.systems._percentile import degrees, hit_location
from gmkit.systems._tables import table

FURY_DEPTH = 3
"""Extra Fury rolls followed by default; the longer chains are reported, not followed."""

MODIFIERS = range(-60, 61)
"""The total modifiers a curve runs over (the 40k cap; WFRP 2e has none, the range is the same)."""

LIMIT = 1 << 61  # counts stay int64 while their denominator is below this (sums of two fit)
ONE = Fraction(1)
ZERO = Fraction(0)


class OddsError(GmkitError):
    """An attack whose odds cannot be computed here (a special attack, too many dice)."""


# --- exact weights ---------------------------------------------------------------------------


def _as(counts: np.ndarray, den: int) -> np.ndarray:
    """``counts`` as int64 when ``den`` bounds them safely, else as Python integers."""
    wanted = np.dtype(np.int64) if den < LIMIT else np.dtype(object)
    return counts if counts.dtype == wanted else counts.astype(wanted)


class Weights:
    """Exact weights over consecutive integers: ``counts[i] / den`` is the weight of ``lo + i``.

    A sub-distribution when its mass is below 1 (the part of the outcomes where something
    happened). Values are whole numbers; a joint of two numbers is encoded by the caller.
    """

    __slots__ = ("counts", "den", "lo")

    def __init__(self, lo: int, counts: np.ndarray, den: int) -> None:
        self.lo = lo
        self.counts = counts
        self.den = den

    # construction
    @classmethod
    def point(cls, value: int = 0, weight: Fraction = ONE) -> Weights:
        counts = np.array([weight.numerator], dtype=np.int64)
        return cls(value, _as(counts, weight.denominator), weight.denominator)

    @classmethod
    def empty(cls) -> Weights:
        return cls(0, np.zeros(0, dtype=np.int64), 1)

    @classmethod
    def from_counts(cls, counts: Mapping[int, int], den: int) -> Weights:
        """Integer ``counts`` by value, over ``den``."""
        present = {value: count for value, count in counts.items() if count}
        if not present:
            return cls.empty()
        lo, hi = min(present), max(present)
        dtype = np.int64 if den < LIMIT else object
        array = np.zeros(hi - lo + 1, dtype=dtype)
        for value, count in present.items():
            array[value - lo] = count
        return cls(lo, array, den)._reduced()

    # reading
    @property
    def hi(self) -> int:
        return self.lo + len(self.counts) - 1

    @property
    def is_empty(self) -> bool:
        return len(self.counts) == 0

    @property
    def mass(self) -> Fraction:
        return Fraction(int(self.counts.sum()), self.den) if len(self.counts) else ZERO

    def items(self) -> Iterator[tuple[int, int]]:
        """(value, count) for every value with weight (counts over ``den``)."""
        present = np.flatnonzero(self.counts)
        values = (present + self.lo).tolist()
        return zip(values, [int(c) for c in self.counts[present].tolist()], strict=True)

    def probabilities(self) -> dict[int, Fraction]:
        return {value: Fraction(count, self.den) for value, count in self.items()}

    def probability(self, value: int) -> Fraction:
        index = value - self.lo
        if not 0 <= index < len(self.counts):
            return ZERO
        return Fraction(int(self.counts[index]), self.den)

    def at_least(self, value: int) -> Fraction:
        start = max(0, value - self.lo)
        return Fraction(int(self.counts[start:].sum()), self.den) if len(self.counts) else ZERO

    def at_most(self, value: int) -> Fraction:
        stop = max(0, value - self.lo + 1)
        return Fraction(int(self.counts[:stop].sum()), self.den) if len(self.counts) else ZERO

    def mean(self) -> Fraction:
        """The mean of the values, weighted (not divided by the mass)."""
        if not len(self.counts):
            return ZERO
        values = np.arange(self.lo, self.hi + 1, dtype=np.int64).astype(self.counts.dtype)
        return Fraction(int((values * self.counts).sum()), self.den)

    def conditional(self) -> Weights:
        """The distribution given that one of its outcomes happened (mass 1)."""
        total = int(self.counts.sum()) if len(self.counts) else 0
        if not total:
            return self
        return Weights(self.lo, _as(self.counts, total), total)._reduced()

    def __iter__(self) -> Iterator[tuple[int, Fraction]]:
        return iter(self.probabilities().items())

    def __repr__(self) -> str:
        shown = ", ".join(f"{v}: {p}" for v, p in list(self.probabilities().items())[:8])
        more = ", ..." if len(np.flatnonzero(self.counts)) > 8 else ""
        return f"Weights({{{shown}{more}}})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Weights):
            return NotImplemented
        return self.probabilities() == other.probabilities()

    __hash__ = None  # type: ignore[assignment]

    # arithmetic
    def _reduced(self) -> Weights:
        """Trim zero ends; divide counts and denominator by their common factor (int64)."""
        counts = self.counts
        nonzero = np.flatnonzero(counts)
        if not len(nonzero):
            return Weights.empty()
        first, last = int(nonzero[0]), int(nonzero[-1])
        lo = self.lo
        if first or last < len(counts) - 1:
            counts, lo = counts[first : last + 1], lo + first
        den = self.den
        if counts.dtype != object and den > 1:
            common = gcd(int(np.gcd.reduce(counts)), den)
            if common > 1:
                counts, den = counts // common, den // common
        elif counts.dtype == object and den >= LIMIT:
            common = gcd(int(np.gcd.reduce(counts)), den)
            if common > 1:
                den //= common
                counts = _as(counts // common, den)
            else:
                counts = _as(counts, den)
        return Weights(lo, counts, den)

    def scaled(self, weight: Fraction | int) -> Weights:
        """Every weight times ``weight`` (at most 1)."""
        weight = Fraction(weight)
        if not weight or self.is_empty:
            return Weights.empty()
        if weight == 1:
            return self
        den = self.den * weight.denominator
        counts = _as(self.counts, den) * weight.numerator
        return Weights(self.lo, counts, den)._reduced()

    def __add__(self, other: Weights) -> Weights:
        """The weights of two disjoint parts of the outcomes, together."""
        if other.is_empty:
            return self
        if self.is_empty:
            return other
        den = self.den * other.den // gcd(self.den, other.den)
        lo, hi = min(self.lo, other.lo), max(self.hi, other.hi)
        dtype = np.int64 if den < LIMIT else object
        total = np.zeros(hi - lo + 1, dtype=dtype)
        for part in (self, other):
            factor = den // part.den
            start = part.lo - lo
            total[start : start + len(part.counts)] += _as(part.counts, den) * factor
        return Weights(lo, total, den)._reduced()

    def shifted(self, by: int) -> Weights:
        return Weights(self.lo + by, self.counts, self.den)

    def conv(self, other: Weights) -> Weights:
        """The weights of the sum of two independent values."""
        if self.is_empty or other.is_empty:
            return Weights.empty()
        den = self.den * other.den
        counts = np.convolve(_as(self.counts, den), _as(other.counts, den))
        return Weights(self.lo + other.lo, counts, den)._reduced()

    def remap(self, mapping: Callable[[int], int]) -> Weights:
        """The weights of ``mapping(value)`` (many values may meet at one)."""
        if self.is_empty:
            return self
        targets = [mapping(value) for value in range(self.lo, self.hi + 1)]
        return self.remap_array(targets)

    def remap_array(self, targets: Sequence[int] | np.ndarray) -> Weights:
        """As :meth:`remap`, with the new value of each index given."""
        if self.is_empty:
            return self
        found = np.asarray(targets, dtype=np.int64)
        lo = int(found.min())
        result = np.zeros(int(found.max()) - lo + 1, dtype=self.counts.dtype)
        np.add.at(result, found - lo, self.counts)
        return Weights(lo, result, self.den)._reduced()

    def floor_shift(self, by: int) -> Weights:
        """The weights of ``max(0, value - by)``."""
        if self.is_empty or self.lo >= by:
            return self.shifted(-by)
        if self.hi <= by:
            return Weights(0, np.array([self.counts.sum()], dtype=self.counts.dtype), self.den)
        cut = by - self.lo  # values lo..by fall to 0
        counts = self.counts[cut:].copy()
        counts[0] += self.counts[:cut].sum()
        return Weights(0, counts, self.den)

    def reflected(self, around: int) -> Weights:
        """The weights of ``around - value``."""
        if self.is_empty:
            return self
        return Weights(around - self.hi, self.counts[::-1].copy(), self.den)

    def split(self, at: int) -> tuple[Weights, Weights]:
        """(the weights of the values up to ``at``, those of the values above it)."""
        if self.is_empty or self.hi <= at:
            return self, Weights.empty()
        if self.lo > at:
            return Weights.empty(), self
        cut = at - self.lo + 1
        low = Weights(self.lo, self.counts[:cut], self.den)._reduced()
        return low, Weights(at + 1, self.counts[cut:], self.den)._reduced()

    def where(self, keep: Callable[[int], bool]) -> Weights:
        """Only the weights of the values ``keep`` accepts."""
        if self.is_empty:
            return self
        mask = np.array([keep(v) for v in range(self.lo, self.hi + 1)], dtype=bool)
        counts = self.counts.copy()
        counts[~mask] = 0
        return Weights(self.lo, counts, self.den)._reduced()


def total(parts: Iterable[Weights]) -> Weights:
    """The sum of disjoint parts."""
    found = Weights.empty()
    for part in parts:
        found = found + part
    return found


# --- rule functions run on scripted dice ------------------------------------------------------


T = TypeVar("T")


def outcomes(
    rule: Callable[[ScriptedDice], T], limit: int = 20_000, dice: ScriptedDice | None = None
) -> list[tuple[int, T]]:
    """Every outcome of ``rule(dice)`` with its weight's denominator: ``[(n, result)]``, each
    result having probability ``1 / n`` (the product of the sides of the dice it rolled).

    The rule runs once per combination of the dice it asks for, in order (a die asked for only
    on some branches is enumerated only there). More than ``limit`` runs raise
    :class:`OddsError`. ``dice``: the scripted source the rule already holds, if any.
    """
    dice = dice or ScriptedDice()
    found: list[tuple[int, T]] = []
    values: list[int] = []
    while True:
        dice.play(values)
        result = rule(dice)
        used = dice.index
        values, sides = dice.values[:used], dice.sides[:used]
        found.append((prod(sides), result))
        if len(found) > limit:
            raise OddsError(f"more than {limit} combinations of dice: too many for exact odds")
        position = used - 1
        while position >= 0 and values[position] >= sides[position]:
            position -= 1
        if position < 0:
            return found
        values = [*values[:position], values[position] + 1]


def weighted(found: Iterable[tuple[int, T]]) -> tuple[dict[T, int], int]:
    """Group :func:`outcomes` by result: integer counts over one common denominator."""
    listed = list(found)
    den = 1
    for size, _ in listed:
        den = den * size // gcd(den, size)
    counts: dict[T, int] = {}
    for size, result in listed:
        counts[result] = counts.get(result, 0) + den // size
    return counts, den


# --- d100 tests and locations ------------------------------------------------------------------

ROLLS = range(1, 101)


@lru_cache(maxsize=1024)
def roll_table(target: int) -> tuple[tuple[bool, int], ...]:
    """(success, degrees) of each d100 roll 1..100 against ``target`` (``percentile.degrees``)."""
    return tuple(degrees(target, roll) for roll in ROLLS)


@lru_cache(maxsize=1024)
def roll_arrays(target: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`roll_table` as arrays: success (bool) and degrees, per roll 1..100."""
    table = roll_table(target)
    return np.array([s for s, _ in table], dtype=bool), np.array([d for _, d in table])


@lru_cache(maxsize=1024)
def success_chance(target: int) -> Fraction:
    """The chance a d100 test against ``target`` succeeds."""
    return Fraction(sum(1 for success, _ in roll_table(target) if success), 100)


_LOCATIONS: dict[tuple[str, int], tuple[str, ...]] = {}


def location_table(game: str) -> tuple[str, ...]:
    """The hit location of each attack roll 1..100 (``percentile.hit_location``), per table."""
    key = (game, id(table(game, "hit_locations")))
    found = _LOCATIONS.get(key)
    if found is None:
        found = tuple(hit_location(roll, game) for roll in ROLLS)
        _LOCATIONS[key] = found
    return found


def location_chances(game: str) -> dict[str, Fraction]:
    """Where a d100 rolled for the purpose lands (``location_table``)."""
    counts: dict[str, int] = {}
    for location in location_table(game):
        counts[location] = counts.get(location, 0) + 1
    return {location: Fraction(count, 100) for location, count in counts.items()}


def power_weight(p: Fraction, a: int, b: int) -> Fraction:
    """p**a * (1 - p)**b: the weight of a Fury path with ``a`` confirmations won, ``b`` lost."""
    return p**a * (1 - p) ** b


# --- many weights on one grid ------------------------------------------------------------------


def dtype_for(den: int) -> Any:
    """int64 while ``den`` bounds the counts safely, else Python integers."""
    return np.int64 if den < LIMIT else object


def lcm_of(values: Iterable[int]) -> int:
    found = 1
    for value in values:
        found = found * value // gcd(found, value)
    return found


@dataclass(frozen=True)
class Grid:
    """Rows of weights on one grid of values: ``rows[i, j] / den`` at value ``lo + j``."""

    lo: int
    rows: np.ndarray
    den: int

    @property
    def width(self) -> int:
        return int(self.rows.shape[1])

    def row(self, index: int) -> Weights:
        return Weights(self.lo, self.rows[index], self.den)._reduced()


def stack(parts: Sequence[Weights]) -> Grid:
    """``parts`` on one grid of values and one denominator."""
    present = [part for part in parts if not part.is_empty]
    if not present:
        return Grid(0, np.zeros((len(parts), 1), dtype=np.int64), 1)
    lo = min(part.lo for part in present)
    hi = max(part.hi for part in present)
    den = lcm_of(part.den for part in present)
    rows = np.zeros((len(parts), hi - lo + 1), dtype=dtype_for(den))
    for index, part in enumerate(parts):
        if part.is_empty:
            continue
        start = part.lo - lo
        rows[index, start : start + len(part.counts)] = _as(part.counts, den) * (den // part.den)
    return Grid(lo, rows, den)


def mix(weights: Sequence[Fraction], grid: Grid) -> Weights:
    """The mixture ``sum(weights[i] * row i)`` (the weights of disjoint parts)."""
    den_w = lcm_of(w.denominator for w in weights if w) if any(weights) else 1
    den = den_w * grid.den
    vector = np.array(
        [w.numerator * (den_w // w.denominator) for w in weights], dtype=dtype_for(den)
    )
    return Weights(grid.lo, vector @ _as(grid.rows, den), den)._reduced()


def mix_rows(matrix: Sequence[Sequence[Fraction]], grid: Grid) -> Grid:
    """Several mixtures of ``grid``'s rows at once: ``matrix[k][i]`` weighs row ``i`` in row
    ``k`` of the result."""
    flat = [w for row in matrix for w in row if w]
    den_w = lcm_of(w.denominator for w in flat) if flat else 1
    den = den_w * grid.den
    weights = np.array(
        [[w.numerator * (den_w // w.denominator) for w in row] for row in matrix],
        dtype=dtype_for(den),
    )
    return Grid(grid.lo, weights @ _as(grid.rows, den), den)


def remap_rows(grid: Grid, targets: np.ndarray) -> Grid:
    """Each row's weights moved to ``targets[j]`` (the new value of grid value ``lo + j``), or
    to ``targets[i, j]`` for row ``i`` when ``targets`` has a row per row."""
    lo = int(targets.min())
    rows = np.zeros((grid.rows.shape[0], int(targets.max()) - lo + 1), dtype=grid.rows.dtype)
    if targets.ndim == 1:
        np.add.at(rows, (slice(None), targets - lo), grid.rows)  # type: ignore[arg-type]
    else:
        which = np.broadcast_to(np.arange(grid.rows.shape[0])[:, None], targets.shape)
        np.add.at(rows, (which, targets - lo), grid.rows)
    return Grid(lo, rows, grid.den)


def row_sum(grid: Grid, rows: Sequence[int] | None = None) -> Weights:
    """The weights of several rows together (all by default)."""
    chosen = grid.rows if rows is None else grid.rows[list(rows)]
    return Weights(grid.lo, chosen.sum(axis=0), grid.den)._reduced()


# --- the common value ----------------------------------------------------------------------------


def to_dist(weights: Weights) -> Dist[int]:
    """The common :class:`~gmkit.odds._core.Dist` of ``weights`` (a distribution: mass 1)."""
    if weights.is_empty:
        return Dist.certain(0)
    present = np.flatnonzero(weights.counts)
    values = (present + weights.lo).tolist()
    return Dist(dict(zip(values, weights.counts[present].tolist(), strict=True)), weights.den)


def chances(found: Mapping[Any, Fraction]) -> Dist[Any]:
    """A :class:`~gmkit.odds._core.Dist` of named chances that sum to 1."""
    den = lcm_of(value.denominator for value in found.values() if value) if found else 1
    return Dist({key: int(value * den) for key, value in found.items()}, den)


# --- exact big convolutions in int64: residues modulo primes, rebuilt by the CRT ---------------


def _primes(count: int, below: int = 1 << 21) -> tuple[int, ...]:
    found: list[int] = []
    candidate = below - 1
    while len(found) < count:
        if all(candidate % d for d in range(3, int(candidate**0.5) + 1, 2)) and candidate % 2:
            found.append(candidate)
        candidate -= 2
    return tuple(found)


PRIMES = _primes(96)
"""Primes below 2**21: a product of two fits in int64 with room for 2**21 of them summed."""


def residues(counts: np.ndarray, primes: np.ndarray) -> np.ndarray:
    """``counts`` (any shape, int64 or Python integers) modulo each prime: one more leading
    axis, one entry per prime."""
    if counts.dtype != object:
        reduced: np.ndarray = counts[None, ...] % primes.reshape((-1,) + (1,) * counts.ndim)
        return reduced
    # Python integers: split into 60-bit limbs once, then reduce the limbs in int64
    flat = counts.ravel()
    limbs = []
    rest = flat
    while True:
        limbs.append((rest & ((1 << 30) - 1)).astype(np.int64))
        rest = rest >> 30
        if not rest.any():
            break
    shape = (len(primes), *counts.shape)
    found = np.zeros((len(primes), flat.shape[0]), dtype=np.int64)
    column = primes[:, None]
    power = np.ones_like(column)  # 2**(30 i) modulo each prime
    step = (1 << 30) % column
    for limb in limbs:
        found = (found + (limb[None, :] % column) * power) % column
        power = power * step % column
    return found.reshape(shape)


class Residues:
    """Exact weights kept modulo several primes (``res[i]`` modulo ``PRIMES[i]``), for
    convolutions whose counts outgrow int64: each prime's convolution runs in int64, and
    :meth:`exact` rebuilds the integers (Chinese remainders) once at the end. The counts must
    stay below the product of the primes (``primes_for``)."""

    __slots__ = ("lo", "res")

    def __init__(self, lo: int, res: np.ndarray) -> None:
        self.lo = lo
        self.res = res

    @staticmethod
    def primes_for(bound: int) -> np.ndarray:
        count = bound.bit_length() // 20 + 2
        if count > len(PRIMES):
            raise OddsError("counts too large for the residue engine")
        return np.array(PRIMES[:count], dtype=np.int64)

    @classmethod
    def of(cls, weights: Weights, scale: int, primes: np.ndarray) -> Residues:
        """``weights``' counts times ``scale``, modulo each prime."""
        found = cls(weights.lo, residues(weights.counts, primes))
        return found if scale == 1 else found.scaled(scale, primes)

    def conv(self, other: Residues, primes: np.ndarray) -> Residues:
        rows = [
            np.convolve(a, b) % p
            for a, b, p in zip(self.res, other.res, primes.tolist(), strict=True)
        ]
        return Residues(self.lo + other.lo, np.array(rows, dtype=np.int64))

    def scaled(self, factor: int, primes: np.ndarray) -> Residues:
        factors = np.array([factor % p for p in primes.tolist()], dtype=np.int64)[:, None]
        return Residues(self.lo, self.res * factors % primes[:, None])

    def plus(self, other: Residues, primes: np.ndarray) -> Residues:
        if other.res.shape[1] == 0:
            return self
        if self.res.shape[1] == 0:
            return other
        lo = min(self.lo, other.lo)
        hi = max(self.lo + self.res.shape[1], other.lo + other.res.shape[1])
        found = np.zeros((len(primes), hi - lo), dtype=np.int64)
        for part in (self, other):
            start = part.lo - lo
            found[:, start : start + part.res.shape[1]] += part.res
        return Residues(lo, found % primes[:, None])

    @classmethod
    def empty(cls, primes: np.ndarray) -> Residues:
        return cls(0, np.zeros((len(primes), 0), dtype=np.int64))

    def exact(self, den: int, primes: np.ndarray) -> Weights:
        """The integers back (each below the primes' product), over ``den``."""
        if self.res.shape[1] == 0:
            return Weights.empty()
        modulus = 1
        for prime in primes.tolist():
            modulus *= prime
        total = np.zeros(self.res.shape[1], dtype=object)
        for row, prime in zip(self.res, primes.tolist(), strict=True):
            rest = modulus // prime
            total = total + row.astype(object) * (rest * pow(rest, -1, prime))
        return Weights(self.lo, total % modulus, den)._reduced()
