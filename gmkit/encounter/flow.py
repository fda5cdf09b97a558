"""Commands of the turn: initiative, start, next/previous, the action budget, delay and ready,
declared triggers, conditions. The pacing itself is the game's (``systems.turns``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gmkit.dice import DiceSource
from gmkit.encounter.core import EncounterCore, roll_record
from gmkit.encounter.state import Tick
from gmkit.errors import RulesError
from gmkit.systems.percentile import Initiative, initiative_order, roll_test
from gmkit.systems.turns import turn_structure


class TurnCommands(EncounterCore):
    def roll_initiative(
        self, source: DiceSource, *, ids: Iterable[str] | None = None, by_group: bool = False
    ) -> dict[str, int]:
        """Roll 1d10 + the game's base for each combatant (or ``ids``).

        ``by_group`` (Dark Heresy 001's option): one d10 per group, each member adding its own
        base. Physical dice: pass an ``EnteredDice`` with the values in the order rolled.
        """
        structure = turn_structure(self.game)
        if structure.kind != "initiative":
            raise RulesError(f"initiative: {self.game} plays by sides, not initiative")
        chosen = [self.combatant(i) for i in ids] if ids else self.state.present
        entries, group_rolls = [], {}
        for combatant in chosen:
            key = combatant.group if by_group and combatant.group else f"#{combatant.id}"
            if key not in group_rolls:
                label = combatant.group if key == combatant.group else combatant.name
                group_rolls[key] = source.roll_die(10, f"initiative: {label}")
            roll = group_rolls[key]
            entries.append(
                {
                    "id": combatant.id,
                    "base": combatant.initiative_base,
                    "roll": roll_record(roll),
                    "score": roll.value + combatant.initiative_base,
                }
            )
        self._append({"kind": "initiative", "entries": entries})
        return {entry["id"]: entry["score"] for entry in entries}

    def set_initiative(self, ident: str, score: int) -> None:
        """The GM types a combatant's initiative score."""
        combatant = self.combatant(ident)
        self._append(
            {
                "kind": "initiative",
                "entries": [
                    {
                        "id": combatant.id,
                        "base": combatant.initiative_base,
                        "roll": None,
                        "score": score,
                    }
                ],
            }
        )

    def start(self, source: DiceSource | None = None, *, surprised: Iterable[str] = ()) -> None:
        """Begin round 1. Surprised combatants (ids or names) lose the first round."""
        state = self.state
        surprised_ids = [self.combatant(s).id for s in surprised]
        event: dict[str, Any] = {"kind": "started", "surprised": surprised_ids}
        if turn_structure(self.game).kind == "initiative":
            missing = [c.name for c in state.present if c.initiative is None]
            if missing:
                raise RulesError(f"initiative: not yet rolled for {', '.join(missing)}")
            entries = [
                Initiative(c.id, c.initiative_base, None, c.initiative or 0) for c in state.present
            ]
            ties = len({(e.score, e.base) for e in entries}) < len(entries)
            if ties and source is None:
                raise RulesError("initiative: tied scores need dice for the roll-off")
            order, roll_offs = initiative_order(entries, source) if source else (entries, [])
            if not source:
                order = sorted(entries, key=lambda e: (e.score, e.base), reverse=True)
            event["order"] = [entry.name for entry in order]
            event["rolls"] = [roll_record(roll) for roll in roll_offs]
        self._append(event)

    def next_turn(self) -> None:
        """End the current turn (or phase) and begin the next, ticking conditions."""
        self._append({"kind": "turn", "direction": 1})

    def previous_turn(self) -> None:
        """Step back to the previous actor (or phase); conditions do not tick back: use undo
        to take back a turn change exactly."""
        self._append({"kind": "turn", "direction": -1})

    # --- the action budget -------------------------------------------------------------

    def spend(
        self, ident: str, action_type: str, *, action: str = "", override: str | None = None
    ) -> None:
        """Spend an action of ``action_type`` (full, half, free... or move, shoot for the D6
        games). Over budget or out of turn is refused, unless the GM gives an ``override``
        reason, which the log records."""
        structure = turn_structure(self.game)
        if action_type not in structure.action_costs:
            known = ", ".join(structure.action_costs)
            raise RulesError(f"action type: {action_type!r} is not one of {known}")
        combatant = self.combatant(ident)
        costs = structure.action_costs[action_type]
        problems = [
            f"{combatant.name} has {structure.turn_pools[pool] - combatant.spent.get(pool, 0)} "
            f"{pool} left this turn, the {action_type} action needs {cost}"
            for pool, cost in costs.items()
            if combatant.spent.get(pool, 0) + cost > structure.turn_pools[pool]
        ]
        state = self.state
        if structure.kind == "initiative" and state.started and action_type != "free":
            current = state.current
            if current is not None and current.id != combatant.id and not combatant.delayed:
                problems.append(f"it is {current.name}'s turn, not {combatant.name}'s")
        if problems and override is None:
            raise RulesError("over budget: " + "; ".join(problems))
        event: dict[str, Any] = {
            "kind": "spent",
            "id": combatant.id,
            "type": action_type,
            "action": action,
            "pools": dict(costs),
        }
        if override is not None:
            event["override"] = override or "GM's call"
        self._append(event)
        if (
            combatant.delayed
            and action_type == "half"
            and state.current is not None
            and (state.current.id != combatant.id)
        ):
            self._append({"kind": "delayed", "id": combatant.id, "waiting": False})

    def react(self, ident: str, reaction: str, *, override: str | None = None) -> None:
        """Spend a reaction (dodge, parry) from this round's allowance."""
        structure = turn_structure(self.game)
        if reaction not in structure.reaction_costs:
            known = ", ".join(structure.reaction_costs) or "none"
            raise RulesError(f"reaction: {reaction!r} is not one of {known}")
        combatant = self.combatant(ident)
        extra = self._extra_reactions(combatant.conditions)
        problems = []
        for pool, cost in structure.reaction_costs[reaction].items():
            allowed = structure.round_pools[pool] + extra
            if combatant.reactions.get(pool, 0) + cost > allowed:
                problems.append(f"{combatant.name} has no {pool} left this round")
        if problems and override is None:
            raise RulesError("over budget: " + "; ".join(problems))
        event = {
            "kind": "spent",
            "id": combatant.id,
            "reaction": reaction,
            "pools": dict(structure.reaction_costs[reaction]),
        }
        if override is not None:
            event["override"] = override or "GM's call"
        self._append(event)

    @staticmethod
    def _extra_reactions(conditions: Mapping[str, Any]) -> int:
        if "all_out_attack" in conditions:
            return -99  # 004: no dodge or parry until the start of the next turn
        return 1 if "defensive_stance" in conditions else 0

    # --- delay, ready, triggers -------------------------------------------------------

    def delay(self, ident: str) -> None:
        """End the turn keeping a half action to use before the actor's next turn."""
        combatant = self.combatant(ident)
        current = self.state.current
        if current is None or current.id != combatant.id:
            raise RulesError(f"delay: it is not {combatant.name}'s turn")
        self._append({"kind": "delayed", "id": combatant.id, "waiting": True})

    def delayed_first(self, first: str, second: str, source: DiceSource) -> str:
        """Two delayed actions at once: an opposed Agility test says who acts first."""
        a, b = self.combatant(first), self.combatant(second)
        tests = [
            roll_test(
                "Ag",
                c.sheet.characteristics.Ag,
                [],
                source,  # type: ignore[attr-defined]
                f"delayed action: {c.name}",
                cap=None,
            )
            for c in (a, b)
        ]
        from gmkit.systems.percentile import opposed_winner

        winner = opposed_winner(tests[0], tests[1])
        if winner is None:
            winner = 0 if tests[0].target >= tests[1].target else 1
        chosen = (a, b)[winner]
        self._append(
            {
                "kind": "note",
                "text": f"{chosen.name} acts first (opposed Agility)",
                "rolls": [roll_record(t.roll) for t in tests],
            }
        )
        return chosen.id

    def ready(self, ident: str, action: str) -> None:
        self._append({"kind": "readied", "id": self.combatant(ident).id, "action": action})

    def declare_trigger(
        self, ident: str, trigger: str, detail: str = "", *, rounds: int | None = 1
    ) -> None:
        """Queue a declared trigger (overwatch...) until it fires or ``rounds`` pass."""
        expires = None if rounds is None else self.state.round + rounds
        self._append(
            {
                "kind": "trigger",
                "id": self.combatant(ident).id,
                "trigger": trigger,
                "detail": detail,
                "expires_round": expires,
            }
        )

    def fire_trigger(self, index: int) -> None:
        self._append({"kind": "trigger_done", "index": index, "outcome": "fired"})

    def cancel_trigger(self, index: int) -> None:
        self._append({"kind": "trigger_done", "index": index, "outcome": "cancelled"})

    # --- conditions ---------------------------------------------------------------------

    def add_condition(
        self,
        ident: str,
        name: str,
        *,
        rounds: int | None = None,
        ticks: Tick = "end_of_turn",
        reminder: str = "",
    ) -> None:
        """Put ``name`` on a combatant for ``rounds`` (None: until removed), counting down
        when ``ticks`` says (start or end of the bearer's turn, or end of round)."""
        if rounds is not None and rounds < 1:
            raise RulesError(f"rounds: must be 1 or more (got {rounds})")
        self._append(
            {
                "kind": "condition",
                "id": self.combatant(ident).id,
                "name": name,
                "rounds": rounds,
                "ticks": ticks,
                "reminder": reminder,
            }
        )

    def remove_condition(self, ident: str, name: str) -> None:
        self._append({"kind": "condition_removed", "id": self.combatant(ident).id, "name": name})
