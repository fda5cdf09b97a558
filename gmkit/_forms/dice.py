"""The dice of an attack form: gmkit's seeded dice, or the table's dice typed one by one.

Physical dice: the form resolves with an :class:`~gmkit.dice.EnteredDice` holding the values
typed so far; when the rules need one more, they raise :class:`~gmkit.errors.NeedDie` (which
die, and why) and ``needed`` holds it until the GM types the value. The rules are pure, so
resolving again with one more value is safe. A value the die cannot show is refused and
dropped (the others stay). Values typed beyond what the attack needs are kept in
``unused``. The dice of a shown result are replayed exactly when it is applied
(:meth:`DiceState.replay`).

The dice plan (:meth:`DiceState.plan`, :func:`gmkit.systems._dice_probe.plan_dice`): the dice an
attack is certain to need now, after those typed so far, and what may follow and why, worked
out by probing the pure rules (no game's rule here). :meth:`DiceState.take` resolves with a
whole list of typed values (a box per die).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from typing import Any

from gmkit.dice import DieRoll, EnteredDice, ReplayedDice, SeededDice
from gmkit.errors import DiceValueError, GmkitError, NeedDie
from gmkit.games import game as find_game
from gmkit.messages import Message, Text
from gmkit.systems._dice_plan import DicePlan, PlannedDie
from gmkit.systems._dice_probe import plan_dice
from gmkit.systems._reaction_dice import answered
from gmkit.systems.base import AttackRequest, AttackResult

DICE_MODES = ("seeded", "physical")
_SPLIT = re.compile(r"[\s,;]+")


def typed_values(text: str) -> list[str]:
    """The values in what the GM typed ("53 7", "53,7"), in order."""
    return [value for value in _SPLIT.split(text.strip()) if value]


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
        self._plan: tuple[str, AttackRequest, tuple[int, ...], DicePlan] | None = None

    def plan(self, game: str, request: AttackRequest) -> DicePlan:
        """The dice ``request`` needs now, after the table's dice typed so far (none before
        the first), and what may follow (the last plan is kept while the request and the dice
        taken are the same)."""
        known = self.known
        kept = self._plan
        if kept is not None and kept[0] == game and kept[1] == request and kept[2] == known:
            return kept[3]
        found = plan_dice(game, request, known)
        self._plan = (game, request, known, found)
        return found

    @property
    def known(self) -> tuple[int, ...]:
        """The values of the table's dice the rules took so far (none once a result is in:
        nothing more is needed; none with gmkit's dice)."""
        if self.mode != "physical":
            return ()
        return tuple(roll.value for roll in self.used)

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

    def react(
        self, game: str, request: AttackRequest, used: Sequence[DieRoll], face: int | None
    ) -> AttackResult | None:
        """The shown attack (its dice ``used``) resolved again with the target's reaction
        chosen after the hit (``request`` has it): the same dice, the reaction's die showing
        ``face`` where the rules roll it (None: gmkit's die, or the table's asked for; see
        :mod:`gmkit.systems._reaction_dice`)."""
        rules = find_game(game).rules
        then = self._dice if self.mode == "seeded" else None
        result, history, _need = answered(rules, request, used, face, then)
        if self.mode == "physical":  # as if the table had typed them all: a die more is asked
            return self.take(game, request, [str(roll.value) for roll in history])
        self.clear()
        self.result, self.used = result, tuple(history)
        return result

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
