"""The turn panel's two foldable parts, built when the GM first opens them: the controls of a
non-attack action and those of the conditions. Formatting and binding only: each control calls
the panel's public method (:class:`gmkit.widgets._turn_panel.TurnPanel`), and each part
re-renders from the form (:class:`gmkit._forms.action.ActionForm`) and the encounter."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from gmkit.encounter._terms import condition_name, known_conditions
from gmkit.messages import LANGUAGES, Message
from gmkit.systems.base import Choice
from gmkit.systems.turns import action_type_name
from gmkit.widgets._i18n import LANGUAGE, named, t, words

if TYPE_CHECKING:
    from gmkit.widgets._turn_panel import TurnPanel

NOTHING = "—"
REFUSED_MARK = " ⨯"


def set_options(picker: Any, options: list[tuple[str, str]], value: str | None) -> None:
    """``picker``'s options and value, each sent only when it changed."""
    if [tuple(option) for option in picker.options] != options:
        picker.options = options
    values = [v for _, v in options]
    chosen = value if value in values else (values[0] if values else None)
    if picker.value != chosen:
        picker.value = chosen


def _wrap(*children: widgets.Widget) -> widgets.HBox:
    return widgets.HBox(list(children), layout={"flex_flow": "row wrap", "align_items": "center"})


def _close_all(root: widgets.Widget) -> None:
    todo: list[widgets.Widget] = [root]
    while todo:
        part = todo.pop()
        todo.extend(getattr(part, "children", ()))
        part.close()


class ActionControls:
    """Actor, action, type; the table's dice, Do it (anyway) and why not; target, weapon and
    the action's inputs."""

    def __init__(self, panel: TurnPanel) -> None:
        self.panel = panel
        self.actor = widgets.Dropdown(layout={"width": "15em"})
        self.action = widgets.Dropdown(layout={"width": "17em"})
        self.action_type = widgets.ToggleButtons(style={"button_width": "6em"})
        self.target = widgets.Dropdown(layout={"width": "15em"})
        self.weapon = widgets.Dropdown(layout={"width": "15em"})
        self.inputs = widgets.HBox(layout={"flex_flow": "row wrap"})
        self.dice = widgets.Text(layout={"width": "9em"})
        self.do = widgets.Button(button_style="primary", layout={"width": "auto"})
        self.do.add_class("gmkit-do")
        self.reason = widgets.Text(layout={"width": "14em"})
        self.anyway = widgets.Button(button_style="warning", layout={"width": "auto"})
        self.why = widgets.HTML()
        self.anyway.add_class("gmkit-do-anyway")
        self.do_line = _wrap(self.dice, self.do, self.reason, self.anyway)
        self.do_line.add_class("gmkit-do-line")
        self.box = widgets.VBox(
            [
                _wrap(self.actor, self.action, self.action_type),
                # Do it under the choice, before the inputs: however many an action has (8
                # for a Necromunda move), Do it stays where the GM saw it
                self.do_line,
                self.why,
                _wrap(self.target, self.weapon, self.inputs),
            ]
        )
        self.box.add_class("gmkit-action-controls")
        self._syncing = False
        self._inputs_shown: tuple[str, ...] = ()
        for picker, method in (
            (self.actor, panel.select_actor),
            (self.action, panel.select_action),
            (self.action_type, panel.set_type),
            (self.target, panel.select_target),
            (self.weapon, panel.select_weapon),
        ):
            picker.observe(lambda change, m=method: self._picked(m, change["new"]), names="value")
        self.do.on_click(lambda _b: panel.perform(self.typed()))
        self.anyway.on_click(
            lambda _b: panel.perform(self.typed(), override=self.reason.value.strip())
        )

    def typed(self) -> str | None:
        return self.dice.value.strip() or None

    def cleared(self) -> None:
        """After an action was recorded: no dice, no reason left typed."""
        self.dice.value = self.reason.value = ""

    def render(self) -> None:
        panel, form = self.panel, self.panel.form
        state = panel.encounter.state
        info = form.info
        self._syncing = True
        try:
            set_options(self.actor, [(c.name, c.id) for c in state.present], form.actor)
            offered = [
                (words(o.info.label) + ("" if o.allowed else REFUSED_MARK), o.info.id)
                for o in form.offered
            ]
            set_options(self.action, [(NOTHING, ""), *offered], form.action)
            types = [(words(action_type_name(k)), k) for k in (info.types if info else ())]
            self.action_type.layout.display = "" if len(types) > 1 else "none"
            if len(types) > 1:
                set_options(self.action_type, types, form.as_type or types[0][1])
            wants_target = info is not None and info.target
            self.target.layout.display = "" if wants_target else "none"
            if wants_target:
                names = [(panel.name_of(i), i) for i in form.targets]
                set_options(self.target, names, form.target)
            wants_weapon = info is not None and info.weapon
            self.weapon.layout.display = "" if wants_weapon else "none"
            if wants_weapon:
                weapons = [(named(state.game, w), w) for w in form.weapons]
                set_options(self.weapon, weapons, form.weapon)
            self._render_inputs(info.inputs if info is not None else ())
        finally:
            self._syncing = False
        permit = form.permit
        refused = permit is not None and not permit.allowed
        self.do.disabled = info is None or refused
        for part in (self.reason, self.anyway):
            part.layout.display = "" if refused else "none"
        why = words(permit.why) if refused and permit is not None and permit.why else ""
        self.why.value = f"<div class='gmkit-warning'>{panel.escape(why)}</div>" if why else ""

    def relabel(self) -> None:
        for picker, key in (
            (self.actor, "actor"),
            (self.action, "action"),
            (self.target, "target"),
            (self.weapon, "weapon"),
        ):
            picker.description = t(key)
            picker.style.description_width = "initial"
        self.dice.placeholder = t("typed_dice")
        self.do.description = t("do_action")
        self.reason.placeholder = t("override_reason")
        self.anyway.description = t("do_anyway")
        self._inputs_shown = ()  # their labels: built again in the new language

    def close(self) -> None:
        _close_all(self.box)

    def _picked(self, method: Any, value: Any) -> None:
        if not self._syncing and value:
            method(value)

    def _render_inputs(self, inputs: tuple[Choice, ...]) -> None:
        wanted = (*(choice.id for choice in inputs), LANGUAGE.value)
        if wanted == self._inputs_shown:
            return
        self._inputs_shown = wanted
        for child in self.inputs.children:
            child.close()
        self.inputs.children = [self._input(choice) for choice in inputs]

    def _input(self, choice: Choice) -> widgets.Widget:
        label = words(choice.label)
        control: widgets.Widget
        if choice.kind == "flag":
            control = widgets.Checkbox(description=label, indent=False, layout={"width": "auto"})
        elif choice.kind == "number":
            control = widgets.FloatText(description=label, layout={"width": "auto"})
        else:
            options = [(NOTHING, "")] + [
                (words(choice.option_label(option)), option) for option in choice.options
            ]
            control = widgets.Dropdown(description=label, options=options, layout={"width": "17em"})
        control.style.description_width = "initial"
        control.observe(
            lambda change, c=choice: self._syncing or self.panel.set_input(c.id, change["new"]),
            names="value",
        )
        return control


class ConditionControls:
    """Whose conditions, their chips (click to remove), a condition to add with its rounds,
    and the setting "Next skips the fallen"."""

    def __init__(self, panel: TurnPanel) -> None:
        self.panel = panel
        self.who = widgets.Dropdown(layout={"width": "15em"})
        self.name = widgets.Combobox(ensure_option=False, layout={"width": "15em"})
        self.rounds = widgets.Text(layout={"width": "6em"})
        self.add = widgets.Button(layout={"width": "auto"})
        self.add.add_class("gmkit-add-condition")
        self.chips = widgets.HBox(layout={"flex_flow": "row wrap"})
        self.skip_fallen = widgets.Checkbox(indent=False, layout={"width": "auto"})
        self.box = widgets.VBox(
            [_wrap(self.who, self.name, self.rounds, self.add), self.chips, self.skip_fallen]
        )
        self._syncing = False
        self._shown: tuple[Any, ...] | None = None
        self.who.observe(self._on_who, names="value")
        self.skip_fallen.observe(
            lambda c: self._syncing or panel.set_skip_fallen(bool(c["new"])), names="value"
        )
        self.add.on_click(
            lambda _b: panel.add_condition(
                self.who.value or "", self.condition_key(self.name.value), self.rounds.value
            )
        )
        game = panel.encounter.game
        self._keys = known_conditions(game)  # the declared kinds, the fallen among them

    def condition_key(self, typed: str) -> str:
        """The condition a picked or typed name is (its key), in either language ("aturdido":
        stunned); a condition of the GM's own as typed."""
        game, text = self.panel.encounter.game, typed.strip().casefold()
        for key in self._keys:
            named = {words(condition_name(game, key), code).casefold() for code in LANGUAGES}
            if text == key.casefold() or text in named:
                return key
        return typed

    def cleared(self) -> None:
        self.name.value = self.rounds.value = ""

    def show(self, ident: str) -> None:
        """Show ``ident``'s conditions."""
        self.who.value = ident

    def render(self) -> None:
        panel = self.panel
        state = panel.encounter.state
        self._syncing = True
        try:
            present = [(c.name, c.id) for c in state.present]
            set_options(self.who, present, self.who.value or panel.form.actor)
            self.skip_fallen.value = state.settings.get("skip_fallen", True) is not False
        finally:
            self._syncing = False
        ident = self.who.value or ""
        combatant = state.combatants.get(ident)
        conditions = tuple(combatant.conditions.items()) if combatant is not None else ()
        key = (ident, conditions, LANGUAGE.value)
        if key == self._shown:
            return
        self._shown = key
        for child in self.chips.children:
            child.close()
        chips: list[widgets.Widget] = []
        for name, condition in conditions:
            named = condition_name(panel.encounter.game, name)  # capitalised, as the tracker's
            shown = words(Message("widgets.condition_chip_plain", condition=named))
            if condition.rounds is not None:
                shown += f" · {condition.rounds}"
            chip = widgets.Button(
                description=f"{shown} ✕", tooltip=t("remove"), layout={"width": "auto"}
            )
            chip.add_class("gmkit-chip")
            chip.on_click(lambda _b, who=ident, n=name: panel.remove_condition(who, n))
            chips.append(chip)
        self.chips.children = chips

    def _on_who(self, _change: object) -> None:
        if not self._syncing:
            self.render()

    def relabel(self) -> None:
        self.who.description = t("character")
        self.who.style.description_width = "initial"
        self.name.placeholder = t("condition_name")
        game = self.panel.encounter.game  # the suggestions by name, in the page's language
        self.name.options = tuple(dict.fromkeys(words(condition_name(game, k)) for k in self._keys))
        self.rounds.placeholder = t("rounds_or_empty")
        self.add.description = t("add_condition")
        self.skip_fallen.description = t("skip_fallen")
        self._shown = None

    def close(self) -> None:
        _close_all(self.box)


__all__ = ["NOTHING", "REFUSED_MARK", "ActionControls", "ConditionControls", "set_options"]
