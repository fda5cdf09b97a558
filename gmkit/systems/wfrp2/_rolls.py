"""Rolling a dice expression with each die's purpose a message (:func:`roll_dice`).

:func:`gmkit.dice.roll` names the dice of an expression of several as "<purpose> die N" in
English; the WFRP 2e rules want every die's purpose as a message (``wfrp2.die.numbered_die``:
"damage die 2", "daño, dado 2") so a panel asks for it in the GM's language. The expression is
still rolled by :func:`gmkit.dice.roll` (its bonuses, keeps and refusals): each die it asks for
is rolled from the source with the purpose made here. Typed dice (:class:`EnteredDice`) are
taken all or none, as :func:`gmkit.dice.roll` takes them.
"""

from __future__ import annotations

from collections.abc import Mapping

from gmkit.dice import DiceSource, DieRoll, EnteredDice, Roll, parse, roll
from gmkit.messages import Message, Text, render


class _Purposes:
    """A dice source rolling the dice of one expression, each for its own purpose."""

    def __init__(self, source: DiceSource, dice: list[tuple[int, Message]]) -> None:
        self.source = source
        self.dice = dice
        self.history: list[DieRoll] = source.history
        self.rolled = 0

    def roll_die(self, sides: int, purpose: Text) -> DieRoll:
        if self.rolled == 0 and isinstance(self.source, EnteredDice):
            self.source.check(self.dice)  # all the typed values or none of them
        index, self.rolled = self.rolled, self.rolled + 1
        chosen = self.dice[index][1] if index < len(self.dice) else purpose
        return self.source.roll_die(sides, chosen)


def roll_dice(
    expression: str,
    source: DiceSource,
    purpose: Message,
    names: Mapping[str, int] | None = None,
) -> Roll:
    """Roll ``expression`` from ``source``: one die is rolled for ``purpose``, each of several
    for "``purpose`` die N"."""
    parsed = parse(expression)
    sides = [term.sides for term in parsed.dice for _ in range(term.count)]
    if len(sides) == 1:
        dice = [(sides[0], purpose)]
    else:
        dice = [
            (count, Message("wfrp2.die.numbered_die", purpose=purpose, die=index))
            for index, count in enumerate(sides, start=1)
        ]
    return roll(parsed, _Purposes(source, dice), render(purpose), names)


__all__ = ["roll_dice"]
