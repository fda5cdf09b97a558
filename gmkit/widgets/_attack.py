"""The attack panel: pick who attacks whom, how; roll (or type the table's dice); apply; undo.

A thin view over an :class:`~gmkit._forms.AttackForm`, which holds the selections, their
defaults and resets, and asks the rules and the encounter what is offered: the panel binds a
control to each of the form's fields, shows the form's state (in the GM's language: every
text is a message the renderer puts into words), and calls the form's methods. Every control
calls a public method, and tests call the same methods: ``select_attacker``,
``select_weapon``, ``select_mode``, ``select_action``, ``select_target``, ``set_distance``,
``set_circumstance``, ``pin``, ``select_location``, ``select_reaction``, ``set_option``
(a control for each option the game declares as the GM's: ``edit_options``),
``set_dice_mode``, ``set_seed``, ``resolve``, ``enter``, ``apply``, ``undo``, ``redo``.

The selections are read-only here (``panel.weapon``); choosing goes through the methods, which
refuse what is not offered. An error the form, the rules or the encounter raise (any
:class:`~gmkit.errors.GmkitError`) is shown in the panel, never raised.

Odds: ``odds_view`` (an :class:`~gmkit.widgets._odds_view.OddsView`) shows the exact odds of the
request the form would resolve, or why there are none.

Cheap to update, for a screen at the table: a control is sent to the page only when what it
shows changed (a dropdown's options and choice in one message), and the circumstances show as
one line (those set) until the GM opens them (``edit_circumstances``): their controls are
built then. The panel's widgets share their layouts and styles.

Why over 400 lines: its size is its surface: a public method per GM action, bound to a control
each, and the read-only view of the form; the rules of the cascade are in :mod:`gmkit._forms`,
the circumstances and options editors and the HTML in modules of their own.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import ipywidgets as widgets
from traitlets import Bool, Unicode

from gmkit._forms import DICE_MODES, AttackForm
from gmkit._forms.offered import Offered
from gmkit.encounter import Encounter
from gmkit.errors import GmkitError
from gmkit.messages import Message, Text, render
from gmkit.systems import _choices as choices
from gmkit.systems._percentile import location_name
from gmkit.systems.base import AttackResult
from gmkit.systems.turns import pool_name
from gmkit.widgets._attack_circumstances import CircumstanceEditor
from gmkit.widgets._attack_options import OptionEditor
from gmkit.widgets._attack_view import (
    error_html,
    label,
    preview_html,
    prompt_html,
    refused_html,
    steps_html,
)
from gmkit.widgets._dice_entry import DiceEntry
from gmkit.widgets._i18n import LANGUAGE, named, t
from gmkit.widgets._odds_view import OddsView
from gmkit.widgets._render import STYLE
from gmkit.widgets._sync import assign as _set
from gmkit.widgets._sync import choose as _choose
from gmkit.widgets._tracker import Shared

F = TypeVar("F", bound=Callable[..., Any])


def _shown(method: F) -> F:
    """Run a public method; an error gmkit raises on purpose is shown, not raised."""

    @wraps(method)
    def run(self: AttackPanel, *args: Any, **kwargs: Any) -> Any:
        self._error = ""
        renders = self._renders
        try:
            return method(self, *args, **kwargs)
        except GmkitError as error:
            self._error = error.message
            return None
        except ValueError as error:
            self._error = str(error)
            return None
        finally:
            if self._error or self._renders == renders:  # not shown yet by the form's news
                self._render()

    return run  # type: ignore[return-value]


def _words(text: Text) -> str:
    return render(text, LANGUAGE.value)


def _same_key(key: tuple[Any, ...], shown: tuple[Any, ...]) -> bool:
    """What the dropdowns were made from is the same (the offer itself, not an equal one)."""
    return key[0] is shown[0] and key[1:] == shown[1:]


class AttackPanel(widgets.VBox):
    """An attack from selection to applied effects (see the module docstring)."""

    error = Unicode("", help="the last error, as shown in the panel (in the GM's language)")
    prompt = Unicode("", help="the die the rules need next (physical dice), as shown")
    circumstances_open = Bool(False, help="a control per circumstance shown (edit_circumstances)")
    options_open = Bool(False, help="a control per option of the game shown (edit_options)")

    def __init__(
        self,
        encounter: Encounter,
        *,
        seed: int | None = None,
        follow_actor: bool = False,
        with_style: bool = True,
        **kwargs: Any,
    ) -> None:
        """``follow_actor``: the attacker follows the current actor (the dashboard's panel);
        ``with_style``: carry gmkit's CSS (off where the page has it already)."""
        self.encounter = encounter
        self.game = encounter.game
        self._error: Text = ""
        self._syncing = False
        self._shown_attacker: str | None = None  # whose choices the editors were opened for
        self._closed = False
        self._renders = 0  # how many times the panel was shown (a method shows it once)
        self._options_shown: tuple[tuple[Any, ...], list[tuple[str, list[Any]]]] | None = None
        self._steps_drawn: tuple[object, str] | None = None  # the result and language shown
        self.form = AttackForm(encounter, seed=seed, follow_actor=follow_actor)
        self._build()
        super().__init__(children=self._layout(with_style), **kwargs)
        self._unsubscribe = self.form.subscribe(lambda form: self._render())
        LANGUAGE.observe(self._on_language, names="value")
        self._render()

    def close(self) -> None:
        """Stop following the encounter and the language, and close the controls."""
        if not self._closed:  # once: ipywidgets closes a deleted widget again
            self._closed = True
            self._unsubscribe()
            self.form.close()
            LANGUAGE.unobserve(self._on_language, names="value")
            self._circumstances.close()
            self._options.close()
            parts = (
                *self.children,
                *self._rows,
                self.dice_row,
                self.entry_row,
                self.result_column,
                self.odds_column,
            )
            for part in parts:
                for child in getattr(part, "children", ()):
                    child.close()
                part.close()
            self._shared.close()
        super().close()

    @property
    def dice_entry(self) -> DiceEntry:
        """The boxes of the table's dice (built when first shown, or asked for)."""
        entry = self._entry
        if entry is None:
            entry = self._entry = DiceEntry()
            entry.observe(self._on_dice_typed, names="values")
            self.entry_row.children = [entry]
        return entry

    _entry: DiceEntry | None

    # --- what the form holds, read-only -------------------------------------------------------

    attacker = property(lambda self: self.form.attacker, doc="id of the attacking combatant")
    weapon = property(lambda self: self.form.weapon, doc="the attacker's weapon, by name")
    mode = property(lambda self: self.form.mode, doc="fire mode or attack form")
    action = property(lambda self: self.form.action, doc="the attack action's id")
    target = property(lambda self: self.form.target, doc="id of the combatant attacked")
    distance = property(lambda self: self.form.distance, doc="distance, in the game's unit")
    location = property(lambda self: self.form.location, doc="a called shot's location")
    circumstances = property(lambda self: self.form.in_effect, doc="those the attack uses")
    reaction = property(lambda self: self.form.reaction, doc="the target's reaction")
    result = property(lambda self: self.form.result, doc="the shown result (None: none)")
    applied = property(lambda self: self.form.applied, doc="the shown result is applied")
    preview = property(lambda self: self.form.preview, doc="the test before the dice")
    problem = property(lambda self: _words(self.form.problem), doc="why it cannot resolve yet")
    unit = property(lambda self: self.form.unit, doc="the game's distance unit")
    budget = property(lambda self: self.form.budget, doc="the action budget is counted")
    secret = property(lambda self: self.form.secret, doc="kept from the players")
    dice_mode = property(lambda self: self.form.dice.mode, doc="seeded or physical")
    seed = property(lambda self: self.form.dice.seed, doc="seed of gmkit's dice")
    typed = property(lambda self: list(self.form.dice.typed), doc="values typed so far")
    attackers = property(lambda self: self.form.offered.attackers)
    weapons = property(lambda self: self.form.offered.weapons)
    modes = property(lambda self: self.form.offered.modes)
    actions = property(lambda self: self.form.offered.actions)
    targets = property(lambda self: self.form.offered.targets)
    locations = property(lambda self: self.form.offered.locations)
    circumstance_choices = property(lambda self: self.form.offered.circumstances)
    reactions = property(lambda self: self.form.offered.reactions)

    @property
    def not_offered(self) -> dict[str, str]:
        """Action id -> why it is not offered, in the GM's language."""
        return {key: _words(why) for key, why in self.form.offered.not_offered.items()}

    @property
    def reactions_refused(self) -> dict[str, str]:
        return {key: _words(why) for key, why in self.form.offered.reactions_refused.items()}

    @property
    def warnings(self) -> tuple[str, ...]:
        unused = self.form.dice.unused
        return (f"{label('unused_dice', 'not needed')}: {' '.join(unused)}",) if unused else ()

    # --- the GM's actions ---------------------------------------------------------------------

    @_shown
    def select_attacker(self, ident: str) -> None:
        """Attack with combatant ``ident`` (an id or a name): its defaults (see AttackForm)."""
        self.form.select_attacker(ident)

    @_shown
    def select_weapon(self, name: str) -> None:
        self.form.select_weapon(name)

    @_shown
    def select_mode(self, mode: str) -> None:
        self.form.select_mode(mode)

    @_shown
    def select_action(self, action: str) -> None:
        self.form.select_action(action)

    @_shown
    def select_target(self, ident: str) -> None:
        self.form.select_target(ident)

    @_shown
    def set_distance(self, distance: float | str | None) -> None:
        """The distance to the target in the game's unit ("" or None: not measured)."""
        self.form.set_distance(distance)

    @_shown
    def set_circumstance(self, circumstance: str, value: Any) -> None:
        """True/False for a flag, a number, or one of a choice's options; False, 0, None or ""
        removes it."""
        self.form.set_circumstance(circumstance, value)

    @_shown
    def pin(self, circumstance: str, on: bool = True) -> None:
        """Keep a circumstance for the whole fight (see AttackForm.pin)."""
        self.form.pin(circumstance, on)

    @_shown
    def keep_for_the_fight(self, on: bool = True) -> None:
        """*Keep for the fight*: pin every circumstance set now (off: unpin them all)."""
        keys = list(self.form.circumstances) if on else list(self.form.pinned)
        for key in keys:
            self.form.pin(key, on)

    def edit_circumstances(self, on: bool = True) -> None:
        """Show (or hide) a control for every circumstance of the game (built on first use);
        hidden, the panel shows the circumstances set as one line."""
        self.circumstances_open = bool(on)
        self._render()

    def edit_options(self, on: bool = True) -> None:
        """Show (or hide) a control for every option the game's options model offers."""
        self.options_open = bool(on)
        self._render()

    @property
    def option_controls(self) -> dict[str, widgets.Widget]:
        """The options' controls by name (built now if they were not)."""
        self._options.sync(self.form, True)
        return self._options.controls

    @property
    def circumstance_controls(self) -> dict[str, widgets.Widget]:
        """The circumstances' controls by id (built now if they were not)."""
        self._circumstances.sync_controls(self.form, build=True)
        return self._circumstances.controls

    _circumstance_controls = circumstance_controls  # the name earlier code and tests use
    circumstance_box = property(lambda self: self._circumstances.box)
    circumstance_html = property(lambda self: self._circumstances.line)
    circumstance_button = property(lambda self: self._circumstances.toggle)
    circumstance_grid = property(lambda self: self._circumstances.grid)

    @_shown
    def select_location(self, location: str) -> None:
        self.form.select_location(location)

    @_shown
    def select_reaction(self, reaction: str) -> None:
        """The target's reaction ("" for none)."""
        self.form.select_reaction(reaction)

    @_shown
    def set_option(self, key: str, value: Any) -> None:
        """One of the options the game declares (None: its default)."""
        self.form.set_option(key, value)

    @_shown
    def set_budget(self, on: bool) -> None:
        self.form.set_budget(on)

    @_shown
    def set_secret(self, on: bool) -> None:
        self.form.set_secret(on)

    @_shown
    def set_dice_mode(self, mode: str) -> None:
        """Dice from "seeded" (gmkit rolls) or "physical" (the table's dice, typed)."""
        self.form.set_dice_mode(mode)

    @_shown
    def set_seed(self, seed: int | str | None) -> None:
        """Seed gmkit's dice (the same seed gives the same rolls from here on)."""
        self.form.set_seed(seed)

    @_shown
    def resolve(self, dice: str | None = None) -> AttackResult | None:
        """Resolve the attack. ``dice``: the table's values, typed ("53 7"); without it,
        gmkit rolls (seeded) or the values typed so far are used (physical); when the rules
        need one more, ``prompt`` says which die."""
        return self.form.resolve(dice)

    @_shown
    def enter(self, value: int | str) -> AttackResult | None:
        """Type the value of the die the panel asked for, and resolve again."""
        return self.form.enter(value)

    @_shown
    def take_dice(self, values: list[str]) -> AttackResult | None:
        """The table's dice as typed in the boxes, the whole list in order (what the boxes
        send): resolve with them (see :meth:`AttackForm.take_dice`)."""
        return self.form.take_dice(values)

    @_shown
    def clear_dice(self) -> None:
        """Forget the values typed and the result."""
        self.form.clear_dice()

    @_shown
    def apply(self) -> AttackResult | None:
        """Record the shown result in the encounter and apply its effects: one command (its
        action spent with it), one undo."""
        return self.form.apply()

    @_shown
    def undo(self) -> None:
        """Take back the last command (an applied attack, with its action)."""
        self.form.undo()

    @_shown
    def redo(self) -> None:
        self.form.redo()

    @_shown
    def refresh(self) -> None:
        """Read the encounter again: combatants, budgets, what is offered."""
        self.form.refresh()

    # --- the controls -------------------------------------------------------------------------

    def _build(self) -> None:
        shared = self._shared = Shared()
        make = shared.make
        # a cell of the choices' grid each: the label as wide as its words (no clipping in
        # either language), the control the rest of the cell
        wide, label = {"width": "auto"}, {"description_width": "initial"}
        self.attacker_box = make(widgets.Dropdown, layout=wide, style=label)
        self.weapon_box = make(widgets.Dropdown, layout=wide, style=label)
        self.mode_box = make(widgets.Dropdown, layout=wide, style=label)
        self.action_box = make(widgets.Dropdown, layout=wide, style=label)
        self.target_box = make(widgets.Dropdown, layout=wide, style=label)
        self.distance_box = make(widgets.Text, layout=wide, style=label)
        # shown or hidden one by one: their own layouts
        dropdown_label = shared.style(widgets.Dropdown, **label)
        self.location_box = widgets.Dropdown(layout=dict(wide), style=dropdown_label)
        self.reaction_box = widgets.Dropdown(layout=dict(wide), style=dropdown_label)
        self.seed_box = widgets.Text(layout={"width": "10em"}, style=shared.style(widgets.Text))
        self._circumstances = CircumstanceEditor(shared, self.set_circumstance)
        self._options = OptionEditor(shared, self.set_option)
        self.budget_box = make(widgets.Checkbox, value=True, indent=False)
        self.secret_box = make(widgets.Checkbox, value=False, indent=False)
        self.dice_box = make(widgets.ToggleButtons, options=[("", "seeded"), ("", "physical")])
        # a box per die of the table: built when the table's dice are first chosen
        self._entry = None
        self.resolve_button = make(widgets.Button, button_style="primary")
        self.apply_button = make(widgets.Button, button_style="success")
        self.undo_button = make(widgets.Button)
        self.offered_html = make(widgets.HTML)
        self.offered_html.add_class("gmkit-offered")  # what is refused and why; the budget
        self.preview_html = make(widgets.HTML)
        self.preview_html.add_class("gmkit-preview-area")  # the test before the dice, or why not
        self.prompt_html = make(widgets.HTML)
        self.result_html = make(widgets.HTML)
        self.error_html = make(widgets.HTML)
        self.odds_view = OddsView()
        bind = self._bind
        bind(self.attacker_box, self.select_attacker)
        bind(self.weapon_box, self.select_weapon)
        bind(self.mode_box, self.select_mode)
        bind(self.action_box, self.select_action)
        bind(self.target_box, self.select_target)
        bind(self.location_box, self.select_location)
        bind(self.reaction_box, self.select_reaction)
        bind(self.budget_box, self.set_budget)
        bind(self.secret_box, self.set_secret)
        bind(self.dice_box, self.set_dice_mode)
        bind(self._circumstances.toggle, self.edit_circumstances)
        bind(self._circumstances.keep, self.keep_for_the_fight)
        bind(self._options.toggle, self.edit_options)
        self.distance_box.continuous_update = False
        bind(self.distance_box, self.set_distance)
        self.seed_box.continuous_update = False
        bind(self.seed_box, self.set_seed)
        self.resolve_button.on_click(lambda _: self.resolve())
        self.apply_button.on_click(lambda _: self.apply())
        self.undo_button.on_click(lambda _: self.undo())

    def _bind(self, control: widgets.Widget, method: Callable[[Any], Any]) -> None:
        def changed(change: dict[str, Any]) -> None:
            if not self._syncing and change["new"] is not None:
                method(change["new"])

        control.observe(changed, names="value")

    def _on_dice_typed(self, change: dict[str, Any]) -> None:
        """The boxes' values, as the browser sent them (the whole list): resolve with them."""
        if self._syncing or self.form.request is None:
            return
        self.take_dice(list(change["new"]))

    def _layout(self, with_style: bool) -> list[widgets.Widget]:
        def row(children: list[widgets.Widget]) -> widgets.HBox:
            return self._shared.make(widgets.HBox, children=children)

        # The layout, for a screen at the table (1366x768 up): the choices in a grid, the
        # commands right under them, then the result and the odds side by side, so choices,
        # Resolve, the result and the odds are seen together without scrolling.
        make = self._shared.make
        self.choices = make(
            widgets.Box,
            children=[self.attacker_box, self.weapon_box, self.mode_box, self.target_box,
                      self.action_box, self.distance_box, self.reaction_box, self.location_box],
        )  # fmt: skip
        self.choices.add_class("gmkit-choices")
        self.dice_row = row([self.dice_box, self.seed_box])
        self.entry_row = widgets.HBox([])  # shown or hidden; the boxes once first shown
        self.entry_row.add_class("gmkit-dice-row")
        self.command_bar = make(
            widgets.HBox,
            children=[self.resolve_button, self.apply_button, self.undo_button, self.dice_row,
                      self.budget_box, self.secret_box],
        )  # fmt: skip
        self.command_bar.add_class("gmkit-commands")
        self.result_column = make(
            widgets.VBox,
            children=[self.error_html, self.result_html, self.preview_html, self.offered_html],
        )
        self.result_column.add_class("gmkit-result-column")
        self.odds_column = make(widgets.VBox, children=[self.odds_view])
        self.odds_column.add_class("gmkit-odds-column")
        outcome = make(widgets.Box, children=[self.result_column, self.odds_column])
        outcome.add_class("gmkit-outcome-grid")
        # the circumstances' and the options' lines ("Circumstances: none  Edit") side by
        # side; each opens its controls under its line
        self.folds = make(widgets.Box, children=[self._circumstances.box, self._options.box])
        self.folds.add_class("gmkit-folds")
        self._rows = [self.choices, self.folds, self.command_bar]
        style = [make(widgets.HTML, value=STYLE)] if with_style else []
        return [
            *style,
            self.choices,
            self.folds,
            self.command_bar,
            self.entry_row,
            self.prompt_html,
            outcome,
        ]

    def _on_language(self, change: dict[str, Any]) -> None:
        self._circumstances.drop()  # built again in the new language when shown
        self._options.drop()
        self._render()

    def _name(self, ident: str) -> str:
        """A combatant as the choices list it: "Ban (Pale Throne)", marked when the players
        do not see it ("· secret")."""
        combatant = self.encounter.state.combatants.get(ident)
        if combatant is None:
            return ident
        if combatant.hidden:
            return _words(
                Message("widgets.secret_choice", name=combatant.name, side=combatant.side)
            )
        return f"{combatant.name} ({combatant.side})"

    def _render(self) -> None:
        """Show the form's state: the controls' options and values, then the HTML."""
        if self._closed:
            return
        self._renders += 1
        form = self.form
        if form.attacker != self._shown_attacker:
            # another attacker (the turn passed): the circumstances and options it sets are
            # cleared, and their editors fold, so Resolve stays where the GM looks
            self._shown_attacker = form.attacker
            self.circumstances_open = self.options_open = False
        self._syncing = True
        try:
            self._sync_controls()
        finally:
            self._syncing = False
        self.error = _words(self._error)
        needed = form.dice.needed
        self.prompt = needed.render(LANGUAGE.value) if needed is not None else ""
        offered = form.offered
        refused_actions = {k: v for k, v in offered.not_offered.items() if k}
        names: dict[str, Text] = {**offered.action_names, "": ""}
        shown = refused_html(label("not_offered", "Not offered"), refused_actions, names)
        shown += refused_html(
            f"{t('reaction')}: {label('not_offered', 'Not offered')}",
            offered.reactions_refused,
            {c.id: c.label for c in choices.reactions(self.game)},
        )
        if "" in offered.not_offered:
            why = html.escape(_words(offered.not_offered[""]), quote=False)
            shown = f"<p>{why}</p>" + shown
        _set(self.offered_html, value=shown + self._budget_line())
        result = form.result
        seen = [step for step in (result.steps if result else ()) if step.modifiers]
        shown_preview = preview_html(form.preview, form.problem, seen, form.refused)
        _set(self.preview_html, value=shown_preview)
        _set(self.prompt_html, value=prompt_html(self.prompt, form.dice.typed))
        drawn = self._steps_drawn
        if drawn is None or drawn[0] is not result or drawn[1] != LANGUAGE.value:
            self._steps_drawn = (result, LANGUAGE.value)  # else the same result: on screen
            _set(self.result_html, value=steps_html(result))
        _set(self.error_html, value=error_html(self.error, self.warnings))
        _set(self.apply_button, disabled=result is None or form.applied)
        _set(self.undo_button, disabled=not self.encounter.can_undo)
        physical = form.dice.mode == "physical"
        _set(self.entry_row.layout, display="" if physical else "none")
        self._follow_dice(physical)
        _set(self.seed_box.layout, display="none" if physical else "")
        if form.request is None:
            self.odds_view.update(None, _words(form.problem))
        else:
            self.odds_view.update(form.request)

    def _follow_dice(self, physical: bool) -> None:
        """The dice boxes follow the form: the plan's boxes and those the rules asked for,
        a refused value marked; emptied when the form forgot what was typed (a new choice,
        another attacker, an attack applied)."""
        if self._entry is None and not physical:
            return  # no box was ever shown: none to empty or fill
        form, entry = self.form, self.dice_entry
        forgotten = bool(entry.values) and not form.dice.typed and form.dice.refused is None
        if forgotten:
            self._syncing = True  # emptied here: not the GM typing
            try:
                entry.clear()
            finally:
                self._syncing = False
        if physical and form.dice.typed and not entry.values:
            # typed elsewhere (a player's dice from the phone, the defender's reply): shown
            self._syncing = True
            try:
                entry.values = list(form.dice.typed)
            finally:
                self._syncing = False
        if not physical or form.request is None:
            return
        try:
            plan = form.dice.plan(self.game, form.request)
        except GmkitError:
            return  # the rules refuse this request: its error is shown already
        entry.follow(plan, form.dice)

    def _budget_line(self) -> str:
        state = self.encounter.state
        attacker = state.combatants.get(self.form.attacker)
        if attacker is None or not state.started or not self.form.budget:
            return ""
        budget = self.encounter.situation.of(attacker.id).budget
        left = ", ".join(
            f"{html.escape(_words(pool_name(pool)))} {count}" for pool, count in budget.items()
        )
        return f"<p>{t('actions_left')}: {left}</p>"

    def _sync_controls(self) -> None:
        """Each control to what the form holds; only what differs is sent. The choices'
        words are made again only when the offer, the names or the language changed."""
        form, offered = self.form, self.form.offered
        people = [self._name(i) for i in (*offered.attackers, *offered.targets)]
        key = (offered, people, form.unit, LANGUAGE.value)
        if self._options_shown is None or not _same_key(key, self._options_shown[0]):
            self._options_shown = (key, self._choices(offered, people))
        made = self._options_shown[1]
        boxes: tuple[widgets.ValueWidget, ...] = (
            self.attacker_box,
            self.weapon_box,
            self.mode_box,
            self.action_box,
            self.target_box,
            self.location_box,
            self.reaction_box,
            self.dice_box,
        )
        chosen = (form.attacker, form.weapon, form.mode, form.action, form.target, form.location)
        values = (*(value or None for value in chosen), form.reaction, form.dice.mode)
        for box, (description, options), value in zip(boxes, made, values, strict=True):
            _set(box, description=description)
            _choose(box, options, value)
        _set(self.location_box.layout, display="" if offered.locations else "none")
        _set(self.distance_box, description=f"{t('distance')} ({form.unit})")
        _set(self.distance_box, value="" if form.distance is None else f"{form.distance:g}")
        shown = bool(offered.reactions or offered.reactions_refused)
        _set(self.reaction_box.layout, display="" if shown else "none")
        _set(self.budget_box, description=label("check_budget", "Action budget"))
        _set(self.budget_box, value=form.budget)
        _set(self.secret_box, description=t("gm_only"))
        _set(self.secret_box, value=form.secret)
        _set(self.seed_box, description=label("seed", "Seed"))
        _set(self.seed_box, value="" if form.dice.seed is None else str(form.dice.seed))
        _set(self.resolve_button, description=t("resolve"))
        _set(self.apply_button, description=t("apply"))
        _set(self.undo_button, description=t("undo"))
        self._circumstances.sync(self.form, self.circumstances_open)
        self._options.sync(self.form, self.options_open)

    def _choices(self, offered: Offered, people: list[str]) -> list[tuple[str, list[Any]]]:
        """Each dropdown's label and options, in the GM's language, in the order
        :meth:`_sync_controls` sets them."""
        count = len(offered.attackers)
        none = label("no_reaction", "none")
        return [
            (t("attacker"), list(zip(people[:count], offered.attackers, strict=True))),
            (t("weapon"), [(named(self.game, weapon), weapon) for weapon in offered.weapons]),
            (t("mode"), [(_words(c.label), c.id) for c in offered.modes]),
            (t("action"), [(_words(c.label), c.id) for c in offered.actions]),
            (t("target"), list(zip(people[count:], offered.targets, strict=True))),
            (
                label("location", "Location"),
                [(_words(location_name(loc)), loc) for loc in offered.locations],
            ),
            (t("reaction"), [(none, ""), *[(_words(c.label), c.id) for c in offered.reactions]]),
            ("", [(t("gmkit_rolls"), "seeded"), (t("physical_dice"), "physical")]),
        ]


__all__ = ["DICE_MODES", "AttackPanel"]
