"""How a game's fight is paced: initiative or sides, phases, and the action budget.

Each game declares its :class:`TurnStructure` in its own package (``systems/_imperial/pacing.py``,
``systems/wfrp2/_pacing.py``, ``systems/necromunda/_pacing.py``, ``systems/wfb6/_pacing.py``; the
d100 games' shared parts in :mod:`gmkit.systems._percentile_turns`) and its registry entry holds
it (``Game.turns``). The encounter reads these values and holds no rule of its own:

- ``initiative`` games (the d100 family): each combatant rolls ``1d10 + initiative_base``
  once (001: no re-roll between rounds); turns follow the order; surprised combatants lose the
  first round (001, 002).
- ``sides`` games (Necromunda, WFB): the sides take turns; a turn runs the phases in order.
- The budget: ``turn_pools`` are spent by actions in a turn (a full action costs both halves:
  001 "1 full or 2 half actions and any free actions"), ``round_pools`` by reactions in a round
  (001/004: one reaction; 002: one parry and one dodge). The 40k Defensive Stance's extra
  reaction and All Out Attack's "no reactions" come as effects of those actions: the
  conditions they leave on the actor (each structure's ``reaction_conditions``);
  :func:`reactions_allowed` gives a combatant's round pools under its conditions and
  :func:`reaction_problems` why a reaction is over that budget: the one rule the encounter's
  ``react`` and the games' resolvers count reactions by.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from gmkit.messages import Message
from gmkit.plugins import entry
from gmkit.sheets.base import Sheet


@dataclass(frozen=True)
class ReactionCondition:
    """What a condition does to its bearer's reactions in a round."""

    extra: int | None  # reactions added to each round pool; None: no reaction at all
    why: str  # the id of the message a refusal words it with, after the bearer's name


@dataclass(frozen=True)
class TurnStructure:
    kind: Literal["initiative", "sides"]
    turn_pools: Mapping[str, int]
    action_costs: Mapping[str, Mapping[str, int]]  # action type -> pool -> cost
    round_pools: Mapping[str, int] = field(default_factory=dict)
    reaction_costs: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    phases: tuple[str, ...] = ()
    initiative_base: Callable[[Sheet], int] | None = None
    # conditions that change the round's reaction pools (All Out Attack: none)
    reaction_conditions: Mapping[str, ReactionCondition] = field(default_factory=dict)
    initiative_base_name: str = ""
    # conditions that take a combatant out of the fight: Next passes over their turns (the
    # encounter's setting ``skip_fallen``, on by default) and they may take no action. The
    # built-in games declare them with their conditions (``systems.conditions``: read here as
    # ``DeclaredFallen`` of their books); a game that declares no conditions may name them here
    fallen: Sequence[str] = ()
    # sides games: the action types each phase allows (free ones are allowed in any); a phase
    # not listed allows every type
    phase_actions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # sides games: phases in which both sides act (close combat), whoever's turn it is
    both_sides_phases: tuple[str, ...] = ()
    # action types whose rules the seeds do not give: refused (the GM may override) with the
    # message of this id, which says what to do instead
    not_covered: Mapping[str, str] = field(default_factory=dict)


def turn_structure(game: str) -> TurnStructure:
    """The pacing of ``game``'s fight (its registry entry's, found by id: :mod:`gmkit.plugins`)."""
    return entry(game).turns


def describe(structure: TurnStructure) -> dict[str, Any]:
    return {
        "kind": structure.kind,
        "turn": dict(structure.turn_pools),
        "round": dict(structure.round_pools),
        "phases": list(structure.phases),
    }


ACTION_TYPES: tuple[str, ...] = ("full", "half", "free", "extended", "move", "run", "charge")
ACTION_TYPES += ("shoot", "fight", "march", "cast")
POOLS = ("actions", "move", "shoot", "fight", "reaction", "parry", "dodge")


def action_type_name(action_type: str) -> Message:
    """An action type's name ("half": half, media) for the texts that price an action."""
    if action_type in ACTION_TYPES:
        return Message(f"turns.action_type.{action_type}")
    return Message.verbatim(action_type)


def pool_name(pool: str) -> Message:
    """A budget pool's name ("actions": actions, acciones)."""
    return Message(f"turns.pool.{pool}") if pool in POOLS else Message.verbatim(pool)


def reactions_allowed(game: str, conditions: Iterable[str] = ()) -> dict[str, int]:
    """Each round pool of ``game`` (``turn_structure(game).round_pools``) as a combatant bearing
    ``conditions`` (names, a combatant's ``conditions`` mapping too) has it this round: an All
    Out Attack empties them all, a 40k Defensive Stance adds one to each."""
    structure = turn_structure(game)
    pools, rules = structure.round_pools, structure.reaction_conditions
    held = [rules[name] for name in dict.fromkeys(conditions) if name in rules]
    if any(rule.extra is None for rule in held):
        return {pool: 0 for pool in pools}
    extra = sum(rule.extra or 0 for rule in held)
    return {pool: count + extra for pool, count in pools.items()}


def reaction_problems(
    game: str,
    name: str,
    conditions: Iterable[str],
    spent: Mapping[str, int],
    reaction: str,
) -> list[Message]:
    """Why ``name``, bearing ``conditions`` and having ``spent`` these round pools, may not take
    ``reaction`` (dodge, parry) now; [] when it may. KeyError for a reaction the game lacks."""
    structure = turn_structure(game)
    costs, rules = structure.reaction_costs[reaction], structure.reaction_conditions
    held = list(dict.fromkeys(conditions))
    barring = [c for c in held if c in rules and rules[c].extra is None]
    if barring:
        why = Message(rules[barring[0]].why, name=name)
        return [Message("turns.no_reaction_until_turn", why=why, reaction=pool_name(reaction))]
    allowed = reactions_allowed(game, held)
    return [
        Message("turns.no_pool_left", name=name, pool=pool_name(pool))
        for pool, cost in costs.items()
        if spent.get(pool, 0) + cost > allowed.get(pool, 0)
    ]


__all__ = [
    "ACTION_TYPES",
    "POOLS",
    "ReactionCondition",
    "TurnStructure",
    "action_type_name",
    "describe",
    "pool_name",
    "reaction_problems",
    "reactions_allowed",
    "turn_structure",
]
