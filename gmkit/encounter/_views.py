"""What is shown: the player projection (secrets removed below the widgets), the combat log
as a DataFrame, and per-combatant summaries; texts in the reader's ``language`` (the log's
lines and an attack's steps: :mod:`gmkit.encounter._narration`). Column labels and the
projection's keys are data: the widgets label them.

Why over 400 lines: the players' projection and the GM's log decide together what is told
(one reading of what is secret, hidden or kept back), and keeping them in one module keeps
that reading in one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal

import pandas as pd

from gmkit.encounter._log import MARKERS
from gmkit.encounter._narration import event_message, event_text, step_texts
from gmkit.encounter._outcomes import TOLD_EFFECTS, gained, records
from gmkit.encounter._secrecy import PROJECTED, name_forms, names_in_log, touched
from gmkit.encounter._situation import Situation, situation_of
from gmkit.encounter._state import Combatant, Condition, EncounterState
from gmkit.encounter._table import models_left
from gmkit.encounter._terms import band_name, condition_name
from gmkit.games import health
from gmkit.messages import Message, from_json, render

WoundsShown = Literal["exact", "band", "hidden"]


LOG_COLUMNS = (
    "event",
    "round",
    "turn",
    "kind",
    "actor",
    "target",
    "rolls",
    "dice",
    "outcome",
    "visibility",
)
"""The combat log's columns, as its DataFrame (:func:`combat_log`) and the log's rows show them."""


def wound_band(current: int, maximum: int) -> str:
    """unhurt / hurt / bloodied / down, from what is left of the total."""
    if maximum <= 0 or current >= maximum:
        return "unhurt"
    if current <= 0:
        return "down"
    return "hurt" if current * 2 > maximum else "bloodied"


def player_view(
    state: EncounterState,
    *,
    player_sides: tuple[str, ...] = (),
    language: str = "en",
    situation: Situation | None = None,
    own: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The encounter as players may see it: hidden combatants absent, GM-only sheet fields and
    notes absent, enemy wounds as the GM's ``enemy_wounds`` setting says. Wound bands and
    conditions are in ``language`` (in English, as the state names them: "bloodied"), a
    condition that lasts with its duration ("All Out Attack (1 round)").

    Whose turn, as the situation says (``situation``: the encounter's, else worked out from
    ``state``; the same actor every GM panel names): ``current`` is the name of the combatant
    acting, or None (in a sides game, where ``current_side`` acts and the GM picks which of
    it goes); None with ``hidden_turn`` True while the combatant acting is hidden (the players
    read "an enemy acts": nothing of it, not even its side, until the GM reveals it).
    ``acted``: the names of those seen who have had their go this round (this turn, in a
    sides game). ``own``: the ids of a player's seat: shown as the players' sides are (their
    sheet, exact wounds), whatever the sides, and marked ``own``."""
    shown: WoundsShown = state.settings.get("enemy_wounds", "band")
    sides = tuple(state.settings.get("player_sides", player_sides))
    visible = [c for c in state.present if not c.hidden]
    seen = {c.id for c in visible}
    order = [i for i in state.order if i in seen]
    if situation is None or not situation.is_of(state):
        situation = situation_of(state)
    # a sides game: the side's turn (the GM picks which of it acts; ``acted`` says who has)
    actor = situation.actor if situation.side is None else None
    current = state.combatants.get(actor) if actor else None
    by_turns = bool(state.sides)
    return {
        "game": state.game,
        "round": state.round,
        "current": current.name if current and not current.hidden else None,
        "hidden_turn": bool(current and current.hidden),
        "current_side": state.current_side,
        "acted": [c.name for c in visible if c.id in situation.acted],
        "order": [state.combatants[i].name for i in order],
        "combatants": [
            {
                **_public(state.game, c, c.side in sides or c.id in own, shown, language, by_turns),
                **({"own": True} if c.id in own else {}),
            }
            for c in visible
        ],
    }


def condition_text(game: str, condition: Condition, language: str, by_turns: bool = False) -> str:
    """A condition as the players read it: its name in ``language`` (:func:`condition_name`),
    and what is left of it when it lasts ("All Out Attack (1 round)", "Aturdido (2 asaltos)";
    in a game played by sides' turns, "(2 turns)")."""
    name = condition_name(game, condition.name)
    if condition.rounds is None:
        return render(name, language)
    chosen = (
        "encounter.players.condition_turns" if by_turns else "encounter.players.condition_rounds"
    )
    return render(Message(chosen, condition=name, rounds=int(condition.rounds)), language)


def _public(
    game: str,
    combatant: Combatant,
    friendly: bool,
    shown: WoundsShown,
    language: str,
    by_turns: bool = False,
) -> dict[str, Any]:
    left, total = health(combatant.sheet, combatant.counters)
    entry: dict[str, Any] = {
        "name": combatant.name,
        "side": combatant.side,
        "conditions": [
            condition_text(game, combatant.conditions[key], language, by_turns)
            for key in sorted(combatant.conditions)
        ],
        "sheet": combatant.sheet.public_view() if friendly else {"name": combatant.name},
    }
    if friendly or shown == "exact":
        entry["wounds"] = f"{left}/{total}"
    elif shown == "band":
        entry["wounds"] = render(band_name(wound_band(left, total)), language)
    return entry


_LISTS = PROJECTED  # event fields listing combatant ids: projected, hidden ids removed
_TOLD = ("attack", "action", "effects", "due_rolled")  # events telling what befell a target
_GEAR = ("ammo", "jam", "reaction")  # effects on what one spends: no wound of anyone
_SAID = ("kind", "attacker", "id", "target", "weapon", "action", "visibility")


def kept_hidden(events: Iterable[dict[str, Any]]) -> set[str]:
    """The ids of the combatants added hidden that no public event has revealed since (a
    ``revealed`` event, or an attack that gave its attacker away: its ``reveals``)."""
    hidden: set[str] = set()
    for event in events:
        if event.get("kind") == "added" and event.get("hidden"):
            hidden.add(str(event.get("id")))
        elif event.get("visibility", "public") != "public":
            continue
        elif event.get("kind") == "revealed":
            hidden.discard(str(event.get("id")))
        elif isinstance(event.get("reveals"), list):
            hidden -= {str(ident) for ident in event["reveals"]}
    return hidden


def _units(events: Iterable[dict[str, Any]]) -> dict[str, list[str]]:
    """Each unit's name and the combatant ids it was ever set to hold (its events' records)."""
    found: dict[str, list[str]] = {}
    for event in events:
        unit = event.get("unit")
        if event.get("kind") == "unit_set" and isinstance(unit, dict) and unit.get("name"):
            members = [unit.get("trooper"), *(unit.get("characters") or ())]
            found.setdefault(str(unit["name"]), []).extend(str(m) for m in members if m)
    return found


def public_events(
    events: tuple[dict[str, Any], ...], hidden: Iterable[str] | None = None
) -> list[dict[str, Any]]:
    """The effective events players may read: GM-only events and markers removed, and nothing
    of a hidden combatant (``hidden``: their ids, as the state holds them now; None: those
    added hidden that no public event revealed since, read from ``events``). An event touching
    one in any field (its id anywhere, a unit holding it, a name it went by in a text:
    :func:`~gmkit.encounter._secrecy.touched`) is left out; a start's order and its surprised
    lose their ids."""
    return list(newest_public(events, hidden))[::-1]


def newest_public(
    events: tuple[dict[str, Any], ...],
    hidden: Iterable[str] | None = None,
    kinds: Iterable[str] | None = None,
) -> Iterator[dict[str, Any]]:
    """:func:`public_events`, newest first and one at a time (a log of the last few lines
    reads no further back than it needs); ``kinds``: only events of these kinds."""
    secret = set(hidden) if hidden is not None else kept_hidden(events)
    wanted = set(kinds) if kinds is not None else None
    known = names_in_log(events)
    names = name_forms({ident: known.get(ident, []) for ident in secret}, known)
    units = _units(events) if secret else {}
    for event in reversed(events):
        if wanted is not None and event.get("kind") not in wanted:
            continue
        if event.get("visibility", "public") != "public" or event.get("kind") in MARKERS:
            continue
        if event.get("kind") != "revealed" and secret and touched(event, names, units):
            continue
        lists = {
            key: [i for i in event[key] if str(i) not in secret]
            for key in _LISTS
            if isinstance(event.get(key), list)
        }
        yield {**event, **lists} if lists else event


def told_to_players(
    event: dict[str, Any], shown: WoundsShown, friends: Iterable[str]
) -> dict[str, Any]:
    """``event`` as the players' log tells it, under the GM's ``enemy_wounds`` setting
    (``shown``) as the tracker shows wounds. An attack, action, effects or roll due that
    touches an enemy (its target, or the target of an effect other than ammunition, a jam or
    a reaction spent, is not one of ``friends``: the ids of the players' sides' combatants)
    while enemy wounds show as a band or not at all keeps only who did what to whom (its
    summary, steps, rolls, amounts and notes left out): the log reads "Sergeant Varro Tull
    attacks Cultist Ban: Lasgun", "Effects applied to Cultist Ban", never "8 damage". Any
    other event, or with ``exact``, as it is: the players' own side is told exactly. An
    attack keeps hit or miss, the reaction that stopped it and the conditions it left
    (:mod:`gmkit.encounter._outcomes`): "Sergeant Varro Tull attacks Cultist Ban with Lasgun:
    hits; Cultist Ban: dead". Whom an attack gave away (``reveals``) is the GM's to read."""
    if event.get("reveals"):  # the GM's log says whom it gave away; the players see him
        event = {key: value for key, value in event.items() if key != "reveals"}
    if shown == "exact" or event.get("kind") not in _TOLD:
        return event
    mates = set(friends)
    effects = event.get("effects")
    effects = effects if isinstance(effects, list) else []  # a tampered file: no list
    targets = [event.get("target")] if event.get("target") else []
    targets += [
        e.get("target") for e in effects if isinstance(e, dict) and e.get("kind") not in _GEAR
    ]
    if all(str(target) in mates for target in targets):
        return event
    kept = {key: event[key] for key in _SAID if key in event}
    kept["effects"] = [{"target": e.get("target")} for e in effects if isinstance(e, dict)]
    if event.get("kind") == "attack" and "hits" in event:  # hit or miss, and what it left
        kept["hits"] = event["hits"]
        kept["made"] = bool(event.get("rolls"))
        kept["effects"] = [
            {key: e.get(key) for key in ("kind", "target", "condition")}
            for e in records(effects)
            if e.get("kind") in TOLD_EFFECTS
        ]
        kept["generic"] = [
            {"kind": "condition", "target": target, "condition": condition}
            for target, condition in gained(event, injuries=True)
        ]
    return kept


def wounds_rule(
    events: Iterable[dict[str, Any]], player_sides: Iterable[str] = ()
) -> tuple[WoundsShown, set[str]]:
    """What :func:`told_to_players` follows, read from the effective ``events`` as the fold
    reads them: the GM's ``enemy_wounds`` setting (band until set) and the ids of the
    combatants on the players' sides (the GM's ``player_sides`` setting; ``player_sides``
    while the GM has set none)."""
    shown: WoundsShown = "band"
    sides: set[str] | None = None
    added: dict[str, str] = {}
    for event in events:
        if event.get("kind") == "setting" and event.get("key") == "enemy_wounds":
            shown = event.get("value", "band")
        elif event.get("kind") == "setting" and event.get("key") == "player_sides":
            sides = {str(side) for side in event.get("value") or ()}
        elif event.get("kind") == "added" and isinstance(event.get("id"), str):
            added[event["id"]] = str(event.get("side", ""))
    chosen = sides if sides is not None else set(player_sides)
    return shown, {ident for ident, side in added.items() if side in chosen}


def combat_log(
    state_events: tuple[dict[str, Any], ...],
    states: Sequence[EncounterState],
    language: str = "en",
) -> pd.DataFrame:
    """One row per effective event: round, whose turn, kind, actor, target, rolls (``*``: a
    physical die), dice (physical, digital or mixed), outcome, visibility. The outcome is the
    event's own text in ``language`` (an attack's summary, a note's text; "" for an event
    without one: :func:`event_text` describes those too)."""
    rows = []
    for number, event in enumerate(state_events, start=1):
        before = states[number - 1]
        after = states[number] if number < len(states) else before
        current = before.current
        actors = [event.get("attacker") or event.get("id")]
        if not actors[0]:
            actors = [entry.get("id") for entry in event.get("entries", ())]
        rolls = _rolls(event)
        kinds = {"physical" if r.get("physical") else "digital" for r in rolls}
        rows.append(
            {
                "event": number,
                "round": before.round,
                "turn": current.name if current else (before.current_side or ""),
                "kind": event.get("kind"),
                "actor": ", ".join(_name(before, after, a) for a in actors if a),
                "target": _name(before, after, event.get("target")),
                "rolls": " ".join(
                    f"d{r['sides']}={r['value']}{'*' if r.get('physical') else ''}" for r in rolls
                ),
                "dice": kinds.pop() if len(kinds) == 1 else ("mixed" if kinds else ""),
                "outcome": render(_outcome(event, before, after), language),
                "visibility": event.get("visibility", "public"),
            }
        )
    return pd.DataFrame(rows, columns=list(LOG_COLUMNS))


def _outcome(event: dict[str, Any], before: EncounterState, after: EncounterState) -> Any:
    """The event's own text: an attack's line (its summary and what it left), a note's."""
    if event.get("kind") == "attack":
        return event_message(event, before=before, after=after)
    return from_json(event.get("summary") or event.get("text") or "")


def _rolls(event: dict[str, Any]) -> list[dict[str, Any]]:
    rolls = list(event.get("rolls", []))
    for entry in event.get("entries", []):
        if entry.get("roll"):
            rolls.append(entry["roll"])
    return rolls


def _name(before: EncounterState, after: EncounterState, ident: Any) -> str:
    """The name at the time of the event (a combatant just added: its name after it)."""
    for state in (before, after):
        if ident in state.combatants:
            return state.combatants[ident].name
    return str(ident) if ident else ""


def units_frame(state: EncounterState) -> pd.DataFrame:
    """One row per unit on the table (mass-battle games): side, troop type, rank and file left
    (of those set), champions, the characters joined (names), trooper, engaged, in sight."""
    rows = []
    for unit in state.units.values():
        trooper = state.combatants.get(unit.trooper) if unit.trooper else None
        joined = [state.combatants[c].name for c in unit.characters if c in state.combatants]
        rows.append(
            {
                "unit": unit.name,
                "side": unit.side,
                "troop type": unit.troop_type,
                "rank and file": models_left(state, unit),
                "set": unit.rank_and_file,
                "champions": unit.champions,
                "characters": ", ".join(joined),
                "trooper": trooper.name if trooper is not None else "",
                "engaged": unit.engaged,
                "visible": unit.visible,
            }
        )
    columns = ["unit", "side", "troop type", "rank and file", "set", "champions"]
    columns += ["characters", "trooper", "engaged", "visible"]
    return pd.DataFrame(rows, columns=columns)


def combatant_summary(events: tuple[dict[str, Any], ...], state: EncounterState) -> pd.DataFrame:
    """Per combatant: attacks, hits, damage dealt and taken, and dice luck (the mean of each
    die's place between its lowest and highest face: 0.5 is average luck)."""
    table: dict[str, dict[str, float]] = {
        ident: {
            "attacks": 0,
            "hits": 0,
            "damage dealt": 0,
            "damage taken": 0,
            "_luck": 0.0,
            "_dice": 0,
        }
        for ident in state.combatants
    }
    for event in events:
        if event.get("kind") != "attack":
            continue
        attacker = table.setdefault(
            event["attacker"],
            {
                "attacks": 0,
                "hits": 0,
                "damage dealt": 0,
                "damage taken": 0,
                "_luck": 0.0,
                "_dice": 0,
            },
        )
        attacker["attacks"] += 1
        attacker["hits"] += int(event.get("hits", 0))
        for roll in event.get("rolls", []):
            attacker["_luck"] += (roll["value"] - 1) / max(roll["sides"] - 1, 1)
            attacker["_dice"] += 1
        for effect in event.get("effects", []):
            if effect["kind"] == "damage" and event.get("applied"):
                attacker["damage dealt"] += effect["amount"]
                if effect["target"] in table:
                    table[effect["target"]]["damage taken"] += effect["amount"]
    rows = []
    for ident, values in table.items():
        name = state.combatants[ident].name if ident in state.combatants else ident
        luck = values["_luck"] / values["_dice"] if values["_dice"] else None
        rows.append(
            {
                "name": name,
                "attacks": int(values["attacks"]),
                "hits": int(values["hits"]),
                "damage dealt": int(values["damage dealt"]),
                "damage taken": int(values["damage taken"]),
                "dice luck": luck,
            }
        )
    return pd.DataFrame(rows)


__all__ = [
    "LOG_COLUMNS",
    "combat_log",
    "combatant_summary",
    "condition_text",
    "event_message",
    "event_text",
    "kept_hidden",
    "newest_public",
    "player_view",
    "public_events",
    "step_texts",
    "told_to_players",
    "units_frame",
    "wound_band",
    "wounds_rule",
]
