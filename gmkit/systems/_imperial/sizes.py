"""Size categories of Dark Heresy and Deathwatch, as data (``sizes.yaml`` of each game).

004 says every character and creature has a size category and that a larger one is easier to
hit; its table was lost, so the categories and their modifiers are the seeds' README ruling
(Miniscule -30 ... Average 0 ... Massive +30), in a file a GM overrides.

- A size is written as a category (its id, its English or Spanish name, in any case, with or
  without accents, "Size (Hulking)" / "Tamaño (Corpulento)" too) or as a whole number: the
  modifier itself, as the attack's ``size`` circumstance took before the categories.
  :func:`read` gives what a sheet stores: the category's id, or the number.
- The attack's modifier (:func:`target_size`): the ``size`` circumstance when the GM gives it
  for this attack, else the target's sheet (``size``); none for the default size (Average).
  A horde's size bonus by its magnitude is separate (``hordes``) and adds to it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from gmkit.errors import GmkitError
from gmkit.messages import Message, render
from gmkit.systems._imperial.actions import check_game, game_data, name_of
from gmkit.systems.base import AttackRequest, Modifier

_WORDS = re.compile(r"\b(size|tamano)\b|[()]")
_NUMBER = re.compile(r"^[+-]?\d{1,3}$")
LIMIT = 60  # a typed modifier: the most any total of modifiers reaches (the cap)


@dataclass(frozen=True, slots=True)
class Size:
    """A size category: its id, English name, modifier to hit, and its name as a term."""

    id: str
    name: str
    modifier: int
    label: Message  # ``<game>.size.<id>``: the Spanish in the catalogs


@cache
def sizes(game: str) -> Mapping[str, Size]:
    """The size categories of ``game`` by id, smallest first as the file lists them."""
    data = game_data(check_game(game), "sizes")
    found: dict[str, Size] = {}
    for raw in data.get("sizes") or []:
        if not isinstance(raw, Mapping) or "id" not in raw or "modifier" not in raw:
            raise GmkitError(Message("imperial.size.bad_entry", file=f"{game}/sizes.yaml"))
        key, name = str(raw["id"]), name_of(raw)
        found[key] = Size(key, name, int(raw["modifier"]), Message.term(f"{game}.size.{key}", name))
    return found


def default(game: str) -> str:
    """The size of a sheet that names none (Average)."""
    return str(game_data(check_game(game), "sizes").get("default", "average"))


def _plain(text: str) -> str:
    """``text`` lower-cased, without accents, "size"/"tamaño" or brackets: what is compared."""
    bare = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(char for char in bare if not unicodedata.combining(char))
    return " ".join(_WORDS.sub(" ", bare).split())


def read(game: str, value: Any) -> str | int | None:
    """What a sheet or an attack keeps of a size: a category's id, a whole number (the
    modifier), or None for a value that is neither (the caller names the field)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if -LIMIT <= value <= LIMIT else None
    if not isinstance(value, str):
        return None
    text = value.strip()
    if _NUMBER.match(text):
        return read(game, int(text))
    wanted = _plain(text)
    for item in sizes(game).values():
        names = (item.id, item.name, render(item.label, "en"), render(item.label, "es"))
        if wanted in {_plain(name) for name in names}:
            return item.id
    return None


def known(game: str) -> tuple[Message, ...]:
    """The categories' names, for a refusal that lists them (in the reader's language)."""
    return tuple(item.label for item in sizes(game).values())


def refusal(game: str) -> Message:
    """Why a value is no size: neither a category of ``game`` nor a modifier within the cap
    (the sheet's refusal adds the value given)."""
    return Message("imperial.size.unknown", known=known(game), limit=LIMIT)


def modifier(game: str, value: Any, source: Message | None = None) -> Modifier | None:
    """The modifier to hit a target of size ``value`` (a category or a number); None for 0.

    A category's source names it ("Size: Hulking"); a number's is ``source`` (the
    circumstance's name, "Size") or "Size"."""
    found = read(game, value)
    if found is None or found == 0:
        return None
    if isinstance(found, int):
        return Modifier(source or Message("imperial.size.typed"), found)
    item = sizes(game)[found]
    if not item.modifier:
        return None
    return Modifier(Message("imperial.size.category", size=item.label), item.modifier)


def target_size(
    game: str, request: AttackRequest, given: Any, source: Message | None = None
) -> list[Modifier]:
    """The size modifier of an attack: ``given`` (the ``size`` circumstance's value; None when
    the GM gave none for this attack) wins over the target's sheet (``size``)."""
    value = given if given is not None else getattr(request.target, "size", None)
    if value is None:
        return []
    found = modifier(game, value, source)
    return [found] if found is not None else []


__all__ = [
    "LIMIT",
    "Size",
    "default",
    "known",
    "modifier",
    "read",
    "refusal",
    "sizes",
    "target_size",
]
