"""Duel's rules: a duellist's sheet, a strike, what a panel offers, the pacing and the wounds.

Two swordsmen; a strike hits on 2d6 at or under the attacker's Skill (a lunge: +2) and takes
one wound; a duellist has two wounds. The sides take turns, one strike a turn. Every text is a
message of Duel's own catalogs (``duel.*``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Literal

import gmkit_duel.catalogs  # noqa: F401  (Duel's catalogs are joined before its messages below)
from gmkit.dice import DiceSource
from gmkit.messages import Message, Text
from gmkit.sheets.base import Sheet
from gmkit.systems.base import AttackRequest, AttackResult, Choice, Effect, Step
from gmkit.systems.health import less_damage
from gmkit.systems.offers import Preview
from gmkit.systems.options import AttackOptions, option
from gmkit.systems.turns import TurnStructure

GAME_ID = "duel"


class Duellist(Sheet):
    game: Literal["duel"] = "duel"
    skill: int = 7
    wounds: int = 2


def duel_health(sheet: Sheet, counters: Mapping[str, int]) -> tuple[int, int]:
    """How hurt a duellist is (the registry's ``health``): its wounds less the damage taken."""
    total = int(getattr(sheet, "wounds", 2))
    return less_damage(total, total, counters)


class DuelOptions(AttackOptions):
    game: ClassVar[str] = GAME_ID
    lunge: bool = option(
        False, Message("duel.option.lunge"), offered=True, label=Message("duel.option.lunge_label")
    )


def needed(request: AttackRequest) -> int:
    skill = int(request.attacker.skill)  # type: ignore[attr-defined]
    return skill + (2 if request.options.lunge else 0)


class DuelRules:
    game = GAME_ID

    def resolve_attack(self, request: AttackRequest, source: DiceSource) -> AttackResult:
        first = source.roll_die(6, Message("duel.die.strike", number=1))
        second = source.roll_die(6, Message("duel.die.strike", number=2))
        total, target = first.value + second.value, needed(request)
        hit = total <= target
        step = Step(
            Message("duel.strike"),
            Message("duel.hit" if hit else "duel.miss"),
            Message("duel.against", total=total, needed=target),
            (first, second),
            target,
        )
        effects = (Effect("damage", request.target.name, amount=1),) if hit else ()
        summary = Message("duel.hits" if hit else "duel.misses", name=request.attacker.name)
        return AttackResult(request, (step,), effects, int(hit), summary)


STRIKE = Choice("strike", Message("duel.strike"))


class DuelOffers:
    game = GAME_ID

    def weapons(self, sheet: Sheet) -> tuple[str, ...]:
        return ("Sword",)

    def modes(self, sheet: Sheet, weapon: str) -> tuple[str, ...]:
        return ("melee",)

    def actions(self) -> tuple[Choice, ...]:
        return (STRIKE,)

    def refusal(
        self, sheet: Sheet, weapon: str, mode: str, action: str, options: Mapping[str, Any]
    ) -> Text:
        return ""

    def circumstances(self, action: str | None) -> tuple[Choice, ...]:
        return ()

    def reactions(self) -> tuple[Choice, ...]:
        return ()

    def action_types(self, action: str) -> tuple[str, ...]:
        return ("strike",)

    def locations(self, action: str) -> tuple[str, ...]:
        return ()

    def default_action(self, mode: str, offered: Iterable[str]) -> str:
        return next(iter(offered), "")

    def target_refusal(self, request: AttackRequest) -> Text:
        return ""  # no target the request names is refused before the roll

    def preview(self, request: AttackRequest) -> Preview | None:
        target = needed(request)
        return Preview(Message("duel.strike"), "2d6", Message("duel.skill"), (), 0, target)

    def reactions_available(self, request: AttackRequest) -> dict[str, Text]:
        return {}

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


TURNS = TurnStructure(
    kind="sides",
    turn_pools={"strikes": 1},
    action_costs={"strike": {"strikes": 1}, "free": {}},
    phases=("fight",),
)

__all__ = [
    "GAME_ID",
    "STRIKE",
    "TURNS",
    "DuelOffers",
    "DuelOptions",
    "DuelRules",
    "Duellist",
    "duel_health",
    "needed",
]
