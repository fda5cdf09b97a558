"""What the attack panel may offer in Necromunda, from seed 000's shooting rules.

Weapons: the fighter's shooting weapons (seed 000 has no close combat). Mode: "shooting".
Action: Shoot. Circumstances: the to-hit modifiers of ``to_hit_modifiers.yaml`` (labels and
help texts from the catalogs: ``necromunda.modifier.*``, ``necromunda.offers.*``). The fighter
states the rules read (:class:`~gmkit.systems.necromunda._state.FighterState`) come from the
request's standings (conditions "pinned", "down", "out of action", "hidden", "engaged", and the
``damage`` counter as wounds lost): the rules build them, so :meth:`state_options` adds none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.sheets.base import Sheet
from gmkit.systems.base import AttackRequest, Choice
from gmkit.systems.necromunda import SYSTEM
from gmkit.systems.necromunda._shooting import (
    Circumstance,
    catalog,
    circumstance_ref,
    range_band,
    shooting_weapons,
    shot_setup,
    weapon_of,
)
from gmkit.systems.offers import SHOOT, Preview, ShootingOffers

GAME = "necromunda"


class NecromundaOffers(ShootingOffers):
    game = GAME

    def weapons(self, sheet: Sheet) -> tuple[str, ...]:
        return tuple(weapon.name for weapon in shooting_weapons(sheet))  # type: ignore[arg-type]

    def modes(self, sheet: Sheet, weapon: str) -> tuple[str, ...]:
        return ("shooting",)

    def refusal(
        self, sheet: Sheet, weapon: str, mode: str, action: str, options: Mapping[str, Any]
    ) -> Text:
        if action != SHOOT.id:
            return Message("necromunda.offers.shots_only", action=action)
        try:
            found = weapon_of(sheet, weapon)  # type: ignore[arg-type]
        except GmkitError as error:
            return error.message
        if found.kind == "close combat":
            return Message("necromunda.offers.close_combat_weapon", weapon=found.name)
        return ""

    def circumstances(self, action: str | None) -> tuple[Choice, ...]:
        found = []
        for item in catalog().values():
            kind: Literal["flag", "number"] = "flag" if item.threshold is None else "number"
            found.append(Choice(item.id, item.label, kind, help=_help(item)))
        return tuple(found)

    def preview(self, request: AttackRequest) -> Preview:
        setup = shot_setup(request, SYSTEM.settings)
        notes: list[Text] = [check.refusal for check in setup.refused]
        if setup.band is not None:
            notes.insert(0, Message("necromunda.preview.range", band=range_band(setup.band)))
        if setup.weapon.template:
            notes.insert(0, Message("necromunda.preview.template"))
        total = sum(modifier.value for modifier in setup.modifiers)
        return Preview(
            Message("necromunda.preview.to_hit"),
            "D6",
            Message("necromunda.preview.base", bs=setup.bs, base=7 - setup.bs),
            setup.modifiers,
            total,
            setup.needed,
            tuple(notes),
        )


def _help(item: Circumstance) -> Message:
    """A circumstance's help: its value, when it applies, what it excludes, its threshold."""
    if item.when:
        found = Message("necromunda.offers.help_when", value=item.value, when=item.applies_when)
    else:
        found = Message("necromunda.offers.help", value=item.value)
    if item.excludes:
        excluded = tuple(circumstance_ref(other) for other in item.excludes)
        found = Message("necromunda.offers.help_not_with", help=found, excludes=excluded)
    if item.threshold is not None:
        found = Message("necromunda.offers.help_from", help=found, threshold=item.threshold)
    return found


OFFERS = NecromundaOffers()
