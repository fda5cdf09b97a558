"""A refused sheet's problems, each a :class:`~gmkit.messages.Message`: a validator's own
(:class:`~gmkit.sheets._fields.Refusal`) or pydantic's, mapped by its error type to a message of
the ``sheets`` catalog whose English is pydantic's own text ("Field required"). Its own module:
the sheets build through the catalogs (:mod:`gmkit.systems._catalogs`), which report their
entries' problems the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from gmkit.errors import GmkitError, SheetError
from gmkit.messages import Message, MessageError, Param, as_message
from gmkit.messages._catalog import catalogs, fields_of
from gmkit.sheets._reading import label, quote


def field_path(loc: tuple[int | str, ...]) -> str:
    """Render a pydantic error location as ``weapons[0].damage``."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part.startswith(("function-", "tagged-union", "union[")):
            continue  # pydantic's internal validator names say nothing to a GM
        else:
            path += f".{part}" if path else part
    return path or "(sheet)"


_PYDANTIC = {
    kind: f"sheets.pydantic.{kind}"
    for kind in (
        "missing",
        "int_type",
        "int_parsing",
        "int_from_float",
        "float_type",
        "float_parsing",
        "bool_type",
        "bool_parsing",
        "string_type",
        "string_too_short",
        "string_too_long",
        "string_pattern_mismatch",
        "list_type",
        "dict_type",
        "model_type",
        "model_attributes_type",
        "literal_error",
    )
}
"""Pydantic's error types a sheet meets, each with a message whose English is pydantic's."""


def _either(choices: tuple[str, ...]) -> Param:
    """``'a', 'b' or 'c'``: the choices as pydantic lists them, in the reader's language."""
    if len(choices) == 1:
        return choices[0]
    return Message("sheets.either", items=choices[:-1], last=choices[-1])


def _pydantic_problem(kind: str, context: Mapping[str, Any]) -> Message | None:
    message_id = _PYDANTIC.get(kind)
    if message_id is None:
        return None
    if kind == "literal_error":
        head, sep, last = str(context.get("expected", "")).rpartition(" or ")
        choices = (*head.split(", "), last) if sep else (last,)
        return Message(message_id, expected=_either(choices))
    wanted = fields_of(catalogs().english(message_id) or "")
    try:
        return Message(message_id, **{name: context[name] for name in wanted})
    except (KeyError, MessageError):  # a context pydantic words otherwise: its text as it is
        return None


def field_problem(item: ErrorDetails) -> Message:
    """One pydantic error as the problem a GM reads: the validator's own message, or pydantic's
    error mapped to a catalog message (its English exactly pydantic's; any other error type
    shows pydantic's text as it is), with the refused value when it is not a list or mapping,
    quoted at most 60 characters long (a value is never formatted whole: it may be huge)."""
    kind = item["type"]
    context = item.get("ctx") or {}
    english = item["msg"].removeprefix("Value error, ")
    raised = context.get("error")
    problem: Message | None
    if kind == "extra_forbidden":
        return Message("sheets.not_a_field")
    if isinstance(raised, GmkitError):
        problem = as_message(raised.message)
    else:
        problem = _pydantic_problem(kind, context)
    if problem is None or str(problem) != english:
        problem = Message.verbatim(english)
    if kind != "missing" and "input" in item:
        shown = item["input"]
        if not isinstance(shown, dict | list):
            problem = Message("sheets.got", problem=problem, got=quote(shown))
    return problem


def sheet_error(data: Any, error: ValidationError) -> SheetError:
    """Turn pydantic's error into one naming the character, each field and its problem. A name
    that is not text, or is blank, is "(unnamed)"; a long one is cut at 80 characters."""
    name = data.get("name") if isinstance(data, dict) else None
    character = label(name, 80)
    problems: list[tuple[str, Message]] = [
        (field_path(tuple(item["loc"])), field_problem(item))
        for item in error.errors(include_url=False)
    ]
    return SheetError(character, problems)


__all__ = ["field_path", "field_problem", "sheet_error"]
