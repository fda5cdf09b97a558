"""Float weights over consecutive integers: the float engines' working form.

``Vec`` is ``(lo, weights)``: ``weights[i]`` is the probability of ``lo + i`` (float64), the
float twin of :class:`~gmkit.odds._percentile.Weights`; the functions are its operations.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from gmkit.odds._fast import FloatDist

Vec = tuple[int, np.ndarray]  # float weights: (lowest value, weights of lo, lo + 1, ...)
EMPTY: Vec = (0, np.zeros(0))


def point(value: int = 0, weight: float = 1.0) -> Vec:
    return value, np.array([weight])


def plus(a: Vec, b: Vec) -> Vec:
    if not len(b[1]):
        return a
    if not len(a[1]):
        return b
    lo = min(a[0], b[0])
    hi = max(a[0] + len(a[1]), b[0] + len(b[1]))
    found = np.zeros(hi - lo)
    found[a[0] - lo : a[0] - lo + len(a[1])] += a[1]
    found[b[0] - lo : b[0] - lo + len(b[1])] += b[1]
    return lo, found


def conv(a: Vec, b: Vec) -> Vec:
    if not len(a[1]) or not len(b[1]):
        return EMPTY
    return a[0] + b[0], np.convolve(a[1], b[1])


def remap(a: Vec, targets: np.ndarray) -> Vec:
    """The weights of ``targets[i]`` (the new value of ``a``'s value ``lo + i``)."""
    if not len(a[1]):
        return a
    lo = int(targets.min())
    return lo, np.bincount(targets - lo, weights=a[1], minlength=int(targets.max()) - lo + 1)


def divided(a: Vec, stride: int) -> Vec:
    """The weights of ``code // stride`` (a code's damage without its critical part)."""
    if stride == 1 or not len(a[1]):
        return a
    return remap(a, np.arange(a[0], a[0] + len(a[1]), dtype=np.int64) // stride)


def remap_by(a: Vec, mapping: Any) -> Vec:
    if not len(a[1]):
        return a
    return remap(a, np.array([mapping(v) for v in range(a[0], a[0] + len(a[1]))], np.int64))


def at_least(a: Vec, value: int) -> float:
    return float(a[1][max(0, value - a[0]) :].sum())


def dist(a: Vec) -> FloatDist[int]:
    """The view's distribution (the values with weight, as ``to_dist`` lists them)."""
    if not len(a[1]):
        return FloatDist({0: 1.0})
    present = np.flatnonzero(a[1])
    return FloatDist(dict(zip((present + a[0]).tolist(), a[1][present].tolist(), strict=True)))


def conditional(a: Vec) -> Vec:
    mass = a[1].sum()
    return (a[0], a[1] / mass) if mass else a


class Codes:
    """Float weights read as the exact ``Weights`` the model's state functions take."""

    den = 1

    def __init__(self, weights: Vec) -> None:
        self.weights = weights

    def items(self) -> Iterator[tuple[int, float]]:
        lo, values = self.weights
        present = np.flatnonzero(values)
        return zip((present + lo).tolist(), values[present].tolist(), strict=True)


def float_dist(found: Any) -> FloatDist[Any]:
    """A ``Dist`` the model built from :class:`Codes` (float counts over 1), as floats."""
    return FloatDist(dict(found.counts))


def scaled(a: Vec, weight: float) -> Vec:
    return a[0], a[1] * weight


def mass(a: Vec) -> float:
    return float(a[1].sum())


def split(a: Vec, at: int) -> tuple[Vec, Vec]:
    """(the weights of the values up to ``at``, those of the values above it)."""
    lo, values = a
    cut = min(max(0, at - lo + 1), len(values))
    return (lo, values[:cut]), (lo + cut, values[cut:])


def at_most(a: Vec, value: int) -> float:
    return float(a[1][: max(0, value - a[0] + 1)].sum())


__all__ = [
    "EMPTY",
    "Codes",
    "Vec",
    "at_least",
    "at_most",
    "conditional",
    "conv",
    "dist",
    "divided",
    "float_dist",
    "mass",
    "plus",
    "point",
    "remap",
    "remap_by",
    "scaled",
    "split",
]
