"""Non-attack actions and the rolls a turn asks for, through the encounter: one command, one
event, one undo.

- :meth:`ActionCommands.act`: Aim, Reload, Move, Defensive Stance... as the game's rules take
  them (``TurnRules.perform_action``), spending the action from the actor's budget as
  :mod:`gmkit.encounter._permits` allows it, and applying the effects (the conditions the rules
  read later: the Aim bonus carried to the next attack, a brace, a fighter's run).
- :meth:`ActionCommands.roll_due` / :meth:`dismiss_due`: a roll the last turn change listed
  (``state.due``: on-fire damage, blood loss, a recovery roll), rolled with gmkit's dice or the
  table's typed ones, or passed over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gmkit.dice import DiceSource, EnteredDice
from gmkit.encounter._core import roll_record
from gmkit.encounter._dues import bearer, phase_of, standing
from gmkit.encounter._effects import application, as_effect
from gmkit.encounter._flow import TurnCommands, spent_event
from gmkit.encounter._permits import Permit, may_take
from gmkit.encounter._records import step_record, summary_record, target_record
from gmkit.errors import RulesError
from gmkit.games import game as find_game
from gmkit.messages import Message
from gmkit.systems.acting import (
    ActionInfo,
    ActionRequest,
    ActionResult,
    Due,
    TurnRules,
    action_info,
    checked_inputs,
)
from gmkit.systems.base import NO_STANDING


class ActionCommands(TurnCommands):
    @property
    def turn_rules(self) -> TurnRules:
        """The game's rules of the turn beyond attacks (its registry entry's ``acting``)."""
        return find_game(self.game).acting

    def actions(self) -> tuple[ActionInfo, ...]:
        """The non-attack actions the game offers (for a panel)."""
        return self.turn_rules.actions()

    def may_do(self, ident: str, action: str, *, as_type: str | None = None) -> Permit:
        """May combatant ``ident`` take the non-attack ``action`` now (as ``as_type``, else as
        the first of its types the budget allows), and if not, why."""
        info = action_info(self.turn_rules, action)
        types = self._types(info, as_type)
        who = self.combatant(ident)
        return may_take(self.state, who, types, self.structure, action=action)

    def _types(self, info: ActionInfo, as_type: str | None) -> tuple[str, ...]:
        if as_type is None:
            return info.types
        if as_type not in info.types:
            raise RulesError(
                Message(
                    "turns.action_not_of_type",
                    action=info.label,
                    action_type=repr(as_type),
                    types=info.types,
                )
            )
        return (as_type,)

    def action_request(
        self,
        actor: str,
        action: str,
        *,
        target: str | None = None,
        weapon: str | None = None,
        as_type: str | None = None,
        inputs: Mapping[str, Any] | None = None,
    ) -> ActionRequest:
        """The request for the rules, with what the encounter knows of the actor (and target):
        refuses an unknown action (naming the nearest), a missing target or weapon, an input
        the action does not declare."""
        info = action_info(self.turn_rules, action)
        who = self.combatant(actor)
        whom = self.combatant(target) if target else None
        for one in (who, whom):
            if one is not None and one.removed:
                raise RulesError(Message("commands.removed", name=one.name))
        if info.target and whom is None:
            raise RulesError(Message("turns.action_needs_target", action=info.label))
        if info.weapon and not weapon:
            raise RulesError(Message("turns.action_needs_weapon", action=info.label))
        types = self._types(info, as_type)
        action_type = types[0] if types else ""
        if self.state.started:
            permit = may_take(self.state, who, types, self.structure, action=action)
            action_type = permit.action_type or action_type
        return ActionRequest(
            actor=who.sheet,
            action=action,
            action_type=action_type,
            target=whom.sheet if whom is not None else None,
            weapon=weapon,
            inputs=checked_inputs(info, inputs),
            actor_standing=standing(self.state, who),
            target_standing=standing(self.state, whom) if whom is not None else NO_STANDING,
            round=self.state.round,
            phase=phase_of(self.state),
        )

    def act(
        self,
        actor: str,
        action: str,
        source: DiceSource | None = None,
        *,
        target: str | None = None,
        weapon: str | None = None,
        as_type: str | None = None,
        inputs: Mapping[str, Any] | None = None,
        override: str | None = None,
        expect: ActionResult | None = None,
    ) -> ActionResult:
        """Take the non-attack ``action`` (an id of :meth:`actions`): the game's rules resolve
        it with ``source`` (an action that rolls nothing needs none), and one event records
        the action spent from the budget (refused when :meth:`may_do` refuses, unless the GM
        gives an ``override`` reason), the steps, the rolls and the effects applied. ``expect``:
        the result the GM was shown; refused if the encounter changed so that the rules now
        give another."""
        request = self.action_request(
            actor, action, target=target, weapon=weapon, as_type=as_type, inputs=inputs
        )
        who = self.combatant(actor)
        spent: dict[str, Any] | None = None
        if self.state.started:
            info = action_info(self.turn_rules, action)
            permit = may_take(
                self.state, who, self._types(info, as_type), self.structure, action=action
            )
            spent = spent_event(who.id, permit, action, override)
        result = self.turn_rules.perform_action(request, source or EnteredDice([]))
        if expect is not None and (result.steps, result.effects) != (expect.steps, expect.effects):
            raise RulesError(Message("attack.changed_since_roll"))
        if result.delays and not self.state.started:
            raise RulesError(Message("turns.not_started_spend"))
        event = self._resolved(
            {
                "kind": "action",
                "id": who.id,
                "target": self.combatant(target).id if target else None,
                "action": action,
                "type": request.action_type,
                "weapon": weapon,
                "inputs": dict(request.inputs),
                **({"spent": spent} if spent is not None else {}),
                **({"readies": result.readies} if result.readies else {}),
            },
            result,
        )
        if result.delays:
            event["delays"] = True
            event = self._with_dues(event)
        # a non-attack action keeps a hidden actor hidden, unless it falls on someone else
        affected = {record["target"] for record in event["effects"]} - {who.id}
        self._append(self._with_reveal(event, who.id, bool(affected)))
        return result

    def _resolved(self, event: dict[str, Any], result: ActionResult) -> dict[str, Any]:
        """``event`` with what ``result`` says and what applying its effects changed."""
        records = [target_record(effect, self) for effect in result.effects]
        applied = application(self.state, records, lenient=True).record()
        return {
            **event,
            "summary": summary_record(result.summary, applied.get("unapplied", ())),
            "steps": [step_record(step) for step in result.steps],
            "rolls": [roll_record(roll) for roll in result.rolls],
            "effects": records,
            **applied,
            **self._decisions(records, applied),
        }

    def _decisions(
        self, records: Sequence[Mapping[str, Any]], applied: Mapping[str, Any]
    ) -> dict[str, Any]:
        """What the GM must decide once these effects applied (the rules' ``decisions``: a
        critical no table covers), as the event's ``decisions`` (none: nothing)."""
        effects = [as_effect(record) for record in (*records, *applied.get("follow_ups", ()))]
        found = self.turn_rules.decisions(effects)
        return {"decisions": [due.to_json() for due in found]} if found else {}

    # --- rolls due ------------------------------------------------------------------------

    @property
    def due(self) -> tuple[Due, ...]:
        """The rolls the last turn change asks for, not yet rolled (``state.due``)."""
        return self.state.due

    def roll_due(self, index: int, source: DiceSource) -> ActionResult:
        """Roll the ``index``-th roll due with ``source`` (gmkit's dice, or the table's typed
        ones: ``EnteredDice``); its effects apply in the same event."""
        due = self._due(index)
        who = self.combatant(due.bearer)
        result = self.turn_rules.roll_due(due, bearer(self.state, who), source)
        event = {"kind": "due_rolled", "index": index, "id": who.id, "rule": due.rule}
        self._append(self._resolved(event, result))
        return result

    def dismiss_due(self, index: int, reason: str = "") -> None:
        """Pass over the ``index``-th roll due (an optional one, or the GM's call)."""
        due = self._due(index)
        self._append(
            {
                "kind": "due_dismissed",
                "index": index,
                "id": due.bearer,
                "rule": due.rule,
                "reason": reason,
            }
        )

    def _due(self, index: int) -> Due:
        dues = self.state.due
        if not 0 <= index < len(dues):
            raise RulesError(Message("encounter.due_none", index=index))
        return dues[index]


__all__ = ["ActionCommands"]
