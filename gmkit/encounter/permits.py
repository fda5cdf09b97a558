"""The one rule for "may this combatant do this now, and if not, why": the encounter's commands
(``spend``, ``react``, ``attack``) and every panel ask it, and nothing else decides.

A :class:`Permit` answers for an action type of the game's budget (``half``, ``full``,
``shoot``...) or a reaction (``dodge``, ``parry``), from the game's pacing (``systems.turns``:
the turn and round pools, whose turn it is) and the combatant's state (surprised in the first
round, a delayed half action kept):

- Before the fight starts there is no budget: anything may be tried, nothing is spent.
- A type the game does not price is the GM's to count: allowed, nothing spent.
- Surprised in round 1: nothing at all (001, 002).
- Out of its turn (initiative games) only a free action, or the half action a delay kept; out
  of its side's turn (sides games) only a free action.
- Otherwise the pools left this turn (or, for a reaction, this round, under the conditions
  that change them: All Out Attack, Defensive Stance) must cover the cost.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from gmkit.encounter.state import Combatant, EncounterState
from gmkit.messages import Message
from gmkit.systems.turns import TurnStructure, action_type_name, pool_name, reaction_problems


@dataclass(frozen=True, slots=True)
class Permit:
    """May a combatant take an action of ``action_type`` (or a reaction) now?

    ``reasons`` say why not (empty: it may); ``pools`` is what taking it spends (empty when
    nothing is counted); ``delayed_action`` marks the half action a delay kept.
    """

    action_type: str
    reasons: tuple[Message, ...] = ()
    pools: Mapping[str, int] = field(default_factory=dict)
    delayed_action: bool = False
    reaction: bool = False

    @property
    def allowed(self) -> bool:
        return not self.reasons

    def __bool__(self) -> bool:
        return self.allowed

    @property
    def why(self) -> Message | None:
        """The reasons as one message (None when allowed)."""
        if not self.reasons:
            return None
        return Message("common.join", parts=self.reasons)

    @property
    def counted(self) -> bool:
        """Whether taking it spends something from the budget."""
        return bool(self.pools) or self.delayed_action


def _surprised(state: EncounterState, combatant: Combatant) -> list[Message]:
    if combatant.surprised and state.round == 1:
        return [Message("turns.permit.surprised", name=combatant.name)]
    return []


def may_act(
    state: EncounterState, combatant: Combatant, action_type: str, structure: TurnStructure
) -> Permit:
    """May ``combatant`` take an action of ``action_type`` now (see the module docstring)."""
    costs = structure.action_costs.get(action_type)
    if not state.started or costs is None:
        return Permit(action_type)
    reasons = _surprised(state, combatant)
    delayed = False
    if action_type != "free":
        if structure.kind == "initiative":
            current = state.current
            if current is None or current.id != combatant.id:
                if combatant.delayed:
                    delayed = True
                    if action_type != "half":
                        reasons.append(
                            Message(
                                "turns.permit.delayed_is_half",
                                name=combatant.name,
                                action_type=action_type_name(action_type),
                            )
                        )
                else:
                    whose = current.name if current is not None else None
                    reasons.append(
                        Message("turns.permit.not_their_turn", whose=whose, name=combatant.name)
                        if whose is not None
                        else Message("turns.permit.no_ones_turn", name=combatant.name)
                    )
        elif combatant.side != state.current_side:
            reasons.append(
                Message(
                    "turns.permit.not_their_side",
                    side=str(state.current_side),
                    own=combatant.side,
                )
            )
    if not delayed:
        for pool, cost in costs.items():
            left = structure.turn_pools[pool] - combatant.spent.get(pool, 0)
            if left < cost:
                reasons.append(
                    Message(
                        "turns.permit.pool_short",
                        name=combatant.name,
                        left=left,
                        pool=pool_name(pool),
                        action_type=action_type_name(action_type),
                        cost=cost,
                    )
                )
    pools = {} if delayed else dict(costs)
    return Permit(action_type, tuple(reasons), pools, delayed_action=delayed)


def may_take(
    state: EncounterState,
    combatant: Combatant,
    action_types: Iterable[str],
    structure: TurnStructure,
) -> Permit:
    """May ``combatant`` take an action that may be taken as any of ``action_types`` (an
    action "half/full" in the catalogs) now: the first type allowed, else the first type's
    refusal with every type's reasons."""
    answers = [may_act(state, combatant, kind, structure) for kind in action_types]
    if not answers:
        return Permit("")
    for answer in answers:
        if answer.allowed:
            return answer
    reasons = tuple(dict.fromkeys(reason for answer in answers for reason in answer.reasons))
    first = answers[0]
    return Permit(first.action_type, reasons, first.pools, first.delayed_action)


def may_react(
    state: EncounterState, combatant: Combatant, reaction: str, structure: TurnStructure
) -> Permit:
    """May ``combatant`` take ``reaction`` (dodge, parry) now, from this round's pools under
    its conditions (``systems.turns.reaction_problems``, the rule the resolvers count by)."""
    costs = structure.reaction_costs.get(reaction)
    if not state.started or costs is None:
        return Permit(reaction, reaction=True)
    reasons = _surprised(state, combatant)
    reasons += reaction_problems(
        state.game, combatant.name, combatant.conditions, combatant.reactions, reaction
    )
    return Permit(reaction, tuple(reasons), dict(costs), reaction=True)


__all__ = ["Permit", "may_act", "may_react", "may_take"]
