"""What a WFRP 2e sheet carries that an attack's circumstances read: a weapon in the other hand.

Seed 002 lets a character parry as a free action "with a weapon in the other hand", and two
weapons give that parry once a round. A circumstance of ``circumstances.yaml`` may name a
reading of the target's sheet (``sheet: other_hand_weapon``): it is then set by the sheet, as a
condition sets one, unless the request gives it (the GM's word, even False, stays).

Choices where 002 is silent (the sheet lists what is carried, not what is in each hand):

- ``other_hand_weapon``: the sheet carries two melee weapons or more that take one hand each:
  a shield and a hand weapon, two daggers, a main gauche and a rapier. A ranged weapon, bare
  hands and a weapon of the Two-handed group do not count. A fighter who carries a great weapon
  beside a shield and a sword is read as holding the sword and shield: the GM turns it off for
  an attack where he swings the great weapon.
"""

from __future__ import annotations

from collections.abc import Callable

from gmkit.sheets._wfrp2 import WFRP2Character

TWO_HANDED_GROUPS = ("Two-handed",)
"""Weapon groups wielded with both hands: no weapon is left for the other hand."""


def holds_other_hand_weapon(sheet: WFRP2Character) -> bool:
    """Whether ``sheet`` carries a melee weapon for each hand (a shield counts as one)."""
    one_handed = [
        weapon
        for weapon in sheet.weapons
        if not weapon.is_ranged and weapon.group not in TWO_HANDED_GROUPS
    ]
    return len(one_handed) >= 2


SHEET_READINGS: dict[str, Callable[[WFRP2Character], bool]] = {
    "other_hand_weapon": holds_other_hand_weapon,
}
"""What a circumstance's ``sheet`` field may name, and how the target's sheet is read
(:func:`gmkit.systems.wfrp2._catalogs.sheet_circumstances` reads them)."""


__all__ = ["SHEET_READINGS", "TWO_HANDED_GROUPS", "holds_other_hand_weapon"]
