"""The simulation's tables of games where a combatant is a pool of wounds (or magnitude): Dark
Heresy, Deathwatch, WFRP 2e and WFB 6e name :func:`pool_tables` as their simulation hook.

The odds of these games give the wounds an attack costs after soak and saves (``Odds.damage``;
a Deathwatch horde's ``details["magnitude lost"]``) without reading the wounds the target has
already lost, so one :func:`gmkit.odds.odds` per attacker, attack and target (and reaction)
serves every state: a state is the pool left, and an attack takes its loss from it.

What differs by game is the game's to say (its registry entry, ``Game``): how hurt a fighter is
(``health``), the conditions that take it out (``out_of_the_fight``), its pacing and reactions
(``turns``, ``offers``), and its simulation's fields (``Simulation``: ``floor``, ``reactions``,
``alone``). This module names no game.

- Taken out (``Simulation.floor``): the d100 characters when damage goes past their wounds
  (the first critical damage or critical hit: the critical tables are not rolled); a horde at
  magnitude 0 (breaking is not tested); a WFB 6e model when its wounds reach 0.
- Reactions (``Simulation.reactions``: the d100 games): the pools of the game's turn structure
  (001/004: one reaction; 002: a parry and a dodge), refilled each round. Against each attack
  the target uses the reaction that lowers the attack's expected damage most among those its
  unspent pools allow (none when no reaction lowers it), as the odds compute it with
  ``options["reaction"]``; the reaction is spent when the attack's test succeeds (the hit it
  answers), which the odds' ``test`` event gives: every outcome that costs wounds spends it,
  and the test's remaining chance is taken from the outcomes that cost none.
- Where the game says how a fighter stands alone on the table (``Simulation.alone``: WFB 6e,
  each combatant one model standing alone, rank and file and champions as a unit of one model, a
  character who joined a unit as a lone character), the odds see no other model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.odds._core import Dist, odds
from gmkit.odds._fight_tables import OUT, RowBuilder, Tables
from gmkit.odds._fights import Fight, Fighter, Option

if TYPE_CHECKING:
    from gmkit.games._registry import Game, Simulation

_CACHE: dict[tuple[Any, ...], PoolOdds | None] = {}


@dataclass(frozen=True)
class PoolOdds:
    """One attack's loss to the target's pool: values, chances, its mean, and the chance that
    its test succeeded (a reaction answering it is spent)."""

    losses: np.ndarray
    chances: np.ndarray
    mean: float
    test: float


def _arrays(dist: Dist[int]) -> tuple[np.ndarray, np.ndarray]:
    items = sorted((int(value), count) for value, count in dist.counts.items() if count)
    den = dist.denominator
    return (
        np.array([value for value, _ in items], dtype=np.int64),
        np.array([count / den for _, count in items]),
    )


def is_horde(sheet: Any) -> bool:
    return bool(getattr(sheet, "is_horde", False))


def _simulation(fight: Fight) -> Simulation:
    found = fight.entry.simulation
    if found is None:  # the driver refuses a game without one before any table
        raise GmkitError(Message("simulate.not_simulated", game=fight.game))
    return found


def _request(fight: Fight, attacker: Fighter, option: Option, target: Fighter, **extra: Any) -> Any:
    alone = _simulation(fight).alone
    if alone is None:
        return fight.request(attacker, option, target, **extra)
    model, options = alone(target.sheet, fight.distance)
    request = fight.request(attacker, option, target, **options, **extra)
    return replace(request, target=model)


def pool_odds(
    fight: Fight, attacker: Fighter, option: Option, target: Fighter, reaction: str | None
) -> PoolOdds | None:
    """The odds of one attack on ``target``'s pool (None: the rules or the odds refuse it)."""
    key = (fight.game, attacker.key, option, target.key, reaction, fight.distance)
    if key in _CACHE:
        return _CACHE[key]
    extra: dict[str, Any] = {}
    if _simulation(fight).reactions:
        extra = {"reaction": reaction, "target_reactions": {}}
    found: PoolOdds | None
    try:
        computed = odds(_request(fight, attacker, option, target, **extra))
    except GmkitError:
        found = None
    else:
        loss = computed.damage
        if is_horde(target.sheet):
            loss = computed.details.get("magnitude lost", Dist.certain(0))
        losses, chances = _arrays(loss)
        mean = float(np.dot(losses, chances))
        test = float(computed.events.get("test", computed.hit))
        found = PoolOdds(losses, chances, mean, test)
    if len(_CACHE) > 50_000:
        _CACHE.clear()
    _CACHE[key] = found
    return found


@dataclass(frozen=True)
class Pool:
    """A target's pool: ``left`` at the start, taken out below ``floor`` (0: damage past the
    wounds takes it out; 1: reaching 0 does)."""

    left: int
    floor: int
    out: bool


def pool_of(fight: Fight, fighter: Fighter) -> Pool:
    left, _ = fight.entry.health(fighter.sheet, fighter.counters)
    floor = 1 if is_horde(fighter.sheet) else _simulation(fight).floor
    # the conditions that take a combatant out before the first round: the game's declared
    out = bool(fight.entry.out_of_the_fight & set(fighter.conditions)) or left < floor
    return Pool(left, floor, out)


def _reactions(game: Game) -> tuple[tuple[str, int], ...]:
    """Each reaction of the game with the bits of the round pools it spends."""
    structure = game.turns
    pools = list(structure.round_pools)
    found = []
    for choice in game.offers.reactions():
        cost = structure.reaction_costs.get(choice.id, {})
        bits = sum(1 << pools.index(pool) for pool in cost if pool in pools)
        found.append((choice.id, bits))
    return tuple(found)


def _pool_bits(game: Game) -> int:
    return len(game.turns.round_pools) if _reactions(game) else 0


def pool_tables(fight: Fight, progress: Callable[[float], None] | None = None) -> Tables:
    """The tables of a fight of pools (see the module docstring)."""
    game = fight.entry
    fighters = fight.fighters
    n = len(fighters)
    pools = [pool_of(fight, fighter) for fighter in fighters]
    states = max(pool.left for pool in pools) + 2  # 0 out, 1 + wounds left
    masks = 1 << _pool_bits(game)
    reactions = _reactions(game) if masks > 1 else ()
    builder = RowBuilder(n, 1, states, masks)
    left = np.full((n, states), np.inf)
    for index, pool in enumerate(pools):
        left[index, 1 : pool.left + 2] = np.arange(pool.left + 1)
    tables = Tables(
        game=fight.game,
        ids=tuple(f.id for f in fighters),
        names=tuple(f.name for f in fighters),
        side_names=fight.sides,
        side=np.array([fight.side_index(f) for f in fighters]),
        start=np.array([OUT if pool.out else pool.left + 1 for pool in pools]),
        variants=1,
        states=states,
        masks=masks,
        left=left,
        acts=np.isfinite(left),
        variant=np.zeros((n, states), dtype=np.int64),
        legal=np.zeros(0, dtype=bool),
        cum=np.zeros((0, 1)),
        nxt=np.zeros((0, 1), dtype=np.int32),
        spent=np.zeros((0, 1), dtype=np.int8),
    )
    pairs = [(a, t) for a in fighters for t in fight.foes(a) if a.options]
    for done, (attacker, target) in enumerate(pairs):
        _pair(fight, builder, tables, attacker, target, pools[target.index], reactions)
        if progress is not None:
            progress((done + 1) / len(pairs))
    tables.legal, tables.cum, tables.nxt, tables.spent = builder.build()
    structure = game.turns
    if structure.kind == "initiative":
        base = structure.initiative_base or (lambda _sheet: 0)
        tables.initiative_base = np.array([base(f.sheet) for f in fighters])
    return tables


def _pair(
    fight: Fight,
    builder: RowBuilder,
    tables: Tables,
    attacker: Fighter,
    target: Fighter,
    pool: Pool,
    reactions: tuple[tuple[str, int], ...],
) -> None:
    """Rows of every state of ``target`` under ``attacker``'s chosen attack."""
    plain: list[tuple[Option, PoolOdds]] = []
    for option in attacker.options:
        found = pool_odds(fight, attacker, option, target, None)
        if found is not None:
            plain.append((option, found))
    if not plain:
        return
    # the strongest first: a reaction only lowers an attack's expected damage, so an attack
    # whose odds without one fall short of the best answered attack so far is never picked
    ranked = sorted(range(len(plain)), key=lambda i: -plain[i][1].mean)
    usable: dict[int, dict[str, Text]] = {}
    lefts = np.arange(pool.left + 1)  # the states 1 .. left + 1
    for mask in range(builder.masks):
        met: list[tuple[Option, PoolOdds, int]] = []
        best = -np.inf
        for index in ranked:
            option, found = plain[index]
            if found.mean < best:
                break
            answer, bits = found, 0
            for name, cost in reactions:
                if cost & mask:
                    continue
                if index not in usable:
                    request = _request(fight, attacker, option, target, reaction=None)
                    usable[index] = fight.entry.offers.reactions_available(request)
                if usable[index].get(name, "-") != "":
                    continue
                reacted = pool_odds(fight, attacker, option, target, name)
                if reacted is not None and reacted.mean < answer.mean:
                    answer, bits = reacted, cost
            met.append((option, answer, bits))
            best = max(best, answer.mean)
        # the attacker's pick for each state: expected damage, then the chance to take the
        # target out from there, then the order of the sheet
        outs = np.array([_out_chance(found, lefts, pool.floor) for _, found, _ in met])
        means = np.array([found.mean for _, found, _ in met])
        order = np.array([attacker.options.index(option) for option, _, _ in met])
        top = means == means.max()
        key = np.where(top[:, None], outs, -1.0)
        first = key == key.max(axis=0)
        picks = np.where(first, order[:, None], len(attacker.options)).argmin(axis=0)
        for index in np.unique(picks):
            option, chosen, bits = met[index]
            where = picks == index
            probs, nxt, spent = _outcomes(chosen, bits, lefts[where], pool)
            rows = builder.row(attacker.index, 0, target.index, lefts[where] + 1, mask)
            builder.add(rows, probs, nxt, spent, chosen.mean > 0)
        option = met[picks[pool.left]][0]
        tables.choice[(attacker.index, 0, target.index, pool.left + 1, mask)] = option.label


def _out_chance(found: PoolOdds, lefts: np.ndarray, floor: int) -> np.ndarray:
    """The chance the attack takes the target out from each wounds left."""
    after = lefts[:, None] - found.losses[None, :]
    chance: np.ndarray = ((after < floor) * found.chances[None, :]).sum(axis=1)
    return chance


def _outcomes(
    found: PoolOdds, bits: int, lefts: np.ndarray, pool: Pool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Chances, states after and pools spent of the attack, for targets with ``lefts``."""
    losses, chances = found.losses, found.chances
    # losses past every state's wounds all take it out: one outcome
    beyond = pool.left + 1 - pool.floor
    far = losses >= beyond
    if far.sum() > 1:
        losses = np.concatenate([losses[~far], [beyond]])
        chances = np.concatenate([chances[~far], [chances[far].sum()]])
    hurt = losses > 0
    after = lefts[:, None] - losses[None, hurt]
    nxt_hurt = np.where(after < pool.floor, OUT, after + 1)
    spare = float(chances[~hurt].sum())
    stay = (lefts + 1)[:, None]
    if bits:
        spent_zero = min(max(found.test - float(chances[hurt].sum()), 0.0), spare)
        probs = np.concatenate([chances[hurt], [spent_zero, spare - spent_zero]])
        nxt = np.concatenate([nxt_hurt, stay, stay], axis=1)
        spent = np.array([bits] * int(hurt.sum()) + [bits, 0], dtype=np.int8)
    else:
        probs = np.concatenate([chances[hurt], [spare]])
        nxt = np.concatenate([nxt_hurt, stay], axis=1)
        spent = np.zeros(probs.size, dtype=np.int8)
    return probs[None, :], nxt, spent[None, :]


__all__ = [
    "Pool",
    "PoolOdds",
    "is_horde",
    "pool_odds",
    "pool_of",
    "pool_tables",
]
