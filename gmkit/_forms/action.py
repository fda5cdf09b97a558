"""The turn form: a non-attack action from choice to event, the rolls a turn asks for, and the
GM's own conditions, as a plain model below the turn panel
(:class:`gmkit.widgets._turn_panel.TurnPanel`).

What is offered comes from the game's rules of the turn (``Encounter.actions()``, the typed
seam of :mod:`gmkit.systems.acting`) and the encounter's permits (``Encounter.may_do``): every
action the game has is listed, each with whether the actor may take it now and, if not, why.

Defaults and resets, as in the attack form: a new actor (chosen, or the turn passing to it with
``follow_actor``) clears the action's type, target, weapon, inputs and typed dice; another
action clears its type, inputs and dice and, when it needs one, picks the first visible enemy
as target and the actor's first weapon; an action taken clears the choice (its result stays
shown). Nothing of one action carries into the next.

Dice: gmkit's (seeded) or the table's (typed: ``perform("7")``, ``roll_due(0, "4")``); when
the rules need one more die than was typed, ``needed`` says which
(:class:`~gmkit.errors.NeedDie`) and nothing is recorded.

Each public method is a GM's action (``select_actor``, ``select_action``, ``perform``,
``roll_due``, ``dismiss_due``, ``add_condition``, ``remove_condition``); a refusal raises
a :class:`~gmkit.errors.GmkitError` whose message names the field and the problem.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gmkit._forms.dice import typed_values
from gmkit._forms.offered import default_target, foes_first
from gmkit._forms.values import FormError, not_offered
from gmkit.dice import DiceSource, EnteredDice, SeededDice
from gmkit.encounter import Encounter, Permit
from gmkit.encounter._fold import TICKS
from gmkit.encounter._state import Combatant
from gmkit.errors import NeedDie
from gmkit.messages import Message
from gmkit.systems.acting import ActionInfo, ActionResult, Due

Listener = Callable[["ActionForm"], None]


@dataclass(frozen=True, slots=True)
class OfferedAction:
    """An action of the game as the form offers it now: may the actor take it, and if not why."""

    info: ActionInfo
    permit: Permit

    @property
    def allowed(self) -> bool:
        return self.permit.allowed


class ActionForm:
    """A non-attack action, the rolls due and the conditions (see the module docstring)."""

    def __init__(
        self, encounter: Encounter, *, seed: int | None = None, follow_actor: bool = True
    ) -> None:
        self.encounter = encounter
        self.follow_actor = follow_actor
        self.actor = self.action = self.as_type = self.target = self.weapon = ""
        self.inputs: dict[str, Any] = {}
        self.result: ActionResult | None = None
        self.needed: NeedDie | None = None
        self._dice = SeededDice(seed)
        self._listeners: list[Listener] = []
        self._acting = False  # an action of this form is being taken (perform)
        self._followed = self._current()
        self.actor = self._followed or self._first_present()
        self._unsubscribe = encounter.subscribe(self._on_encounter)

    # --- reading ----------------------------------------------------------------------------

    @property
    def actions(self) -> tuple[ActionInfo, ...]:
        """The game's non-attack actions (its rules of the turn)."""
        return self.encounter.actions()

    @property
    def offered(self) -> tuple[OfferedAction, ...]:
        """Every action, with the actor's permit for it now."""
        if not self.actor:
            return ()
        permits = self.encounter.situation.of(self.actor).actions  # worked out once a state
        return tuple(OfferedAction(info, permits[info.id]) for info in self.actions)

    @property
    def info(self) -> ActionInfo | None:
        return next((info for info in self.actions if info.id == self.action), None)

    @property
    def permit(self) -> Permit | None:
        """May the actor take the chosen action (as the chosen type) now."""
        if not self.actor or not self.action:
            return None
        return self.encounter.may_do(self.actor, self.action, as_type=self.as_type or None)

    @property
    def targets(self) -> tuple[str, ...]:
        """Everyone else in the fight, the actor's foes first."""
        state = self.encounter.state
        actor = state.combatants.get(self.actor)
        return foes_first(list(state.present), actor) if actor is not None else ()

    @property
    def weapons(self) -> tuple[str, ...]:
        """The actor's weapons (by name)."""
        combatant = self.encounter.state.combatants.get(self.actor)
        if combatant is None:
            return ()
        return tuple(str(w.name) for w in getattr(combatant.sheet, "weapons", ()) or ())

    @property
    def due(self) -> tuple[Due, ...]:
        return self.encounter.due

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(form)`` after every change; returns the unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def close(self) -> None:
        self._unsubscribe()
        self._unsubscribe = _nothing
        self._listeners.clear()

    # --- the selections -----------------------------------------------------------------------

    def select_actor(self, ident: str) -> None:
        """Act with combatant ``ident`` (an id or a name): every choice cleared."""
        self.actor = self._present(ident).id
        self._reset_action("")
        self._notify()

    def select_action(self, action: str) -> None:
        """Choose an action of :attr:`actions` (by id): its type, inputs and dice cleared, its
        target and weapon to their defaults."""
        ids = [info.id for info in self.actions]
        if action not in ids:
            raise not_offered("action", action, ids)
        self._reset_action(action)
        self._notify()

    def set_type(self, action_type: str) -> None:
        """Take the action as ``action_type`` (one of its types: "half", "full"...)."""
        info = self._chosen()
        if action_type not in ("", *info.types):
            raise not_offered("action_type", action_type, info.types)
        self.as_type = action_type
        self._clear_dice()
        self._notify()

    def select_target(self, ident: str) -> None:
        found = self._present(ident)
        if found.id not in self.targets:
            raise not_offered("target", found.id, self.targets)
        self.target = found.id
        self._clear_dice()
        self._notify()

    def select_weapon(self, name: str) -> None:
        if name not in self.weapons:
            raise not_offered("weapon", name, self.weapons)
        self.weapon = name
        self._clear_dice()
        self._notify()

    def set_input(self, name: str, value: Any) -> None:
        """One of the action's declared inputs (None or "" leaves it to the rules' default);
        the encounter checks the value when the action is taken."""
        info = self._chosen()
        names = [choice.id for choice in info.inputs]
        if name not in names:
            raise not_offered("input", name, names)
        if value in (None, ""):
            self.inputs.pop(name, None)
        else:
            self.inputs[name] = value
        self._clear_dice()
        self._notify()

    def set_seed(self, seed: int | None) -> None:
        self._dice = SeededDice(seed)

    # --- the commands ---------------------------------------------------------------------------

    def perform(self, typed: str | None = None, *, override: str | None = None) -> ActionResult:
        """Take the chosen action: one encounter event (refused as the encounter refuses it,
        unless the GM gives an ``override`` reason). ``typed``: the table's dice, in order;
        when they are too few, :attr:`needed` says which die and :class:`NeedDie` is raised."""
        info = self._chosen()
        source = self._source(typed)
        self.needed = None
        self._acting = True  # the encounter's news is shown once, with the result, below
        try:
            result = self.encounter.act(
                self.actor,
                info.id,
                source,
                target=self.target or None,
                weapon=self.weapon or None,
                as_type=self.as_type or None,
                inputs=dict(self.inputs),
                override=override,
            )
        except NeedDie as need:
            self.needed = need
            self._notify()
            raise
        finally:
            self._acting = False
        self._reset_action("")  # taken: nothing of it carries into the next action
        self.result = result
        self._notify()
        return result

    def take(self, action: str) -> ActionResult | None:
        """An action's button: choose it and, when it asks nothing more than its defaults
        (the nearest foe, the first weapon), take it at once with gmkit's dice; an action with
        inputs of its own is only chosen (None), for the GM to fill in and take."""
        self.select_action(action)
        info = self._chosen()
        if info.inputs:
            return None
        return self.perform()

    def roll_due(self, index: int, typed: str | None = None) -> ActionResult:
        """Roll the ``index``-th roll due, with gmkit's dice or the table's typed ones."""
        source = self._source(typed)
        self.needed = None
        try:
            result = self.encounter.roll_due(index, source)
        except NeedDie as need:
            self.needed = need
            self._notify()
            raise
        self.result = result
        self._notify()
        return result

    def dismiss_due(self, index: int, reason: str = "") -> None:
        self.encounter.dismiss_due(index, reason)

    def add_condition(
        self, ident: str, name: str, rounds: int | str | None = None, ticks: str = "end_of_turn"
    ) -> Message | None:
        """Put the condition ``name`` on ``ident`` for ``rounds`` (None or "": until removed);
        returns why it is a note no rule reads (a name the game does not declare), else None."""
        text = name.strip()
        if not text:
            raise FormError(Message("encounter.condition_blank"))
        if ticks not in TICKS:
            raise not_offered("ticks", ticks, TICKS)
        count = _rounds(rounds)
        who = self._present(ident)
        return self.encounter.add_condition(who.id, text, rounds=count, ticks=ticks)  # type: ignore[arg-type]

    def remove_condition(self, ident: str, name: str) -> None:
        self.encounter.remove_condition(self._present(ident).id, name)

    # --- inside -------------------------------------------------------------------------------

    def _chosen(self) -> ActionInfo:
        info = self.info
        if info is None:
            raise FormError(Message("form.action_first"))
        return info

    def _source(self, typed: str | None) -> DiceSource:
        if typed is None:
            return self._dice
        return EnteredDice(typed_values(typed))

    def _reset_action(self, action: str) -> None:
        self.action, self.as_type, self.inputs = action, "", {}
        self.target = self.weapon = ""
        info = self.info
        if info is not None and info.target and self.actor:
            targets = self.targets
            state = self.encounter.state
            self.target = default_target(state, self.actor, targets) if targets else ""
        if info is not None and info.weapon:
            weapons = self.weapons
            self.weapon = weapons[0] if weapons else ""
        self._clear_dice()

    def _clear_dice(self) -> None:
        self.result, self.needed = None, None

    def _present(self, ident: str) -> Combatant:
        found = self.encounter.combatant(ident)
        if found.removed:
            raise FormError(Message("commands.removed", name=found.name))
        return found

    def _current(self) -> str:
        """Who acts now, as the encounter's situation names it; "" before the start."""
        return self.encounter.situation.actor or ""

    def _first_present(self) -> str:
        present = self.encounter.state.present
        return present[0].id if present else ""

    def _on_encounter(self, _encounter: object) -> None:
        state = self.encounter.state
        if self.follow_actor:
            current = self._current()
            if current and current != self._followed:
                self._followed = current
                self.actor = current
                self._reset_action("")
        if self.actor not in state.combatants or state.combatants[self.actor].removed:
            self.actor = self._first_present()
            self._followed = ""  # the actor comes back (revived, its removal undone): followed
            self._reset_action("")
        if not self._acting:
            self._notify()

    def _notify(self) -> None:
        for listener in list(self._listeners):
            listener(self)


def _nothing() -> None:
    """What ``close`` leaves to unsubscribe: nothing."""


def _rounds(rounds: int | str | None) -> int | None:
    """A condition's rounds as typed ("2"; "" or None: until removed), 1 or more."""
    if rounds is None or (isinstance(rounds, str) and not rounds.strip()):
        return None
    refused = FormError(Message("form.rounds_not_number", got=repr(rounds)))
    if isinstance(rounds, bool):
        raise refused
    if isinstance(rounds, str):
        if not rounds.strip().isdigit():
            raise refused
        count = int(rounds.strip())
    else:
        count = int(rounds)
    if count < 1:
        raise refused
    return count


__all__ = ["ActionForm", "OfferedAction"]
