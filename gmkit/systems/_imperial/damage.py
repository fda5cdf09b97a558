"""Rolling a hit's damage in the 40k games, die by die.

A damage roll keeps every die apart, because three rules read single dice: Deathwatch's degrees
of success are the least one die can read (004, step four), Righteous Fury looks for a natural
10 on any die (001, 004), and Tearing drops the lowest die.

Choices where the texts are silent (each recorded here and, where a GM may disagree, as data in
``systems/data/<game>/damage_rules.yaml``):

- A weapon's damage is a sum of dice, numbers and bonuses ("2d10+5", "1d5-3+SB"). Products and
  quotients of dice cannot give "one die's" minimum and are refused with a clear error.
- A d5 is rolled as the 40k books roll it, a d10 halved rounding up (``d5_from_d10``): a typed
  10 reads 5 and is still the natural 10 that calls Righteous Fury (004, unarmed: "10 counting
  as 5"). Other dice (d6, d20) never call Fury.
- The degrees of success raise the lowest kept die, never above the die's own sides (a d10
  cannot read 12). Deathwatch gives them to each test's first hit only (``degrees_minimum_hits:
  first``; "every" gives them to each hit): each of the separate attacks of Swift and Lightning
  Attack has its own test, so its own first hit and its own degrees; Dark Heresy has no such
  rule (001 is silent).
- Tearing rolls one more die of the first dice term and drops the lowest; Proven(X) makes every
  die read at least X (books' qualities; the seeds name neither).
- "Roll the damage dice twice" (004, helpless targets; ``AttackSetup.extra_damage_dice``) rolls
  each dice term that many more times and adds them; the bonus is added once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from gmkit.dice import DiceSource, DieRoll, parse
from gmkit.dice._ast import Binary, Dice, Group, Keep, Literal, Named, Negative, Node
from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.systems._tables import table


@dataclass(frozen=True, slots=True)
class DamageDie:
    """One damage die: what was rolled, what it reads, whether it counts."""

    sides: int  # the die as the weapon writes it (5 for a d5 rolled on a d10)
    roll: DieRoll
    value: int  # what it reads before any minimum
    kept: bool = True
    minimum: int = 0  # raised to this by degrees of success or Proven
    sign: int = 1

    @property
    def reads(self) -> int:
        return max(self.value, min(self.minimum, self.sides))

    @property
    def natural_ten(self) -> bool:
        return self.kept and self.roll.sides == 10 and self.roll.value == 10

    def __str__(self) -> str:
        shown = str(self.value) if self.reads == self.value else f"{self.value}->{self.reads}"
        if self.roll.sides != self.sides:
            shown += f" (d10 {self.roll.value})"
        return shown if self.kept else f"~~{shown}~~"


@dataclass(frozen=True, slots=True)
class DamageRoll:
    """A rolled damage expression: its dice, its fixed part, the total."""

    expression: str
    dice: tuple[DamageDie, ...]
    constant: int

    @property
    def total(self) -> int:
        return self.constant + sum(die.sign * die.reads for die in self.dice if die.kept)

    @property
    def tens(self) -> int:
        """Natural 10s among the kept dice that add to the damage."""
        return sum(1 for die in self.dice if die.natural_ten and die.sign > 0)

    @property
    def rolls(self) -> tuple[DieRoll, ...]:
        return tuple(die.roll for die in self.dice)

    def with_degrees(self, degrees: int) -> DamageRoll:
        """The same roll with ``degrees`` of success raising its lowest kept die (the last step
        of :func:`roll_damage`: the dice rolled never depend on the degrees, so the odds roll
        once and apply each degrees here)."""
        if degrees <= 0:
            return self
        dice = list(self.dice)
        candidates = [i for i, die in enumerate(dice) if die.kept and die.sign > 0]
        if not candidates:
            return self
        lowest = min(candidates, key=lambda i: dice[i].reads)
        dice[lowest] = replace(dice[lowest], minimum=max(dice[lowest].minimum, degrees))
        return replace(self, dice=tuple(dice))

    @property
    def first_sides(self) -> int:
        """The sides of the weapon's damage die (Righteous Fury's extra die)."""
        return next((die.sides for die in self.dice if die.sign > 0), 10)

    def explain(self) -> Message:
        """ "2d10+5: [1->4, 8] +5 = 17"."""
        if not self.dice:
            return Message(
                "imperial.damage.roll_no_dice",
                expression=self.expression,
                constant=self.constant,
                total=self.total,
            )
        return Message(
            "imperial.damage.roll",
            expression=self.expression,
            dice=tuple(str(die) for die in self.dice),
            constant=self.constant,
            total=self.total,
        )


@dataclass(frozen=True, slots=True)
class DamageRules:
    """How a game rolls damage (``damage_rules.yaml``)."""

    degrees_minimum: bool = False
    degrees_minimum_hits: str = "first"
    d5_from_d10: bool = True

    @classmethod
    def of(cls, game: str) -> DamageRules:
        data: Mapping[str, Any] = table(game, "damage_rules") or {}
        return cls(
            degrees_minimum=bool(data.get("degrees_minimum", False)),
            degrees_minimum_hits=str(data.get("degrees_minimum_hits", "first")),
            d5_from_d10=bool(data.get("d5_from_d10", True)),
        )

    def degrees_for_hit(self, degrees: int, hit: int) -> int:
        """The degrees of success hit number ``hit`` (1-based, counted within its own test) may
        use as a die's minimum."""
        if not self.degrees_minimum:
            return 0
        return degrees if hit == 1 or self.degrees_minimum_hits == "every" else 0


_Terms = list[tuple[int, Dice]]


def _linear(node: Node, sign: int, names: Mapping[str, int], text: str) -> tuple[_Terms, int]:
    """Dice terms with their signs, and the constant part, of a sum of dice and numbers."""
    match node:
        case Dice():
            return [(sign, node)], 0
        case Literal(value=value):
            return [], sign * value
        case Named(name=name):
            if name not in names:
                raise GmkitError(Message("imperial.damage.unknown_bonus", damage=text, name=name))
            return [], sign * int(names[name])
        case Negative(operand=operand):
            return _linear(operand, -sign, names, text)
        case Group(inner=inner):
            return _linear(inner, sign, names, text)
        case Binary(operator=operator, left=left, right=right):
            left_terms, left_value = _linear(left, sign, names, text)
            right_sign = sign if operator == "+" else -sign
            if operator in ("+", "-"):
                right_terms, right_value = _linear(right, right_sign, names, text)
                return left_terms + right_terms, left_value + right_value
            right_terms, right_value = _linear(right, 1, names, text)
            if left_terms or right_terms:
                raise GmkitError(Message("imperial.damage.not_a_sum", damage=text))
            if operator == "*":
                return [], left_value * right_value
            if right_value == 0:
                raise GmkitError(Message("imperial.damage.division_by_zero", damage=text))
            return [], left_value // right_value
    raise TypeError(f"not a dice node: {node!r}")  # pragma: no cover


def _roll_term(
    sign: int, term: Dice, source: DiceSource, labels: list[Text], rules: DamageRules
) -> list[DamageDie]:
    """Roll ``term``'s dice, taking each die's purpose from the front of ``labels``."""
    dice: list[DamageDie] = []
    for _ in range(term.count):
        label = labels.pop(0)
        if term.sides == 5 and rules.d5_from_d10:
            roll = source.roll_die(10, Message("imperial.damage.d5_die", purpose=label))
            value = (roll.value + 1) // 2
        else:
            roll = source.roll_die(term.sides, label)
            value = roll.value
        dice.append(DamageDie(term.sides, roll, value, sign=sign))
    if term.keep is not None:
        kept_count = term.keep.kept_count(term.count)
        order = sorted(
            range(len(dice)), key=lambda i: dice[i].value, reverse=term.keep.keeps_highest()
        )
        keep = set(order[:kept_count])
        dice = [replace(die, kept=i in keep) for i, die in enumerate(dice)]
    return dice


def roll_damage(
    expression: str,
    source: DiceSource,
    purpose: Text,
    *,
    names: Mapping[str, int] | None = None,
    degrees: int = 0,
    tearing: bool = False,
    proven: int = 0,
    extra_rolls: int = 0,
    rules: DamageRules | None = None,
) -> DamageRoll:
    """Roll ``expression`` die by die; ``degrees`` raise the lowest kept die (see module doc).

    >>> from gmkit.dice import EnteredDice
    >>> roll_damage("1d10+4", EnteredDice([2]), "damage", degrees=3).total
    7
    """
    rules = rules or DamageRules()
    parsed = parse(expression)
    terms, constant = _linear(parsed.root, 1, names or {}, expression)
    if tearing:
        for index, (sign, term) in enumerate(terms):
            if sign > 0 and term.keep is None:
                torn = Dice(term.count + 1, term.sides, Keep("kh", term.count))
                terms[index] = (sign, torn)
                break
    terms = terms + [(sign, term) for _ in range(extra_rolls) for sign, term in terms]
    count = sum(term.count for _, term in terms)
    labels: list[Text] = (
        [purpose]
        if count == 1
        else [
            Message("imperial.damage.die", purpose=purpose, number=n) for n in range(1, count + 1)
        ]
    )
    dice: list[DamageDie] = []
    for sign, term in terms:
        dice.extend(_roll_term(sign, term, source, labels, rules))
    if proven:
        dice = [replace(die, minimum=max(die.minimum, proven)) for die in dice]
    return DamageRoll(str(parsed), tuple(dice), constant).with_degrees(degrees)


def roll_extra_die(
    sides: int, source: DiceSource, purpose: Text, rules: DamageRules | None = None
) -> DamageDie:
    """One more damage die of ``sides`` (Righteous Fury in Deathwatch)."""
    return _roll_term(1, Dice(1, sides), source, [purpose], rules or DamageRules())[0]
