"""What a row's initiative box takes, and what the tracker says it took.

At the table players roll their own d10 and call out a total; the GM rolls the enemies' dice,
physical or not. The box takes either, and never guesses which:

- ``12``: the total, as typed (what a player calls out: the d10 and the base added);
- ``d7`` (or ``D7``): the d10 as rolled; the combatant's base is added (Ilse's Agility Bonus 4:
  11), and the log keeps a physical die (``d0`` reads 10, as a d10 does);
- ``7+4``: a sum the GM worked out loud, its total taken.

The message line says which it took ("Ilse Marr: initiative 11 = d10 7 + 4"); a bare number
that could be a die says how to type the die instead ("7, taken as the total; if 7 is the d10
as rolled, type d7: 7 + 4 = 11"). The box's tooltip says the same. Roll initiative rolls only
for the rows without a score ("Roll the rest"), and says whose typed scores stayed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gmkit.encounter import EncounterState
from gmkit.messages import Message

__all__ = ["Typed", "box_help", "read_initiative", "roll_button", "rolled_rest", "took"]

_DIE = re.compile(r"[dD]\s*(\d+)")
_NUMBER = re.compile(r"[+-]?\d+")
_SUM = re.compile(r"\d+(?:\s*[+-]\s*\d+)+")


@dataclass(frozen=True)
class Typed:
    """What the box held: a total (``score``), or the d10 as rolled (``die``, as typed);
    ``sum``: the sum typed, when the total was one."""

    score: int | None = None
    die: str | None = None
    sum: str = ""


def read_initiative(text: str) -> Typed | None:
    """The box's text as a total, a die or a sum (see the module docstring); None when it is
    none of them (the tracker says so, naming the combatant)."""
    typed = text.strip()
    found = _DIE.fullmatch(typed)
    if found:
        return Typed(die=found.group(1))
    if _NUMBER.fullmatch(typed):
        return Typed(score=int(typed))
    if _SUM.fullmatch(typed):
        terms = re.findall(r"[+-]?\s*\d+", typed)
        return Typed(score=sum(int(term.replace(" ", "")) for term in terms), sum=typed)
    return None


def took(typed: Typed, name: str, score: int, base: int) -> Message:
    """What the tracker says it took: the die and the base, the sum, or the total (with the
    die's way of typing when the number could be a d10)."""
    if typed.die is not None:
        die = score - base
        return Message("widgets.initiative_took_die", name=name, score=score, die=die, base=base)
    if typed.sum:
        return Message("widgets.initiative_took_sum", name=name, score=score, typed=typed.sum)
    if 1 <= score <= 10:
        total = score + base
        return Message(
            "widgets.initiative_took_total_or_die", name=name, score=score, base=base, sum=total
        )
    return Message("widgets.initiative_took_total", name=name, score=score)


def box_help(name: str, base: int) -> Message:
    """The box's tooltip: what it takes."""
    return Message("widgets.initiative_box_help", name=name, base=base, sum=7 + base)


def roll_button(state: EncounterState) -> tuple[Message, Message, bool]:
    """The Roll button's label, tooltip and whether it is off: "Roll initiative" while no one
    has a score, "Roll the rest" once some have (how many: its tooltip), off when everyone has
    one (or the fight has started: a late joiner rolls as it is added)."""
    if state.started:
        return Message("widgets.roll_initiative"), Message("widgets.roll_started"), True
    present = state.present
    left = sum(1 for combatant in present if combatant.initiative is None)
    if not left:
        return Message("widgets.roll_initiative"), Message("widgets.roll_all_scored"), True
    if left == len(present):
        return Message("widgets.roll_initiative"), Message("widgets.roll_help"), False
    return (
        Message("widgets.roll_the_rest"),
        Message("widgets.roll_the_rest_help", count=left),
        False,
    )


def rolled_rest(state: EncounterState, rolled: dict[str, int]) -> Message | None:
    """What Roll the rest says: for how many it rolled, and whose typed scores stayed (None
    when it rolled for everyone)."""
    kept = tuple(c.name for c in state.present if c.id not in rolled and c.initiative is not None)
    if not kept:
        return None
    return Message("widgets.initiative_rolled_rest", count=len(rolled), kept=kept)
