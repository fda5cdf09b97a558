"""The WFRP 2e rules of the turn beyond attacks (seed 002), through the seam of
:mod:`gmkit.systems.acting`: :data:`TURN_RULES` (the registry entry's ``acting``).

- :meth:`WFRP2TurnRules.restrictions`: the game's condition book
  (:mod:`~gmkit.systems.wfrp2._conditions`): stunned: no action of any kind, not even a free one,
  and no parry or dodge (002); helpless: no parry or dodge (002: it cannot defend itself);
  defensive stance: no attack (002: the character does not attack that round; its other
  actions stay open).
- :meth:`WFRP2TurnRules.actions`: the non-attack actions of ``actions.yaml`` with the budget
  types they take (002's "other actions", whose cost varies: as a half or a full action, the
  GM's choice); feint and manoeuvre need a target (their opposed WS test).
- :meth:`WFRP2TurnRules.perform_action`: :func:`gmkit.systems.wfrp2._round.perform_action`
  through the seam: its steps, the conditions it grants (aiming, feint, the stances...), and
  the delay ends the turn keeping a half action (the encounter keeps it).
- Aim and a won feint hold for the bearer's next action only (002; the book's ``when_acts``):
  a standard attack uses them (:func:`attack_effects`: the attack removes them, whatever attack
  it is), any other action ends them, and so does a reaction, since 002 makes a dodge and a
  parry with the other hand free actions (:meth:`WFRP2TurnRules.lapsed_by_reaction`; the
  resolver does the same for the reactions it rolls).
- An attack or an action the book's restrictions forbid (a stunned attacker's, a defensive
  stance's attack) is refused by the resolver itself (:func:`refuse_unable`), with the
  permits' own reason, as an action by :meth:`WFRP2TurnRules.perform_action`.

Choices where seed 002 is silent: aim and feint last until the bearer's next action, at most
to the end of its next turn (``rounds: 2`` in ``actions.yaml``: an aim as the turn's last half
action carries into the next turn); 002 gives no roll due at any moment of the turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from gmkit.dice import DiceSource
from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems.acting import (
    ActionInfo,
    ActionRequest,
    ActionResult,
    AgilityTieBreaks,
    Due,
    NoTurnRules,
    Restriction,
    unknown_action,
)
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Step
from gmkit.systems.wfrp2._catalogs import Action, actions
from gmkit.systems.wfrp2._conditions import book
from gmkit.systems.wfrp2._round import perform_action

USED_BY = "standard_attack"
"""The attack that uses an aim or a feint; any other action, attack or reaction loses them."""
DELAY = "delay"
CRITICAL_PROMPT = "wfrp2.critical.prompt"  # the note a critical no table covers carries
DELAYED_CONDITION = "delayed_half_action"  # the encounter keeps the delayed half action itself

TYPES: dict[str, tuple[str, ...]] = {
    "full": ("full",),
    "half": ("half",),
    "free": ("free",),
    "varies": ("half", "full"),
}


def condition_term(name: str) -> Message:
    """A condition's name as the catalogs give it (``wfrp2.condition.<name>``)."""
    return Message.term(f"wfrp2.condition.{name}", name)


def _lapsed_step(held: Iterable[str], why: str) -> Step:
    names = tuple(condition_term(name) for name in held)
    return Step(
        Message("wfrp2.step.lapsed"),
        Message("wfrp2.outcome.lapsed", conditions=names),
        Message(why),
    )


def _removals(target: str, held: Iterable[str]) -> tuple[Effect, ...]:
    return tuple(Effect("remove_condition", target, condition=name) for name in held)


def refuse_unable(name: str, conditions: Iterable[str], action: str = "") -> None:
    """RulesError when the book's restrictions forbid ``name``, bearing ``conditions``, the
    action ``action`` of the catalog ("" any action: stunned), with the permits' reason."""
    found = actions().get(action)
    kinds = TYPES[found.type] if found is not None else ("",)
    for rule in book().restrictions(conditions):
        if all(rule.forbids(kind, action) for kind in kinds):
            raise RulesError(Message("turns.permit.restricted", name=name, why=rule.why))


def attack_effects(request: AttackRequest, result: AttackResult) -> AttackResult:
    """``result`` with what the attack does to the standings, as the book ends them: the
    attacker's aim and feint are spent (used by a standard attack, lost by any other), and a
    target that reacted loses its own (a dodge, a parry: 002's free actions)."""
    attacker, target = request.attacker.name, request.target.name
    held = book().ended(request.attacker_standing.conditions, "attack", request.action)
    effects = list(result.effects)
    steps = list(result.steps)
    if held:
        effects += _removals(attacker, held)
        if request.action != USED_BY:
            steps.append(_lapsed_step(held, "wfrp2.detail.lapsed_attack"))
    reacted = any(e.kind == "reaction" and e.target == target for e in result.effects)
    kept = book().ended(request.target_standing.conditions, "reaction") if reacted else ()
    if kept:
        effects += _removals(target, kept)
        steps.append(_lapsed_step(kept, "wfrp2.detail.lapsed_reaction"))
    if len(effects) == len(result.effects):
        return result
    return replace(result, steps=tuple(steps), effects=tuple(effects))


def _info(item: Action) -> ActionInfo:
    return ActionInfo(
        item.id,
        item.label,
        TYPES[item.type],
        help=item.note_text or "",
        target=item.opposed is not None,
    )


class WFRP2TurnRules(AgilityTieBreaks, NoTurnRules):
    """WFRP 2e's rules of the turn (see the module docstring)."""

    def restrictions(self, conditions: Iterable[str]) -> tuple[Restriction, ...]:
        return book().restrictions(conditions)

    def actions(self) -> tuple[ActionInfo, ...]:
        return tuple(_info(item) for item in actions().values() if not item.is_attack)

    def perform_action(self, request: ActionRequest, source: DiceSource) -> ActionResult:
        known = actions()
        if request.action not in known or known[request.action].is_attack:
            raise unknown_action(request.action, self.actions())
        actor = request.actor
        if not isinstance(actor, WFRP2Character):
            raise RulesError(Message("wfrp2.refusal.not_a_character", name=actor.name))
        refuse_unable(actor.name, request.actor_standing.conditions, request.action)
        target = request.target
        if target is not None and not isinstance(target, WFRP2Character):
            raise RulesError(Message("wfrp2.refusal.not_a_character", name=target.name))
        taken = perform_action(request.action, actor, source, target=target)
        delays = request.action == DELAY
        effects = [e for e in taken.effects if not (delays and e.condition == DELAYED_CONDITION)]
        steps = list(taken.steps)
        granted = {e.condition for e in effects if e.kind == "condition" and e.target == actor.name}
        ended = book().ended(request.actor_standing.conditions, "action", request.action)
        held = [name for name in ended if name not in granted]
        if held:
            effects = [*_removals(actor.name, held), *effects]
            steps.append(_lapsed_step(held, "wfrp2.detail.lapsed_action"))
        if taken.won is None:
            summary = Message("wfrp2.summary.action", name=actor.name, action=taken.action.label)
        else:
            summary = Message(
                "wfrp2.summary.opposed_won" if taken.won else "wfrp2.summary.opposed_lost",
                name=actor.name,
                action=taken.action.label,
                target=target.name if target is not None else "",
            )
        return ActionResult(tuple(steps), tuple(effects), summary, delays=delays)

    def lapsed_by_reaction(self, conditions: Iterable[str]) -> tuple[str, ...]:
        return book().ended(conditions, "reaction")

    def decisions(self, effects: Sequence[Effect]) -> tuple[Due, ...]:
        """A critical hit no table gives the effect of: the GM gives it (002 lost its table)."""
        return tuple(
            Due("critical", effect.note, (), True, effect.target)
            for effect in effects
            if effect.kind == "critical"
            and isinstance(effect.note, Message)
            and effect.note.id == CRITICAL_PROMPT
        )


TURN_RULES = WFRP2TurnRules()
"""WFRP 2e's rules of the turn, as its registry entry holds them."""

__all__ = [
    "TURN_RULES",
    "WFRP2TurnRules",
    "attack_effects",
    "condition_term",
    "refuse_unable",
]
