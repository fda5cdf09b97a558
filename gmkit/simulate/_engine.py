"""Many fights at once: numpy arrays over fights, one attack step for all of them at a time.

Every fight is a row of ``state`` (fights x combatants, each a state index of
:mod:`gmkit.odds._fight_tables`, 0 taken out). A step gathers, for each fight, the acting
combatant's legal targets, picks the one with the fewest wounds left (the first in the
encounter's order among equals: ``argmin``), and draws the attack's outcome by inverse CDF
from the precomputed row with one uniform number from the seeded generator. Fights that are
over (at most one side standing) leave the arrays at the end of their round.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gmkit.odds._fight_tables import OUT, Tables


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
        # a row is ((a * V + v) * N + t) * S * M + s * M + m: the target's part, per column
        self.block = tables.states * tables.masks
        self.offsets = self.columns * self.block
        # the foes of each side, in the encounter's order: the only columns a target is among
        # (an ally's rows are never legal), so the first of the fewest wounds is the same one
        sides = len(tables.side_names)
        self.foes = [np.flatnonzero(tables.side != side) for side in range(sides)]
        self.foe_offsets = [self.offsets[foes] for foes in self.foes]
        # the foes' columns as a slice where they stand together (a copy-free gather)
        self.foe_columns: list[slice | np.ndarray] = [
            slice(int(foes[0]), int(foes[-1]) + 1)
            if foes.size and foes[-1] - foes[0] + 1 == foes.size
            else foes
            for foes in self.foes
        ]
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
        single = isinstance(actor, int | np.integer)
        if single:  # the sides games: one combatant acts in every fight given
            own = self.state[fights, actor]
            able = t.acts[actor, own]
            if not able.all():
                if not able.any():
                    return
                fights, own = fights[able], own[able]
            variant = t.variant[actor, own]
            base = (actor * t.variants + variant) * (t.n * self.block)
        else:
            actor = np.asarray(actor)
            own = self.state[fights, actor]
            able = t.acts[actor, own]
            if not able.all():
                if not able.any():
                    return
                fights, actor, own = fights[able], actor[able], own[able]
            variant = t.variant[actor, own]
            base = (actor * t.variants + variant) * (t.n * self.block)
        if single:
            side = int(t.side[actor])
            row, target, has = self._aim(fights, base, side)
        else:
            sides = t.side[actor]
            row = np.empty(fights.size, dtype=np.int64)
            target = np.empty(fights.size, dtype=np.int64)
            has = np.empty(fights.size, dtype=bool)
            for side in range(len(self.foes)):
                group = np.flatnonzero(sides == side)
                if group.size:
                    row[group], target[group], has[group] = self._aim(
                        fights[group], base[group], side
                    )
        if not has.all():
            fights, row, target = fights[has], row[has], target[has]
        if fights.size == 0:
            return
        draw = self.rng.random(fights.size)
        pick = (t.cum.take(row, axis=0) <= draw[:, None]).sum(axis=1)
        flat = row * t.cum.shape[1] + pick
        self.state[fights, target] = t.nxt.take(flat)
        if self.pools is not None:
            self.pools[fights, target] |= t.spent.take(flat)

    def _aim(
        self, fights: np.ndarray, base: np.ndarray, side: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For attackers of ``side`` (each fight's ``base`` row): the row of the target the
        policy picks, that target, and whether it is a legal one (the foe with the fewest
        wounds left, the first in the encounter's order among equals)."""
        t = self.t
        foes = self.foes[side]
        if foes.size == 0:
            nothing = np.zeros(fights.size, dtype=np.int64)
            return nothing, nothing, np.zeros(fights.size, dtype=bool)
        columns = self.foe_columns[side]
        rows = self.state.take(fights, axis=0)[:, columns].astype(np.int64)
        if t.masks > 1:
            rows *= t.masks
        if self.pools is not None:
            rows += self.pools.take(fights, axis=0)[:, columns]
        rows += self.foe_offsets[side]
        rows += base[:, None]
        key = self.key.take(rows)  # wounds left where the target is legal, else inf
        pick = key.argmin(axis=1)
        places = np.arange(fights.size)
        return rows[places, pick], foes[pick], np.isfinite(key[places, pick])

    def end_of_turn(self, fights: np.ndarray, members: np.ndarray) -> None:
        """The end of the turn of the side of ``members`` (Necromunda: pinning, recovery
        rolls), for all of them at once: each member's draws are the ones it would have
        made on its own, one member after the other."""
        t = self.t
        if t.end_cum is None or t.end_nxt is None or fights.size == 0 or members.size == 0:
            return
        together = members[-1] - members[0] + 1 == members.size
        columns = slice(int(members[0]), int(members[-1]) + 1) if together else members
        row = members[None, :] * t.states + self.state.take(fights, axis=0)[:, columns]
        width = t.end_cum.shape[1]
        where = np.ix_(fights, members)
        if width == 1:
            self.state[where] = t.end_nxt.take(row * width)
            return
        draw = self.rng.random((members.size, fights.size)).T
        pick = (t.end_cum.take(row, axis=0) <= draw[:, :, None]).sum(axis=2)
        self.state[where] = t.end_nxt.take(row * width + pick)


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
                    batch.end_of_turn(fights_now, members[side])
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
