"""Cover (001, 004): armour in front of the covered locations that wears down as it is beaten.

The one rule, read by the setup's checks and by the resolver alike:

- Cover gives no modifier to hit. It is a layer of armour points (4 to 32, 001) at the
  locations it covers, met by a hit's damage before the target's own armour (``damage_soak``).
- It protects against ranged attacks only: shots and throws (both texts speak of shooting).
- The request gives it as ``circumstances["cover"]``: its points (``8``) or
  ``{"points": 8, "locations": [...]}`` (a location, or ``arms``, ``legs``, ``all``); a bare
  number covers the option ``covered_locations`` if given, else the catalog's
  ``default_locations`` (body and legs: "as a rule", both texts).
- Each hit whose damage exceeds the cover's points (001: "supere") wears it down by the
  catalog's ``wear`` (1); the next hit of the same attack meets what is left, and the encounter
  records the loss with an ``Effect(kind="cover")`` at the hit's location.

Choices where the texts are silent: one cover stands in front of all the locations it covers,
so a hit at any of them wears the same points down; a hit on a horde (no location) meets no
cover.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from gmkit.systems._imperial.actions import GAMES
from gmkit.systems._imperial.circumstances import circumstance, cover_spec, weapon_of
from gmkit.systems.base import AttackRequest


@dataclass(frozen=True, slots=True)
class Cover:
    """The target's cover against one attack: its points, where it stands, how it wears."""

    points: int = 0
    locations: tuple[str, ...] = ()
    wear: int = 1

    def at(self, location: str | None) -> int:
        """Armour points the cover gives a hit at ``location`` (0 where it does not cover)."""
        return self.points if location is not None and location in self.locations else 0

    def after_hit(self, location: str | None, damage: int) -> Cover:
        """The cover after a hit of ``damage`` at ``location``."""
        if not self.at(location):
            return self
        return replace(self, points=cover_after_hit(self.points, damage, wear=self.wear))


def is_ranged_attack(request: AttackRequest) -> bool:
    """A shot or a throw: a ranged or thrown weapon, or a melee weapon thrown (mode thrown)."""
    weapon = weapon_of(request)
    if weapon is None:
        return False
    return weapon.weapon_class != "melee" or request.mode == "thrown"


def cover_of(request: AttackRequest) -> Cover:
    """The target's cover against this attack (no points for a melee attack or without cover)."""
    value = request.circumstances.get("cover")
    if not value or not is_ranged_attack(request):
        return Cover()
    game = getattr(request.attacker, "game", "deathwatch")
    item = circumstance(game if game in GAMES else "deathwatch", "cover")
    points, places = cover_spec(value, item, request.options.covered_locations)
    return Cover(points, places, int(item.get("wear", 1)))


def cover_points(request: AttackRequest, location: str) -> int:
    """Armour points of the target's cover at ``location`` against this attack (0: none)."""
    return cover_of(request).at(location)


def cover_after_hit(points: int, damage: int, *, wear: int = 1) -> int:
    """Cover's points after a hit of ``damage``: ``wear`` less if the damage exceeded them."""
    return max(0, points - wear) if damage > points else points
