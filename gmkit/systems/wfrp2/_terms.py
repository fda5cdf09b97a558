"""The words of WFRP 2e that its modules share, as messages (``wfrp2.*`` in the catalogs).

The data's own names (an action's, a circumstance's, a quality's) are terms of their catalog
entries (:attr:`~gmkit.systems.wfrp2._catalogs.Action.label`...); what is here is the words the
rules use that no data file names: attack forms, action types, wound states, reloads, weapon
groups, the reactions, bare hands, and the numbering of a swift attack's attacks ("Attack 2:").
A value the catalogs have no word for (a GM's own) is shown as it is.
"""

from __future__ import annotations

from gmkit.messages import Message
from gmkit.systems._percentile import characteristic

UNARMED = "Unarmed"
MODES = ("melee", "ranged")
ACTION_TYPES = ("full", "half", "free", "varies")
REACTIONS = ("parry", "dodge")
WOUND_STATES = {
    "unhurt": "unhurt",
    "lightly wounded": "lightly_wounded",
    "seriously wounded": "seriously_wounded",
}
MOVES = ("move", "charge", "run")


def slug(name: str) -> str:
    """A data name as the last part of a message id: "Armour Piercing" is armour_piercing."""
    return "_".join(name.casefold().replace("-", " ").replace("'", "").split())


def mode_name(mode: str) -> Message:
    """An attack form as the rules name it: melee, ranged (an adjective in Spanish)."""
    return Message(f"wfrp2.mode.{mode}") if mode in MODES else Message.verbatim(mode)


def action_type(kind: str) -> Message:
    """An action's type: "half action", "full action"..."""
    return Message(f"wfrp2.action_type.{kind}") if kind in ACTION_TYPES else Message.verbatim(kind)


def reaction_name(reaction: str) -> Message:
    """A reaction in lower case: parry, dodge (``{reaction:cap}`` for a title)."""
    if reaction in REACTIONS:
        return Message(f"wfrp2.reaction.{reaction}")
    return Message.verbatim(reaction)


def wound_state(state: str) -> Message:
    """A wound state of the sheet (002): unhurt, lightly wounded, seriously wounded."""
    found = WOUND_STATES.get(state)
    return Message(f"wfrp2.wound_state.{found}") if found else Message.verbatim(state)


def weapon_name(name: str) -> Message:
    """A weapon's name, as the data files name it in the reader's language; bare hands too."""
    return Message("wfrp2.weapon.unarmed") if name == UNARMED else Message.named(name)


def weapon_group(group: str) -> Message:
    """A weapon group of the sheet ("Fencing")."""
    return Message.term(f"wfrp2.weapon_group.{slug(group)}", group)


def reload_name(reload: str) -> Message:
    """A weapon's reload: Half, Full, "2 Full" (actions)."""
    if reload == "Half":
        return Message("wfrp2.reload.half")
    if reload == "Full":
        return Message("wfrp2.reload.full")
    count, _, rest = reload.partition(" ")
    if rest == "Full" and count.isdigit():
        return Message("wfrp2.reload.full_times", count=int(count))
    return Message.verbatim(reload)


def movement_name(key: str) -> Message:
    """A key of the sheet's movement: move, charge, run."""
    return Message(f"wfrp2.movement.{key}") if key in MOVES else Message.verbatim(key)


def rated(key: str, value: int) -> Message:
    """A characteristic and its value: "WS 41" (HA 41)."""
    return Message("wfrp2.rated", characteristic=characteristic(key), value=value)


def numbered(text: Message, number: int | None) -> Message:
    """A title of one attack of several: "Attack 2: WS test" (``number`` None: as it is)."""
    return text if number is None else Message("wfrp2.numbered", number=number, text=text)


def numbered_die(text: Message, number: int | None) -> Message:
    """A die's purpose for one attack of several: "attack 2: parry"."""
    return text if number is None else Message("wfrp2.die.numbered", number=number, text=text)


def number(value: int) -> Message:
    """A bare number as a step's outcome ("9")."""
    return Message("wfrp2.number", value=value)


__all__ = [
    "ACTION_TYPES",
    "MODES",
    "MOVES",
    "REACTIONS",
    "UNARMED",
    "WOUND_STATES",
    "action_type",
    "mode_name",
    "movement_name",
    "number",
    "numbered",
    "numbered_die",
    "rated",
    "reaction_name",
    "reload_name",
    "slug",
    "weapon_group",
    "weapon_name",
    "wound_state",
]
