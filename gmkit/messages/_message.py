"""A message as data: an id from the catalogs and its parameters, words only when rendered.

``Message("necromunda.to_hit.needed", needed=4)`` is what the rules return instead of prose;
:func:`gmkit.messages._render` turns it into English or Spanish. A message refuses what it does
not know: an id that no catalog defines, a parameter its text does not name (or one it names
missing), a parameter of a type it cannot print. Parameters are numbers, strings (names: a
character's, a weapon's; never words to translate), other messages, and tuples of these.

Data terms (an action, a condition, a location named in a data file a GM may extend) are
:meth:`Message.term`: the id is looked up like any other, and the data's own English name is
used when the catalogs have no entry (a GM's new entry still reads, in English).

Messages are immutable and hashable; :meth:`Message.to_json` and :func:`from_json` carry them
into and out of stored events, so a log renders in the reader's language. Reading a stored
message never refuses: an id a later gmkit dropped still shows (its English default, or its id).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Union

from gmkit.messages._catalog import catalogs, fields_of

Param = Union[int, float, str, "Message", tuple["Param", ...]]
"""What a message's parameter may be."""

VERBATIM = "common.verbatim"
"""The id of a message that shows its ``text`` parameter as it is, in every language."""

NAMED = "common.named"
"""The id of a message that shows a data entry's ``name`` (its English) in the reader's
language, as the data files give it (:mod:`gmkit.messages._names`)."""


RENDERER: list[Callable[[Message], str]] = []
"""What makes a message's English words (``str(message)``): :mod:`gmkit.messages._render` gives
its renderer here when it is imported (the package imports it first), since it reads messages."""


class MessageError(ValueError):
    """A message the code built wrongly: an unknown id, or parameters its text does not name.
    A programming error (tests catch it), never a GM's."""


_ORDER: dict[str, tuple[str, ...]] = {}
"""Message id -> the names its English text's fields have, sorted (read once per id)."""


def _expected(message_id: str) -> tuple[str, ...] | None:
    """The parameters the English text of ``message_id`` names (None for an unknown id)."""
    known = _ORDER.get(message_id)
    if known is None:
        english = catalogs().english(message_id)
        if english is None:
            return None
        known = _ORDER[message_id] = tuple(sorted(fields_of(english)))
    return known


def _param(message_id: str, name: str, value: Any) -> Param:
    if isinstance(value, Message | str):
        return value
    if isinstance(value, bool):
        raise MessageError(f"{message_id}: parameter {name!r} is a bool; say it in words")
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise MessageError(f"{message_id}: parameter {name!r} is {value}")
        return value
    if isinstance(value, tuple | list):
        return tuple(_param(message_id, name, item) for item in value)
    kind = type(value).__name__
    raise MessageError(
        f"{message_id}: parameter {name!r} is a {kind}, not a number, text or message"
    )


def _mismatch(
    message_id: str, expected: tuple[str, ...], params: Mapping[str, Any]
) -> MessageError:
    missing = sorted(set(expected) - set(params))
    extra = sorted(set(params) - set(expected))
    parts = [f"missing {', '.join(missing)}"] if missing else []
    parts += [f"unknown {', '.join(extra)}"] if extra else []
    return MessageError(f"{message_id}: parameters {'; '.join(parts)}")


_SET = object.__setattr__


class Message:
    """An id of the catalogs and its parameters (see the module docstring)."""

    __slots__ = ("_hash", "default", "id", "params")
    _hash: int  # set when first hashed

    id: str
    params: tuple[tuple[str, Param], ...]
    default: str | None

    def __init__(self, message_id: str, /, **params: Any) -> None:
        expected = _ORDER.get(message_id)
        if expected is None:
            expected = _expected(message_id)
            if expected is None:
                raise MessageError(f"unknown message id {message_id!r}: add it to a catalog")
        if not params:
            if expected:
                raise _mismatch(message_id, expected, params)
            checked: tuple[tuple[str, Param], ...] = ()
        else:
            try:
                if len(params) != len(expected):
                    raise KeyError
                checked = tuple([(name, params[name]) for name in expected])
            except KeyError:
                raise _mismatch(message_id, expected, params) from None
            for _, value in checked:
                kind = type(value)
                if kind in _PLAIN:
                    continue
                if isinstance(value, tuple) and all(type(item) in _PLAIN for item in value):
                    continue
                # the slow path: check, and tuples for lists
                checked = tuple((k, _param(message_id, k, v)) for k, v in checked)
                break
        _SET(self, "id", message_id)
        _SET(self, "params", checked)
        _SET(self, "default", None)

    @classmethod
    def _trusted(
        cls, message_id: str, params: Iterable[tuple[str, Param]] = (), default: str | None = None
    ) -> Message:
        made = cls.__new__(cls)
        object.__setattr__(made, "id", message_id)
        object.__setattr__(made, "params", tuple(sorted(params)))
        object.__setattr__(made, "default", default)
        return made

    @classmethod
    def term(cls, message_id: str, default: str) -> Message:
        """A term of a data file (an action's or condition's name): its catalog entry, or
        ``default`` (the data's English) where the catalogs have none."""
        return cls._trusted(message_id, (), default)

    @classmethod
    def verbatim(cls, text: str) -> Message:
        """``text`` as it is, in every language (a name, a value a GM typed)."""
        return cls._trusted(VERBATIM, (("text", str(text)),))

    @classmethod
    def named(cls, name: str) -> Message:
        """A data entry's name (a weapon's, a talent's: its English), shown in the reader's
        language where the data gives one (``"Sword"``: Espada), else as it is."""
        return cls._trusted(NAMED, (("name", str(name)),))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Message is immutable")

    @property
    def arguments(self) -> dict[str, Param]:
        return dict(self.params)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Message):
            return NotImplemented
        return (self.id, self.params, self.default) == (other.id, other.params, other.default)

    def __hash__(self) -> int:
        try:
            return self._hash  # worked out once: a message is immutable (and keys the words)
        except AttributeError:
            found = hash((self.id, self.params, self.default))
            _SET(self, "_hash", found)
            return found

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.params)
        if self.default is not None:
            return f"Message.term({self.id!r}, {self.default!r})"
        return f"Message({self.id!r}{', ' if shown else ''}{shown})"

    def __str__(self) -> str:
        return RENDERER[0](self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Message._trusted, (self.id, self.params, self.default))

    def to_json(self) -> dict[str, Any]:
        """The message as a stored event keeps it."""
        found: dict[str, Any] = {"id": self.id}
        if self.params:
            found["params"] = {k: _json_param(v) for k, v in self.params}
        if self.default is not None:
            found["default"] = self.default
        return found


_PLAIN = frozenset({int, str, Message})
"""Parameter types taken as they are; any other goes through :func:`_param` (a float must be
finite, a list becomes a tuple, a bool or another type is refused)."""

Text = Message | str
"""Where a text is shown: a message, or (in logs written before messages) its English."""


def _json_param(value: Param) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, tuple):
        return [_json_param(item) for item in value]
    return value


def _from_json_param(value: Any) -> Param:
    if isinstance(value, Mapping) and "id" in value:
        return from_json(value)
    if isinstance(value, list | tuple):
        return tuple(_from_json_param(item) for item in value)
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float | str):
        return value
    return str(value)


def from_json(data: Any) -> Text:
    """A message (or text) as a stored event keeps it; never refuses (an unknown id reads as
    its default or its id)."""
    if isinstance(data, str):
        return data
    if not isinstance(data, Mapping) or not isinstance(data.get("id"), str):
        return str(data)
    params = data.get("params") or {}
    if not isinstance(params, Mapping):
        params = {}
    default = data.get("default")
    return Message._trusted(
        data["id"],
        ((str(k), _from_json_param(v)) for k, v in params.items()),
        default if isinstance(default, str) else None,
    )


def as_message(text: Text) -> Message:
    """``text`` as a message (a string becomes :meth:`Message.verbatim`)."""
    return text if isinstance(text, Message) else Message.verbatim(text)


__all__ = [
    "NAMED",
    "VERBATIM",
    "Message",
    "MessageError",
    "Param",
    "Text",
    "as_message",
    "from_json",
]
