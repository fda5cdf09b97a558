"""Folding events into state: one pure function per event kind.

Every event is a small JSON-ready dict with a ``kind``. ``fold(state, event)`` returns the next
state or raises :class:`~gmkit.errors.RulesError` (the command that made the event is then
refused and nothing is written). An event that applies effects carries what they changed,
worked out by the command through the game's rules (:mod:`gmkit.encounter.effects`): folding it
only sets those values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, get_args

from gmkit.encounter.effects import apply_effects, apply_recorded
from gmkit.encounter.state import Combatant, Condition, EncounterState, Tick, Trigger, evolve
from gmkit.errors import RulesError, SheetError
from gmkit.sheets import load_sheet
from gmkit.systems.turns import turn_structure

Event = Mapping[str, Any]
Handler = Callable[[EncounterState, Event], EncounterState]
_HANDLERS: dict[str, Handler] = {}
TICKS: tuple[str, ...] = get_args(Tick)


def handles(kind: str) -> Callable[[Handler], Handler]:
    def register(function: Handler) -> Handler:
        _HANDLERS[kind] = function
        return function

    return register


def fold(state: EncounterState, event: Event) -> EncounterState:
    kind = event.get("kind")
    if kind not in _HANDLERS:
        raise RulesError(f"event {kind!r} is not an encounter event")
    return evolve(_HANDLERS[str(kind)](state, event), events=state.events + 1)


def _combatant(state: EncounterState, ident: Any, *, present: bool = True) -> Combatant:
    if ident not in state.combatants:
        raise RulesError(f"combatant: no one with id {ident!r} in this encounter")
    found = state.combatants[ident]
    if present and found.removed:
        raise RulesError(f"combatant: {found.name} has been removed from the fight")
    return found


# --- who is in the fight -------------------------------------------------------------


@handles("added")
def _added(state: EncounterState, event: Event) -> EncounterState:
    ident = str(event["id"])
    if ident in state.combatants:
        raise RulesError(f"id: {ident!r} is already in this encounter")
    sheet = load_sheet(dict(event["sheet"]))
    if sheet.game != state.game:
        raise RulesError(f"sheet: {sheet.name} is a {sheet.game} sheet, not {state.game}")
    structure = turn_structure(state.game)
    base = structure.initiative_base(sheet) if structure.initiative_base else 0
    combatant = Combatant(
        id=ident,
        sheet=sheet,
        side=str(event.get("side") or sheet.side or "(no side)"),
        hidden=bool(event.get("hidden", False)),
        group=str(event.get("group", "")),
        initiative_base=base,
    )
    new = state.with_combatant(combatant)
    if structure.kind == "sides" and combatant.side not in new.sides:
        new = evolve(new, sides=(*new.sides, combatant.side))
    if state.started and structure.kind == "initiative" and event.get("initiative") is not None:
        new = _place_in_order(new, ident, int(event["initiative"]))
    return new


def _place_in_order(state: EncounterState, ident: str, score: int) -> EncounterState:
    """A late joiner (or a corrected score) takes its place by score, ties to the higher base,
    then after those already placed; the current actor keeps the turn."""
    joined = evolve(state.combatants[ident], initiative=score)
    state = state.with_combatant(joined)
    current = state.order[state.turn] if state.order else None
    if current == ident:
        return state  # the actor's own turn is under way: the new score counts from now on
    order = [i for i in state.order if i != ident]
    key = (score, joined.initiative_base)

    def rank(other: str) -> tuple[int, int]:
        found = state.combatants[other]
        return (found.initiative or 0, found.initiative_base)

    position = next((n for n, other in enumerate(order) if rank(other) < key), len(order))
    order.insert(position, ident)
    turn = order.index(current) if current else 0
    return evolve(state, order=tuple(order), turn=turn)


@handles("removed")
def _removed(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    return state.with_combatant(evolve(combatant, removed=True))


@handles("revived")
def _revived(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"], present=False)
    if not combatant.removed:
        raise RulesError(f"revive: {combatant.name} is still in the fight")
    state = state.with_combatant(evolve(combatant, removed=False))
    # removed before the fight began: back in the order by its score (without one, it takes
    # its place when the GM rolls or sets one)
    if (
        _in_initiative_fight(state)
        and combatant.id not in state.order
        and combatant.initiative is not None
    ):
        state = _place_in_order(state, combatant.id, combatant.initiative)
    return state


def _in_initiative_fight(state: EncounterState) -> bool:
    return state.started and turn_structure(state.game).kind == "initiative"


def _edited(combatant: Combatant, changes: Mapping[str, Any]) -> Combatant:
    try:
        return evolve(combatant, sheet=combatant.sheet.edit(**dict(changes)))
    except SheetError as error:  # the encounter refuses with RulesError, naming the field
        raise RulesError(str(error)) from None


@handles("renamed")
def _renamed(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"], present=False)
    return state.with_combatant(_edited(combatant, {"name": event["name"]}))


@handles("revealed")
def _revealed(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    if not combatant.hidden:
        raise RulesError(f"reveal: {combatant.name} is not hidden")
    return state.with_combatant(evolve(combatant, hidden=False))


@handles("sheet_edited")
def _sheet_edited(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"], present=False)
    changes = dict(event["changes"])
    if "game" in changes and changes["game"] != combatant.sheet.game:
        raise RulesError(f"game: {combatant.name}'s sheet stays a {combatant.sheet.game} sheet")
    return state.with_combatant(_edited(combatant, changes))


WOUNDS_SHOWN = ("exact", "band", "hidden")


@handles("setting")
def _setting(state: EncounterState, event: Event) -> EncounterState:
    key, value = str(event["key"]), event["value"]
    if not key:
        raise RulesError("setting: the key is blank")
    if key == "enemy_wounds" and value not in WOUNDS_SHOWN:
        raise RulesError(f"enemy_wounds: {value!r} is not one of {', '.join(WOUNDS_SHOWN)}")
    if key == "player_sides" and (
        not isinstance(value, list) or not all(isinstance(v, str) for v in value)
    ):
        raise RulesError(f"player_sides: must be a list of side names (got {value!r})")
    return evolve(state, settings={**state.settings, key: value})


@handles("note")
def _note(state: EncounterState, event: Event) -> EncounterState:
    return state


# --- initiative and the turn ---------------------------------------------------------


@handles("initiative")
def _initiative(state: EncounterState, event: Event) -> EncounterState:
    if turn_structure(state.game).kind != "initiative":
        raise RulesError(f"initiative: {state.game} plays by sides, not initiative")
    if not event["entries"]:
        raise RulesError("initiative: no one to roll for")
    for entry in event["entries"]:
        combatant = _combatant(state, entry["id"])
        score = int(entry["score"])
        if state.started:  # a corrected score, or one for a revived combatant: re-placed
            state = _place_in_order(state, combatant.id, score)
        else:
            state = state.with_combatant(evolve(combatant, initiative=score))
    return state


@handles("started")
def _started(state: EncounterState, event: Event) -> EncounterState:
    if state.started:
        raise RulesError("the encounter has started already")
    surprised = set(event.get("surprised", ()))
    combatants = {
        ident: evolve(c, surprised=ident in surprised) for ident, c in state.combatants.items()
    }
    new = evolve(state, combatants=combatants, round=1, turn=0, phase=0)
    if not state.present:
        raise RulesError("start: there is no one in the fight")
    if turn_structure(state.game).kind == "initiative":
        order = tuple(str(ident) for ident in event["order"])
        for ident in order:
            _combatant(state, ident)
        new = evolve(new, order=order)
        return _begin_turn(new, skip_first=True)
    sides = tuple(str(side) for side in event.get("sides") or state.sides)
    new = evolve(new, sides=sides)
    return _begin_side_turn(new, [])


def _can_act(state: EncounterState, ident: str) -> bool:
    combatant = state.combatants[ident]
    return not combatant.removed and not (combatant.surprised and state.round == 1)


def _begin_turn(state: EncounterState, *, skip_first: bool = False) -> EncounterState:
    """Move to the first combatant from ``turn`` on who can act, then start their turn."""
    reminders: list[str] = []
    if skip_first:
        for _ in range(len(state.order) * 2):
            if _can_act(state, state.order[state.turn]):
                break
            state = _step(state, reminders)
    current = state.current
    if current is None:
        return state
    if current.spent or current.delayed or current.hidden:
        current = evolve(current, spent={}, delayed=False, hidden=False)
    current, ticked = _tick(current, "start_of_turn")
    reminders.extend(ticked)
    return evolve(state.with_combatant(current), reminders=tuple(reminders))


def _step(state: EncounterState, reminders: list[str]) -> EncounterState:
    turn = state.turn + 1
    if turn < len(state.order):
        return evolve(state, turn=turn)
    return _end_round(evolve(state, turn=0), reminders)


def _end_round(state: EncounterState, reminders: list[str]) -> EncounterState:
    combatants = {}
    for ident, combatant in state.combatants.items():
        fresh = evolve(combatant, reactions={}) if combatant.reactions else combatant
        ticked, said = _tick(fresh, "end_of_round")
        reminders.extend(said)
        combatants[ident] = ticked
    new_round = state.round + 1
    triggers = []
    for trigger in state.triggers:
        if trigger.expires_round is None or trigger.expires_round >= new_round:
            triggers.append(trigger)
        else:
            owner = combatants[trigger.owner].name if trigger.owner in combatants else trigger.owner
            reminders.append(f"{owner}: {trigger.kind} expires")
    return evolve(state, combatants=combatants, round=new_round, triggers=tuple(triggers))


def _tick(combatant: Combatant, moment: str) -> tuple[Combatant, list[str]]:
    if not any(c.ticks == moment for c in combatant.conditions.values()):
        return combatant, []  # the common case: nothing to tick, nothing to copy
    said: list[str] = []
    conditions = {}
    for name, condition in combatant.conditions.items():
        if condition.ticks != moment:
            conditions[name] = condition
            continue
        if condition.reminder:
            said.append(f"{combatant.name}: {condition.reminder}")
        if condition.rounds is None:
            conditions[name] = condition
        elif condition.rounds > 1:
            conditions[name] = evolve(condition, rounds=condition.rounds - 1)
        else:
            said.append(f"{combatant.name}: {name} ends")
    return evolve(combatant, conditions=conditions), said


@handles("turn")
def _turn(state: EncounterState, event: Event) -> EncounterState:
    if not state.started:
        raise RulesError("the encounter has not started: roll initiative and start it")
    structure = turn_structure(state.game)
    if structure.kind == "sides":
        return _side_turn(state, int(event.get("direction", 1)), len(structure.phases))
    if int(event.get("direction", 1)) < 0:
        return _previous_turn(state)
    return _advance(state)


def _advance(state: EncounterState) -> EncounterState:
    """End the current actor's turn and begin the next one who can act."""
    if not any(not state.combatants[i].removed for i in state.order):
        raise RulesError("turn: no one in the initiative order can act")
    reminders: list[str] = []
    current = state.current
    if current is not None:
        ended, said = _tick(current, "end_of_turn")
        reminders.extend(said)
        state = state.with_combatant(ended)
    state = _step(state, reminders)
    for _ in range(len(state.order) * 2):
        if _can_act(state, state.order[state.turn]):
            break
        state = _step(state, reminders)
    began = _begin_turn(state)
    return evolve(began, reminders=(*reminders, *began.reminders))


def _previous_turn(state: EncounterState) -> EncounterState:
    """Step back to the previous actor who could act (into the previous round if need be);
    nothing ticks back (undo takes a turn change back exactly)."""
    position = (state.round, state.turn)
    for _ in range(len(state.order) * 2):
        round_, turn = position
        turn -= 1
        if turn < 0:
            round_, turn = round_ - 1, len(state.order) - 1
        if round_ < 1:
            raise RulesError("turn: there is no turn before the first one of round 1")
        position = (round_, turn)
        ident = state.order[turn]
        combatant = state.combatants[ident]
        if not combatant.removed and not (combatant.surprised and round_ == 1):
            return evolve(state, round=round_, turn=turn, reminders=())
    raise RulesError("turn: no earlier turn to go back to")


def _side_turn(state: EncounterState, direction: int, phases: int) -> EncounterState:
    if direction < 0:
        if state.phase > 0:
            return evolve(state, phase=state.phase - 1, reminders=())
        if state.turn > 0:
            return evolve(state, phase=phases - 1, turn=state.turn - 1, reminders=())
        if state.round <= 1:
            raise RulesError("turn: there is no phase before the first one of round 1")
        return evolve(
            state, phase=phases - 1, turn=len(state.sides) - 1, round=state.round - 1, reminders=()
        )
    if state.phase + 1 < phases:
        return evolve(state, phase=state.phase + 1, reminders=())
    reminders: list[str] = []
    side = state.current_side
    combatants = {}
    for ident, combatant in state.combatants.items():
        if combatant.side == side:
            combatant, said = _tick(evolve(combatant, spent={}), "end_of_turn")
            reminders.extend(said)
        combatants[ident] = combatant
    state = evolve(state, combatants=combatants, phase=0)
    if state.turn + 1 < len(state.sides):
        state = evolve(state, turn=state.turn + 1)
    else:
        state = _end_round(evolve(state, turn=0), reminders)
    return _begin_side_turn(state, reminders)


def _begin_side_turn(state: EncounterState, reminders: list[str]) -> EncounterState:
    """A side's turn begins: its combatants' budgets are fresh and start-of-turn conditions
    tick."""
    side = state.current_side
    combatants = {}
    for ident, combatant in state.combatants.items():
        if combatant.side == side and not combatant.removed:
            combatant, said = _tick(evolve(combatant, spent={}), "start_of_turn")
            reminders.extend(said)
        combatants[ident] = combatant
    return evolve(state, combatants=combatants, reminders=tuple(reminders))


# --- the action budget ---------------------------------------------------------------


@handles("spent")
def _spent(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    if not state.started:
        raise RulesError("spend: the encounter has not started")
    pools = {str(k): int(v) for k, v in dict(event.get("pools", {})).items()}
    if event.get("reaction"):
        field_name = "reactions"
    elif event.get("delayed_action"):
        if not combatant.delayed:
            raise RulesError(f"delay: {combatant.name} has no delayed action waiting")
        # the delayed half action was paid for when the actor delayed: it ends the wait
        return state.with_combatant(evolve(combatant, delayed=False, hidden=False))
    else:
        field_name = "spent"
    spent = dict(getattr(combatant, field_name))
    for pool, cost in pools.items():
        spent[pool] = spent.get(pool, 0) + cost
    changed = evolve(combatant, **{field_name: spent})
    if field_name == "spent" and event.get("type") != "free":
        changed = evolve(changed, hidden=False)  # acting gives a hidden combatant away
    return state.with_combatant(changed)


@handles("delayed")
def _delayed(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    if not event.get("waiting", True):
        return state.with_combatant(evolve(combatant, delayed=False))
    current = state.current
    if current is None or current.id != combatant.id:
        raise RulesError(f"delay: it is not {combatant.name}'s turn")
    spent = dict(combatant.spent)
    for pool, cost in dict(event.get("pools", {})).items():
        spent[str(pool)] = spent.get(str(pool), 0) + int(cost)
    # Delay is a half action that ends the turn, keeping a half action for later (004, 002)
    waiting = evolve(combatant, delayed=True, spent=spent)
    return _advance(state.with_combatant(waiting))


@handles("readied")
def _readied(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    return state.with_combatant(evolve(combatant, readied=str(event.get("action", ""))))


@handles("trigger")
def _trigger(state: EncounterState, event: Event) -> EncounterState:
    owner = _combatant(state, event["id"])
    expires = event.get("expires_round")
    if not str(event.get("trigger", "")).strip():
        raise RulesError("trigger: the kind of trigger is blank")
    if expires is not None and int(expires) < max(state.round, 1):
        raise RulesError(f"rounds: the trigger would expire before it is declared ({expires})")
    trigger = Trigger(
        owner.id,
        str(event["trigger"]),
        str(event.get("detail", "")),
        None if expires is None else int(expires),
    )
    return evolve(state, triggers=(*state.triggers, trigger))


@handles("trigger_done")
def _trigger_done(state: EncounterState, event: Event) -> EncounterState:
    index = int(event["index"])
    if not 0 <= index < len(state.triggers):
        raise RulesError(f"trigger: there is no trigger {index}")
    return evolve(state, triggers=state.triggers[:index] + state.triggers[index + 1 :])


# --- conditions and effects ----------------------------------------------------------


@handles("condition")
def _condition(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    rounds = event.get("rounds")
    ticks = event.get("ticks", "end_of_turn")
    name = str(event["name"]).strip()
    if not name:
        raise RulesError("condition: the name is blank")
    if rounds is not None and int(rounds) < 1:
        raise RulesError(f"rounds: must be 1 or more (got {rounds})")
    if ticks not in TICKS:
        raise RulesError(f"ticks: {ticks!r} is not one of {', '.join(TICKS)}")
    condition = Condition(
        name,
        None if rounds is None else int(rounds),
        ticks,
        str(event.get("reminder", "")),
    )
    return state.with_combatant(combatant.with_condition(condition))


@handles("condition_removed")
def _condition_removed(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    if event["name"] not in combatant.conditions:
        raise RulesError(f"condition: {combatant.name} is not {event['name']}")
    return state.with_combatant(combatant.without_condition(str(event["name"])))


@handles("attack")
def _attack(state: EncounterState, event: Event) -> EncounterState:
    _combatant(state, event["attacker"])
    if event.get("applied"):
        return _apply(state, event)
    return state


@handles("effects")
def _effects(state: EncounterState, event: Event) -> EncounterState:
    return _apply(state, event)


def _apply(state: EncounterState, event: Event) -> EncounterState:
    """The application the event recorded; an older event without one, through the rules."""
    if "changes" in event:
        return apply_recorded(state, event)
    return apply_effects(state, event.get("effects", ()))
