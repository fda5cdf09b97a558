"""The options a 40k attack takes, declared once: :class:`DarkHeresyOptions`,
:class:`DeathwatchOptions` (both on :class:`ImperialOptions`, what the two games share).

What the encounter knows (the combatants' conditions, the reactions the target spent this
round, the round) is not an option: the rules read it from the request's standings
(``request.attacker_standing``, ``request.target_standing``). ``AttackRequest(...,
options={...})`` validates a mapping into the attacker's game's model: an unknown option, a
value of the wrong type or out of range is refused by name (a RulesError).

The GM's choices a panel offers: the parry weapon, the attacker's handling (two weapons, the
off hand, a basic weapon in one hand, the other hand's weapon, moving while firing), the
actions taken before the attack (``prepared``), whether the target is armed, whether a horde
may react, how far a dodging target must go, the covered locations, the grapple's choices and
sizes, the overwatch declaration, the GM's override of the limits, and Dark Heresy's house
rules. Set by gmkit's own parts (not offered): the reaction (the panel's own control), the
reactions left (the encounter counts them), the flag of an overwatch that fires, the modifiers
the GM adds to the defender's tests from Python.
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

    reaction: Reaction | None = option(
        None, "The target's reaction: dodge, parry or none (the panel's own control)"
    )
    reactions_left: int | None = option(
        None,
        "Reactions the target has left this round (None: the round's pools less those spent)",
        ge=0,
        le=10,
    )
    parry_weapon: str | None = option(
        None, "The target's melee weapon that parries (else its first melee weapon)", offered=True
    )
    reaction_modifiers: GM_MODIFIERS = option(
        (), "Modifiers the GM adds to the target's Dodge or Parry, {source: value}"
    )
    defender_modifiers: GM_MODIFIERS = option(
        (), "Modifiers the GM adds to the target's side of an opposed test, {source: value}"
    )
    dodge_distance: int | float | None = option(
        None,
        "Metres a dodging target must go to leave an area attack (None: within reach)",
        offered=True,
        ge=0,
    )
    horde_reacts: bool = option(
        False, "The GM lets a horde dodge and parry like a single creature (004)", offered=True
    )
    target_armed: bool | None = option(
        None,
        "Whether the target holds a weapon against an unarmed attack (None: its sheet says)",
        offered=True,
    )
    prepared: dict[str, bool | Taken] = option(
        {},
        "What the attacker did before this attack: {action id: half, full or true} "
        "(aim, brace_heavy_weapon, a won feint, a half move before a Knock-Down)",
        offered=True,
    )
    move_and_fire: bool = option(
        False, "The attacker moves its Agility Bonus in metres while firing a burst", offered=True
    )
    two_weapons: bool = option(
        False, "The attacker attacks with a weapon in each hand (Multiple Attacks)", offered=True
    )
    off_hand: bool = option(False, "The attack is made with the off hand", offered=True)
    one_handed: bool = option(False, "A basic weapon is held in one hand", offered=True)
    second_weapon: str | None = option(
        None, "The weapon in the attacker's other hand (two-weapon fighting)", offered=True
    )
    grapple: bool | GrappleChoice = option(
        False,
        "True: an unarmed attack grapples instead of dealing damage; or the grapple option "
        "taken (push, damage, throw_down, break_free...)",
        offered=True,
    )
    grapple_option: str | None = option(
        None, "The option of the Grapple action taken (one of its options' ids)", offered=True
    )
    size_difference: int = option(
        0,
        "Size categories the attacker is above the target (below: negative), for a grapple",
        offered=True,
        ge=-10,
        le=10,
    )
    covered_locations: tuple[CoverPlace, ...] | None = option(
        None,
        "The locations a bare number of cover points covers (None: the catalog's, body and legs)",
        offered=True,
    )
    overwatch: bool = option(
        False, "The attack is a declared overwatch that triggered (its target tests pinning)"
    )
    overwatch_mode: OverwatchMode | None = option(
        None, "The fire an overwatch declares: full, semi or suppressing", offered=True
    )
    trigger: str | None = option(
        None, "What triggers a declared overwatch, in the GM's words", offered=True
    )
    kill_zone: str | None = option(
        None, "The kill zone of a declared overwatch, in the GM's words", offered=True
    )
    gm_override: bool = option(
        False,
        "The GM overrules the limits (conditions that forbid the action, a charge's distance, "
        "house-rule limits): they become warnings",
        offered=True,
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

    house_rules: dict[str, bool] = option(
        {},
        "Switch seed 001's house rules off or on: {house rule id: true or false} "
        "(house_rules.yaml)",
        offered=True,
    )
    righteous_fury_house_rule: bool = option(
        False,
        "Seed 001's house Righteous Fury (the 2nd-edition beta): 1d5 critical damage at once, "
        "no confirmation",
        offered=True,
    )
    unaware_auto_hit: bool = option(
        False, "The GM lets an attack on an unaware target succeed automatically", offered=True
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
