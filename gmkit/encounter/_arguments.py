"""The Encounter's commands check what they are given before the rules see it.

A command called from Python (a prep notebook, a script, a widget) with a number where a name
goes, a list where a number goes, or a text holding a lone surrogate or a control character
used to fail deep inside with a raw ``TypeError``/``AttributeError`` or, at the store, a
``UnicodeEncodeError`` (nothing changed, but nothing said which argument). Each command named
in :data:`COMMANDS` is wrapped once, on the class: its arguments are bound to its signature and
checked against its annotations (text, numbers, booleans, literals, lists and mappings of
them, optional values; a type this module does not know is left to the command), when the
caller is outside gmkit (a notebook, a script: gmkit's own calls are typed and checked by
mypy, and a text typed in a panel is checked in its event), and every
text in them (nested ones too) is checked for what a campaign file cannot hold or a screen
cannot show. A refusal is a :class:`~gmkit.errors.RulesError` naming the command, the argument
and the problem, in the reader's language; nothing is written.
"""

from __future__ import annotations

import functools
import inspect
import re
import sys
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from gmkit.errors import RulesError
from gmkit.messages import Message

COMMANDS = (
    "add", "add_many", "remove", "revive", "rename", "reveal", "edit_sheet", "set", "note",
    "roll_initiative", "set_initiative", "start", "spend", "react", "delay", "delayed_first",
    "ready", "declare_trigger", "fire_trigger", "cancel_trigger", "add_condition",
    "remove_condition", "attack_request", "try_attack", "dice_needed", "attack",
    "apply_effects", "action_request", "act", "roll_due", "dismiss_due", "set_unit",
    "remove_unit", "set_engaged", "set_distance", "combatant", "may", "may_take", "may_react",
    "may_do", "distance_between",
)  # fmt: skip
"""The Encounter's public commands (and the queries that take a name) checked on entry."""

_BAD_TEXT = re.compile(r"[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""A lone surrogate (no file or page can hold it) or a control character other than a tab or
a line break."""

_DEPTH = 20  # nested lists and mappings looked into
T = TypeVar("T")


class _Refusal(Exception):
    def __init__(self, problem: Message) -> None:
        self.problem = problem


def text_problem(text: str) -> Message | None:
    """What is wrong with ``text`` for a campaign file and a screen, or None."""
    found = _BAD_TEXT.search(text)
    if found is None:
        return None
    character = found.group()
    code = f"U+{ord(character):04X}"
    key = "arguments.lone_surrogate" if 0xD800 <= ord(character) <= 0xDFFF else "arguments.control"
    return Message(key, code=code, position=found.start() + 1)


def _texts(value: object, depth: int = 0) -> None:
    """Refuse a bad text anywhere in ``value`` (keys of mappings too)."""
    if isinstance(value, str):
        problem = text_problem(value)
        if problem is not None:
            raise _Refusal(problem)
    elif depth < _DEPTH and isinstance(value, Mapping):
        for key, item in value.items():
            _texts(key, depth + 1)
            _texts(item, depth + 1)
    elif depth < _DEPTH and isinstance(value, list | tuple | set | frozenset):
        for item in value:
            _texts(item, depth + 1)


_IN_JSON = re.compile(r"[\ud800-\udfff\x7f]|\\u00(?:0[0-8bcef]|1[0-9a-f])")
"""What a bad text leaves in JSON written with ``ensure_ascii=False``: a lone surrogate or
DEL as they are, another control character escaped (a text holding a backslash and "u00"
may match too: then the value is looked through)."""


def bad_text_in(value: object, json_text: str | None = None) -> Message | None:
    """What is wrong with the first bad text anywhere in ``value``, or None. ``json_text``:
    ``value`` as JSON (``ensure_ascii=False``), when the caller has it: a value whose JSON
    shows no sign of a bad text is not looked through (an attack's event holds hundreds of
    values: one regular expression instead of a call per value)."""
    if json_text is not None and _IN_JSON.search(json_text) is None:
        return None
    try:
        _texts(value)
    except _Refusal as refusal:
        return refusal.problem
    return None


def _kind_name(value: object) -> str:
    return type(value).__name__


def _check(value: object, hint: Any) -> None:
    """Refuse ``value`` (a :class:`_Refusal`) if it is not of ``hint`` where this module knows
    the hint; unknown hints (a class of the rules, a protocol) are the command's to check."""
    if hint is Any or hint is object or isinstance(hint, TypeVar):
        return
    origin = get_origin(hint)
    if origin is Union or origin is types.UnionType:
        refusals = []
        for option in get_args(hint):
            try:
                _check(value, option)
                return
            except _Refusal as refusal:
                refusals.append(refusal)
        raise refusals[0]
    if origin is Literal:
        if value not in get_args(hint):
            allowed = ", ".join(repr(option) for option in get_args(hint))
            raise _Refusal(Message("arguments.one_of", given=repr(value)[:40], allowed=allowed))
        return
    if hint is type(None):
        if value is not None:
            raise _Refusal(Message("arguments.expected", expected="None", got=_kind_name(value)))
        return
    if hint is bool:
        if not isinstance(value, bool):
            raise _Refusal(Message("arguments.expected", expected="bool", got=_kind_name(value)))
        return
    if hint is int or hint is float:
        number = isinstance(value, int) if hint is int else isinstance(value, int | float)
        if not number or isinstance(value, bool):
            raise _Refusal(
                Message("arguments.expected", expected=hint.__name__, got=_kind_name(value))
            )
        return
    if hint is str:
        if not isinstance(value, str):
            raise _Refusal(Message("arguments.expected", expected="str", got=_kind_name(value)))
        return
    if origin in (list, tuple, set, frozenset, Sequence, Iterable) or hint in (list, tuple):
        _check_items(value, hint, origin)
        return
    if origin in (dict, Mapping) or hint is dict:
        if not isinstance(value, Mapping):
            raise _Refusal(Message("arguments.expected", expected="mapping", got=_kind_name(value)))
        args = get_args(hint)
        if args and args[0] is str and any(not isinstance(key, str) for key in value):
            raise _Refusal(Message("arguments.keys_text"))
        return
    if isinstance(hint, type) and getattr(hint, "_is_protocol", False):
        members = [name for name in vars(hint) if not name.startswith("_")]
        if any(not hasattr(value, name) for name in members):  # a dice source: roll_die...
            raise _Refusal(
                Message("arguments.expected", expected=hint.__name__, got=_kind_name(value))
            )
        return
    known_class = isinstance(hint, type)
    if known_class and origin is None and not isinstance(value, hint):  # a sheet, a result...
        raise _Refusal(Message("arguments.expected", expected=hint.__name__, got=_kind_name(value)))


def _check_items(value: object, hint: Any, origin: Any) -> None:
    """A list's (or iterable's) items, when it is a concrete collection: a generator or a
    DataFrame is left to the command (reading it would use it up)."""
    wanted = origin or hint
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise _Refusal(Message("arguments.expected", expected="list", got=_kind_name(value)))
    if wanted in (list, tuple, set, frozenset) and not isinstance(value, wanted):
        got = _kind_name(value)
        raise _Refusal(Message("arguments.expected", expected=wanted.__name__, got=got))
    if not isinstance(value, list | tuple | set | frozenset | dict):
        return  # a generator, a frame: read once, by the command
    args = [arg for arg in get_args(hint) if arg is not Ellipsis]
    if len(args) == 1:
        for item in value:
            _check(item, args[0])


def _hints(function: Callable[..., Any]) -> dict[str, Any]:
    """``function``'s annotations resolved, each one that cannot be (a name imported only for
    type checking) left out: such an argument is the command's to check."""
    module = inspect.getmodule(function)
    names = dict(vars(module)) if module is not None else {}
    names.setdefault("Any", Any)
    found: dict[str, Any] = {}
    for name, annotation in getattr(function, "__annotations__", {}).items():
        if name == "return":
            continue
        try:  # what typing.get_type_hints does for one annotation, forgiving the others
            resolved = eval(annotation, names) if isinstance(annotation, str) else annotation
        except Exception:
            continue
        found[name] = resolved
    return found


def checking(name: str, function: Callable[..., T]) -> Callable[..., T]:
    """``function`` (the command ``name``) with its arguments checked on entry."""
    signature = inspect.signature(function)
    hints = _hints(function)
    kinds = {p.name: p.kind for p in signature.parameters.values()}

    @functools.wraps(function)
    def checked(*args: Any, **kwargs: Any) -> T:
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if caller.startswith("gmkit.") and not caller.startswith("gmkit.encounter."):
            # a panel's call (gmkit's own, typed and checked by mypy; the encounter's own
            # inner calls stay checked: they pass a caller's **options on);
            # a text a GM typed in a panel is still checked in the event (as_json). The
            # seam is checked for callers outside: a notebook, a script (a click made 1,100
            # more calls when every inner call was checked too)
            return function(*args, **kwargs)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as error:
            said = Message("arguments.call", command=name, problem=str(error)[:120])
            raise RulesError(said) from None
        for field, value in list(bound.arguments.items())[1:]:  # after self
            kind = kinds[field]
            try:
                if kind is inspect.Parameter.VAR_KEYWORD:
                    for key, item in value.items():
                        _texts(key)
                        _texts(item)
                    continue
                if kind is inspect.Parameter.VAR_POSITIONAL:
                    _texts(list(value))
                    continue
                if field in hints:
                    _check(value, hints[field])
                _texts(value)
            except _Refusal as refusal:
                said = Message(
                    "arguments.refused", command=name, field=field, problem=refusal.problem
                )
                raise RulesError(said) from None
        return function(*args, **kwargs)

    return checked


def check_commands(cls: type[T]) -> type[T]:
    """Wrap each of :data:`COMMANDS` ``cls`` has (once: a subclass's own are wrapped too)."""
    for name in COMMANDS:
        function = getattr(cls, name, None)
        if function is None or getattr(function, "__gmkit_checked__", False):
            continue
        wrapped = checking(name, function)
        wrapped.__gmkit_checked__ = True  # type: ignore[attr-defined]
        setattr(cls, name, wrapped)
    return cls
