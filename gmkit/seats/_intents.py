"""What a player's phone may ask for: typed intents, read strictly, checked against the
situation on the GM's side.

A phone sends JSON; :func:`read_intent` makes it one of the declared intents or refuses it
(``IntentError``, naming the field and the problem, in the reader's language): a kind it does
not know, a field it does not know or lacks, a value of the wrong type or out of range. An
intent is never a write: the GM's side checks it against the encounter as it is now
(:func:`check_intent`: the seat plays that combatant, the situation lets it do that now, the
target is one it can see and the rules allow) and, once the GM accepts it, makes it exactly the
command the GM would have given (:mod:`gmkit.seats._inbox`).

The intents:

- ``attack``: ``combatant``, ``weapon``, ``mode``, ``action``, ``target`` (ids and the rules'
  names, as the situation offers them), ``dice``: the table's dice typed on the phone, in
  order (a list of whole numbers, 1 to 100 each, 40 at most), or null for "let gmkit roll".
- ``action``: ``combatant``, ``action`` (an id of the game's turn actions), optional
  ``target`` and ``weapon``, ``dice`` as above.
- ``end_turn``: ``combatant``: the player is done (it ends the turn only while it is theirs).

Every intent may carry ``seen``: the number of events the phone had seen; the GM's inbox shows
it, and a check against the encounter as it is now decides (a stale request is refused with
the reason the situation gives, never applied).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gmkit.encounter import Encounter
from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.seats._seats_file import Seat
from gmkit.systems import _choices as choices

MOST_DICE = 40
"""Typed dice an intent may carry (a Deathwatch burst's Righteous Fury chain is well under)."""


class IntentError(GmkitError):
    """A request that is no intent, or one the situation refuses now (the reason in words)."""


@dataclass(frozen=True)
class AttackIntent:
    combatant: str
    weapon: str
    mode: str
    action: str
    target: str
    dice: tuple[int, ...] | None = None
    seen: int = 0
    kind: str = "attack"


@dataclass(frozen=True)
class ActionIntent:
    combatant: str
    action: str
    target: str = ""
    weapon: str = ""
    dice: tuple[int, ...] | None = None
    seen: int = 0
    kind: str = "action"


@dataclass(frozen=True)
class EndTurnIntent:
    combatant: str
    seen: int = 0
    kind: str = "end_turn"


Intent = AttackIntent | ActionIntent | EndTurnIntent

_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {  # kind: (needed, optional)
    "attack": (("combatant", "weapon", "mode", "action", "target"), ("dice", "seen")),
    "action": (("combatant", "action"), ("target", "weapon", "dice", "seen")),
    "end_turn": (("combatant",), ("seen",)),
}


def _refuse(field: str, problem: Message) -> IntentError:
    return IntentError(Message("seats.intent.field", field=field, problem=problem))


def read_intent(data: Any) -> Intent:
    """``data`` (a phone's JSON) as an intent, or IntentError naming what is wrong."""
    if not isinstance(data, Mapping):
        raise _refuse("(request)", Message("seats.intent.not_an_object"))
    kind = data.get("kind")
    if kind not in _FIELDS:
        known = tuple(_FIELDS)
        raise _refuse(
            "kind", Message("seats.intent.unknown_kind", got=repr(kind)[:40], known=known)
        )
    needed, optional = _FIELDS[kind]
    unknown = sorted(str(key)[:40] for key in data if key not in (*needed, *optional, "kind"))
    if unknown:
        raise _refuse(unknown[0], Message("seats.intent.unknown_field"))
    fields: dict[str, Any] = {}
    for name in needed:
        fields[name] = _text(data, name, required=True)
    for name in optional:
        if name == "dice":
            fields[name] = _dice(data.get(name))
        elif name == "seen":
            fields[name] = _count(data.get(name, 0))
        elif name in data:
            fields[name] = _text(data, name, required=False)
    if kind == "attack":
        return AttackIntent(**fields)
    if kind == "action":
        return ActionIntent(**fields)
    return EndTurnIntent(**fields)


def _text(data: Mapping[str, Any], name: str, *, required: bool) -> str:
    value = data.get(name, "")
    if not isinstance(value, str) or len(value) > 200:
        raise _refuse(name, Message("seats.intent.not_a_name"))
    if required and not value.strip():
        raise _refuse(name, Message("seats.intent.missing"))
    return value.strip()


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10**9:
        raise _refuse("seen", Message("seats.intent.not_a_count"))
    return value


def _dice(value: Any) -> tuple[int, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not value or len(value) > MOST_DICE:
        raise _refuse("dice", Message("seats.intent.dice_list", most=MOST_DICE))
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int) or not 1 <= item <= 100:
            raise _refuse("dice", Message("seats.intent.die_value", got=repr(item)[:20]))
    return tuple(value)


def check_intent(encounter: Encounter, seat: Seat, intent: Intent) -> Text:
    """Why the GM's side refuses ``intent`` from ``seat`` now ("" when it may be accepted):
    the seat must play the combatant, and the situation allow what it asks."""
    state = encounter.state
    if seat.encounter != encounter.name:
        return Message("seats.intent.other_encounter")
    if not seat.plays(intent.combatant) or intent.combatant not in state.combatants:
        return Message("seats.intent.not_yours", combatant=intent.combatant[:40])
    combatant = state.combatants[intent.combatant]
    if combatant.removed:
        return Message("commands.removed", name=combatant.name)
    situation = encounter.situation
    footing = situation.of(combatant.id)
    if isinstance(intent, EndTurnIntent):
        turn = situation.actor == combatant.id or (
            situation.side is not None and situation.side == combatant.side
        )
        return "" if turn else Message("seats.intent.not_your_turn", name=combatant.name)
    if footing.why_not is not None:
        return footing.why_not
    if isinstance(intent, ActionIntent):
        permit = footing.actions.get(intent.action)
        if permit is None:
            return Message("seats.intent.no_such_action", action=intent.action[:40])
        return permit.why or ""
    if intent.action not in footing.attacks:
        return Message("seats.intent.no_such_action", action=intent.action[:40])
    why = footing.attacks[intent.action]
    if why is not None:
        return why
    if intent.weapon not in choices.weapons(encounter.game, combatant.sheet):
        return Message("seats.intent.no_such_weapon", weapon=intent.weapon[:40])
    target = state.combatants.get(intent.target)
    if target is None or target.removed or target.hidden or target.id == combatant.id:
        return Message("seats.intent.no_such_target")
    try:
        request = encounter.attack_request(
            combatant.id, intent.weapon, target.id, action=intent.action, mode=intent.mode
        )
        return choices.target_refusal(encounter.game, request)
    except (GmkitError, ValueError) as error:
        return error.message if isinstance(error, GmkitError) else str(error)


__all__ = [
    "MOST_DICE",
    "ActionIntent",
    "AttackIntent",
    "EndTurnIntent",
    "Intent",
    "IntentError",
    "check_intent",
    "read_intent",
]
