"""The simulation's tables of Necromunda (its simulation hook): fighters with wounds left, flesh
wounds, down and pinned, shooting in turns.

A fighter's state is (wounds left, flesh wounds, down, pinned), or out of action. Its shots
are read from :func:`gmkit.odds._necromunda.prepare`, the exact odds of the shot the resolver
makes, per state bucket: the chance to hit for each of the shooter's flesh wounds (-1 BS each)
and, for each (wounds left, flesh wounds, down) of the target, where a hit leads (the joint
outcome: wounds lost, new flesh wounds, down, out of action, through the injury rolls). Every
hit pins a fighter that is not down.

Turns (``systems.turns``: the sides take turns): in its side's turn each fighter that is not
down or pinned shoots once. At the end of the turn (its recovery phase) the side's pinned
fighters stand up (the published rule without the escape test: a pinned fighter misses its
side's next turn), then each down fighter makes its recovery roll, the rules' own
(:func:`~gmkit.systems.necromunda._injuries.recovery_roll`, run over each face of its die):
still down, out of action, or up with a flesh wound and pinned for a turn.

Left out: close combat (seed 000 has none), moving, hiding, ammo rolls (a failed one does not
stop the weapon), bottle tests.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gmkit.dice import DiceSource
from gmkit.errors import GmkitError
from gmkit.odds._fight_tables import OUT, RowBuilder, Tables
from gmkit.odds._fights import Fight, Fighter, Option
from gmkit.odds._necromunda import Outcome, prepare, prepare_on_hit
from gmkit.odds._sixes import faces
from gmkit.systems.necromunda._injuries import recovery_roll
from gmkit.systems.necromunda._state import FighterState, bled_out, state_from_encounter

State = tuple[int, int, bool, bool]  # wounds left, flesh wounds, down, pinned

_HITS: dict[tuple[Any, ...], float | None] = {}
_ON_HIT: dict[tuple[Any, ...], tuple[tuple[float, Outcome], ...] | None] = {}


class _Fighter:
    """A fighter's states: index 1.. of each (wounds left, flesh wounds, down, pinned)."""

    def __init__(self, fighter: Fighter) -> None:
        sheet = fighter.sheet
        start = state_from_encounter(sheet, fighter.conditions, fighter.counters)  # type: ignore[arg-type]
        self.wounds = start.wounds(sheet)  # type: ignore[arg-type]
        first = start.flesh(sheet)  # type: ignore[arg-type]
        self.flesh: list[int] = []
        while not bled_out(sheet, first + len(self.flesh)) and len(self.flesh) < 20:  # type: ignore[arg-type]
            self.flesh.append(first + len(self.flesh))
        self.out = start.out_of_action or not self.flesh
        if not self.flesh:
            self.flesh = [first]
        self.states: list[State] = [
            (left, flesh, down, pinned)
            for left in range(self.wounds + 1)
            for flesh in self.flesh
            for down in (False, True)
            for pinned in (False, True)
        ]
        self.index = {state: number + 1 for number, state in enumerate(self.states)}
        begin = (self.wounds, first, start.down, start.pinned and not start.down)
        self.start = OUT if self.out else self.index[begin]

    def after(self, state: State, outcome: Outcome) -> int:
        """The state a hit leaves the fighter in."""
        if outcome.out:
            return OUT
        left, flesh, _, _ = state
        down = outcome.state == "down"
        return self.index.get((left - outcome.lost, flesh + outcome.flesh, down, not down), OUT)


def _hit_chance(
    fight: Fight, attacker: Fighter, option: Option, target: Fighter, flesh: int
) -> Any:
    key = (attacker.key, option, target.key, fight.distance, flesh)
    if key not in _HITS:
        state = FighterState(flesh_wounds=flesh)
        try:
            shot = prepare(
                fight.request(
                    attacker, option, target, attacker_state=state, target_state=FighterState()
                )
            )
        except GmkitError:
            _HITS[key] = None
        else:
            _HITS[key] = float(shot.hit_chance())
    return _HITS[key]


def _on_hit(
    fight: Fight, attacker: Fighter, option: Option, target: Fighter, state: Any
) -> tuple[tuple[float, Outcome], ...] | None:
    left, flesh, down = state
    key = (attacker.key, option, target.key, fight.distance, left, flesh, down)
    if key not in _ON_HIT:
        aimed = FighterState(wounds_left=left, flesh_wounds=flesh, down=down)
        try:
            on_hit = prepare_on_hit(
                fight.request(
                    attacker, option, target, attacker_state=FighterState(), target_state=aimed
                )
            )
        except GmkitError:
            _ON_HIT[key] = None
        else:
            den = on_hit.denominator
            _ON_HIT[key] = tuple(
                (count / den, outcome) for outcome, count in on_hit.counts.items() if count
            )
    if len(_ON_HIT) > 100_000:
        _ON_HIT.clear()
        _HITS.clear()
    return _ON_HIT[key]


def necromunda_tables(fight: Fight, progress: Callable[[float], None] | None = None) -> Tables:
    fighters = fight.fighters
    n = len(fighters)
    models = [_Fighter(fighter) for fighter in fighters]
    states = max(len(model.states) for model in models) + 1
    variants = max(len(model.flesh) for model in models)
    left = np.full((n, states), np.inf)
    acts = np.zeros((n, states), dtype=bool)
    variant = np.zeros((n, states), dtype=np.int64)
    for c, model in enumerate(models):
        for state, number in model.index.items():
            wounds, flesh, down, pinned = state
            left[c, number] = wounds
            acts[c, number] = not down and not pinned
            variant[c, number] = model.flesh.index(flesh)
    builder = RowBuilder(n, variants, states, 1)
    tables = Tables(
        game=fight.game,
        ids=tuple(f.id for f in fighters),
        names=tuple(f.name for f in fighters),
        side_names=fight.sides,
        side=np.array([fight.side_index(f) for f in fighters]),
        start=np.array([model.start for model in models]),
        variants=variants,
        states=states,
        masks=1,
        left=left,
        acts=acts,
        variant=variant,
        legal=np.zeros(0, dtype=bool),
        cum=np.zeros((0, 1)),
        nxt=np.zeros((0, 1), dtype=np.int32),
        spent=np.zeros((0, 1), dtype=np.int8),
    )
    pairs = [(a, t) for a in fighters for t in fight.foes(a) if a.options]
    for done, (attacker, target) in enumerate(pairs):
        _pair(
            fight, builder, tables, attacker, models[attacker.index], target, models[target.index]
        )
        if progress is not None:
            progress((done + 1) / len(pairs))
    tables.legal, tables.cum, tables.nxt, tables.spent = builder.build()
    tables.end_cum, tables.end_nxt = _end_of_turn(fighters, models, states)
    return tables


def _pair(
    fight: Fight,
    builder: RowBuilder,
    tables: Tables,
    attacker: Fighter,
    shooter: _Fighter,
    target: Fighter,
    aimed: _Fighter,
) -> None:
    usable: list[tuple[Option, list[float | None]]] = []
    for option in attacker.options:
        hits = [_hit_chance(fight, attacker, option, target, f) for f in shooter.flesh]
        if any(hit is not None for hit in hits):
            usable.append((option, hits))
    if not usable:
        return
    buckets = {(left, flesh, down) for left, flesh, down, _ in aimed.states}
    landing = {
        (index, bucket): _on_hit(fight, attacker, option, target, bucket)
        for index, (option, _) in enumerate(usable)
        for bucket in buckets
    }
    blocks: dict[int, tuple[list[int], list[list[float]], list[list[int]], list[bool]]] = {}
    for v in range(len(shooter.flesh)):
        for state, number in aimed.index.items():
            best: tuple[float, float, int] | None = None
            for index, (_, hits) in enumerate(usable):
                hit, landed = hits[v], landing[(index, state[:3])]
                if hit is None or landed is None:
                    continue
                damage = hit * sum(p * o.lost for p, o in landed)
                out = hit * sum(p for p, o in landed if o.out)
                if best is None or (damage, out) > best[:2]:
                    best = (damage, out, index)
            if best is None:
                continue
            damage, out, index = best
            hit = usable[index][1][v]
            landed = landing[(index, state[:3])]
            assert hit is not None
            assert landed is not None
            probs = [1.0 - hit] + [hit * p for p, _ in landed]
            nxt = [number] + [aimed.after(state, o) for _, o in landed]
            rows, chances, after, legal = blocks.setdefault(len(probs), ([], [], [], []))
            rows.append(builder.row(attacker.index, v, target.index, number, 0))
            chances.append(probs)
            after.append(nxt)
            legal.append(damage > 0 or out > 0)
            if v == 0 and number == aimed.start:
                key = (attacker.index, v, target.index, number, 0)
                tables.choice[key] = usable[index][0].label
    for rows, chances, after, legal in blocks.values():  # a block per number of outcomes
        builder.add(np.array(rows), np.array(chances), np.array(after), None, np.array(legal))


def _recovery(sheet: Any, before: FighterState) -> Callable[[DiceSource], FighterState]:
    """The rules' recovery roll of ``sheet`` in ``before``, for one source of dice."""

    def rolled(probe: DiceSource) -> FighterState:
        return recovery_roll(sheet, before, probe).state

    return rolled


def _end_of_turn(
    fighters: tuple[Fighter, ...], models: list[_Fighter], states: int
) -> tuple[np.ndarray, np.ndarray]:
    """The end of a side's turn for each fighter state: pinned fighters stand up, then down
    fighters roll to recover (the rules' recovery roll over each face of its die)."""
    n = len(models)
    rows: list[list[tuple[float, int]]] = [[(1.0, s % states)] for s in range(n * states)]
    for c, model in enumerate(models):
        sheet = fighters[c].sheet
        for (left, flesh, down, _), number in model.index.items():
            if not down:
                rows[c * states + number] = [(1.0, model.index[(left, flesh, False, False)])]
                continue
            before = FighterState(wounds_left=left, flesh_wounds=flesh, down=True)
            rolled = faces(_recovery(sheet, before))
            found = []
            for after, count in rolled.counts.items():
                chance = count / rolled.denominator
                if after.out_of_action:
                    found.append((chance, OUT))
                    continue
                key = (after.wounds(sheet), after.flesh(sheet), after.down, after.pinned)  # type: ignore[arg-type]
                found.append((chance, model.index.get(key, OUT)))
            rows[c * states + number] = found
    width = max(len(row) for row in rows)
    cum = np.ones((n * states, width))
    nxt = np.zeros((n * states, width), dtype=np.int32)
    for r, row in enumerate(rows):
        running = np.cumsum([p for p, _ in row])
        running /= running[-1]
        running[-1] = 1.0
        cum[r, : len(row)] = running
        nxt[r, : len(row)] = [s for _, s in row]
        nxt[r, len(row) :] = row[-1][1]
    return cum, nxt
