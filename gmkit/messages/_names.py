"""Names of data entries (a weapon, an armour, a quality, a talent) in the reader's language.

A data file gives each entry its English ``name`` and its Spanish ``name_es``; sheets, events
and the rules keep the English. The catalogs (:mod:`gmkit.systems._catalogs`, a layer above)
register the lookup here at import, so that a message whose parameter is such a name
(``weapon``, ``armour``, ``quality``, ``qualities``, ``talents``: :data:`NAME_PARAMETERS`)
renders it in the reader's language, and a log written in English reads in Spanish. Without a
lookup registered, or for a name no data file translates (a GM's own weapon), the name shows as
it is.

>>> kept = list(LOOKUPS)
>>> LOOKUPS.clear()
>>> register(lambda name, language: {"Sword": "Espada"}.get(name) if language == "es" else None)
>>> shown("Sword", "es"), shown("Sword", "en"), shown("Klaw", "es")
('Espada', 'Sword', 'Klaw')
>>> LOOKUPS[:] = kept
"""

from __future__ import annotations

from collections.abc import Callable

from gmkit.messages._catalog import SOURCE_LANGUAGE

NAME_PARAMETERS = frozenset(
    {"weapon", "weapons", "armour", "quality", "qualities", "talent", "talents"}
)
"""The message parameters that hold names of data entries (their English)."""

Lookup = Callable[[str, str], "str | None"]
"""``(english name, language) -> the name in that language`` (None when it has none)."""

LOOKUPS: list[Lookup] = []
"""The registered lookups, first asked first (read them; add with :func:`register`)."""


def register(lookup: Lookup) -> None:
    """Add a lookup (the catalogs' names); the first to know a name gives it."""
    if lookup not in LOOKUPS:
        LOOKUPS.append(lookup)


def shown(name: str, language: str) -> str:
    """``name`` in ``language``: the first registered lookup's, or the name as it is."""
    if language == SOURCE_LANGUAGE or not name:
        return name
    for lookup in LOOKUPS:
        found = lookup(name, language)
        if found:
            return found
    return name


__all__ = ["LOOKUPS", "NAME_PARAMETERS", "Lookup", "register", "shown"]
