"""What the attack panel may offer in WFB 6e, from seed 003's shooting rules.

Weapons: those that make an attack (a range, or a special rule naming a kind of attack). Mode:
the kind of attack the weapon makes (missile, template...). Action: Shoot. Circumstances: the
to-hit modifiers of ``shooting.yaml`` a GM sets (the automatic ones come from the situation).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.sheets._wfb6 import Weapon, WFB6Character
from gmkit.sheets.base import Sheet
from gmkit.systems.base import AttackRequest, Choice
from gmkit.systems.offers import SHOOT, Preview, ShootingOffers
from gmkit.systems.wfb6 import _shooting as shooting
from gmkit.systems.wfb6 import _targeting as targeting
from gmkit.systems.wfb6._data import shooting_rules, targeting_rules

GAME = "wfb6"


def find_weapon(sheet: Sheet, weapon: str) -> Weapon:
    """The weapon of ``sheet`` named ``weapon`` (any case, spaces around ignored)."""
    if not isinstance(sheet, WFB6Character):
        raise GmkitError(Message("wfb6.not_a_sheet.attacker"))
    return targeting.find_weapon(sheet, weapon.strip())


class WFB6Offers(ShootingOffers):
    game = GAME

    def weapons(self, sheet: Sheet) -> tuple[str, ...]:
        names = []
        for weapon in getattr(sheet, "weapons", ()):
            kind = targeting_rules().kind_of(weapon)
            if weapon.is_missile or kind.to_hit != "roll":
                names.append(weapon.name)
        return tuple(names)

    def modes(self, sheet: Sheet, weapon: str) -> tuple[str, ...]:
        return (str(targeting_rules().kind_of(find_weapon(sheet, weapon)).id),)

    def refusal(
        self, sheet: Sheet, weapon: str, mode: str, action: str, options: Mapping[str, Any]
    ) -> Text:
        if action != SHOOT.id:
            return Message("wfb6.offers.shooting_only", action=action)
        try:
            found = find_weapon(sheet, weapon)
            kind = targeting_rules().kind_of(found, mode)
        except GmkitError as error:
            return error.message
        if kind.to_hit == "roll" and not found.is_missile:
            return Message("wfb6.weapon.not_missile", weapon=found.name)
        return ""

    def circumstances(self, action: str | None) -> tuple[Choice, ...]:
        found = []
        for entry in shooting_rules().to_hit:
            if entry.automatic:
                continue
            if entry.value:
                helped = Message("wfb6.offers.to_hit_help", value=entry.value)
                found.append(Choice(entry.id, entry.term, help=helped))
            else:
                helped = Message("wfb6.offers.number_help")
                found.append(Choice(entry.id, entry.term, "number", help=helped))
        return tuple(found)

    def preview(self, request: AttackRequest) -> Preview | None:
        return None  # the target's modifiers come with may_target: shown from the steps

    def target_refusal(self, request: AttackRequest) -> Text:
        """Why the shot may not target ``request.target`` (seed 003: a character inside a
        unit, a unit not the closest...; "" when it may, or the GM lets it be)."""
        return shooting.refusal(request)


OFFERS = WFB6Offers()
