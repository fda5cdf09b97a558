"""The options a 40k attack takes, declared once: :class:`DarkHeresyOptions`,
:class:`DeathwatchOptions` (both on :class:`ImperialOptions`, what the two games share).

What the encounter knows (the combatants' conditions, the reactions the target spent this
round, the round) is not an option: the rules read it from the request's standings
(``request.attacker_standing``, ``request.target_standing``). ``AttackRequest(...,
options={...})`` validates a mapping into the attacker's game's model: an unknown option, a
value of the wrong type or out of range is refused by name (a RulesError).

The GM's choices a panel offers (each with its label and help as messages): the parry
weapon, the attacker's handling (two weapons, the off hand, a basic weapon in one hand, the
other hand's weapon, moving while firing), whether the target is armed, whether a horde may
react, how far a dodging target must go, the grapple's option and the sizes, the overwatch
declaration, the ally engaged with the target whom a shot into melee that misses may hit
instead (``engaged_ally``, a combatant's name), the GM's override of the limits, and Dark
Heresy's house Righteous Fury and sure
hit on an unaware target. Given from Python (values no simple panel control asks for):
the actions taken before the attack (``prepared``), the covered locations, Dark Heresy's house
rule switches (``house_rules``), ``grapple`` (True or a grapple choice). Set by gmkit's own
parts (not offered): the reaction (the panel's own control), the reactions left (the encounter
counts them), the flag of an overwatch that fires, the modifiers the GM adds to the defender's
tests from Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from pydantic import InstanceOf, field_validator

from gmkit.messages import Message
from gmkit.systems.base import Modifier
from gmkit.systems.options import AttackOptions, option

Reaction = Literal["dodge", "parry", "none"]
Taken = Literal["half", "full", "any"]
CoverPlace = Literal[
    "head", "right_arm", "left_arm", "body", "right_leg", "left_leg", "arms", "legs", "all"
]
OverwatchMode = Literal["full", "semi", "suppressing"]
GrappleChoice = Literal[
    "start",
    "damage",
    "throw_down",
    "throw",
    "push",
    "ready",
    "stand",
    "release",
    "break_free",
    "slip",
    "wriggle",
    "wriggle_free",
    "take_control",
]
GM_MODIFIERS = dict[str, int] | tuple[InstanceOf[Modifier], ...]


def _tuple(value: Any) -> Any:
    """A list given for a tuple field (a list of locations, of modifiers) as a tuple."""
    return tuple(value) if isinstance(value, list) else value


class ImperialOptions(AttackOptions):
    """The GM's choices for one Dark Heresy or Deathwatch attack (see the module docstring)."""

    game: ClassVar[str] = ""

    reaction: Reaction | None = option(None, Message("imperial.option.reaction"))
    reactions_left: int | None = option(
        None, Message("imperial.option.reactions_left"), ge=0, le=10
    )
    parry_weapon: str | None = option(
        None,
        Message("imperial.option.parry_weapon"),
        offered=True,
        label=Message("imperial.option_label.parry_weapon"),
    )
    # a mapping or modifiers, given from Python: no simple control asks for them
    reaction_modifiers: GM_MODIFIERS = option((), Message("imperial.option.reaction_modifiers"))
    defender_modifiers: GM_MODIFIERS = option((), Message("imperial.option.defender_modifiers"))
    dodge_distance: int | float | None = option(
        None,
        Message("imperial.option.dodge_distance"),
        offered=True,
        label=Message("imperial.option_label.dodge_distance"),
        ge=0,
    )
    horde_reacts: bool = option(
        False,
        Message("imperial.option.horde_reacts"),
        offered=True,
        label=Message("imperial.option_label.horde_reacts"),
    )
    target_armed: bool | None = option(
        None,
        Message("imperial.option.target_armed"),
        offered=True,
        label=Message("imperial.option_label.target_armed"),
    )
    # a mapping of the actions taken before, given from Python: no simple control asks for it
    prepared: dict[str, bool | Taken] = option({}, Message("imperial.option.prepared"))
    move_and_fire: bool = option(
        False,
        Message("imperial.option.move_and_fire"),
        offered=True,
        label=Message("imperial.option_label.move_and_fire"),
    )
    two_weapons: bool = option(
        False,
        Message("imperial.option.two_weapons"),
        offered=True,
        label=Message("imperial.option_label.two_weapons"),
    )
    off_hand: bool = option(
        False,
        Message("imperial.option.off_hand"),
        offered=True,
        label=Message("imperial.option_label.off_hand"),
    )
    one_handed: bool = option(
        False,
        Message("imperial.option.one_handed"),
        offered=True,
        label=Message("imperial.option_label.one_handed"),
    )
    second_weapon: str | None = option(
        None,
        Message("imperial.option.second_weapon"),
        offered=True,
        label=Message("imperial.option_label.second_weapon"),
    )
    # True or a grapple choice: no one simple control asks for both (grapple_option is offered)
    grapple: bool | GrappleChoice = option(False, Message("imperial.option.grapple"))
    grapple_option: str | None = option(
        None,
        Message("imperial.option.grapple_option"),
        offered=True,
        label=Message("imperial.option_label.grapple_option"),
    )
    size_difference: int = option(
        0,
        Message("imperial.option.size_difference"),
        offered=True,
        label=Message("imperial.option_label.size_difference"),
        ge=-10,
        le=10,
    )
    # a tuple of locations, given from Python: no simple control asks for it
    covered_locations: tuple[CoverPlace, ...] | None = option(
        None, Message("imperial.option.covered_locations")
    )
    overwatch: bool = option(False, Message("imperial.option.overwatch"))
    overwatch_mode: OverwatchMode | None = option(
        None,
        Message("imperial.option.overwatch_mode"),
        offered=True,
        label=Message("imperial.option_label.overwatch_mode"),
    )
    trigger: str | None = option(
        None,
        Message("imperial.option.trigger"),
        offered=True,
        label=Message("imperial.option_label.trigger"),
    )
    kill_zone: str | None = option(
        None,
        Message("imperial.option.kill_zone"),
        offered=True,
        label=Message("imperial.option_label.kill_zone"),
    )
    engaged_ally: str | None = option(
        None,
        Message("imperial.option.engaged_ally"),
        offered=True,
        label=Message("imperial.option_label.engaged_ally"),
    )
    gm_override: bool = option(
        False,
        Message("imperial.option.gm_override"),
        offered=True,
        label=Message("imperial.option_label.gm_override"),
    )

    @field_validator("covered_locations", "reaction_modifiers", "defender_modifiers", mode="before")
    @classmethod
    def _listed(cls, value: Any) -> Any:
        return _tuple(value)

    @field_validator("reaction", mode="before")
    @classmethod
    def _reaction(cls, value: Any) -> Any:
        return None if value == "" else value


class DeathwatchOptions(ImperialOptions):
    """A Deathwatch attack's options: the shared ones (Deathwatch has no house rules)."""

    game: ClassVar[str] = "deathwatch"


class DarkHeresyOptions(ImperialOptions):
    """A Dark Heresy attack's options: the shared ones and seed 001's house rules."""

    game: ClassVar[str] = "dark_heresy"

    # a mapping of house rule switches, given from Python: no simple control asks for it
    house_rules: dict[str, bool] = option({}, Message("imperial.option.house_rules"))
    righteous_fury_house_rule: bool = option(
        False,
        Message("imperial.option.righteous_fury_house_rule"),
        offered=True,
        label=Message("imperial.option_label.righteous_fury_house_rule"),
    )
    unaware_auto_hit: bool = option(
        False,
        Message("imperial.option.unaware_auto_hit"),
        offered=True,
        label=Message("imperial.option_label.unaware_auto_hit"),
    )


def house_rule_switches(options: ImperialOptions) -> dict[str, bool]:
    """The house rules the options switch (Dark Heresy's; none in Deathwatch)."""
    return dict(options.house_rules) if isinstance(options, DarkHeresyOptions) else {}


def fury_house_rule(options: ImperialOptions) -> bool:
    """Whether the options ask for 001's house Righteous Fury (Dark Heresy's only)."""
    return isinstance(options, DarkHeresyOptions) and options.righteous_fury_house_rule


def unaware_auto_hit(options: ImperialOptions) -> bool:
    """Whether the GM lets an attack on an unaware target succeed (001, Dark Heresy's)."""
    return isinstance(options, DarkHeresyOptions) and options.unaware_auto_hit


def gm_modifiers(values: GM_MODIFIERS | Sequence[Modifier]) -> list[Modifier]:
    """The GM's modifiers of an option, ``{source: value}`` or modifiers, as modifiers."""
    if isinstance(values, dict):
        return [Modifier(Message.verbatim(name), value) for name, value in values.items()]
    return list(values)


__all__ = [
    "CoverPlace",
    "DarkHeresyOptions",
    "DeathwatchOptions",
    "GrappleChoice",
    "ImperialOptions",
    "OverwatchMode",
    "Reaction",
    "fury_house_rule",
    "gm_modifiers",
    "house_rule_switches",
    "unaware_auto_hit",
]
