"""The sheet editor's records (weapons, armour) in the GM's language, and back.

A record is typed as YAML (:mod:`gmkit.widgets._sheet_editor`); on a Spanish page its keys are
the fields' Spanish labels (``alcance: 100``, :func:`gmkit.sheets._labels.field_label`), its
values of the rules' vocabulary the catalogs' Spanish (``clase de arma: básica``:
``sheets.value.*``) and its names the data's Spanish (``nombre: Rifle láser``). What is typed
is read back into the sheet's own keys and values: a label or word of the game's models (its
weapon and armour models' fields, and the values their choices allow) in either language; any
other key or value as typed, for the sheet to accept or refuse naming it. Names are read back
by the sheet's build (:func:`gmkit.systems._catalogs.in_english`).

>>> shown_record("dark_heresy", {"name": "Lasgun", "weapon_class": "basic"}, "es")
{'nombre': 'Rifle láser', 'clase de arma': 'básica'}
>>> read_record("dark_heresy", {"nombre": "Rifle láser", "clase de arma": "básica"})
{'name': 'Rifle láser', 'weapon_class': 'basic'}
"""

from __future__ import annotations

import functools
import re
import types
import typing
from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import BaseModel

from gmkit.messages import LANGUAGES, Message, catalogs, render
from gmkit.sheets import sheet_type
from gmkit.sheets._labels import field_label, field_names
from gmkit.systems._catalogs import NAME_LISTS, local_name

NAMED = ("name", "group")
"""The keys of a record whose value is a name of the game's data."""


def _models(game: str) -> tuple[type[BaseModel], ...]:
    cls = sheet_type(game)
    found = [getattr(cls, "weapon_model", None), getattr(cls, "armour_model", None)]
    return tuple(model for model in found if isinstance(model, type))


def _literals(annotation: Any) -> Iterator[str]:
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        yield from (value for value in typing.get_args(annotation) if isinstance(value, str))
    elif origin is not None or isinstance(annotation, types.UnionType):
        for argument in typing.get_args(annotation):
            yield from _literals(argument)


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    return f"v{slug}" if slug[:1].isdigit() else slug


def _word(value: str, language: str) -> str | None:
    """A value of the rules' vocabulary in ``language`` (None: not one)."""
    message_id = f"sheets.value.{_slug(value)}"
    if not _slug(value) or catalogs().english(message_id) is None:
        return None
    return render(Message(message_id), language)


@functools.lru_cache(maxsize=16)
def _keys(game: str) -> tuple[str, ...]:
    """The field names of ``game``'s weapon and armour models (nested ones too)."""
    return tuple(dict.fromkeys(name for model in _models(game) for name in field_names(model)))


@functools.lru_cache(maxsize=16)
def _choices(game: str) -> frozenset[str]:
    """The values the choices of ``game``'s sheet, weapon and armour models allow."""
    return frozenset(
        value
        for model in (sheet_type(game), *_models(game))
        for cls in _nested(model)
        for info in cls.model_fields.values()
        for value in _literals(info.annotation)
    )


@functools.lru_cache(maxsize=64)
def _tables(game: str, known: frozenset[str]) -> tuple[dict[str, str], dict[str, str]]:
    """(label -> key, word -> value) of ``game``'s records, in every language: its fields'
    labels, and the words of its choices' values and of the ``known`` values (a label or word
    two of them share is left out: read as typed)."""
    keys: dict[str, str] = {}
    words: dict[str, str] = {}
    for code in LANGUAGES:
        for key in _keys(game):
            label = render(field_label(game, key), code).casefold()
            keys[label] = "" if keys.get(label, key) != key else key
        for value in _choices(game) | known:
            word = (_word(value, code) or value).casefold()
            words[word] = "" if words.get(word, value) != value else value
    return {k: v for k, v in keys.items() if v}, {k: v for k, v in words.items() if v}


def values_in(value: Any) -> frozenset[str]:
    """The text values of a record (or a list of them), nested ones too."""
    if isinstance(value, Mapping):
        return frozenset().union(*(values_in(item) for item in value.values()))
    if isinstance(value, list):
        return frozenset().union(*(values_in(item) for item in value))
    return frozenset({value}) if isinstance(value, str) else frozenset()


def _nested(model: type[BaseModel]) -> Iterator[type[BaseModel]]:
    seen: list[type[BaseModel]] = [model]
    for cls in seen:
        yield cls
        for info in cls.model_fields.values():
            for inner in _inner_models(info.annotation):
                if inner not in seen:
                    seen.append(inner)


def _inner_models(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for argument in typing.get_args(annotation) for m in _inner_models(argument)]


def shown_record(game: str, value: Any, language: str) -> Any:
    """A record (or a list of them) as the editor shows it in ``language``: a key or word
    only where :func:`read_record` reads it back to the same."""
    keys, words = _tables(game, values_in(value))
    return _shown(game, value, language, keys, words)


def _shown(
    game: str, value: Any, language: str, keys: Mapping[str, str], words: Mapping[str, str]
) -> Any:
    if isinstance(value, list):
        return [_shown(game, item, language, keys, words) for item in value]
    if not isinstance(value, Mapping) or language not in LANGUAGES:
        return value
    found: dict[str, Any] = {}
    for key, item in value.items():
        if isinstance(item, str):
            word = _word(item, language)
            if key in NAMED:
                item = local_name(game, item, language)
            elif word is not None and words.get(word.casefold()) == item:
                item = word
        elif isinstance(item, list) and key in NAME_LISTS:
            item = [local_name(game, v, language) if isinstance(v, str) else v for v in item]
        else:
            item = _shown(game, item, language, keys, words)
        label = render(field_label(game, str(key)), language)
        found[label if keys.get(label.casefold()) == key else str(key)] = item
    return found


def shown_value(game: str, key: str, value: str, language: str) -> str:
    """One text field of a sheet (``key``: its name, the path's last part) as the editor shows
    it in ``language``: a name of the data or a word of the vocabulary in that language."""
    if key in NAMED:
        return local_name(game, value, language)
    word = _word(value, language)
    return (
        word
        if word is not None and _tables(game, frozenset({value}))[1].get(word.casefold()) == value
        else value
    )


def read_value(game: str, key: str, typed: str, known: frozenset[str] = frozenset()) -> str:
    """One text field typed in either language, as the sheet keeps it (names as typed)."""
    if key in NAMED:
        return typed
    return _tables(game, known)[1].get(typed.strip().casefold(), typed)


def read_record(game: str, value: Any, known: frozenset[str] = frozenset()) -> Any:
    """A record typed in either language, with the game's own keys and values (``known``:
    the values the saved sheet holds, their words read back too; names stay as typed: the
    sheet's build reads them)."""
    keys, words = _tables(game, known)
    return _read(value, keys, words)


def _read(value: Any, keys: Mapping[str, str], words: Mapping[str, str]) -> Any:
    if isinstance(value, list):
        return [_read(item, keys, words) for item in value]
    if not isinstance(value, Mapping):
        return value
    found: dict[str, Any] = {}
    for key, item in value.items():
        name = keys.get(str(key).strip().casefold(), key)
        if isinstance(item, str) and name not in NAMED:
            item = words.get(item.strip().casefold(), item)
        else:
            item = _read(item, keys, words)
        found[name] = item
    return found


__all__ = ["read_record", "read_value", "shown_record", "shown_value", "values_in"]
