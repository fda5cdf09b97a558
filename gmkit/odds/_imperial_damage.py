"""One 40k hit's damage as exact odds: the dice, Righteous Fury, and the soak.

Read from the rules the resolver uses (:mod:`gmkit.systems._imperial`):

- The damage roll is ``Strike.roll_weapon`` itself (``damage.roll_damage``: degrees of success
  as a die's minimum, Tearing, Proven, d5 from a d10, "roll the damage dice twice"), run on
  every combination of its dice (:func:`~gmkit.odds._percentile.outcomes`). Dice of one term are
  interchangeable, so each term's dice are played as combinations (with their multiplicity)
  instead of every order; the terms are read with ``damage``'s own parser and checked against
  the dice the roll actually asks for. A d5 rolled on a d10 with a keep is played in every
  order (a 9 and a 10 both read 5, and only the kept one's natural 10 calls Fury).
- Righteous Fury follows ``FuryRules`` (``righteous_fury.yaml``): the confirmation is the
  attack's test again (the chance ``p`` of the attack's target), what a confirmed Fury adds is
  ``roll_extra_die`` or the weapon's damage again (``Strike.roll_weapon``), the chain and its
  confirmations, the helpless target's automatic confirmation, the resolver's ``max_chain``
  guard, and the house rule's critical damage (``gmkit.dice._distribution`` of its dice).
  A hit's damage is kept as components ``p**a * (1 - p)**b`` so a curve over the modifier
  re-weighs them without rolling again.
- The soak is ``damage_soak.Soak`` and the cover's wear ``Cover.after_hit``, for each damage.

Values are coded ``damage * stride + critical`` so the house rule's critical damage (which
bypasses the soak) travels with the damage through the convolutions (``stride`` 1 without it).

Why over 400 lines: the damage of one hit is one computation (dice, degrees as a minimum,
Righteous Fury chains, penetration, armour, Toughness, cover), each part feeding the next.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations_with_replacement, product
from math import factorial, gcd, prod
from typing import Any

import numpy as np

from gmkit.dice import distribution, parse
from gmkit.dice._ast import Dice, Keep
from gmkit.messages import Message
from gmkit.odds._percentile import (
    Grid,
    OddsError,
    ScriptedDice,
    Weights,
    mix,
    outcomes,
    power_weight,
    stack,
    weighted,
)
from gmkit.systems._imperial import damage as damage_rules
from gmkit.systems._imperial.cover import Cover
from gmkit.systems._imperial.damage import DamageRoll, roll_extra_die
from gmkit.systems._imperial.damage_soak import Soak
from gmkit.systems._imperial.resolve_hit import Strike

Components = dict[tuple[int, int], Weights]  # (confirmations won, lost) -> damage code weights


@dataclass(frozen=True, slots=True)
class Rolled:
    """One outcome of a damage roll, as far as the odds need it."""

    total: int
    tens: int  # natural 10s that call Righteous Fury
    first_sides: int  # the die a Deathwatch Fury adds


def _multiplicity(values: tuple[int, ...]) -> int:
    counts: dict[int, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return factorial(len(values)) // prod(factorial(c) for c in counts.values())


def _terms(strike: Strike, extra_rolls: int) -> list[tuple[int, int, bool]] | None:
    """(dice, sides rolled, interchangeable) per dice term, in the order ``roll_damage`` rolls
    them; None where the expression cannot be read so (the roll is then played die by die)."""
    try:
        parsed = parse(strike.expression)
        terms, _ = damage_rules._linear(
            parsed.root, 1, strike.attacker.bonuses(), strike.expression
        )
    except Exception:
        return None
    if strike.weapon.quality("Tearing"):
        for index, (sign, term) in enumerate(terms):
            if sign > 0 and term.keep is None:
                terms[index] = (sign, Dice(term.count + 1, term.sides, Keep("kh", term.count)))
                break
    terms = terms + [item for _ in range(extra_rolls) for item in terms]
    found = []
    for _, term in terms:
        halved = term.sides == 5 and strike.damage_rules.d5_from_d10
        sides = 10 if halved else term.sides
        found.append((term.count, sides, not (halved and term.keep is not None)))
    return found


def roll_outcomes(strike: Strike, degrees: int, extra_rolls: int) -> tuple[dict[Rolled, int], int]:
    """Every outcome of ``strike.roll_weapon`` (counts over a common denominator)."""
    profile = (
        strike.expression,
        tuple(sorted(strike.attacker.bonuses().items())),
        tuple(strike.weapon.qualities),
        strike.damage_rules,
        extra_rolls,
    )
    key = (*profile, degrees)
    found = _ROLLS.get(key)
    if found is None:
        rolls = _PROFILES.get(profile)
        if rolls is None:
            rolls = _rolls(strike, extra_rolls)
            if len(_PROFILES) > 256:
                _PROFILES.clear()
            _PROFILES[profile] = rolls
        listed, den = rolls
        counts: dict[Rolled, int] = {}
        for weight, roll in listed:
            done = roll.with_degrees(degrees)  # the last step of ``roll_damage``
            result = Rolled(done.total, done.tens, done.first_sides)
            counts[result] = counts.get(result, 0) + weight
        found = counts, den
        if len(_ROLLS) > 512:
            _ROLLS.clear()
        _ROLLS[key] = found
    return found


_ROLLS: dict[tuple[Any, ...], tuple[dict[Rolled, int], int]] = {}
_PROFILES: dict[tuple[Any, ...], tuple[list[tuple[int, DamageRoll]], int]] = {}


def _rolls(strike: Strike, extra_rolls: int) -> tuple[list[tuple[int, DamageRoll]], int]:
    """Every roll of ``strike.roll_weapon`` without degrees, each with its count over the
    denominator: the weapon profile's outcome table, rolled once (the degrees of success only
    raise a die afterwards: ``DamageRoll.with_degrees``)."""
    dice = ScriptedDice()
    striking = replace(strike, source=dice)

    def roll() -> DamageRoll:
        return striking.roll_weapon("damage", degrees=0, extra_rolls=extra_rolls)

    terms = _terms(striking, extra_rolls)
    expected = [sides for count, sides, _ in terms for _ in range(count)] if terms else None
    dice.play([])
    roll()
    if terms is None or dice.sides != expected:
        played = outcomes(lambda _: roll(), dice=dice)
        den = 1
        for size, _ in played:
            den = den * size // gcd(den, size)
        return [(den // size, rolled) for size, rolled in played], den
    choices = []
    for count, sides, together in terms:
        faces = range(1, sides + 1)
        if together:
            choices.append(
                [(v, _multiplicity(v)) for v in combinations_with_replacement(faces, count)]
            )
        else:
            choices.append([(v, 1) for v in product(faces, repeat=count)])
    if prod(len(c) for c in choices) > 50_000:
        raise OddsError(Message("imperial.odds.too_many_dice", damage=strike.expression))
    listed: list[tuple[int, DamageRoll]] = []
    for combo in product(*choices):
        dice.play([v for part, _ in combo for v in part])
        listed.append((prod(m for _, m in combo), roll()))
    return listed, prod(sides**count for count, sides, _ in terms)


def _dist(counts: Mapping[int, int], den: int) -> Weights:
    return Weights.from_counts(counts, den)


@dataclass(frozen=True)
class HitDamage:
    """A hit's damage before soak, as weighted components (see the module's docstring)."""

    components: Components  # complete outcomes
    tails: Components  # Fury chains cut at the depth: the damage rolled so far (a lower bound)
    stride: int  # code = damage * stride + critical

    @property
    def keys(self) -> tuple[tuple[int, int], ...]:
        return (*self.components, *self.tails)

    @property
    def grid(self) -> Grid:
        found = self.__dict__.get("_grid")
        if found is None:
            found = stack([*self.components.values(), *self.tails.values()])
            object.__setattr__(self, "_grid", found)
        return found

    def cut(self, p: Fraction) -> Fraction:
        """The mass of the chains cut short when confirmations succeed with chance ``p``."""
        return sum(
            (power_weight(p, a, b) * tail.mass for (a, b), tail in self.tails.items()),
            Fraction(0),
        )

    def at(self, p: Fraction) -> tuple[Weights, Fraction]:
        """The damage codes when the confirmation succeeds with chance ``p``, and the mass of
        the chains cut short (included in the codes, at the damage rolled so far)."""
        weights = [power_weight(p, a, b) for a, b in self.keys]
        found = mix(weights, self.grid)
        cut = sum(
            (
                w * tail.mass
                for w, tail in zip(
                    weights[len(self.components) :], self.tails.values(), strict=True
                )
            ),
            Fraction(0),
        )
        return found, cut


_HITS: dict[tuple[Any, ...], HitDamage] = {}


def hit_damage(
    strike: Strike, degrees: int, depth: int, stride: int, house_rule: bool
) -> HitDamage:
    """One hit's damage with ``degrees`` as a die's minimum (the rules' ``degrees_for_hit``)."""
    key = (
        strike.expression,
        tuple(sorted(strike.attacker.bonuses().items())),
        tuple(strike.weapon.qualities),
        strike.damage_rules,
        strike.fury_rules,
        strike.setup.extra_damage_dice,
        degrees,
        depth,
        stride,
        house_rule,
    )
    found = _HITS.get(key)
    if found is None:
        found = _hit_damage(strike, degrees, depth, stride, house_rule)
        if len(_HITS) > 1024:
            _HITS.clear()
        _HITS[key] = found
    return found


def _hit_damage(
    strike: Strike, degrees: int, depth: int, stride: int, house_rule: bool
) -> HitDamage:
    extra = strike.setup.extra_damage_dice
    counts, den = roll_outcomes(strike, degrees, extra)
    rules = strike.fury_rules
    plain: dict[int, int] = {}
    called: dict[bool, dict[int, int]] = {False: {}, True: {}}  # automatic confirmation?
    first_sides = 10
    helpless = extra > 0
    for rolled, count in counts.items():
        if not rolled.tens:
            plain[rolled.total] = plain.get(rolled.total, 0) + count
            continue
        first_sides = rolled.first_sides
        automatic = bool(
            helpless and rules.auto_confirm_tens and rolled.tens >= rules.auto_confirm_tens
        )
        part = called[automatic]
        part[rolled.total] = part.get(rolled.total, 0) + count
    code = stride
    components: Components = {}
    tails: Components = {}

    def put(into: Components, key: tuple[int, int], dist: Weights) -> None:
        if not dist.is_empty:
            into[key] = into[key] + dist if key in into else dist

    put(components, (0, 0), _coded(_dist(plain, den), code))
    if not any(called.values()):
        return HitDamage(components, tails, stride)
    if house_rule and rules.house_rule_critical:
        critical = distribution(rules.house_rule_critical)
        crit = Weights.from_counts(dict(critical.counts), critical.denominator)
        if crit.lo < 0 or crit.hi >= stride:
            raise OddsError(
                Message("imperial.odds.house_rule_dice", dice=str(rules.house_rule_critical))
            )
        for part in called.values():
            put(components, (0, 0), _coded(_dist(part, den), code).conv(crit))
        return HitDamage(components, tails, stride)
    added = _added(strike, first_sides)
    for automatic, part in called.items():
        base = _coded(_dist(part, den), code)
        if base.is_empty:
            continue
        chain, cut = _chain(rules, automatic, added, depth)
        for key, extra_dist in chain.items():
            put(components, key, base.conv(_coded(extra_dist, code)))
        for key, extra_dist in cut.items():
            put(tails, key, base.conv(_coded(extra_dist, code)))
    return HitDamage(components, tails, stride)


def _coded(dist: Weights, stride: int) -> Weights:
    if stride == 1 or dist.is_empty:
        return dist
    return dist.remap(lambda value: value * stride)


def _added(strike: Strike, first_sides: int) -> tuple[Weights, Weights]:
    """What one confirmed Fury adds: (its weights without a natural 10, with one)."""
    rules = strike.fury_rules
    if rules.on_confirm == "weapon_damage":
        counts, den = roll_outcomes(strike, 0, 0)  # reroll: the weapon's damage again
        quiet = {r.total: 0 for r in counts}
        loud = dict(quiet)
        for rolled, count in counts.items():
            (loud if rolled.tens else quiet)[rolled.total] += count
        return _dist(quiet, den), _dist(loud, den)
    found, den = weighted(
        outcomes(
            lambda d: (lambda die: (die.reads, die.natural_ten))(
                roll_extra_die(first_sides, d, "Righteous Fury", strike.damage_rules)
            )
        )
    )
    quiet_counts: dict[int, int] = {}
    loud_counts: dict[int, int] = {}
    for (reads, ten), count in found.items():
        into = loud_counts if ten else quiet_counts
        into[reads] = into.get(reads, 0) + count
    return _dist(quiet_counts, den), _dist(loud_counts, den)


def _chain(
    rules: Any, automatic: bool, added: tuple[Weights, Weights], depth: int
) -> tuple[Components, Components]:
    """The extra damage of a called Fury (``damage_fury.righteous_fury``'s loop), by path."""
    quiet, loud = added
    done: Components = {}
    cut: Components = {}

    def put(into: Components, key: tuple[int, int], dist: Weights) -> None:
        if not dist.is_empty:
            into[key] = into[key] + dist if key in into else dist

    live = Weights.point(0)
    won = 0
    needs_test = rules.confirm and not automatic
    for round_number in range(1, rules.max_chain + 1):
        if round_number > depth:
            put(cut, (won, 0), live)
            return done, cut
        if needs_test:
            put(done, (won, 1), live)  # not confirmed: what was added so far
            won += 1
        if not rules.chain:
            put(done, (won, 0), live.conv(quiet + loud))
            return done, cut
        put(done, (won, 0), live.conv(quiet))
        live = live.conv(loud)
        if live.is_empty:
            return done, cut
        needs_test = rules.chain_confirms
    put(done, (won, 0), live)  # the resolver's guard: no more rounds
    return done, cut


# --- the soak ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SoakRule:
    """What stands between one hit at one place and the wounds: ``Soak``'s inputs."""

    armour: int
    toughness: int
    pen: int
    multiplier: int
    cover: Cover
    location: str | None

    @property
    def key(self) -> tuple[Any, ...]:
        return (
            self.armour,
            self.toughness,
            self.pen,
            self.multiplier,
            self.cover.at(self.location),
            self.cover.wear,
            self.cover.points,
        )

    def targets(self, lo: int, hi: int, stride: int) -> tuple[np.ndarray, tuple[int, ...]]:
        """For each code ``lo..hi``: the wounds code after the soak, and the cover's points
        left after the hit."""
        return _targets(self, self.key, lo, hi, stride)


_SOAKS: dict[tuple[Any, ...], tuple[np.ndarray, tuple[int, ...]]] = {}


def _targets(
    rule: SoakRule, key: tuple[Any, ...], lo: int, hi: int, stride: int
) -> tuple[np.ndarray, tuple[int, ...]]:
    full = (*key, lo, hi, stride)
    found = _SOAKS.get(full)
    if found is not None:
        return found
    armour, toughness, pen, multiplier, cover, _, _ = key
    targets = np.zeros(hi - lo + 1, dtype=np.int64)
    after: list[int] = []
    for index, code in enumerate(range(lo, hi + 1)):
        damage = code // stride
        wounds = Soak(
            damage, armour, toughness, pen=pen, armour_multiplier=multiplier, cover=cover
        ).wounds
        targets[index] = wounds * stride + (code - damage * stride)
        after.append(rule.cover.after_hit(rule.location, damage).points)
    found = (targets, tuple(after))
    if len(_SOAKS) > 4096:
        _SOAKS.clear()
    _SOAKS[full] = found
    return found


def soaked(raw: Weights, rule: SoakRule, stride: int) -> dict[int, Weights]:
    """``raw`` damage codes through the soak: wounds codes, by the cover points left after."""
    if raw.is_empty:
        return {}
    targets, after = rule.targets(raw.lo, raw.hi, stride)
    left = set(after)
    if len(left) == 1:
        return {after[0]: raw.remap_array(targets)}
    found: dict[int, Weights] = {}
    marks = np.array(after)
    for points in left:
        counts = raw.counts.copy()
        counts[marks != points] = 0
        found[points] = Weights(raw.lo, counts, raw.den).remap_array(targets)
    return found


def with_points(cover: Cover, points: int) -> Cover:
    return cover if cover.points == points else replace(cover, points=points)


__all__ = [
    "HitDamage",
    "Rolled",
    "SoakRule",
    "hit_damage",
    "roll_outcomes",
    "soaked",
    "with_points",
]
