"""The rolls a turn change asks for: which moments passed between two states, and what the
game's rules ask of whom at each (``TurnRules.turn_rolls``: on-fire damage at a round's end,
the Willpower test of a pinned acolyte, a down fighter's recovery roll...).

The command that changes the turn works them out (the rules of the day decide them once) and
its event keeps them as ``due``; the fold only lists them (:mod:`gmkit.encounter._fold`).
"""

from __future__ import annotations

from collections.abc import Iterable

from gmkit.encounter._state import Combatant, EncounterState
from gmkit.games import game as find_game
from gmkit.systems.acting import Bearer, Due, Moment
from gmkit.systems.base import Standing
from gmkit.systems.turns import turn_structure


def _conditions(state: EncounterState, combatant: Combatant) -> set[str]:
    """The conditions ``combatant`` bears as the rules read them: ``surprised`` too, in the
    first round, for one the start named."""
    names = set(combatant.conditions)
    if combatant.surprised and state.round == 1:
        names.add("surprised")
    return names


def standing(state: EncounterState, combatant: Combatant) -> Standing:
    """What the encounter knows of ``combatant`` now, as the rules read it: its conditions
    (:func:`_conditions`), counters and the reaction pools it spent this round."""
    return Standing.of(_conditions(state, combatant), combatant.counters, combatant.reactions)


def phase_of(state: EncounterState) -> str:
    """The current phase's name (sides games), "" otherwise."""
    phases = turn_structure(state.game).phases
    if not state.started or not phases:
        return ""
    return phases[state.phase % len(phases)]


def bearer(state: EncounterState, combatant: Combatant) -> Bearer:
    return Bearer(combatant.sheet, standing(state, combatant), state.round, phase_of(state))


def _asked(state: EncounterState, moment: Moment, who: Iterable[Combatant]) -> list[Due]:
    rules = find_game(state.game).acting
    fallen = turn_structure(state.game).fallen
    # rules whose rolls all come from conditions are not asked of one bearing none
    needs = getattr(rules, "rolls_need_conditions", False)
    found: list[Due] = []
    for combatant in who:
        if combatant.removed or any(name in combatant.conditions for name in fallen):
            continue
        if needs and not _conditions(state, combatant):
            continue
        asked = rules.turn_rolls(moment, bearer(state, combatant))
        found += [due.for_bearer(combatant.id) for due in asked]
    return found


def dues_between(before: EncounterState, after: EncounterState) -> list[Due]:
    """The rolls asked by the moments between ``before`` and ``after`` (a turn going forward):
    the end of the turn that ended, the end of the round if one ended, the start of the turn
    (and, in the sides games, of the phase) that began. Each asked of the combatant as it is
    in ``after`` (a condition that ended asks nothing)."""
    if not after.started:
        return []
    present = [c for c in after.combatants.values() if not c.removed]
    structure = turn_structure(after.game)
    dues: list[Due] = []
    if structure.kind == "initiative":
        old = before.current if before.started else None
        new = after.current
        changed = new is not None and (
            old is None or old.id != new.id or before.round != after.round
        )
        if old is not None and changed:
            dues += _asked(after, "end_of_turn", [after.combatants[old.id]])
        if before.started and after.round > before.round:
            dues += _asked(after, "end_of_round", present)
        if new is not None and changed:
            dues += _asked(after, "start_of_turn", [new])
        return dues
    side_changed = not before.started or (before.turn, before.round) != (after.turn, after.round)
    if side_changed:
        if before.started:
            ended = [c for c in present if c.side == before.current_side]
            dues += _asked(after, "end_of_turn", ended)
        if before.started and after.round > before.round:
            dues += _asked(after, "end_of_round", present)
        dues += _asked(after, "start_of_turn", [c for c in present if c.side == after.current_side])
    if side_changed or before.phase != after.phase:
        playing = [c for c in present if c.side == after.current_side]
        dues += _asked(after, "start_of_phase", playing)
    return dues


__all__ = ["bearer", "dues_between", "phase_of", "standing"]
