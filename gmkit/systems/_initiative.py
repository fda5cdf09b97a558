"""Who goes first in the games played by initiative: the order of a round and the tie-breaks.

The rule (Dark Heresy 001, Deathwatch 004, WFRP 2e 002 and the seeds' README): the highest
score first; a tie goes to the higher base (the Agility Bonus, Agility), then to a d10
roll-off, higher first, rolled again among those still tied. Two combatants who delayed and
act at once (001): an opposed Agility test, the winner first; a tie or two failures goes to the
higher Agility, then to the one named first.

A game's turn rules (:class:`~gmkit.systems.acting.TurnRules`) answer with these; the
encounter asks them and records what they rolled.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gmkit.dice import DiceSource, DieRoll, check_dice
from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.systems._percentile import Initiative, opposed_winner, roll_test

ROLL_OFFS = 100
"""Roll-offs at most before the tie is called unbreakable (typed dice repeating forever)."""


@dataclass(frozen=True, slots=True)
class Contender:
    """One combatant in the order: its id and name, its score and the base added to its d10."""

    id: str
    name: str
    score: int
    base: int


def initiative_die(name: str) -> Message:
    return Message("percentile.initiative_die", name=name)


def roll_off_die(name: str) -> Message:
    return Message("percentile.roll_off_die", name=name)


def order(
    contenders: Iterable[Contender], source: DiceSource | None
) -> tuple[list[str], list[DieRoll]]:
    """Ids from the highest score (see the module docstring), and the roll-off dice rolled;
    a tie with no ``source`` is refused naming the tied."""
    chosen = list(contenders)
    tied: dict[tuple[int, int], list[Contender]] = {}
    for c in chosen:
        tied.setdefault((c.score, c.base), []).append(c)
    roll_offs: dict[str, tuple[int, ...]] = {c.id: () for c in chosen}
    rolled: list[DieRoll] = []
    pending = [group for group in tied.values() if len(group) > 1]
    if pending and source is None:
        names = tuple(c.name for c in pending[0])
        raise RulesError(Message("turns.tied_needs_dice", names=names))
    for _ in range(ROLL_OFFS):
        if not pending or source is None:
            break
        check_dice(source, [(10, roll_off_die(c.name)) for g in pending for c in g])
        for group in pending:
            for c in group:
                roll = source.roll_die(10, roll_off_die(c.name))
                rolled.append(roll)
                roll_offs[c.id] = (*roll_offs[c.id], roll.value)
        still: list[list[Contender]] = []
        for group in pending:
            by_rolls: dict[tuple[int, ...], list[Contender]] = {}
            for c in group:
                by_rolls.setdefault(roll_offs[c.id], []).append(c)
            still += [g for g in by_rolls.values() if len(g) > 1]
        pending = still
    else:
        raise RulesError(Message("turns.still_tied"))
    ranked = sorted(chosen, key=lambda c: (c.score, c.base, roll_offs[c.id]), reverse=True)
    return [c.id for c in ranked], rolled


def ranked(
    initiatives: list[Initiative], source: DiceSource
) -> tuple[list[Initiative], list[DieRoll]]:
    """:func:`order` for the rolled :class:`~gmkit.systems._percentile.Initiative` entries of
    an explained initiative roll (Dark Heresy's, WFRP's): the entries first first."""
    contenders = [Contender(str(n), e.name, e.score, e.base) for n, e in enumerate(initiatives)]
    ids, rolled = order(contenders, source)
    return [initiatives[int(ident)] for ident in ids], rolled


def delayed_first(
    first: tuple[str, int], second: tuple[str, int], source: DiceSource
) -> tuple[int, list[DieRoll]]:
    """Two delayed actions at once (names and Agility of each): 0 when ``first`` acts first,
    1 when ``second`` does (see the module docstring), and the two d100 rolled."""
    purposes = [Message("turns.delayed_die", name=name) for name, _ in (first, second)]
    check_dice(source, [(100, purpose) for purpose in purposes])
    tests = [
        roll_test("Ag", agility, [], source, Message("turns.delayed_die", name=name), cap=None)
        for name, agility in (first, second)
    ]
    winner = opposed_winner(tests[0], tests[1])
    if winner is None:
        winner = 0 if tests[0].target >= tests[1].target else 1
    return winner, [test.roll for test in tests]


__all__ = ["Contender", "delayed_first", "initiative_die", "order", "ranked", "roll_off_die"]
