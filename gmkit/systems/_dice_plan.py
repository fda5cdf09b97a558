"""The dice an attack needs, known before they are rolled: :class:`DicePlan` (made by
:func:`gmkit.systems._dice_probe.plan_dice`, probing the pure rules: no game's rule here).

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

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from gmkit.messages import Message, Text, render


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
            found.setdefault(kind_of(die), die)
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
        while end < len(dice) and roll_key(dice[end]) == roll_key(first):
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


def kind_of(die: PlannedDie) -> Hashable:
    """The kind of a die: its sides and its roll's purpose, numbers left out."""
    return (die.sides, _shape(die.roll))


def roll_key(die: PlannedDie) -> Hashable:
    """One roll of a kind: its sides and its roll's purpose (hit 1's damage dice)."""
    return (die.sides, die.roll)


__all__ = ["Condition", "DicePlan", "FollowUp", "PlannedDie", "kind_of", "roll_key"]
