"""The attack panel's options: a control for each option the game's options model offers.

The panel offers exactly what the game declares (:func:`gmkit.systems.options.offered_options`):
a checkbox for a yes/no option, a choice for an enumeration or a yes/no/unset one, a box for a
number or a name; each labelled, with its help as tooltip, in the GM's language. Like the
circumstances, they show as one line (those set) until the GM opens them, and are built then.
"""

from __future__ import annotations

import html
import types
import typing
from typing import Any

import ipywidgets as widgets

from gmkit._forms import AttackForm
from gmkit.messages import Message, catalogs
from gmkit.systems.offers import MODES, mode_label
from gmkit.systems.options import OptionInfo
from gmkit.widgets._folded import FoldedSection
from gmkit.widgets._i18n import t, words
from gmkit.widgets._sync import assign as _set

UNSET = "__unset__"
"""The choice that leaves an option to its default."""


def _arguments(annotation: Any) -> tuple[Any, ...]:
    """The members of a union (``bool | None``: bool, None), or the annotation alone."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return typing.get_args(annotation)
    return (annotation,)


def option_kind(info: OptionInfo) -> tuple[str, tuple[Any, ...]]:
    """How a panel asks for an option: ("flag", ()), ("choice", values), ("number", ()) or
    ("text", ()); choices include None when the option may be left unset."""
    members = _arguments(info.annotation)
    optional = type(None) in members
    members = tuple(m for m in members if m is not type(None))
    if members == (bool,):
        return ("choice", (None, True, False)) if optional else ("flag", ())
    literal = [m for m in members if typing.get_origin(m) is typing.Literal]
    values = tuple(value for m in literal for value in typing.get_args(m))
    if literal and len(literal) == len(members):
        return "choice", ((None, *values) if optional else values)
    if literal and len(literal) == len(members) - 1 and bool in members:  # yes, or a kind of it
        return "choice", (None, True, *values)
    if all(m in (int, float) for m in members):
        return "number", ()
    return "text", ()


class OptionEditor(FoldedSection):
    """The options' line, toggle and controls."""

    def sync(self, form: AttackForm, open_: bool) -> None:
        offered = {info.name: info for info in form.option_fields}
        chosen = [
            words(info.label) if value is True else f"{words(info.label)}: {_shown(value)}"
            for info in offered.values()
            if (value := form.options.get(info.name)) is not None
        ]
        summary = html.escape(", ".join(chosen) or words(Message("widgets.none_set")))
        _set(self.line, value=f"<b>{html.escape(t('options'))}</b>: {summary}")
        _set(self.toggle, description=words(Message("widgets.edit_options")))
        _set(self.toggle, value=open_)
        self._offered = offered
        self.build(tuple(offered), lambda name: self._control(offered[name]), now=open_)
        self._syncing = True
        try:
            for name, control in self.controls.items():
                info = offered[name]
                _set(control, value=_value(control, form.options.get(name, info.default)))
        finally:
            self._syncing = False
        self.show(open_, bool(offered))

    def read(self, key: str, value: Any) -> Any:
        """The option's value from its control; its default reads as unset (None)."""
        info = self._offered[key]
        found = _read(option_kind(info)[0], value)
        return None if found == info.default else found

    def _control(self, info: OptionInfo) -> widgets.Widget:
        kind, values = option_kind(info)
        text, tip = words(info.label), words(info.help)
        initial = {"description_width": "initial"}
        make = self._shared.make
        if kind == "flag":
            return make(widgets.Checkbox, description=text, indent=False, tooltip=tip)
        if kind == "choice":
            options = [(_choice_label(v), UNSET if v is None else v) for v in values]
            return make(
                widgets.Dropdown, description=text, options=options, style=initial, tooltip=tip
            )
        control = make(widgets.Text, description=text, style=initial, tooltip=tip)
        control.continuous_update = False
        return control


def _choice_label(value: Any) -> str:
    """A value of an option in words: default, yes, no, a fire mode, or the catalogs'
    ``options.value.<value>``."""
    if value is None:
        return words(Message("widgets.option_default"))
    if value is True:
        return words(Message("widgets.yes"))
    if value is False:
        return words(Message("widgets.no"))
    text = str(value)
    if text in MODES:
        return words(mode_label(text))
    found = f"options.value.{text}"
    if catalogs().english(found) is not None:
        return words(Message(found))
    return text.replace("_", " ")


def _shown(value: Any) -> str:
    """A chosen value in the options' line: a choice by its words (a fire mode, "esquiva"),
    a number or a text as it is."""
    return _choice_label(value) if isinstance(value, bool | str) else str(value)


def _value(control: widgets.Widget, value: Any) -> Any:
    """What a control shows for an option's value (unset: its default's place)."""
    if isinstance(control, widgets.Checkbox):
        return bool(value)
    if isinstance(control, widgets.Dropdown):
        return UNSET if value is None else value
    return "" if value is None else str(value)


def _read(kind: str, value: Any) -> Any:
    """An option's value from its control (None: back to the default)."""
    if kind == "flag":
        return bool(value)
    if kind == "choice":
        return None if value == UNSET else value
    text = str(value).strip()
    if not text:
        return None
    if kind == "number":
        number = float(text.replace(",", "."))
        return int(number) if number.is_integer() else number
    return text


__all__ = ["UNSET", "OptionEditor", "option_kind"]
