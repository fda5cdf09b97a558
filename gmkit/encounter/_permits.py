"""The one rule for "may this combatant do this now, and if not, why": the encounter's commands
(``spend``, ``react``, ``attack``) and every panel ask it, and nothing else decides.

A :class:`Permit` answers for an action type of the game's budget (``half``, ``full``,
``shoot``...) or a reaction (``dodge``, ``parry``), from the game's pacing (``systems.turns``:
the turn and round pools, whose turn it is) and the combatant's state (surprised in the first
round, a delayed half action kept):

- Before the fight starts there is no budget: anything may be tried, nothing is spent.
- A type the game does not price is the GM's to count: allowed, nothing spent.
- Surprised in round 1: nothing at all (001, 002). Fallen (the game's ``fallen`` conditions:
  dead, out of action): nothing either.
- What the combatant's conditions forbid it, as the game's rules say
  (:class:`~gmkit.systems.acting.Restriction`: stunned, pinned, down...).
- Sides games: an action of another phase's types is refused (move in the movement phase,
  shoot in the shooting phase), and one the seeds give no rules for says what to do instead.
- Out of its turn (initiative games) only a free action, or the half action a delay kept; out
  of its side's turn (sides games) only a free action.
- Otherwise the pools left this turn (or, for a reaction, this round, under the conditions
  that change them: All Out Attack, Defensive Stance) must cover the cost.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from gmkit.encounter._dues import phase_of
from gmkit.encounter._state import Combatant, EncounterState
from gmkit.encounter._terms import condition_name, phase_name
from gmkit.games import game as find_game
from gmkit.messages import Message
from gmkit.systems.acting import Restriction, restriction_problems
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


def fallen(combatant: Combatant, structure: TurnStructure) -> str | None:
    """The first of the game's ``fallen`` conditions ``combatant`` bears (dead...), or None."""
    return next((name for name in structure.fallen if name in combatant.conditions), None)


def _fallen(state: EncounterState, combatant: Combatant, structure: TurnStructure) -> list[Message]:
    found = fallen(combatant, structure)
    if found is None:
        return []
    named = condition_name(state.game, found)
    return [Message("turns.permit.fallen", name=combatant.name, condition=named)]


def restrictions(state: EncounterState, combatant: Combatant) -> tuple[Restriction, ...]:
    """What ``combatant``'s conditions forbid it, as its game's rules say."""
    if not combatant.conditions:
        return ()
    return find_game(state.game).acting.restrictions(tuple(combatant.conditions))


def _phase(state: EncounterState, structure: TurnStructure) -> str | None:
    """The sides games' current phase (None before the start, or in a game without phases)."""
    if structure.kind != "sides":
        return None
    return phase_of(state) or None


def _phase_problems(
    state: EncounterState, action_type: str, structure: TurnStructure
) -> list[Message]:
    phase = _phase(state, structure)
    if phase is None or action_type == "free" or phase not in structure.phase_actions:
        return []
    if action_type in structure.phase_actions[phase]:
        return []
    proper = tuple(
        phase_name(other)
        for other, kinds in structure.phase_actions.items()
        if action_type in kinds
    )
    if not proper:
        return [
            Message(
                "turns.permit.no_phase",
                action_type=action_type_name(action_type),
                phase=phase_name(phase),
            )
        ]
    return [
        Message(
            "turns.permit.wrong_phase",
            action_type=action_type_name(action_type),
            phase=phase_name(phase),
            proper=proper,
        )
    ]


def may_act(
    state: EncounterState,
    combatant: Combatant,
    action_type: str,
    structure: TurnStructure,
    *,
    action: str = "",
    limits: tuple[Restriction, ...] | None = None,
) -> Permit:
    """May ``combatant`` take an action of ``action_type`` now (see the module docstring);
    ``action``: the catalog's id of the action, for the restrictions naming actions;
    ``limits``: the combatant's :func:`restrictions` when the caller has them already."""
    costs = structure.action_costs.get(action_type)
    if not state.started or costs is None:
        return Permit(action_type)
    reasons = _surprised(state, combatant) + _fallen(state, combatant, structure)
    reasons += restriction_problems(
        restrictions(state, combatant) if limits is None else limits,
        combatant.name,
        action_type,
        action,
        combatant.spent,
        costs,
    )
    reasons += _phase_problems(state, action_type, structure)
    if action_type in structure.not_covered:
        reasons.append(Message(structure.not_covered[action_type]))
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
        elif combatant.side != state.current_side and _phase(state, structure) not in set(
            structure.both_sides_phases
        ):
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
    *,
    action: str = "",
) -> Permit:
    """May ``combatant`` take an action that may be taken as any of ``action_types`` (an
    action "half/full" in the catalogs) now: the first type allowed, else the first type's
    refusal with every type's reasons."""
    answers = [may_act(state, combatant, kind, structure, action=action) for kind in action_types]
    return _first_allowed(answers)


def _first_allowed(answers: list[Permit]) -> Permit:
    if not answers:
        return Permit("")
    every: list[Message] = []
    for answer in answers:
        if not answer.reasons:
            return answer
        every.extend(answer.reasons)
    first = answers[0]
    if len(answers) == 1 and len(every) == 1:
        return first  # one type refused for one reason: that answer as it is
    reasons = tuple(dict.fromkeys(every))
    return Permit(first.action_type, reasons, first.pools, first.delayed_action)


def may_react(
    state: EncounterState, combatant: Combatant, reaction: str, structure: TurnStructure
) -> Permit:
    """May ``combatant`` take ``reaction`` (dodge, parry) now, from this round's pools under
    its conditions (``systems.turns.reaction_problems``, the rule the resolvers count by)."""
    costs = structure.reaction_costs.get(reaction)
    if not state.started or costs is None:
        return Permit(reaction, reaction=True)
    reasons = _surprised(state, combatant) + _fallen(state, combatant, structure)
    reasons += [
        Message("turns.permit.restricted", name=combatant.name, why=rule.why)
        for rule in restrictions(state, combatant)
        if rule.no_reactions
    ]
    reasons += reaction_problems(
        state.game, combatant.name, combatant.conditions, combatant.reactions, reaction
    )
    return Permit(reaction, tuple(reasons), dict(costs), reaction=True)


class PermitsOf:
    """Every permit of one combatant at one state, worked out sharing what they have in common
    (its restrictions read once; an action type's answer once, unless a restriction names
    actions): what :func:`may_take` answers, for many actions at a time (the situation's)."""

    def __init__(
        self, state: EncounterState, combatant: Combatant, structure: TurnStructure
    ) -> None:
        self.state, self.combatant, self.structure = state, combatant, structure
        self.limits = restrictions(state, combatant)
        self._by_action = any(rule.actions is not None for rule in self.limits)
        self._types: dict[str, Permit] = {}

    def take(self, action_types: Iterable[str], action: str = "") -> Permit:
        """:func:`may_take` ``(state, combatant, action_types, structure, action=action)``."""
        answers = []
        for kind in action_types:
            answer = self._one(kind, action)
            if not answer.reasons:
                return answer
            answers.append(answer)
        return _first_allowed(answers)

    def _one(self, kind: str, action: str) -> Permit:
        if self._by_action and action:
            return may_act(
                self.state, self.combatant, kind, self.structure, action=action, limits=self.limits
            )
        found = self._types.get(kind)
        if found is None:
            found = may_act(self.state, self.combatant, kind, self.structure, limits=self.limits)
            self._types[kind] = found
        return found


__all__ = ["Permit", "PermitsOf", "fallen", "may_act", "may_react", "may_take", "restrictions"]
