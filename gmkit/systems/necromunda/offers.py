"""What the attack panel may offer in Necromunda, from seed 000's shooting rules.

Weapons: the fighter's shooting weapons (seed 000 has no close combat). Mode: "shooting".
Action: Shoot. Circumstances: the to-hit modifiers of ``to_hit_modifiers.yaml``. The fighter
states the rules read (:class:`~gmkit.systems.necromunda.state.FighterState`) come from the
encounter's standings: conditions "pinned", "down", "out of action", "hidden", "flesh wound"
(the encounter keeps one condition of a name, so it counts as one flesh wound more than the
sheet's), and the ``damage`` counter as wounds lost.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.sheets.base import Sheet
from gmkit.systems.base import AttackRequest, Choice
from gmkit.systems.necromunda import SYSTEM
from gmkit.systems.necromunda.shooting import catalog, shooting_weapons, shot_setup, weapon_of
from gmkit.systems.offers import SHOOT, Preview, first_preferred

GAME = "necromunda"


class NecromundaOffers:
    game = GAME

    def weapons(self, sheet: Sheet) -> tuple[str, ...]:
        return tuple(weapon.name for weapon in shooting_weapons(sheet))  # type: ignore[arg-type]

    def modes(self, sheet: Sheet, weapon: str) -> tuple[str, ...]:
        return ("shooting",)

    def actions(self) -> tuple[Choice, ...]:
        return (SHOOT,)

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
            help_text = f"{item.value:+d}: {item.when}" if item.when else f"{item.value:+d}"
            if item.excludes:
                help_text += f" (not with {', '.join(item.excludes)})"
            if item.threshold is not None:
                help_text += f"; applies from {item.threshold:g}"
                found.append(Choice(item.id, item.name, "number", help=help_text))
            else:
                found.append(Choice(item.id, item.name, help=help_text))
        return tuple(found)

    def reactions(self) -> tuple[Choice, ...]:
        return ()

    def action_types(self, action: str) -> tuple[str, ...]:
        return ("shoot",)

    def locations(self, action: str) -> tuple[str, ...]:
        return ()

    def default_action(self, mode: str, offered: Iterable[str]) -> str:
        return first_preferred([SHOOT.id], offered)

    def preview(self, request: AttackRequest) -> Preview:
        setup = shot_setup(request, SYSTEM.settings)
        notes: list[Text] = [f"{check.rule}: {check.reason}" for check in setup.refused]
        if setup.band is not None:
            notes.insert(0, f"{setup.band} range")
        if setup.weapon.template:
            notes.insert(0, Message("necromunda.preview.template"))
        total = sum(modifier.value for modifier in setup.modifiers)
        return Preview(
            Message("necromunda.preview.to_hit"),
            "D6",
            f"7 - BS {setup.bs} = {7 - setup.bs}",
            setup.modifiers,
            total,
            setup.needed,
            tuple(notes),
        )

    def reactions_available(self, request: AttackRequest) -> dict[str, Text]:
        return {}

    def implied(
        self, action: str, attacker: Iterable[str], target: Iterable[str]
    ) -> dict[str, Any]:
        return {}

    def state_options(self, request: AttackRequest) -> dict[str, Any]:
        return {}  # the rules read the fighters' states from the request's standings


OFFERS = NecromundaOffers()
