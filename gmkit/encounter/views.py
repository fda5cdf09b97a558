"""What is shown: the player projection (secrets removed below the widgets), the combat log
as a DataFrame, and per-combatant summaries; texts in the reader's ``language`` (the log's
lines and an attack's steps: :mod:`gmkit.encounter.narration`). Column labels and the
projection's keys are data: the widgets label them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

import pandas as pd

from gmkit.encounter.log import MARKERS
from gmkit.encounter.narration import event_message, event_text, step_texts
from gmkit.encounter.state import Combatant, Condition, EncounterState
from gmkit.encounter.table import models_left
from gmkit.encounter.terms import band_name, condition_name
from gmkit.messages import Message, from_json, render
from gmkit.systems.health import health

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
    state: EncounterState, *, player_sides: tuple[str, ...] = (), language: str = "en"
) -> dict[str, Any]:
    """The encounter as players may see it: hidden combatants absent, GM-only sheet fields and
    notes absent, enemy wounds as the GM's ``enemy_wounds`` setting says. Wound bands and
    conditions are in ``language`` (in English, as the state names them: "bloodied"), a
    condition that lasts with its duration ("All Out Attack (1 round)").

    Whose turn: ``current`` is the name of the combatant acting, or None; None with
    ``hidden_turn`` True while the combatant acting is hidden (the players read "an enemy
    acts": nothing of it, not even its side, until the GM reveals it)."""
    shown: WoundsShown = state.settings.get("enemy_wounds", "band")
    sides = tuple(state.settings.get("player_sides", player_sides))
    visible = [c for c in state.present if not c.hidden]
    order = [i for i in state.order if i in {c.id for c in visible}]
    current = state.current
    by_turns = bool(state.sides)
    return {
        "game": state.game,
        "round": state.round,
        "current": current.name if current and not current.hidden else None,
        "hidden_turn": bool(current and current.hidden),
        "current_side": state.current_side,
        "order": [state.combatants[i].name for i in order],
        "combatants": [
            _public(state.game, c, c.side in sides, shown, language, by_turns) for c in visible
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


_LISTS = ("order", "surprised")  # event fields listing combatant ids
_NAMING = ("id", "attacker", "target")  # event fields naming one combatant


def kept_hidden(events: Iterable[dict[str, Any]]) -> set[str]:
    """The ids of the combatants added hidden that no public event has revealed since."""
    hidden: set[str] = set()
    for event in events:
        if event.get("kind") == "added" and event.get("hidden"):
            hidden.add(str(event.get("id")))
        elif event.get("kind") == "revealed" and event.get("visibility", "public") == "public":
            hidden.discard(str(event.get("id")))
    return hidden


def _named(event: dict[str, Any]) -> set[str]:
    """Every combatant id an event names (its subjects, entries and effects' targets)."""
    found = {str(event[key]) for key in _NAMING if event.get(key)}
    for key in ("entries", "effects"):
        for item in event.get(key) or ():
            if isinstance(item, dict):
                found |= {str(item[k]) for k in ("id", "target") if item.get(k)}
    return found


def public_events(
    events: tuple[dict[str, Any], ...], hidden: Iterable[str] | None = None
) -> list[dict[str, Any]]:
    """The effective events players may read: GM-only events and markers removed, and nothing
    of a hidden combatant (``hidden``: their ids, as the state holds them now; None: those
    added hidden that no public event revealed since, read from ``events``). An event naming
    one is left out; a start's order and its surprised lose their ids."""
    secret = set(hidden) if hidden is not None else kept_hidden(events)
    shown = []
    for event in events:
        if event.get("visibility", "public") != "public" or event.get("kind") in MARKERS:
            continue
        if event.get("kind") != "revealed" and _named(event) & secret:
            continue
        lists = {
            key: [i for i in event[key] if str(i) not in secret]
            for key in _LISTS
            if isinstance(event.get(key), list)
        }
        shown.append({**event, **lists} if lists else event)
    return shown


def combat_log(
    state_events: tuple[dict[str, Any], ...],
    states: list[EncounterState],
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
                "outcome": render(
                    from_json(event.get("summary") or event.get("text") or ""), language
                ),
                "visibility": event.get("visibility", "public"),
            }
        )
    return pd.DataFrame(rows, columns=list(LOG_COLUMNS))


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
    "player_view",
    "public_events",
    "step_texts",
    "units_frame",
    "wound_band",
]
