"""What the attack panel may offer in WFRP 2e, from the game's own catalogs and rules.

Weapons: the sheet's and "Unarmed" (002 fights bare-handed). Modes: "melee" or "ranged" (a
weapon is used in its own mode only). Actions: the catalog's attack actions; an action is
refused as ``attack_setup`` refuses it. Circumstances set by a combatant's conditions (a
running target, an aim) or by the target's sheet (a shield or a second weapon carried: a weapon
in the other hand, so it may parry) are implied (``implied``): the panel shows them set, and the
GM may turn one off.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.sheets.base import Sheet
from gmkit.systems._percentile import characteristic, modifiers_text
from gmkit.systems.base import AttackRequest, Choice, Modifier
from gmkit.systems.offers import UNARMED, Preview, first_preferred, reaction_choice
from gmkit.systems.wfrp2 import _catalogs as catalogs
from gmkit.systems.wfrp2._catalogs import Circumstance, sheet_circumstances
from gmkit.systems.wfrp2._setup import attack_setup, find_weapon, reactions_available
from gmkit.systems.wfrp2._terms import action_type, rated, reaction_name

GAME = "wfrp2"


def _signed(values: Mapping[str, int]) -> Message:
    """The modifiers by characteristic: "WS +20, BS -20" (HA +20, HP -20)."""
    return modifiers_text(Modifier(characteristic(key), value) for key, value in values.items())


def circumstance_help(item: Circumstance) -> Message:
    """What a circumstance does, in one line (its help in the panel)."""
    if item.value:
        return Message("wfrp2.offers.value_help")
    parts: list[Message] = [_signed(item.modifiers)] if item.modifiers else []
    if item.reaction_modifier:
        parts.append(Message("wfrp2.offers.reaction_modifier", value=item.reaction_modifier))
    if item.no_reactions:
        parts.append(Message("wfrp2.offers.no_reactions"))
    parts += [Message("wfrp2.offers.allows", reaction=reaction_name(n)) for n in item.allows]
    parts += [Message("wfrp2.offers.blocks", reaction=reaction_name(n)) for n in item.blocks]
    if item.auto_hit:
        parts.append(Message("wfrp2.offers.auto_hit"))
    if item.extra_damage:
        parts.append(Message("wfrp2.offers.extra_damage", dice=item.extra_damage))
    if item.actions:
        known = catalogs.actions()
        names = tuple(known[a].label if a in known else a for a in item.actions)
        parts.append(Message("wfrp2.offers.only_with", actions=names))
    return Message("common.join", parts=tuple(parts))


class WFRP2Offers:
    game = GAME

    def weapons(self, sheet: Sheet) -> tuple[str, ...]:
        return (*(weapon.name for weapon in getattr(sheet, "weapons", ())), UNARMED)

    def modes(self, sheet: Sheet, weapon: str) -> tuple[str, ...]:
        found = find_weapon(sheet, weapon)  # type: ignore[arg-type]
        return ("ranged",) if found.is_ranged else ("melee",)

    def actions(self) -> tuple[Choice, ...]:
        found = []
        for item in catalogs.actions().values():
            if not item.is_attack:
                continue
            note = item.note_text
            kind = action_type(item.type)
            help_text = (
                kind if note is None else Message("wfrp2.offers.action_help", type=kind, note=note)
            )
            found.append(Choice(item.id, item.label, help=help_text))
        return tuple(found)

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
            kind: Literal["number", "flag"] = "number" if item.value else "flag"
            found.append(Choice(item.id, item.label, kind, help=circumstance_help(item)))
        return tuple(found)

    def reactions(self) -> tuple[Choice, ...]:
        return tuple(reaction_choice(name) for name in catalogs.REACTIONS)

    def action_types(self, action: str) -> tuple[str, ...]:
        return (catalogs.action(action).type,)

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
            Message("wfrp2.preview.test", characteristic=characteristic(setup.characteristic)),
            "d100",
            rated(setup.characteristic, setup.base),
            setup.modifiers,
            total,
            setup.base + total,
            tuple(notes),
        )

    def target_refusal(self, request: AttackRequest) -> Text:
        return ""  # no target the request names is refused before the roll

    def reactions_available(self, request: AttackRequest) -> dict[str, Text]:
        return {
            name: "" if option.available else option.reason
            for name, option in reactions_available(request).items()
        }

    def implied(
        self,
        action: str,
        attacker: Iterable[str],
        target: Iterable[str],
        target_sheet: Sheet | None = None,
    ) -> dict[str, Any]:
        held = {"attacker": set(attacker), "target": set(target)}
        found: dict[str, Any] = {
            item.id: True
            for item in catalogs.circumstances().values()
            if item.condition
            and item.condition in held[item.bearer]
            and not (item.actions and action not in item.actions)
        }
        return {**found, **sheet_circumstances(target_sheet)}

    def state_options(self, request: AttackRequest) -> dict[str, Any]:
        return {}


OFFERS = WFRP2Offers()
