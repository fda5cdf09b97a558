"""How the dice plan is found: :func:`plan_dice` runs the pure rules on probe dice (see
:mod:`gmkit.systems._dice_plan` for what the plan says and how it is found)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from gmkit.dice._sources import ScriptedDice
from gmkit.messages import Text
from gmkit.plugins import entry
from gmkit.systems._dice_plan import (
    Condition,
    DicePlan,
    FollowUp,
    PlannedDie,
    kind_of,
    roll_key,
)
from gmkit.systems.base import AttackRequest

# --- the probes -------------------------------------------------------------------------------

_LIMIT = 120  # dice a probe follows before it calls the chain open
_Face = Callable[[int], int]
_FACES: tuple[_Face, ...] = (
    lambda sides: 1,
    lambda sides: (sides + 1) // 2,
    lambda sides: sides // 2 + 1,
    lambda sides: sides,
)
Policy = tuple[tuple[tuple[Hashable, int], ...], int]  # (faces by kind, default face)


class _Endless(Exception):
    """A probe's dice went on past twice the limit."""


class _Found(Exception):
    """The die a probe looked for was asked for."""


class _Probe(ScriptedDice):
    """Dice showing ``forced`` values first, then, for each kind of die, one of ``_FACES``;
    ``wanted``: stop at the first die of that roll asked from the ``after``-th die on."""

    def __init__(
        self,
        forced: Sequence[int],
        faces: dict[Hashable, int],
        default: int,
        wanted: Hashable | None = None,
        after: int = 0,
    ) -> None:
        super().__init__(list(forced), rest=1, limit=_LIMIT)
        self._faces, self._default = faces, default
        self._after, self._wanted = after, wanted

    def roll_die(self, sides: int, purpose: Text) -> Any:
        if self.index >= 2 * _LIMIT:
            raise _Endless
        looking = self._wanted is not None and self.index >= self._after
        if looking and roll_key(PlannedDie(sides, purpose)) == self._wanted:
            raise _Found
        if self.index == len(self.values):
            key = kind_of(PlannedDie(sides, purpose))
            face = _FACES[self._faces.get(key, self._default)]
            self.values.append(face(sides))
        return super().roll_die(sides, purpose)


@dataclass(frozen=True, slots=True)
class _Run:
    dice: tuple[PlannedDie, ...]
    values: tuple[int, ...]
    open: bool
    policy: Policy


class _Prober:
    """Runs of the rules on probe dice, the values ``known`` first."""

    def __init__(self, game: str, request: AttackRequest, known: Sequence[int]) -> None:
        self.rules = entry(game).rules
        self.request = request
        self.known = tuple(known)
        self.runs: list[_Run] = []
        self._asked: dict[tuple[Hashable, tuple[int, ...], int], bool] = {}

    def run(self, policy: Policy, forced: Sequence[int] | None = None, keep: bool = True) -> _Run:
        faces, default = dict(policy[0]), policy[1]
        probe = _Probe(self.known if forced is None else forced, faces, default)
        try:
            self.rules.resolve_attack(self.request, probe)
            endless = False
        except _Endless:
            endless = True
        rolled = probe.history[:_LIMIT]
        dice = tuple(PlannedDie(roll.sides, roll.purpose) for roll in rolled)
        values = tuple(roll.value for roll in rolled)
        found = _Run(dice, values, endless or probe.cut > 0, policy)
        if keep:
            self.runs.append(found)
        return found

    def asks(self, wanted: Hashable, forced: Sequence[int], after: int) -> bool:
        """Whether a die of the roll ``wanted`` (:func:`_variant`) is asked for from the
        ``after``-th die on, the ``forced`` values first (the dice past them on a middle face:
        no chain drawn out)."""
        key = (wanted, tuple(forced), after)
        if key not in self._asked:
            probe = _Probe(forced, {}, 1, wanted, after)
            try:
                self.rules.resolve_attack(self.request, probe)
                found = False
            except _Found:
                found = True
            except _Endless:
                found = False
            self._asked[key] = found
        return self._asked[key]


def _length(run: _Run) -> float:
    return float("inf") if run.open else len(run.dice)


def _longest(prober: _Prober) -> _Run:
    """The longest run, changing the faces of one kind of die at a time to lengthen it."""
    uniform = [prober.run(((), face)) for face in range(len(_FACES))]
    default = max(range(len(_FACES)), key=lambda face: _length(uniform[face]))
    best, faces = uniform[default], dict[Hashable, int]()
    kinds = dict.fromkeys(kind_of(die) for run in prober.runs for die in run.dice)
    for _ in range(3):
        improved = False
        for key in list(kinds):
            for face in range(len(_FACES)):
                if face == faces.get(key, default):
                    continue
                tried = {**faces, key: face}
                found = prober.run((tuple(tried.items()), default))
                kinds.update(dict.fromkeys(kind_of(die) for die in found.dice))
                if _length(found) > _length(best):
                    best, faces, improved = found, tried, True
        if not improved:
            break
    return best


def _ranges(faces: Sequence[int]) -> tuple[tuple[int, int], ...]:
    found: list[tuple[int, int]] = []
    for face in sorted(faces):
        if found and found[-1][1] == face - 1:
            found[-1] = (found[-1][0], face)
        else:
            found.append((face, face))
    return tuple(found)


_STEP = 4  # a d100's faces are tried every 4th, and between two that differ, one by one


def _faces_where(test: Callable[[int], bool], sides: int) -> list[int]:
    """The faces of a die of ``sides`` for which ``test`` holds: every face of a small die; a
    large one's every ``_STEP``-th face, its three lowest and highest (where the specials lie:
    a natural 1, a jam), and between two tried that differ, each face (a bisection)."""
    if sides <= 20:
        return [face for face in range(1, sides + 1) if test(face)]
    tried = sorted({*range(1, sides + 1, _STEP), 1, 2, 3, sides - 2, sides - 1, sides})
    seen = {face: test(face) for face in tried}
    for low, high in itertools.pairwise(tried):
        while high - low > 1 and seen[low] != seen[high]:
            middle = (low + high) // 2
            seen[middle] = test(middle)
            if seen[middle] == seen[low]:
                low = middle
            else:
                high = middle
    found: list[int] = []
    last = False
    for face in range(1, sides + 1):
        last = seen.get(face, last)  # a face not tried reads as the last one tried below it
        if last:
            found.append(face)
    return found


_ROLLS_BACK = 3  # the rolls before a die tried for what brings it (then: it just comes)


def _condition(prober: _Prober, run: _Run, first: int) -> Condition | None:
    """What brings the kind of ``run.dice[first]``: the latest of the ``_ROLLS_BACK`` rolls
    before it whose faces decide whether it is asked (a roll of several dice: its last die,
    tried with the others on their lowest face)."""
    wanted = roll_key(run.dice[first])
    index = first - 1
    for _ in range(_ROLLS_BACK):
        if index < len(prober.known):
            return None
        start, end = index, index + 1
        while start > len(prober.known) and roll_key(run.dice[start - 1]) == roll_key(
            run.dice[index]
        ):
            start -= 1
        base = [*run.values[:start], *([1] * (end - start)), *run.values[end:first]]

        def brings(face: int, index: int = index, base: list[int] = base, end: int = end) -> bool:
            forced = list(base)
            forced[index] = face
            return prober.asks(wanted, forced, end)

        sides = run.dice[index].sides
        bringing = _faces_where(brings, sides)
        if bringing and len(bringing) < sides:
            return Condition(run.dice[index], _ranges(bringing), end - start > 1)
        index = start - 1
    return None


def _tally(dice: Sequence[PlannedDie]) -> dict[Hashable, dict[Hashable, int]]:
    """Per kind of die, how many of each roll of it."""
    counts: dict[Hashable, dict[Hashable, int]] = {}
    for die in dice:
        per_roll = counts.setdefault(kind_of(die), {})
        per_roll[roll_key(die)] = per_roll.get(roll_key(die), 0) + 1
    return counts


def _follow_ups(prober: _Prober, run: _Run, certain: int) -> tuple[FollowUp, ...]:
    firsts: dict[Hashable, int] = {}
    for index in range(certain, len(run.dice)):
        firsts.setdefault(kind_of(run.dice[index]), index)
    counts = _tally(run.dice[certain:])
    closed = [_tally(other.dice[certain:]) for other in prober.runs if not other.open]
    found = []
    for key, first in firsts.items():
        when = _condition(prober, run, first)
        sure = when is None and all(other.get(key) == counts[key] for other in closed)
        rolls = counts[key]
        found.append(FollowUp(run.dice[first], max(rolls.values()), len(rolls), when, sure))
    return tuple(found)


def plan_dice(game: str, request: AttackRequest, known: Sequence[int] = ()) -> DicePlan:
    """The :class:`DicePlan` of ``request`` in ``game``, the values ``known`` rolled first
    (those typed so far: each a value its die shows; see the module docstring)."""
    prober = _Prober(game, request, [int(value) for value in known])
    best = _longest(prober)
    runs = prober.runs
    certain = runs[0].dice
    for found in runs[1:]:
        same = 0
        for mine, theirs in zip(certain, found.dice, strict=False):
            if mine != theirs:
                break
            same += 1
        certain = certain[:same]
    closed = [found for found in runs if not found.open]
    longest = max(closed, key=lambda found: len(found.dice)) if closed else best
    return DicePlan(
        certain,
        longest.dice[len(certain) :],
        any(found.open for found in runs),
        _follow_ups(prober, longest, len(certain)),
        min(len(prober.known), len(certain)),
    )


__all__ = ["plan_dice"]
