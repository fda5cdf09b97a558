"""Warhammer Fantasy Battle 6e: which models of a unit take its hits (seed 003).

- :func:`allocate_hits`: hits on a unit with characters, decided before any roll to wound. A
  character larger than its unit may be designated and takes the hits aimed at it. Otherwise a
  unit of 5+ rank-and-file models (champions count, characters do not) takes every hit; a
  smaller one shares them evenly among all its members, characters and champions included,
  and the hits left over go at random among all the members (the text's rule, which the seed
  puts before its example's "among the survivors").
- :func:`look_out_sir`: a character or champion hit by a template (catapult, cannon, breath,
  template spell, or a spell that says so) in a unit of 5+ models of its size or larger
  (characters do not count, champions and the command group do) rolls a D6: on a 2+ the hit
  goes to a rank-and-file model instead, even when the unit then takes more hits than it has
  models; on a 1 the model takes it.

Where the texts are silent:

- The excess hits go to different members, one each, so the sharing stays as even as it can
  (``distinct=False`` rolls every excess hit among all the members instead). The same holds
  when there are fewer hits than members ("assigned at random").
- A random member is one roll of a die with as many sides as there are candidates (a d5 among
  five models, then a d4 among the four left): the GM rolls it as the table likes (a D6
  re-rolling sixes, ...) and types the result. Members are numbered in the order: rank and
  file, champions, then characters as listed in the unit.
- A character larger than a unit of fewer than 5 still shares the unit's hits when the unit
  itself is shot at ("all its members").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gmkit.dice import DiceSource, DieRoll
from gmkit.errors import GmkitError
from gmkit.sheets.wfb6 import WFB6Character
from gmkit.systems.base import Step
from gmkit.systems.sixes import D6Test, roll_needed
from gmkit.systems.wfb6.battlefield import UnitOnTable
from gmkit.systems.wfb6.data import TargetingRules, targeting_rules

MemberKind = Literal["troops", "rank and file", "champion", "character"]


@dataclass(frozen=True)
class Share:
    """The hits one member takes: ``member`` labels it; ``target`` is the name an effect
    names (a character's, or the unit's for its troops); ``profile`` is the sheet its wounds
    use (the character's, or the unit's ``trooper``: None when the unit has none)."""

    member: str
    kind: MemberKind
    hits: int
    target: str
    profile: WFB6Character | None


@dataclass(frozen=True)
class Allocation:
    """How ``hits`` on ``unit`` were shared: one :class:`Share` per member, and why."""

    unit: str
    hits: int
    shares: tuple[Share, ...]
    steps: tuple[Step, ...]

    def hits_on(self, member: str) -> int:
        """The hits the member labelled (or named) ``member`` takes."""
        return sum(share.hits for share in self.shares if member in (share.member, share.target))

    @property
    def table(self) -> dict[str, int]:
        """Member label -> hits taken, in member order."""
        return {share.member: share.hits for share in self.shares}

    @property
    def rolls(self) -> tuple[DieRoll, ...]:
        return tuple(roll for step in self.steps for roll in step.rolls)


def members(unit: UnitOnTable) -> tuple[Share, ...]:
    """Every model of ``unit`` with no hits yet, in the order random rolls number them."""
    found: list[Share] = [
        Share(f"{unit.name} (rank and file {n})", "rank and file", 0, unit.name, unit.trooper)
        for n in range(1, unit.rank_and_file + 1)
    ]
    found += [
        Share(f"{unit.name} (champion {n})", "champion", 0, unit.name, unit.trooper)
        for n in range(1, unit.champions + 1)
    ]
    found += [Share(c.name, "character", 0, c.name, c) for c in unit.characters]
    return tuple(found)


def allocate_hits(
    unit: UnitOnTable,
    hits: int,
    source: DiceSource,
    *,
    target: WFB6Character | None = None,
    distinct: bool = True,
    rules: TargetingRules | None = None,
) -> Allocation:
    """Share ``hits`` among ``unit``'s models; ``target`` is the model designated, when a
    character larger than the unit was. Random picks come from ``source``."""
    rules = rules or targeting_rules()
    if hits < 0:
        raise ValueError(f"hits must not be negative (got {hits})")
    if unit.models == 0:
        raise GmkitError(f"{unit.name} has no models left to take hits")
    title = f"Hits on {unit.name}"
    if target is not None and target.role == "character" and target.size_rank > unit.size:
        share = Share(target.name, "character", hits, target.name, target)
        why = f"{target.name} is larger than {unit.name} and was targeted: it takes them all"
        return Allocation(
            unit.name, hits, (share,), (Step(title, f"{hits} on {target.name}", why),)
        )
    if unit.troops >= rules.unit_models:
        share = Share(f"{unit.name} (rank and file)", "troops", hits, unit.name, unit.trooper)
        why = (
            f"{unit.troops} rank-and-file models (champions count, characters do not): "
            f"{rules.unit_models}+ take every hit"
        )
        step = Step(title, f"{hits} on the rank and file", why)
        return Allocation(unit.name, hits, (share,), (step,))
    pool = members(unit)
    each, excess = divmod(hits, len(pool))
    counts = [each] * len(pool)
    why = (
        f"{unit.troops} rank-and-file models (< {rules.unit_models}): {hits} hits shared among "
        f"{len(pool)} models, {each} each, {excess} at random among all of them"
    )
    steps = [Step(title, f"{each} on each model, {excess} left over", why)]
    candidates = list(range(len(pool)))
    for number in range(1, excess + 1):
        listing = ", ".join(f"{i}={pool[c].member}" for i, c in enumerate(candidates, start=1))
        purpose = f"left-over hit {number} of {excess}"
        roll = source.roll_die(len(candidates), purpose)
        picked = candidates[roll.value - 1]
        counts[picked] += 1
        if distinct:
            candidates.remove(picked)
        steps.append(
            Step(
                f"Left-over hit {number}",
                f"on {pool[picked].member}",
                f"d{roll.sides}={roll.value} among {listing}",
                rolls=(roll,),
            )
        )
    shares = tuple(
        Share(share.member, share.kind, count, share.target, share.profile)
        for share, count in zip(pool, counts, strict=True)
    )
    return Allocation(unit.name, hits, shares, tuple(steps))


@dataclass(frozen=True)
class LookOutSir:
    """A "Look out, Sir!" check: whether ``model`` could take it, the roll, who is hit."""

    model: str
    eligible: bool
    dodged: bool
    hit_on: str  # the model's name, or the unit's when a rank-and-file model takes the hit
    test: D6Test | None
    steps: tuple[Step, ...]

    @property
    def rolls(self) -> tuple[DieRoll, ...]:
        return self.test.rolls if self.test else ()


def look_out_sir(
    model: WFB6Character,
    unit: UnitOnTable | None,
    source: DiceSource,
    attack: str = "template",
    *,
    spell_allows: bool = False,
    rules: TargetingRules | None = None,
) -> LookOutSir:
    """The check for ``model`` hit by an ``attack`` of that kind while in ``unit`` (None:
    alone). ``spell_allows``: the spell says "Look out, Sir!" applies. Rolls only when
    eligible."""
    rules = rules or targeting_rules()
    kind = rules.kind(attack)
    title = f'"Look out, Sir!" for {model.name}'
    refusal = _refusal(model, unit, kind.look_out_sir or spell_allows, attack, rules)
    if refusal or unit is None:
        step = Step(title, "not allowed: it takes the hit", refusal or "it is alone")
        return LookOutSir(model.name, False, False, model.name, None, (step,))
    needed = rules.look_out_sir.needed
    test = roll_needed(needed, source, f'"Look out, Sir!" for {model.name}')
    why = f"{unit.troops} models of its size or larger in {unit.name}; {test.explanation}"
    if test.success:
        outcome = f"dodged: a rank-and-file model of {unit.name} takes the hit"
        why += "; the hit goes to the rank and file even beyond the unit's number of models"
        step = Step(title, outcome, why, rolls=test.rolls, target=needed)
        return LookOutSir(model.name, True, True, unit.name, test, (step,))
    step = Step(title, "failed: it takes the hit", why, rolls=test.rolls, target=needed)
    return LookOutSir(model.name, True, False, model.name, test, (step,))


def _refusal(
    model: WFB6Character,
    unit: UnitOnTable | None,
    applies: bool,
    attack: str,
    rules: TargetingRules,
) -> str:
    if unit is None:
        return f"{model.name} is not in a unit"
    if model.role not in ("character", "champion"):
        return f"only characters and champions may take it, not a {model.role} model"
    if not applies:
        return f"a {attack} is resolved as normal shooting; only templates allow it"
    if model.size_rank > unit.size:
        return f"{model.name} (size {model.size_rank}) is larger than {unit.name} ({unit.size})"
    if unit.troops < rules.look_out_sir.troops:
        return (
            f"{unit.name} has {unit.troops} rank-and-file models (characters do not count); "
            f"it needs {rules.look_out_sir.troops}"
        )
    return ""
