"""Reactions to a hit: dodge and parry (001: one reaction a round; 004: Dodge, Parry).

The defender's choice arrives in ``request.options["reaction"]`` ("dodge", "parry" or None);
its test is rolled from the attack's dice source, after the hit and before the damage (004,
step two). A success negates the attack; against semi- and full-auto fire (and suppressing
fire) each degree of success negates one more hit (004); against an area attack (Blast, Flame)
a success takes the defender to the edge if it is no farther than its Agility Bonus in metres,
else the dodge fails without a roll (``options["dodge_distance"]``, metres; absent: reachable).

Choices where the texts are silent:

- How many reactions the defender still has this round is ``reactions_left``: the GM's
  ``options["reactions_left"]`` when given, else the game's round pools
  (``systems.turns.reactions_allowed``: one reaction, two in a Defensive Stance, none after an
  All Out Attack, as the defender's conditions say) less what the encounter says it spent
  (``options["target_reactions"]``, ``{"reaction": 1}``). Each use is an
  ``Effect(kind="reaction")``. Against several attacks of one action (two weapons, Swift
  Attack) the reaction goes to the first attack that lands, then the next while any are left.
  An attack that cannot be dodged (or parried) says so before the count does.
- The defender's modifiers are ``modifiers.defence_modifiers``: its conditions
  (``options["target_conditions"]`` and the circumstances naming one: prone -20 to Dodge,
  Guarded Attack +10, any fatigue -10 (004)...) and the terrain it stands in. The sheets hold
  no skills, so Dodge is an Agility test; ``options["reaction_modifiers"]`` ({"Dodge
  trained": 0, ...}) adds what else the GM gives. The parrying weapon
  (``options["parry_weapon"]``, else the first melee weapon) adds the books' Balanced +10,
  Defensive +15, Unbalanced -10; an Unwieldy weapon cannot parry. Modifiers are capped at
  +/-60 like the attack's.
- Hordes do not react (004) unless the GM allows it: ``options["horde_reacts"]``.
- A melee attack is one tested with anything but Ballistic Skill.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gmkit.errors import GmkitError
from gmkit.sheets.dark_heresy import ImperialWeapon
from gmkit.systems.base import AttackRequest, Effect, Modifier, Step
from gmkit.systems.imperial.conditions import request_conditions
from gmkit.systems.imperial.modifiers import defence_modifiers
from gmkit.systems.imperial.resolve_hit import Strike
from gmkit.systems.percentile import roll_test
from gmkit.systems.turns import reactions_allowed, turn_structure

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
    """Modifiers from options: a mapping {source: value} or a list of Modifier / pairs."""
    if not values:
        return []
    if isinstance(values, Mapping):
        return [Modifier(str(name), int(value)) for name, value in values.items()]
    found: list[Modifier] = []
    for item in values:
        found.append(item if isinstance(item, Modifier) else Modifier(str(item[0]), int(item[1])))
    return found


def reactions_left(request: AttackRequest, game: str) -> int:
    """Reactions the target has left this round for the reaction it chose (see the module's
    docstring): ``options["reactions_left"]`` if given, else the round pools its conditions
    allow (``systems.turns.reactions_allowed``) less the pools spent
    (``options["target_reactions"]``)."""
    options = request.options
    if options.get("reactions_left") is not None:
        return int(options["reactions_left"])
    structure = turn_structure(game)
    choice = str(options.get("reaction") or "dodge").strip().casefold()
    costs = structure.reaction_costs.get(choice) or structure.reaction_costs.get("dodge", {})
    _, target = request_conditions(request, game)
    allowed = reactions_allowed(game, target)
    spent: Mapping[str, Any] = options.get("target_reactions") or {}
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
    if not strike.setup.can_dodge:
        steps.append(Step("Reactions", "this attack cannot be dodged", _why(strike)))
    if is_melee(strike) and not strike.setup.can_parry:
        steps.append(Step("Reactions", "this attack cannot be parried", _why(strike)))
    return steps


def _why(strike: Strike) -> str:
    return "; ".join(strike.setup.notes) or "as the action and circumstances have it"


def parry_weapon(strike: Strike) -> ImperialWeapon | None:
    wanted = strike.options.get("parry_weapon")
    for weapon in strike.target.weapons:
        if weapon.weapon_class == "melee" and (wanted is None or weapon.name == wanted):
            return weapon
    return None


def react(strike: Strike, hits: int, reactions_left: int) -> Reaction:
    """Offer the defender's chosen reaction against ``hits`` hits of one attack test."""
    choice = str(strike.options.get("reaction") or "none").strip().casefold()
    if choice == "none" or hits <= 0:
        return Reaction()
    if choice not in ("dodge", "parry"):
        raise GmkitError(f"reaction {choice!r}: choose dodge, parry or none")
    title = choice.capitalize()
    if strike.is_horde and not strike.options.get("horde_reacts"):
        return Reaction((Step(title, "not taken", "hordes do not dodge or parry (004)"),))
    if choice == "dodge" and not strike.setup.can_dodge:
        return Reaction()  # ``restrictions`` says so
    refusal = _parry_refusal(strike) if choice == "parry" else ""
    if refusal:
        return Reaction((Step(title, "not possible", refusal),))
    if reactions_left < 1:
        return Reaction((Step(title, "not taken", "no reaction left this round"),))
    modifiers = [
        *defence_modifiers(strike.request, strike.game, choice),
        *listed_modifiers(strike.options.get("reaction_modifiers")),
    ]
    key = "Ag"
    if choice == "parry":
        weapon = parry_weapon(strike)
        assert weapon is not None
        for quality, value in PARRY_QUALITIES.items():
            if weapon.quality(quality):
                modifiers.append(Modifier(f"{quality} ({weapon.name})", value))
        key = "WS"
    spent = Effect("reaction", strike.target.name, condition=choice)
    area = choice == "dodge" and any(strike.weapon.quality(q) for q in AREA_QUALITIES)
    reach = strike.target.bonus("Ag")
    distance = strike.options.get("dodge_distance")
    if area and distance is not None and float(distance) > reach:
        detail = f"the edge is {distance} m away, more than AgB {reach} m: fails (004)"
        return Reaction((Step(title, "failed", detail),), (spent,), 0, True)
    base = int(getattr(strike.target.characteristics, key))
    test = roll_test(key, base, modifiers, strike.source, f"{choice} ({strike.target.name})")
    if not test.success:
        failed = "failed: the attack lands"
        step = Step(title, failed, test.explain(), (test.roll,), test.target, test.modifiers)
        return Reaction((step,), (spent,), 0, True)
    cancelled = hits
    outcome = "the attack is negated"
    if area:
        outcome = "out of the area: the attack is negated"
    elif choice == "dodge" and strike.setup.mode in AUTO_FIRE:
        cancelled = min(hits, 1 + test.degrees)
        outcome = f"{cancelled} of {hits} hits negated (one, and one per degree of success)"
    step = Step(title, outcome, test.explain(), (test.roll,), test.target, test.modifiers)
    return Reaction((step,), (spent,), cancelled, True)


def _parry_refusal(strike: Strike) -> str:
    if not is_melee(strike):
        return "only melee attacks can be parried (004)"
    if not strike.setup.can_parry:
        return "this attack cannot be parried"
    weapon = parry_weapon(strike)
    if weapon is None:
        return f"{strike.target.name} holds no melee weapon to parry with"
    if weapon.quality("Unwieldy"):
        return f"{weapon.name} is Unwieldy and cannot parry"
    return ""
