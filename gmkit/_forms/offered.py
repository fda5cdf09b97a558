"""What an attack form offers, worked out from the rules and the encounter: the cascade.

attacker -> weapons -> modes (those in which some action is legal) -> actions (legal in the
mode, and allowed by the budget: ``Encounter.may_take``) -> targets, called locations,
circumstances of the action, and the target's reactions (the rules' availability against
this attack, and ``Encounter.may_react``). Each step keeps the form's selection where it is
still offered, else takes the default (the first weapon, the first legal mode, the mode's
standard attack).

What the rules offer an attacker is a pure function of its sheet, the weapon, the mode and its
conditions and counters: it is worked out once for each, in the encounter's
:class:`~gmkit.encounter._default_attack.OfferCache` (the situation's default attack reads the
same), so the turn coming round again asks nothing twice. The defaults (the first foe the rules
let the attack target...) are :mod:`gmkit.encounter._default_attack`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gmkit.encounter._default_attack import CACHED, OfferCache, default_target, foes_first
from gmkit.encounter._state import EncounterState
from gmkit.messages import Message, Text
from gmkit.systems import _choices as choices
from gmkit.systems._conditions import out_of_the_fight as declared_out
from gmkit.systems.base import AttackChoices, AttackRequest, Choice

if TYPE_CHECKING:
    from gmkit._forms.attack import AttackForm

OUT_OF_THE_FIGHT = declared_out()
"""Conditions that make a combatant no default target: those the games declare so
(``systems.conditions``: dead, out of action, unconscious)."""


@dataclass(frozen=True)
class Offered:
    """Everything a form offers now, and why what is not offered is not."""

    attackers: tuple[str, ...] = ()
    weapons: tuple[str, ...] = ()
    modes: tuple[Choice, ...] = ()
    actions: tuple[Choice, ...] = ()
    not_offered: dict[str, Text] = field(default_factory=dict)  # action id -> why ("": none)
    targets: tuple[str, ...] = ()
    locations: tuple[str, ...] = ()
    circumstances: tuple[Choice, ...] = ()
    reactions: tuple[Choice, ...] = ()
    reactions_refused: dict[str, Text] = field(default_factory=dict)
    action_names: dict[str, Text] = field(default_factory=dict)


def offered_for(form: AttackForm, state: EncounterState, cache: OfferCache) -> Offered:
    """What ``form`` offers in ``state``, fixing its weapon, mode and action along the way."""
    present = state.present
    attackers = tuple(c.id for c in present)
    if form.attacker not in attackers:  # gone (removed): whoever acts now, else the first
        actor = form.encounter.situation.actor
        form.attacker = actor if actor in attackers else attackers[0] if attackers else ""
    attacker = state.combatants.get(form.attacker)
    if attacker is None:
        form.weapon = form.mode = form.action = ""
        return Offered(attackers=attackers)
    weapons = choices.weapons(form.game, attacker.sheet)
    if form.weapon not in weapons:
        form.weapon = weapons[0] if weapons else ""
    targets = foes_first(present, attacker)
    if not form.weapon:
        form.mode = form.action = ""
        why: dict[str, Text] = {"": Message("form.no_weapon", name=attacker.name)}
        return Offered(attackers, weapons, targets=targets, not_offered=why)
    every: AttackChoices = cache.get(form.game, attacker, form.weapon, None)
    modes = every.modes
    if form.mode not in [choice.id for choice in modes]:
        form.mode = modes[0].id if modes else ""
    if not form.mode:
        form.action = ""
        return Offered(attackers, weapons, modes, targets=targets)
    catalog = choices.actions(form.game)
    names: dict[str, Text] = {choice.id: choice.label for choice in catalog}
    refused: dict[str, Text] = cache.get(form.game, attacker, form.weapon, form.mode)
    not_offered: dict[str, Text] = {key: why for key, why in refused.items() if why}
    actions: list[Choice] = []
    footing = form.encounter.situation.of(attacker.id) if form.budget else None
    for choice in catalog:
        if footing is not None and footing.attacks.get(choice.id) is not None:
            # the budget or a condition refuses it: that reason first (pinned, not his turn),
            # before what the weapon's rules say (All Out Attack needs a melee weapon)
            not_offered[choice.id] = Message("form.budget", why=footing.attacks[choice.id])
            continue
        if refused.get(choice.id, "x"):
            continue
        actions.append(choice)
    ids = [choice.id for choice in actions]
    if form.action not in ids:
        form.action = choices.default_action(form.game, form.mode, ids)
    locations = choices.locations(form.game, form.action) if form.action else ()
    circumstances = choices.circumstances(form.game, form.action or None)
    return Offered(
        attackers,
        weapons,
        modes,
        tuple(actions),
        not_offered,
        targets,
        locations,
        circumstances,
        action_names=names,
    )


def with_reactions(
    form: AttackForm, state: EncounterState, offered: Offered, request: AttackRequest | None
) -> Offered:
    """``offered`` with the target's reactions against ``request`` (none without one)."""
    if request is None or form.target not in state.combatants:
        return offered
    target = state.combatants[form.target]
    available = choices.reactions_available(form.game, request)
    reactions, refused = [], {}
    for choice in choices.reactions(form.game):
        why: Text = available.get(choice.id, "")
        if not why:
            permit = form.encounter.may_react(target.id, choice.id)
            why = permit.why or ""
        if why:
            refused[choice.id] = why
        else:
            reactions.append(choice)
    return Offered(
        offered.attackers,
        offered.weapons,
        offered.modes,
        offered.actions,
        offered.not_offered,
        offered.targets,
        offered.locations,
        offered.circumstances,
        tuple(reactions),
        refused,
        offered.action_names,
    )


__all__ = [
    "CACHED",
    "OUT_OF_THE_FIGHT",
    "OfferCache",
    "Offered",
    "default_target",
    "foes_first",
    "offered_for",
    "with_reactions",
]
