"""The log in the reader's language: the one line an event shows, and an attack's steps.

An event keeps its texts as messages' JSON (an attack's ``summary`` and ``steps``, an effect's
``note``, a reminder) or as plain strings (a note the GM typed; every text of a log written
before messages): both read here, in English or Spanish.

- :func:`event_text`: the event's own text (an attack's summary, a note's text, the note of
  applied effects), else a short description of what happened ("Turn: round 2, Sergeant Varro
  Tull"). Given the states before and after the event (what :func:`~gmkit.encounter._views.
  combat_log` reads), it names combatants and the turn; without them, it says what it can
  from the event alone (ids for names).
- :func:`step_texts`: an attack event's steps, "Title: outcome (detail)" each.

Why over 400 lines: one short function per event kind, the words for what :mod:`fold
<gmkit.encounter._fold>` does with it; they share the context that names the combatants.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gmkit.encounter._outcomes import attack_outcome, consequences, stopped
from gmkit.encounter._state import EncounterState
from gmkit.encounter._table import troop_type_term
from gmkit.encounter._terms import action_name, condition_name, phase_name
from gmkit.messages import Message, Text, as_message, catalogs, from_json, render
from gmkit.systems.turns import action_type_name, pool_name, turn_structure

Event = Mapping[str, Any]


class _Context:
    """The states around an event, for names and the turn."""

    def __init__(self, before: EncounterState | None, after: EncounterState | None) -> None:
        self.before, self.after = before, after
        known = before if before is not None else after
        self.game = known.game if known is not None else None

    def name(self, ident: Any) -> str:
        """The combatant's name at the time of the event (its id without the states)."""
        for state in (self.before, self.after):
            if state is not None and ident in state.combatants:
                return state.combatants[ident].name
        return str(ident) if ident is not None else ""

    def names(self, idents: Any) -> tuple[str, ...]:
        return tuple(self.name(ident) for ident in idents or ())

    def condition(self, key: str) -> Message:
        return condition_name(self.game, key) if self.game else Message.verbatim(key)


Describe = Callable[[Event, _Context], Text]
_DESCRIBED: dict[str, Describe] = {}


def _describes(*kinds: str) -> Callable[[Describe], Describe]:
    def register(function: Describe) -> Describe:
        for kind in kinds:
            _DESCRIBED[kind] = function
        return function

    return register


def event_message(
    event: Event,
    *,
    before: EncounterState | None = None,
    after: EncounterState | None = None,
) -> Text:
    """The line a log shows for ``event``, as a message (a string from an older log)."""
    if event.get("kind") == "attack":  # its summary, and what it left (:mod:`.outcomes`)
        return _attack(event, _Context(before, after))
    for key in ("summary", "text", "note"):
        found = event.get(key)
        if found:
            return from_json(found)
    describe = _DESCRIBED.get(str(event.get("kind")))
    if describe is None:
        return Message.verbatim(str(event.get("kind", "")))
    return describe(event, _Context(before, after))


def event_text(
    event: Event,
    language: str = "en",
    *,
    before: EncounterState | None = None,
    after: EncounterState | None = None,
) -> str:
    """The line a log shows for ``event`` in ``language`` (see the module docstring)."""
    return render(event_message(event, before=before, after=after), language)


def step_texts(event: Event, language: str = "en") -> list[str]:
    """An attack event's steps in ``language``, "Title: outcome (detail)" each (a step an older
    log kept as a string, as it is)."""
    lines = []
    for step in event.get("steps", ()):
        if not isinstance(step, Mapping):
            lines.append(str(step))
            continue
        title = render(from_json(step.get("title", "")), language)
        outcome = render(from_json(step.get("outcome", "")), language)
        detail = render(from_json(step.get("detail", "")), language)
        lines.append(f"{title}: {outcome}" + (f" ({detail})" if detail else ""))
    return lines


def _joined(*parts: Text | None) -> Text:
    kept = tuple(as_message(part) for part in parts if part)
    return kept[0] if len(kept) == 1 else Message("common.join", parts=kept)


# --- who is in the fight -----------------------------------------------------------------


@_describes("added")
def _added(event: Event, context: _Context) -> Text:
    ident = str(event.get("id", ""))
    sheet = event.get("sheet") or {}
    after = context.after
    if after is not None and ident in after.combatants:
        name, side = after.combatants[ident].name, after.combatants[ident].side
    else:
        name = str(sheet.get("name") or ident or "")
        side = str(event.get("side") or sheet.get("side") or "(no side)")
    chosen = "encounter.event.added_hidden" if event.get("hidden") else "encounter.event.added"
    return Message(chosen, name=name, side=side)


@_describes("removed", "revived", "revealed")
def _one_combatant(event: Event, context: _Context) -> Text:
    return Message(f"encounter.event.{event['kind']}", name=context.name(event.get("id")))


@_describes("renamed")
def _renamed(event: Event, context: _Context) -> Text:
    ident = str(event.get("id", ""))
    old = context.before.combatants.get(ident) if context.before is not None else None
    return Message(
        "encounter.event.renamed",
        old=old.name if old is not None else ident,
        name=str(event.get("name", "")),
    )


@_describes("sheet_edited")
def _sheet_edited(event: Event, context: _Context) -> Text:
    fields = tuple(str(key) for key in dict(event.get("changes") or {}))
    return Message(
        "encounter.event.sheet_edited", name=context.name(event.get("id")), fields=fields
    )


@_describes("setting")
def _setting(event: Event, context: _Context) -> Text:
    key, value = str(event.get("key", "")), event.get("value")
    named = f"encounter.setting_name.{key}"
    name: Text = Message(named) if catalogs().english(named) is not None else key
    shown: Any = tuple(str(v) for v in value) if isinstance(value, list) else str(value)
    if isinstance(value, bool):
        shown = Message(f"encounter.setting_value.{'yes' if value else 'no'}")
    elif isinstance(value, str) and catalogs().english(f"encounter.setting_value.{value}"):
        shown = Message(f"encounter.setting_value.{value}")
    return Message("encounter.event.setting", key=name, value=shown)


# --- initiative and the turn -------------------------------------------------------------


@_describes("initiative")
def _initiative(event: Event, context: _Context) -> Text:
    entries = list(event.get("entries") or ())
    scores = tuple(
        Message("encounter.event.score", name=context.name(e.get("id")), score=int(e["score"]))
        for e in entries
    )
    rolled = any(entry.get("roll") for entry in entries)
    chosen = "encounter.event.initiative_rolled" if rolled else "encounter.event.initiative_set"
    return Message(chosen, scores=scores)


@_describes("started")
def _started(event: Event, context: _Context) -> Text:
    order: tuple[str, ...] = context.names(event.get("order"))
    if not order:
        after = context.after
        order = tuple(event.get("sides") or (after.sides if after is not None else ()))
    surprised = context.names(event.get("surprised"))
    return _joined(
        Message("encounter.event.started"),
        Message("encounter.event.order", names=order) if order else None,
        Message("encounter.event.surprised", names=surprised) if surprised else None,
    )


@_describes("turn")
def _turn(event: Event, context: _Context) -> Text:
    back = int(event.get("direction", 1)) < 0
    after = context.after
    if after is None or not after.started:
        return Message("encounter.event.previous_turn" if back else "encounter.event.next_turn")
    current = after.current
    if current is not None:
        chosen = "encounter.event.turn_back" if back else "encounter.event.turn"
        return Message(chosen, round=after.round, name=current.name)
    phases = turn_structure(after.game).phases
    phase = phases[after.phase] if 0 <= after.phase < len(phases) else str(after.phase)
    chosen = "encounter.event.turn_back_side" if back else "encounter.event.turn_side"
    return Message(
        chosen,
        round=after.round,
        side=after.current_side or "",
        phase=phase_name(phase),
    )


# --- the action budget, delay, ready, triggers -------------------------------------------


@_describes("spent")
def _spent(event: Event, context: _Context) -> Text:
    name = context.name(event.get("id"))
    spent: Message
    if event.get("reaction"):
        spent = Message(
            "encounter.event.reaction", name=name, reaction=pool_name(event["reaction"])
        )
    elif event.get("delayed_action"):
        spent = Message("encounter.event.spent_delayed", name=name)
    else:
        action_type = action_type_name(str(event.get("type", "")))
        action = str(event.get("action") or "")
        if action and context.game:
            spent = Message(
                "encounter.event.spent_action",
                name=name,
                action_type=action_type,
                action=action_name(context.game, action),
            )
        elif action:
            spent = Message(
                "encounter.event.spent_action",
                name=name,
                action_type=action_type,
                action=action,
            )
        else:
            spent = Message("encounter.event.spent", name=name, action_type=action_type)
    problems = tuple(as_message(from_json(p)) for p in event.get("problems") or ())
    if "override" not in event or not problems:
        return spent
    overridden = Message(
        "encounter.event.override", reason=str(event["override"]), problems=problems
    )
    return _joined(spent, overridden)


@_describes("delayed")
def _delayed(event: Event, context: _Context) -> Text:
    chosen = (
        "encounter.event.delayed" if event.get("waiting", True) else "encounter.event.delay_ended"
    )
    return Message(chosen, name=context.name(event.get("id")))


@_describes("readied")
def _readied(event: Event, context: _Context) -> Text:
    name, action = context.name(event.get("id")), str(event.get("action") or "")
    if not action:
        return Message("encounter.event.unreadied", name=name)
    return Message("encounter.event.readied", name=name, action=action)


@_describes("trigger")
def _trigger(event: Event, context: _Context) -> Text:
    name, kind = context.name(event.get("id")), str(event.get("trigger", ""))
    detail = str(event.get("detail") or "")
    declared = (
        Message("encounter.event.trigger_detail", name=name, trigger=kind, detail=detail)
        if detail
        else Message("encounter.event.trigger", name=name, trigger=kind)
    )
    expires = event.get("expires_round")
    until = None if expires is None else Message("encounter.event.until_round", round=int(expires))
    return _joined(declared, until)


@_describes("trigger_done")
def _trigger_done(event: Event, context: _Context) -> Text:
    index = int(event.get("index", 0))
    before = context.before
    if before is None or not 0 <= index < len(before.triggers):
        return Message("encounter.event.trigger_done", index=index)
    trigger = before.triggers[index]
    chosen = (
        "encounter.event.trigger_cancelled"
        if event.get("outcome") == "cancelled"
        else "encounter.event.trigger_fired"
    )
    return Message(chosen, owner=context.name(trigger.owner), trigger=trigger.kind)


# --- conditions, attacks and effects -----------------------------------------------------


@_describes("condition")
def _condition(event: Event, context: _Context) -> Text:
    name = context.name(event.get("id"))
    condition = context.condition(str(event.get("name", "")).strip())
    rounds = event.get("rounds")
    said = (
        Message("encounter.event.condition_lasting", condition=condition, name=name)
        if rounds is None
        else Message(
            "encounter.event.condition", condition=condition, name=name, rounds=int(rounds)
        )
    )
    reminder = from_json(event.get("reminder") or "")
    return _joined(said, reminder)


@_describes("condition_removed")
def _condition_removed(event: Event, context: _Context) -> Text:
    return Message(
        "encounter.event.condition_removed",
        condition=context.condition(str(event.get("name", ""))),
        name=context.name(event.get("id")),
    )


@_describes("attack")
def _attack(event: Event, context: _Context) -> Text:
    """An attack as a GM says it: its summary (or, when the target's reaction stopped every
    hit, who attacked whom and the parry or dodge: the rules' summary reads as a miss), then
    what it left (:func:`~gmkit.encounter._outcomes.consequences`). Without a summary (the
    players' line under a wound band: :func:`~gmkit.encounter._views.told_to_players`), who
    attacked whom with what, hit or miss; an event with neither (an Undo's label), who
    attacked whom with what."""
    names = {
        "attacker": context.name(event.get("attacker")),
        "target": context.name(event.get("target")),
        "weapon": str(event.get("weapon", "")),
    }
    outcome = attack_outcome(event, context.name)
    summary = from_json(event.get("summary") or "")
    if summary and not stopped(event):
        said: Text = summary
    elif outcome is not None:
        said = Message("encounter.event.attack_told", **names, outcome=outcome)
    else:
        said = summary or Message("encounter.event.attack", **names)
    return _joined(said, *consequences(event, context.name, context.condition))


@_describes("effects")
def _effects(event: Event, context: _Context) -> Text:
    targets = dict.fromkeys(context.name(e.get("target")) for e in event.get("effects") or ())
    if not targets:
        return Message("encounter.event.no_effects")
    return Message("encounter.event.effects", names=tuple(targets))


@_describes("action")
def _action(event: Event, context: _Context) -> Text:
    action = str(event.get("action") or "")
    named = action_name(context.game, action) if context.game else Message.verbatim(action)
    return Message("encounter.event.action", name=context.name(event.get("id")), action=named)


@_describes("due_rolled", "due_dismissed")
def _due(event: Event, context: _Context) -> Text:
    index = int(event.get("index", 0))
    before = context.before
    name = context.name(event.get("id"))
    if before is None or not 0 <= index < len(before.due):
        what: Text = Message.verbatim(str(event.get("rule", "")))
    else:
        what = before.due[index].text
    if event.get("kind") == "due_rolled":
        return Message("encounter.event.due_rolled", name=name, due=as_message(what))
    reason = str(event.get("reason") or "")
    said = Message("encounter.event.due_dismissed", name=name, due=as_message(what))
    return _joined(said, Message.verbatim(reason) if reason else None)


# --- units on the table (mass-battle games) -----------------------------------------------


@_describes("unit_set")
def _unit_set(event: Event, context: _Context) -> Text:
    unit = dict(event.get("unit") or {})
    troop_type = str(unit.get("troop_type", ""))
    term = troop_type_term(context.game, troop_type)
    said = Message(
        "encounter.event.unit_set",
        unit=str(unit.get("name", "")),
        side=str(unit.get("side", "")),
        rank_and_file=int(unit.get("rank_and_file", 0)),
        champions=int(unit.get("champions", 0)),
        troop_type=term,
    )
    joined = context.names(unit.get("characters"))
    return _joined(
        said,
        Message("encounter.event.unit_joined", names=joined) if joined else None,
        Message("encounter.event.unit_engaged") if unit.get("engaged") else None,
        Message("encounter.event.unit_out_of_sight") if unit.get("visible") is False else None,
    )


@_describes("unit_removed")
def _unit_removed(event: Event, context: _Context) -> Text:
    return Message("encounter.event.unit_removed", unit=str(event.get("name", "")))


@_describes("unit_engaged")
def _unit_engaged_event(event: Event, context: _Context) -> Text:
    chosen = "engaged_now" if event.get("engaged", True) else "disengaged"
    return Message(f"encounter.event.unit_{chosen}", unit=str(event.get("name", "")))


@_describes("distance")
def _distance(event: Event, context: _Context) -> Text:
    def end(key: Any) -> str:
        for state in (context.before, context.after):
            if state is not None and key in state.units:
                return str(key)
        return context.name(key)

    value = event.get("distance")
    return Message(
        "encounter.event.distance",
        a=end(event.get("a")),
        b=end(event.get("b")),
        distance=float(value) if isinstance(value, int | float) else 0.0,
        unit=_measure(context.game),
    )


def _measure(game: str | None) -> str:
    """The unit the game measures in ("cm"), as its registry entry says."""
    if game is None:
        return ""
    from gmkit.systems._choices import unit

    return unit(game)


@_describes("undo", "redo")
def _marker(event: Event, context: _Context) -> Text:
    return Message(f"encounter.event.{event['kind']}")


__all__ = ["event_message", "event_text", "step_texts"]
