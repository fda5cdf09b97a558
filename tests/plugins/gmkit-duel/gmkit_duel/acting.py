"""Duel's rules of the turn beyond strikes: a stunned duellist does nothing, a disarmed one may
only pick up its sword; a salute (free), a feint (a strike's worth, to one side, a d6: 4+ leaves
the foe off guard for a round), picking up the sword; a bleeding duellist rolls a d6 at the end
of its side's turn and loses a wound on 1-2."""

from __future__ import annotations

from collections.abc import Iterable

from gmkit.dice import DiceSource
from gmkit.messages import Message
from gmkit.systems.acting import (
    ActionInfo,
    ActionRequest,
    ActionResult,
    Bearer,
    Due,
    Moment,
    NoTurnRules,
    Restriction,
    unknown_action,
)
from gmkit.systems.base import Choice, Effect, Step

SIDES = ("left", "right")


class DuelTurns(NoTurnRules):
    """See the module docstring."""

    def restrictions(self, conditions: Iterable[str]) -> tuple[Restriction, ...]:
        found: list[Restriction] = []
        for name in conditions:
            if name == "stunned":
                found.append(Restriction(name, Message("duel.stunned"), no_actions=True))
            if name == "disarmed":
                found.append(
                    Restriction(
                        name,
                        Message("duel.disarmed"),
                        actions=frozenset({"pick_up"}),
                        no_reactions=True,
                    )
                )
        return tuple(found)

    def actions(self) -> tuple[ActionInfo, ...]:
        labels = tuple(Message(f"duel.side.{side}") for side in SIDES)
        side = Choice("side", Message("duel.input.side"), "choice", SIDES, option_labels=labels)
        return (
            ActionInfo("salute", Message("duel.action.salute"), ("free",)),
            ActionInfo(
                "feint", Message("duel.action.feint"), ("strike",), target=True, inputs=(side,)
            ),
            ActionInfo("pick_up", Message("duel.action.pick_up"), ("strike",)),
        )

    def perform_action(self, request: ActionRequest, source: DiceSource) -> ActionResult:
        name = request.actor.name
        if request.action == "salute":
            step = Step(Message("duel.action.salute"), Message("duel.salutes"))
            return ActionResult((step,), summary=Message("duel.salutes_summary", name=name))
        if request.action == "pick_up":
            effect = Effect("remove_condition", name, condition="disarmed")
            step = Step(Message("duel.action.pick_up"), Message("duel.armed_again"))
            return ActionResult((step,), (effect,))
        if request.action == "feint":
            assert request.target is not None
            die = source.roll_die(6, Message("duel.die.feint"))
            fooled = die.value >= 4
            side = str(request.inputs.get("side", "left"))
            step = Step(
                Message("duel.action.feint"),
                Message("duel.fooled" if fooled else "duel.not_fooled"),
                Message(f"duel.feint_to.{side}", value=die.value),
                (die,),
                4,
            )
            off_guard = Effect("condition", request.target.name, condition="off guard", rounds=1)
            return ActionResult((step,), (off_guard,) if fooled else ())
        raise unknown_action(request.action, self.actions())

    def turn_rolls(self, moment: Moment, bearer: Bearer) -> tuple[Due, ...]:
        if moment == "end_of_turn" and "bleeding" in bearer.standing.conditions:
            text = Message("duel.bleeds", name=bearer.sheet.name)
            return (Due("bleeding", text, (6,)),)
        return ()

    def roll_due(self, due: Due, bearer: Bearer, source: DiceSource) -> ActionResult:
        if due.rule != "bleeding":
            return super().roll_due(due, bearer, source)
        die = source.roll_die(6, Message("duel.die.bleeding"))
        lost = die.value <= 2
        step = Step(
            Message("duel.bleeding"),
            Message("duel.wound_lost" if lost else "duel.holds"),
            rolls=(die,),
        )
        effects = (Effect("damage", bearer.sheet.name, amount=1),) if lost else ()
        return ActionResult((step,), effects)


__all__ = ["SIDES", "DuelTurns"]
