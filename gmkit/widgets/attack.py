"""The attack panel: pick who attacks whom, how; roll (or type the table's dice); apply; undo.

A thin view over an :class:`~gmkit.encounter.Encounter`: it offers what
:mod:`gmkit.systems.choices` says the game's rules allow (and the attacker's action budget),
resolves through the game's rules, shows their explained steps, and applies the result through
the encounter. Every control calls a public method, and tests call the same methods:
``select_attacker``, ``select_weapon``, ``select_mode``, ``select_action``, ``select_target``,
``set_distance``, ``set_circumstance``, ``select_location``, ``select_reaction``,
``set_dice_mode``, ``set_seed``, ``resolve``, ``enter``, ``apply``, ``undo``.

Odds: ``odds_view`` (an :class:`~gmkit.widgets.odds_view.OddsView`) shows the exact odds of the
request the panel would resolve, updated on every change of a selection or of the encounter,
or why there are none (a selection missing, a refusal, a game without odds).

Dice: "seeded" (gmkit rolls from a :class:`~gmkit.dice.SeededDice`, seedable) or "physical"
(the table rolls; the panel resolves with an :class:`~gmkit.dice.EnteredDice` holding the values
typed so far and, when the rules need one more, shows which die to roll and why; the rules are
pure, so resolving again with one more value is safe). A d100 is typed as one number, D6s one by
one.

Errors the rules or the encounter raise (RulesError, SheetError, DiceValueError: any
:class:`~gmkit.errors.GmkitError`) are shown in the panel, never raised.

Choices made:

- Applying records the attack and its effects as one encounter command; once the fight has
  started and ``budget`` is on, the action's cost is spent first (``Encounter.spend``) and the
  panel's Undo takes back both (the state is exactly what it was before). With ``budget`` off,
  every legal action is offered and nothing is spent.
- Apply uses the dice of the shown result again (no new roll); if the encounter changed since
  the roll so that the same dice give another result, it refuses and asks to resolve again.
- Changing a selection clears the result and the dice typed; the encounter changing (another
  widget, the panel's own apply) keeps them. With ``follow_actor`` (the dashboard's), the
  attacker becomes whoever acts now each time the turn passes, as ``select_attacker`` would.

Cheap to update, for a screen at the table: a control is sent to the page only when what it
shows changed (a dropdown's options and choice in one message), what the rules offer an
attacker is worked out once per sheet, weapon, mode and conditions, and the circumstances show
as one line (those set) until the GM opens them (``edit_circumstances``): their controls, one
per circumstance of the game, are built then. The panel's widgets share their layouts and
styles.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, TypeVar

import ipywidgets as widgets
from traitlets import Bool, Dict, Float, Int, List, Unicode

from gmkit.dice import DiceSource, DieRoll, EnteredDice, ReplayedDice, SeededDice
from gmkit.encounter import Encounter
from gmkit.encounter.state import Combatant, EncounterState
from gmkit.errors import DiceValueError, GmkitError, NeedDie
from gmkit.messages import render
from gmkit.systems import choices, system
from gmkit.systems.base import AttackRequest, AttackResult, Choice
from gmkit.systems.turns import turn_structure
from gmkit.widgets.attack_budget import budget_problem, reaction_problem
from gmkit.widgets.attack_view import (
    error_html,
    label,
    preview_html,
    prompt_html,
    refused_html,
    steps_html,
)
from gmkit.widgets.i18n import LANGUAGE, t
from gmkit.widgets.odds_view import OddsView
from gmkit.widgets.render import STYLE
from gmkit.widgets.tracker import Shared

DICE_MODES = ("seeded", "physical")
F = TypeVar("F", bound=Callable[..., Any])
_CACHED = 64
"""What the rules offer, kept for this many (sheet, weapon, mode, conditions) at most."""

_TEXT = {  # the panel's own labels (i18n.LABELS holds the shared ones)
    "en": {"edit_circumstances": "Edit circumstances", "none_set": "none"},
    "es": {"edit_circumstances": "Editar circunstancias", "none_set": "ninguna"},
}


def _text(key: str) -> str:
    return _TEXT.get(LANGUAGE.value, _TEXT["en"]).get(key) or _TEXT["en"][key]


def _set(widget: widgets.Widget, **values: Any) -> None:
    """Assign only the traits whose value differs: an equal value sends nothing."""
    for name, value in values.items():
        if getattr(widget, name) != value:
            setattr(widget, name, value)


def _choose(box: widgets.Dropdown, options: Iterable[Any], value: Any) -> None:
    """A dropdown's options and choice: nothing sent when neither changed, one message when
    the options did (ipywidgets would reset the choice first, a second message)."""
    wanted = tuple(options)
    if tuple(box.options) != wanted:
        with box.hold_sync():
            box.options = wanted
            box.value = value
    elif box.value != value:
        box.value = value


def _shown(method: F) -> F:
    """Run a public method; an error gmkit raises on purpose is shown, not raised."""

    @wraps(method)
    def run(self: AttackPanel, *args: Any, **kwargs: Any) -> Any:
        self.error = ""
        try:
            return method(self, *args, **kwargs)
        except (GmkitError, ValueError) as error:
            self.error = str(error)
            return None
        finally:
            self._render()

    return run  # type: ignore[return-value]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _choice_label(choice: Choice) -> str:
    return render(choice.label, LANGUAGE.value)


class AttackPanel(widgets.VBox):
    """An attack from selection to applied effects (see the module docstring)."""

    attacker = Unicode("", help="id of the attacking combatant")
    weapon = Unicode("", help="the attacker's weapon, by name")
    mode = Unicode("", help="fire mode or attack form: melee, ranged, single, semi, full...")
    action = Unicode("", help="id of the attack action in the game's catalog")
    target = Unicode("", help="id of the combatant attacked")
    distance = Float(None, allow_none=True, help="distance to the target, in the game's unit")
    location = Unicode("", help="the location a called shot names ('' for none)")
    circumstances = Dict(help="circumstance id -> value (true, a number, or a choice)")
    reaction = Unicode("", help="the target's reaction: '' for none, else parry, dodge...")
    dice_mode = Unicode("seeded", help="seeded: gmkit rolls; physical: the table's dice, typed")
    seed = Int(None, allow_none=True, help="seed of gmkit's dice (None: unseeded)")
    budget = Bool(True, help="offer only what the action budget allows; spend it on apply")
    secret = Bool(False, help="keep the attack's rolls and result from the players")
    typed = List(Unicode(), help="values typed for the table's dice, in the order rolled")
    prompt = Unicode("", help="the die the rules need next (physical dice)")
    error = Unicode("", help="the last error, shown in the panel")
    circumstances_open = Bool(False, help="a control per circumstance shown (edit_circumstances)")

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
        self.follow_actor = follow_actor
        current = encounter.state.current
        self._followed = current.id if current is not None else None
        self.game = encounter.game
        self.structure = turn_structure(self.game)
        self.unit = choices.unit(self.game)
        self.options: dict[str, Any] = {}  # extra options for the rules (a WFB Situation...)
        self.result: AttackResult | None = None
        self.preview: choices.Preview | None = None
        self.problem = ""  # why the current selection cannot be resolved yet
        self.warnings: tuple[str, ...] = ()
        self.applied = False
        self.attackers: tuple[str, ...] = ()
        self.weapons: tuple[str, ...] = ()
        self.modes: tuple[Choice, ...] = ()
        self.actions: tuple[Choice, ...] = ()
        self.not_offered: dict[str, str] = {}  # action id -> why it is not offered
        self.targets: tuple[str, ...] = ()
        self.circumstance_choices: tuple[Choice, ...] = ()
        self.locations: tuple[str, ...] = ()
        self.reactions: tuple[Choice, ...] = ()
        self.reactions_refused: dict[str, str] = {}
        self._action_names: dict[str, str] = {}
        self._used: tuple[DieRoll, ...] = ()
        self._args: dict[str, Any] | None = None
        self._applied_events = 0
        self._applied_at = -1
        self._busy = False
        self._syncing = False
        self._closed = False
        self._dice = SeededDice(seed)
        self._offers: dict[tuple[Any, ...], tuple[Any, Any]] = {}  # see _offered
        self._build()
        super().__init__(children=self._layout(with_style), **kwargs)
        self.seed = seed
        self._unsubscribe = self.encounter.subscribe(self._on_encounter)
        LANGUAGE.observe(self._on_language, names="value")
        self.refresh()

    def close(self) -> None:
        """Stop following the encounter and the language, and close the controls."""
        if not self._closed:  # once: ipywidgets closes a deleted widget again
            self._closed = True
            self._unsubscribe()
            LANGUAGE.unobserve(self._on_language, names="value")
            self._drop_circumstance_controls()
            for part in (*self.children, *self._rows, self.dice_row, self.entry_row):
                for child in getattr(part, "children", ()):
                    child.close()
                part.close()
            self._shared.close()
        super().close()

    # --- the selections -------------------------------------------------------------------

    @_shown
    def select_attacker(self, ident: str) -> None:
        """Attack with combatant ``ident`` (an id or a name)."""
        found = self._present(ident)
        self._clear()
        self.attacker = found.id
        self._cascade(implied=True)

    @_shown
    def select_weapon(self, name: str) -> None:
        if name not in self.weapons:
            raise GmkitError(self._not_offered("weapon", name, self.weapons))
        self._clear()
        self.weapon = name
        self._cascade()

    @_shown
    def select_mode(self, mode: str) -> None:
        if mode not in [choice.id for choice in self.modes]:
            raise GmkitError(self._not_offered("mode", mode, [c.id for c in self.modes]))
        self._clear()
        self.mode = mode
        self._cascade()

    @_shown
    def select_action(self, action: str) -> None:
        offered = [choice.id for choice in self.actions]
        if action not in offered:
            why = self.not_offered.get(action)
            if why:
                raise GmkitError(f"action {action!r} is not offered: {why}")
            raise GmkitError(self._not_offered("action", action, offered))
        self._clear()
        self.action = action
        self._cascade(implied=True)

    @_shown
    def select_target(self, ident: str) -> None:
        found = self._present(ident)
        if found.id not in self.targets:
            raise GmkitError(self._not_offered("target", found.id, self.targets))
        self._clear()
        self.target = found.id
        self._cascade(implied=True)

    @_shown
    def set_distance(self, distance: float | str | None) -> None:
        """The distance to the target in the game's unit ("" or None: not measured)."""
        if isinstance(distance, str):
            distance = distance.strip() or None
        value = None if distance is None else float(distance)
        if value is not None and value < 0:
            raise GmkitError(f"distance: must not be negative (got {value:g})")
        self._clear()
        self.distance = value
        self._cascade()

    @_shown
    def set_circumstance(self, circumstance: str, value: Any) -> None:
        """Set a circumstance: True/False for a flag, a number, or one of a choice's options;
        False, 0, None or "" removes it."""
        found = next((c for c in self.circumstance_choices if c.id == circumstance), None)
        if found is None:
            known = [c.id for c in self.circumstance_choices]
            raise GmkitError(self._not_offered("circumstance", circumstance, known))
        if found.kind == "flag" and not isinstance(value, bool):
            raise GmkitError(f"{found.label}: true or false, not {value!r}")
        if found.kind == "number" and value not in (None, "") and not _whole(value):
            raise GmkitError(f"{found.label}: a whole number, not {value!r}")
        if found.kind == "choice" and value not in (None, "", *found.options):
            raise GmkitError(f"{found.label}: one of {', '.join(found.options)}, not {value!r}")
        self._clear()
        changed = {k: v for k, v in self.circumstances.items() if k != circumstance}
        if value not in (None, False, 0, ""):
            changed[circumstance] = value
        self.circumstances = changed
        self._cascade()

    def edit_circumstances(self, on: bool = True) -> None:
        """Show (or hide) a control for every circumstance of the game (built on first use);
        hidden, the panel shows the circumstances set as one line."""
        self.circumstances_open = bool(on)
        self._render()

    @property
    def circumstance_controls(self) -> dict[str, widgets.Widget]:
        """The circumstances' controls by id (built now if they were not)."""
        self._sync_circumstance_controls(build=True)
        return self._circumstance_controls_built

    _circumstance_controls = circumstance_controls  # the name earlier code and tests use

    @_shown
    def select_location(self, location: str) -> None:
        if location and location not in self.locations:
            raise GmkitError(self._not_offered("location", location, self.locations))
        self._clear()
        self.location = location
        self._cascade()

    @_shown
    def select_reaction(self, reaction: str) -> None:
        """The target's reaction ("" for none), passed to the rules as ``options["reaction"]``."""
        offered = [choice.id for choice in self.reactions]
        if reaction and reaction not in offered:
            why = self.reactions_refused.get(reaction)
            if why:
                raise GmkitError(f"reaction {reaction!r} is not offered: {why}")
            raise GmkitError(self._not_offered("reaction", reaction, offered))
        self._clear()
        self.reaction = reaction
        self._cascade()

    @_shown
    def set_option(self, key: str, value: Any) -> None:
        """An extra option for the rules (``situation`` for WFB, ``gm_allows_shot``...);
        None removes it."""
        self._clear()
        if value is None:
            self.options.pop(key, None)
        else:
            self.options[key] = value
        self._cascade()

    @_shown
    def set_budget(self, on: bool) -> None:
        self._clear()
        self.budget = bool(on)
        self._cascade()

    @_shown
    def set_secret(self, on: bool) -> None:
        self.secret = bool(on)

    # --- the dice ----------------------------------------------------------------------------

    @_shown
    def set_dice_mode(self, mode: str) -> None:
        """Dice from "seeded" (gmkit rolls) or "physical" (the table's dice, typed)."""
        if mode not in DICE_MODES:
            raise GmkitError(f"dice: {mode!r} is not one of {', '.join(DICE_MODES)}")
        self._clear()
        self.dice_mode = mode

    @_shown
    def set_seed(self, seed: int | str | None) -> None:
        """Seed gmkit's dice (the same seed gives the same rolls from here on)."""
        if isinstance(seed, str):
            seed = int(seed) if seed.strip() else None
        self.seed = seed
        self._dice = SeededDice(seed)

    @_shown
    def resolve(self, dice: str | None = None) -> AttackResult | None:
        """Resolve the attack. ``dice``: the table's values, typed ("53 7"): the panel switches
        to physical dice and uses them. Without it, gmkit rolls (seeded) or the values typed so
        far are used (physical); when the rules need one more, ``prompt`` says which die."""
        if dice is not None:
            self.dice_mode = "physical"
            self.typed = [value for value in re.split(r"[\s,;]+", dice.strip()) if value]
        return self._resolve()

    @_shown
    def enter(self, value: int | str) -> AttackResult | None:
        """Type the value of the die the panel asked for, and resolve again."""
        text = str(value).strip()
        if not text:
            raise GmkitError("dice: type the value the die shows")
        self.dice_mode = "physical"
        self.typed = [*self.typed, text]
        try:
            return self._resolve()
        except DiceValueError:  # the value just typed was refused: drop it, ask again
            self.typed = self.typed[:-1]
            raise

    @_shown
    def clear_dice(self) -> None:
        """Forget the values typed and the result."""
        self._clear()

    def _resolve(self) -> AttackResult | None:
        args = self._attack_args()
        request = self.encounter.attack_request(**args)
        rules = system(self.game)
        self.result, self.applied, self.prompt, self.warnings = None, False, "", ()
        if self.dice_mode == "physical":
            source: DiceSource = EnteredDice(self.typed)
            try:
                result = rules.resolve_attack(request, source)
            except NeedDie as need:
                self.prompt = need.render(LANGUAGE.value)
                return None
            used = tuple(source.history)
            if source.pending:  # type: ignore[attr-defined]
                extra = " ".join(str(v) for v in source.pending)  # type: ignore[attr-defined]
                self.warnings = (f"{label('unused_dice', 'not needed')}: {extra}",)
        else:
            start = len(self._dice.history)
            result = rules.resolve_attack(request, self._dice)
            used = tuple(self._dice.history[start:])
        self.result, self._used, self._args = result, used, args
        return result

    # --- applying ----------------------------------------------------------------------------

    @_shown
    def apply(self) -> AttackResult | None:
        """Record the shown result in the encounter and apply its effects (one undo)."""
        if self.result is None or self._args is None:
            raise GmkitError("apply: resolve the attack first")
        if self.applied:
            raise GmkitError("apply: this result is applied already (undo to take it back)")
        args = self._args
        check = ReplayedDice(self._used)
        again = system(self.game).resolve_attack(self.encounter.attack_request(**args), check)
        if check.left or [str(s) for s in again.steps] != [str(s) for s in self.result.steps]:
            raise GmkitError("apply: the encounter changed since the roll; resolve again")
        before = len(self.encounter.effective_events)
        self._busy = True
        try:
            spent = self._spend(args)
            try:
                result = self.encounter.attack(
                    args["attacker"],
                    args["weapon"],
                    args["target"],
                    ReplayedDice(self._used),
                    apply=True,
                    secret=self.secret,
                    **{k: v for k, v in args.items() if k not in ("attacker", "weapon", "target")},
                )
            except Exception:
                if spent:
                    self.encounter.undo()
                raise
        finally:
            self._busy = False
        implied = self._follow()
        self.result, self.applied = result, True
        self._applied_events = len(self.encounter.effective_events) - before
        self._applied_at = len(self.encounter.effective_events)
        self._cascade(implied=implied)
        return result

    def _spend(self, args: dict[str, Any]) -> bool:
        """Spend the action's cost from the attacker's budget (once the fight has started)."""
        if not (self.budget and self.encounter.state.started):
            return False
        types = choices.action_types(self.game, args["action"])
        combatant = self.encounter.combatant(args["attacker"])
        state = self.encounter.state
        for action_type in types:
            if not self.structure.action_costs.get(action_type):
                return False  # free, or the GM's to count
            if not budget_problem(state, combatant, (action_type,), self.structure):
                self.encounter.spend(combatant.id, action_type, action=args["action"])
                return True
        problem = budget_problem(state, combatant, types, self.structure)
        raise GmkitError(f"over budget: {problem}")

    @_shown
    def undo(self) -> None:
        """Take back the last command; after this panel's apply, the whole of it."""
        ours = self.applied and len(self.encounter.effective_events) == self._applied_at
        count = self._applied_events if ours else 1
        self._busy = True
        try:
            for _ in range(count):
                self.encounter.undo()
        finally:
            self._busy = False
        implied = self._follow()
        if ours:
            self.applied = False
            self._applied_events, self._applied_at = 0, -1
        self._cascade(implied=implied)

    # --- what is offered ---------------------------------------------------------------------

    @_shown
    def refresh(self) -> None:
        """Read the encounter again: combatants, budgets, what is offered."""
        self._cascade()

    def _present(self, ident: str) -> Combatant:
        found = self.encounter.combatant(ident)
        if found.removed:
            raise GmkitError(f"combatant: {found.name} has been removed from the fight")
        return found

    def _not_offered(self, what: str, value: str, offered: Iterable[str]) -> str:
        listed = ", ".join(offered) or "none"
        return f"{what} {value!r} is not offered; offered: {listed}"

    def _clear(self) -> None:
        self.result, self._args, self._used = None, None, ()
        self.applied, self.prompt, self.typed, self.warnings = False, "", [], ()
        self._applied_events, self._applied_at = 0, -1

    def _attacker_options(self, attacker: Combatant) -> dict[str, Any]:
        return {
            "attacker_conditions": sorted(attacker.conditions),
            "attacker_counters": dict(attacker.counters),
        }

    def _passed(self) -> str | None:
        """With ``follow_actor``: the id of whoever acts now, if the turn passed to them since
        the panel last looked (None otherwise)."""
        if not self.follow_actor:
            return None
        current = self.encounter.state.current
        actor = current.id if current is not None else None
        if actor == self._followed:
            return None
        self._followed = actor
        return actor

    def _follow(self) -> bool:
        """Once the turn has passed (``_passed``), attack with whoever acts now: what
        ``select_attacker`` does (the result and dice typed cleared). True if it did."""
        actor = self._passed()
        if actor is None:
            return False
        try:
            self._take_turn(actor)
        except GmkitError as error:  # shown, as select_attacker shows it
            self.error = str(error)
            return False
        return True

    def _take_turn(self, actor: str) -> None:
        found = self._present(actor)
        self._clear()
        self.attacker = found.id

    def _cascade(self, *, implied: bool = False, selections_only: bool = False) -> None:
        """Recompute what is offered from the selections, keeping those still offered.
        ``selections_only``: as far as the selections go (a reaction not offered dropped), not
        the preview nor the odds (another cascade follows at once)."""
        state = self.encounter.state
        present = state.present
        self.attackers = tuple(c.id for c in present)
        if self.attacker not in self.attackers:
            self.attacker = self.attackers[0] if self.attackers else ""
        attacker = state.combatants.get(self.attacker)
        self.weapons = choices.weapons(self.game, attacker.sheet) if attacker else ()
        if self.weapon not in self.weapons:
            self.weapon = self.weapons[0] if self.weapons else ""
        self._offer_actions(state, attacker)
        self.targets = self._targets(present, attacker)
        if self.target not in self.targets:
            self.target = self.targets[0] if self.targets else ""
        self.locations = choices.locations(self.game, self.action) if self.action else ()
        if self.location not in self.locations:
            self.location = self.locations[0] if self.locations else ""
        offered = {choice.id for choice in self.circumstance_choices}
        kept = {k: v for k, v in self.circumstances.items() if k in offered}
        if implied and attacker and self.target and self.action:
            found = choices.implied_circumstances(
                self.game,
                self.action,
                attacker.conditions,
                state.combatants[self.target].conditions,
            )
            kept.update({k: v for k, v in found.items() if k in offered})
        self.circumstances = kept
        if selections_only:
            if self.reaction:  # dropped unless offered against this attack
                self._offer_reactions(state, *self._try_request())
            return
        reaction = self.reaction
        request, problem = self._try_request()  # once, for the preview, reactions and odds
        self._offer_reactions(state, request, problem)
        if self.reaction != reaction:  # the reaction is not offered against this attack
            request, problem = self._try_request()
        self._update_odds(request, problem)

    def _try_request(self) -> tuple[AttackRequest | None, str]:
        """The request the selections make, or None and why there is none."""
        try:
            return self._request(), ""
        except (GmkitError, ValueError) as error:
            return None, str(error)

    def _update_odds(self, request: AttackRequest | None, problem: str) -> None:
        """Show the odds of the request the panel would resolve (or why there is none)."""
        if request is None:
            self.odds_view.update(None, problem)
        else:
            self.odds_view.update(request)

    def _offered(self, attacker: Combatant, mode: str | None = None) -> Any:
        """``choices.attack_choices`` (``mode`` None) or ``choices.refused_actions`` for the
        attacker with the selected weapon: pure functions of the sheet, the weapon, the mode
        and the attacker's conditions and counters, so worked out once for each (the turn
        coming round to the same attacker asks again)."""
        sheet, options = attacker.sheet, self._attacker_options(attacker)
        counters = tuple(sorted(options["attacker_counters"].items()))
        key = (attacker.id, self.weapon, mode, tuple(options["attacker_conditions"]), counters)
        kept = self._offers.get(key)
        if kept is not None and (kept[0] is sheet or kept[0] == sheet):
            return kept[1]
        if mode is None:
            found = choices.attack_choices(self.game, sheet, self.weapon, options=options)
        else:
            found = choices.refused_actions(self.game, sheet, self.weapon, mode, options=options)
        if len(self._offers) >= _CACHED:
            self._offers.clear()
        self._offers[key] = (sheet, found)
        return found

    def _offer_actions(self, state: EncounterState, attacker: Combatant | None) -> None:
        self.modes, self.actions, self.not_offered = (), (), {}
        self.circumstance_choices = ()
        if attacker is None or not self.weapon:
            self.mode = self.action = ""
            if attacker is not None:
                self.not_offered = {"": f"{attacker.name} has no weapon this game's rules use"}
            return
        every = self._offered(attacker)
        self.modes = every.modes
        if self.mode not in [choice.id for choice in self.modes]:
            self.mode = self.modes[0].id if self.modes else ""
        if not self.mode:
            self.action = ""
            return
        self._action_names = {c.id: _choice_label(c) for c in choices.actions(self.game)}
        refused = self._offered(attacker, self.mode)
        self.not_offered = {key: why for key, why in refused.items() if why}
        offered: list[Choice] = []
        for choice in choices.actions(self.game):
            if refused.get(choice.id, "x"):
                continue
            problem = ""
            if self.budget:
                types = choices.action_types(self.game, choice.id)
                problem = budget_problem(state, attacker, types, self.structure)
            if problem:
                self.not_offered[choice.id] = f"{label('budget', 'budget')}: {problem}"
            else:
                offered.append(choice)
        self.actions = tuple(offered)
        ids = [choice.id for choice in offered]
        if self.action not in ids:
            self.action = choices.default_action(self.game, self.mode, ids)
        self.circumstance_choices = choices.circumstances(self.game, self.action or None)

    def _targets(self, present: list[Combatant], attacker: Combatant | None) -> tuple[str, ...]:
        others = [c for c in present if attacker is None or c.id != attacker.id]
        side = attacker.side if attacker else None
        return tuple(c.id for c in sorted(others, key=lambda c: c.side == side))

    def _attack_args(self) -> dict[str, Any]:
        if not (self.attacker and self.weapon and self.action and self.target):
            missing = [
                name
                for name, value in (
                    ("attacker", self.attacker),
                    ("weapon", self.weapon),
                    ("action", self.action),
                    ("target", self.target),
                )
                if not value
            ]
            raise GmkitError(f"attack: choose the {', '.join(missing)} first")
        options = dict(self.options)
        if self.reaction:
            options["reaction"] = self.reaction
        args: dict[str, Any] = {
            "attacker": self.attacker,
            "weapon": self.weapon,
            "target": self.target,
            "action": self.action,
            "mode": self.mode,
            "distance": self.distance,
            "called_location": self.location or None,
            "circumstances": dict(self.circumstances),
            "options": options,
        }
        request = self.encounter.attack_request(**args)
        args["options"] = {**options, **choices.state_options(self.game, request)}
        return args

    def _request(self) -> AttackRequest:
        return self.encounter.attack_request(**self._attack_args())

    def _offer_reactions(
        self, state: EncounterState, request: AttackRequest | None, problem: str
    ) -> None:
        """The target's reactions against this attack, and the preview of the test."""
        self.reactions, self.reactions_refused = (), {}
        self.preview, self.problem = None, ""
        try:
            if request is None:
                raise GmkitError(problem)
            self.preview = choices.attack_preview(self.game, request)
            available = choices.reactions_available(self.game, request)
        except (GmkitError, ValueError) as error:
            self.problem = str(error)
            self.reaction = ""
            return
        target = state.combatants[self.target]
        offered = []
        for choice in self._reaction_catalog():
            why = available.get(choice.id, "")
            why = why or reaction_problem(state, target, choice.id, self.structure)
            if why:
                self.reactions_refused[choice.id] = why
            else:
                offered.append(choice)
        self.reactions = tuple(offered)
        if self.reaction not in [choice.id for choice in offered]:
            self.reaction = ""

    def _reaction_catalog(self) -> tuple[Choice, ...]:
        return choices.reactions(self.game)

    def _on_encounter(self, encounter: Any) -> None:
        if self._busy:
            return
        actor = self._passed()
        try:
            # the selections as the change leaves them; when the turn passed, only as far as
            # they carry over to whoever acts now (nothing shown is worked out twice)
            self._cascade(selections_only=actor is not None)
        except (GmkitError, ValueError) as error:
            self.error = str(error)
        if actor is not None:  # the turn passed: select_attacker(actor)
            self.error = ""
            try:
                self._take_turn(actor)
                self._cascade(implied=True)
            except (GmkitError, ValueError) as error:
                self.error = str(error)
        self._render()

    # --- the controls ------------------------------------------------------------------------

    def _build(self) -> None:
        shared = self._shared = Shared()
        make = shared.make
        wide = {"width": "26em"}
        self.attacker_box = make(widgets.Dropdown, layout=wide)
        self.weapon_box = make(widgets.Dropdown, layout=wide)
        self.mode_box = make(widgets.Dropdown, layout=wide)
        self.action_box = make(widgets.Dropdown, layout=wide)
        self.target_box = make(widgets.Dropdown, layout=wide)
        self.distance_box = make(widgets.Text, layout={"width": "14em"})
        # shown or hidden one by one: their own layouts
        self.location_box = widgets.Dropdown(layout=wide, style=shared.style(widgets.Dropdown))
        self.reaction_box = widgets.Dropdown(layout=wide, style=shared.style(widgets.Dropdown))
        self.seed_box = widgets.Text(layout={"width": "10em"}, style=shared.style(widgets.Text))
        self.circumstance_box = make(widgets.VBox)
        self.circumstance_html = make(widgets.HTML)
        self.circumstance_button = make(widgets.ToggleButton, layout={"width": "auto"})
        self.circumstance_grid: widgets.GridBox | None = None  # built on first use
        self._circumstance_controls_built: dict[str, widgets.Widget] = {}
        self._circumstance_ids: tuple[str, ...] = ()
        self.budget_box = make(widgets.Checkbox, value=True, indent=False)
        self.secret_box = make(widgets.Checkbox, value=False, indent=False)
        self.dice_box = make(widgets.ToggleButtons, options=[("", "seeded"), ("", "physical")])
        self.die_box = make(widgets.Text, layout={"width": "10em"})
        self.enter_button = make(widgets.Button)
        self.resolve_button = make(widgets.Button, button_style="primary")
        self.apply_button = make(widgets.Button, button_style="success")
        self.undo_button = make(widgets.Button)
        self.offered_html = make(widgets.HTML)
        self.preview_html = make(widgets.HTML)
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
        bind(self.circumstance_button, self.edit_circumstances)
        self.distance_box.continuous_update = False
        bind(self.distance_box, self.set_distance)
        self.seed_box.continuous_update = False
        bind(self.seed_box, self.set_seed)
        self.die_box.continuous_update = False  # a value is entered on Enter (or the button)
        self.die_box.observe(lambda change: self._enter_typed(), names="value")
        self.enter_button.on_click(lambda _: self._enter_typed())
        self.resolve_button.on_click(lambda _: self.resolve())
        self.apply_button.on_click(lambda _: self.apply())
        self.undo_button.on_click(lambda _: self.undo())

    def _bind(self, control: widgets.Widget, method: Callable[[Any], Any]) -> None:
        def changed(change: dict[str, Any]) -> None:
            if not self._syncing and change["new"] is not None:
                method(change["new"])

        control.observe(changed, names="value")

    def _enter_typed(self) -> None:
        text = self.die_box.value
        if self._syncing or not text.strip():
            return
        self._syncing = True
        try:
            self.die_box.value = ""
        finally:
            self._syncing = False
        for value in re.split(r"[\s,;]+", text.strip()):
            if value:
                self.enter(value)

    def _layout(self, with_style: bool) -> list[widgets.Widget]:
        def row(children: list[widgets.Widget]) -> widgets.HBox:
            return self._shared.make(widgets.HBox, children=children)

        self.dice_row = row([self.dice_box, self.seed_box])
        self.entry_row = widgets.HBox([self.die_box, self.enter_button])  # shown or hidden
        self._rows = [
            row([self.attacker_box, self.target_box]),
            row([self.weapon_box, self.mode_box]),
            row([self.action_box, self.location_box]),
            row([self.distance_box, self.reaction_box]),
            row([self.circumstance_html, self.circumstance_button]),
            row([self.resolve_button, self.apply_button, self.undo_button, self.budget_box,
                 self.secret_box]),
        ]  # fmt: skip
        style = [self._shared.make(widgets.HTML, value=STYLE)] if with_style else []
        return [
            *style,
            *self._rows[:4],
            self.circumstance_box,
            self.offered_html,
            self.preview_html,
            self.odds_view,
            self.dice_row,
            self.entry_row,
            self.prompt_html,
            self._rows[5],
            self.error_html,
            self.result_html,
        ]

    def _on_language(self, change: dict[str, Any]) -> None:
        self._drop_circumstance_controls()  # built again in the new language when shown
        self._render()

    def _name(self, ident: str) -> str:
        combatant = self.encounter.state.combatants.get(ident)
        return f"{combatant.name} ({combatant.side})" if combatant else ident

    def _render(self) -> None:
        """Show the panel's state: the controls' options and values, then the HTML."""
        self._syncing = True
        try:
            self._sync_controls()
        finally:
            self._syncing = False
        refused_actions = {k: v for k, v in self.not_offered.items() if k}
        names = {**self._action_names, "": ""}
        offered = refused_html(label("not_offered", "Not offered"), refused_actions, names)
        offered += refused_html(
            f"{t('reaction')}: {label('not_offered', 'Not offered')}",
            self.reactions_refused,
            {c.id: c.label for c in self._safe_reactions()},
        )
        if "" in self.not_offered:
            offered = f"<p>{self.not_offered['']}</p>" + offered
        _set(self.offered_html, value=offered + self._budget_line())
        seen = [step for step in (self.result.steps if self.result else ()) if step.modifiers]
        _set(self.preview_html, value=preview_html(self.preview, self.problem, seen))
        _set(self.prompt_html, value=prompt_html(self.prompt, self.typed))
        _set(self.result_html, value=steps_html(self.result))
        _set(self.error_html, value=error_html(self.error, self.warnings))
        _set(self.apply_button, disabled=self.result is None or self.applied)
        _set(self.undo_button, disabled=not self.encounter.can_undo)
        physical = self.dice_mode == "physical"
        _set(self.entry_row.layout, display="" if physical else "none")
        _set(self.seed_box.layout, display="none" if physical else "")

    def _safe_reactions(self) -> tuple[Choice, ...]:
        try:
            return self._reaction_catalog()
        except GmkitError:
            return ()

    def _budget_line(self) -> str:
        state = self.encounter.state
        attacker = state.combatants.get(self.attacker)
        if attacker is None or not state.started or not self.budget:
            return ""
        left = ", ".join(
            f"{pool} {total - attacker.spent.get(pool, 0)}"
            for pool, total in self.structure.turn_pools.items()
        )
        return f"<p>{t('actions_left')}: {left}</p>"

    def _sync_controls(self) -> None:
        """Each control to what the panel holds; only what differs is sent."""
        _set(self.attacker_box, description=t("attacker"))
        _choose(
            self.attacker_box, [(self._name(i), i) for i in self.attackers], self.attacker or None
        )
        _set(self.weapon_box, description=t("weapon"))
        _choose(self.weapon_box, self.weapons, self.weapon or None)
        _set(self.mode_box, description=t("mode"))
        _choose(self.mode_box, [(_choice_label(c), c.id) for c in self.modes], self.mode or None)
        _set(self.action_box, description=t("action"))
        _choose(
            self.action_box, [(_choice_label(c), c.id) for c in self.actions], self.action or None
        )
        _set(self.target_box, description=t("target"))
        _choose(self.target_box, [(self._name(i), i) for i in self.targets], self.target or None)
        _set(self.location_box, description=label("location", "Location"))
        locations = [(loc.replace("_", " "), loc) for loc in self.locations]
        _choose(self.location_box, locations, self.location or None)
        _set(self.location_box.layout, display="" if self.locations else "none")
        _set(self.distance_box, description=f"{t('distance')} ({self.unit})")
        _set(self.distance_box, value="" if self.distance is None else f"{self.distance:g}")
        _set(self.reaction_box, description=t("reaction"))
        none = label("no_reaction", "none")
        reactions = [(none, ""), *((_choice_label(c), c.id) for c in self.reactions)]
        _choose(self.reaction_box, reactions, self.reaction)
        _set(self.reaction_box.layout, display="" if self._safe_reactions() else "none")
        _set(self.budget_box, description=label("check_budget", "Action budget"))
        _set(self.budget_box, value=self.budget)
        _set(self.secret_box, description=t("gm_only"))
        _set(self.secret_box, value=self.secret)
        dice = [(t("gmkit_rolls"), "seeded"), (t("physical_dice"), "physical")]
        _choose(self.dice_box, dice, self.dice_mode)
        _set(self.seed_box, description=label("seed", "Seed"))
        _set(self.seed_box, value="" if self.seed is None else str(self.seed))
        _set(self.die_box, description=t("dice"))
        _set(self.enter_button, description=t("enter_die"))
        _set(self.resolve_button, description=t("resolve"))
        _set(self.apply_button, description=t("apply"))
        _set(self.undo_button, description=t("undo"))
        self._sync_circumstances()

    # --- the circumstances -----------------------------------------------------------------

    def _sync_circumstances(self) -> None:
        """The line of the circumstances set, the button that opens their controls, and the
        controls themselves once opened."""
        shown = bool(self.circumstance_choices)
        names = {choice.id: _choice_label(choice) for choice in self.circumstance_choices}
        chosen = [
            names[key] if value is True else f"{names[key]} {value}"
            for key, value in self.circumstances.items()
            if key in names
        ]
        summary = html.escape(", ".join(chosen) or _text("none_set"))
        _set(
            self.circumstance_html,
            value=f"<b>{html.escape(t('circumstances'))}</b>: {summary}",
        )
        _set(self.circumstance_button, description=_text("edit_circumstances"))
        _set(self.circumstance_button, value=self.circumstances_open)
        self._sync_circumstance_controls(build=self.circumstances_open)
        grid = self.circumstance_grid
        wanted = [self._rows[4]] if shown else []
        if self.circumstances_open and grid is not None and shown:
            wanted.append(grid)
        if list(self.circumstance_box.children) != wanted:
            self.circumstance_box.children = wanted

    def _sync_circumstance_controls(self, *, build: bool) -> None:
        """The controls to the circumstances offered and their values; built if ``build``
        (or already built), else left unbuilt."""
        ids = tuple(choice.id for choice in self.circumstance_choices)
        if ids != self._circumstance_ids:
            self._drop_circumstance_controls()
        if not self._circumstance_controls_built and not build:
            return
        if not self._circumstance_controls_built and ids:
            self._circumstance_ids = ids
            self._circumstance_controls_built = {
                choice.id: self._circumstance_control(choice)
                for choice in self.circumstance_choices
            }
            self.circumstance_grid = self._shared.make(
                widgets.GridBox,
                children=list(self._circumstance_controls_built.values()),
                layout={"grid_template_columns": "repeat(2, 26em)"},
            )
        syncing, self._syncing = self._syncing, True
        try:
            for choice in self.circumstance_choices:
                control = self._circumstance_controls_built.get(choice.id)
                if control is None:
                    continue
                value = self.circumstances.get(choice.id)
                if choice.kind == "flag":
                    _set(control, value=bool(value))
                elif choice.kind == "number":
                    _set(control, value=int(value or 0))
                else:
                    _set(control, value=value or "")
        finally:
            self._syncing = syncing

    def _drop_circumstance_controls(self) -> None:
        for control in self._circumstance_controls_built.values():
            control.close()
        self._circumstance_controls_built = {}
        self._circumstance_ids = ()
        grid, self.circumstance_grid = self.circumstance_grid, None
        if grid is not None:
            kept = tuple(child for child in self.circumstance_box.children if child is not grid)
            if kept != tuple(self.circumstance_box.children):
                self.circumstance_box.children = kept
            grid.close()

    def _circumstance_control(self, choice: Choice) -> widgets.Widget:
        text = _choice_label(choice)
        initial = {"description_width": "initial"}
        make = self._shared.make
        if choice.kind == "flag":
            control: widgets.Widget = make(
                widgets.Checkbox, description=text, indent=False, tooltip=choice.help
            )
        elif choice.kind == "number":
            control = make(widgets.IntText, description=text, style=initial, tooltip=choice.help)
        else:
            control = make(
                widgets.Dropdown,
                description=text,
                options=["", *choice.options],
                style=initial,
                tooltip=choice.help,
            )

        def changed(change: dict[str, Any]) -> None:
            if not self._syncing:
                self.set_circumstance(choice.id, change["new"])

        control.observe(changed, names="value")
        return control


__all__ = ["DICE_MODES", "AttackPanel", "budget_problem", "reaction_problem"]
