"""What the attack panel may offer in WFRP 2e, from the game's own catalogs and rules.

Weapons: the sheet's and "Unarmed" (002 fights bare-handed). Modes: "melee" or "ranged" (a
weapon is used in its own mode only). Actions: the catalog's attack actions; an action is
refused as ``attack_setup`` refuses it. Circumstances set by a combatant's conditions (a
running target, an aim) are implied (``implied``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.sheets.base import Sheet
from gmkit.systems.base import AttackRequest, Choice
from gmkit.systems.offers import UNARMED, Preview, first_preferred, reaction_choice
from gmkit.systems.wfrp2 import catalogs
from gmkit.systems.wfrp2.setup import attack_setup, find_weapon, reactions_available

GAME = "wfrp2"


def _signed(values: Mapping[str, int]) -> str:
    return ", ".join(f"{key} {value:+d}" for key, value in values.items())


class WFRP2Offers:
    game = GAME

    def weapons(self, sheet: Sheet) -> tuple[str, ...]:
        return (*(weapon.name for weapon in getattr(sheet, "weapons", ())), UNARMED)

    def modes(self, sheet: Sheet, weapon: str) -> tuple[str, ...]:
        found = find_weapon(sheet, weapon)  # type: ignore[arg-type]
        return ("ranged",) if found.is_ranged else ("melee",)

    def actions(self) -> tuple[Choice, ...]:
        return tuple(
            Choice(item.id, item.name, help=f"{item.type} action: {item.note}".strip(": "))
            for item in catalogs.actions().values()
            if item.is_attack
        )

    def refusal(
        self, sheet: Sheet, weapon: str, mode: str, action: str, options: Mapping[str, Any]
    ) -> Text:
        request = AttackRequest(sheet, weapon, sheet, action=action, mode=mode)
        try:
            attack_setup(request)
        except GmkitError as error:
            return error.message
        return ""

    def circumstances(self, action: str | None) -> tuple[Choice, ...]:
        found = []
        for item in catalogs.circumstances().values():
            if action is not None and item.actions and action not in item.actions:
                continue
            parts = [_signed(item.modifiers)] if item.modifiers else []
            if item.reaction_modifier:
                parts.append(f"target's parry and dodge {item.reaction_modifier:+d}")
            if item.no_reactions:
                parts.append("no parry or dodge")
            parts += [f"allows {name}" for name in item.allows]
            parts += [f"no {name}" for name in item.blocks]
            if item.auto_hit:
                parts.append("hits automatically")
            if item.extra_damage:
                parts.append(f"+{item.extra_damage} damage")
            if item.actions:
                parts.append(f"only with {', '.join(item.actions)}")
            kind = "number" if item.value else "flag"
            help_text = "the modifier itself" if item.value else "; ".join(parts)
            found.append(Choice(item.id, item.name, kind, help=help_text))
        return tuple(found)

    def reactions(self) -> tuple[Choice, ...]:
        return tuple(reaction_choice(name) for name in catalogs.REACTIONS)

    def action_types(self, action: str) -> tuple[str, ...]:
        return (catalogs.actions()[action].type,)

    def locations(self, action: str) -> tuple[str, ...]:
        return ()  # 002 has no called shots

    def default_action(self, mode: str, offered: Iterable[str]) -> str:
        return first_preferred(["standard_attack"], offered)

    def preview(self, request: AttackRequest) -> Preview:
        setup = attack_setup(request)
        total = sum(modifier.value for modifier in setup.modifiers)
        notes: list[Text] = list(setup.notes)
        if setup.auto_hit:
            notes.insert(0, Message("wfrp2.preview.auto_hit"))
        if setup.attacks > 1:
            notes.insert(0, Message("wfrp2.preview.attacks", attacks=setup.attacks))
        return Preview(
            Message("wfrp2.preview.test", characteristic=setup.characteristic),
            "d100",
            f"{setup.characteristic} {setup.base}",
            setup.modifiers,
            total,
            setup.base + total,
            tuple(notes),
        )

    def reactions_available(self, request: AttackRequest) -> dict[str, Text]:
        return {
            name: "" if option.available else option.reason
            for name, option in reactions_available(request).items()
        }

    def implied(
        self, action: str, attacker: Iterable[str], target: Iterable[str]
    ) -> dict[str, Any]:
        held = {"attacker": set(attacker), "target": set(target)}
        return {
            item.id: True
            for item in catalogs.circumstances().values()
            if item.condition
            and item.condition in held[item.bearer]
            and not (item.actions and action not in item.actions)
        }

    def state_options(self, request: AttackRequest) -> dict[str, Any]:
        return {}


OFFERS = WFRP2Offers()
