"""The situation of the encounter: who acts now and what each combatant may do, worked out once
per event and read by every panel (the tracker, the turn pane, the attack panel, the players'
page), so none of them answers "who acts, what may they do" for itself.

A :class:`Situation` is derived from one state (and is kept by the encounter until the next
event: :attr:`Encounter.situation <gmkit.encounter._flow.FlowCommands.situation>`); it never
changes. What it says of one combatant (:class:`Footing`: may it act, and if not the one
reason; its budget left under its conditions; its reactions left; each attack action of the
game allowed or refused with one reason) is worked out the first time a panel asks for it, so
a fight of a thousand asks only for those shown.

Who acts now (:attr:`Situation.actor`): in a game played by initiative the current combatant
(nobody while it is removed, until the turn passes);
in a game where a whole side acts (Necromunda, WFB) the first fighter of that side still in
the fight who has not had its go this phase, whom no condition holds back and who has a weapon
the rules use; else the first such one unarmed; else the side's first.

The default attack (:attr:`Situation.default_attack`): of whoever acts, a legal weapon, mode,
action and target with the request and the preview before the dice
(:mod:`gmkit.encounter._default_attack`): never a target the rules refuse; the attack panel
takes its defaults and its preview from it, and the players' seats will.

The one reason: the permit's reasons come in the order the rules weigh them (surprised,
fallen, what a condition forbids, the phase, whose turn, the pools), so the first is the one a
GM says ("pinned: one half action a turn", not "0 left this turn").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from gmkit.encounter._acted import acted as acted_in
from gmkit.encounter._default_attack import DefaultAttack, OfferCache, default_attack
from gmkit.encounter._dues import phase_of
from gmkit.encounter._permits import Permit, PermitsOf, fallen, restrictions
from gmkit.encounter._state import Combatant, EncounterState
from gmkit.games import game as find_game
from gmkit.messages import Message
from gmkit.systems import _choices as choices
from gmkit.systems.turns import TurnStructure, turn_structure

if TYPE_CHECKING:
    from gmkit.systems.acting import Due

__all__ = ["Footing", "Situation", "budget_left", "situation_of"]


def budget_left(
    structure: TurnStructure, state: EncounterState, combatant: Combatant
) -> dict[str, int]:
    """What ``combatant`` has left of each turn pool under its conditions: the pool less what
    it spent, at most what a restriction caps it at (pinned: one half action a turn), none
    where a condition forbids every action (stunned)."""
    rules = restrictions(state, combatant)
    left = {}
    for pool, total in structure.turn_pools.items():
        spent = combatant.spent.get(pool, 0)
        most = total
        for rule in rules:
            if rule.no_actions:
                most = 0
            elif pool in rule.caps:
                most = min(most, rule.caps[pool])
        left[pool] = max(0, most - spent)
    return left


def reactions_left(structure: TurnStructure, combatant: Combatant) -> dict[str, int]:
    """What ``combatant`` has left of each round pool (reactions) this round."""
    return {
        pool: max(0, total - combatant.reactions.get(pool, 0))
        for pool, total in structure.round_pools.items()
    }


@dataclass(frozen=True, slots=True)
class Footing:
    """What one combatant may do now.

    ``why_not``: the one reason it may do nothing (None when it may act); ``budget`` its turn
    pools left under its conditions; ``reactions`` its round pools left; ``attacks`` each
    attack action of the game's catalog -> None when the budget and its conditions allow it,
    else the one reason they refuse it (the weapon's own limits are the rules' offers, asked
    by the attack form for the weapon chosen); ``actions`` each non-attack action of the game
    (Aim, Reload, Delay...) -> its permit now (what the turn pane offers)."""

    id: str
    name: str
    why_not: Message | None
    budget: Mapping[str, int]
    reactions: Mapping[str, int]
    attacks: Mapping[str, Message | None]
    actions: Mapping[str, Permit]  # each non-attack action of the game: its permit now

    @property
    def may_act(self) -> bool:
        return self.why_not is None

    def allows(self, action: str) -> bool:
        """Whether the attack action ``action`` is allowed now (no reason against it)."""
        return self.attacks.get(action) is None

    @property
    def attacks_allowed(self) -> tuple[str, ...]:
        return tuple(action for action, why in self.attacks.items() if why is None)


@dataclass(frozen=True)
class Situation:
    """The encounter at one state: round, phase, side, who acts now, the rolls due; each
    combatant's :class:`Footing` on demand (:meth:`of`)."""

    game: str
    events: int  # how many events the state folds (the situation is that state's)
    started: bool
    round: int
    phase: str | None
    side: str | None
    actor: str | None
    acted: frozenset[str]
    due: tuple[Due, ...]
    _state: EncounterState = field(repr=False, compare=False)
    _structure: TurnStructure = field(repr=False, compare=False)
    _footings: dict[str, Footing] = field(default_factory=dict, repr=False, compare=False)
    _offers: OfferCache = field(default_factory=OfferCache, repr=False, compare=False)
    _defaults: dict[str, DefaultAttack] = field(default_factory=dict, repr=False, compare=False)

    def is_of(self, state: EncounterState) -> bool:
        """Whether this is the situation of ``state`` (that very state)."""
        return self._state is state

    def of(self, ident: str) -> Footing:
        """What combatant ``ident`` may do now (worked out once)."""
        found = self._footings.get(ident)
        if found is None:
            found = _footing(self._state, self._structure, self._state.combatants[ident])
            self._footings[ident] = found
        return found

    @property
    def default_attack(self) -> DefaultAttack | None:
        """The attack offered first to whoever acts (None when nobody does)."""
        return self.default_attack_of(self.actor) if self.actor is not None else None

    def default_attack_of(self, ident: str) -> DefaultAttack:
        """The attack offered first to combatant ``ident`` now (worked out once)."""
        found = self._defaults.get(ident)
        if found is None:
            footing = self.of(ident)  # its attack actions allowed now
            combatant = self._state.combatants[ident]
            found = default_attack(self._state, combatant, footing.attacks, self._offers)
            self._defaults[ident] = found
        return found

    @property
    def footings(self) -> Mapping[str, Footing]:
        """Each combatant still in the encounter's footing (every one worked out)."""
        return MappingProxyType({c.id: self.of(c.id) for c in self._state.present})


def situation_of(state: EncounterState, offers: OfferCache | None = None) -> Situation:
    """The situation at ``state`` (see the module docstring); ``offers``: the rules' offers
    kept from the states before (the encounter's)."""
    structure = turn_structure(state.game)
    done = acted_in(state, structure)
    return Situation(
        game=state.game,
        events=state.events,
        started=state.started,
        round=state.round,
        phase=phase_of(state) or None,
        side=state.current_side if structure.kind == "sides" else None,
        actor=_actor(state, structure, done),
        acted=done,
        due=tuple(state.due),
        _state=state,
        _structure=structure,
        _offers=offers if offers is not None else OfferCache(),
    )


def _actor(state: EncounterState, structure: TurnStructure, done: frozenset[str]) -> str | None:
    if state.current is not None:  # removed: nobody acts until the turn passes
        return None if state.current.removed else state.current.id
    if not state.started or state.current_side is None:
        return None
    side = [
        c for c in state.present if c.side == state.current_side and fallen(c, structure) is None
    ]
    free = [c for c in side if c.id not in done and not restrictions(state, c)]
    armed = [c for c in free if choices.weapons(state.game, c.sheet)]
    chosen = armed or free or side
    return chosen[0].id if chosen else None


def _footing(state: EncounterState, structure: TurnStructure, combatant: Combatant) -> Footing:
    permits = PermitsOf(state, combatant, structure)
    attacks: dict[str, Message | None] = {}
    for choice in choices.actions(state.game):
        permit = permits.take(choices.action_types(state.game, choice.id), choice.id)
        attacks[choice.id] = permit.reasons[0] if permit.reasons else None
    actions = {
        info.id: permits.take(info.types, info.id)
        for info in find_game(state.game).acting.actions()
    }
    return Footing(
        id=combatant.id,
        name=combatant.name,
        why_not=_why_not(state, structure, permits),
        budget=MappingProxyType(budget_left(structure, state, combatant)),
        reactions=MappingProxyType(reactions_left(structure, combatant)),
        attacks=MappingProxyType(attacks),
        actions=MappingProxyType(actions),
    )


def _why_not(state: EncounterState, structure: TurnStructure, permits: PermitsOf) -> Message | None:
    """The one reason ``combatant`` may take no counted action now (None: some it may): the
    cheapest action type's first reason, when every type is refused."""
    counted = [kind for kind in structure.action_costs if kind != "free"]
    if not state.started or not counted:
        return None
    first: Message | None = None
    for kind in sorted(counted, key=lambda k: sum(structure.action_costs[k].values())):
        permit = permits.take((kind,))
        if permit.allowed:
            return None
        first = first or permit.reasons[0]
    return first
