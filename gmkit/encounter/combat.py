"""Attacks through the encounter: the request built from the current state, the game's rules
resolve it, and one event records the result (and, by default, applies its effects)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from gmkit.dice import DiceSource
from gmkit.encounter.core import EncounterCore, roll_record
from gmkit.errors import RulesError
from gmkit.systems import system
from gmkit.systems.base import AttackRequest, AttackResult, Effect


class CombatCommands(EncounterCore):
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
        """The request for the rules, with what the encounter knows of both combatants
        (their conditions, and their counters such as wounds lost or ammunition spent)."""
        a, t = self.combatant(attacker), self.combatant(target)
        for who in (a, t):
            if who.removed:
                raise RulesError(f"combatant: {who.name} has been removed from the fight")
        merged = {
            "attacker_conditions": sorted(a.conditions),
            "target_conditions": sorted(t.conditions),
            "attacker_counters": dict(a.counters),
            "target_counters": dict(t.counters),
            "round": self.state.round,
            **(options or {}),
        }
        return AttackRequest(
            attacker=a.sheet,
            weapon=weapon,
            target=t.sheet,
            action=action,
            mode=mode,
            distance=distance,
            called_location=called_location,
            circumstances=dict(circumstances or {}),
            options=merged,
        )

    def attack(
        self,
        attacker: str,
        weapon: str,
        target: str,
        source: DiceSource,
        *,
        apply: bool = True,
        secret: bool = False,
        **request: Any,
    ) -> AttackResult:
        """Resolve an attack with the game's rules and record it; ``apply`` its effects now
        (one command, one undo), or later with :meth:`apply_effects`. ``secret`` keeps the
        rolls and result from the players."""
        built = self.attack_request(attacker, weapon, target, **request)
        result = system(self.game).resolve_attack(built, source)
        self._append(
            {
                "kind": "attack",
                "attacker": self.combatant(attacker).id,
                "target": self.combatant(target).id,
                "weapon": weapon,
                "action": built.action,
                "mode": built.mode,
                "hits": result.hits,
                "summary": result.summary,
                "steps": [str(step) for step in result.steps],
                "rolls": [roll_record(roll) for roll in result.rolls],
                "effects": [_effect_record(effect, self) for effect in result.effects],
                "applied": apply,
                **({"visibility": "gm"} if secret else {}),  # else: the GM's if a side is hidden
            }
        )
        return result

    def apply_effects(self, effects: list[Effect], *, note: str = "") -> None:
        """Apply effects the GM confirms (an attack's, or ones typed by hand)."""
        self._append(
            {"kind": "effects", "effects": [_effect_record(e, self) for e in effects], "note": note}
        )


def _effect_record(effect: Effect, encounter: EncounterCore) -> dict[str, Any]:
    record = asdict(effect)
    record["target"] = encounter.combatant(effect.target).id
    return record
