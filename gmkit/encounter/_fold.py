"""Folding events into state: one pure function per event kind.

Every event is a small JSON-ready dict with a ``kind``. ``fold(state, event)`` returns the next
state or raises :class:`~gmkit.errors.RulesError` (the command that made the event is then
refused and nothing is written). An event that applies effects carries what they changed,
worked out by the command through the game's rules (:mod:`gmkit.encounter._effects`): folding it
only sets those values.

Why over 400 lines: one short pure function per event kind (about thirty), dispatched by
:func:`fold`; a module per kind would scatter the one table of what each event does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

from gmkit.encounter._effects import apply_effects, apply_recorded, shown
from gmkit.encounter._handlers import HANDLERS, Event, handles
from gmkit.encounter._rounds import advance, begin_side_turn, begin_turn, previous_turn, side_turn
from gmkit.encounter._settings import setting_value
from gmkit.encounter._state import Combatant, Condition, EncounterState, Tick, Trigger, evolve
from gmkit.encounter._terms import condition_name
from gmkit.errors import RulesError, SheetError
from gmkit.messages import Message, from_json
from gmkit.sheets import load_sheet
from gmkit.systems.acting import Due
from gmkit.systems.turns import turn_structure

_HANDLERS = HANDLERS  # every kind's fold (the units' too: gmkit.encounter._units, imported below)
TICKS: tuple[str, ...] = get_args(Tick)


TURN_CHANGES = ("started", "turn", "delayed")
"""Event kinds that change whose turn (or phase) it is: each replaces the rolls due with its
own ``due`` (what the command asked the rules for at that moment, and the decisions still
owed). An event with ``decisions`` (an attack or effects leaving a critical to the GM) adds
them to the list."""


def fold(state: EncounterState, event: Event) -> EncounterState:
    kind = event.get("kind")
    handler = _HANDLERS.get(kind)  # type: ignore[arg-type]  # (an unhashable kind: TypeError)
    if handler is None:
        raise RulesError(Message("encounter.unknown_event", kind=repr(kind)))
    new = handler(state, event)
    revealed = event.get("reveals")
    if revealed:  # an attack gives a hidden attacker away (the command said whom)
        new = _reveal(new, revealed)
    # one copy of the state for what every event changes (its count, the rolls due)
    due: tuple[Due, ...] | None = None
    if kind in TURN_CHANGES or event.get("delays"):
        due = tuple(Due.from_json(item) for item in event.get("due", ()))
    decisions = event.get("decisions")
    if decisions:  # what the GM owes a decision on (a critical): listed too
        owed = tuple(Due.from_json(item) for item in decisions)
        due = (new.due if due is None else due) + owed
    if due is None:
        return evolve(new, events=state.events + 1)
    return evolve(new, events=state.events + 1, due=due)


def _combatant(state: EncounterState, ident: Any, *, present: bool = True) -> Combatant:
    if ident not in state.combatants:
        raise RulesError(Message("encounter.no_id", ident=repr(ident)))
    found = state.combatants[ident]
    if present and found.removed:
        raise RulesError(Message("encounter.removed", name=found.name))
    return found


# --- who is in the fight -------------------------------------------------------------


@handles("added")
def _added(state: EncounterState, event: Event) -> EncounterState:
    ident = str(event["id"])
    if ident in state.combatants:
        raise RulesError(Message("encounter.id_taken", ident=repr(ident)))
    sheet = load_sheet(dict(event["sheet"]))
    if sheet.game != state.game:
        raise RulesError(
            Message(
                "encounter.sheet_of_other_game",
                name=sheet.name,
                sheet_game=sheet.game,
                game=state.game,
            )
        )
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
        raise RulesError(Message("encounter.still_in_fight", name=combatant.name))
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
        raise RulesError(error.message) from None


@handles("renamed")
def _renamed(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"], present=False)
    return state.with_combatant(_edited(combatant, {"name": event["name"]}))


def _reveal(state: EncounterState, idents: Any) -> EncounterState:
    """``state`` with the combatants ``idents`` no longer hidden."""
    for ident in idents:
        found = state.combatants.get(str(ident))
        if found is not None and found.hidden:
            state = state.with_combatant(evolve(found, hidden=False))
    return state


@handles("revealed")
def _revealed(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    if not combatant.hidden:
        raise RulesError(Message("encounter.not_hidden", name=combatant.name))
    return state.with_combatant(evolve(combatant, hidden=False))


@handles("sheet_edited")
def _sheet_edited(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"], present=False)
    changes = dict(event["changes"])
    if "game" in changes and changes["game"] != combatant.sheet.game:
        raise RulesError(
            Message("encounter.sheet_stays", name=combatant.name, game=combatant.sheet.game)
        )
    return state.with_combatant(_edited(combatant, changes))


@handles("setting")
def _setting(state: EncounterState, event: Event) -> EncounterState:
    key, value = str(event["key"]), event["value"]
    setting_value(key, value)
    return evolve(state, settings={**state.settings, key: value})


@handles("note")
def _note(state: EncounterState, event: Event) -> EncounterState:
    return state


# --- initiative and the turn ---------------------------------------------------------


@handles("initiative")
def _initiative(state: EncounterState, event: Event) -> EncounterState:
    if turn_structure(state.game).kind != "initiative":
        raise RulesError(Message("encounter.initiative_by_sides", game=state.game))
    if not event["entries"]:
        raise RulesError(Message("encounter.initiative_no_one"))
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
        raise RulesError(Message("encounter.started_already"))
    surprised = set(event.get("surprised", ()))
    combatants = {
        ident: evolve(c, surprised=ident in surprised) for ident, c in state.combatants.items()
    }
    new = evolve(state, combatants=combatants, round=1, turn=0, phase=0)
    if not state.present:
        raise RulesError(Message("encounter.start_no_one"))
    if turn_structure(state.game).kind == "initiative":
        order = tuple(str(ident) for ident in event["order"])
        for ident in order:
            _combatant(state, ident)
        new = evolve(new, order=order)
        return begin_turn(new, skip_first=True)
    sides = tuple(str(side) for side in event.get("sides") or state.sides)
    new = evolve(new, sides=sides)
    return begin_side_turn(new, [])


@handles("turn")
def _turn(state: EncounterState, event: Event) -> EncounterState:
    if not state.started:
        raise RulesError(Message("encounter.not_started"))
    structure = turn_structure(state.game)
    if structure.kind == "sides":
        return side_turn(state, int(event.get("direction", 1)), len(structure.phases))
    if int(event.get("direction", 1)) < 0:
        return previous_turn(state)
    return advance(state)


# --- the action budget ---------------------------------------------------------------


@handles("spent")
def _spent(state: EncounterState, event: Event) -> EncounterState:
    return _spend(state, event, before_reveals="reveals" not in event)


def _spend(state: EncounterState, event: Event, *, before_reveals: bool) -> EncounterState:
    """An action or reaction spent from the budget. What gives a hidden combatant away is the
    event's ``reveals`` (:func:`fold`); an event written before that field
    (``before_reveals``) gives the spender away on any action but a free one, as those logs
    were played."""
    combatant = _combatant(state, event["id"])
    legacy = before_reveals
    if not state.started:
        raise RulesError(Message("encounter.spend_not_started"))
    pools = {str(k): int(v) for k, v in dict(event.get("pools", {})).items()}
    if event.get("reaction"):
        field_name = "reactions"
    elif event.get("delayed_action"):
        if not combatant.delayed:
            raise RulesError(Message("encounter.delay_not_waiting", name=combatant.name))
        # the delayed half action was paid for when the actor delayed: it ends the wait
        hidden = combatant.hidden and not legacy
        return state.with_combatant(evolve(combatant, delayed=False, hidden=hidden))
    else:
        field_name = "spent"
    lapsed = [str(name) for name in event.get("lapsed", ())]
    if lapsed:  # what the reaction (or action) ended: Aim's bonus
        combatant = evolve(
            combatant,
            conditions={k: v for k, v in combatant.conditions.items() if k not in lapsed},
        )
    spent = dict(getattr(combatant, field_name))
    for pool, cost in pools.items():
        spent[pool] = spent.get(pool, 0) + cost
    changed = evolve(combatant, **{field_name: spent})
    if legacy and field_name == "spent" and event.get("type") != "free":
        changed = evolve(changed, hidden=False)  # a log written before ``reveals``
    return state.with_combatant(changed)


@handles("delayed")
def _delayed(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    if not event.get("waiting", True):
        return state.with_combatant(evolve(combatant, delayed=False))
    current = state.current
    if current is None or current.id != combatant.id:
        raise RulesError(Message("encounter.delay_not_turn", name=combatant.name))
    spent = dict(combatant.spent)
    for pool, cost in dict(event.get("pools", {})).items():
        spent[str(pool)] = spent.get(str(pool), 0) + int(cost)
    # Delay is a half action that ends the turn, keeping a half action for later (004, 002)
    waiting = evolve(combatant, delayed=True, spent=spent)
    return advance(state.with_combatant(waiting))


@handles("readied")
def _readied(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    return state.with_combatant(evolve(combatant, readied=str(event.get("action", ""))))


@handles("trigger")
def _trigger(state: EncounterState, event: Event) -> EncounterState:
    owner = _combatant(state, event["id"])
    expires = event.get("expires_round")
    if not str(event.get("trigger", "")).strip():
        raise RulesError(Message("encounter.trigger_blank"))
    if expires is not None and int(expires) < max(state.round, 1):
        raise RulesError(Message("encounter.trigger_expires_early", expires=shown(expires)))
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
        raise RulesError(Message("encounter.trigger_none", index=index))
    return evolve(state, triggers=state.triggers[:index] + state.triggers[index + 1 :])


# --- conditions and effects ----------------------------------------------------------


@handles("condition")
def _condition(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    rounds = event.get("rounds")
    ticks = event.get("ticks", "end_of_turn")
    name = str(event["name"]).strip()
    if not name:
        raise RulesError(Message("encounter.condition_blank"))
    if rounds is not None and int(rounds) < 1:
        raise RulesError(Message("encounter.rounds_at_least_one", rounds=shown(rounds)))
    if ticks not in TICKS:
        raise RulesError(Message("encounter.ticks_choice", ticks=repr(ticks), choices=TICKS))
    condition = Condition(
        name,
        None if rounds is None else int(rounds),
        ticks,
        from_json(event.get("reminder", "")),
    )
    return state.with_combatant(combatant.with_condition(condition))


@handles("condition_removed")
def _condition_removed(state: EncounterState, event: Event) -> EncounterState:
    combatant = _combatant(state, event["id"])
    if event["name"] not in combatant.conditions:
        raise RulesError(
            Message(
                "encounter.condition_absent",
                name=combatant.name,
                condition=condition_name(state.game, str(event["name"])),
            )
        )
    return state.with_combatant(combatant.without_condition(str(event["name"])))


@handles("attack")
def _attack(state: EncounterState, event: Event) -> EncounterState:
    """An attack: the action it spent from the attacker's budget (``spent``, an attack given as
    one command with its action), then the effects it applied."""
    _combatant(state, event["attacker"])
    if event.get("spent"):
        state = _spend(state, event["spent"], before_reveals="reveals" not in event)
    if event.get("applied"):
        return _apply(state, event)
    return state


@handles("effects")
def _effects(state: EncounterState, event: Event) -> EncounterState:
    return _apply(state, event)


@handles("action")
def _action(state: EncounterState, event: Event) -> EncounterState:
    """A non-attack action: what it spent, the effects it applied, then what it does to the
    turn (a delay ends the actor's turn, keeping a half action; a readied action)."""
    actor = _combatant(state, event["id"])
    if event.get("spent"):
        state = _spend(state, event["spent"], before_reveals="reveals" not in event)
    state = _apply(state, event)
    if event.get("readies"):
        actor = state.combatants[actor.id]
        state = state.with_combatant(evolve(actor, readied=str(event["readies"])))
    if event.get("delays"):
        # the half action Delay costs was spent above: the wait keeps the other half
        state = _delayed(state, {"id": actor.id, "waiting": True, "pools": {}})
    return state


def _due_at(state: EncounterState, event: Event) -> Due:
    index = int(event["index"])
    if not 0 <= index < len(state.due):
        raise RulesError(Message("encounter.due_none", index=index))
    due = state.due[index]
    if due.bearer != event.get("id") or due.rule != event.get("rule"):
        raise RulesError(Message("encounter.due_changed", index=index))
    return due


@handles("due_rolled")
def _due_rolled(state: EncounterState, event: Event) -> EncounterState:
    """A roll due, rolled: it leaves the list and its effects apply."""
    _due_at(state, event)
    index = int(event["index"])
    state = evolve(state, due=state.due[:index] + state.due[index + 1 :])
    return _apply(state, event)


@handles("due_dismissed")
def _due_dismissed(state: EncounterState, event: Event) -> EncounterState:
    """A roll due the GM passes over (an optional one, or the GM's call)."""
    _due_at(state, event)
    index = int(event["index"])
    return evolve(state, due=state.due[:index] + state.due[index + 1 :])


def _apply(state: EncounterState, event: Event) -> EncounterState:
    """The application the event recorded; an older event without one, through the rules."""
    if "changes" in event:
        return apply_recorded(state, event)
    return apply_effects(state, event.get("effects", ()))


# the units' events (their handlers register on import: gmkit.encounter._units)
from gmkit.encounter import _units as _units  # noqa: E402
