"""An action's effects in the GM's words (the file's ``effect_texts`` and ``effect_when``):
read from the actions' catalog and the conditions an effect gives, so it sits above both."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

from gmkit.errors import GmkitError
from gmkit.messages import Message, Param
from gmkit.systems._imperial.actions import game_data
from gmkit.systems._imperial.conditions import conditions


def effect_notes(
    game: str, effects: Iterable[tuple[str, Any]], flags: AbstractSet[str] | None = None
) -> tuple[Message, ...]:
    """Each effect in the GM's words: its text ``<game>.effect.<key>`` (the file's
    ``effect_texts``), with the value it carries in brackets (``"text (value)"``); the key
    itself is the data's, never shown. With an attack's ``flags`` (``attack_flags``), only the
    effects that apply to it: those the file's ``effect_when`` allows under them."""
    data = game_data(game, "actions")
    texts, when = data.get("effect_texts", {}), data.get("effect_when") or {}
    notes = []
    for key, value in effects:
        if flags is not None and not _effect_applies(when.get(key), flags, f"{game} {key}"):
            continue
        text = Message.term(f"{game}.effect.{key}", str(texts.get(key, key.replace("_", " "))))
        if value is True:
            notes.append(text)
            continue
        gained = conditions(game).get(str(value)) if key == "gains" else None
        shown: Param = gained.label if gained is not None else str(value)
        notes.append(Message("imperial.effect_key_value", key=text, value=shown))
    return tuple(notes)


def _effect_applies(rule: Any, flags: AbstractSet[str], where: str) -> bool:
    """Whether an ``effect_when`` entry (None: always) holds under ``flags``."""
    if rule is None:
        return True
    if not isinstance(rule, Mapping) or not rule or set(rule) - {"when", "unless", "any"}:
        raise GmkitError(Message("imperial.data.bad_effect_when", where=where))
    when, unless = set(rule.get("when") or ()), set(rule.get("unless") or ())
    either = set(rule.get("any") or ())
    return when <= flags and not unless & flags and (not either or bool(either & flags))


__all__ = ["effect_notes"]
