"""Shared mechanics of the D6 games (Necromunda, Warhammer Fantasy Battle).

- To hit: the score needed is ``7 - BS`` less the modifiers that favour the shooter; never
  better than 2+; a natural 1 always misses. Above 6 the "7+" chart applies: a 6, then a second
  D6 scoring the follow-up (7: 4+, 8: 5+, 9: 6+); 10 or more cannot hit (seed README).
- To wound: the Strength-versus-Toughness chart (seed README): S - T of +2 or more 2+, +1 3+,
  0 4+, -1 5+, -2 and -3 6+, -4 or less no wound possible.

Both charts are data (``SEVEN_PLUS``, ``TO_WOUND``, the defaults) a GM may replace: each
function takes a game's own chart (Necromunda reads its charts from
``systems/data/necromunda/to_wound.yaml`` and ``to_hit_7plus.yaml``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from gmkit.dice import DiceSource, DieRoll
from gmkit.messages import Message, Text
from gmkit.systems.base import Modifier

BEST_TO_HIT = 2
SEVEN_PLUS: dict[int, int] = {7: 4, 8: 5, 9: 6}
"""Needed score above 6 -> what the second D6 must score after a 6."""

TO_WOUND: dict[int, int | None] = {2: 2, 1: 3, 0: 4, -1: 5, -2: 6, -3: 6, -4: None}
"""S - T (clamped to +2..-4) -> D6 score needed to wound (None: cannot wound)."""


def to_hit_needed(skill: int, modifiers: Iterable[Modifier] = ()) -> int:
    """The score needed to hit: ``7 - skill`` less the modifiers, never better than 2+."""
    return max(BEST_TO_HIT, 7 - skill - sum(modifier.value for modifier in modifiers))


def to_wound_needed(
    strength: int, toughness: int, chart: Mapping[int, int | None] | None = None
) -> int | None:
    """The D6 score needed to wound, or None where no wound is possible: ``chart`` (S - T ->
    score, clamped to its lowest and highest differences; :data:`TO_WOUND` by default)."""
    rows = TO_WOUND if chart is None else chart
    difference = max(min(rows), min(max(rows), strength - toughness))
    return rows[difference]


@dataclass(frozen=True, slots=True)
class D6Test:
    """A D6 roll against a needed score, with the 7+ chart: hit or not, and why."""

    needed: int | None
    success: bool
    rolls: tuple[DieRoll, ...]
    explanation: Message


def _possible(needed: int | None, seven_plus: Mapping[int, int]) -> bool:
    return needed is not None and (needed <= 6 or needed in seven_plus)


def roll_needed(
    needed: int | None,
    source: DiceSource,
    purpose: Text,
    seven_plus: Mapping[int, int] | None = None,
) -> D6Test:
    """Roll for a needed score (2..9 by the charts), a natural 1 always failing; above 6 the
    ``seven_plus`` chart (needed -> the second die's score; :data:`SEVEN_PLUS` by default).

    ``needed`` None, or above 6 and not on the chart (10+), cannot succeed and rolls nothing.
    """
    chart = SEVEN_PLUS if seven_plus is None else seven_plus
    if needed is None or not _possible(needed, chart):
        return D6Test(needed, False, (), Message("sixes.impossible"))
    first = source.roll_die(6, purpose)
    if first.value == 1:
        return D6Test(needed, False, (first,), Message("sixes.natural_one"))
    if needed <= 6:
        success = first.value >= needed
        which = "sixes.against_success" if success else "sixes.against_failure"
        return D6Test(needed, success, (first,), Message(which, value=first.value, needed=needed))
    if first.value != 6:
        explained = Message("sixes.needs_six_first", value=first.value, needed=needed)
        return D6Test(needed, False, (first,), explained)
    follow_up = chart[needed]
    second = source.roll_die(6, Message("sixes.after_the_six", purpose=purpose))
    success = second.value >= follow_up
    which = "sixes.seven_plus_success" if success else "sixes.seven_plus_failure"
    explanation = Message(which, value=second.value, follow_up=follow_up, needed=needed)
    return D6Test(needed, success, (first, second), explanation)


def chance(needed: int | None, seven_plus: Mapping[int, int] | None = None) -> Fraction:
    """The exact chance of :func:`roll_needed` succeeding (with the same ``seven_plus``)."""
    chart = SEVEN_PLUS if seven_plus is None else seven_plus
    if needed is None or not _possible(needed, chart):
        return Fraction(0)
    if needed <= 6:
        return Fraction(7 - max(needed, 2), 6)
    return Fraction(1, 6) * Fraction(7 - max(chart[needed], 2), 6)
