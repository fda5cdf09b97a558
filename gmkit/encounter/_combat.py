"""Attacks through the encounter: the request built from the current state, the game's rules
resolve it, and one event records the result (and, by default, applies its effects: what they
changed is worked out now and recorded, see :mod:`gmkit.encounter._effects`).

In a fight that holds units (WFB 6e: :mod:`gmkit.encounter._units`), the request carries the
table around the shot (the units, their models left and the distances measured) and the
sheets as members of their units; an effect on a unit's rank and file applies to its trooper."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Sequence
from typing import Any

from gmkit.dice import DiceSource, EnteredDice
from gmkit.encounter._acting import ActionCommands
from gmkit.encounter._core import roll_record
from gmkit.encounter._effects import (
    application,
    as_effect,
    no_combatant,
    unapplied_records,
)
from gmkit.encounter._flow import spent_event
from gmkit.encounter._records import step_record, summary_record, target_record
from gmkit.encounter._requests import attack_request as build_request
from gmkit.encounter._units import UnitCommands
from gmkit.errors import LeftoverDice, NeedDice, NeedDie, RulesError
from gmkit.messages import Message
from gmkit.systems import system
from gmkit.systems._dice_plan import DicePlan
from gmkit.systems._dice_probe import plan_dice
from gmkit.systems.base import AttackRequest, AttackResult, Effect


class CombatCommands(UnitCommands, ActionCommands):
    def attack_request(
        self,
        attacker: str,
        weapon: str,
        target: str,
        *,
        action: str = "standard_attack",
        mode: str = "single",
        distance: float | None = None,
        called_location: str | None = None,
        circumstances: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None,
    ) -> AttackRequest:
        """The request for the rules of ``attacker``'s attack on ``target`` (ids or names),
        with what the encounter knows of both (:func:`gmkit.encounter._requests.attack_request`:
        conditions, counters, reaction pools, the table around the shot, rounds left)."""
        return build_request(
            self.state,
            self.combatant(attacker),
            weapon,
            self.combatant(target),
            action=action,
            mode=mode,
            distance=distance,
            called_location=called_location,
            circumstances=circumstances,
            options=options,
        )

    def try_attack(
        self, attacker: str, weapon: str, target: str, source: DiceSource, **request: Any
    ) -> AttackResult:
        """Resolve an attack as :meth:`attack` would, with the same request, and record
        nothing: a trial in prep (``EnteredDice([15, 7])`` for the table's dice, or
        ``SeededDice(7)``); ``result.explain()`` gives its steps. Typed dice as :meth:`attack`
        takes them: too few, :class:`~gmkit.errors.NeedDice` says all it needs now; too
        many, :class:`~gmkit.errors.LeftoverDice` names those left over."""
        built = self.attack_request(attacker, weapon, target, **request)
        return self._resolve(built, source)

    def dice_needed(
        self,
        attacker: str,
        weapon: str,
        target: str,
        typed: Sequence[int | str] = (),
        **request: Any,
    ) -> DicePlan:
        """The dice an attack needs, before they are rolled: the table's dice plan
        (:class:`~gmkit.systems._dice_plan.DicePlan`) for the request :meth:`attack` would
        build (the same keywords). ``typed``: the values rolled so far, in order (the plan
        then starts after them). ``plan.needed`` lists the dice certain to be needed now,
        ``plan.follow`` what may follow and why, ``print(plan)`` (``plan.explain("es")``)
        says it in words: "now: d100 to hit; if the d100 to hit shows 1–42: d10 damage (hit
        1); if the d10 damage (hit 1) shows 10: ..."."""
        built = self.attack_request(attacker, weapon, target, **request)
        return plan_dice(self.game, built, self._read(built, typed))

    def _read(self, request: AttackRequest, typed: Sequence[int | str]) -> list[int]:
        """The values of ``typed`` as the attack's dice read them ("00" on a d100 is 100); a
        value its die cannot show is refused, naming it."""
        source = EnteredDice(typed)
        with contextlib.suppress(NeedDie):
            system(self.game).resolve_attack(request, source)
        return [roll.value for roll in source.history]

    def _resolve(self, request: AttackRequest, source: DiceSource) -> AttackResult:
        """The rules' result; with typed dice (``EnteredDice``), too few raise
        :class:`NeedDice` (what is needed now and what may follow), too many
        :class:`LeftoverDice`."""
        try:
            result = system(self.game).resolve_attack(request, source)
        except NeedDie as need:
            if not isinstance(source, EnteredDice) or isinstance(need, NeedDice):
                raise
            known = [roll.value for roll in source.history]
            plan = plan_dice(self.game, request, known)
            raise NeedDice(need.sides, need.purpose, need.index, plan) from None
        if isinstance(source, EnteredDice) and source.pending:
            raise LeftoverDice(source.pending, len(source.history))
        return result

    def attack(
        self,
        attacker: str,
        weapon: str,
        target: str,
        source: DiceSource,
        *,
        apply: bool = True,
        secret: bool = False,
        spend: bool = False,
        override: str | None = None,
        expect: AttackResult | None = None,
        **request: Any,
    ) -> AttackResult:
        """Resolve an attack with the game's rules and record it; ``apply`` its effects now
        (one command, one undo), or later with :meth:`apply_effects`. ``secret`` keeps the
        rolls and result from the players.

        ``spend``: once the fight has started, the attack also spends its action from the
        attacker's budget, in the same event (one command: one undo, one redo), as
        :meth:`may_take` allows it (refused otherwise, unless the GM gives an ``override``
        reason). ``expect``: the result the GM was shown (resolved earlier with the same dice):
        if the encounter changed since so that the rules now give another result, the attack
        is refused and nothing recorded.

        An effect naming no combatant of the encounter (a WFB unit held under another name)
        does not refuse the attack: the rest is applied, and the event keeps it in
        ``unapplied`` with the reason, its summary ending "not applied: no combatant '...'"
        (:mod:`gmkit.encounter._effects`)."""
        built = self.attack_request(attacker, weapon, target, **request)
        spent: dict[str, Any] | None = None
        if spend and self.state.started:
            permit = self.may_take(attacker, built.action)
            if permit.counted or not permit.allowed:
                spent = spent_event(self.combatant(attacker).id, permit, built.action, override)
        if expect is not None and _same_request(expect.request, built):
            result = expect  # the rules are pure: the same request and dice, the same result
        else:
            result = self._resolve(built, source)
            if expect is not None and (result.steps, result.effects) != (
                expect.steps,
                expect.effects,
            ):
                raise RulesError(Message("attack.changed_since_roll"))
        records = [target_record(self._on_trooper(effect), self) for effect in result.effects]
        effects = [record for record in records if record["target"] in self.state.combatants]
        strays = [record for record in records if record["target"] not in self.state.combatants]
        applied: dict[str, Any] = {}
        if apply:
            applied = application(self.state, records, lenient=True).record()
        elif strays:  # never to be applied: said now
            kept = ((as_effect(record), no_combatant(record["target"])) for record in strays)
            applied = {"unapplied": unapplied_records(kept)}
        event: dict[str, Any] = {
            "kind": "attack",
            "attacker": self.combatant(attacker).id,
            "target": self.combatant(target).id,
            "weapon": weapon,
            "action": built.action,
            "mode": built.mode,
            "hits": result.hits,
            "summary": summary_record(result.summary, applied.get("unapplied", ())),
            "steps": [step_record(step) for step in result.steps],
            "rolls": [roll_record(roll) for roll in result.rolls],
            "effects": effects,
            "applied": apply,
            **({"spent": spent} if spent is not None else {}),
            **applied,
            **(self._decisions(effects, applied) if apply else {}),
            **({"visibility": "gm"} if secret else {}),  # else: the GM's if a side is hidden
        }
        # an attack made (its dice rolled: not an overwatch only set) gives a hidden attacker
        # away, unless the GM keeps it secret
        self._append(self._with_reveal(event, event["attacker"], bool(result.rolls)))
        return result

    def _on_trooper(self, effect: Effect) -> Effect:
        """An effect naming a unit (its rank and file) falls on the unit's trooper."""
        unit = self.state.units.get(effect.target)
        if unit is None or not unit.trooper or unit.trooper not in self.state.combatants:
            return effect
        return dataclasses.replace(effect, target=unit.trooper)

    def apply_effects(self, effects: list[Effect], *, note: str = "") -> None:
        """Apply effects the GM confirms (an attack's, or ones typed by hand), through the
        game's rules; the event records what they changed. It is the GM's alone when it
        touches a hidden combatant: an effect's target, or its name in ``note`` or in an
        effect's note (:func:`~gmkit.encounter._secrecy.touched`)."""
        records = [target_record(effect, self, strict=True) for effect in effects]
        applied = application(self.state, records).record()
        self._append(
            {
                "kind": "effects",
                "effects": records,
                "note": note,
                **applied,
                **self._decisions(records, applied),
            }
        )


def _same_request(shown: AttackRequest, built: AttackRequest) -> bool:
    """Whether the attack the GM was shown is the one the encounter builds now (nothing
    changed since: the same sheets, standings, round, choices)."""
    try:
        return bool(shown == built)
    except Exception:  # options that do not compare (an array...): resolved again
        return False
