"""Encounter simulation: who is likely to win a prepared fight, from the exact odds.

::

    from gmkit.simulate import simulate

    report = simulate(encounter, 10_000, seed=1)        # or {"Acolytes": [...], "Cult": [...]}
    report.wins, report.draw, report.rounds, report.taken_out
    report.policy, report.simplifications               # what was played, and what was not
    report.to_html()                                    # the table the widget shows
    simulate(encounter, 1_000_000, seed=1, fights_done=print)  # (done, total) each chunk

The fight is played many times by a simple policy, stated in full in ``report.policy``
(:data:`POLICIES`): each combatant attacks the foe with the fewest wounds left with its attack
of the highest expected damage from the exact odds (:mod:`gmkit.odds`). How it runs:

1. :mod:`~gmkit.simulate._fighters`: the combatants, sides and order of the encounter, and the
   attacks each can make (the panel's choices: weapons, modes, default actions), as a
   :class:`~gmkit.odds._fights.Fight`.
2. The exact outcome distribution of every (attacker, attack, target), per state bucket where
   the outcome depends on the target's state, as tables (:mod:`~gmkit.odds._fight_tables`),
   built by the game's simulation hook (``Game.simulation``): :mod:`~gmkit.odds.pool_tables`
   for the games whose odds cost a pool of wounds or magnitude (Dark Heresy, Deathwatch, WFRP
   2e, WFB 6e), :mod:`~gmkit.odds._necromunda_tables` for Necromunda's wounds, flesh wounds,
   down and pinned.
3. :mod:`~gmkit.simulate._engine`: every fight at once, numpy arrays over the fights, each
   attack drawn from its table with a seeded generator.
4. :class:`~gmkit.simulate._report.SimulationReport`: each side's chance to win, a draw at the
   round limit, the expected rounds, each combatant's chance to be taken out, with standard
   errors.

What is simplified is listed in ``report.simplifications`` and in :func:`simulate`'s docstring.
"""

from gmkit.simulate._core import BATCH, COMMON, POLICIES, ROUNDS_LIMIT, FightsDone, simulate
from gmkit.simulate._report import CombatantResult, SimulationReport

__all__ = [
    "BATCH",
    "COMMON",
    "POLICIES",
    "ROUNDS_LIMIT",
    "CombatantResult",
    "FightsDone",
    "SimulationReport",
    "simulate",
]
