"""The names a GM reads on a sheet, as messages: each field's and each derived value's label.

``field_label("wfrp2", "wounds_current")`` is the label of a sheet field (or of a derived value,
or of a column of the roster line): its English is the field's name with spaces for
underscores ("wounds current", what the sheet views print today) and its Spanish the Spanish
books' word ("heridas actuales"). Characteristics keep their abbreviations, in Spanish the
Spanish books' (WS HA, BS HP, S F, T R, WP V, Fel Em; the Necromunda and Warhammer profile
M HA HP F R H I A L). A path names its last part (``"characteristics.WS"``: WS,
``"weapons[0].damage"``: damage).

The catalog holds one label per field name across the games (``sheets.field.<name>``) and a
game's own where that game calls it otherwise (``sheets.field.necromunda.side``: a gang); a game
with catalogs of its own (a game installed as a package) labels its fields in its own domain
(``<game>.field.<name>``), read first. A name no catalog holds (a key that is data, such as a
weapon's name) reads as it is.

``weapon_class("pistol")`` names a class of weapon (the Imperial classes and Necromunda's
kinds) in the refusals that speak of one.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any

from pydantic import BaseModel

from gmkit.messages import Message
from gmkit.messages._catalog import catalogs

_INDEX = re.compile(r"\[[^\]]*\]")


def label_id(name: str, game: str = "") -> str:
    """The id of the label of field ``name`` (``game``'s own when given)."""
    key = name.replace(" ", "_")
    return f"sheets.field.{game}.{key}" if game else f"sheets.field.{key}"


def field_label(game: str, field: str) -> Message:
    """The label of ``field`` (a name or a path) on a sheet of ``game``."""
    name = _INDEX.sub("", field).rpartition(".")[2]
    own = (f"{game}.field.{name.replace(' ', '_')}",) if game else ()
    for message_id in (*own, label_id(name, game), label_id(name)):
        if catalogs().english(message_id) is not None:
            return Message(message_id)
    return Message.verbatim(name.replace("_", " "))


def weapon_class(kind: str) -> Message:
    """A class of weapon by its sheet value ("pistol", "close combat") as a message."""
    return Message(f"sheets.weapon_class.{kind.replace(' ', '_')}")


def field_names(model: type[BaseModel]) -> tuple[str, ...]:
    """Every field name of ``model`` and of the models it holds (weapons, armour, profiles),
    once each, in the order they are declared."""
    found: dict[str, None] = {}

    def visit(cls: type[BaseModel]) -> None:
        for name, info in cls.model_fields.items():
            found.setdefault(name, None)
            for inner in _models_in(info.annotation):
                if inner not in seen:
                    seen.add(inner)
                    visit(inner)

    seen: set[type[BaseModel]] = {model}
    visit(model)
    return tuple(found)


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    origin = typing.get_origin(annotation)
    if origin is None and not isinstance(annotation, types.UnionType):
        return []
    return [model for arg in typing.get_args(annotation) for model in _models_in(arg)]


__all__ = ["field_label", "field_names", "label_id", "weapon_class"]
