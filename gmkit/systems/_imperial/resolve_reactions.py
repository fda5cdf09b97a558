"""Reactions to a hit: dodge and parry (001: one reaction a round; 004: Dodge, Parry).

The defender's choice arrives in the option ``reaction`` ("dodge", "parry", "none" or None);
its test is rolled from the attack's dice source, after the hit and before the damage (004,
step two). A success negates the attack; against semi- and full-auto fire (and suppressing
fire) each degree of success negates one more hit (004); against an area attack (Blast, Flame)
a success takes the defender to the edge if it is no farther than its Agility Bonus in metres,
else the dodge fails without a roll (the option ``dodge_distance``, metres; absent: reachable).

Choices where the texts are silent:

- How many reactions the defender still has this round is ``reactions_left``: the GM's
  option ``reactions_left`` when given, else the game's round pools
  (``systems.turns.reactions_allowed``: one reaction, two in a Defensive Stance, none after an
  All Out Attack, as the defender's conditions say) less what the encounter says it spent
  (``request.target_standing.reactions``, ``{"reaction": 1}``). Each use is an
  ``Effect(kind="reaction")``. Against several attacks of one action (two weapons, Swift
  Attack) the reaction goes to the first attack that lands, then the next while any are left.
  An attack that cannot be dodged (or parried) says so before the count does.
- The defender's modifiers are ``modifiers.defence_modifiers``: its conditions (its
  standing's and the circumstances naming one: prone -20 to Dodge, Guarded Attack +10, any
  fatigue -10 (004)...) and the terrain it stands in. The sheets hold no skills, so Dodge is
  an Agility test; the option ``reaction_modifiers`` ({"Dodge trained": 0, ...}) adds what
  else the GM gives. The parrying weapon (the option ``parry_weapon``, else the first melee
  weapon) adds the books' Balanced +10,
  Defensive +15, Unbalanced -10; an Unwieldy weapon cannot parry. Modifiers are capped at
  +/-60 like the attack's.
- Hordes do not react (004) unless the GM allows it: the option ``horde_reacts``.
- A melee attack is one tested with anything but Ballistic Skill.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gmkit.messages import Message
from gmkit.sheets._dark_heresy import ImperialWeapon
from gmkit.systems._imperial.conditions import request_conditions
from gmkit.systems._imperial.modifiers import defence_modifiers
from gmkit.systems._imperial.options import gm_modifiers
from gmkit.systems._imperial.pacing import FORTY_K
from gmkit.systems._imperial.resolve_hit import Strike
from gmkit.systems._imperial.terms import quality
from gmkit.systems._percentile import roll_test
from gmkit.systems.base import AttackRequest, Effect, Modifier, Step
from gmkit.systems.turns import reactions_allowed

AUTO_FIRE = ("semi", "full", "suppressing")
AREA_QUALITIES = ("Blast", "Flame")
PARRY_QUALITIES = {"Balanced": 10, "Defensive": 15, "Unbalanced": -10}


@dataclass(frozen=True, slots=True)
class Reaction:
    """What the defender's reaction did to one attack."""

    steps: tuple[Step, ...] = ()
    effects: tuple[Effect, ...] = ()
    cancelled: int = 0  # hits negated
    used: bool = False


def listed_modifiers(values: Any) -> list[Modifier]:
    """Modifiers from an option: a mapping {source: value} or modifiers."""
    return gm_modifiers(values) if values else []


def reactions_left(request: AttackRequest, game: str) -> int:
    """Reactions the target has left this round for the reaction it chose (see the module's
    docstring): the option ``reactions_left`` if given, else the round pools its conditions
    allow (``systems.turns.reactions_allowed``) less the pools spent (the target's standing's
    ``reactions``)."""
    options = request.options
    if options.reactions_left is not None:
        return int(options.reactions_left)
    structure = FORTY_K
    choice = options.reaction if options.reaction in ("dodge", "parry") else "dodge"
    costs = structure.reaction_costs.get(choice) or structure.reaction_costs.get("dodge", {})
    _, target = request_conditions(request, game)
    allowed = reactions_allowed(game, target)
    spent: Mapping[str, Any] = request.target_standing.reactions
    lefts = [
        (allowed.get(pool, 0) - int(spent.get(pool, 0))) // cost
        for pool, cost in costs.items()
        if cost > 0
    ]
    return max(0, min(lefts, default=0))


def is_melee(strike: Strike) -> bool:
    return strike.setup.characteristic != "BS"


def restrictions(strike: Strike) -> list[Step]:
    """Steps saying what the defender may not do against this attack."""
    steps: list[Step] = []
    title = Message("imperial.reaction.title")
    if not strike.setup.can_dodge:
        steps.append(Step(title, Message("imperial.reaction.cannot_dodge"), _why(strike)))
    if is_melee(strike) and not strike.setup.can_parry:
        steps.append(Step(title, Message("imperial.reaction.cannot_parry"), _why(strike)))
    return steps


def _why(strike: Strike) -> Message:
    if strike.setup.notes:
        return Message("common.join", parts=strike.setup.notes)
    return Message("imperial.offers.as_action_has_it")


def parry_weapon(strike: Strike) -> ImperialWeapon | None:
    wanted = strike.options.parry_weapon
    for weapon in strike.target.weapons:
        if weapon.weapon_class == "melee" and (wanted is None or weapon.name == wanted):
            return weapon
    return None


def react(strike: Strike, hits: int, reactions_left: int) -> Reaction:
    """Offer the defender's chosen reaction against ``hits`` hits of one attack test."""
    choice = strike.options.reaction or "none"
    if choice == "none" or hits <= 0:
        return Reaction()
    title = Message(f"offers.reaction.{choice}")
    not_taken = Message("imperial.reaction.not_taken")
    if strike.is_horde and not strike.options.horde_reacts:
        return Reaction((Step(title, not_taken, Message("imperial.offers.hordes_do_not_react")),))
    if choice == "dodge" and not strike.setup.can_dodge:
        return Reaction()  # ``restrictions`` says so
    refusal = _parry_refusal(strike) if choice == "parry" else None
    if refusal is not None:
        return Reaction((Step(title, Message("imperial.reaction.not_possible"), refusal),))
    if reactions_left < 1:
        return Reaction((Step(title, not_taken, Message("imperial.reaction.none_left")),))
    modifiers = [
        *defence_modifiers(strike.request, strike.game, choice),
        *listed_modifiers(strike.options.reaction_modifiers),
    ]
    key = "Ag"
    if choice == "parry":
        weapon = parry_weapon(strike)
        assert weapon is not None
        for name, value in PARRY_QUALITIES.items():
            if weapon.quality(name):
                source = Message(
                    "imperial.reaction.weapon_quality",
                    quality=quality(strike.game, name),
                    weapon=weapon.name,
                )
                modifiers.append(Modifier(source, value))
        key = "WS"
    spent = Effect("reaction", strike.target.name, condition=choice)
    area = choice == "dodge" and any(strike.weapon.quality(q) for q in AREA_QUALITIES)
    reach = strike.target.bonus("Ag")
    distance = strike.options.dodge_distance
    if area and distance is not None and float(distance) > reach:
        detail = Message("imperial.reaction.edge_too_far", distance=distance, reach=reach)
        failed = Message("imperial.reaction.failed")
        return Reaction((Step(title, failed, detail),), (spent,), 0, True)
    base = int(getattr(strike.target.characteristics, key))
    purpose = Message(f"imperial.reaction.{choice}_die", name=strike.target.name)
    test = roll_test(key, base, modifiers, strike.source, purpose)
    if not test.success:
        failed = Message("imperial.reaction.lands")
        step = Step(title, failed, test.explain(), (test.roll,), test.target, test.modifiers)
        return Reaction((step,), (spent,), 0, True)
    cancelled = hits
    outcome = Message("imperial.reaction.negated")
    if area:
        outcome = Message("imperial.reaction.out_of_area")
    elif choice == "dodge" and strike.setup.mode in AUTO_FIRE:
        cancelled = min(hits, 1 + test.degrees)
        outcome = Message("imperial.reaction.some_negated", cancelled=cancelled, hits=hits)
    step = Step(title, outcome, test.explain(), (test.roll,), test.target, test.modifiers)
    return Reaction((step,), (spent,), cancelled, True)


def _parry_refusal(strike: Strike) -> Message | None:
    """Why the target cannot parry this attack (None: it can)."""
    if not is_melee(strike):
        return Message("imperial.reaction.only_melee_parried")
    if not strike.setup.can_parry:
        return Message("imperial.reaction.cannot_parry")
    weapon = parry_weapon(strike)
    if weapon is None:
        return Message("imperial.reaction.no_parry_weapon", name=strike.target.name)
    if weapon.quality("Unwieldy"):
        unwieldy = quality(strike.game, "Unwieldy")
        return Message("imperial.reaction.unwieldy", weapon=weapon.name, quality=unwieldy)
    return None
