"""The dice an attack needs, known before they are rolled: :func:`plan_dice` and its
:class:`DicePlan`, worked out by probing the pure rules (no game's rule here).

The rules ask for dice one at a time (:class:`~gmkit.errors.NeedDie`), so a table typing its
dice, or a GM calling :meth:`Encounter.try_attack` with ``EnteredDice``, learned them one die
at a time. The plan tells them up front:

- ``dice``: the dice certain to be needed, in order (after the values already known, which
  it starts with): a d100 to hit; once it is typed, the damage dice of every hit it gave.
- ``follow``: what may come after them, kind by kind in the order they first come, each with
  why (:class:`FollowUp`): "if the d100 to hit shows 1-43: d10 damage (hit 1)", "if the d10
  damage (hit 1) shows 10: up to 20 d100 Righteous Fury confirmation (hit 1)".

How it is found: the attack is resolved with probe dice showing, per kind of die (its sides
and purpose), the lowest, a middle or the highest face; the dice every probe asks for first are
certain, the longest probe (changing one kind's face at a time to lengthen it) bounds what may
follow. Why a kind comes is found on that longest run: the dice before its first die are
tried on every face, the latest first, until one changes whether it is asked; the faces that
bring it are its condition. A die rolled with others of its kind at once (Tearing's three
d10) is tried with the others on their lowest face: "if one of the d10 damage shows 10".

A kind's ``most`` is how many the longest run asked for; ``open`` says the rules may go on
past the probes' bound (a chain).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from gmkit.dice.sources import ScriptedDice
from gmkit.games import game as find_game
from gmkit.messages import Message, Text, render
from gmkit.systems.base import AttackRequest


@dataclass(frozen=True, slots=True)
class PlannedDie:
    """One die the rules ask for: its ``sides`` and its ``purpose`` (a message)."""

    sides: int
    purpose: Text

    @property
    def die(self) -> str:
        return f"d{self.sides}"

    def label(self, language: str = "en") -> str:
        """The die and its purpose, as a box shows it: "d100 · to hit"."""
        return f"{self.die} · {render(self.purpose, language)}"

    @property
    def roll(self) -> Text:
        """The purpose of the roll it belongs to: a numbered die of several ("damage (hit 1)
        die 2") is its roll's ("damage (hit 1)")."""
        return _roll_of(self.purpose)


@dataclass(frozen=True, slots=True)
class Condition:
    """What brings a kind of die: ``die`` (the one before it) showing one of ``faces``
    (ranges, low to high); ``one_of``: any of several such dice rolled at once."""

    die: PlannedDie
    faces: tuple[tuple[int, int], ...]
    one_of: bool = False

    @property
    def faces_text(self) -> tuple[str, ...]:
        return tuple(str(low) if low == high else f"{low}–{high}" for low, high in self.faces)


@dataclass(frozen=True, slots=True)
class FollowUp:
    """A kind of die that may follow the certain ones: its first die, how many of each roll
    of it the longest run asked for (``most``), for how many rolls of it alike (``rolls``:
    the damage of hit 1, hit 2...), and what brings it (``when``; None: it comes with the dice
    before it). ``sure``: every run asks for exactly these (they will come, after dice that
    may or may not: the damage of the next hit, after this one's Righteous Fury)."""

    die: PlannedDie
    most: int = 1
    rolls: int = 1
    when: Condition | None = None
    sure: bool = False

    @property
    def text(self) -> Message:
        """The follow-up in words: "if the d100 to hit shows 1–43: d10 damage (hit 1)"."""
        dice = _dice_text(self.die, self.most, self.rolls, upto=not self.sure)
        if self.when is None:
            return Message("dice.plan.then", dice=dice)
        which = "dice.plan.if_one_shows" if self.when.one_of else "dice.plan.if_shows"
        cause = self.when.die
        return Message(
            which, die=cause.die, purpose=cause.roll, faces=self.when.faces_text, dice=dice
        )


@dataclass(frozen=True, slots=True)
class DicePlan:
    """The dice an attack needs, known before they are rolled (see the module docstring).

    ``dice``: those certain to be needed, in order, the ``known`` first ones already rolled
    (typed) among them. ``later``: the longest run of dice the probes found after ``dice``
    (whether they are rolled depends on the rolls); ``follow``: the same by kind, with why.
    ``open``: the rules may go on asking past any bound (a chain such as an exploding die).
    """

    dice: tuple[PlannedDie, ...]
    later: tuple[PlannedDie, ...] = ()
    open: bool = False
    follow: tuple[FollowUp, ...] = ()
    known: int = 0

    @property
    def needed(self) -> tuple[PlannedDie, ...]:
        """The certain dice not rolled yet: what the table needs now."""
        return self.dice[self.known :]

    @property
    def more(self) -> bool:
        """Whether the rules may ask for more dice than the certain ones."""
        return bool(self.later) or self.open

    @property
    def most(self) -> int | None:
        """The most dice the attack can take (None: no bound)."""
        return None if self.open else len(self.dice) + len(self.later)

    @property
    def kinds(self) -> tuple[PlannedDie, ...]:
        """Each kind of die that may follow (its sides and the id of its purpose), once, as
        it first comes."""
        found: dict[Hashable, PlannedDie] = {}
        for die in self.later:
            found.setdefault(_key(die), die)
        return tuple(found.values())

    @property
    def now(self) -> Message | None:
        """The dice needed now in words ("now: d100 to hit"); None when none is."""
        if not self.needed:
            return None
        return Message("dice.plan.now", dice=_grouped(self.needed))

    @property
    def lines(self) -> tuple[Message, ...]:
        """What is needed now, then each kind that may follow with why, one message each."""
        parts: list[Message] = [self.now] if self.now is not None else []
        parts += [follow.text for follow in self.follow]
        if self.open:
            parts.append(Message("dice.plan.open"))
        return tuple(parts)

    @property
    def summary(self) -> Message | None:
        """What is needed now and what may follow, and why ("now: d100 to hit; if the d100 to
        hit shows 1–43: d10 damage (hit 1); ..."); None when no die is needed at all."""
        return Message("common.join", parts=self.lines) if self.lines else None

    def explain(self, language: str = "en") -> str:
        """:attr:`summary` in ``language`` ("" when no die is needed)."""
        return render(self.summary, language) if self.summary is not None else ""

    def __str__(self) -> str:
        return self.explain()

    def slots(self, asked: Sequence[PlannedDie] = ()) -> tuple[PlannedDie, ...]:
        """The boxes to show: the dice the rules ``asked`` for so far, then the certain ones
        beyond them."""
        return (*asked, *self.dice[len(asked) :])


# --- the words --------------------------------------------------------------------------------


def _roll_of(purpose: Text) -> Text:
    """A numbered die's roll (a message naming the roll's ``purpose`` and the die's number)."""
    if isinstance(purpose, Message):
        params = dict(purpose.params)
        inner = params.get("purpose")
        numbered = any(isinstance(v, int) for k, v in params.items() if k != "purpose")
        if isinstance(inner, Message | str) and numbered and len(params) == 2:
            return inner
    return purpose


def _dice_text(die: PlannedDie, count: int, rolls: int, *, upto: bool) -> Message:
    """ "d10 damage (hit 1)", "3 d10 damage (hit 1)", "up to 20 d10 ...", "..., and likewise
    for up to 3 more"."""
    if count == 1:
        text = Message("dice.planned_die", die=die.die, purpose=die.roll)
    else:
        which = "dice.plan.up_to" if upto else "dice.plan.count"
        text = Message(which, count=count, die=die.die, purpose=die.roll)
    if rolls > 1:
        which = "dice.plan.likewise" if upto else "dice.plan.likewise_all"
        return Message(which, dice=text, more=rolls - 1)
    return text


def _grouped(dice: Sequence[PlannedDie]) -> tuple[Message, ...]:
    """The dice in order, a roll of several of one kind as one ("3 d10 damage (hit 1)")."""
    found: list[Message] = []
    index = 0
    while index < len(dice):
        first = dice[index]
        end = index + 1
        while end < len(dice) and _variant(dice[end]) == _variant(first):
            end += 1
        found.append(_dice_text(first, end - index, 1, upto=False))
        index = end
    return tuple(found)


# --- kinds of dice ----------------------------------------------------------------------------


def _shape(value: Any) -> Hashable:
    """A purpose with its numbers left out: the damage of hit 1 and of hit 2 alike."""
    if isinstance(value, Message):
        return (value.id, tuple((k, _shape(v)) for k, v in value.params))
    if isinstance(value, tuple):
        return tuple(_shape(v) for v in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return "#"
    return str(value)


def _key(die: PlannedDie) -> Hashable:
    """The kind of a die: its sides and its roll's purpose, numbers left out."""
    return (die.sides, _shape(die.roll))


def _variant(die: PlannedDie) -> Hashable:
    """One roll of a kind: its sides and its roll's purpose (hit 1's damage dice)."""
    return (die.sides, die.roll)


# --- the probes -------------------------------------------------------------------------------

_LIMIT = 120  # dice a probe follows before it calls the chain open
_Face = Callable[[int], int]
_FACES: tuple[_Face, ...] = (
    lambda sides: 1,
    lambda sides: (sides + 1) // 2,
    lambda sides: sides // 2 + 1,
    lambda sides: sides,
)
Policy = tuple[tuple[tuple[Hashable, int], ...], int]  # (faces by kind, default face)


class _Endless(Exception):
    """A probe's dice went on past twice the limit."""


class _Found(Exception):
    """The die a probe looked for was asked for."""


class _Probe(ScriptedDice):
    """Dice showing ``forced`` values first, then, for each kind of die, one of ``_FACES``;
    ``wanted``: stop at the first die of that roll asked from the ``after``-th die on."""

    def __init__(
        self,
        forced: Sequence[int],
        faces: dict[Hashable, int],
        default: int,
        wanted: Hashable | None = None,
        after: int = 0,
    ) -> None:
        super().__init__(list(forced), rest=1, limit=_LIMIT)
        self._faces, self._default = faces, default
        self._after, self._wanted = after, wanted

    def roll_die(self, sides: int, purpose: Text) -> Any:
        if self.index >= 2 * _LIMIT:
            raise _Endless
        looking = self._wanted is not None and self.index >= self._after
        if looking and _variant(PlannedDie(sides, purpose)) == self._wanted:
            raise _Found
        if self.index == len(self.values):
            key = _key(PlannedDie(sides, purpose))
            face = _FACES[self._faces.get(key, self._default)]
            self.values.append(face(sides))
        return super().roll_die(sides, purpose)


@dataclass(frozen=True, slots=True)
class _Run:
    dice: tuple[PlannedDie, ...]
    values: tuple[int, ...]
    open: bool
    policy: Policy


class _Prober:
    """Runs of the rules on probe dice, the values ``known`` first."""

    def __init__(self, game: str, request: AttackRequest, known: Sequence[int]) -> None:
        self.rules = find_game(game).rules
        self.request = request
        self.known = tuple(known)
        self.runs: list[_Run] = []

    def run(self, policy: Policy, forced: Sequence[int] | None = None, keep: bool = True) -> _Run:
        faces, default = dict(policy[0]), policy[1]
        probe = _Probe(self.known if forced is None else forced, faces, default)
        try:
            self.rules.resolve_attack(self.request, probe)
            endless = False
        except _Endless:
            endless = True
        rolled = probe.history[:_LIMIT]
        dice = tuple(PlannedDie(roll.sides, roll.purpose) for roll in rolled)
        values = tuple(roll.value for roll in rolled)
        found = _Run(dice, values, endless or probe.cut > 0, policy)
        if keep:
            self.runs.append(found)
        return found

    def asks(self, wanted: Hashable, forced: Sequence[int], after: int) -> bool:
        """Whether a die of the roll ``wanted`` (:func:`_variant`) is asked for from the
        ``after``-th die on, the ``forced`` values first (the dice past them on a middle face:
        no chain drawn out)."""
        probe = _Probe(forced, {}, 1, wanted, after)
        try:
            self.rules.resolve_attack(self.request, probe)
        except _Found:
            return True
        except _Endless:
            return False
        return False


def _length(run: _Run) -> float:
    return float("inf") if run.open else len(run.dice)


def _longest(prober: _Prober) -> _Run:
    """The longest run, changing the faces of one kind of die at a time to lengthen it."""
    uniform = [prober.run(((), face)) for face in range(len(_FACES))]
    default = max(range(len(_FACES)), key=lambda face: _length(uniform[face]))
    best, faces = uniform[default], dict[Hashable, int]()
    kinds = dict.fromkeys(_key(die) for run in prober.runs for die in run.dice)
    for _ in range(3):
        improved = False
        for key in list(kinds):
            for face in range(len(_FACES)):
                if face == faces.get(key, default):
                    continue
                tried = {**faces, key: face}
                found = prober.run((tuple(tried.items()), default))
                kinds.update(dict.fromkeys(_key(die) for die in found.dice))
                if _length(found) > _length(best):
                    best, faces, improved = found, tried, True
        if not improved:
            break
    return best


def _ranges(faces: Sequence[int]) -> tuple[tuple[int, int], ...]:
    found: list[tuple[int, int]] = []
    for face in sorted(faces):
        if found and found[-1][1] == face - 1:
            found[-1] = (found[-1][0], face)
        else:
            found.append((face, face))
    return tuple(found)


_STEP = 4  # a d100's faces are tried every 4th, and between two that differ, one by one


def _faces_where(test: Callable[[int], bool], sides: int) -> list[int]:
    """The faces of a die of ``sides`` for which ``test`` holds: every face of a small die; a
    large one's every ``_STEP``-th face, its three lowest and highest (where the specials lie:
    a natural 1, a jam), and between two tried that differ, each face (a bisection)."""
    if sides <= 20:
        return [face for face in range(1, sides + 1) if test(face)]
    tried = sorted({*range(1, sides + 1, _STEP), 1, 2, 3, sides - 2, sides - 1, sides})
    seen = {face: test(face) for face in tried}
    for low, high in itertools.pairwise(tried):
        while high - low > 1 and seen[low] != seen[high]:
            middle = (low + high) // 2
            seen[middle] = test(middle)
            if seen[middle] == seen[low]:
                low = middle
            else:
                high = middle
    found: list[int] = []
    last = False
    for face in range(1, sides + 1):
        last = seen.get(face, last)  # a face not tried reads as the last one tried below it
        if last:
            found.append(face)
    return found


def _condition(prober: _Prober, run: _Run, first: int) -> Condition | None:
    """What brings the kind of ``run.dice[first]``: the latest die before it whose faces
    decide whether it is asked, tried with the others of its roll on their lowest face."""
    wanted = _variant(run.dice[first])
    for index in range(first - 1, len(prober.known) - 1, -1):
        start, end = index, index + 1
        while start > len(prober.known) and _variant(run.dice[start - 1]) == _variant(
            run.dice[index]
        ):
            start -= 1
        while end < first and _variant(run.dice[end]) == _variant(run.dice[index]):
            end += 1
        base = [*run.values[:start], *([1] * (end - start)), *run.values[end:first]]

        def brings(face: int, index: int = index, base: list[int] = base, end: int = end) -> bool:
            forced = list(base)
            forced[index] = face
            return prober.asks(wanted, forced, end)

        sides = run.dice[index].sides
        bringing = _faces_where(brings, sides)
        if bringing and len(bringing) < sides:
            return Condition(run.dice[index], _ranges(bringing), end - start > 1)
    return None


def _tally(dice: Sequence[PlannedDie]) -> dict[Hashable, dict[Hashable, int]]:
    """Per kind of die, how many of each roll of it."""
    counts: dict[Hashable, dict[Hashable, int]] = {}
    for die in dice:
        per_roll = counts.setdefault(_key(die), {})
        per_roll[_variant(die)] = per_roll.get(_variant(die), 0) + 1
    return counts


def _follow_ups(prober: _Prober, run: _Run, certain: int) -> tuple[FollowUp, ...]:
    firsts: dict[Hashable, int] = {}
    for index in range(certain, len(run.dice)):
        firsts.setdefault(_key(run.dice[index]), index)
    counts = _tally(run.dice[certain:])
    closed = [_tally(other.dice[certain:]) for other in prober.runs if not other.open]
    found = []
    for key, first in firsts.items():
        when = _condition(prober, run, first)
        sure = when is None and all(other.get(key) == counts[key] for other in closed)
        rolls = counts[key]
        found.append(FollowUp(run.dice[first], max(rolls.values()), len(rolls), when, sure))
    return tuple(found)


def plan_dice(game: str, request: AttackRequest, known: Sequence[int] = ()) -> DicePlan:
    """The :class:`DicePlan` of ``request`` in ``game``, the values ``known`` rolled first
    (those typed so far: each a value its die shows; see the module docstring)."""
    prober = _Prober(game, request, [int(value) for value in known])
    best = _longest(prober)
    runs = prober.runs
    certain = runs[0].dice
    for found in runs[1:]:
        same = 0
        for mine, theirs in zip(certain, found.dice, strict=False):
            if mine != theirs:
                break
            same += 1
        certain = certain[:same]
    closed = [found for found in runs if not found.open]
    longest = max(closed, key=lambda found: len(found.dice)) if closed else best
    return DicePlan(
        certain,
        longest.dice[len(certain) :],
        any(found.open for found in runs),
        _follow_ups(prober, longest, len(certain)),
        min(len(prober.known), len(certain)),
    )


__all__ = ["Condition", "DicePlan", "FollowUp", "PlannedDie", "plan_dice"]
