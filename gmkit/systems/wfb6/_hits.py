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
from functools import lru_cache
from typing import Literal

from gmkit.dice import DiceSource, DieRoll
from gmkit.errors import GmkitError, RulesError
from gmkit.messages import Message
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.systems._sixes import D6Test, roll_needed
from gmkit.systems.base import Step
from gmkit.systems.wfb6._battlefield import UnitOnTable, role_name
from gmkit.systems.wfb6._data import TargetingRules, attack_kind_term, targeting_rules

MemberKind = Literal["troops", "rank and file", "champion", "character"]


@dataclass(frozen=True)
class Share:
    """The hits one member takes: ``member`` labels it (in English: the key of tables and
    odds), ``label`` is that label as a message; ``target`` is the name an effect names (a
    character's, or the unit's for its troops); ``profile`` is the sheet its wounds use (the
    character's, or the unit's ``trooper``: None when the unit has none)."""

    member: str
    kind: MemberKind
    hits: int
    target: str
    profile: WFB6Character | None
    label: Message | None = None

    def __post_init__(self) -> None:
        if self.label is None:
            object.__setattr__(self, "label", Message.verbatim(self.member))

    @property
    def shown(self) -> Message:
        """The member's label, as a message."""
        return self.label if self.label is not None else Message.verbatim(self.member)

    def with_hits(self, hits: int) -> Share:
        return Share(self.member, self.kind, hits, self.target, self.profile, self.label)


@lru_cache(maxsize=4096)
def _english(label: Message) -> str:
    """``str(label)``, rendered once per label (a message is immutable and hashable)."""
    return str(label)


def _labelled(
    label: Message, kind: MemberKind, hits: int, target: str, profile: WFB6Character | None
) -> Share:
    return Share(_english(label), kind, hits, target, profile, label)


def troops_share(unit: UnitOnTable, hits: int) -> Share:
    """The unit's rank and file taking ``hits`` together (its ``trooper``'s profile)."""
    label = Message("wfb6.member.troops", unit=unit.name)
    return _labelled(label, "troops", hits, unit.name, unit.trooper)


def champion_share(unit: UnitOnTable, champion: WFB6Character, hits: int) -> Share:
    """A champion of ``unit`` named by its sheet, taking ``hits`` (its own profile)."""
    label = Message("wfb6.member.named_champion", unit=unit.name, champion=champion.name)
    return _labelled(label, "champion", hits, unit.name, champion)


def character_share(character: WFB6Character, hits: int) -> Share:
    return Share(character.name, "character", hits, character.name, character)


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
        _labelled(
            Message("wfb6.member.rank_and_file", unit=unit.name, number=n),
            "rank and file",
            0,
            unit.name,
            unit.trooper,
        )
        for n in range(1, unit.rank_and_file + 1)
    ]
    found += [
        _labelled(
            Message("wfb6.member.champion", unit=unit.name, number=n),
            "champion",
            0,
            unit.name,
            unit.trooper,
        )
        for n in range(1, unit.champions + 1)
    ]
    found += [character_share(c, 0) for c in unit.characters]
    return tuple(found)


def allocate_hits(
    unit: UnitOnTable,
    hits: int,
    source: DiceSource,
    *,
    target: WFB6Character | None = None,
    distinct: bool = True,
    rules: TargetingRules | None = None,
    explain: bool = True,
) -> Allocation:
    """Share ``hits`` among ``unit``'s models; ``target`` is the model designated, when a
    character larger than the unit was. Random picks come from ``source``. ``explain=False``
    leaves out the steps of hits shared at random (the odds read only the shares and the
    rolls): the same shares, the same dice asked for."""
    rules = rules or targeting_rules()
    if hits < 0:
        raise RulesError(Message("wfb6.hits.negative", hits=hits))
    if unit.models == 0:
        raise GmkitError(Message("wfb6.hits.no_models", unit=unit.name))
    title = Message("wfb6.hits.title", unit=unit.name)
    if target is not None and target.role == "character" and target.size_rank > unit.size:
        share = character_share(target, hits)
        why = Message("wfb6.hits.larger_targeted", target=target.name, unit=unit.name)
        outcome = Message("wfb6.hits.on", hits=hits, target=target.name)
        return Allocation(unit.name, hits, (share,), (Step(title, outcome, why),))
    if unit.troops >= rules.unit_models:
        share = troops_share(unit, hits)
        why = Message("wfb6.hits.unit_takes_all", troops=unit.troops, needed=rules.unit_models)
        step = Step(title, Message("wfb6.hits.on_rank_and_file", hits=hits), why)
        return Allocation(unit.name, hits, (share,), (step,))
    pool = members(unit)
    each, excess = divmod(hits, len(pool))
    counts = [each] * len(pool)
    steps: list[Step] = []
    if explain:
        why = Message(
            "wfb6.hits.shared",
            troops=unit.troops,
            needed=rules.unit_models,
            hits=hits,
            models=len(pool),
            each=each,
            excess=excess,
        )
        steps.append(Step(title, Message("wfb6.hits.each", each=each, excess=excess), why))
    candidates = list(range(len(pool)))
    for number in range(1, excess + 1):
        listing = (
            tuple(
                Message("wfb6.hits.candidate", number=i, member=pool[c].shown)
                for i, c in enumerate(candidates, start=1)
            )
            if explain
            else ()
        )
        purpose = Message("wfb6.purpose.left_over", number=number, excess=excess)
        roll = source.roll_die(len(candidates), purpose)
        picked = candidates[roll.value - 1]
        counts[picked] += 1
        if distinct:
            candidates.remove(picked)
        if not explain:
            continue
        steps.append(
            Step(
                Message("wfb6.hits.left_over", number=number),
                Message("wfb6.hits.left_over_on", member=pool[picked].shown),
                Message(
                    "wfb6.hits.left_over_roll",
                    sides=roll.sides,
                    value=roll.value,
                    candidates=listing,
                ),
                rolls=(roll,),
            )
        )
    shares = tuple(share.with_hits(count) for share, count in zip(pool, counts, strict=True))
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
    title = Message("wfb6.look_out_sir.title", model=model.name)
    refusal = _refusal(model, unit, kind.look_out_sir or spell_allows, attack, rules)
    if refusal is not None or unit is None:
        why = refusal or Message("wfb6.look_out_sir.alone")
        step = Step(title, Message("wfb6.look_out_sir.not_allowed"), why)
        return LookOutSir(model.name, False, False, model.name, None, (step,))
    needed = rules.look_out_sir.needed
    purpose = Message("wfb6.purpose.look_out_sir", model=model.name)
    test = roll_needed(needed, source, purpose)
    if test.success:
        outcome = Message("wfb6.look_out_sir.dodged", unit=unit.name)
        why = Message(
            "wfb6.look_out_sir.passed", troops=unit.troops, unit=unit.name, test=test.explanation
        )
        step = Step(title, outcome, why, rolls=test.rolls, target=needed)
        return LookOutSir(model.name, True, True, unit.name, test, (step,))
    why = Message(
        "wfb6.look_out_sir.roll", troops=unit.troops, unit=unit.name, test=test.explanation
    )
    outcome = Message("wfb6.look_out_sir.failed")
    step = Step(title, outcome, why, rolls=test.rolls, target=needed)
    return LookOutSir(model.name, True, False, model.name, test, (step,))


def larger_than_unit(model: WFB6Character, unit: UnitOnTable, *, larger: bool = True) -> Message:
    """Why ``model`` is (or is not) larger than ``unit``: their sizes on the ladder."""
    return Message(
        "wfb6.size.larger" if larger else "wfb6.size.not_larger",
        model=model.name,
        size=model.size_rank,
        unit=unit.name,
        unit_size=unit.size,
    )


def _refusal(
    model: WFB6Character,
    unit: UnitOnTable | None,
    applies: bool,
    attack: str,
    rules: TargetingRules,
) -> Message | None:
    if unit is None:
        return Message("wfb6.look_out_sir.not_in_unit", model=model.name)
    if model.role not in ("character", "champion"):
        return Message("wfb6.look_out_sir.not_a_character", role=role_name(model.role))
    if not applies:
        return Message("wfb6.look_out_sir.not_a_template", attack=attack_kind_term(attack))
    if model.size_rank > unit.size:
        return larger_than_unit(model, unit)
    if unit.troops < rules.look_out_sir.troops:
        return Message(
            "wfb6.look_out_sir.too_few",
            unit=unit.name,
            troops=unit.troops,
            needed=rules.look_out_sir.troops,
        )
    return None
