"""The dice of an attack form: gmkit's seeded dice, or the table's dice typed one by one.

Physical dice: the form resolves with an :class:`~gmkit.dice.EnteredDice` holding the values
typed so far; when the rules need one more, they raise :class:`~gmkit.errors.NeedDie` (which
die, and why) and ``needed`` holds it until the GM types the value. The rules are pure, so
resolving again with one more value is safe. A value the die cannot show is refused and
dropped (the others stay). Values typed beyond what the attack needs are kept in
``unused``. The dice of a shown result are replayed exactly when it is applied
(:meth:`DiceState.replay`).
"""

from __future__ import annotations

import re

from gmkit.dice import DieRoll, EnteredDice, ReplayedDice, SeededDice
from gmkit.errors import DiceValueError, GmkitError, NeedDie
from gmkit.games import game as find_game
from gmkit.messages import Message
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
        self._dice = SeededDice(seed)

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
                return None
            self.used = tuple(source.history)
            self.unused = tuple(str(value) for value in source.pending)
        else:
            start = len(self._dice.history)
            result = rules.resolve_attack(request, self._dice)
            self.used = tuple(self._dice.history[start:])
        self.result = result
        return result


__all__ = ["DICE_MODES", "DiceState", "typed_values"]
