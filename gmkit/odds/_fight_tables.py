"""The arrays a simulation runs on: every combatant's states, and where each attack leads.

Each combatant has a small set of states, numbered from 1; state 0 is "taken out" for every
combatant. What a state means is its game model's (:mod:`gmkit.odds.pool_tables`: wounds or
magnitude left; :mod:`gmkit.odds._necromunda_tables`: wounds left, flesh wounds, down, pinned):
each game's simulation hook (``Game.simulation.tables``) builds them, the simulation
(:mod:`gmkit.simulate`) runs them.

An attack's outcome is one row of a table, indexed by

- ``a``: the attacker, ``v``: the attacker's variant (what of its own state changes its odds:
  a Necromunda fighter's flesh wounds; 0 elsewhere),
- ``t``: the target, ``s``: the target's state, ``m``: the target's reaction pools spent this
  round (a bit per pool of ``systems.turns``; 0 in the D6 games),

flattened as ``(((a * V + v) * N + t) * S + s) * M + m``. A row holds the cumulative chances
of its outcomes (``cum``, the last exactly 1), the target's state after each (``nxt``) and the
pools each spends (``spent``). ``legal`` says whether the attacker may and can hurt that target
there (the policy only picks legal targets); ``choice`` keeps the option the policy picked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

OUT = 0
"""The state index of a combatant taken out (every combatant's)."""


@dataclass
class Tables:
    """Everything the engine needs (see the module docstring)."""

    game: str
    ids: tuple[str, ...]
    names: tuple[str, ...]
    side_names: tuple[str, ...]
    side: np.ndarray  # (N,) side index of each combatant
    start: np.ndarray  # (N,) starting state
    variants: int  # V
    states: int  # S
    masks: int  # M
    left: np.ndarray  # (N, S) wounds (or magnitude) left: the policy's key; inf when out
    acts: np.ndarray  # (N, S) may attack in that state
    variant: np.ndarray  # (N, S) the attacker variant of that state
    legal: np.ndarray  # (R,) flat rows
    cum: np.ndarray  # (R, K)
    nxt: np.ndarray  # (R, K)
    spent: np.ndarray  # (R, K)
    end_cum: np.ndarray | None = None  # (N * S, K2): end of the combatant's side's turn
    end_nxt: np.ndarray | None = None
    initiative_base: np.ndarray | None = None  # (N,) initiative games; None: sides take turns
    choice: dict[tuple[int, int, int, int, int], str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.ids)

    def row(self, a: int, v: int, t: int, s: Any, m: Any) -> Any:
        """The flat row index (``s`` and ``m`` may be arrays)."""
        return (((a * self.variants + v) * self.n + t) * self.states + s) * self.masks + m


class RowBuilder:
    """Collects rows in blocks, then makes the dense tables (rows never given: no change)."""

    def __init__(self, n: int, variants: int, states: int, masks: int) -> None:
        self.n, self.variants, self.states, self.masks = n, variants, states, masks
        self.count = n * variants * n * states * masks
        self.legal = np.zeros(self.count, dtype=bool)
        self._blocks: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []

    def row(self, a: int, v: int, t: int, s: Any, m: Any) -> Any:
        return (((a * self.variants + v) * self.n + t) * self.states + s) * self.masks + m

    def add(
        self,
        rows: np.ndarray,
        probs: np.ndarray,
        nxt: np.ndarray,
        spent: np.ndarray | None = None,
        legal: np.ndarray | bool = True,
    ) -> None:
        """Rows ``rows`` (n,), each with the chances ``probs`` (n, k) of the states ``nxt``
        (n, k), spending the pools ``spent`` (n, k)."""
        rows = np.asarray(rows, dtype=np.int64).reshape(-1)
        probs = np.broadcast_to(np.asarray(probs, dtype=float), (rows.size, np.shape(probs)[-1]))
        nxt = np.broadcast_to(np.asarray(nxt, dtype=np.int32), probs.shape)
        if spent is None:
            spent = np.zeros(probs.shape, dtype=np.int8)
        spent = np.broadcast_to(np.asarray(spent, dtype=np.int8), probs.shape)
        self.legal[rows] = legal
        self._blocks.append((rows, probs, nxt, spent))

    def build(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``legal``, ``cum``, ``nxt``, ``spent`` for every row."""
        width = max((block[1].shape[1] for block in self._blocks), default=1)
        cum = np.ones((self.count, width))
        states = (np.arange(self.count) // self.masks) % self.states
        nxt = np.repeat(states.astype(np.int32)[:, None], width, axis=1)
        spent = np.zeros((self.count, width), dtype=np.int8)
        for rows, probs, targets, spends in self._blocks:
            k = probs.shape[1]
            running = np.cumsum(probs, axis=1)
            total = running[:, -1:]
            running = np.divide(running, total, out=np.ones_like(running), where=total > 0)
            running[:, -1] = 1.0
            cum[rows, :k] = running
            cum[rows, k:] = 1.0
            nxt[rows, :k] = targets
            nxt[rows, k:] = targets[:, -1:]
            spent[rows, :k] = spends
            spent[rows, k:] = 0
        return self.legal, cum, nxt, spent
