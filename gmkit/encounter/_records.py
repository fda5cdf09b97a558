"""How an event keeps what the rules returned: steps and summaries as message data, effects
with their target the combatant's id (shared by the attack and action commands)."""

from __future__ import annotations

from typing import Any

from gmkit.encounter._core import EncounterCore, text_record
from gmkit.encounter._effects import effect_record, find_target, not_applied
from gmkit.messages import Message, as_message
from gmkit.systems.base import Effect, Step


def target_record(
    effect: Effect, encounter: EncounterCore, *, strict: bool = False
) -> dict[str, Any]:
    """``effect`` as the event keeps it: its target the combatant's id (a target naming no
    combatant is kept as named, unless ``strict``: RulesError)."""
    record = effect_record(effect)
    found = find_target(encounter.state, effect.target)
    if found is None and strict:
        found = encounter.combatant(effect.target)
    record["target"] = found.id if found is not None else effect.target
    return record


def step_record(step: Step) -> dict[str, Any]:
    """A step as the event keeps it: its texts as message ids and parameters (a log reads in
    the reader's language), the number rolled against, the modifiers."""
    record: dict[str, Any] = {
        "title": text_record(step.title),
        "outcome": text_record(step.outcome),
    }
    if step.detail:
        record["detail"] = text_record(step.detail)
    if step.target is not None:
        record["target"] = step.target
    if step.modifiers:
        record["modifiers"] = [[text_record(m.source), m.value] for m in step.modifiers]
    return record


def summary_record(summary: Any, unapplied: Any) -> Any:
    """The result's summary as the event keeps it, with what could not be applied."""
    stray = not_applied(unapplied)
    if not stray:
        return text_record(summary)
    return text_record(Message("common.join", parts=(as_message(summary), as_message(stray))))
