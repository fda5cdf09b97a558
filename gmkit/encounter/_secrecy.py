"""Which combatants an event touches: what decides whether it is the GM's.

An event touches a combatant when any of its fields names it, however deep: an id in any
field (the subject, the target, an effect's target, a due's bearer, a unit's trooper or
characters, a die's purpose...), a unit that holds it (by the unit's name), or its name in a
text (a note the GM typed, a summary, an effect's note: the whole name, its id, or a word of
it no one else's name has, in any case and whatever the spaces, as a word; not a sheet's own
texts, such as its notes, which the players never read). An event
touching a hidden combatant is the GM's (:meth:`~gmkit.encounter._core.EncounterCore.
_append`), and the players' log leaves out any event touching one that is hidden now
(:func:`~gmkit.encounter._views.public_events`).

A start's ``order`` and ``surprised`` lists are not looked at (:data:`PROJECTED`): the players'
log takes the hidden ids out of them, and the start stays public.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any

from gmkit.messages import Message

PROJECTED = ("order", "surprised")
"""Top-level event fields listing combatant ids that the players' log projects (hidden ids
removed) instead of keeping the event from them."""


def strings(value: Any, *, skip: Iterable[str] = (), skip_any: Iterable[str] = ()) -> list[str]:
    """Every string in ``value`` (an event: dicts' values, lists, messages' ids and
    parameters), at any depth; ``skip``: top-level keys not looked into; ``skip_any``: keys
    not looked into at any depth. (A list, gathered in one loop: it runs on every append.)"""
    top, anywhere = set(skip), set(skip_any)
    found: list[str] = []
    stack: list[Any] = (
        [item for key, item in value.items() if key not in top | anywhere]
        if isinstance(value, Mapping)
        else [value]
    )
    while stack:
        item = stack.pop()
        kind = type(item)  # JSON's own types first: an event as stored holds nothing else
        if kind is str:
            found.append(item)
        elif kind is dict:
            stack.extend([item[key] for key in item if key not in anywhere])
        elif kind is list:
            stack.extend(item)
        elif item is None or kind in (int, float, bool):
            continue
        elif isinstance(item, str):
            found.append(item)
        elif isinstance(item, Message):
            stack.append(item.to_json())
        elif isinstance(item, Mapping):
            stack.extend([value for key, value in item.items() if key not in anywhere])
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
    return found


_SPACES = re.compile(r"\s+")  # any run of spaces: doubled, a tab, a no-break space (U+00A0)
_PART = re.compile(r"[^\W\d_]{3,}")  # a word of a name: three letters or more, no digit
_PARTICLES = frozenset(
    [
        "the",
        "of",
        "and",
        "von",
        "van",
        "der",
        "den",
        "des",
        "die",
        "das",
        "und",
        "del",
        "de",
        "la",
        "las",
        "los",
        "el",
        "y",
        "du",
        "le",
    ]
)  # words of many names that name no one alone ("Gor the Bloody": not "the")


def normal(text: str) -> str:
    """``text`` as names are looked for in it: spaces made one plain space, case folded."""
    return _SPACES.sub(" ", text).strip().casefold()


def name_forms(
    hidden: Mapping[str, Iterable[str]], everyone: Mapping[str, Iterable[str]]
) -> dict[str, list[str]]:
    """Each hidden combatant's (the keys of ``hidden``: ids, and the names each went by) forms
    a text may name it by: each whole name, its id, and each word of its names that no other
    combatant's name has (a first name alone, a surname: "Ostrava" of "Demagogue Ostrava"; not
    "Ganger" of "Ganger 5" beside "Ganger 1", nor a particle such as "the"). ``everyone``:
    every combatant's id and names, the hidden among them."""
    owners: dict[str, set[str]] = {}
    for ident, names in everyone.items():
        for name in names:
            for part in _PART.findall(normal(name)):
                owners.setdefault(part, set()).add(ident)
    forms: dict[str, list[str]] = {}
    for ident, names in hidden.items():
        known = [name for name in names if name.strip()]
        parts = {
            part
            for name in known
            for part in _PART.findall(normal(name))
            if part not in _PARTICLES and owners.get(part, {ident}) == {ident}
        }
        forms[ident] = list(dict.fromkeys([*known, ident, *sorted(parts)]))
    return forms


@functools.lru_cache(maxsize=512)
def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(normal(name))}(?!\w)")


def touched(
    event: Mapping[str, Any],
    names: Mapping[str, Iterable[str]],
    units: Mapping[str, Iterable[str]] | None = None,
) -> set[str]:
    """The ids (keys of ``names``: each combatant's id and the names it goes by) that
    ``event`` touches (see the module docstring); ``units``: each unit's name and the ids of
    the combatants it holds."""
    # a sheet's own texts (its notes: the GM's) name no one the event is about, and hold no id
    exact = set(strings(event, skip=PROJECTED, skip_any=("sheet",)))
    found = {ident for ident in names if ident in exact}
    left = {ident: [n for n in known if n.strip()] for ident, known in names.items()}
    if any(left[ident] for ident in left if ident not in found):
        text = normal("\x00".join(exact))  # NUL between: no name runs from one text on
        for ident, known in left.items():
            if ident not in found and any(_word(name).search(text) for name in known):
                found.add(ident)
    for unit, members in (units or {}).items():
        if unit in exact:
            found |= {member for member in members if member in names}
    return found


def names_in_log(events: Iterable[Mapping[str, Any]]) -> dict[str, list[str]]:
    """Each combatant's id and the names it had, read from the events (its sheet's name when
    added, every rename since)."""
    found: dict[str, list[str]] = {}
    for event in events:
        ident = event.get("id")
        if not isinstance(ident, str):
            continue
        if event.get("kind") == "added":
            sheet = event.get("sheet")
            name = sheet.get("name") if isinstance(sheet, Mapping) else None
            found.setdefault(ident, []).extend([name] if isinstance(name, str) else [])
        elif event.get("kind") == "renamed" and isinstance(event.get("name"), str):
            found.setdefault(ident, []).append(str(event["name"]))
    return found


__all__ = ["PROJECTED", "name_forms", "names_in_log", "normal", "strings", "touched"]
