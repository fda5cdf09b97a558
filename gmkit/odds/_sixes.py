"""What the odds of the D6 games share: reading a rule's numbers, modifiers, faces of a die.

- :class:`Probe`: a dice source showing fixed faces and keeping what was asked of it. A rule
  run with a probe tells the odds the numbers it rolls against (a step's ``target``), how
  many dice it wanted and of what size, without the odds copying the rule's arithmetic.
- :func:`faces`: run a branch that rolls one die over each of the die's faces (the outcome of
  the rule itself for every face), grouping equal outcomes.
- :data:`MODIFIERS`: the to-hit modifiers a curve covers by default (-4..+4: beyond them the
  score needed is 2+ or cannot be rolled for any BS that matters).
- :func:`needed_at`: the score needed at a total modifier, through the rules' own
  :func:`~gmkit.systems._sixes.to_hit_needed`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from gmkit.dice import ScriptedDice
from gmkit.odds._core import Dist
from gmkit.systems._sixes import to_hit_needed
from gmkit.systems.base import Modifier

T = TypeVar("T", bound=Hashable)

MODIFIERS: tuple[int, ...] = tuple(range(-4, 5))
"""The default range of a curve: total to-hit modifiers -4..+4."""


Probe = ScriptedDice
"""A dice source whose dice show given faces in turn (then 1), recording each:
``Probe()`` shows 1 on every die, so any D6 test fails at once and a rule reports what it would
roll against and rolls nothing more than needed."""


def faces(branch: Callable[[Probe], T], sides: int = 6) -> Dist[T]:
    """The outcome of ``branch`` for each face of its one die, as a distribution.

    ``branch`` runs once per face with a probe showing that face; a branch that rolls no die
    runs once and its outcome is certain. A branch that rolls more than one die is refused.
    """
    first = Probe([1])
    outcome = branch(first)
    if not first.history:
        return Dist.certain(outcome)
    if len(first.history) > 1 or first.history[0].sides != sides:
        raise ValueError(f"faces: the branch rolled {first.sides}, not one d{sides}")
    counts: dict[T, int] = {outcome: 1}
    for face in range(2, sides + 1):
        key = branch(Probe([face]))
        counts[key] = counts.get(key, 0) + 1
    return Dist(counts, sides)


def needed_at(skill: int, total: int) -> int:
    """The score needed with ``skill`` at a total to-hit modifier of ``total``."""
    return to_hit_needed(skill, (Modifier("total modifier", total),))


def total_of(modifiers: Sequence[Modifier]) -> int:
    return sum(modifier.value for modifier in modifiers)
