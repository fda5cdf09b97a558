"""Exact odds of a WFRP 2e attack, from the rules the resolver uses.

``wfrp2_odds(request)`` (also ``gmkit.odds.odds`` for "wfrp2") returns the common
:class:`~gmkit.odds._core.Odds`: ``hits`` (blows that land, not turned aside), ``per_hit`` (the
wounds a landing blow costs: every blow alike), ``wounds`` and ``damage`` (wounds lost in all,
as the ``damage`` effects report them, zero and beyond included), ``states`` (the target's
wound state afterwards, its sheet's rule), ``events`` (test, hit, wounded, critically damaged,
"fury beyond depth") and ``details`` (degrees of success, the first blow's location, damage and
wounds, the critical value of the first critical hit, wounds left). ``wfrp2_curve`` gives them
for every total modifier from -60 to +60 (002 has no cap: the modifier is added as it is).

Read from the resolver's own parts, never copied:

- ``wfrp2.with_encounter_state``: the circumstances the combatants' conditions and the target's
  sheet set, added as the resolver adds them (a stunned target, a shield in the other hand).
- ``wfrp2.setup.attack_setup``: the characteristic, its modifiers, the number of attacks,
  automatic hits, Impact's dice, extra damage, Armour Piercing, Precise, the reactions the
  target may use (each a ``ReactionOption`` with its characteristic and modifiers);
  ``wfrp2.resolve.reaction_choices``: the defender's choice per attack.
- Per d100 roll: ``percentile.degrees`` (no cap: ``capped(..., None)``) and
  ``percentile.hit_location`` with ``hit_locations.yaml``.
- The damage is ``wfrp2.damage.roll_damage`` run on every combination of its dice (without
  Fury), Ulric's Fury is ``wfrp2.damage._ulrics_fury`` run on every chain of its dice to
  ``fury_depth`` (its confirmation is the attack's test again, chance ``p``), the soak
  ``wfrp2.damage.soak`` at each location, the critical value's cap ``roll_critical``'s, the
  wound state ``wfrp2.resolve.wound_state_at``.

The structure (attack after attack; one parry and one dodge a round, spent on a hit; a
critical hit when a blow takes the wounds below zero, its value how far below plus Precise)
follows ``wfrp2.resolve.resolve_attack``; ``tests/odds`` checks the odds against it.

Left out: what a critical hit does (002 has no critical table: the GM's own table or answer
gives it, :mod:`gmkit.systems.wfrp2._criticals`; the odds give the critical value), and the
conditions the action gives the attacker.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from gmkit.messages import Message, Text
from gmkit.odds._core import Curve, Dist, Odds
from gmkit.odds._percentile import (
    FURY_DEPTH,
    MODIFIERS,
    ONE,
    ZERO,
    OddsError,
    ScriptedDice,
    Weights,
    chances,
    dtype_for,
    location_table,
    outcomes,
    roll_arrays,
    success_chance,
    to_dist,
    total,
    weighted,
)
from gmkit.systems._percentile import LOCATIONS, capped
from gmkit.systems._tables import table
from gmkit.systems.base import AttackRequest
from gmkit.systems.wfrp2 import _damage as wfrp2_damage
from gmkit.systems.wfrp2 import with_encounter_state
from gmkit.systems.wfrp2._damage import roll_critical, roll_damage, soak
from gmkit.systems.wfrp2._resolve import GAME, reaction_choices, wound_state_at
from gmkit.systems.wfrp2._setup import AttackSetup, attack_setup, options_of, sheets

State = tuple[frozenset[str], int]  # reactions spent, blows landed

_DAMAGE: dict[tuple[Any, ...], tuple[dict[tuple[int, bool], int], int]] = {}
_CHAINS: dict[int, tuple[Weights, Weights]] = {}
_CAPS: dict[tuple[int, int], int] = {}
_KEPT: dict[tuple[int, str], tuple[Any, dict[Any, Any]]] = {}


def _kept(sheet: Any, what: str) -> dict[Any, Any]:
    """Values read from the immutable ``sheet``, kept with a reference to it."""
    found = _KEPT.get((id(sheet), what))
    if found is None or found[0] is not sheet:
        if len(_KEPT) > 512:
            _KEPT.clear()
        found = (sheet, {})
        _KEPT[(id(sheet), what)] = found
    return found[1]


def damage_outcomes(setup: AttackSetup, attacker: Any) -> tuple[dict[tuple[int, bool], int], int]:
    """(damage, kept die a natural 10) -> count: ``roll_damage`` without Fury, every dice."""
    key = (
        setup.damage_dice,
        setup.weapon.damage,
        setup.extra_damage,
        tuple(sorted(attacker.bonuses().items())),
    )
    found = _DAMAGE.get(key)
    if found is None:
        dice = ScriptedDice()

        def rule(_: ScriptedDice) -> tuple[int, bool]:
            rolled = roll_damage(setup, attacker, dice, fury=False)
            return rolled.total, rolled.kept == 10

        found = weighted(outcomes(rule, dice=dice))
        if len(_DAMAGE) > 512:
            _DAMAGE.clear()
        _DAMAGE[key] = found
    return found


def fury_chain(setup: AttackSetup, depth: int) -> tuple[Weights, Weights]:
    """What a confirmed Ulric's Fury adds (``_ulrics_fury``, confirmed): complete chains, and
    chains cut at ``depth`` dice (the dice rolled so far)."""
    found = _CHAINS.get(depth)
    if found is None:
        confirmed = replace(setup, auto_hit=True)  # the confirmation is weighed apart
        dice = ScriptedDice(limit=depth)

        def rule(_: ScriptedDice) -> tuple[int, bool]:
            wfrp2_damage._ulrics_fury(confirmed, dice)
            return sum(dice.values[: min(dice.index, depth)]), dice.cut > 0

        counts, den = weighted(outcomes(rule, dice=dice))
        done = {v: c for (v, cut), c in counts.items() if not cut}
        cut = {v: c for (v, cut), c in counts.items() if cut}
        found = (Weights.from_counts(done, den), Weights.from_counts(cut, den))
        _CHAINS[depth] = found
    return found


def critical_value(target: str, value: int) -> int:
    """The critical value ``roll_critical`` records for ``value`` (its table's cap)."""
    key = (id(table(GAME, "criticals")), value)
    found = _CAPS.get(key)
    if found is None:
        found = roll_critical(target, value, "body", ScriptedDice([1])).value
        _CAPS[key] = found
    return found


class WFRPOdds:
    """What a WFRP 2e attack's odds need that does not depend on the modifier; ``at(target)``."""

    def __init__(self, request: AttackRequest, *, fury_depth: int = FURY_DEPTH) -> None:
        if fury_depth < 1:
            raise OddsError(Message("wfrp2.odds.fury_depth"))
        attacker, target = sheets(request)
        request = with_encounter_state(request)  # as the resolver: conditions, the sheet
        setup = attack_setup(request)
        self.request, self.setup = request, setup
        self.attacker, self.target_sheet = attacker, target
        options = options_of(request)
        self.choices, _ = reaction_choices(options.reaction, setup.attacks)
        self.fury = options.ulrics_fury
        self.fury_depth = fury_depth
        self.base = setup.base
        self.modifier = capped(setup.modifiers, None)
        self.target = self.base + self.modifier
        places = location_table(GAME)
        self.places = tuple(dict.fromkeys(places))
        self.place_index = np.array([self.places.index(place) for place in places])
        absorbed = _kept(target, "soak")
        self.absorbed: dict[str, int] = {}
        for location in dict.fromkeys(places):
            key = (location, setup.armour_multiplier, setup.armour_ignored)
            if key not in absorbed:
                absorbed[key] = soak(target, location, setup)[0]
            self.absorbed[location] = absorbed[key]
        self.wounds = target.wounds_current
        self.reactions: dict[str, Fraction] = {}
        for option in setup.reactions:
            if option.available:
                aim = option.base + capped(option.modifiers, None)
                self.reactions[option.name] = success_chance(aim)
        counts, den = damage_outcomes(setup, attacker)
        plain: dict[int, int] = {}
        called: dict[int, int] = {}
        for (value, ten), count in counts.items():
            into = called if (ten and self.fury) else plain
            into[value] = into.get(value, 0) + count
        self.plain = Weights.from_counts(plain, den)
        self.called = Weights.from_counts(called, den)
        self.chain, self.chain_cut = (
            fury_chain(setup, fury_depth) if called else (Weights.empty(), Weights.empty())
        )
        self.confirmed = self.called.conv(self.chain + self.chain_cut)
        self._odds: dict[int, Odds] = {}

    def raw(self, p: Fraction) -> tuple[Weights, Fraction]:
        """One blow's damage when a confirmation succeeds with chance ``p``, and the chance its
        Fury chain was cut at the depth (counted at the dice rolled so far)."""
        if self.called.is_empty:
            return self.plain, ZERO
        confirm = ONE if self.setup.auto_hit else p
        fury = self.confirmed.scaled(confirm)
        unconfirmed = self.called.scaled(ONE - confirm)
        cut = self.called.mass * self.chain_cut.mass * confirm
        return total([self.plain, unconfirmed, fury]), cut

    def at(self, target: int | None = None) -> Odds:
        """The odds with the test's target number ``target`` (default: the request's)."""
        target = self.target if target is None else max(0, target)  # below 1: all the same
        found = self._odds.get(target)
        if found is None:
            found = self._odds[target] = self._at(target)
        return found

    def _at(self, target: int) -> Odds:
        setup = self.setup
        p = success_chance(target)
        success, degrees = roll_arrays(target)
        hitting_rolls = np.ones(100, dtype=bool) if setup.auto_hit else success
        at_place = np.bincount(self.place_index[hitting_rolls], minlength=len(self.places))
        struck = {self.places[i]: int(n) for i, n in enumerate(at_place) if n}
        found, tally = np.unique(degrees[success], return_counts=True)
        by_degrees = {int(d): int(n) for d, n in zip(found, tally, strict=True)}
        hitting = int(hitting_rolls.sum())
        h = Fraction(hitting, 100)
        raw, cut = self.raw(p)
        blow = self._blow(raw, struck, hitting) if hitting else Weights.point(0)
        states, critical = self._run(h, blow)
        hit_mass: dict[int, Fraction] = {}
        for (_, landed), dist in states.items():
            hit_mass[landed] = hit_mass.get(landed, ZERO) + dist.mass
        lost = total(states.values())
        left = lost.reflected(self.wounds).floor_shift(0)  # wounds - lost, never below 0
        crossed = ONE - lost.at_most(self.wounds)
        critical = critical + Weights.point(0, ONE - critical.mass)
        name = self.target_sheet.name
        critical = critical.remap(lambda v: critical_value(name, v) if v else 0)
        events: dict[str, Fraction] = {
            "test": p if not setup.auto_hit else ONE,
            "hit": ONE - hit_mass.get(0, ZERO),
            "wounded": lost.at_least(1),
            "critically damaged": crossed,
        }
        notes: list[Text] = [Message("odds.note.ulrics_fury_depth", depth=self.fury_depth)]
        if cut:
            beyond = ONE - sum((w * (1 - cut) ** n for n, w in hit_mass.items()), ZERO)
            events["fury beyond depth"] = beyond
            notes.append(Message("odds.note.fury_cut_dice", chance=float(beyond)))
        details: dict[str, Dist[Any]] = {
            "degrees of success": (
                Dist({"automatic hit": 1}, 1)
                if setup.auto_hit
                else Dist({**by_degrees, "failure": 100 - sum(by_degrees.values())}, 100)
            ),
            "first hit damage": to_dist(raw),
            "first hit wounds": to_dist(blow),
            "critical value": to_dist(critical),
            "wounds left": to_dist(left),
        }
        if hitting:
            order = {loc: i for i, loc in enumerate(LOCATIONS)}
            placed = dict(sorted(struck.items(), key=lambda kv: order.get(kv[0], 99)))
            details["first hit location"] = Dist(placed, hitting)
        return Odds(
            game=GAME,
            hits=_dist(hit_mass),
            per_hit=to_dist(blow),
            wounds=to_dist(lost),
            damage=to_dist(lost),
            states=self._states(left),
            events=events,
            details=details,
            notes=tuple(notes),
        )

    def _blow(self, raw: Weights, struck: Mapping[str, int], hitting: int) -> Weights:
        """The wounds one landing blow costs: the damage less the soak where it lands."""
        by_soak: dict[int, int] = {}
        for location, count in struck.items():
            soaked = self.absorbed[location]
            by_soak[soaked] = by_soak.get(soaked, 0) + count
        den = raw.den * hitting
        width = max(1, raw.hi - min(by_soak) + 1)
        counts = np.zeros(width, dtype=dtype_for(den))
        for soaked, count in by_soak.items():
            part = raw.floor_shift(soaked)
            counts[part.lo : part.lo + len(part.counts)] += part.counts * count
        return Weights(0, counts, den)._reduced()

    def _run(self, h: Fraction, blow: Weights) -> tuple[dict[State, Weights], Weights]:
        """Attack after attack: wounds lost by (reactions spent, blows landed), and the value
        (uncapped) of the first critical hit."""
        wounds, bonus = self.wounds, self.setup.critical_bonus
        states: dict[State, Weights] = {(frozenset(), 0): Weights.point(0)}
        critical = Weights.empty()

        def put(into: dict[State, Weights], state: State, dist: Weights) -> None:
            if not dist.is_empty:
                into[state] = into[state] + dist if state in into else dist

        for choice in self.choices:
            after: dict[State, Weights] = {}
            for (spent, landed), dist in states.items():
                put(after, (spent, landed), dist.scaled(ONE - h))
                struck = dist.scaled(h)
                if choice is not None and choice not in spent and choice in self.reactions:
                    turned = self.reactions[choice]
                    spent = spent | {choice}
                    put(after, (spent, landed), struck.scaled(turned))
                    struck = struck.scaled(ONE - turned)
                below, above = struck.split(wounds)
                reached = below.conv(blow)
                critical = critical + reached.split(wounds)[1].shifted(bonus - wounds)
                put(after, (spent, landed + 1), reached + above.conv(blow))
            states = after
        return states, critical

    def _states(self, left: Weights) -> Dist[str]:
        """The target's wound state (its sheet's rule) with the wounds left."""
        sheet = self.target_sheet
        seen = _kept(sheet, "states")
        found: dict[str, int] = {}
        for wounds, count in reversed(list(left.items())):  # least harmful first
            state = seen.get(wounds)
            if state is None:
                state = seen[wounds] = wound_state_at(sheet, wounds)
            found[state] = found.get(state, 0) + count
        return Dist(found, left.den)


def _dist(found: Mapping[int, Fraction]) -> Dist[int]:
    return chances({k: v for k, v in sorted(found.items()) if v})


def wfrp2_odds(request: AttackRequest, *, fury_depth: int = FURY_DEPTH) -> Odds:
    """The exact odds of ``request`` (a WFRP 2e attack)."""
    return WFRPOdds(request, fury_depth=fury_depth).at()


def wfrp2_curve(
    request: AttackRequest, modifiers: Sequence[int] | None = None, *, fury_depth: int = FURY_DEPTH
) -> Curve:
    """The odds of ``request`` at each total modifier (default -60..+60), other things equal."""
    model = WFRPOdds(request, fury_depth=fury_depth)
    chosen = tuple(MODIFIERS if modifiers is None else modifiers)
    current = None if model.setup.auto_hit else model.modifier
    return Curve(chosen, tuple(model.at(model.base + m) for m in chosen), current)


__all__ = [
    "WFRPOdds",
    "critical_value",
    "damage_outcomes",
    "fury_chain",
    "wfrp2_curve",
    "wfrp2_odds",
]
