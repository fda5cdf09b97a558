"""The words the 40k rules name in their messages: fire modes, weapon classes, qualities,
damage types, action types, the request's fields, and the game's own name for Righteous Fury.

Each is a message of the catalogs (``imperial.*`` for the rules' own words, ``<game>.*`` for
what a data file names: a quality, a term a GM may rename), so a step reads in the GM's
language; a value no catalog names reads as it is. Data terms (an action's, a condition's
name) are built by the catalogs' dataclasses themselves (``Action.label``...), with the ids
``<game>.<kind>.<id>`` and the data's English as their default.
"""

from __future__ import annotations

import re

from gmkit.messages import Message, catalogs

MODES = (
    "single",
    "semi",
    "full",
    "suppressing",
    "melee",
    "thrown",
    "stun",
    "knock_down",
    "feint",
    "manoeuvre",
    "grapple",
)
WEAPON_CLASSES = ("melee", "pistol", "basic", "heavy", "thrown")
ACTION_TYPES = ("half", "full", "free", "reaction", "extended", "any")
DAMAGE_TYPES = ("Energy", "Explosive", "Impact", "Rending")
LOCATION_CLASSES = ("arm", "body", "head", "leg")
TESTS = ("attack", "Dodge", "Parry", "all")
MOVES = ("half", "full", "charge", "run")
FIELDS = {
    "game": "game",
    "action": "action",
    "weapon": "weapon",
    "mode": "mode",
    "distance": "distance",
    "called_location": "called_location",
    "attacker": "attacker",
    "reaction": "reaction",
    "when": "when",
    "condition": "condition",
    "conditions": "conditions",
    "damage_type": "damage_type",
    "location": "location",
    "value": "value",
    "options['attacker_conditions']": "attacker_conditions",
    "options['target_conditions']": "target_conditions",
}
_SLUG = re.compile(r"[^a-z0-9]+")


def slug(text: str) -> str:
    """An id part made of ``text``: "Aim (half)" -> aim_half."""
    return _SLUG.sub("_", text.casefold()).strip("_")


def _known(message_id: str, fallback: str) -> Message:
    if catalogs().english(message_id) is not None:
        return Message(message_id)
    return Message.verbatim(fallback)


def mode_name(mode: str) -> Message:
    """A fire mode or attack form by its id ("semi": semi, semiautomático)."""
    return _known(f"imperial.mode.{mode}", mode)


def modes_named(modes: tuple[str, ...] | list[str]) -> tuple[Message, ...]:
    return tuple(mode_name(mode) for mode in modes)


def weapon_class(kind: str) -> Message:
    """A class of weapon ("basic": basic, Básica)."""
    return _known(f"imperial.weapon_class.{kind}", kind)


def action_type(kind: str) -> Message:
    """A type of action ("half": half, media)."""
    return _known(f"imperial.action_type.{kind}", kind)


def damage_type(kind: str) -> Message:
    """A damage type ("Energy": Energy, Energía)."""
    return _known(f"imperial.damage_type.{kind}", kind)


def location_class(kind: str) -> Message:
    """A class of hit location ("arm": arm, brazo)."""
    return _known(f"imperial.location_class.{kind}", kind)


def tested(test: str) -> Message:
    """What a modifier spec's test names: a characteristic, an attack, Dodge, Parry, all."""
    from gmkit.systems._percentile import characteristic  # the d100 games' abbreviations

    if test in TESTS:
        return Message(f"imperial.tested.{test}")
    return characteristic(test)


def move_name(move: str) -> Message:
    """A move of the sheet's movement ("charge": charge, carga)."""
    return _known(f"imperial.move.{move}", move)


def quality(game: str, name: str) -> Message:
    """A weapon quality a rule names ("Blast": Blast, Explosión), a term of ``game``'s data."""
    return Message.term(f"{game}.quality.{slug(name)}", name)


def fury(game: str) -> Message:
    """The game's name for Righteous Fury (in Spanish one term in both games: Furia Justiciera)."""
    return _known(f"{game}.righteous_fury", "Righteous Fury")


def field_label(name: str) -> Message:
    """A field of the request as a refusal names it (``'weapon'``: the field's own name)."""
    key = FIELDS.get(name)
    return Message(f"imperial.field.{key}") if key else Message.verbatim(name)


def hit_label(number: int) -> Message:
    """ "hit 3": which hit of an attack."""
    return Message("imperial.hit", number=number)


__all__ = [
    "action_type",
    "damage_type",
    "field_label",
    "fury",
    "hit_label",
    "location_class",
    "mode_name",
    "modes_named",
    "move_name",
    "quality",
    "slug",
    "tested",
    "weapon_class",
]
