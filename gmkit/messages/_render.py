"""Messages into words, in the reader's language: the one renderer every view uses.

``render(message, "es")`` takes the message's Spanish text (the English one where no Spanish
text was made from the current English, or the data's own name for a term a GM added) and
fills its fields: a number as Python's format spec says (``{value:+d}``; in Spanish with a
decimal comma), a name as it is, a nested message rendered in the same language, a tuple
joined. The format specs gmkit adds, for translators:

- ``{items}`` a tuple joined with ", "; ``{items:;}`` with "; "; ``{items:/}`` with "/";
  ``{items:and}`` as "a, b and c" (the language's own "and": ``common.and``).
- ``{count:plural:wound|wounds}`` the first word when ``count`` is 1, else the second (the
  number itself is another field: ``{count} {count:plural:herida|heridas}``).
- ``{term:cap}`` a nested message with its first letter capitalised; ``{term:lower}`` all in
  lower case.
- ``{name:poss}`` English's possessive: "Ban's", "the Boss's", "The Sump Scavvies'" (a name
  ending in a plural's s takes the apostrophe alone; in -ss, -us, -is it is a singular's).

A parameter that holds a data entry's name (``weapon``, ``armour``, ``quality``...:
:data:`gmkit.messages._names.NAME_PARAMETERS`) shows that name in the reader's language, as the
data files give it (:mod:`gmkit.messages._names`); the message keeps the English.

Rendering never raises: a text whose fields do not fit its parameters shows the English with
the parameters as they are.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gmkit.messages._catalog import LANGUAGES, SOURCE_LANGUAGE, catalogs
from gmkit.messages._message import NAMED, RENDERER, Message, Param, Text
from gmkit.messages._names import LOOKUPS, NAME_PARAMETERS
from gmkit.messages._names import shown as shown_name

_SEPARATORS = {"": ", ", ",": ", ", ";": "; ", "/": "/", " ": " ", "+": " + ", "-": " - "}
_DECIMAL_COMMA = str.maketrans({".": ",", ",": "."})


def template(message: Message, language: str = SOURCE_LANGUAGE) -> str | None:
    """The text ``message`` is rendered from in ``language`` (None for an id no catalog has
    and no default)."""
    found = catalogs()
    english = message.default if message.default is not None else found.english(message.id)
    if english is None:
        return None
    if language == SOURCE_LANGUAGE:
        return english
    return found.translated(message.id, language, english) or english


class _Formatter(string.Formatter):
    def __init__(self, language: str) -> None:
        super().__init__()
        self.language = language

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        return kwargs[str(key)]

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "poss":
            text = render(value, self.language) if isinstance(value, Message) else str(value)
            plural = text.endswith("s") and not text.endswith(("ss", "us", "is"))
            return f"{text}'" if plural else f"{text}'s"
        if format_spec.startswith("plural:"):
            one, _, other = format_spec[len("plural:") :].partition("|")
            return one if value == 1 else other
        if isinstance(value, Message):
            text = render(value, self.language)
            if format_spec == "cap":
                return text[:1].upper() + text[1:]
            if format_spec == "lower":
                return text.lower()
            return text
        if isinstance(value, tuple):
            parts = [self.format_field(item, "") for item in value]
            if format_spec == "and":
                if len(parts) < 2:
                    return "".join(parts)
                conjunction = render(Message("common.and"), self.language)
                return f"{', '.join(parts[:-1])} {conjunction} {parts[-1]}"
            return _SEPARATORS.get(format_spec, format_spec).join(parts)
        text = format(value, format_spec)
        number = isinstance(value, float | int) and not isinstance(value, bool)
        if self.language == "es" and number and (isinstance(value, float) or "," in format_spec):
            text = text.translate(_DECIMAL_COMMA)
        return text


def _plain(params: Iterable[tuple[str, Param]], language: str) -> str:
    shown = (f"{k}={render(v, language) if isinstance(v, Message) else v}" for k, v in params)
    return ", ".join(shown)


def _named(params: Iterable[tuple[str, Param]], language: str) -> dict[str, Param]:
    """The parameters, the names of data entries among them in ``language``."""
    found: dict[str, Param] = {}
    for key, value in params:
        if key in NAME_PARAMETERS:
            if isinstance(value, str):
                value = shown_name(value, language)
            elif isinstance(value, tuple):
                value = tuple(shown_name(v, language) if isinstance(v, str) else v for v in value)
        found[key] = value
    return found


_RENDERED: dict[tuple[Message, str], str] = {}
_RENDERED_WITH: list[object] = [None]  # the catalogs, their tables and the name lookups used
_RENDERED_MOST = 8192  # texts kept; past it the cache starts again


def render(text: Text | None, language: str = SOURCE_LANGUAGE) -> str:
    """``text`` in ``language`` (a plain string, from a log written before messages, as it is).

    A message is made into words once per language: a panel that shows the same reason or
    label after every event finds it made (kept while the catalogs and the name lookups are
    the same; a message is immutable)."""
    if text is None:
        return ""
    if isinstance(text, str):
        return text
    if language not in LANGUAGES:
        language = SOURCE_LANGUAGE
    found = catalogs()
    made_with = (
        found,
        *map(id, LOOKUPS),
        id(found.templates),
        *map(id, found.translations.values()),
    )
    if _RENDERED_WITH[0] != made_with:
        _RENDERED.clear()
        _RENDERED_WITH[0] = made_with
    key = (text, language)
    made = _RENDERED.get(key)
    if made is None:
        made = _render(text, language)
        if len(_RENDERED) >= _RENDERED_MOST:
            _RENDERED.clear()
        _RENDERED[key] = made
    return made


def _render(text: Message, language: str) -> str:
    if text.id == NAMED and text.params:
        name = text.params[0][1]
        return shown_name(name, language) if isinstance(name, str) else str(name)
    chosen = template(text, language)
    if chosen is None:  # an id a later gmkit dropped, read from a stored event
        return f"{text.id} ({_plain(text.params, language)})" if text.params else text.id
    if not text.params and "{" not in chosen:
        return chosen
    params = dict(text.params) if language == SOURCE_LANGUAGE else _named(text.params, language)
    try:
        return _Formatter(language).vformat(chosen, (), params)
    except (KeyError, IndexError, ValueError, TypeError):
        english = template(text, SOURCE_LANGUAGE) or text.id
        try:
            return _Formatter(SOURCE_LANGUAGE).vformat(english, (), dict(text.params))
        except (KeyError, IndexError, ValueError, TypeError):
            return f"{english} ({_plain(text.params, language)})"


RENDERER[:] = [render]  # a message's str() is its English (the message module cannot import us)

__all__ = ["render", "template"]
