"""Shared mechanics of the d100 games (Dark Heresy, Deathwatch, WFRP 2e).

- A test succeeds when the d100 roll is at or under the characteristic plus its modifiers,
  their total capped at +/-``cap`` (60 in Dark Heresy and Deathwatch; WFRP 2e has none).
  Degrees of success are floor((target - roll) / 10), degrees of failure floor((roll -
  target) / 10) (seed README).
- Opposed tests: a success beats a failure; between two successes the more degrees of success
  wins; between two failures neither wins. A tie goes to the higher characteristic, then to
  neither (the GM may call a re-roll).
- Hit location reverses the attack roll's digits (53 -> 35, 05 -> 50, 10 -> 01, 100 -> 100) and
  reads the game's table (data: ``hit_locations.yaml``). Extra hits on one target follow the
  Multiple Hits rows (data: ``percentile/multiple_hits.yaml``).
- Initiative: a d10 plus a base (Agility Bonus in the 40k games, Agility in WFRP 2e); ties go
  to the higher base, then to a roll-off (seed README); the roll-off dice come from the source.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gmkit.dice import DiceSource, DieRoll
from gmkit.messages import Message, Text
from gmkit.systems._tables import table
from gmkit.systems.base import Modifier

LOCATIONS = ("head", "right_arm", "left_arm", "body", "right_leg", "left_leg")


CHARACTERISTICS = ("WS", "BS", "S", "T", "Ag", "Int", "Per", "WP", "Fel")
"""The d100 games' characteristics with a name of their own in the catalogs."""


def characteristic(key: str) -> Message:
    """A characteristic's abbreviation in the reader's language (BS: HP in Spanish)."""
    if key in CHARACTERISTICS:
        return Message(f"percentile.characteristic.{key}")
    return Message.verbatim(key)


def location_name(location: str) -> Message:
    """A hit location's name ("right_arm": right arm, brazo derecho)."""
    if location in LOCATIONS:
        return Message(f"percentile.location.{location}")
    return Message.verbatim(location.replace("_", " "))


def modifiers_text(modifiers: Iterable[Modifier]) -> Message:
    """The modifiers listed, "Aim +10, Darkness -30" (or "no modifiers")."""
    listed = tuple(Message("common.modifier", source=m.source, value=m.value) for m in modifiers)
    return Message("common.list", items=listed) if listed else Message("common.no_modifiers")


def capped(modifiers: Iterable[Modifier], cap: int | None) -> int:
    """The total of ``modifiers``, held within +/-``cap`` (None: no cap)."""
    total = sum(modifier.value for modifier in modifiers)
    return total if cap is None else max(-cap, min(cap, total))


@dataclass(frozen=True, slots=True)
class PercentileTest:
    """A percentile test: what was rolled against what, and by how many degrees."""

    characteristic: str
    base: int
    modifiers: tuple[Modifier, ...]
    modifier: int  # the applied total, after the cap
    roll: DieRoll
    success: bool
    degrees: int  # of success when ``success``, else of failure

    @property
    def target(self) -> int:
        return self.base + self.modifier

    @property
    def value(self) -> int:
        return self.roll.value

    @property
    def degrees_of_success(self) -> int:
        return self.degrees if self.success else 0

    @property
    def degrees_of_failure(self) -> int:
        return 0 if self.success else self.degrees

    def explain(self) -> Message:
        """ "BS 43 +10 = 53 [Aim +10]; rolled 34: success, 1 degree of success"."""
        capped = self.modifier != sum(m.value for m in self.modifiers)
        which = "success" if self.success else "failure"
        return Message(
            f"percentile.test_{which}{'_capped' if capped else ''}",
            characteristic=characteristic(self.characteristic),
            base=self.base,
            modifier=self.modifier,
            target=self.target,
            modifiers=modifiers_text(self.modifiers),
            value=self.value,
            degrees=self.degrees,
        )


def degrees(target: int, roll: int) -> tuple[bool, int]:
    """(success, degrees) of a d100 ``roll`` against ``target``."""
    if roll <= target:
        return True, (target - roll) // 10
    return False, (roll - target) // 10


def roll_test(
    characteristic: str,
    base: int,
    modifiers: Sequence[Modifier],
    source: DiceSource,
    purpose: Text,
    *,
    cap: int | None = 60,
) -> PercentileTest:
    """Roll a d100 test of ``characteristic`` (value ``base``) with ``modifiers``."""
    modifier = capped(modifiers, cap)
    roll = source.roll_die(100, purpose)
    success, count = degrees(base + modifier, roll.value)
    return PercentileTest(characteristic, base, tuple(modifiers), modifier, roll, success, count)


def opposed_winner(first: PercentileTest, second: PercentileTest) -> int | None:
    """0 if ``first`` wins the opposed test, 1 if ``second`` does, None if neither."""
    if first.success != second.success:
        return 0 if first.success else 1
    if not first.success:
        return None
    if first.degrees != second.degrees:
        return 0 if first.degrees > second.degrees else 1
    if first.base != second.base:
        return 0 if first.base > second.base else 1
    return None


def reverse_digits(roll: int) -> int:
    """The attack roll read backwards: 53 -> 35, 5 -> 50, 10 -> 1, 100 -> 100."""
    if roll == 100:
        return 100
    tens, units = divmod(roll, 10)
    reversed_roll = units * 10 + tens
    return reversed_roll or 100


def hit_location(roll: int, game: str) -> str:
    """The location an attack roll of ``roll`` strikes, by ``game``'s table."""
    reversed_roll = reverse_digits(roll)
    for row in table(game, "hit_locations"):
        if reversed_roll <= int(row["upto"]):
            return str(row["location"])
    raise ValueError(f"{game} hit location table does not cover {reversed_roll}")  # a data bug


def location_class(location: str) -> str:
    """head, arm, body or leg."""
    return location.split("_")[-1]


def multiple_hit_locations(first: str, hits: int) -> list[str]:
    """The locations of ``hits`` hits on one target, the first at ``first``."""
    row: list[str] = list(table("percentile", "multiple_hits")[location_class(first)])
    side = first.split("_")[0] if "_" in first else "right"
    locations = [first]
    for index in range(1, hits):
        entry = row[min(index - 1, len(row) - 1)]
        locations.append(f"{side}_{entry}" if entry in ("arm", "leg") else entry)
    return locations


@dataclass(frozen=True, slots=True)
class Initiative:
    """One combatant's initiative: the d10, the base added to it, and the score."""

    name: str
    base: int
    roll: DieRoll | None  # None when the GM typed the score directly
    score: int


def roll_initiative(name: str, base: int, source: DiceSource) -> Initiative:
    """A d10 plus ``base`` for ``name``."""
    roll = source.roll_die(10, Message("percentile.initiative_die", name=name))
    return Initiative(name, base, roll, roll.value + base)
