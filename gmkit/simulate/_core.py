"""``simulate``: a prepared encounter fought many times under a stated policy (see the package
docstring of :mod:`gmkit.simulate`)."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from gmkit.errors import GmkitError
from gmkit.games import Simulation
from gmkit.games import game as find_game
from gmkit.messages import Message, render
from gmkit.odds._fight_tables import OUT, Tables
from gmkit.simulate._engine import run
from gmkit.simulate._fighters import Fight, prepare_fight
from gmkit.simulate._report import CombatantResult, SimulationReport

ROUNDS_LIMIT = 30
"""Rounds fought before a fight with more than one side standing counts as a draw."""

BATCH = 10_000
"""Fights run together, a chunk at a time: the arrays of one chunk are all the memory the
fights take beyond a few bytes a fight kept for the report (``progress`` hears after each
round of each chunk, ``fights_done`` after each chunk)."""

FightsDone = Callable[[int, int], None]
"""``fights_done(done, total)``: the fights finished so far, and all the fights asked for."""

ODDS_SHARE = 0.4
"""The share of the progress bar the odds tables take; the fights take the rest."""

POLICIES: dict[str, str] = {
    "weakest": (
        "Each round every combatant able to act makes one attack in its turn. Target: among "
        "the foes it may attack and can hurt (the odds give a chance of loss above zero), the "
        "one with the fewest wounds left (a horde: magnitude left); among equals the first in "
        "the encounter's order. Attack: among its weapons in each mode the rules offer (each "
        "with the mode's default action), the one with the highest expected damage from the "
        "exact odds against that target as it stands (wounds lost after soak and saves; a "
        "horde's magnitude), ties to the higher chance to take it out, then to the sheet's "
        "order. The target answers with the reaction that lowers that expected damage most "
        "among those its unspent pools allow this round (d100 games), or none."
    ),
}
"""Policy name -> what it does, in full (``report.policy``)."""

COMMON = (
    "No movement: every foe stands at the same fixed distance; ranged weapons fire at it, "
    "melee weapons strike as if engaged.",
    "One attack per turn with the mode's default action: no aiming, charging, swift or "
    "multiple attacks beyond what that action gives.",
    "No conditions come or go (stunned, on fire, fatigue, surprise, the critical tables' "
    "effects): those the encounter shows now hold for the whole fight, as every attack's "
    "odds read them (Necromunda's pinned and down are played out); ammunition and jams are "
    "not counted.",
    "No reactions beyond those the odds include (d100 games: dodge and parry, the pools "
    "refilled each round, one spent when the attack it answers hits: its test succeeds); no "
    "morale, breaking or bottle tests.",
)


def _seed(seed: int | str) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise GmkitError(f"simulate: the seed must be an integer or a text (got {seed!r})")
    if isinstance(seed, str):
        return int.from_bytes(hashlib.sha256(seed.encode("utf-8")).digest()[:8], "big")
    return seed


def _simulation(game: str) -> Simulation:
    found = find_game(game).simulation
    if found is None:
        raise GmkitError(Message("simulate.not_simulated", game=game))
    return found


def _tables(fight: Fight, progress: Callable[[float], None] | None) -> Tables:
    tables: Tables = _simulation(fight.game).tables(fight, progress)
    return tables


def simulate(
    encounter_or_sheets_by_side: Any,
    fights: int = 10_000,
    *,
    seed: int | str,
    rounds_limit: int = ROUNDS_LIMIT,
    policy: str = "weakest",
    progress: Callable[[float], None] | None = None,
    fights_done: FightsDone | None = None,
    distance: float | None = None,
    initiative: str = "roll",
) -> SimulationReport:
    """Fight the encounter ``fights`` times under ``policy`` and report what came of it.

    ``encounter_or_sheets_by_side``: an :class:`~gmkit.encounter.Encounter` (its combatants
    present, their sides, conditions and counters: wounds already lost count), or the sheets
    of each side (``{"Acolytes": [...], "Cult": [...]}``, or a roster). ``seed`` makes the
    fights repeatable (the same seed, the same report). ``progress(fraction)`` hears the
    fraction done, from 0 to 1 (the odds tables take the first 40 %); ``fights_done(done,
    total)`` hears the fights finished, ``(0, fights)`` once the odds tables are ready, then
    after each chunk of :data:`BATCH` fights, the last ``(fights, fights)``. The fights run a
    chunk at a time, so a million fights take the memory of one chunk (and 3 bytes a fight
    for the report); the seed gives the same report whatever is listening.

    The policy ``"weakest"`` (``report.policy`` says it in full): each round every combatant
    able to act makes one attack in its turn, at the foe it may attack and can hurt that has
    the fewest wounds left (a horde: magnitude; ties to the first in the encounter's order),
    with the weapon and mode (each mode with its default action) of the highest expected
    damage from the exact odds against that target as it stands (ties: the higher chance to
    take it out, then the sheet's order). A d100 target answers with the reaction that lowers
    the expected damage most among those its unspent pools allow this round.

    Turns: the d100 games roll initiative for each fight (1d10 + the game's base, ties to the
    higher base, then at random) and keep it for every round; in Necromunda and WFB 6e the
    sides take turns, the side that goes first drawn for each fight. ``initiative="encounter"``
    keeps the encounter's order instead (its rolled initiative, else the order combatants were
    added; its first side). A fight ends when at most one side stands; after ``rounds_limit``
    rounds it is a draw.

    Simplified (``report.simplifications``): no movement, every foe at ``distance`` (the game's
    unit; default the game's ``simulation.distance``: 8 in, 10 m, 20 cm), ranged
    weapons at that distance and melee weapons as if engaged; one attack per turn with the
    mode's default action; no conditions gained or lost (the encounter's present ones hold
    throughout), no ammunition or jams; no reactions beyond
    those the odds include; no morale. Taken out: d100 characters by damage past their wounds
    (the first critical damage or critical hit; the critical tables are not rolled), hordes
    at magnitude 0, WFB 6e models at 0 wounds (each a model on its own), Necromunda fighters
    out of action (injury, recovery and loss of blood, with down and pinning played out).

    Vectorised: the exact odds (:func:`gmkit.odds.odds`) of each attacker, attack and target,
    per state bucket where they depend on the target's state (Necromunda: wounds left, flesh
    wounds, down; the d100 games: the reaction left), become tables of outcomes; then all the
    fights run at once as numpy arrays, each attack drawn from its table by inverse CDF with
    a seeded ``numpy.random.Generator``.
    """
    if policy not in POLICIES:
        raise GmkitError(f"simulate: no policy {policy!r}; known: {', '.join(POLICIES)}")
    if isinstance(fights, bool) or not isinstance(fights, int) or fights < 1:
        raise GmkitError(f"simulate: fights must be a whole number of 1 or more ({fights!r})")
    if isinstance(rounds_limit, bool) or not isinstance(rounds_limit, int) or rounds_limit < 1:
        raise GmkitError(f"simulate: rounds_limit must be 1 or more ({rounds_limit!r})")
    if initiative not in ("roll", "encounter"):
        raise GmkitError(f"simulate: initiative is 'roll' or 'encounter' ({initiative!r})")
    rng = np.random.default_rng(_seed(seed))
    began = time.perf_counter()
    tell = progress or (lambda _fraction: None)
    tell(0.0)
    fight = prepare_fight(encounter_or_sheets_by_side, distance)
    tables = _tables(fight, lambda fraction: tell(ODDS_SHARE * fraction))
    odds_done = time.perf_counter()
    winners: list[np.ndarray] = []
    rounds: list[np.ndarray] = []
    outs = np.zeros(tables.n, dtype=np.int64)
    done = 0
    # what a fight keeps for the report, compact: the winner's side (-1 a draw) and its rounds
    winner_type = np.min_scalar_type(-len(tables.side_names))
    rounds_type = np.min_scalar_type(rounds_limit)
    if fights_done is not None:
        fights_done(0, fights)
    while done < fights:
        size = min(BATCH, fights - done)
        before = done

        def heard(finished: int, before: int = before) -> None:
            tell(ODDS_SHARE + (1 - ODDS_SHARE) * (before + finished) / fights)

        outcome = run(
            tables,
            size,
            rng,
            rounds_limit=rounds_limit,
            rolled=initiative == "roll",
            progress=heard,
        )
        winners.append(outcome.winner.astype(winner_type))
        rounds.append(outcome.rounds.astype(rounds_type))
        outs += (outcome.final == OUT).sum(axis=0)
        done += size
        heard(size)
        if fights_done is not None:
            fights_done(done, fights)
    ended = time.perf_counter()
    tell(1.0)
    return _report(
        fight,
        tables,
        np.concatenate(winners).astype(np.int64),
        np.concatenate(rounds).astype(np.int64),
        outs,
        seed=seed,
        policy=policy,
        rounds_limit=rounds_limit,
        initiative=initiative,
        seconds={"odds": odds_done - began, "fights": ended - odds_done},
    )


def _report(
    fight: Fight,
    tables: Tables,
    winner: np.ndarray,
    rounds: np.ndarray,
    outs: np.ndarray,
    **given: Any,
) -> SimulationReport:
    count = winner.size
    sides = fight.sides
    wins = {side: int((winner == index).sum()) for index, side in enumerate(sides)}
    names = {fighter.index: fighter.name for fighter in fight.fighters}
    combatants = []
    for fighter in fight.fighters:
        attacks = {}
        for (a, _v, t, _s, m), label in tables.choice.items():
            if a == fighter.index and m == 0:
                attacks[names[t]] = label
        combatants.append(
            CombatantResult(
                fighter.id,
                fighter.name,
                fighter.side,
                float(outs[fighter.index] / count),
                attacks,
            )
        )
    spread = float(rounds.std(ddof=1)) if count > 1 else 0.0
    turns = "initiative rolled for each fight" if fight.initiative else "first side drawn"
    if given["initiative"] == "encounter":
        turns = "the encounter's order"
    return SimulationReport(
        game=fight.game,
        fights=count,
        seed=given["seed"],
        policy=f"{given['policy']}: {POLICIES[given['policy']]}",
        simplifications=(
            f"Every foe at {fight.distance:g} {find_game(fight.game).unit}; turns: {turns}.",
            *COMMON,
            *(render(note) for note in _simulation(fight.game).notes),
        ),
        sides=sides,
        win_counts=wins,
        draw_count=int(count - sum(wins.values())),
        rounds=float(rounds.mean()),
        rounds_error=spread / np.sqrt(count),
        rounds_limit=given["rounds_limit"],
        distance=fight.distance,
        unit=find_game(fight.game).unit,
        initiative=given["initiative"],
        combatants=tuple(combatants),
        notes=tuple(fight.notes + tables.notes),
        seconds=given["seconds"],
    )
