"""Who has had their go this round, read from the state alone (the tracker's "acted" mark)."""

from __future__ import annotations

from gmkit.encounter._state import EncounterState
from gmkit.systems.turns import TurnStructure


def acted(state: EncounterState, structure: TurnStructure) -> frozenset[str]:
    """Ids of the combatants who have had their go in ``state`` (its game's ``structure``).
    Before the start, none.

    - Initiative games: those whose turn this round came before the current actor's (one
      who delayed and still waits has not), and the current actor once the turn's budget
      is all spent.
    - Sides games: every member of a side whose turn this round is over; of the side in
      play (of both sides, in a phase both play), those who spent from a pool the current
      phase's actions draw on (in the shooting phase, who shot, or ran: a run costs the
      shot). A phase whose actions spend nothing (recovery, magic) marks none of them.
    """
    if not state.started:
        return frozenset()
    if structure.kind == "initiative":
        done = {i for i in state.order[: state.turn] if not state.combatants[i].delayed}
        current = state.current
        pools = structure.turn_pools
        if current is not None and all(current.spent.get(p, 0) >= n for p, n in pools.items()):
            done.add(current.id)
        return frozenset(done)
    over = set(state.sides[: state.turn])
    phase = structure.phases[state.phase] if structure.phases else ""
    kinds = structure.phase_actions.get(phase, ())
    drawn = {pool for kind in kinds for pool in structure.action_costs.get(kind, {})}
    playing = None if phase in structure.both_sides_phases else state.current_side
    return frozenset(
        c.id
        for c in state.present
        if c.side in over
        or ((playing is None or c.side == playing) and any(c.spent.get(p) for p in drawn))
    )
