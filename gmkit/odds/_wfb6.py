"""Exact odds of a Warhammer Fantasy Battle 6e shot, from the rules the resolver uses.

The resolver's own steps give every number (:func:`gmkit.systems.wfb6.resolve_attack`):

- targeting: :func:`~gmkit.systems.wfb6._targeting.may_target` (a refused target: no hit, the
  reason in ``notes``; unless the GM allows the shot, ``gm_allows_shot``, as the resolver);
- to hit: the resolver's to-hit step, run with a :class:`~gmkit.dice.ScriptedDice` probe, says
  whether dice are rolled, against which score (``shot_modifiers`` and the target's modifiers
  through ``to_hit_needed``) and with which modifiers; templates, automatic hits, "move or
  fire" and targets out of range give a certain number of hits. Each shot hits with
  :func:`~gmkit.systems._sixes.chance`;
- who takes the hits: the resolver's allocation (:func:`~gmkit.systems.wfb6._hits.allocate_hits`
  or "Look out, Sir!"), run with a probe for each number of hits: the hits each model takes
  for certain, and how many are left over at random among how many models (one each, or any
  model again when ``excess_distinct`` is False); a "Look out, Sir!" roll is run over each
  face of its die;
- to wound and the armour save: :func:`~gmkit.systems._sixes.to_wound_needed` by S against T,
  and the save less the modifiers of ``shooting_rules().save_modifiers`` (by Strength and the
  weapon's rules) as the resolver's wound step takes them (none past 6+, never better than
  2+); each hit on a model is an unsaved wound with chance ``wound * (1 - save)``.

Slain: a single model is slain by wounds reaching its W; the rank and file of a unit lose one
model per W wounds, never more models than the unit has (the resolver reports wounds; the
encounter removes models). Wounds already lost are not known to the resolver: W is the
sheet's.

``Odds.states``: ``no hit``, ``no wound`` (hit, every hit failed to wound or was saved),
``wounded, not slain``, ``slain`` (at least one model slain). Events: ``hit``, ``wounded``
(at least one unsaved wound, slain or not), ``slain``, ``look out sir`` (the roll passed: the
hit went to the rank and file). Details: ``models slain``; ``hit on`` for templates (which
model takes the hit).

Why over 400 lines: the odds of a shot and of the hits' allocation inside a unit (with "Look
out, Sir!") are one chain; the rules they read are in ``gmkit.systems.wfb6``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, lcm
from typing import Any

from gmkit.dice import ScriptedDice
from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.odds._core import ONE, ZERO, Curve, Dist, MemberOdds, Odds
from gmkit.odds._sixes import MODIFIERS, needed_at, total_of
from gmkit.sheets._wfb6 import Weapon, WFB6Character, resolve_strength
from gmkit.systems._sixes import chance, to_wound_needed
from gmkit.systems.base import AttackRequest, Step
from gmkit.systems.wfb6._battlefield import UnitOnTable
from gmkit.systems.wfb6._data import AttackKind, ShootingRules, shooting_rules, targeting_rules
from gmkit.systems.wfb6._hits import Share
from gmkit.systems.wfb6._shooting import (
    no_trooper,
    refused_summary,
    sheet_of,
    situation_of,
    targeting_ruling,
    to_hit,
    who_takes_the_hits,
)
from gmkit.systems.wfb6._targeting import find_weapon

GAME = "wfb6"
STATES: tuple[str, ...] = ("no hit", "no wound", "wounded, not slain", "slain")

__all__ = ["GAME", "STATES", "Attack", "prepare", "wfb6_curve", "wfb6_odds"]


@dataclass(frozen=True)
class _Member:
    """A model (or a unit's rank and file) that can take hits, as the resolver labels it."""

    name: str
    target: str
    models: int | None
    wounds_each: int
    unsaved: Fraction  # the chance that one hit on it is an unsaved wound

    def slain(self, wounds: int) -> int:
        if self.models == 1:
            return int(wounds >= self.wounds_each)
        slain = wounds // self.wounds_each
        return slain if self.models is None else min(slain, self.models)


@dataclass(frozen=True)
class _Split:
    """How a number of hits falls: ``base`` hits on each member for certain, ``extra`` more at
    random among all of them (``distinct``: one each)."""

    members: tuple[str, ...]
    base: tuple[int, ...]
    extra: int = 0
    distinct: bool = True


@dataclass
class _Given:
    """What a number of hits leads to."""

    joint: Dist[tuple[int, int]]  # (unsaved wounds in all, models slain in all)
    members: dict[str, Dist[tuple[int, int]]]  # label -> (hits, unsaved wounds)
    hit_on: Dist[str] | None  # the template's model
    dodged: Fraction  # "Look out, Sir!" passed


@dataclass
class Attack:
    """A shot ready for its odds: the to-hit roll, and where each number of hits leads."""

    request: AttackRequest
    target: WFB6Character
    kind: AttackKind | None
    refused: Message | None = None  # why the target may not be shot at
    rolled: bool = False
    skill: int = 0
    needed: int | None = None
    shots: int = 0
    fixed_hits: int = 0
    current: int | None = None
    unit: UnitOnTable | None = None
    strength: int = 0
    weapon: Weapon | None = None
    rules: ShootingRules | None = None  # shooting.yaml, read once
    members: dict[str, _Member] = field(default_factory=dict)
    given: dict[int, _Given] = field(default_factory=dict)
    unsaved: dict[int, Fraction] = field(default_factory=dict)  # id(profile) -> chance
    allocations: dict[int, tuple[tuple[Share, ...], tuple[Step, ...], ScriptedDice]] = field(
        default_factory=dict
    )

    def hits(self, total: int | None = None) -> Dist[int]:
        """The number of hits, at the total to-hit modifier ``total`` (None: the shot's own)."""
        if not self.rolled:
            return Dist.certain(self.fixed_hits)
        needed = self.needed if total is None else needed_at(self.skill, total)
        return Dist.binomial(self.shots, chance(needed))

    # -- who takes the hits ---------------------------------------------------------------

    def _member(self, share: Share) -> str:
        """The member a share names, added to the table with its chance of an unsaved wound."""
        if share.member in self.members:
            return share.member
        target = self.target
        profile = share.profile or (target if target.role != "character" else None)
        if profile is None:
            raise no_trooper(share)
        if id(profile) not in self.unsaved:
            self.unsaved[id(profile)] = self._unsaved(profile)
        if share.kind == "troops":
            models = self.unit.troops if self.unit is not None else None
        else:
            models = 1
        self.members[share.member] = _Member(
            share.member, share.target, models, max(profile.W, 1), self.unsaved[id(profile)]
        )
        return share.member

    def _unsaved(self, profile: WFB6Character) -> Fraction:
        """The chance one hit on ``profile`` is an unsaved wound, as the resolver's wound step
        rolls it: to wound by S against T; the armour save less the modifiers by Strength and
        the weapon's rules (``shooting.yaml``), none past 6+, never better than 2+."""
        wound = chance(to_wound_needed(self.strength, profile.T))
        if profile.armour_save is None:
            return wound
        assert self.rules is not None
        assert self.weapon is not None
        modifiers = self.rules.save_modifiers(self.strength, self.weapon)
        needed = profile.armour_save - total_of(modifiers)
        if needed > 6:
            return wound
        return wound * (ONE - chance(max(needed, 2)))

    def _split(self, shares: Sequence[Share], extra: int = 0, distinct: bool = True) -> _Split:
        names = tuple(
            self._member(share) if share.hits or extra else share.member for share in shares
        )
        return _Split(names, tuple(share.hits for share in shares), extra, distinct)

    def _allocation(self, hits: int) -> tuple[tuple[Share, ...], tuple[Step, ...], ScriptedDice]:
        """The resolver's allocation of ``hits`` with a probe (every die shows 1)."""
        if hits not in self.allocations:
            assert self.kind is not None
            probe = ScriptedDice()
            shares, steps = who_takes_the_hits(  # the steps of a template's roll only
                self.request, self.kind, self.unit, hits, probe, explain=False
            )
            self.allocations[hits] = (shares, steps, probe)
        return self.allocations[hits]

    def _splits(self, hits: int) -> tuple[Dist[_Split], Fraction]:
        """How ``hits`` fall (the resolver's allocation), and the chance "Look out, Sir!"
        passes."""
        assert self.kind is not None
        shares, steps, probe = self._allocation(hits)
        if not probe.history:
            return Dist.certain(self._split(shares)), ZERO
        if self.kind.to_hit == "template":  # one D6 roll: "Look out, Sir!"
            needed = next(step.target for step in steps if step.rolls)
            passed = chance(needed)
            dodged, _ = who_takes_the_hits(
                self.request, self.kind, self.unit, hits, ScriptedDice([6])
            )
            split = {True: self._split(dodged), False: self._split(shares)}
            return Dist.bernoulli(passed).map(split.__getitem__), passed
        # hits left over, one die each among the candidates: d(n), then d(n-1) when distinct
        extra = len(probe.history)
        candidates = probe.history[0].sides
        distinct = extra == 1 or probe.history[1].sides == candidates - 1
        base, _, even = self._allocation(hits - extra)
        if even.history or len(base) != candidates:  # pragma: no cover - allocation changed
            raise GmkitError(Message("wfb6.odds.allocation_changed"))
        return Dist.certain(self._split(base, extra, distinct)), ZERO

    def given_hits(self, hits: int) -> _Given:
        if hits not in self.given:
            splits, dodged = self._splits(hits)
            joint = splits.given(self._joint)
            labels = {name for split in splits for name in split.members}
            members = {name: splits.given(self._marginal_of(name)) for name in labels}
            hit_on = None
            if self.kind is not None and self.kind.to_hit == "template":
                hit_on = splits.map(
                    lambda split: next(
                        (n for n, b in zip(split.members, split.base, strict=True) if b),
                        "nobody",
                    )
                )
            self.given[hits] = _Given(joint, members, hit_on, dodged)
        return self.given[hits]

    def _joint(self, split: _Split) -> Dist[tuple[int, int]]:
        """(unsaved wounds, models slain) in all: every member's wounds, the left-over hits
        over every way they can fall, with integer counts over one denominator."""
        members = [self.members.get(name) for name in split.members]
        chances = [member.unsaved for member in members if member is not None]
        common = lcm(*(c.denominator for c in chances)) if chances else 1
        extra = split.extra
        states: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
        for member, base in zip(members, split.base, strict=True):
            if member is None or (base == 0 and extra == 0):
                continue
            success = member.unsaved.numerator * (common // member.unsaved.denominator)
            failure = common - success
            # for each number of hits on the member: (wounds, ways, models slain) per wounds
            most = base + (min(1, extra) if split.distinct else extra)
            outcomes = {
                hits: [
                    (w, ways, member.slain(w))
                    for w in range(hits + 1)
                    if (ways := comb(hits, w) * success**w * failure ** (hits - w))
                ]
                for hits in range(base, most + 1)
            }
            after: dict[tuple[int, int, int], int] = {}
            for (used, wounds, slain), count in states.items():
                more = (
                    range(min(1, extra - used) + 1) if split.distinct else range(extra - used + 1)
                )
                for added in more:
                    weight = count * (1 if split.distinct else comb(extra - used, added))
                    done = used + added
                    for w, ways, killed in outcomes[base + added]:
                        key = (done, wounds + w, slain + killed)
                        after[key] = after.get(key, 0) + weight * ways
            states = after
        hits = sum(split.base) + extra
        ways_extra = 1
        if extra:
            candidates = len(split.members)
            ways_extra = comb(candidates, extra) if split.distinct else candidates**extra
        joint = {(w, s): c for (used, w, s), c in states.items() if used == extra}
        return Dist(joint, common**hits * ways_extra)

    def _marginal_of(self, name: str) -> Callable[[_Split], Dist[tuple[int, int]]]:
        """:meth:`_marginal` of the member ``name``, as a function of the split."""

        def marginal(split: _Split) -> Dist[tuple[int, int]]:
            return self._marginal(split, name)

        return marginal

    def _marginal(self, split: _Split, name: str) -> Dist[tuple[int, int]]:
        """(hits, unsaved wounds) of one member."""
        member = self.members.get(name)
        if member is None or name not in split.members:
            return Dist.certain((0, 0))
        base = split.base[split.members.index(name)]
        if split.extra == 0:
            hits: Dist[int] = Dist.certain(base)
        elif split.distinct:
            candidates = len(split.members)
            hits = Dist({base + 1: split.extra, base: candidates - split.extra}, candidates)
        else:
            added = Dist.binomial(split.extra, Fraction(1, len(split.members)))
            hits = added.map(lambda more: base + more)
        return hits.thin(member.unsaved)


def prepare(request: AttackRequest) -> Attack:
    """The resolver's targeting and to-hit step, read once (what a curve keeps)."""
    attacker = sheet_of(request.attacker, "attacker")
    target = sheet_of(request.target, "target")
    weapon = find_weapon(attacker, request.weapon)
    kind = targeting_rules().kind_of(weapon, request.mode)
    situation = situation_of(request, attacker)
    ruling = targeting_ruling(request, target, situation, kind)
    if not ruling:
        return Attack(request, target, None, refused=refused_summary(target, ruling))
    probe = ScriptedDice()
    fixed, step = to_hit(request, kind, weapon, situation, ruling, probe)
    rolled = step.target is not None
    return Attack(
        request,
        target,
        kind,
        rolled=rolled,
        skill=attacker.BS,
        needed=step.target,
        shots=weapon.shots if rolled else 0,
        fixed_hits=0 if rolled else fixed,
        current=total_of(step.modifiers) if rolled else None,
        unit=situation.unit_of(target),
        strength=resolve_strength(weapon.strength, attacker.S),
        weapon=weapon,
        rules=shooting_rules(),
    )


def _state(hits: int, wounds: int, slain: int) -> str:
    if not hits:
        return "no hit"
    if slain:
        return "slain"
    return "wounded, not slain" if wounds else "no wound"


def _refused(attack: Attack) -> Odds:
    none = Dist.certain(0)
    return Odds(
        game=GAME,
        hits=none,
        per_hit=none,
        wounds=none,
        damage=none,
        states=Dist.certain("no hit").with_keys(STATES),
        events={"hit": ZERO, "wounded": ZERO, "slain": ZERO, "look out sir": ZERO},
        details={"models slain": none},
        notes=(str(attack.refused),),  # English: Odds.notes holds text
    )


def _assemble(attack: Attack, hits: Dist[int]) -> Odds:
    if attack.refused is not None:
        return _refused(attack)
    given = {h: attack.given_hits(h) for h, count in hits.counts.items() if h and count}
    nothing = Dist.certain((0, 0, 0))
    whole = hits.given(
        lambda h: given[h].joint.map(lambda key: (h, *key)) if h in given else nothing
    )
    labels = [name for name in attack.members if any(name in g.members for g in given.values())]
    absent = Dist.certain((0, 0))
    members = []
    for name in labels:
        member = attack.members[name]

        def taken(h: int, name: str = name) -> Dist[tuple[int, int]]:
            return given[h].members.get(name, absent) if h in given else absent

        marginal = hits.given(taken)
        # its hits, wounds and models slain in one pass (as ``map`` gives each: the same
        # counts, the outcomes in the same order)
        by_hits: dict[int, int] = {}
        by_wounds: dict[int, int] = {}
        by_slain: dict[int, int] = {}
        for (hit, wound), count in marginal.counts.items():
            by_hits[hit] = by_hits.get(hit, 0) + count
            by_wounds[wound] = by_wounds.get(wound, 0) + count
            slain = member.slain(wound)
            by_slain[slain] = by_slain.get(slain, 0) + count
        den = marginal.denominator
        members.append(
            MemberOdds(
                member.name,
                member.target,
                member.models,
                member.wounds_each,
                Dist(by_hits, den),
                Dist.bernoulli(member.unsaved).map(int),
                Dist(by_wounds, den),
                Dist(by_slain, den),
            )
        )
    whole_wounds: dict[int, int] = {}
    whole_slain: dict[int, int] = {}
    whole_states: dict[str, int] = {}
    wounded = slain_count = 0
    for key, count in whole.counts.items():  # one pass, as the maps would give each
        whole_wounds[key[1]] = whole_wounds.get(key[1], 0) + count
        whole_slain[key[2]] = whole_slain.get(key[2], 0) + count
        state = _state(*key)
        whole_states[state] = whole_states.get(state, 0) + count
        if key[1] > 0:
            wounded += count
        if key[2] > 0:
            slain_count += count
    den = whole.denominator
    wounds = Dist(whole_wounds, den)
    details: dict[str, Dist[Any]] = {"models slain": Dist(whole_slain, den)}
    dodged = ZERO
    if attack.kind is not None and attack.kind.to_hit == "template" and given:
        nobody = Dist.certain("nobody")

        def hit_on(h: int) -> Dist[str]:
            found = given[h].hit_on if h in given else None
            return found if found is not None else nobody

        details["hit on"] = hits.given(hit_on)
        dodged = sum((hits.p(h) * g.dodged for h, g in given.items()), ZERO)
    return Odds(
        game=GAME,
        hits=hits,
        per_hit=_per_hit(members),
        wounds=wounds,
        damage=wounds,
        states=Dist(whole_states, den).with_keys(STATES),
        events={
            "hit": ONE - hits.p(0),
            "wounded": Fraction(wounded, den),
            "slain": Fraction(slain_count, den),
            "look out sir": dodged,
        },
        members=tuple(members),
        details=details,
    )


def _per_hit(members: Sequence[MemberOdds]) -> Dist[int]:
    """A hit picked at random among the hits: each member weighted by its expected hits."""
    expected = [member.hits.mean() for member in members]
    common = lcm(*(e.denominator for e in expected)) if expected else 1
    weights = [int(e * common) for e in expected]
    if not sum(weights):
        return Dist.certain(0)
    parts = [(w, m.per_hit) for w, m in zip(weights, members, strict=True)]
    return Dist.mixture(parts, sum(weights)).reduced()


def wfb6_odds(request: AttackRequest) -> Odds:
    """The exact odds of one model's shooting at ``request.target``."""
    attack = prepare(request)
    return _assemble(attack, attack.hits() if attack.refused is None else Dist.certain(0))


def wfb6_curve(request: AttackRequest, modifiers: Sequence[int] | None = None) -> Curve:
    """The odds at each total to-hit modifier (default -4..+4): the total replaces the sum of
    the shot's and the target's modifiers. Hits that need no roll give a flat curve."""
    attack = prepare(request)
    points = tuple(MODIFIERS if modifiers is None else modifiers)
    odds = tuple(
        _assemble(attack, attack.hits(total) if attack.refused is None else Dist.certain(0))
        for total in points
    )
    return Curve(points, odds, attack.current)
