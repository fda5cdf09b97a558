"""The dice of an attack form: gmkit's seeded dice, or the table's dice typed one by one.

Physical dice: the form resolves with an :class:`~gmkit.dice.EnteredDice` holding the values
typed so far; when the rules need one more, they raise :class:`~gmkit.errors.NeedDie` (which
die, and why) and ``needed`` holds it until the GM types the value. The rules are pure, so
resolving again with one more value is safe. A value the die cannot show is refused and
dropped (the others stay). Values typed beyond what the attack needs are kept in
``unused``. The dice of a shown result are replayed exactly when it is applied
(:meth:`DiceState.replay`).

The dice plan (:meth:`DiceState.plan`): before the first die is typed, the dice an attack is
certain to need first and what may follow, worked out from the pure rules alone (no game's rule
here): the attack is resolved with probe dice showing the lowest, middle or highest faces, per
kind of die, and the dice every probe asked for first are certain; the longest probe bounds what
may follow. :meth:`DiceState.take` resolves with a whole list of typed values (a box per die).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gmkit.dice import DieRoll, EnteredDice, ReplayedDice, SeededDice
from gmkit.dice.sources import ScriptedDice
from gmkit.errors import DiceValueError, GmkitError, NeedDie
from gmkit.games import game as find_game
from gmkit.messages import Message, Text, render
from gmkit.systems.base import AttackRequest, AttackResult

DICE_MODES = ("seeded", "physical")
_SPLIT = re.compile(r"[\s,;]+")


def typed_values(text: str) -> list[str]:
    """The values in what the GM typed ("53 7", "53,7"), in order."""
    return [value for value in _SPLIT.split(text.strip()) if value]


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


@dataclass(frozen=True, slots=True)
class DicePlan:
    """The dice an attack needs, known before the first is typed.

    ``dice``: those certain to be needed first, in order. ``later``: what may follow them (the
    longest bounded run of dice the probes found after ``dice``; whether they are rolled depends
    on the rolls). ``open``: the rules may go on asking past any bound (a chain such as an
    exploding die).
    """

    dice: tuple[PlannedDie, ...]
    later: tuple[PlannedDie, ...] = ()
    open: bool = False

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
        found: dict[_Key, PlannedDie] = {}
        for die in self.later:
            found.setdefault(_key(die.sides, die.purpose), die)
        return tuple(found.values())

    @property
    def summary(self) -> Message | None:
        """What may follow the certain dice, in words ("then, as the rolls fall, up to 41
        more: d10 damage (hit 1), ..."); None when nothing may."""
        if not self.more:
            return None
        kinds = tuple(
            Message("dice.planned_die", die=die.die, purpose=die.purpose) for die in self.kinds
        )
        if self.open:
            return Message("dice.plan_open", kinds=kinds)
        return Message("dice.plan_later", count=len(self.later), kinds=kinds)

    def slots(self, asked: Sequence[PlannedDie] = ()) -> tuple[PlannedDie, ...]:
        """The boxes to show: the dice the rules ``asked`` for so far, then the certain ones
        beyond them."""
        return (*asked, *self.dice[len(asked) :])


_LIMIT = 120  # dice a probe follows before it calls the chain open
_Key = tuple[int, str]
_Face = Callable[[int], int]
_FACES: tuple[_Face, ...] = (
    lambda sides: 1,
    lambda sides: (sides + 1) // 2,
    lambda sides: sides // 2 + 1,
    lambda sides: sides,
)


class _Endless(Exception):
    """A probe's dice went on past twice the limit."""


def _key(sides: int, purpose: Text) -> _Key:
    return (sides, purpose.id if isinstance(purpose, Message) else purpose)


class _Probe(ScriptedDice):
    """Dice showing, for each kind of die (sides and purpose), one of the ``_FACES``."""

    def __init__(self, faces: dict[_Key, int], default: int) -> None:
        super().__init__((), rest=1, limit=_LIMIT)
        self._faces, self._default = faces, default

    def roll_die(self, sides: int, purpose: Text) -> DieRoll:
        if self.index >= 2 * _LIMIT:
            raise _Endless
        if self.index == len(self.values):
            face = _FACES[self._faces.get(_key(sides, purpose), self._default)]
            self.values.append(face(sides))
        return super().roll_die(sides, purpose)


@dataclass(frozen=True, slots=True)
class _Run:
    dice: tuple[PlannedDie, ...]
    open: bool


def plan_dice(game: str, request: AttackRequest) -> DicePlan:
    """The :class:`DicePlan` of ``request`` in ``game`` (see the module docstring)."""
    rules = find_game(game).rules
    runs: list[_Run] = []
    keys: dict[_Key, None] = {}

    def run(faces: dict[_Key, int], default: int) -> _Run:
        probe = _Probe(faces, default)
        try:
            rules.resolve_attack(request, probe)
            endless = False
        except _Endless:
            endless = True
        dice = tuple(PlannedDie(roll.sides, roll.purpose) for roll in probe.history)
        found = _Run(dice[:_LIMIT], endless or probe.cut > 0)
        runs.append(found)
        keys.update((_key(die.sides, die.purpose), None) for die in found.dice)
        return found

    def length(found: _Run) -> float:
        return float("inf") if found.open else len(found.dice)

    uniform = [run({}, face) for face in range(len(_FACES))]
    default = max(range(len(_FACES)), key=lambda face: length(uniform[face]))
    best, faces = uniform[default], dict[_Key, int]()
    for _ in range(3):  # the longest run, changing the faces of one kind of die at a time
        improved = False
        for key in list(keys):
            for face in range(len(_FACES)):
                if face == faces.get(key, default):
                    continue
                tried = {**faces, key: face}
                found = run(tried, default)
                if length(found) > length(best):
                    best, faces, improved = found, tried, True
        if not improved:
            break
    certain = runs[0].dice
    for found in runs[1:]:
        same = 0
        for mine, theirs in zip(certain, found.dice, strict=False):
            if mine != theirs:
                break
            same += 1
        certain = certain[:same]
    closed = [found for found in runs if not found.open]
    longest = max(closed, key=lambda found: len(found.dice)).dice if closed else certain
    return DicePlan(certain, longest[len(certain) :], any(found.open for found in runs))


class DiceState:
    """Where an attack form's dice come from, what was typed, and the result they gave."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.mode = "seeded"
        self.seed: int | str | None = seed
        self.typed: list[str] = []
        self.result: AttackResult | None = None
        self.needed: NeedDie | None = None
        self.unused: tuple[str, ...] = ()
        self.used: tuple[DieRoll, ...] = ()
        self.asked: tuple[PlannedDie, ...] = ()  # the dice the rules asked for, typed or not
        self.refused: tuple[int, Text] | None = None  # the typed value refused: where and why
        self._dice = SeededDice(seed)
        self._plan: tuple[str, AttackRequest, DicePlan] | None = None

    def plan(self, game: str, request: AttackRequest) -> DicePlan:
        """The dice ``request`` needs, before any is typed (the last plan is kept while the
        request is the same)."""
        if self._plan is not None and self._plan[0] == game and self._plan[1] == request:
            return self._plan[2]
        found = plan_dice(game, request)
        self._plan = (game, request, found)
        return found

    def set_mode(self, mode: str) -> None:
        if mode not in DICE_MODES:
            raise GmkitError(Message("form.dice_mode", mode=repr(mode), modes=DICE_MODES))
        self.mode = mode
        self.clear()

    def set_seed(self, seed: int | str | None) -> None:
        """Seed gmkit's dice (the same seed gives the same rolls from here on)."""
        if isinstance(seed, str):
            text = seed.strip()
            if text and not text.lstrip("-").isdigit():
                raise GmkitError(Message("form.seed_not_number", got=repr(seed)))
            seed = int(text) if text else None
        self.seed = seed
        self._dice = SeededDice(seed)

    def clear(self) -> None:
        self.typed, self.result, self.needed, self.unused, self.used = [], None, None, (), ()
        self.asked, self.refused = (), None

    def take(self, game: str, request: AttackRequest, values: Sequence[str]) -> AttackResult | None:
        """Resolve with ``values``, the whole list typed (a box per die, in order; an empty
        box ends the list). A value its die cannot show is not taken: ``refused`` says which
        (its index in ``values``) and why, and the dice before it are resolved, so ``needed``
        asks for that die again."""
        entered: list[str] = []
        for value in values:
            text = str(value).strip()
            if not text:
                break
            entered.append(text)
        self.mode = "physical"
        self.refused = None
        while True:
            self.typed = list(entered)
            try:
                return self._resolve(game, request)
            except DiceValueError as refused:
                index = self._first_refused(game, request, entered, len(self.used))
                self.refused = (index, refused.message)
                entered = entered[:index]

    def _asked(
        self, rules: Any, request: AttackRequest, need: NeedDie, rolled: Sequence[DieRoll]
    ) -> tuple[PlannedDie, ...]:
        """Every die asked for up to ``need``: a roll of several dice at once asks for its
        last missing die before taking the values typed for the others, so those are found
        by resolving again die by die."""
        if need.index > len(rolled):
            source = _OneByOne(self.typed)
            with contextlib.suppress(NeedDie):
                rules.resolve_attack(request, source)
            rolled = source.history[: need.index]
        return (*_planned(rolled), PlannedDie(need.sides, need.purpose))

    def _first_refused(
        self, game: str, request: AttackRequest, entered: list[str], start: int
    ) -> int:
        """The index of the first value of ``entered`` the rules refuse (a roll of several
        dice at once refuses before taking any, so the index is found by trying)."""
        rules = find_game(game).rules
        for index in range(start, len(entered)):
            try:
                rules.resolve_attack(request, EnteredDice(entered[: index + 1]))
            except NeedDie:
                continue
            except DiceValueError:
                return index
        return start

    def resolve(self, game: str, request: AttackRequest, typed: str | None) -> AttackResult | None:
        """Resolve ``request``: with ``typed`` values (switching to the table's dice), the
        values typed so far, or gmkit's dice."""
        if typed is not None:
            self.mode = "physical"
            self.typed = typed_values(typed)
        return self._resolve(game, request)

    def enter(self, game: str, request: AttackRequest, value: int | str) -> AttackResult | None:
        """One more typed value, and resolve again; a value the die cannot show is dropped."""
        values = typed_values(str(value))
        if not values:
            raise GmkitError(Message("form.type_a_value"))
        self.mode = "physical"
        found: AttackResult | None = None
        for one in values:
            self.typed = [*self.typed, one]
            try:
                found = self._resolve(game, request)
            except DiceValueError:  # the value just typed was refused: drop it, ask again
                self.typed = self.typed[:-1]
                raise
        return found

    def replay(self) -> ReplayedDice:
        """The dice of the shown result, to apply it with exactly those."""
        return ReplayedDice(self.used)

    def _resolve(self, game: str, request: AttackRequest) -> AttackResult | None:
        rules = find_game(game).rules
        self.result, self.needed, self.unused = None, None, ()
        if self.mode == "physical":
            source = EnteredDice(self.typed)
            try:
                result = rules.resolve_attack(request, source)
            except NeedDie as need:
                self.needed = need
                self.used = tuple(source.history)
                self.asked = self._asked(rules, request, need, source.history)
                return None
            except DiceValueError:
                self.used = tuple(source.history)  # the dice before the refused one
                self.asked = _planned(source.history)
                raise
            self.used = tuple(source.history)
            self.asked = _planned(source.history)
            self.unused = tuple(str(value) for value in source.pending)
        else:
            start = len(self._dice.history)
            result = rules.resolve_attack(request, self._dice)
            self.used = tuple(self._dice.history[start:])
        self.result = result
        return result


class _OneByOne(EnteredDice):
    """Typed values taken die by die, never a roll of several at once (:meth:`check`)."""

    def check(self, dice: object) -> None:
        return None


def _planned(rolls: Sequence[DieRoll]) -> tuple[PlannedDie, ...]:
    return tuple(PlannedDie(roll.sides, roll.purpose) for roll in rolls)


__all__ = [
    "DICE_MODES",
    "DicePlan",
    "DiceState",
    "PlannedDie",
    "plan_dice",
    "typed_values",
]
