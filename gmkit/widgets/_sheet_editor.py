"""Edit a character sheet's typed fields, with each refusal shown next to its field.

``SheetEditor(sheet, on_save=callback)`` shows an input per typed field of the sheet (the
profile's numbers, wounds or damage, notes, nested values such as ``characteristics.WS``), the
values the rules derive from it, kept up to date as the GM types, and a Save button. The sheet's
own validation decides: a value it refuses is shown beside its input (the field path of the
:class:`~gmkit.errors.SheetError` mapped to the input), and nothing changes until every value is
valid. ``save()`` returns the new validated sheet and calls ``on_save`` with it (the dashboard
persists it); on invalid input it returns None and changes nothing.

Each user action is a public method: ``set_value(path, value)`` (what typing in an input does),
``save()``, ``reset()``.

Choices made:

- Scalars and nested values (a mapping such as ``characteristics``) get one input each, by
  dotted path; a list of names (skills, talents, qualities) is typed comma-separated; a list of
  records (weapons, armour) and a value that is empty (None) are typed as YAML. An error inside
  such a list (``weapons[0].damage``) is shown beside the list's input.
- Numbers are typed as text and handed to the sheet as typed when they are not numbers, so the
  refusal is the sheet's own ("should be a valid integer"), naming the field.
- Each input is labelled in the GM's language, and names of the game's data (weapons, armour,
  talents, qualities) show as the data names them in that language; a name typed in either
  language is read as the sheet keeps it, in English (the sheet's build does that). A record's
  keys and vocabulary are the GM's language's too (:mod:`gmkit.widgets._sheet_yaml`).
- The game of a sheet is not editable (another game is another sheet).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Literal

import ipywidgets as widgets
import yaml
from traitlets import Bool, Dict, Unicode

from gmkit.errors import GmkitError, SheetError
from gmkit.messages import render
from gmkit.sheets._labels import field_label
from gmkit.sheets._reading import load_yaml
from gmkit.sheets.base import Sheet
from gmkit.widgets._i18n import LANGUAGE, named, t, words
from gmkit.widgets._render import field_rows
from gmkit.widgets._sheet_yaml import (
    read_record,
    read_value,
    shown_record,
    shown_value,
    values_in,
)

Kind = Literal["int", "float", "bool", "str", "text", "list", "yaml"]
GENERAL = "(sheet)"
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)")
_LONG_TEXT = ("notes",)
_TYPED = ("name", "side", "notes")
"""The sheet's own texts, as the GM typed them (never read as a word of the rules)."""


def _label(key: str, english: str) -> str:
    found = t(key)
    return english if found == key else found


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool)


def flatten(data: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Kind, Any]]:
    """(path, kind, value) for each editable value of a sheet's dump, in the sheet's order."""
    for key, value in data.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if path == "game":
            continue
        if isinstance(value, Mapping):
            yield from flatten(value, path)
        elif isinstance(value, list):
            yield path, "list" if all(_scalar(v) for v in value) else "yaml", value
        elif isinstance(value, bool):
            yield path, "bool", value
        elif isinstance(value, int):
            yield path, "int", value
        elif isinstance(value, float):
            yield path, "float", value
        elif isinstance(value, str):
            yield path, "text" if key in _LONG_TEXT else "str", value
        else:
            yield path, "yaml", value


def shown(kind: Kind, value: Any, game: str = "", language: str = "en") -> Any:
    """A value as its input shows it; the names of ``game``'s data (a talent, a weapon and its
    qualities) in ``language``."""

    def name(item: Any) -> Any:
        return named(game, item, language) if game and isinstance(item, str) else item

    if kind == "bool":
        return bool(value)
    if kind == "list":
        return ", ".join(str(name(item)) for item in value)
    if kind == "yaml":
        if value is None:
            return ""
        value = shown_record(game, value, language) if game else value
        return yaml.safe_dump(value, allow_unicode=True, sort_keys=False).strip()
    if kind == "float":
        return f"{value:g}"
    return str(value)


class _Unreadable(ValueError):
    """A typed value that cannot even be read (bad YAML)."""


def parse(kind: Kind, typed: Any) -> Any:
    """The value typed in an input, for the sheet to validate."""
    if kind == "bool":
        return bool(typed)
    if not isinstance(typed, str):
        return typed  # a value given by code, not typed: the sheet validates it as is
    text = typed.strip()
    if kind == "int":
        return int(text) if _INT.fullmatch(text) else text
    if kind == "float":
        return float(text) if _FLOAT.fullmatch(text) else text
    if kind == "list":
        return [item.strip() for item in text.split(",") if item.strip()]
    if kind == "yaml":
        if not text:
            return None
        try:
            return load_yaml(text, "sheet")  # the importers' bounded reader: no alias bomb
        except GmkitError as error:
            raise _Unreadable(str(error)) from None
    return typed


def _place(data: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    node = data
    for part in parents:
        node = node[part]
    node[last] = value


def owner(paths: list[str], error_path: str) -> str:
    """The input an error's field path belongs to (the longest path it starts with)."""
    if error_path in paths:
        return error_path
    found = [
        path
        for path in paths
        if error_path.startswith(f"{path}.") or error_path.startswith(f"{path}[")
    ]
    return max(found, key=len) if found else GENERAL


class SheetEditor(widgets.VBox):
    """Edit one sheet (see the module docstring)."""

    valid = Bool(True, help="whether every typed value is accepted by the sheet")
    dirty = Bool(False, help="whether a typed value differs from the saved sheet")
    errors = Dict(help="field path -> the sheet's refusal, for each refused input")
    character = Unicode("", help="the name of the character being edited")

    def __init__(
        self,
        sheet: Sheet,
        *,
        on_save: Callable[[Sheet], Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self.sheet = sheet
        self.on_save = on_save
        self.candidate: Sheet | None = sheet
        self.kinds: dict[str, Kind] = {}
        self.inputs: dict[str, widgets.Widget] = {}
        self.messages: dict[str, widgets.HTML] = {}
        self._syncing = False
        self.title = widgets.HTML()
        self.general = widgets.HTML()
        self.derived_html = widgets.HTML()
        self.save_button = widgets.Button(button_style="success")
        self.reset_button = widgets.Button()
        self.save_button.on_click(lambda _: self.save())
        self.reset_button.on_click(lambda _: self.reset())
        rows = [self._row(path, kind, value) for path, kind, value in flatten(self._dump(sheet))]
        super().__init__(
            children=[
                self.title,
                widgets.VBox(rows),
                self.general,
                widgets.HBox([self.save_button, self.reset_button]),
                self.derived_html,
            ],
            **kwargs,
        )
        LANGUAGE.observe(self._on_language, names="value")
        self._check()

    # --- public ------------------------------------------------------------------------------

    def set_value(self, path: str, value: Any) -> bool:
        """Type ``value`` into the input of ``path`` (``"characteristics.WS"``); returns whether
        the whole sheet is then valid. The sheet itself changes only on :meth:`save`."""
        if path not in self.inputs:
            known = ", ".join(self.inputs)
            raise KeyError(f"no editable field {path!r}; fields: {known}")
        self._syncing = True
        try:
            kind = self.kinds[path]
            self.inputs[path].value = (
                self._shown(kind, value, path) if not isinstance(value, str) else value
            )
        finally:
            self._syncing = False
        return self._check()

    def value(self, path: str) -> Any:
        """What the input of ``path`` holds, as typed."""
        return self.inputs[path].value

    def save(self) -> Sheet | None:
        """The new validated sheet (and ``on_save`` called with it); None, changing nothing,
        while a value is refused."""
        if not self._check() or self.candidate is None:
            return None
        self.sheet = self.candidate
        self.dirty = False
        if self.on_save is not None:
            self.on_save(self.sheet)
        self._render_title()
        return self.sheet

    def label(self, path: str) -> str:
        """The label of ``path``'s input in the GM's language ("characteristics.WS":
        características HA)."""
        game = self.sheet.game
        return " ".join(words(field_label(game, part)) for part in path.split("."))

    def reset(self) -> None:
        """Put the saved sheet's values back in every input."""
        self._syncing = True
        try:
            for path, kind, value in flatten(self._dump(self.sheet)):
                if path in self.inputs:
                    self.inputs[path].value = self._shown(kind, value, path)
        finally:
            self._syncing = False
        self._check()

    def close(self) -> None:
        if self.comm is not None:  # not closed yet (ipywidgets closes again when collecting)
            LANGUAGE.unobserve(self._on_language, names="value")
        super().close()

    # --- inside ------------------------------------------------------------------------------

    @staticmethod
    def _dump(sheet: Sheet) -> dict[str, Any]:
        data: dict[str, Any] = sheet.model_dump(mode="json")
        return data

    def _shown(self, kind: Kind, value: Any, path: str = "") -> Any:
        game = self.sheet.game
        if kind == "str" and path not in _TYPED and isinstance(value, str):  # a rule's word
            return shown_value(game, path.rpartition(".")[2], value, LANGUAGE.value)
        return shown(kind, value, game, LANGUAGE.value)

    def _row(self, path: str, kind: Kind, value: Any) -> widgets.Widget:
        layout = {"width": "24em"}
        style = {"description_width": "12em"}
        description = self.label(path)
        control: widgets.Widget
        if kind == "bool":
            control = widgets.Checkbox(value=bool(value), description=description, style=style)
        elif kind in ("text", "yaml"):
            text = self._shown(kind, value, path)
            rows = 2 if kind == "text" else max(2, min(12, text.count("\n") + 1))
            control = widgets.Textarea(
                value=text,
                description=description,
                rows=rows,
                style=style,
                layout={"width": "40em"},
            )
        else:
            control = widgets.Text(
                value=self._shown(kind, value, path),
                description=description,
                style=style,
                layout=layout,
            )
            control.continuous_update = True
        message = widgets.HTML()
        self.kinds[path], self.inputs[path], self.messages[path] = kind, control, message

        def typed(change: dict[str, Any]) -> None:
            if not self._syncing:
                self._check()

        control.observe(typed, names="value")
        return widgets.HBox([control, message])

    def _typed_data(self) -> tuple[dict[str, Any], dict[str, str]]:
        data = self._dump(self.sheet)
        saved = {path: value for path, _, value in flatten(data)}
        unreadable: dict[str, str] = {}
        for path, control in self.inputs.items():
            try:
                typed = parse(self.kinds[path], control.value)
                if self.kinds[path] == "yaml":  # keys and words in either language
                    typed = read_record(self.sheet.game, typed, values_in(saved.get(path)))
                elif self.kinds[path] == "str" and path not in _TYPED and isinstance(typed, str):
                    key = path.rpartition(".")[2]
                    typed = read_value(self.sheet.game, key, typed, values_in(saved.get(path)))
                _place(data, path, typed)
            except _Unreadable as error:
                unreadable[path] = str(error)
        return data, unreadable

    def _check(self) -> bool:
        """Validate what is typed: errors beside their inputs, derived values when valid."""
        data, problems = self._typed_data()  # an unreadable value keeps the saved one here
        candidate: Sheet | None = None
        try:
            candidate = type(self.sheet).build(data)
        except SheetError as error:
            paths = list(self.inputs)
            for field, message in error.problems:
                where = owner(paths, field)
                text = render(message, LANGUAGE.value)
                shown_message = text if where == field else f"{field}: {text}"
                problems[where] = "; ".join(filter(None, [problems.get(where), shown_message]))
        if problems:
            candidate = None
        self.candidate = candidate
        self.errors = problems
        self.valid = candidate is not None
        self.dirty = candidate is None or candidate != self.sheet
        self._render(problems)
        return self.valid

    def _render(self, problems: Mapping[str, str]) -> None:
        for path, message in self.messages.items():
            problem = problems.get(path, "")
            message.value = (
                f"<span class='gmkit-error' style='color:#b00020'>{html.escape(problem)}</span>"
                if problem
                else ""
            )
        general = problems.get(GENERAL, "")
        self.general.value = (
            f"<div class='gmkit-error' style='color:#b00020'>{html.escape(general)}</div>"
            if general
            else ""
        )
        shown_sheet = self.candidate or self.sheet
        rows = field_rows(shown_sheet.game, shown_sheet.derived())
        stale = "" if self.candidate is not None else f" ({_label('stale', 'last valid values')})"
        self.derived_html.value = (
            f"<h4>{html.escape(t('derived'))}{html.escape(stale)}</h4>"
            f"<table class='gmkit-derived'>{rows}</table>"
        )
        self.save_button.description = t("save")
        self.save_button.disabled = not self.valid
        self.reset_button.description = _label("reset", "Reset")
        self._render_title()

    def _render_title(self) -> None:
        self.character = self.sheet.name
        mark = " *" if self.dirty else ""
        self.title.value = (
            f"<h3>{html.escape(t('sheet'))}: {html.escape(self.sheet.name)}{mark}</h3>"
        )

    def _on_language(self, change: dict[str, Any]) -> None:
        for path, control in self.inputs.items():
            control.description = self.label(path)
        if not self.dirty:  # the saved values, their names in the new language
            self.reset()
        self._render(self.errors)


__all__ = ["SheetEditor", "flatten", "owner", "parse", "shown"]
