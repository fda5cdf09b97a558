"""Dice: expressions parsed once, rolled from a dice source, with exact distributions.

>>> from gmkit.dice import parse, roll, SeededDice, EnteredDice, distribution
>>> roll("1d10+SB", EnteredDice([7]), "damage", names={"SB": 4}).total
11
>>> str(parse("2d10kh1+3"))
'2d10kh1+3'
>>> distribution("2d6").probability(7)
Fraction(1, 6)
"""

from gmkit.dice._dist import Dist
from gmkit.dice._distribution import distribution
from gmkit.dice._evaluate import Roll, roll
from gmkit.dice._parser import Expression, parse
from gmkit.dice._sources import (
    DiceSource,
    DieRoll,
    EnteredDice,
    ReplayedDice,
    ScriptedDice,
    SeededDice,
    check_dice,
    read_die,
)

__all__ = [
    "DiceSource",
    "DieRoll",
    "Dist",
    "EnteredDice",
    "Expression",
    "ReplayedDice",
    "Roll",
    "ScriptedDice",
    "SeededDice",
    "check_dice",
    "distribution",
    "parse",
    "read_die",
    "roll",
]
