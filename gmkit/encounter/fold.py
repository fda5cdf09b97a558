"""Folding events into state: one pure function per event kind.

Every event is a small JSON-ready dict with a ``kind``. ``fold(state, event)`` returns the next
state or raises :class:`~gmkit.errors.RulesError` (the command that made the event is then
refused and nothing is written). Effects of attacks are applied through the game's rules
(``apply_effect`` of its system, when it has one); what is generic (conditions, counters,
ammunition, jams, reactions) is applied here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from gmkit.encounter.state import Combatant, Condition, EncounterState, Trigger
from gmkit.errors import RulesError
from gmkit.sheets import load_sheet
from gmkit.systems.base import Effect
from gmkit.systems.turns import turn_structure

Event = Mapping[str, Any]
Handler = Callable[[EncounterState, Event], EncounterState]
_HANDLERS: dict[str, Handler] = {}


def handles(kind: str) -> Callable[[Handler], Handler]:
    def register(function: Handler) -> Handler:
        _HANDLERS[kind] = function
        return function

    return register


def fold(state: EncounterState, event: Event) -> EncounterState:
    kind = event.get("kind")
    if kind not in _HANDLERS:
        raise RulesError(f"event {kind!r} is not an encounter event")
    return replace(_HANDLERS[str(kind)](state, event), events=state.events + 1)


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
        new = replace(new, sides=(*new.sides, combatant.side))
    if state.started and structure.kind == "initiative" and event.get("initiative") is not None:
        new = _place_in_order(new, ident, int(event["initiative"]))
    return new


def _place_in_order(state: EncounterState, ident: str, score: int) -> EncounterState:
    """A late joiner takes its place by score; the current actor keeps the turn."""
    joined = replace(state.combatants[ident], initiative=score)
    state = state.with_combatant(joined)
    current = state.order[state.turn] if state.order else None
    order = [i for i in state.order if i != ident]
    position = next(
        (n for n, other in enumerate(order) if (state.combatants[other].initiative or 0) < score),
        len(order),
    )
    order.insert(position, ident)
    turn = order.index(current) if current else 0
    return replace(state, order=tuple(order), turn=turn)


@handles("removed")
def _removed(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    return state.with_combatant(replace(combatant, removed=True))


@handles("revived")
def _revived(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"], present=False)
    return state.with_combatant(replace(combatant, removed=False))


@handles("renamed")
def _renamed(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"], present=False)
    return state.with_combatant(replace(combatant, sheet=combatant.sheet.edit(name=event["name"])))


@handles("revealed")
def _revealed(state: EncounterState, event: Event) -> EncounterState:
    return state.with_combatant(replace(_combatant(state, event["id"]), hidden=False))


@handles("sheet_edited")
def _sheet_edited(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"], present=False)
    sheet = combatant.sheet.edit(**dict(event["changes"]))
    return state.with_combatant(replace(combatant, sheet=sheet))


@handles("setting")
def _setting(state: EncounterState, event: Event) -> EncounterState:
    return replace(state, settings={**state.settings, str(event["key"]): event["value"]})


@handles("note")
def _note(state: EncounterState, event: Event) -> EncounterState:
    return state


# --- initiative and the turn ---------------------------------------------------------


@handles("initiative")
def _initiative(state: EncounterState, event: Event) -> EncounterState:
    for entry in event["entries"]:
        combatant = _combatant(state, entry["id"])
        state = state.with_combatant(replace(combatant, initiative=int(entry["score"])))
    return state


@handles("started")
def _started(state: EncounterState, event: Event) -> EncounterState:
    if state.started:
        raise RulesError("the encounter has started already")
    surprised = set(event.get("surprised", ()))
    combatants = {
        ident: replace(c, surprised=ident in surprised) for ident, c in state.combatants.items()
    }
    new = replace(state, combatants=combatants, round=1, turn=0, phase=0)
    if turn_structure(state.game).kind == "initiative":
        order = tuple(str(ident) for ident in event["order"])
        new = replace(new, order=order)
        return _begin_turn(new, skip_first=True)
    sides = tuple(str(side) for side in event.get("sides") or state.sides)
    return replace(new, sides=sides)


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
    current = replace(current, spent={}, delayed=False, hidden=False)
    current, ticked = _tick(current, "start_of_turn")
    reminders.extend(ticked)
    return replace(state.with_combatant(current), reminders=tuple(reminders))


def _step(state: EncounterState, reminders: list[str]) -> EncounterState:
    turn = state.turn + 1
    if turn < len(state.order):
        return replace(state, turn=turn)
    return _end_round(replace(state, turn=0), reminders)


def _end_round(state: EncounterState, reminders: list[str]) -> EncounterState:
    combatants = {}
    for ident, combatant in state.combatants.items():
        ticked, said = _tick(replace(combatant, reactions={}), "end_of_round")
        reminders.extend(said)
        combatants[ident] = ticked
    new_round = state.round + 1
    triggers = tuple(
        t for t in state.triggers if t.expires_round is None or t.expires_round >= new_round
    )
    return replace(state, combatants=combatants, round=new_round, triggers=triggers)


def _tick(combatant: Combatant, moment: str) -> tuple[Combatant, list[str]]:
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
            conditions[name] = replace(condition, rounds=condition.rounds - 1)
        else:
            said.append(f"{combatant.name}: {name} ends")
    return replace(combatant, conditions=conditions), said


@handles("turn")
def _turn(state: EncounterState, event: Event) -> EncounterState:
    if not state.started:
        raise RulesError("the encounter has not started: roll initiative and start it")
    structure = turn_structure(state.game)
    if structure.kind == "sides":
        return _side_turn(state, int(event.get("direction", 1)), len(structure.phases))
    if int(event.get("direction", 1)) < 0:
        return replace(state, turn=(state.turn - 1) % len(state.order), reminders=())
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
    return replace(began, reminders=(*reminders, *began.reminders))


def _side_turn(state: EncounterState, direction: int, phases: int) -> EncounterState:
    if direction < 0:
        if state.phase > 0:
            return replace(state, phase=state.phase - 1)
        return replace(state, phase=phases - 1, turn=(state.turn - 1) % len(state.sides))
    if state.phase + 1 < phases:
        return replace(state, phase=state.phase + 1)
    reminders: list[str] = []
    side = state.current_side
    combatants = {}
    for ident, combatant in state.combatants.items():
        if combatant.side == side:
            combatant, said = _tick(replace(combatant, spent={}), "end_of_turn")
            reminders.extend(said)
        combatants[ident] = combatant
    state = replace(state, combatants=combatants, phase=0)
    if state.turn + 1 < len(state.sides):
        return replace(state, turn=state.turn + 1, reminders=tuple(reminders))
    ended = _end_round(replace(state, turn=0), reminders)
    return replace(ended, reminders=tuple(reminders))


# --- the action budget ---------------------------------------------------------------


@handles("spent")
def _spent(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    pools = {str(k): int(v) for k, v in dict(event.get("pools", {})).items()}
    field_name = "reactions" if event.get("reaction") else "spent"
    spent = dict(getattr(combatant, field_name))
    for pool, cost in pools.items():
        spent[pool] = spent.get(pool, 0) + cost
    return state.with_combatant(replace(combatant, **{field_name: spent}))


@handles("delayed")
def _delayed(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    return state.with_combatant(replace(combatant, delayed=bool(event.get("waiting", True))))


@handles("readied")
def _readied(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    return state.with_combatant(replace(combatant, readied=str(event.get("action", ""))))


@handles("trigger")
def _trigger(state: EncounterState, event: Event) -> EncounterState:
    owner = _combatant(state, event["id"])
    expires = event.get("expires_round")
    trigger = Trigger(
        owner.id,
        str(event["trigger"]),
        str(event.get("detail", "")),
        None if expires is None else int(expires),
    )
    return replace(state, triggers=(*state.triggers, trigger))


@handles("trigger_done")
def _trigger_done(state: EncounterState, event: Event) -> EncounterState:
    index = int(event["index"])
    if not 0 <= index < len(state.triggers):
        raise RulesError(f"trigger: there is no trigger {index}")
    return replace(state, triggers=state.triggers[:index] + state.triggers[index + 1 :])


# --- conditions and effects ----------------------------------------------------------


@handles("condition")
def _condition(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    rounds = event.get("rounds")
    condition = Condition(
        str(event["name"]),
        None if rounds is None else int(rounds),
        event.get("ticks", "end_of_turn"),
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
        return apply_effects(state, event.get("effects", ()))
    return state


@handles("effects")
def _effects(state: EncounterState, event: Event) -> EncounterState:
    return apply_effects(state, event.get("effects", ()))


def apply_effects(state: EncounterState, effects: Any) -> EncounterState:
    from gmkit.systems import system  # the rules of the game, for sheet-level effects

    rules = system(state.game) if _has_system(state.game) else None
    apply_rule = getattr(rules, "apply_effect", None)
    for data in effects:
        effect = Effect(**dict(data))
        combatant = _by_name_or_id(state, effect.target)
        sheet = apply_rule(combatant.sheet, effect) if apply_rule else None
        if sheet is not None:
            combatant = replace(combatant, sheet=sheet)
        else:
            combatant = _apply_common(combatant, effect)
        state = state.with_combatant(combatant)
    return state


def _has_system(game: str) -> bool:
    try:
        from gmkit.systems import system

        system(game)
    except (ImportError, AttributeError):
        return False
    return True


def _by_name_or_id(state: EncounterState, target: str) -> Combatant:
    if target in state.combatants:
        return state.combatants[target]
    for combatant in state.combatants.values():
        if combatant.name == target:
            return combatant
    raise RulesError(f"effect: no combatant {target!r}")


def _apply_common(combatant: Combatant, effect: Effect) -> Combatant:
    """Effects every game reads alike; the rest are counted for the GM."""
    match effect.kind:
        case "condition" | "injury" | "pinned":
            name = effect.condition or effect.kind
            return combatant.with_condition(Condition(name, effect.rounds, "end_of_turn"))
        case "remove_condition":
            return combatant.without_condition(effect.condition or "")
        case "ammo":
            return combatant.counted(f"ammo spent: {effect.weapon}", effect.amount)
        case "jam":
            return combatant.with_condition(Condition(f"jammed: {effect.weapon}", None, "never"))
        case "reaction":
            spent = {**combatant.reactions}
            key = effect.condition or "reaction"
            spent[key] = spent.get(key, 0) + 1
            return replace(combatant, reactions=spent)
        case "cover":
            return combatant.counted(f"cover lost: {effect.location}", effect.amount)
        case "note":
            return combatant
        case _:
            return combatant.counted(effect.kind, effect.amount)
