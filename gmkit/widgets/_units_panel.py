"""The units panel (WFB 6e): the units on the table and the distances the GM measured, as the
encounter holds them (:mod:`gmkit.encounter._units`), so a shot at a character works out its
proximity, closest-target and sharing rules from the table, not from boxes typed per shot.

A thin view: the table of units (models left, champions, characters joined, engaged, in sight)
and of distances, and two rows of controls: a unit (picked among the units and the names the
sheets give; its rank and file, champions, troop type, trooper, characters, engaged, in sight;
*Set unit*, *Remove unit*) and a distance (two ends among units and combatants, the distance in
the game's unit; *Set distance*). Each control calls a public method tests call the same way
(``select_unit``, ``set_unit``, ``remove_unit``, ``set_distance``); a refusal is shown and
changes nothing.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from typing import Any

import ipywidgets as widgets
from traitlets import Unicode

from gmkit.encounter import Encounter
from gmkit.encounter._state import Unit
from gmkit.encounter._table import table_troop_types, troop_type_term
from gmkit.encounter._units import unit_from_sheets
from gmkit.errors import GmkitError
from gmkit.games import game as find_game
from gmkit.widgets._i18n import LANGUAGE, t, words
from gmkit.widgets._turn_controls import set_options

__all__ = ["UnitsPanel", "has_units"]

_E = html.escape


def has_units(game: str) -> bool:
    """Whether fights of ``game`` hold units (a mass-battle game)."""
    return table_troop_types(game) is not None


class UnitsPanel(widgets.VBox):
    """Units and distances on the table (see the module docstring)."""

    message = Unicode("", help="the last refusal shown")

    def __init__(self, encounter: Encounter, **kwargs: Any) -> None:
        self.encounter = encounter
        self.unit_name = widgets.Combobox(ensure_option=False, layout={"width": "16em"})
        self.rank_and_file = widgets.BoundedIntText(min=0, max=10_000, layout={"width": "11em"})
        self.champions = widgets.BoundedIntText(min=0, max=100, layout={"width": "9em"})
        self.troop_type = widgets.Dropdown(layout={"width": "16em"})
        self.trooper = widgets.Dropdown(layout={"width": "16em"})
        self.characters = widgets.SelectMultiple(rows=3, layout={"width": "16em"})
        self.engaged = widgets.Checkbox(indent=False, layout={"width": "auto"})
        self.visible = widgets.Checkbox(value=True, indent=False, layout={"width": "auto"})
        self.set_button = widgets.Button(button_style="primary", layout={"width": "auto"})
        self.remove_button = widgets.Button(layout={"width": "auto"})
        self.end_a = widgets.Dropdown(layout={"width": "16em"})
        self.end_b = widgets.Dropdown(layout={"width": "16em"})
        self.distance = widgets.BoundedFloatText(min=0, max=100_000, layout={"width": "11em"})
        self.distance_button = widgets.Button(layout={"width": "auto"})
        self.table = widgets.HTML()
        self.status = widgets.HTML()
        row = {"flex_flow": "row wrap", "align_items": "center"}
        super().__init__(
            [
                self.table,
                widgets.HBox(
                    [self.unit_name, self.rank_and_file, self.champions, self.troop_type],
                    layout=row,
                ),
                widgets.HBox(
                    [self.trooper, self.characters, self.engaged, self.visible], layout=row
                ),
                widgets.HBox([self.set_button, self.remove_button], layout=row),
                widgets.HBox(
                    [self.end_a, self.end_b, self.distance, self.distance_button], layout=row
                ),
                self.status,
            ],
            **kwargs,
        )
        self.add_class("gmkit-units-panel")
        self._syncing = False
        self.unit_name.observe(self._on_unit, names="value")
        self.set_button.on_click(lambda _b: self.set_unit_from_controls())
        self.remove_button.on_click(lambda _b: self.remove_unit(self.unit_name.value))
        self.distance_button.on_click(
            lambda _b: self.set_distance(
                self.end_a.value or "", self.end_b.value or "", self.distance.value
            )
        )
        self._unsubscribe = encounter.subscribe(lambda _e: self._render())
        LANGUAGE.observe(self._on_language, names="value")
        self._relabel()
        self._render()

    # --- the GM's actions -------------------------------------------------------------------

    def select_unit(self, name: str) -> None:
        """Show unit ``name`` in the controls (its values, if it is on the table)."""
        self._syncing = True
        try:
            self.unit_name.value = name
        finally:
            self._syncing = False
        self._show_unit(name)

    def set_unit(self, name: str, **given: Any) -> bool:
        """Put unit ``name`` on the table or change it (``Encounter.set_unit``'s fields)."""
        return self._run(lambda: self.encounter.set_unit(name, **given))

    def set_unit_from_controls(self) -> bool:
        """What *Set unit* does: the unit named, with every value the controls show."""
        return self.set_unit(
            self.unit_name.value,
            rank_and_file=int(self.rank_and_file.value),
            champions=int(self.champions.value),
            troop_type=self.troop_type.value or None,
            trooper=self.trooper.value if self.trooper.value is not None else None,
            characters=list(self.characters.value),
            engaged=bool(self.engaged.value),
            visible=bool(self.visible.value),
        )

    def remove_unit(self, name: str) -> bool:
        return self._run(lambda: self.encounter.remove_unit(name))

    def set_distance(self, a: str, b: str, distance: float) -> bool:
        """The distance the GM measured between ``a`` and ``b`` (units or combatants)."""
        return self._run(lambda: self.encounter.set_distance(a, b, float(distance)))

    def close(self) -> None:
        if self.comm is None:  # closed already (ipywidgets closes again when collecting)
            return
        LANGUAGE.unobserve(self._on_language, names="value")
        self._unsubscribe()
        todo: list[widgets.Widget] = list(self.children)
        while todo:
            part = todo.pop()
            todo.extend(getattr(part, "children", ()))
            part.close()
        super().close()

    # --- inside -------------------------------------------------------------------------------

    def _run(self, command: Callable[[], object]) -> bool:
        try:
            command()
        except GmkitError as error:
            self.message = words(error.message)
            self.status.value = f"<div class='gmkit-error'><b>{_E(self.message)}</b></div>"
            return False
        self.message = ""
        self.status.value = ""
        self._render()
        return True

    def _names(self) -> tuple[str, ...]:
        """The units on the table, then the units the sheets name."""
        state = self.encounter.state
        named = (str(getattr(c.sheet, "unit", "") or "") for c in state.present)
        return tuple(dict.fromkeys([*state.units, *(name for name in named if name)]))

    def _render(self) -> None:
        state = self.encounter.state
        game = self.encounter.game
        people = [(c.name, c.id) for c in state.present]
        characters = [(c.name, c.id) for c in state.present if _role(c) == "character"]
        self._syncing = True
        try:
            self.unit_name.options = self._names()
            known = table_troop_types(game) or {}
            types = [(words(troop_type_term(game, k)), k) for k in known]
            set_options(self.troop_type, types, self.troop_type.value)
            troopers = [("—", ""), *((n, i) for n, i in people if (n, i) not in characters)]
            set_options(self.trooper, troopers, self.trooper.value)
            if [tuple(o) for o in self.characters.options] != characters:
                self.characters.options = characters
            ends = [*((u, u) for u in state.units), *people]
            set_options(self.end_a, ends, self.end_a.value)
            set_options(self.end_b, ends, self.end_b.value)
        finally:
            self._syncing = False
        self.table.value = self._table_html()

    def _table_html(self) -> str:
        state = self.encounter.state
        frame = self.encounter.units_frame()
        unit_of = find_game(self.encounter.game).unit
        head = "".join(
            f"<th>{_E(t(key))}</th>"
            for key in ("unit", "side", "models_left", "champions", "characters", "engaged")
        )
        rows = "".join(
            f"<tr><td>{_E(str(r['unit']))}</td><td>{_E(str(r['side']))}</td>"
            f"<td>{r['rank and file']}/{r['set']}</td><td>{r['champions']}</td>"
            f"<td>{_E(str(r['characters']))}</td>"
            f"<td>{_E(t('yes') if r['engaged'] else t('no'))}</td></tr>"
            for r in frame.to_dict("records")
        )
        units = (
            f"<table class='gmkit-table gmkit-units'><tr>{head}</tr>{rows}</table>"
            if rows
            else f"<p><i>{_E(t('no_units'))}</i></p>"
        )
        names = {c.id: c.name for c in state.combatants.values()}
        measured = "".join(
            f"<li>{_E(names.get(a, a))} ↔ {_E(names.get(b, b))}: {d:g} {_E(unit_of)}</li>"
            for (a, b), d in _pairs(state.distances.items())
        )
        title = f"<div class='gmkit-slot-title'>{_E(t('units'))}</div>"
        return title + units + (f"<ul class='gmkit-distances'>{measured}</ul>" if measured else "")

    def _on_unit(self, change: dict[str, Any]) -> None:
        if not self._syncing:
            self._show_unit(str(change["new"]))

    def _show_unit(self, name: str) -> None:
        """The controls show unit ``name`` as it stands on the table; a unit not yet on it as
        its sheets describe it (the combatants whose sheets name it), so Set unit keeps them."""
        unit = self.encounter.state.units.get(name.strip()) or self._from_sheets(name.strip())
        if unit is None:
            return
        self._syncing = True
        try:
            self.rank_and_file.value = unit.rank_and_file
            self.champions.value = unit.champions
            if unit.troop_type:
                self.troop_type.value = unit.troop_type
            self.trooper.value = unit.trooper
            known = [value for _, value in self.characters.options]
            self.characters.value = tuple(c for c in unit.characters if c in known)
            self.engaged.value = unit.engaged
            self.visible.value = unit.visible
        finally:
            self._syncing = False

    def _from_sheets(self, name: str) -> Unit | None:
        """Unit ``name`` as the encounter would set it from the sheets
        (:func:`~gmkit.encounter._units.unit_from_sheets`); with no combatant named as the unit,
        the panel proposes its first rank and file as the trooper."""
        state = self.encounter.state
        if not name or not any(_sheet_unit(c) == name or c.name == name for c in state.present):
            return None
        found = unit_from_sheets(state, name)
        if not found["trooper"]:
            ranks = [
                c.id
                for c in state.present
                if _sheet_unit(c) == name and _role(c) == "rank and file"
            ]
            if ranks:
                found = unit_from_sheets(state, name, trooper=ranks[0])
        found["rank_and_file"] = int(self.rank_and_file.value)
        found["characters"] = tuple(found["characters"])
        return Unit(**found)

    def _relabel(self) -> None:
        for control, key in (
            (self.rank_and_file, "rank_and_file"),
            (self.champions, "champions"),
            (self.troop_type, "troop_type"),
            (self.trooper, "trooper"),
            (self.characters, "characters"),
            (self.end_a, "from"),
            (self.end_b, "to"),
            (self.distance, "distance"),
        ):
            control.description = t(key)
            control.style.description_width = "initial"
        self.unit_name.placeholder = t("unit")
        self.engaged.description = t("engaged")
        self.visible.description = t("in_sight")
        self.set_button.description = t("set_unit")
        self.remove_button.description = t("remove_unit")
        self.distance_button.description = t("set_distance")

    def _on_language(self, _change: object) -> None:
        self._relabel()
        self._render()


def _role(combatant: Any) -> str:
    return str(getattr(combatant.sheet, "role", ""))


def _sheet_unit(combatant: Any) -> str:
    return str(getattr(combatant.sheet, "unit", "") or "")


def _pairs(items: Iterable[tuple[tuple[str, str], float]]) -> list[tuple[tuple[str, str], float]]:
    """Each measured pair once (the state may keep both orders)."""
    seen: set[frozenset[str]] = set()
    found = []
    for (a, b), distance in items:
        key = frozenset((a, b))
        if key not in seen:
            seen.add(key)
            found.append(((a, b), distance))
    return found
