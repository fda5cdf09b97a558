"""What the d100 games' pacing shares: the turn's action costs (001 "1 full or 2 half actions
and any free actions"), initiative from Agility, and the conditions that change a round's
reactions (:class:`~gmkit.systems.turns.ReactionCondition`). Each game's structure is in its own
package (``systems/_imperial/pacing.py``, ``systems/wfrp2/_pacing.py``)."""

from __future__ import annotations

from collections.abc import Mapping

from gmkit.sheets.base import Sheet
from gmkit.systems.turns import ReactionCondition

D100_ACTIONS: dict[str, dict[str, int]] = {
    "full": {"actions": 2},
    "half": {"actions": 1},
    "free": {},
    "extended": {"actions": 2},
}
"""Action type -> the pools of the turn it costs."""

ALL_OUT_ATTACK = ReactionCondition(None, "turns.reaction_barred.all_out_attack")
"""004/002: no Dodge or Parry until the start of the attacker's next turn."""

REACTION_CONDITIONS: Mapping[str, ReactionCondition] = {
    "all_out_attack": ALL_OUT_ATTACK,
    # 004: one extra Reaction until the start of the actor's next turn
    "defensive_stance": ReactionCondition(1, "turns.reaction_barred.defensive_stance"),
}
"""The 40k games' conditions (by id, as the actions leave them on their actor) that change the
round's reaction pools. WFRP's Defensive Stance adds none (002: the attackers' -20 is its
whole effect): its structure has All Out Attack's alone."""


def agility_bonus(sheet: Sheet) -> int:
    """The 40k games' initiative base: the Agility Bonus."""
    return int(sheet.bonus("Ag"))  # type: ignore[attr-defined]


def agility(sheet: Sheet) -> int:
    """WFRP's initiative base: the Agility characteristic."""
    return int(sheet.characteristics.Ag)  # type: ignore[attr-defined]


__all__ = ["ALL_OUT_ATTACK", "D100_ACTIONS", "REACTION_CONDITIONS", "agility", "agility_bonus"]
