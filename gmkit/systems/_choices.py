"""What an attack panel may offer, asked of each game's own offers (its registry entry's).

A panel asks here instead of knowing any rule: :func:`attack_choices` gives the actions, fire
modes, circumstances and reactions a game offers an attacker with a weapon, and the distance
unit; :func:`refused_actions` says why an action is not offered (the rules' own refusal);
:func:`action_types` prices an action in the game's turn budget (``systems.turns``);
:func:`attack_preview` lists and totals the modifiers before any die where the rules expose
them; :func:`reactions_available` says which reactions the target may use against a request;
:func:`implied_circumstances` turns the combatants' conditions into the circumstances they set.

Each game implements :class:`~gmkit.systems.offers.Offers` in its own package
(``gmkit.systems.necromunda._offers``...); nothing here is a rule of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gmkit.messages import Text
from gmkit.plugins import entry
from gmkit.sheets.base import Sheet
from gmkit.systems.base import AttackChoices, AttackRequest, Choice
from gmkit.systems.offers import SHOOT, UNARMED, Offers, Preview, mode_choice


def offers(game: str) -> Offers:
    """The offers of ``game`` (its registry entry's)."""
    return entry(game).offers


def unit(game: str) -> str:
    """The unit ``game`` measures distances in: "m", "in" or "cm"."""
    return entry(game).unit


def weapons(game: str, sheet: Sheet) -> tuple[str, ...]:
    """The names of the weapons ``sheet`` can attack with in ``game``."""
    return offers(game).weapons(sheet)


def refused_actions(
    game: str,
    sheet: Sheet,
    weapon: str,
    mode: str,
    *,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Text]:
    """Every attack action of ``game``: "" when legal with ``weapon`` in ``mode``, else why not.

    ``options`` may carry the encounter's ``attacker_conditions`` (a pinned attacker...).
    """
    rules = offers(game)
    return {
        choice.id: rules.refusal(sheet, weapon, mode, choice.id, options or {})
        for choice in rules.actions()
    }


def attack_choices(
    game: str,
    attacker_sheet: Sheet,
    weapon_name: str,
    *,
    mode: str | None = None,
    action: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> AttackChoices:
    """What ``attacker_sheet`` may do with ``weapon_name`` in ``game``.

    The actions legal in some mode (in ``mode`` when given), the modes in which some action is
    legal, the circumstances (those that go with ``action`` when given), the defender's
    reactions and the distance unit.
    """
    rules = offers(game)
    candidates = rules.modes(attacker_sheet, weapon_name)
    legal: dict[str, set[str]] = {}
    for candidate in candidates:
        refused = refused_actions(game, attacker_sheet, weapon_name, candidate, options=options)
        legal[candidate] = {key for key, why in refused.items() if not why}
    modes = tuple(
        mode_choice(candidate, game=game) for candidate in candidates if legal.get(candidate)
    )
    wanted = legal.get(mode, set()) if mode is not None else set().union(*legal.values())
    return AttackChoices(
        actions=tuple(choice for choice in rules.actions() if choice.id in wanted),
        modes=modes,
        circumstances=rules.circumstances(action),
        reactions=rules.reactions(),
        distance_unit=unit(game),
    )


def actions(game: str) -> tuple[Choice, ...]:
    """Every attack action of ``game``'s catalog, legal or not."""
    return offers(game).actions()


def circumstances(game: str, action: str | None = None) -> tuple[Choice, ...]:
    """The circumstances of ``game`` (those that go with ``action`` when given)."""
    return offers(game).circumstances(action)


def reactions(game: str) -> tuple[Choice, ...]:
    """The defender's reactions in ``game`` (none in the D6 games)."""
    return offers(game).reactions()


def default_action(game: str, mode: str, offered: Iterable[str]) -> str:
    """The action a panel selects first among ``offered`` in ``mode`` ("" when none): the one
    the game's rules take a plain attack in that mode to be, else the first offered."""
    return offers(game).default_action(mode, offered)


def action_types(game: str, action: str) -> tuple[str, ...]:
    """The action types (``systems.turns`` action costs) ``action`` may be taken as."""
    return offers(game).action_types(action)


def locations(game: str, action: str) -> tuple[str, ...]:
    """The locations ``action`` asks for (a called shot), or () when it names none."""
    return offers(game).locations(action)


def attack_preview(game: str, request: AttackRequest) -> Preview | None:
    """The test before the dice, or None where the rules give it only with the dice."""
    return offers(game).preview(request)


def target_refusal(game: str, request: AttackRequest) -> Text:
    """Why the rules refuse the attack of ``request`` on its target before any die ("" when
    they do not): WFB 6e's targeting (a character inside a unit...)."""
    return offers(game).target_refusal(request)


def reactions_available(game: str, request: AttackRequest) -> dict[str, Text]:
    """Each reaction of ``game``: "" when the target may use it against ``request``, else why."""
    return offers(game).reactions_available(request)


def implied_circumstances(
    game: str,
    action: str,
    attacker_conditions: Iterable[str],
    target_conditions: Iterable[str],
    target_sheet: Sheet | None = None,
) -> dict[str, Any]:
    """Circumstances the combatants' conditions set (WFRP 2e: a running target, an aim) and
    those the target's sheet sets (WFRP 2e: a shield or a second weapon carried, a weapon in
    the other hand)."""
    return offers(game).implied(action, attacker_conditions, target_conditions, target_sheet)


def state_options(game: str, request: AttackRequest) -> dict[str, Any]:
    """Options the game's rules read, built from the encounter's standings in ``request``."""
    return offers(game).state_options(request)


__all__ = [
    "SHOOT",
    "UNARMED",
    "Preview",
    "action_types",
    "actions",
    "attack_choices",
    "attack_preview",
    "circumstances",
    "default_action",
    "implied_circumstances",
    "locations",
    "offers",
    "reactions",
    "reactions_available",
    "refused_actions",
    "state_options",
    "target_refusal",
    "unit",
    "weapons",
]
