"""What a game offers an attacker, as a panel asks it: the protocol each game implements.

Each game's package has an ``offers`` module whose class implements :class:`Offers` from its
own catalogs and rules (``gmkit.systems.wfrp2._offers``...); the game's registry entry holds
it, and :mod:`gmkit.systems._choices` asks it. Nothing here decides legality: an offer asks the
rules (a refused request is not offered, and the refusal is the reason shown).

Fire modes and reactions, which no catalog names, are labelled here (``offers.mode.*``,
``offers.reaction.*`` in the catalogs).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from gmkit.messages import Message, Text, catalogs
from gmkit.sheets.base import Sheet
from gmkit.systems.base import AttackRequest, Choice, Modifier

UNARMED = "Unarmed"
MODES = ("melee", "ranged", "thrown", "single", "semi", "full", "suppressing", "shooting")
"""The fire modes and attack forms that have a label of their own (``offers.mode.<id>``)."""


@dataclass(frozen=True, slots=True)
class Preview:
    """An attack's test before the dice: what it is rolled against, and why.

    ``target`` is the number to roll: at most ``target`` on a d100 for the d100 games, at
    least ``target`` on the 7+ chart (a 6, then ``target - 3``) for Necromunda; None when no
    test is rolled (a template).
    """

    title: Text  # "BS test", "To hit"
    die: str  # "d100" (roll at most the target) or "D6" (the 7+ chart: at least the target)
    base: Text  # "BS 43", "7 - BS 2 = 5"
    modifiers: tuple[Modifier, ...]
    total: int  # the modifiers' total as applied (capped at +/-60 in the 40k games)
    target: int | None
    notes: tuple[Text, ...] = ()

    @property
    def uncapped(self) -> int:
        return sum(modifier.value for modifier in self.modifiers)


class Offers(Protocol):
    """What a panel may offer in one game (see the module docstring)."""

    game: str

    def weapons(self, sheet: Sheet) -> tuple[str, ...]: ...
    def modes(self, sheet: Sheet, weapon: str) -> tuple[str, ...]: ...
    def actions(self) -> tuple[Choice, ...]: ...
    def refusal(
        self, sheet: Sheet, weapon: str, mode: str, action: str, options: Mapping[str, Any]
    ) -> Text: ...
    def circumstances(self, action: str | None) -> tuple[Choice, ...]: ...
    def reactions(self) -> tuple[Choice, ...]: ...
    def action_types(self, action: str) -> tuple[str, ...]: ...
    def locations(self, action: str) -> tuple[str, ...]: ...
    def default_action(self, mode: str, offered: Iterable[str]) -> str: ...
    def preview(self, request: AttackRequest) -> Preview | None: ...
    def target_refusal(self, request: AttackRequest) -> Text: ...
    def reactions_available(self, request: AttackRequest) -> dict[str, Text]: ...
    def implied(
        self,
        action: str,
        attacker: Iterable[str],
        target: Iterable[str],
        target_sheet: Sheet | None = None,
    ) -> dict[str, Any]: ...
    def state_options(self, request: AttackRequest) -> dict[str, Any]: ...


def mode_label(mode: str, game: str = "") -> Message:
    """A fire mode's or attack form's label: gmkit's own (``offers.mode.<mode>``), else the
    game's kind of attack (``<game>.attack_kind.<mode>``: WFB's template, magic missile...)."""
    if mode in MODES:
        return Message(f"offers.mode.{mode}")
    kind = f"{game}.attack_kind.{mode}"
    if game and catalogs().english(kind) is not None:
        return Message("offers.mode.named", mode=Message(kind))
    return Message.verbatim(mode.replace("_", " ").capitalize())


def mode_choice(mode: str, help_text: Text = "", game: str = "") -> Choice:
    return Choice(mode, mode_label(mode, game), help=help_text)


def reaction_choice(reaction: str, label: Text | None = None, help_text: Text = "") -> Choice:
    if label is None:
        known = reaction in ("parry", "dodge")
        label = Message(f"offers.reaction.{reaction}") if known else reaction.capitalize()
    return Choice(reaction, label, help=help_text)


def first_preferred(preferred: Iterable[str], offered: Iterable[str]) -> str:
    """The first of ``preferred`` among ``offered``, else the first offered ("" when none)."""
    ids = list(offered)
    return next((action for action in preferred if action in ids), ids[0] if ids else "")


SHOOT = Choice("shoot", Message("offers.action.shoot"), help=Message("offers.action.shoot_help"))


class ShootingOffers:
    """What the D6 games' offers share: one action, Shoot, priced as a shot of the turn; no
    reactions, called locations, implied circumstances or options built from the standings.
    A game's offers subclass it and give their weapons, modes, refusals, circumstances and
    preview (Necromunda's, WFB 6e's)."""

    game = ""

    def actions(self) -> tuple[Choice, ...]:
        return (SHOOT,)

    def reactions(self) -> tuple[Choice, ...]:
        return ()

    def action_types(self, action: str) -> tuple[str, ...]:
        return ("shoot",)

    def locations(self, action: str) -> tuple[str, ...]:
        return ()

    def default_action(self, mode: str, offered: Iterable[str]) -> str:
        return first_preferred([SHOOT.id], offered)

    def reactions_available(self, request: AttackRequest) -> dict[str, Text]:
        return {}

    def target_refusal(self, request: AttackRequest) -> Text:
        return ""  # a game whose rules may refuse a target says why (WFB 6e's)

    def implied(
        self,
        action: str,
        attacker: Iterable[str],
        target: Iterable[str],
        target_sheet: Sheet | None = None,
    ) -> dict[str, Any]:
        return {}

    def state_options(self, request: AttackRequest) -> dict[str, Any]:
        return {}


__all__ = [
    "MODES",
    "SHOOT",
    "UNARMED",
    "Offers",
    "Preview",
    "ShootingOffers",
    "first_preferred",
    "mode_choice",
    "mode_label",
    "reaction_choice",
]
