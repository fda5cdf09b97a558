"""Hordes (Deathwatch, seed 004): how many hits an attack scores on one, and when it breaks.

Everything here is a pure function of numbers, a weapon, the rules (``hordes.yaml``, validated
as :class:`~gmkit.sheets.deathwatch.HordeRules`) and, where a die is rolled, a dice source.

- Every hit that deals any damage costs 1 magnitude, however much damage (004).
- Blast(X): X hits. Flame: ceil(range / 4) + 1d5 hits. Melee: one more hit per two degrees of
  success, and one more with a Power Field weapon. Semi- and full-auto: the usual extra hits.
  Explosive damage: one more hit per attack, after all the others. Psychic powers: one hit per
  Psy Rating used, 1d10 more for an area power (``psychic_hits``).
- Breaking: losing 25 % of the starting magnitude in one turn calls for a Willpower test at the
  horde's next turn; under 50 % it is at -10; under 25 % the horde breaks without a test.

Choices where 004 is silent:

- Blast and Flame give their hits *instead of* the single hit of the attack (a grenade with
  Blast(4) "hits 4 times"); the explosive extra hit and melee degrees add to what is there.
- These extra hits are not capped by the weapon's rate of fire (004 gives no cap).
- The explosive extra hit is a hit like the others: its damage is rolled and soaked, and it
  costs magnitude only if it deals damage.
- A horde of fearless troops (``fearless=True``) never tests and never breaks.
"""

from __future__ import annotations

from dataclasses import dataclass

from gmkit.dice import DiceSource, DieRoll, roll
from gmkit.sheets.dark_heresy import ImperialWeapon
from gmkit.sheets.deathwatch import HordeRules
from gmkit.systems.base import Effect, Modifier, Step
from gmkit.systems.imperial.conditions import gain
from gmkit.systems.percentile import PercentileTest, roll_test
from gmkit.systems.tables import table


def horde_rules(game: str = "deathwatch") -> HordeRules:
    """The horde rules of ``game`` as data (``hordes.yaml``, a GM may override it)."""
    return HordeRules.model_validate(table(game, "hordes"))


@dataclass(frozen=True, slots=True)
class HordeHits:
    """How many hits an attack scores on a horde, and why."""

    hits: int
    reason: str
    rolls: tuple[DieRoll, ...] = ()


def horde_hits(
    weapon: ImperialWeapon,
    melee: bool,
    degrees: int,
    hits: int,
    source: DiceSource,
    rules: HordeRules,
) -> HordeHits:
    """The hits on a horde of an attack that scored ``hits`` with ``degrees`` of success."""
    blast = int(weapon.quality("Blast"))
    if blast:
        count = blast * rules.blast_hits_per_point
        return HordeHits(count, f"Blast({blast}): {count} hits")
    if weapon.quality("Flame"):
        rolled = roll(rules.flame_extra_hits, source, "flame hits on the horde")
        count = rules.flame_hits(weapon.range, rolled.total)
        reason = f"Flame: ceil({weapon.range} m / {rules.flame_range_divisor}) + {rolled.total}"
        return HordeHits(count, f"{reason} = {count} hits", rolled.dice)
    if melee:
        extra = degrees // rules.melee_degrees_per_extra_hit
        reasons = [f"{hits} + {extra} for {degrees} degrees of success"]
        if weapon.quality("Power Field"):
            extra += rules.power_field_extra_hits
            reasons.append(f"+{rules.power_field_extra_hits} Power Field")
        return HordeHits(hits + extra, f"melee: {' '.join(reasons)} = {hits + extra} hits")
    return HordeHits(hits, f"{hits} hits")


def explosive_extra_hits(weapon: ImperialWeapon, rules: HordeRules) -> int:
    """One more hit per attack for Explosive damage (004), rolled after the others."""
    return rules.explosive_extra_hits if weapon.damage_type == "Explosive" else 0


def psychic_hits(
    psy_rating: int, area: bool, source: DiceSource, rules: HordeRules | None = None
) -> HordeHits:
    """Hits of a psychic power on a horde: one per Psy Rating, 1d10 more for an area."""
    rules = rules or horde_rules()
    count = psy_rating * rules.psychic_hits_per_psy_rating
    if not area:
        return HordeHits(count, f"Psy Rating {psy_rating}: {count} hits")
    rolled = roll(rules.psychic_area_extra_hits, source, "area power hits on the horde")
    total = count + rolled.total
    return HordeHits(
        total, f"Psy Rating {psy_rating} + {rolled.total} (area) = {total}", rolled.dice
    )


def magnitude_loss(damaging_hits: int, rules: HordeRules) -> int:
    """Magnitude lost to ``damaging_hits`` hits that each dealt some damage."""
    return damaging_hits * rules.magnitude_per_damaging_hit


@dataclass(frozen=True, slots=True)
class BreakCheck:
    """Where a horde stands after a turn's losses."""

    test_needed: bool
    willpower_modifier: int
    broken: bool
    reason: str


def break_check(
    start: int, magnitude: int, lost_this_turn: int, rules: HordeRules, *, fearless: bool = False
) -> BreakCheck:
    """Whether a horde of starting magnitude ``start``, now ``magnitude``, must test or breaks."""
    if fearless:
        return BreakCheck(False, 0, False, "fights to the last")
    if magnitude * 100 < start * rules.auto_break_below_percent:
        reason = f"{magnitude} is under {rules.auto_break_below_percent}% of {start}"
        return BreakCheck(False, 0, True, reason + ": it breaks")
    below_half = magnitude * 100 < start * rules.willpower_penalty_below_percent
    modifier = rules.willpower_penalty if below_half else 0
    needed = lost_this_turn * 100 >= start * rules.break_test_loss_percent and lost_this_turn > 0
    reason = (
        f"lost {lost_this_turn} of {start} this turn"
        + (f" (>= {rules.break_test_loss_percent}%): Willpower test" if needed else "")
        + (f"; under {rules.willpower_penalty_below_percent}%: {modifier}" if below_half else "")
    )
    return BreakCheck(needed, modifier, False, reason)


def break_test(
    name: str,
    willpower: int,
    check: BreakCheck,
    source: DiceSource,
    game: str = "deathwatch",
) -> tuple[PercentileTest | None, Step, tuple[Effect, ...]]:
    """Roll the horde's Willpower test if ``check`` calls for one; broken: it flees."""
    fled = (gain(game, name, "broken", note="flees at its best speed"),)
    if check.broken:
        return None, Step("Horde morale", "broken", check.reason), fled
    if not check.test_needed:
        return None, Step("Horde morale", "holds", check.reason), ()
    modifiers = [Modifier("Under half magnitude", check.willpower_modifier)]
    modifiers = [m for m in modifiers if m.value]
    test = roll_test("WP", willpower, modifiers, source, f"horde break test ({name})")
    step = Step(
        "Horde morale",
        "holds" if test.success else "broken",
        f"{check.reason}; {test.explain()}",
        (test.roll,),
        test.target,
        test.modifiers,
    )
    return test, step, () if test.success else fled


def resist_bonus(magnitude: int, rules: HordeRules) -> Modifier:
    """A horde's bonus to Willpower against pinning and fear: its magnitude (004)."""
    return Modifier("Horde magnitude", magnitude * rules.willpower_bonus_per_magnitude)
