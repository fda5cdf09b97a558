"""The options an attack takes, declared once per game: a typed seam, not a bag of keys.

Each game declares its options as a frozen pydantic model (``DarkHeresyOptions``...) whose
fields carry their help text; :meth:`AttackOptions.coerce` builds it from a mapping and refuses,
as a :class:`~gmkit.errors.RulesError` whose message names the option, the problem and the
valid choices, an unknown option (with the nearest known name), a value of the wrong type or
out of range. The encounter builds the model for its requests; the attack form offers exactly
the fields a model marks as offered (:func:`offered_options`).

``option(default, "Help text", offered=True)`` declares a field: ``offered`` fields are the
GM's choices a panel shows (a house rule switch, the parry weapon); the others are set by
gmkit's own parts (the encounter, the odds engines) or from Python.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gmkit.errors import RulesError
from gmkit.messages import Message, Text, render
from gmkit.plugins import entry


def option(
    default: Any,
    help_text: Text,
    *,
    offered: bool = False,
    label: Text = "",
    **constraints: Any,
) -> Any:
    """A declared option: its default, its help text (a message, for the panel's tooltip in
    the GM's language), whether a panel offers it, the label a panel shows it with (an offered
    option has one), and pydantic constraints (``ge=0``...)."""
    extra: dict[str, Any] = {"offered": offered, "help": help_text, "label": label}
    return Field(default, description=render(help_text), json_schema_extra=extra, **constraints)


class AttackOptions(BaseModel):
    """The base of every game's options model (see the module docstring)."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, arbitrary_types_allowed=True
    )
    game: ClassVar[str] = ""

    @classmethod
    def coerce(cls, given: Mapping[str, Any] | AttackOptions | None, game: str = "") -> Self:
        """``given`` as this model; RulesError naming each refused option."""
        if isinstance(given, cls):
            return given
        if isinstance(given, AttackOptions):
            given = {name: getattr(given, name) for name in given.model_fields_set}
        try:
            return cls.model_validate(dict(given or {}))
        except ValidationError as error:
            raise RulesError(_refusal(cls, error, game or cls.game)) from None

    def changed(self, **changes: Any) -> Self:
        """These options with ``changes`` (validated like a new model)."""
        kept = {name: getattr(self, name) for name in self.model_fields_set}
        return self.coerce({**kept, **changes}, self.game)

    def get(self, name: str, default: Any = None) -> Any:
        """The option ``name``, or ``default`` when it was not set (nor has a default)."""
        value = getattr(self, name, default)
        return default if value is None else value

    def __contains__(self, name: object) -> bool:
        return name in self.model_fields_set


class OpenOptions(AttackOptions):
    """Options of a game that declares none: any key is kept, read as a mapping (a toy game's,
    a test's). Every game of the seeds declares its own model."""

    model_config = ConfigDict(extra="allow", frozen=True, arbitrary_types_allowed=True)

    @property
    def _extra(self) -> dict[str, Any]:
        return self.model_extra or {}

    def get(self, name: str, default: Any = None) -> Any:
        return self._extra.get(name, default)

    def __contains__(self, name: object) -> bool:
        return name in self._extra

    def __getitem__(self, name: str) -> Any:
        return self._extra[name]

    def __iter__(self) -> Any:
        return iter(self._extra)

    def __len__(self) -> int:
        return len(self._extra)

    def keys(self) -> Any:
        return self._extra.keys()

    def items(self) -> Any:
        return self._extra.items()

    def values(self) -> Any:
        return self._extra.values()

    def changed(self, **changes: Any) -> OpenOptions:
        return OpenOptions.model_validate({**self._extra, **changes})


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """A declared option as a panel shows it."""

    name: str
    default: Any
    help: Text
    annotation: Any
    label: Text = ""


def offered_options(model: type[AttackOptions]) -> tuple[OptionInfo, ...]:
    """The fields of ``model`` a panel offers (declared with ``offered=True``), in order."""
    found = []
    for name, info in model.model_fields.items():
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        if extra.get("offered"):
            shown = extra.get("help") or info.description or ""
            label = extra.get("label") or name.replace("_", " ")
            found.append(OptionInfo(name, info.default, shown, info.annotation, label))  # type: ignore[arg-type]
    return tuple(found)


def options_model(game: str) -> type[AttackOptions]:
    """The options model ``game`` declares (its registry entry's)."""
    return entry(game).options


_PROBLEMS = {
    "bool_type": "options.must_be_bool",
    "int_type": "options.must_be_int",
    "float_type": "options.must_be_number",
    "string_type": "options.must_be_text",
    "literal_error": "options.must_be_one_of",
    "greater_than_equal": "options.must_be_at_least",
    "less_than_equal": "options.must_be_at_most",
    "greater_than": "options.must_be_above",
    "less_than": "options.must_be_below",
    "is_instance_of": "options.must_be_instance",
}


def _refusal(model: type[AttackOptions], error: ValidationError, game: str) -> Message:
    known = tuple(model.model_fields)
    problems = []
    for found in error.errors():
        name = str(found["loc"][0]) if found["loc"] else "options"
        kind = found["type"]
        context = found.get("ctx") or {}
        shown = _shown(found.get("input"))
        if kind == "extra_forbidden":
            near = difflib.get_close_matches(name, known, n=1)
            problem = (
                Message("options.unknown_near", near=near[0], valid=known)
                if near
                else Message("options.unknown", valid=known)
            )
        elif kind == "literal_error":
            expected = str(context.get("expected", ""))
            choices = tuple(re.findall(r"'([^']*)'", expected)) or (expected,)
            problem = Message("options.must_be_one_of", choices=choices, got=shown)
        elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
            limit = next(iter(context.values()), "")
            problem = Message(_PROBLEMS[kind], limit=str(limit), got=shown)
        elif kind == "is_instance_of":
            problem = Message(_PROBLEMS[kind], kind=str(context.get("class", "")), got=shown)
        elif kind in _PROBLEMS:
            problem = Message(_PROBLEMS[kind], got=shown)
        else:
            problem = Message("options.invalid", detail=str(found.get("msg", kind)), got=shown)
        problems.append(Message("options.problem", option=repr(name), problem=problem))
    return Message("options.refused", game=game or "this game", problems=tuple(problems))


def _shown(value: Any) -> str:
    """A refused value, shown short (never a huge value formatted whole)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


__all__ = [
    "AttackOptions",
    "OpenOptions",
    "OptionInfo",
    "offered_options",
    "option",
    "options_model",
]
