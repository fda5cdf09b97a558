"""The injury rolls of a Necromunda hit, exactly: the chain of rolls ``resolve_wounds`` makes.

Split from :mod:`gmkit.odds._necromunda` (the odds of a shot), which reads them for every
number of wounds a hit causes: :func:`injury_chains` extends one chain a roll at a time (the
same die at a time, so the same counts as rolling each chain afresh).
"""

from __future__ import annotations

from collections.abc import Callable

from gmkit.odds._core import Dist
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems.necromunda._injuries import Injury, already_out, injury_rolls, injury_table
from gmkit.systems.necromunda._state import FighterState, bled_out

__all__ = ["Chain", "injury_chain", "injury_chains", "wound_outcomes"]

Chain = tuple[int, bool, bool]  # flesh wounds in all, down (before out masks it), out of action


def injury_chain(
    fighter: NecromundaFighter, state: FighterState, rolls: int, high_impact: bool
) -> Dist[Chain]:
    """``rolls`` injury rolls in a row, as ``resolve_wounds`` makes them (it stops at out of
    action): the table's faces, grouped by result, one die at a time."""
    return injury_chains(fighter, state, high_impact)(rolls)


def injury_chains(
    fighter: NecromundaFighter, state: FighterState, high_impact: bool
) -> Callable[[int], Dist[Chain]]:
    """:func:`injury_chain` for any number of rolls, each chain extending the one before (the
    same die at a time, so the same counts)."""
    chart = injury_table(high_impact)
    sides = len(chart)
    results: dict[Injury, int] = {}
    for result in chart.values():
        results[result] = results.get(result, 0) + 1
    steps: list[dict[Chain, int]] = [{(state.flesh(fighter), state.down, False): 1}]

    def roll(counts: dict[Chain, int]) -> dict[Chain, int]:
        after: dict[Chain, int] = {}
        for (flesh, down, out), count in counts.items():
            if out:  # no more rolls: the same chance over the larger denominator
                after[(flesh, down, out)] = after.get((flesh, down, out), 0) + count * sides
                continue
            for result, ways in results.items():
                if result == "flesh wound":
                    key = (flesh + 1, down, bled_out(fighter, flesh + 1))
                elif result == "down":
                    key = (flesh, True, False)
                else:
                    key = (flesh, down, True)
                after[key] = after.get(key, 0) + count * ways
        return after

    def chain(rolls: int) -> Dist[Chain]:
        while len(steps) <= rolls:
            steps.append(roll(steps[-1]))
        return Dist(steps[rolls], sides**rolls)

    return chain


def wound_outcomes(
    fighter: NecromundaFighter, state: FighterState, wounds: int, *, high_impact: bool = False
) -> Dist[FighterState]:
    """The exact distribution of the state
    :func:`~gmkit.systems.necromunda._injuries.resolve_wounds` leaves ``fighter`` in."""
    if state.out_of_action:
        raise already_out(fighter)
    left = state.wounds(fighter)
    lost = min(wounds, left)
    chain = injury_chain(fighter, state, injury_rolls(wounds, left), high_impact)
    return chain.map(
        lambda key: state.with_changes(
            wounds_left=left - lost,
            flesh_wounds=key[0],
            down=key[1] and not key[2],
            out_of_action=key[2],
            pinned=state.pinned and not key[1] and not key[2],
        )
    )
