"""The attack offered first: the rules' offers for an attacker, kept, and the default attack of
a combatant at one state, worked out once by the situation for every panel.

The cascade a panel offers (attacker -> weapon -> mode -> action -> target) starts from these
defaults: the attacker's first weapon, that weapon's first legal mode, the mode's standard
attack among the actions the rules and the combatant's footing allow (the budget, its
conditions, whose turn), and the first visible enemy still in the fight whom the rules let
the attack target (WFB: never a character inside a unit). A target the rules refuse is never a
default: with every enemy refused there is no default target, and the refusal says why.

What the rules offer an attacker (its modes, the actions refused in a mode) is a pure function
of its sheet, the weapon, the mode and its conditions and counters: :class:`OfferCache` keeps
it, so the turn coming round again asks nothing twice; the encounter keeps one for the
situation and the panels alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from gmkit.encounter._requests import attack_request
from gmkit.encounter._state import Combatant, EncounterState
from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.systems import _choices as choices
from gmkit.systems._conditions import out_of_the_fight as declared_out
from gmkit.systems.base import AttackChoices, AttackRequest
from gmkit.systems.offers import Preview

CACHED = 64
"""What the rules offer, kept for this many (attacker, weapon, mode, conditions) at most."""


class OfferCache:
    """The rules' offers for an attacker (see the module docstring), kept."""

    def __init__(self) -> None:
        self._kept: dict[tuple[Any, ...], tuple[Any, Any]] = {}

    def get(self, game: str, attacker: Combatant, weapon: str, mode: str | None) -> Any:
        """``attack_choices`` (``mode`` None) or ``refused_actions`` in ``mode``."""
        options = {
            "attacker_conditions": sorted(attacker.conditions),
            "attacker_counters": dict(attacker.counters),
        }
        counters = tuple(sorted(attacker.counters.items()))
        key = (attacker.id, weapon, mode, tuple(options["attacker_conditions"]), counters)
        kept = self._kept.get(key)
        sheet = attacker.sheet
        if kept is not None and (kept[0] is sheet or kept[0] == sheet):
            return kept[1]
        found: AttackChoices | dict[str, Text]
        if mode is None:
            found = choices.attack_choices(game, sheet, weapon, options=options)
        else:
            found = choices.refused_actions(game, sheet, weapon, mode, options=options)
        if len(self._kept) >= CACHED:
            self._kept.clear()
        self._kept[key] = (sheet, found)
        return found


@dataclass(frozen=True)
class DefaultAttack:
    """The attack offered first to ``attacker`` (see the module docstring): its choices, the
    request and the preview before the dice; ``refusal`` says why there is none (no weapon, no
    attack allowed now, every enemy refused) and is "" when there is one; ``needs``, what the
    preview still waits for (a shot's distance: no preview until the GM gives it)."""

    attacker: str
    weapon: str = ""
    mode: str = ""
    action: str = ""
    target: str = ""
    request: AttackRequest | None = None
    preview: Preview | None = None
    refusal: Text = ""
    needs: Text = ""  # what the GM must still give before the preview (a shot's distance)
    args: Mapping[str, Any] = field(default_factory=dict)  # the request's keywords


def _args(action: str, mode: str, circumstances: dict[str, Any]) -> dict[str, Any]:
    """The keywords of a default attack's request (as a panel with nothing else set sends)."""
    return {
        "action": action,
        "mode": mode,
        "distance": None,
        "called_location": None,
        "circumstances": circumstances,
        "options": {},
    }


def default_attack(
    state: EncounterState,
    attacker: Combatant,
    refused_now: Mapping[str, Text | None],
    cache: OfferCache,
) -> DefaultAttack:
    """The default attack of ``attacker`` in ``state``; ``refused_now``: each attack action's
    one reason against it now, None where its footing allows it (the situation's)."""
    game = state.game
    weapons = choices.weapons(game, attacker.sheet)
    if not weapons:
        return DefaultAttack(attacker.id, refusal=Message("form.no_weapon", name=attacker.name))
    weapon = weapons[0]
    every: AttackChoices = cache.get(game, attacker, weapon, None)
    mode = every.modes[0].id if every.modes else ""
    refused: dict[str, Text] = cache.get(game, attacker, weapon, mode) if mode else {}
    catalog = [choice.id for choice in choices.actions(game)]
    offered = [a for a in catalog if not refused.get(a, "x") and refused_now.get(a) is None]
    action = choices.default_action(game, mode, offered) if mode else ""
    no_attack = Message("default_attack.no_attack", name=attacker.name)
    if not action:  # the one reason: the footing's first (pinned, not its phase), the weapon's
        now = [why for a in catalog if (why := refused_now.get(a)) is not None]
        said = [why for why in refused.values() if why]
        said = now + said
        return DefaultAttack(attacker.id, weapon, mode, refusal=said[0] if said else no_attack)
    targets = foes_first(list(state.present), attacker)
    first: Text = ""  # the first foe's refusal is the one said
    known = {choice.id for choice in choices.circumstances(game, action)}
    for ident in _foes(state, attacker.side, targets):
        target = state.combatants[ident]
        implied = choices.implied_circumstances(
            game, action, attacker.conditions, target.conditions, target.sheet
        )  # what the conditions and the target's sheet set, as a panel shows them
        args = _args(action, mode, {k: v for k, v in implied.items() if k in known})
        try:
            request = attack_request(state, attacker, weapon, target, **args)
            why = choices.target_refusal(game, request)
        except (GmkitError, ValueError) as error:  # the request itself refused: the reason
            first = first or (error.message if isinstance(error, GmkitError) else str(error))
            continue
        if why:
            first = first or why
            continue
        chosen = DefaultAttack(attacker.id, weapon, mode, action, ident, request, args=args)
        try:
            return replace(chosen, preview=choices.attack_preview(game, request))
        except GmkitError as error:  # a choice still to make (a shot's distance): said
            return replace(chosen, needs=error.message)
    refusal = first or Message("default_attack.no_foe", name=attacker.name)
    return DefaultAttack(attacker.id, weapon, mode, action, refusal=refusal)


def _foes(state: EncounterState, side: str | None, targets: tuple[str, ...]) -> list[str]:
    """The visible enemies of ``side`` still in the fight (none of the conditions the game
    declares out of it: dead, out of action, unconscious), in ``targets``' order."""
    out = declared_out((state.game,))
    found = []
    for ident in targets:
        combatant = state.combatants[ident]
        if (
            combatant.side != side
            and not combatant.hidden
            and not out & combatant.conditions.keys()
        ):
            found.append(ident)
    return found


def default_target(
    state: EncounterState,
    attacker: str,
    targets: tuple[str, ...],
    allowed: Callable[[str], bool] | None = None,
) -> str:
    """The first visible enemy still in the fight whom the rules let the attack target
    (``allowed``: asks the rules), else the first such enemy, else the first target offered;
    "" when the rules refuse every enemy (the form then says why)."""
    own = state.combatants[attacker].side if attacker in state.combatants else None
    foes = _foes(state, own, targets)
    if allowed is not None and foes:
        return next((ident for ident in foes if allowed(ident)), foes[0])
    if foes:
        return foes[0]
    return targets[0] if targets else ""


def foes_first(present: list[Combatant], attacker: Combatant) -> tuple[str, ...]:
    """Everyone else in the fight, the attacker's foes first."""
    others = [c for c in present if c.id != attacker.id]
    return tuple(c.id for c in sorted(others, key=lambda c: c.side == attacker.side))


__all__ = [
    "CACHED",
    "DefaultAttack",
    "OfferCache",
    "default_attack",
    "default_target",
    "foes_first",
]
