"""The attack form: the attack panel's selections, defaults and resets as a plain model.

A form over an :class:`~gmkit.encounter.Encounter` holds what the GM picked (attacker, weapon,
mode, action, target, distance, called location, circumstances, the target's reaction, the
options the game declares as the GM's) and works out what is offered from the rules and the
encounter: the game's offers (:mod:`gmkit.systems._choices`), "may this combatant take this
action now" (:meth:`Encounter.may_take`, :meth:`Encounter.may_react`). The widget binds
controls to it and holds nothing else (:class:`gmkit.widgets._attack.AttackPanel`).

Each public method is a GM's action, validates what it is given and raises
:class:`FormError` (a message naming what was refused and what is offered); listeners hear
every change (:meth:`subscribe`).

Defaults and resets, so no setting of one attack carries into the next by accident:

- A new attacker (chosen, or the turn passing to it with ``follow_actor``): its first weapon,
  that weapon's first legal mode, the standard attack of that mode, the first visible enemy as
  target (not on its side, not hidden, not out of the fight; else the first other), and no
  circumstance, distance, reaction, option or typed die but those the GM pinned.
- Another weapon: its first legal mode and that mode's standard attack.
- Another target: its circumstances, distance and reaction cleared (pinned ones stay).
- After an attack is applied: the reaction cleared, the rest kept where still offered (the
  same attacker shooting again at the same target, from the same place).
- The combatants' conditions and the target's sheet are read from the encounter on every
  request (the circumstances they imply are worked out then, never kept), so a condition that
  ended sets nothing; one the GM turns off goes to the rules as False (his word, which they
  keep), so it stays off for that attack.
- :meth:`pin` keeps a circumstance for the whole fight (darkness, a storm) through every reset.

Dice (:mod:`gmkit._forms.dice`): gmkit's seeded dice, or the table's, typed; a typed attack
that needs one more die says which (``needed``: the rules' typed
:class:`~gmkit.errors.NeedDie`). :meth:`apply` records the shown result as one encounter
command (its action spent with it when ``budget`` is on) and refuses if the encounter changed
so that the same dice no longer give it.

Why one module of over 400 lines: it is one class whose size is its public surface, a short
method per GM action (twenty-odd of them); the cascade is in :mod:`gmkit._forms.offered`, the
checks of typed values in :mod:`gmkit._forms.values`, the dice in :mod:`gmkit._forms.dice`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from gmkit._forms.dice import DiceState
from gmkit._forms.following import SIDES, next_of_side, turn_key
from gmkit._forms.offered import (
    OUT_OF_THE_FIGHT,
    Offered,
    default_target,
    offered_for,
    with_reactions,
)
from gmkit._forms.values import FormError, check_circumstance, distance_value, not_offered
from gmkit.encounter import Encounter
from gmkit.encounter._default_attack import DefaultAttack
from gmkit.encounter._state import Combatant, EncounterState
from gmkit.errors import DiceValueError, GmkitError
from gmkit.games import game as find_game
from gmkit.messages import Message, Text
from gmkit.systems import _choices as choices
from gmkit.systems.base import AttackRequest, AttackResult, Choice
from gmkit.systems.offers import Preview
from gmkit.systems.options import OptionInfo, offered_options

Listener = Callable[["AttackForm"], None]


class AttackForm:
    """An attack from selection to applied effects (see the module docstring)."""

    def __init__(
        self,
        encounter: Encounter,
        *,
        seed: int | None = None,
        follow_actor: bool = False,
        budget: bool = True,
    ) -> None:
        self.encounter = encounter
        self.game = encounter.game
        self.unit = find_game(self.game).unit
        self.follow_actor = follow_actor
        self.budget = budget
        self.secret = False
        self.attacker = self.weapon = self.mode = self.action = self.target = ""
        self.refused = False  # the rules refuse the attack now (its problem says why)
        self._target_chosen = False  # whether the GM picked the target (else a default)
        self.location = self.reaction = ""
        self.distance: float | None = None
        self.circumstances: dict[str, Any] = {}
        self.pinned: dict[str, Any] = {}
        self.suppressed: frozenset[str] = frozenset()  # implied ones the GM turned off
        self.options: dict[str, Any] = {}
        self.offered = Offered()
        self.preview: Preview | None = None
        self.problem: Text = ""
        self.request: AttackRequest | None = None
        self.dice = DiceState(seed)
        self.applied = False
        self._listeners: list[Listener] = []
        self._offers = encounter.offers  # the encounter's: the situation reads the same
        self._busy = False
        self._followed: str | None = None  # whose turn the attacker followed last
        self._actor_seen: str | None = None  # the situation's actor when it last followed
        if follow_actor:
            reset = self._follow()  # the attacker is whoever acts now
        else:
            self._followed = turn_key(self.encounter.state)
            reset = "attacker" if self._followed else None
        self._unsubscribe = encounter.subscribe(self._on_encounter)
        self._update(reset=reset)

    # --- reading ----------------------------------------------------------------------------

    @property
    def result(self) -> AttackResult | None:
        return self.dice.result

    @property
    def option_fields(self) -> tuple[OptionInfo, ...]:
        """The options the game declares as the GM's choices (what a panel offers)."""
        return offered_options(find_game(self.game).options)

    @property
    def implied(self) -> dict[str, Any]:
        """The circumstances the combatants' conditions and the target's sheet set now (worked
        out, never kept)."""
        state = self.encounter.state
        attacker, target = state.combatants.get(self.attacker), state.combatants.get(self.target)
        if attacker is None or target is None or not self.action:
            return {}
        found = choices.implied_circumstances(
            self.game, self.action, attacker.conditions, target.conditions, target.sheet
        )
        known = {choice.id for choice in self.offered.circumstances} - self.suppressed
        return {key: value for key, value in found.items() if key in known}

    @property
    def in_effect(self) -> dict[str, Any]:
        """The circumstances the attack is resolved with: those the conditions imply (unless
        the GM turned one off) and those the GM set."""
        return {**self.implied, **self.circumstances}

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(form)`` after every change; returns the unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def close(self) -> None:
        self._unsubscribe()
        self._listeners.clear()

    # --- the selections -----------------------------------------------------------------------

    def select_attacker(self, ident: str) -> None:
        """Attack with combatant ``ident`` (an id or a name): every choice to its defaults."""
        found = self._present(ident)
        self.attacker = found.id
        self._update(reset="attacker")

    def select_weapon(self, name: str) -> None:
        if name not in self.offered.weapons:
            raise not_offered("weapon", name, self.offered.weapons)
        self.weapon = name
        self._update(reset="weapon")

    def select_mode(self, mode: str) -> None:
        ids = [choice.id for choice in self.offered.modes]
        if mode not in ids:
            raise not_offered("mode", mode, ids)
        self.mode = mode
        self._update(reset="mode")

    def select_action(self, action: str) -> None:
        ids = [choice.id for choice in self.offered.actions]
        if action not in ids:
            why = self.offered.not_offered.get(action)
            if why:
                raise FormError(Message("form.action_refused", action=repr(action), why=why))
            raise not_offered("action", action, ids)
        self.action = action
        self._update()

    def select_target(self, ident: str) -> None:
        found = self._present(ident)
        if found.id not in self.offered.targets:
            raise not_offered("target", found.id, self.offered.targets)
        self.target = found.id
        self._target_chosen = True  # the GM's: kept even where the rules refuse it (said why)
        self._update(reset="target")

    def set_distance(self, distance: float | str | None) -> None:
        """The distance to the target in the game's unit ("" or None: not measured)."""
        self.distance = distance_value(distance)
        self._update()

    def set_circumstance(self, circumstance: str, value: Any) -> None:
        """A circumstance: True/False for a flag, a whole number, or one of a choice's options;
        False, 0, None or "" removes it."""
        check_circumstance(self._circumstance(circumstance), value)
        changed = {k: v for k, v in self.circumstances.items() if k != circumstance}
        off = value in (None, False, 0, "")
        if not off:
            changed[circumstance] = value
        implied = circumstance in {**self.implied, **{k: 1 for k in self.suppressed}}
        if implied:  # one the conditions set: the GM turns it off (or back on) for this attack
            self.suppressed = (
                self.suppressed | {circumstance} if off else self.suppressed - {circumstance}
            )
        self.circumstances = changed
        if circumstance in self.pinned:
            self.pinned = {
                k: v for k, v in changed.items() if k in self.pinned or k == circumstance
            }
        self._update()

    def pin(self, circumstance: str, on: bool = True) -> None:
        """Keep ``circumstance`` (as set now) for the whole fight, through every reset."""
        self._circumstance(circumstance)
        pinned = dict(self.pinned)
        if on and circumstance in self.circumstances:
            pinned[circumstance] = self.circumstances[circumstance]
        else:
            pinned.pop(circumstance, None)
        self.pinned = pinned
        self._update()

    def select_location(self, location: str) -> None:
        if location and location not in self.offered.locations:
            raise not_offered("location", location, self.offered.locations)
        self.location = location
        self._update()

    def select_reaction(self, reaction: str) -> None:
        """The target's reaction ("" for none)."""
        ids = [choice.id for choice in self.offered.reactions]
        if reaction and reaction not in ids:
            why = self.offered.reactions_refused.get(reaction)
            if why:  # the reaction by its name in the GM's words, not its key ("dodge")
                named = {c.id: c.label for c in choices.reactions(self.game)}
                shown = named.get(reaction, repr(reaction))
                raise FormError(Message("form.reaction_refused", reaction=shown, why=why))
            raise not_offered("reaction", reaction, ids)
        self.reaction = reaction
        self._update()

    def set_option(self, name: str, value: Any) -> None:
        """One of the game's declared options (None: back to its default); the game's options
        model refuses an unknown name or a wrong value, naming them."""
        model = find_game(self.game).options
        changed = {k: v for k, v in self.options.items() if k != name}
        if value is not None:
            changed[name] = value
        model.coerce(changed, self.game)  # RulesError naming the option
        self.options = changed
        self._update()

    def set_budget(self, on: bool) -> None:
        """Offer only what the action budget allows, and spend it on apply."""
        self.budget = bool(on)
        self._update()

    def set_secret(self, on: bool) -> None:
        """Keep the attack's rolls and result from the players."""
        self.secret = bool(on)
        self._notify()

    # --- the dice -----------------------------------------------------------------------------

    def set_dice_mode(self, mode: str) -> None:
        """Dice from "seeded" (gmkit rolls) or "physical" (the table's dice, typed)."""
        self.dice.set_mode(mode)
        self._notify()

    def set_seed(self, seed: int | str | None) -> None:
        self.dice.set_seed(seed)
        self._notify()

    def resolve(self, dice: str | None = None) -> AttackResult | None:
        """Resolve the attack: gmkit's dice, or the table's (``dice``: values typed at once, "53
        7"; without, those typed so far). When the rules need one more physical die,
        ``dice.needed`` says which and the result is None."""
        request = self._require_request()
        found = self.dice.resolve(self.game, request, dice)
        self.applied = False
        self._notify()
        return found

    def enter(self, value: int | str) -> AttackResult | None:
        """Type the value of the die the form asked for, and resolve again."""
        request = self._require_request()
        found = self.dice.enter(self.game, request, value)
        self.applied = False
        self._notify()
        return found

    def take_dice(self, values: Sequence[str]) -> AttackResult | None:
        """The table's dice, the whole list as typed in the boxes (a box per die): resolve
        with them; the first value a die cannot show is refused (``dice.refused``) and the
        dice before it are kept; too few, and ``dice.needed`` says which die comes next."""
        request = self._require_request()
        found = self.dice.take(self.game, request, values)
        self.applied = False
        self._notify()
        return found

    def answer_reaction(self, reaction: str, face: int | None = None) -> AttackResult | None:
        """The target's answer to the hit shown (asked after it, as a player on their phone
        is): ``reaction`` ("" takes the hit: nothing changes) with its die showing ``face``
        (None: gmkit's die, or the table's asked for). The attack is resolved again with the
        same dice and the reaction's die where the rules roll it."""
        result, used = self.dice.result, self.dice.used
        if result is None or self.applied:
            raise FormError(Message("form.answer_without_hit"))
        if not reaction:
            return result
        self.select_reaction(reaction)
        request = self._require_request()
        found = self.dice.react(self.game, request, used, face)
        self.applied = False
        self._notify()
        return found

    def clear_dice(self) -> None:
        """Forget the values typed and the result."""
        self.dice.clear()
        self.applied = False
        self._notify()

    # --- applying -----------------------------------------------------------------------------

    def apply(self) -> AttackResult:
        """Record the shown result and apply its effects: one encounter command, its action
        spent with it once the fight has started and ``budget`` is on."""
        result = self.dice.result
        if result is None or self.request is None:
            raise FormError(Message("form.resolve_first"))
        if self.applied:
            raise FormError(Message("form.applied_already"))
        self._busy = True
        try:
            recorded = self.encounter.attack(
                self.attacker,
                self.weapon,
                self.target,
                self.dice.replay(),
                apply=True,
                secret=self.secret,
                spend=self.budget,
                expect=result,
                **self._request_args(),
            )
        except DiceValueError:  # the rules now ask for other dice than those shown
            raise FormError(Message("attack.changed_since_roll")) from None
        finally:
            self._busy = False
        self.dice.result = recorded
        self.applied = True
        self._update(reset="applied")
        if self.follow_actor and self._followed and self._followed.startswith(SIDES):
            # a whole side acts: the one who just shot has had its go; the next of the side
            # who may still act is ready, with the applied result still shown
            following = next_of_side(self.encounter, armed_only=True)
            if following is not None and following != self.attacker:
                self.attacker = following
                self._update(reset="next_of_side")
        elif self.follow_actor and self._interrupted():
            # a delayed one interrupted with his kept half action: back to whoever acts now,
            # the applied result still shown
            now = self.encounter.situation.actor
            if now is not None and now != self.attacker:
                self.attacker = now
                self._update(reset="next_of_side")
        return recorded

    def undo(self) -> None:
        """Take back the last command (an applied attack with its action: one command)."""
        self._busy = True
        try:
            self.encounter.undo()
        finally:
            self._busy = False
        self.applied = False
        self._update(reset=self._follow())

    def redo(self) -> None:
        self._busy = True
        try:
            self.encounter.redo()
        finally:
            self._busy = False
        self._update(reset=self._follow())

    def refresh(self) -> None:
        """Read the encounter again: combatants, budgets, what is offered."""
        self._update(reset=self._follow())

    # --- inside -------------------------------------------------------------------------------

    def _follow(self) -> str | None:
        """With ``follow_actor``: attack with whoever acts now, as the situation names it,
        when that changed (the turn passed, a shot undone, the actor revived) or the attacker
        has had its go this phase ("attacker" reset); else None. In a sides game the shooter
        stays when nobody of the side is left who may shoot; a delayed one who interrupted
        goes back to whoever acts now."""
        if not self.follow_actor:
            return None
        encounter = self.encounter
        now = encounter.situation.actor
        key = turn_key(encounter.state)
        sides = key is not None and key.startswith(SIDES)
        done = sides and self.attacker in encounter.acted
        changed = now != self._actor_seen or key != self._followed
        self._actor_seen, self._followed = now, key
        if now is None or now == self.attacker:
            return None
        if changed or done:
            if sides and not choices.weapons(self.game, encounter.state.combatants[now].sheet):
                return None  # nobody left who may shoot: the shooter stays
            self.attacker = now
            return "attacker"
        if self._interrupted():
            self.attacker = now  # a delayed one interrupted: back to whoever acts now
            return "attacker"
        return None

    def _on_encounter(self, encounter: Any) -> None:
        if self._busy:
            return
        self._update(reset=self._follow(), keep_result=True)

    def _present(self, ident: str) -> Combatant:
        found = self.encounter.combatant(ident)
        if found.removed:
            raise FormError(Message("commands.removed", name=found.name))
        return found

    def _circumstance(self, circumstance: str) -> Choice:
        found = next((c for c in self.offered.circumstances if c.id == circumstance), None)
        if found is None:
            known = [c.id for c in self.offered.circumstances]
            raise not_offered("circumstance", circumstance, known)
        return found

    def _request_args(self) -> dict[str, Any]:
        options = dict(self.options)
        if self.reaction:
            options["reaction"] = self.reaction
        # an implied circumstance the GM turned off goes as False: the rules take it as his
        # word, not as one left for the conditions or the sheet to set
        turned_off = {key: False for key in self.suppressed if key not in self.circumstances}
        return {
            "action": self.action,
            "mode": self.mode,
            "distance": self.distance,
            "called_location": self.location or None,
            "circumstances": {**turned_off, **self.in_effect},
            "options": options,
        }

    def _require_request(self) -> AttackRequest:
        if self.request is None:
            raise FormError(self.problem)
        return self.request

    def _update(self, reset: str | None = None, keep_result: bool = False) -> None:
        """Work out what is offered from the selections, applying the defaults ``reset`` says
        (attacker, weapon, mode, target, applied; next_of_side: another attacker, with the
        result just applied still shown) and keeping what is still offered."""
        state = self.encounter.state
        shown = self.dice.result if reset == "next_of_side" else None
        if reset == "next_of_side":
            reset = "attacker"
        if reset in ("attacker", "target"):
            self.circumstances = dict(self.pinned)
            self.suppressed = frozenset()
            self.distance = None
        if reset in ("attacker", "target", "applied"):
            self.reaction = ""
        if reset == "attacker":
            self.options = {}
            self.weapon = self.mode = self.action = self.target = self.location = ""
        elif reset == "weapon":
            self.mode = self.action = ""
        if reset != "applied" and (not keep_result or reset is not None):
            self.dice.clear()  # a result applied stays shown until the next choice
            self.applied = False
        if shown is not None:  # the last attack's result, applied: shown, its dice forgotten
            self.dice.result, self.applied = shown, True
        before = self.offered
        self.offered = offered_for(self, state, self._offers)
        self._fix_selections(state)
        self._build_request()
        self.offered = with_reactions(self, state, self.offered, self.request)
        if self.reaction and self.reaction not in [c.id for c in self.offered.reactions]:
            self.reaction = ""  # not offered against this attack
            self._build_request()
        if self.offered == before:
            self.offered = before  # the same offer: a panel sees it is the one on screen
        self._notify()

    def _fix_selections(self, state: EncounterState) -> None:
        offered = self.offered
        if self.attacker not in offered.attackers:
            self.attacker = offered.attackers[0] if offered.attackers else ""
        if self.target not in offered.targets:
            # a default is one the rules let the attack target (never one the GM picked): the
            # situation's, when the choices so far are its default attack's
            self._target_chosen = False
            default = self._default_attack()
            if default is not None:
                self.target = default.target
            else:
                allowed = self._may_target
                self.target = default_target(state, self.attacker, offered.targets, allowed)
        if self.location not in offered.locations:
            self.location = offered.locations[0] if offered.locations else ""
        kept = {choice.id for choice in offered.circumstances}
        self.circumstances = {k: v for k, v in self.circumstances.items() if k in kept}

    def _build_request(self) -> None:
        self.request, self.preview, self.problem = None, None, ""
        self.refused = False  # the rules refuse the attack (not a choice still to make)
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
        if missing == ["target"] and not self._target_chosen:
            default = self._default_attack()
            if default is not None and default.refusal:  # every enemy refused: the reason
                self.problem, self.refused = default.refusal, True
                return
        if missing:
            refused = self.offered.not_offered
            none_offered = "action" in missing and not self.offered.actions
            why = self._why_no_attack() if none_offered else ""
            if why or (none_offered and refused):
                # no attack is offered now: the one reason the situation gives (stunned,
                # pinned and its half action spent, not his turn), else the weapon's
                self.problem = refused.get("") or why or next(iter(refused.values()))
                self.refused = bool(why)
                return
            fields = tuple(Message(f"form.field.{name}") for name in missing)
            self.problem = Message("form.choose_first", fields=fields)
            return
        default = self._default_attack()
        plain = default is not None and default.args == self._request_args()
        if default is not None and plain and default.target == self.target:
            # the situation's default attack: its request and preview, worked out once
            if default.needs:  # a choice still to make (a shot's distance): no request yet
                self.problem = default.needs
            else:
                self.request, self.preview = default.request, default.preview
            return
        try:
            self.request = self.encounter.attack_request(
                self.attacker, self.weapon, self.target, **self._request_args()
            )
            refusal = choices.target_refusal(self.game, self.request)
            if refusal:  # refused means refused: no odds, no roll, nothing to apply
                self.request, self.problem, self.refused = None, refusal, True
                self._default_again()
                return
            self.preview = choices.attack_preview(self.game, self.request)
        except (GmkitError, ValueError) as error:
            self.request, self.preview = None, None
            self.problem = error.message if isinstance(error, GmkitError) else str(error)
            self._default_again()

    def _default_attack(self) -> DefaultAttack | None:
        """The situation's default attack of the attacker, when the weapon, mode and action
        chosen are its own (None otherwise: the form works its target out)."""
        if self.attacker not in self.encounter.state.combatants:
            return None
        found = self.encounter.situation.default_attack_of(self.attacker)
        if (found.weapon, found.mode, found.action) != (self.weapon, self.mode, self.action):
            return None
        return found

    def _default_again(self) -> None:
        """The rules refuse the target the form took by default (the turn passed, the weapon
        changed): take the first one they allow instead, if any (the GM's own pick stays,
        with the reason shown)."""
        if self._target_chosen or not self.target:
            return
        state = self.encounter.state
        other = default_target(state, self.attacker, self.offered.targets, self._may_target)
        if other and other != self.target and self._may_target(other):
            self.target = other
            self._build_request()

    def _may_target(self, ident: str) -> bool:
        """Whether the rules let the attack chosen target ``ident`` (asked for a default)."""
        if not (self.attacker and self.weapon and self.action):
            return True
        try:
            request = self.encounter.attack_request(
                self.attacker, self.weapon, ident, **{**self._request_args(), "distance": None}
            )
            return not choices.target_refusal(self.game, request)
        except (GmkitError, ValueError):
            return False  # the request itself is refused: no default (said if chosen)

    def _interrupted(self) -> bool:
        """Whether the attacker, not the one who acts now, has used what let it act out of
        turn (a delayed one's kept half action): it may make no attack now."""
        state = self.encounter.state
        combatant = state.combatants.get(self.attacker)
        if combatant is None or not state.started or combatant.delayed:
            return False
        return not self.encounter.situation.of(self.attacker).attacks_allowed

    def _why_no_attack(self) -> Text:
        """Why the attacker may make no attack now, as the situation says ("" when it may)."""
        if not self.budget or self.attacker not in self.encounter.state.combatants:
            return ""
        footing = self.encounter.situation.of(self.attacker)
        if footing.why_not is not None:
            return footing.why_not
        refusals = [why for why in footing.attacks.values() if why is not None]
        if refusals and not footing.attacks_allowed:
            return refusals[0]
        return ""

    def _notify(self) -> None:
        for listener in list(self._listeners):
            listener(self)


__all__ = ["OUT_OF_THE_FIGHT", "AttackForm", "FormError"]
