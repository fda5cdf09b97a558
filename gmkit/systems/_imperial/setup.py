"""What the action and the circumstances make of an attack before any die is rolled.

``modifiers.attack_setup(request, game)`` builds it from the catalogs; ``resolve`` consumes it.
Keeping it a plain value lets each side be tested alone and the odds (issue 7) reuse both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gmkit.messages import Text
from gmkit.systems.base import Modifier


@dataclass(frozen=True)
class AttackSetup:
    """The attack as the rules see it once the action and circumstances are weighed."""

    characteristic: str  # "WS" or "BS" (or "S", "Ag" for special attacks)
    modifiers: tuple[Modifier, ...]  # every modifier, each with its source, before the cap
    mode: str  # "melee", "single", "semi", "full" (or a special attack: "stun", "grapple"...)
    max_hits: int = 1  # the cap on hits from this attack (rate of fire, multiple attacks)
    rounds: int = 0  # ammunition the attack spends (0 for melee)
    jam_from: int | None = None  # natural rolls at or above this jam (None: cannot jam)
    can_dodge: bool = True  # whether the target may dodge this attack
    can_parry: bool = True  # whether the target may parry it
    called_location: str | None = None  # a called shot skips the location roll
    auto_hit: bool = False  # helpless targets in melee, flame weapons (a dodge test instead)
    auto_fail: Text | None = None  # why the test fails without a roll (blinded)
    extra_damage_dice: int = 0  # e.g. helpless targets: roll the damage dice twice
    primitive_armour_double: bool = False  # unarmed/primitive: armour counts double
    warnings: tuple[Text, ...] = ()  # limits the GM may overrule (001); unknown names
    notes: tuple[Text, ...] = field(default=())  # what the GM adjudicates (ally hit in melee)
    gains: tuple[str, ...] = ()  # condition ids the action leaves on the attacker (its "gains")
