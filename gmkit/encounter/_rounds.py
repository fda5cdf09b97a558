"""How a fight's rounds pass: whose turn begins (skipping who cannot act), conditions ticking
at the start and end of turns and at a round's end, declared triggers expiring, and the
reminders all of that asks the GM for (messages, in the reader's language when shown).

This is the one place a condition's rounds count down and end (:func:`_tick`): each condition
ticks at the moment recorded with it when it was gained (the one its game declares, or the
encounter's rule: :func:`gmkit.encounter._effects.application`), so a log replays the same
whatever the rules of the day. What ends a condition on an occasion rather than a moment (an
attack, an action, a reaction: the Aim) the rules say with their effects, from the same
declarations (``systems.conditions.ConditionBook.ended``). Who is out of the fight (Next passes
over them) is the game's declared ``fallen`` conditions (``systems.conditions.fallen``).

Pure functions of the state, called by the fold of the events that start the fight, change
the turn and delay (:mod:`gmkit.encounter._fold`).
"""

from __future__ import annotations

from gmkit.encounter._state import Combatant, EncounterState, evolve
from gmkit.encounter._terms import condition_name
from gmkit.errors import RulesError
from gmkit.messages import Message, Text, as_message
from gmkit.systems._conditions import fallen as fallen_of


def _can_act(state: EncounterState, ident: str) -> bool:
    """Whether ``ident``'s turn is played: not removed, not surprised in round 1 and, unless
    the setting ``skip_fallen`` is off, bearing none of the game's ``fallen`` conditions."""
    combatant = state.combatants[ident]
    if combatant.removed or (combatant.surprised and state.round == 1):
        return False
    if state.settings.get("skip_fallen", True) is False:
        return True
    return not any(name in combatant.conditions for name in fallen_of(state.game))


def begin_turn(state: EncounterState, *, skip_first: bool = False) -> EncounterState:
    """Move to the first combatant from ``turn`` on who can act, then start their turn."""
    reminders: list[Text] = []
    if skip_first:
        for _ in range(len(state.order) * 2):
            if _can_act(state, state.order[state.turn]):
                break
            state = _step(state, reminders)
    current = state.current
    if current is None:
        return state
    if current.spent or current.delayed:  # a hidden one stays hidden: the GM reveals it
        current = evolve(current, spent={}, delayed=False)
    current, ticked = _tick(state.game, current, "start_of_turn")
    reminders.extend(ticked)
    return evolve(state.with_combatant(current), reminders=tuple(reminders))


def _step(state: EncounterState, reminders: list[Text]) -> EncounterState:
    turn = state.turn + 1
    if turn < len(state.order):
        return evolve(state, turn=turn)
    return _end_round(evolve(state, turn=0), reminders)


def _end_round(state: EncounterState, reminders: list[Text]) -> EncounterState:
    combatants = {}
    for ident, combatant in state.combatants.items():
        fresh = evolve(combatant, reactions={}) if combatant.reactions else combatant
        ticked, said = _tick(state.game, fresh, "end_of_round")
        reminders.extend(said)
        combatants[ident] = ticked
    new_round = state.round + 1
    triggers = []
    for trigger in state.triggers:
        if trigger.expires_round is None or trigger.expires_round >= new_round:
            triggers.append(trigger)
        else:
            owner = combatants[trigger.owner].name if trigger.owner in combatants else trigger.owner
            reminders.append(
                Message("encounter.reminder.trigger_expires", owner=owner, trigger=trigger.kind)
            )
    return evolve(state, combatants=combatants, round=new_round, triggers=tuple(triggers))


def _tick(game: str, combatant: Combatant, moment: str) -> tuple[Combatant, list[Text]]:
    if not any(c.ticks == moment for c in combatant.conditions.values()):
        return combatant, []  # the common case: nothing to tick, nothing to copy
    said: list[Text] = []
    conditions = {}
    for name, condition in combatant.conditions.items():
        if condition.ticks != moment:
            conditions[name] = condition
            continue
        if condition.reminder:
            said.append(
                Message(
                    "encounter.reminder.condition",
                    name=combatant.name,
                    reminder=as_message(condition.reminder),
                )
            )
        if condition.rounds is None:
            conditions[name] = condition
        elif condition.rounds > 1:
            conditions[name] = evolve(condition, rounds=condition.rounds - 1)
        else:
            said.append(
                Message(
                    "encounter.reminder.condition_ends",
                    name=combatant.name,
                    condition=condition_name(game, name),
                )
            )
    return evolve(combatant, conditions=conditions), said


def _may_act(combatant: Combatant, fallen: tuple[str, ...], skip_fallen: bool, round_: int) -> bool:
    """:func:`_can_act` with the game's ``fallen`` conditions and the setting looked up once."""
    if combatant.removed or (combatant.surprised and round_ == 1):
        return False
    return not skip_fallen or not any(name in combatant.conditions for name in fallen)


def advance(state: EncounterState) -> EncounterState:
    """End the current actor's turn and begin the next one who can act.

    The same steps as :func:`_step` and :func:`begin_turn` (the tests hold it to them state for
    state), on one copy of the combatants and one new state: a fold of a long log calls this
    for most of its events."""
    fallen = fallen_of(state.game)
    skip_fallen = state.settings.get("skip_fallen", True) is not False
    order = state.order
    combatants = state.combatants
    game = state.game
    reminders: list[Text] = []
    changed = dict(combatants)
    ident = order[state.turn]
    changed[ident], said = _tick(game, changed[ident], "end_of_turn")
    reminders.extend(said)
    turn, round_ = state.turn, state.round
    found = False
    for _ in range(len(order) * 2 + 1):  # the first step, then past those who cannot act
        turn += 1
        if turn >= len(order):
            state = _end_round(evolve(state, combatants=changed, turn=0), reminders)
            turn, round_, changed = 0, state.round, dict(state.combatants)
        if _may_act(changed[order[turn]], fallen, skip_fallen, round_):
            found = True
            break
    # Someone could act in some round before this turn changed (the surprised can from round
    # 2 on), or no turn passes. The one found settles it when they could (the common case, no
    # pass over everyone); else every combatant as they were before the change is asked.
    settled = found and _may_act(combatants[order[turn]], fallen, skip_fallen, 2)
    if not settled and not any(_may_act(combatants[i], fallen, skip_fallen, 2) for i in order):
        raise RulesError(Message("encounter.turn_no_one"))
    current = changed[order[turn]]
    if current.spent or current.delayed:  # a hidden one stays hidden: the GM reveals it
        current = evolve(current, spent={}, delayed=False)
    current, ticked = _tick(game, current, "start_of_turn")
    changed[current.id] = current
    return evolve(
        state, combatants=changed, turn=turn, round=round_, reminders=(*reminders, *ticked)
    )


def previous_turn(state: EncounterState) -> EncounterState:
    """Step back to the previous actor who could act (into the previous round if need be);
    nothing ticks back (undo takes a turn change back exactly)."""
    position = (state.round, state.turn)
    for _ in range(len(state.order) * 2):
        round_, turn = position
        turn -= 1
        if turn < 0:
            round_, turn = round_ - 1, len(state.order) - 1
        if round_ < 1:
            raise RulesError(Message("encounter.turn_before_first"))
        position = (round_, turn)
        ident = state.order[turn]
        if _can_act(evolve(state, round=round_), ident):
            return evolve(state, round=round_, turn=turn, reminders=(), due=())
    raise RulesError(Message("encounter.turn_no_earlier"))


def side_turn(state: EncounterState, direction: int, phases: int) -> EncounterState:
    if direction < 0:
        if state.phase > 0:
            return evolve(state, phase=state.phase - 1, reminders=())
        if state.turn > 0:
            return evolve(state, phase=phases - 1, turn=state.turn - 1, reminders=())
        if state.round <= 1:
            raise RulesError(Message("encounter.phase_before_first"))
        return evolve(
            state, phase=phases - 1, turn=len(state.sides) - 1, round=state.round - 1, reminders=()
        )
    if state.phase + 1 < phases:
        return evolve(state, phase=state.phase + 1, reminders=())
    reminders: list[Text] = []
    side = state.current_side
    combatants = {}
    for ident, combatant in state.combatants.items():
        if combatant.side == side:
            combatant, said = _tick(state.game, evolve(combatant, spent={}), "end_of_turn")
            reminders.extend(said)
        combatants[ident] = combatant
    state = evolve(state, combatants=combatants, phase=0)
    if state.turn + 1 < len(state.sides):
        state = evolve(state, turn=state.turn + 1)
    else:
        state = _end_round(evolve(state, turn=0), reminders)
    return begin_side_turn(state, reminders)


def begin_side_turn(state: EncounterState, reminders: list[Text]) -> EncounterState:
    """A side's turn begins: its combatants' budgets are fresh and start-of-turn conditions
    tick."""
    side = state.current_side
    combatants = {}
    for ident, combatant in state.combatants.items():
        if combatant.side == side and not combatant.removed:
            combatant, said = _tick(state.game, evolve(combatant, spent={}), "start_of_turn")
            reminders.extend(said)
        combatants[ident] = combatant
    return evolve(state, combatants=combatants, reminders=tuple(reminders))


__all__ = ["advance", "begin_side_turn", "begin_turn", "previous_turn", "side_turn"]
