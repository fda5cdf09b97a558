"""The options a WFRP 2e attack takes, declared once (:class:`WFRP2Options`).

What the encounter knows (the combatants' conditions, the reactions the target spent this
round) is not an option: it comes in the request's standings
(:func:`gmkit.systems.wfrp2.encounter_circumstances`).

- ``reaction``: the defender's choice before the dice, "parry", "dodge" or None for every
  attack (used on the first hit it can be), or one per attack (a swift attack's), as a tuple
  (a list is taken as one). "" and "none" read as None. Set by the panel's own reaction
  control (not offered as an option).
- ``parry_weapon``: the target's weapon that parries (else its first Defensive melee weapon,
  else its first melee weapon). A GM's choice.
- ``ulrics_fury``: Ulric's Fury on (the default) or off: it is the WFRP book's rule, not seed
  002's, so the panel offers the switch, its help saying so.
- ``critical_table``: the path of the GM's critical table (a YAML file of the format of the
  packaged ``criticals.yaml``, e.g. ``examples/criticals/wfrp2_example.yaml``); None: the
  critical hits ask the GM for their effect (002 has no table:
  :mod:`gmkit.systems.wfrp2._criticals`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from pydantic import field_validator
from pydantic_core import PydanticCustomError

from gmkit.messages import Message
from gmkit.systems.options import AttackOptions, option

Reaction = Literal["parry", "dodge"]
REACTION_CHOICES: tuple[Reaction, ...] = ("parry", "dodge")
NO_REACTION = ("", "none")


def _one_reaction(value: Any) -> Reaction | None:
    if value is None or value in NO_REACTION:
        return None
    if isinstance(value, str) and value in REACTION_CHOICES:
        return value
    expected = " or ".join(repr(choice) for choice in REACTION_CHOICES)
    raise PydanticCustomError("literal_error", "Input should be {expected}", {"expected": expected})


class WFRP2Options(AttackOptions):
    """The GM's choices and house rules for one WFRP 2e attack (see the module docstring)."""

    game: ClassVar[str] = "wfrp2"

    # one reaction or a tuple of them, set by the panel's own reaction control: not offered
    reaction: Reaction | tuple[Reaction | None, ...] | None = option(
        None, Message("wfrp2.option.reaction"), offered=False
    )
    parry_weapon: str | None = option(
        None,
        Message("wfrp2.option.parry_weapon"),
        offered=True,
        label=Message("wfrp2.option_label.parry_weapon"),
    )
    ulrics_fury: bool = option(
        True,
        Message("wfrp2.option.ulrics_fury"),
        offered=True,
        label=Message("wfrp2.option_label.ulrics_fury"),
    )
    critical_table: str | None = option(
        None,
        Message("wfrp2.option.critical_table"),
        offered=True,
        label=Message("wfrp2.option_label.critical_table"),
    )

    @field_validator("reaction", mode="before")
    @classmethod
    def _reaction(cls, value: Any) -> Any:
        if isinstance(value, Sequence) and not isinstance(value, str):
            return tuple(_one_reaction(item) for item in value)
        return _one_reaction(value)


__all__ = ["NO_REACTION", "REACTION_CHOICES", "Reaction", "WFRP2Options"]
