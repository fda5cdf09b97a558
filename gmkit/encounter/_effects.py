"""Effects in the encounter: applied once, when the command is given, and recorded in its event.

A command that applies effects (``attack(..., apply=True)``, ``apply_effects``) works out here,
against the state of that moment, what they change (:func:`application`):

- each effect goes first to the game's rules (``apply_effect`` of its system, see
  :class:`~gmkit.systems.base.GameSystem`): a new sheet and the follow-ups it caused, which are
  applied right after it (unless the effects already hold the same follow-up next: an
  attack's critical, rolled by the resolver);
- an effect the rules leave alone (None), or every effect in a game without ``apply_effect``,
  the encounter applies itself (:func:`apply_common`): conditions, reactions, jams, and counters
  for the rest (``damage`` in the D6 games, ``ammo spent: <weapon>``...).

The event records what that gave (:meth:`Application.record`)::

    "changes":    [{"id": "ungor-snitch", "sheet": {...the whole sheet after...}}, ...]
    "generic":    [{"kind": "condition", "target": "ungor-snitch", ..., "ticks": ...}, ...]
    "follow_ups": [{"kind": "critical", "target": "ungor-snitch", ...}, ...]

``changes`` are the sheets the rules changed, as they are after every effect. ``generic`` are
the effects the encounter applied itself, in order, follow-ups included (notes too, for the
log: they change nothing), a condition with the moment its rounds tick (``ticks``): its kind's
declared one (a 40k stun: the end of the bearer's turn), else the end of the bearer's turns,
or their start for one gained in its own turn (or side's): "until your next turn" (rounds 1).
``follow_ups`` are the follow-ups the rules caused and that were applied, wherever they went
(for the log only). Folding such an event only sets those values (:func:`apply_recorded`): a
replay never runs the rules again, so rules fixed later never rewrite an old fight. An event
written before this format (no ``changes``) is applied as it used to be, through the rules of
the day (:func:`apply_effects`).

An attack's application is ``lenient``: an effect (or a follow-up) that names no combatant of
the encounter (a WFB unit the encounter holds under another name, a sheet the GM renamed) is
not applied, and the event keeps it with the reason, the rest being applied all the same
(``unapplied``, only when there is one; the log's outcome ends "not applied: ..."; an attack
that is not applied now keeps there the effects that could never be)::

    "unapplied":  [{"kind": "damage", "target": "Reikland Swordsmen", ...,
                    "reason": "no combatant 'Reikland Swordsmen'"}]

Effects the GM types (``apply_effects``) naming no combatant are refused instead.

An effect's ``note`` and an unapplied effect's ``reason`` are kept as a message's id and
parameters (:meth:`~gmkit.messages.Message.to_json`), so the log reads them in the reader's
language; an older event's strings read as they are.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, get_args

from gmkit.encounter._state import Combatant, Condition, EncounterState, Tick, evolve
from gmkit.encounter._terms import effect_kind_name
from gmkit.errors import GmkitError, RulesError, SheetError
from gmkit.messages import Message, Param, Text, from_json
from gmkit.sheets._recorded import as_record, from_record
from gmkit.sheets.base import Sheet
from gmkit.systems._conditions import book
from gmkit.systems.base import Effect
from gmkit.systems.turns import turn_structure

LIMIT = 500
"""Effects one application may hold, follow-ups included: a guard against rules whose
follow-ups never end."""

RulesApply = Callable[[Sheet, Effect], Any]
TICKS: tuple[str, ...] = get_args(Tick)
CONDITIONS = frozenset({"condition", "injury", "pinned"})
"""Kinds the encounter keeps as a condition (whose record says when its rounds tick)."""


@dataclass(frozen=True)
class Application:
    """What applying some effects changed: the sheets after, and the effects the encounter
    applied itself (targets are the combatants' ids)."""

    changes: tuple[tuple[str, Sheet], ...] = ()
    generic: tuple[tuple[Effect, Tick], ...] = ()  # each with the moment its rounds tick
    follow_ups: tuple[Effect, ...] = ()
    unapplied: tuple[tuple[Effect, Text], ...] = ()  # each with the reason (lenient only)

    def record(self) -> dict[str, Any]:
        """The event's fields (JSON-ready); ``unapplied`` only when some effect was not."""
        found: dict[str, Any] = {
            "changes": [{"id": ident, "sheet": as_record(sheet)} for ident, sheet in self.changes],
            "generic": [
                {**effect_record(effect), "ticks": ticks}
                if effect.kind in CONDITIONS
                else effect_record(effect)
                for effect, ticks in self.generic
            ],
            "follow_ups": [effect_record(effect) for effect in self.follow_ups],
        }
        if self.unapplied:
            found["unapplied"] = unapplied_records(self.unapplied)
        return found


def unapplied_records(unapplied: Iterable[tuple[Effect, Text]]) -> list[dict[str, Any]]:
    """Effects not applied, each with its ``reason`` (JSON-ready)."""
    return [{**effect_record(effect), "reason": _json(reason)} for effect, reason in unapplied]


def not_applied(unapplied: Iterable[Mapping[str, Any]]) -> Text:
    """What the log says of effects not applied: "not applied: no combatant 'X'" ("" if none);
    each reason once (a reason stored as a message's JSON, or an older event's string)."""
    reasons = tuple(dict.fromkeys(from_json(item.get("reason", "")) for item in unapplied))
    return Message("encounter.not_applied", reasons=reasons) if reasons else ""


def effect_record(effect: Effect) -> dict[str, Any]:
    """An effect as an event keeps it (its note as a message's id and parameters)."""
    record = asdict(effect)
    record["note"] = _json(effect.note)
    return record


def _json(text: Any) -> Any:
    return text.to_json() if isinstance(text, Message) else text


def shown(value: Any) -> Param:
    """A value from an event as a message's parameter: a number as it is, else its text."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value if math.isfinite(value) else str(value)
    return str(value)


def as_effect(data: Effect | Mapping[str, Any]) -> Effect:
    if isinstance(data, Effect):
        return data
    try:
        fields = dict(data)
        if "note" in fields:
            fields["note"] = from_json(fields["note"])
        return Effect(**fields)
    except TypeError as error:
        raise RulesError(Message("encounter.effect_problem", problem=str(error))) from None


def find_target(state: EncounterState, target: str) -> Combatant | None:
    """The combatant an effect's ``target`` names (its id, else its name), or None."""
    if target in state.combatants:
        return state.combatants[target]
    for combatant in state.combatants.values():
        if combatant.name == target:
            return combatant
    return None


def no_combatant(target: str) -> Message:
    """Why an effect naming ``target`` was not applied: "no combatant 'X'"."""
    return Message("encounter.no_combatant", target=repr(target))


def by_name_or_id(state: EncounterState, target: str) -> Combatant:
    found = find_target(state, target)
    if found is None:
        raise RulesError(Message("encounter.effect_problem", problem=no_combatant(target)))
    return found


def rules_apply(game: str) -> RulesApply | None:
    """The game's ``apply_effect``, or None when its rules have none."""
    try:
        from gmkit.systems import system

        rules = system(game)
    except (ImportError, AttributeError, GmkitError):
        return None
    found: RulesApply | None = getattr(rules, "apply_effect", None)
    return found


def application(
    state: EncounterState,
    effects: Iterable[Effect | Mapping[str, Any]],
    *,
    lenient: bool = False,
) -> Application:
    """What ``effects`` change in ``state`` (nothing is changed: see :func:`apply_recorded`).

    RulesError when the rules refuse an effect, or one names no combatant (the command is then
    refused and nothing is written); ``lenient`` (an attack's effects): an effect or follow-up
    naming no combatant is left out, in ``unapplied`` with the reason, and the rest applied.
    """
    queue = [as_effect(effect) for effect in effects]
    rules: RulesApply | None = None
    asked = False
    sheets: dict[str, Sheet] = {}
    generic: list[tuple[Effect, Tick]] = []
    follow_ups: list[Effect] = []
    unapplied: list[tuple[Effect, Text]] = []
    index = 0
    while index < len(queue):
        if len(queue) > LIMIT:
            raise RulesError(Message("encounter.effects_limit", limit=LIMIT))
        effect = queue[index]
        index += 1
        found = find_target(state, effect.target)
        if found is None and lenient:
            unapplied.append((effect, no_combatant(effect.target)))
            continue
        combatant = found if found is not None else by_name_or_id(state, effect.target)
        answer = None
        if effect.kind != "note":
            if not asked:
                rules, asked = rules_apply(state.game), True
            if rules is not None:
                answer = _ask(rules, sheets.get(combatant.id, combatant.sheet), effect)
        if answer is None:
            generic.append((evolve(effect, target=combatant.id), _ticks(state, combatant, effect)))
            continue
        sheet, caused = answer
        if sheet.game != state.game:
            raise RulesError(
                Message("encounter.rules_gave_other_game", sheet_game=sheet.game, game=state.game)
            )
        sheets[combatant.id] = sheet
        following = queue[index] if index < len(queue) else None
        added = []
        for item in caused:
            item = as_effect(item)
            aimed = find_target(state, item.target)
            if aimed is None and lenient:
                unapplied.append((item, no_combatant(item.target)))
                continue
            item = evolve(item, target=by_name_or_id(state, item.target).id)
            if following is not None and _same(state, item, following):
                continue  # the effects hold it already, next: not twice
            added.append(item)
        follow_ups.extend(added)
        queue[index:index] = added
    changes = tuple(
        (ident, sheet) for ident, sheet in sheets.items() if sheet != state.combatants[ident].sheet
    )
    return Application(changes, tuple(generic), tuple(follow_ups), tuple(unapplied))


def _ticks(state: EncounterState, bearer: Combatant, effect: Effect) -> Tick:
    """When the rounds of a condition ``bearer`` gains now tick: its kind's declared ``ticks``,
    else the start of its turns if gained in its own turn (or its side's), else their end."""
    name = effect.condition or effect.kind
    if effect.kind in CONDITIONS and (found := book(state.game).ticks(name)):
        return found
    if not state.started:
        return "end_of_turn"
    current = state.current
    acting = current.id == bearer.id if current is not None else bearer.side == state.current_side
    return "start_of_turn" if acting else "end_of_turn"


def _ask(rules: RulesApply, sheet: Sheet, effect: Effect) -> tuple[Sheet, tuple[Any, ...]] | None:
    try:
        answer = rules(sheet, effect)
    except RulesError:
        raise
    except (GmkitError, SheetError) as error:
        raise RulesError(
            Message(
                "encounter.kind_problem", kind=effect_kind_name(effect.kind), problem=error.message
            )
        ) from None
    if answer is None:
        return None
    new, caused = answer
    if not isinstance(new, Sheet):
        raise RulesError(
            Message(
                "encounter.rules_gave_no_sheet",
                kind=effect_kind_name(effect.kind),
                type=type(new).__name__,
            )
        )
    return new, tuple(caused)


def _same(state: EncounterState, first: Effect, second: Effect) -> bool:
    if (first.kind, first.location) != (second.kind, second.location):
        return False
    try:
        return by_name_or_id(state, first.target).id == by_name_or_id(state, second.target).id
    except RulesError:
        return False


def apply_recorded(state: EncounterState, event: Mapping[str, Any]) -> EncounterState:
    """Set what an event recorded: its ``changes`` (sheets), then its ``generic`` effects."""
    for change in event.get("changes", ()):
        ident = change.get("id")
        if ident not in state.combatants:
            raise RulesError(Message("encounter.no_id", ident=repr(ident)))
        try:
            sheet = from_record(change["sheet"])
        except SheetError as error:
            raise RulesError(error.message) from None
        if sheet.game != state.game:
            raise RulesError(
                Message(
                    "encounter.sheet_of_other_game",
                    name=sheet.name,
                    sheet_game=sheet.game,
                    game=state.game,
                )
            )
        state = state.with_combatant(evolve(state.combatants[ident], sheet=sheet))
    for data in event.get("generic", ()):
        fields = dict(data)
        ticks = fields.pop("ticks", "end_of_turn")
        effect = as_effect(fields)
        combatant = by_name_or_id(state, effect.target)
        state = state.with_combatant(apply_common(state.game, combatant, effect, ticks))
    return state


def set_application(state: EncounterState, applied: Application) -> EncounterState:
    """``state`` with ``applied`` set (the same as folding its record)."""
    return apply_recorded(state, applied.record())


def apply_effects(state: EncounterState, effects: Any) -> EncounterState:
    """Apply ``effects`` through the rules of the day (events without a recorded
    application, written before it was recorded)."""
    return set_application(state, application(state, effects))


AMMO_SPENT = "ammo spent: "
"""The counter of rounds fired from a weapon, by its name: ``ammo spent: Lasgun``."""


def with_rounds_spent(sheet: Any, counters: Mapping[str, int]) -> Any:
    """``sheet`` with each weapon that has a clip holding what is left of it once the rounds
    the encounter counted as fired from it (``counters["ammo spent: <weapon>"]``) are taken
    from ``loaded``; the same sheet when none was fired."""
    fired = {
        key[len(AMMO_SPENT) :]: int(count)
        for key, count in counters.items()
        if key.startswith(AMMO_SPENT) and count
    }
    weapons = getattr(sheet, "weapons", None)
    if not fired or not weapons:
        return sheet
    changed = [
        weapon.model_copy(update={"loaded": max(0, int(weapon.loaded) - fired[weapon.name])})
        if weapon.name in fired and _has_clip(weapon)
        else weapon
        for weapon in weapons
    ]
    return sheet.model_copy(update={"weapons": changed})


def _has_clip(weapon: Any) -> bool:
    return bool(getattr(weapon, "clip", None)) and hasattr(weapon, "loaded")


def apply_common(
    game: str, combatant: Combatant, effect: Effect, ticks: Tick = "end_of_turn"
) -> Combatant:
    """An effect the rules left to the encounter: the same in every game; kinds it does not
    know are counted for the GM (``counters[kind] += amount``). A condition's rounds tick at
    ``ticks``."""
    match effect.kind:
        case "condition" | "injury" | "pinned":
            name = effect.condition or effect.kind
            if ticks not in TICKS:
                raise RulesError(
                    Message("encounter.ticks_choice", ticks=repr(ticks), choices=TICKS)
                )
            return combatant.with_condition(Condition(name, effect.rounds, ticks))
        case "remove_condition":
            # "jammed" with a weapon lifts the encounter's "jammed: <weapon>" (a cleared jam)
            name = effect.condition or ""
            if effect.weapon and f"{name}: {effect.weapon}" in combatant.conditions:
                name = f"{name}: {effect.weapon}"
            return combatant.without_condition(name)
        case "ammo":
            return combatant.counted(f"{AMMO_SPENT}{effect.weapon}", effect.amount)
        case "jam":
            return combatant.with_condition(Condition(f"jammed: {effect.weapon}", None, "never"))
        case "reaction":
            # spent from the game's round pools (a 40k dodge spends the one reaction), else
            # under its own name
            name = effect.condition or "reaction"
            costs = turn_structure(game).reaction_costs.get(name) or {name: 1}
            spent = {**combatant.reactions}
            for pool, cost in costs.items():
                spent[pool] = spent.get(pool, 0) + cost
            return evolve(combatant, reactions=spent)
        case "cover":
            return combatant.counted(f"cover lost: {effect.location}", effect.amount)
        case "note":
            return combatant
        case _:
            return combatant.counted(effect.kind, effect.amount)
