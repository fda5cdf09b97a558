"""What stands between a hit's damage and the target's wounds: cover, armour, Toughness.

001 and 004 agree: damage - armour points at the location - Toughness Bonus; at zero or less
the target shrugs the hit off (001's worked example: 10 - 5 - 3 = 2). Cover (001, 004) is a
layer of armour in front of the covered locations: the damage meets the cover's points first,
what is left goes on as normal (which locations, and how the cover wears: ``cover``).

Choices where the texts are silent:

- Penetration lowers the target's armour, not the cover: 004 resolves the damage "first
  against the cover's points" and the rest "as normal", and normal is where Pen applies.
- Armour that counts double (unarmed and Primitive hits, stun) is doubled before Pen is taken
  off. The books' exception for primitive armour is not in the seeds and is not applied.
- Felling(X) lowers the target's Unnatural Toughness multiplier by X, never below 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from gmkit.messages import Message
from gmkit.sheets._dark_heresy import ImperialCharacter
from gmkit.sheets._percentile import bonus_of
from gmkit.systems._imperial.cover import cover_after_hit


def toughness_bonus(target: ImperialCharacter, felling: int = 0) -> int:
    """The target's Toughness Bonus with its unnatural multiplier (less ``felling``)."""
    multiplier = max(1, int(target.unnatural.T) - felling)
    return bonus_of(int(target.characteristics.T)) * multiplier


@dataclass(frozen=True, slots=True)
class Soak:
    """One hit's damage, step by step down to the wounds it costs."""

    damage: int
    armour: int  # armour points as worn at the location
    toughness: int
    pen: int = 0
    armour_multiplier: int = 1
    cover: int = 0  # the cover's points met first (0: not behind cover)

    @property
    def through_cover(self) -> int:
        return max(0, self.damage - self.cover) if self.cover else self.damage

    @property
    def cover_worn(self) -> bool:
        """Whether this hit wears the cover down (its damage beat the cover: ``cover``'s rule)."""
        return self.cover > 0 and cover_after_hit(self.cover, self.damage) < self.cover

    @property
    def effective_armour(self) -> int:
        return max(0, self.armour * self.armour_multiplier - self.pen)

    @property
    def wounds(self) -> int:
        """Damage the target takes from this hit."""
        return max(0, self.through_cover - self.effective_armour - self.toughness)

    def explain(self) -> Message:
        """ "10 damage - AP 5 - TB 3 = 2" (cover, a multiplier and Pen shown when they count)."""
        parts = [Message("imperial.soak.damage", damage=self.damage)]
        if self.cover:
            parts.append(Message("imperial.soak.cover", points=self.cover))
        parts += [self._armour(), Message("imperial.soak.toughness", toughness=self.toughness)]
        total = self.damage - self.cover - self.effective_armour - self.toughness
        which = "imperial.soak.total" if total == self.wounds else "imperial.soak.total_none"
        return Message(which, parts=tuple(parts), wounds=self.wounds)

    def _armour(self) -> Message:
        """ "AP 4", "AP 4x2", "AP 3 (Pen 5: 0)", "AP 4x2 (Pen 2: 6)"."""
        armour, times, pen = self.armour, self.armour_multiplier, self.pen
        if times != 1 and pen:
            return Message(
                "imperial.soak.armour_times_pen",
                armour=armour,
                multiplier=times,
                pen=pen,
                effective=self.effective_armour,
            )
        if times != 1:
            return Message("imperial.soak.armour_times", armour=armour, multiplier=times)
        if pen:
            return Message(
                "imperial.soak.armour_pen", armour=armour, pen=pen, effective=self.effective_armour
            )
        return Message("imperial.soak.armour", armour=armour)
