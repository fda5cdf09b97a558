"""Hordes (Deathwatch, seed 004): how many hits an attack scores on one, and when it breaks.

Everything here is a pure function of numbers, a weapon, the rules (``hordes.yaml``, validated
as :class:`~gmkit.sheets._deathwatch.HordeRules`) and, where a die is rolled, a dice source.

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
- Size (the seeds' README ruling): attacks on a horde gain a bonus by its current magnitude,
  30+ +10, 60+ +20, 90+ +30, 120+ +40, none below 30 (``hordes.yaml`` ``size_bonus``); it is
  a modifier of the attack's test like any other (capped with them at +/-60).
"""

from __future__ import annotations

from dataclasses import dataclass

from gmkit.dice import DiceSource, DieRoll, roll
from gmkit.messages import Message
from gmkit.sheets._dark_heresy import ImperialWeapon
from gmkit.sheets._deathwatch import HordeRules
from gmkit.systems._imperial.conditions import gain
from gmkit.systems._percentile import PercentileTest, roll_test
from gmkit.systems._tables import table
from gmkit.systems.base import Effect, Modifier, Step


def horde_rules(game: str = "deathwatch") -> HordeRules:
    """The horde rules of ``game`` as data (``hordes.yaml``, a GM may override it)."""
    return HordeRules.model_validate(table(game, "hordes"))


@dataclass(frozen=True, slots=True)
class HordeHits:
    """How many hits an attack scores on a horde, and why."""

    hits: int
    reason: Message
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
        return HordeHits(count, Message("imperial.horde.blast", blast=blast, count=count))
    if weapon.quality("Flame"):
        rolled = roll(rules.flame_extra_hits, source, Message("imperial.horde.flame_die"))
        count = rules.flame_hits(weapon.range, rolled.total)
        reason = Message(
            "imperial.horde.flame",
            range=weapon.range,
            divisor=rules.flame_range_divisor,
            rolled=rolled.total,
            count=count,
        )
        return HordeHits(count, reason, rolled.dice)
    if melee:
        extra = degrees // rules.melee_degrees_per_extra_hit
        if weapon.quality("Power Field"):
            power = rules.power_field_extra_hits
            reason = Message(
                "imperial.horde.melee_power",
                hits=hits,
                extra=extra,
                degrees=degrees,
                power=power,
                count=hits + extra + power,
            )
            return HordeHits(hits + extra + power, reason)
        reason = Message(
            "imperial.horde.melee", hits=hits, extra=extra, degrees=degrees, count=hits + extra
        )
        return HordeHits(hits + extra, reason)
    return HordeHits(hits, Message("imperial.horde.hits", count=hits))


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
        return HordeHits(count, Message("imperial.horde.psychic", psy=psy_rating, count=count))
    purpose = Message("imperial.horde.area_die")
    rolled = roll(rules.psychic_area_extra_hits, source, purpose)
    total = count + rolled.total
    reason = Message(
        "imperial.horde.psychic_area", psy=psy_rating, rolled=rolled.total, count=total
    )
    return HordeHits(total, reason, rolled.dice)


def size_bonus(magnitude: int, rules: HordeRules) -> Modifier | None:
    """The bonus to hit a horde of ``magnitude`` (None below the table's first step)."""
    bonus = rules.size_bonus_at(magnitude)
    if not bonus:
        return None
    return Modifier(Message("imperial.horde.size_bonus", magnitude=magnitude), bonus)


def magnitude_loss(damaging_hits: int, rules: HordeRules) -> int:
    """Magnitude lost to ``damaging_hits`` hits that each dealt some damage."""
    return damaging_hits * rules.magnitude_per_damaging_hit


@dataclass(frozen=True, slots=True)
class BreakCheck:
    """Where a horde stands after a turn's losses."""

    test_needed: bool
    willpower_modifier: int
    broken: bool
    reason: Message


def break_check(
    start: int, magnitude: int, lost_this_turn: int, rules: HordeRules, *, fearless: bool = False
) -> BreakCheck:
    """Whether a horde of starting magnitude ``start``, now ``magnitude``, must test or breaks."""
    if fearless:
        return BreakCheck(False, 0, False, Message("imperial.horde.fearless"))
    if magnitude * 100 < start * rules.auto_break_below_percent:
        percent = rules.auto_break_below_percent
        reason = Message("imperial.horde.breaks", magnitude=magnitude, percent=percent, start=start)
        return BreakCheck(False, 0, True, reason)
    below_half = magnitude * 100 < start * rules.willpower_penalty_below_percent
    modifier = rules.willpower_penalty if below_half else 0
    needed = lost_this_turn * 100 >= start * rules.break_test_loss_percent and lost_this_turn > 0
    which = "imperial.horde.lost" + ("_test" if needed else "") + ("_under" if below_half else "")
    found: dict[str, int] = {"lost": lost_this_turn, "start": start}
    if needed:
        found["percent"] = rules.break_test_loss_percent
    if below_half:
        found |= {"under": rules.willpower_penalty_below_percent, "modifier": modifier}
    return BreakCheck(needed, modifier, False, Message(which, **found))


def break_test(
    name: str,
    willpower: int,
    check: BreakCheck,
    source: DiceSource,
    game: str = "deathwatch",
) -> tuple[PercentileTest | None, Step, tuple[Effect, ...]]:
    """Roll the horde's Willpower test if ``check`` calls for one; broken: it flees."""
    fled = (gain(game, name, "broken", note=Message("imperial.horde.flees")),)
    title = Message("imperial.horde.morale")
    broken, holds = Message("imperial.horde.broken"), Message("imperial.horde.holds")
    if check.broken:
        return None, Step(title, broken, check.reason), fled
    if not check.test_needed:
        return None, Step(title, holds, check.reason), ()
    modifiers = [Modifier(Message("imperial.horde.under_half"), check.willpower_modifier)]
    modifiers = [m for m in modifiers if m.value]
    purpose = Message("imperial.horde.break_die", name=name)
    test = roll_test("WP", willpower, modifiers, source, purpose)
    step = Step(
        title,
        holds if test.success else broken,
        Message("common.join", parts=(check.reason, test.explain())),
        (test.roll,),
        test.target,
        test.modifiers,
    )
    return test, step, () if test.success else fled


def resist_bonus(magnitude: int, rules: HordeRules) -> Modifier:
    """A horde's bonus to Willpower against pinning and fear: its magnitude (004)."""
    source = Message("imperial.horde.magnitude_bonus")
    return Modifier(source, magnitude * rules.willpower_bonus_per_magnitude)
