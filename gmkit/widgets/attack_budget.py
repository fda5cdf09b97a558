"""What the attack panel reads of the encounter's budget, and the dice it gives again.

- :func:`budget_problem` and :func:`reaction_problem`: why a combatant cannot take an action
  of a type, or a reaction, now; the encounter's own checks (``Encounter.spend``,
  ``Encounter.react``) read the same way, so the panel offers only what they accept.
- :class:`Replay`: a dice source giving the dice of a shown result again, in order, each as it
  was rolled (physical or digital), so applying a result never rolls anew.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from gmkit.dice import DieRoll
from gmkit.encounter.state import Combatant, EncounterState
from gmkit.errors import DiceValueError
from gmkit.systems.turns import TurnStructure, reaction_problems


class Replay:
    """The dice of a shown result, given again in order (the same values, physical or not)."""

    def __init__(self, rolls: Iterable[DieRoll]) -> None:
        self._rolls = deque(rolls)
        self.history: list[DieRoll] = []

    @property
    def left(self) -> int:
        return len(self._rolls)

    def roll_die(self, sides: int, purpose: str) -> DieRoll:
        if not self._rolls or self._rolls[0].sides != sides:
            raise DiceValueError(
                f"{purpose}: the encounter changed since the roll and these dice no longer fit; "
                "resolve again"
            )
        rolled = self._rolls.popleft()
        roll = DieRoll(sides, rolled.value, purpose, rolled.physical)
        self.history.append(roll)
        return roll


def budget_problem(
    state: EncounterState, combatant: Combatant, types: Sequence[str], structure: TurnStructure
) -> str:
    """Why ``combatant`` cannot take an action of any of ``types`` now ("" when it can).

    The encounter's budget as ``Encounter.spend`` checks it: before the fight starts there is
    none; a type the game does not price ("varies") is the GM's to count.
    """
    if not state.started:
        return ""
    problems: list[str] = []
    for action_type in types:
        costs = structure.action_costs.get(action_type)
        if costs is None:
            return ""
        found: list[str] = []
        if combatant.surprised and state.round == 1:
            found.append(f"{combatant.name} is surprised and loses the first round")
        delayed = False
        if action_type != "free":
            if structure.kind == "initiative":
                current = state.current
                if current is None or current.id != combatant.id:
                    if combatant.delayed and action_type == "half":
                        delayed = True
                    else:
                        whose = f"{current.name}'s" if current is not None else "no one's"
                        found.append(f"it is {whose} turn, not {combatant.name}'s")
            elif combatant.side != state.current_side:
                found.append(f"it is {state.current_side}'s turn, not {combatant.side}'s")
        if not delayed:
            for pool, cost in costs.items():
                left = structure.turn_pools[pool] - combatant.spent.get(pool, 0)
                if left < cost:
                    found.append(
                        f"{combatant.name} has {left} {pool} left this turn, "
                        f"the {action_type} action needs {cost}"
                    )
        if not found:
            return ""
        problems.extend(found)
    return "; ".join(dict.fromkeys(problems))


def reaction_problem(
    state: EncounterState, combatant: Combatant, reaction: str, structure: TurnStructure
) -> str:
    """Why ``combatant`` has no ``reaction`` left this round ("" when it has), as
    ``Encounter.react`` counts it."""
    if not state.started or reaction not in structure.reaction_costs:
        return ""
    if combatant.surprised and state.round == 1:
        return f"{combatant.name} is surprised and loses the first round"
    problems = reaction_problems(
        state.game, combatant.name, combatant.conditions, combatant.reactions, reaction
    )
    return problems[0] if problems else ""


__all__ = ["Replay", "budget_problem", "reaction_problem"]
