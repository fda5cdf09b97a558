"""Many fights at once: numpy arrays over fights, one attack step for all of them at a time.

Every fight is a row of ``state`` (fights x combatants, each a state index of
:mod:`gmkit.simulate.tables`, 0 taken out). A step gathers, for each fight, the acting
combatant's legal targets, picks the one with the fewest wounds left (the first in the
encounter's order among equals: ``argmin``), and draws the attack's outcome by inverse CDF
from the precomputed row with one uniform number from the seeded generator. Fights that are
over (at most one side standing) leave the arrays at the end of their round.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gmkit.simulate.tables import OUT, Tables


@dataclass(frozen=True)
class Outcome:
    """What a batch of fights came to."""

    winner: np.ndarray  # (F,) side index, -1 for a draw
    rounds: np.ndarray  # (F,) the round each fight ended in (the limit for a draw)
    final: np.ndarray  # (F, N) each combatant's state at the end


def _orders(tables: Tables, fights: int, rng: np.random.Generator, rolled: bool) -> np.ndarray:
    """The acting order of each fight: initiative (1d10 + base, ties to the higher base, then
    at random) or, in the sides games, the first side (drawn at random) as a (F, 1) array."""
    n = tables.n
    if tables.initiative_base is None:
        sides = len(tables.side_names)
        if not rolled:
            return np.zeros((fights, 1), dtype=np.int64)
        return rng.integers(0, sides, size=(fights, 1))
    if not rolled:
        return np.tile(np.arange(n), (fights, 1))
    base = tables.initiative_base.astype(float)
    scores = rng.integers(1, 11, size=(fights, n)) + base
    key = scores * 1024.0 + base + rng.random((fights, n))
    return np.argsort(-key, axis=1, kind="stable")


class _Batch:
    def __init__(self, tables: Tables, fights: int, rng: np.random.Generator) -> None:
        self.t = tables
        self.rng = rng
        n = tables.n
        self.state = np.tile(tables.start.astype(np.int32), (fights, 1))
        self.pools = np.zeros((fights, n), dtype=np.int8) if tables.masks > 1 else None
        self.columns = np.arange(n)
        # the policy's key of each row: the target's wounds left where it is a legal target
        # (rows never filled, allies and the taken out included, are not), else inf
        count = tables.legal.size
        target = (np.arange(count) // (tables.states * tables.masks)) % n
        state = (np.arange(count) // tables.masks) % tables.states
        self.key = np.where(tables.legal, tables.left[target, state], np.inf)

    def attack(self, fights: np.ndarray, actor: np.ndarray | int) -> None:
        """Each fight in ``fights`` has ``actor`` (one per fight, or the same) attack."""
        t = self.t
        if fights.size == 0:
            return
        state = self.state[fights]
        actor = np.broadcast_to(np.asarray(actor), fights.shape)
        places = np.arange(fights.size)
        own = state[places, actor]
        able = t.acts[actor, own]
        if not able.any():
            return
        fights, state, actor, own = fights[able], state[able], actor[able], own[able]
        places = np.arange(fights.size)
        variant = t.variant[actor, own]
        pools = self.pools[fights] if self.pools is not None else 0
        base = (actor * t.variants + variant) * t.n
        rows = ((base[:, None] + self.columns) * t.states + state) * t.masks + pools
        key = self.key[rows]  # wounds left where the target is legal, else inf
        target = key.argmin(axis=1)
        has = np.isfinite(key[places, target])
        if not has.all():
            fights, rows, target = fights[has], rows[has], target[has]
        if fights.size == 0:
            return
        row = rows[np.arange(fights.size), target]
        draw = self.rng.random(fights.size)
        pick = (t.cum[row] <= draw[:, None]).sum(axis=1)
        self.state[fights, target] = t.nxt[row, pick]
        if self.pools is not None:
            self.pools[fights, target] |= t.spent[row, pick]

    def end_of_turn(self, fights: np.ndarray, who: int) -> None:
        """The end of ``who``'s side's turn (Necromunda: pinning, recovery rolls)."""
        t = self.t
        if t.end_cum is None or fights.size == 0:
            return
        state = self.state[fights, who]
        row = who * t.states + state
        width = t.end_cum.shape[1]
        if width == 1:
            self.state[fights, who] = t.end_nxt[row, 0]  # type: ignore[index]
            return
        draw = self.rng.random(fights.size)
        pick = (t.end_cum[row] <= draw[:, None]).sum(axis=1)
        self.state[fights, who] = t.end_nxt[row, pick]  # type: ignore[index]


def run(
    tables: Tables,
    fights: int,
    rng: np.random.Generator,
    *,
    rounds_limit: int,
    rolled: bool = True,
    progress: Callable[[int], None] | None = None,
) -> Outcome:
    """``fights`` fights of ``tables`` to at most ``rounds_limit`` rounds.

    ``rolled``: roll initiative (or draw the first side) for each fight; else keep the
    encounter's order. ``progress(done)`` is called after each round with the number of
    fights over so far.
    """
    n = tables.n
    sides = len(tables.side_names)
    batch = _Batch(tables, fights, rng)
    order = _orders(tables, fights, rng, rolled)
    members = [np.flatnonzero(tables.side == s) for s in range(sides)]
    winner = np.full(fights, -1, dtype=np.int64)
    rounds = np.full(fights, rounds_limit, dtype=np.int64)
    active = np.arange(fights)
    active = _finish(batch, active, members, winner, rounds, 0)
    for round_number in range(1, rounds_limit + 1):
        if active.size == 0:
            break
        if batch.pools is not None:
            batch.pools[active] = 0
        if tables.initiative_base is not None:
            for place in range(n):
                batch.attack(active, order[active, place])
        else:
            first = order[active, 0]
            for step in range(sides):
                acting = (first + step) % sides
                for side in range(sides):
                    fights_now = active[acting == side]
                    for who in members[side]:
                        batch.attack(fights_now, int(who))
                    for who in members[side]:
                        batch.end_of_turn(fights_now, int(who))
        active = _finish(batch, active, members, winner, rounds, round_number)
        if progress is not None:
            progress(fights - active.size)
    return Outcome(winner, rounds, batch.state)


def _finish(
    batch: _Batch,
    active: np.ndarray,
    members: list[np.ndarray],
    winner: np.ndarray,
    rounds: np.ndarray,
    round_number: int,
) -> np.ndarray:
    """Close the fights with at most one side standing; the fights still going."""
    alive = batch.state[active] != OUT
    standing = np.stack([alive[:, side].any(axis=1) for side in members], axis=1)
    count = standing.sum(axis=1)
    over = count <= 1
    if over.any():
        done = active[over]
        rounds[done] = round_number
        winner[done] = np.where(count[over] == 1, standing[over].argmax(axis=1), -1)
    left: np.ndarray = active[~over]
    return left
