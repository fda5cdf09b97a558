"""Duel: a toy sixth game, one package and one registration (tests/games/test_toy_game.py).

Two swordsmen; a strike hits on 2d6 at or under the attacker's Skill and takes one wound. Its
parts, each the protocol gmkit's layers ask for: a sheet model, the rules (resolve_attack),
an options model, the offers a panel shows, the pacing (sides, one strike a turn) and the exact
odds. Nothing in gmkit names this game: ``register(GAME)`` is all it takes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any, ClassVar, Literal

from gmkit.dice import DiceSource
from gmkit.games import Game, OddsEngine
from gmkit.messages import Message, Text
from gmkit.odds import Dist, Odds
from gmkit.sheets.base import Sheet
from gmkit.systems.acting import (
    ActionInfo,
    ActionRequest,
    ActionResult,
    Bearer,
    Due,
    Moment,
    NoTurnRules,
    Restriction,
    unknown_action,
)
from gmkit.systems.base import AttackRequest, AttackResult, Choice, Effect, Step
from gmkit.systems.offers import Preview
from gmkit.systems.options import AttackOptions, option
from gmkit.systems.turns import TurnStructure

GAME_ID = "duel"


class Duellist(Sheet):
    game: Literal["duel"] = "duel"
    skill: int = 7
    wounds: int = 2


class DuelOptions(AttackOptions):
    game: ClassVar[str] = GAME_ID
    lunge: bool = option(False, "a lunge: +2 Skill", offered=True)


def _needed(request: AttackRequest) -> int:
    skill = int(request.attacker.skill)  # type: ignore[attr-defined]
    return skill + (2 if request.options.lunge else 0)


class DuelRules:
    game = GAME_ID

    def resolve_attack(self, request: AttackRequest, source: DiceSource) -> AttackResult:
        first = source.roll_die(6, Message.verbatim("strike die 1"))
        second = source.roll_die(6, Message.verbatim("strike die 2"))
        total, needed = first.value + second.value, _needed(request)
        hit = total <= needed
        step = Step(
            Message.verbatim("Strike"),
            Message.verbatim("hit" if hit else "miss"),
            Message.verbatim(f"{total} against {needed}"),
            (first, second),
            needed,
        )
        effects = (Effect("damage", request.target.name, amount=1),) if hit else ()
        summary = Message.verbatim(f"{request.attacker.name} {'hits' if hit else 'misses'}")
        return AttackResult(request, (step,), effects, int(hit), summary)


STRIKE = Choice("strike", Message.verbatim("Strike"))


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
        needed = _needed(request)
        return Preview(Message.verbatim("Strike"), "2d6", Message.verbatim("Skill"), (), 0, needed)

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


def duel_odds(request: AttackRequest) -> Odds:
    needed = _needed(request)
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= needed)
    hit = Fraction(ways, 36)
    hits = Dist({1: ways, 0: 36 - ways}, 36)
    states = Dist({"wounded": ways, "unhurt": 36 - ways}, 36)
    return Odds(GAME_ID, hits, Dist.certain(1), hits, hits, states, {"hit": hit})


class DuelTurns(NoTurnRules):
    """The rules of the turn beyond strikes: a stunned duellist does nothing, a disarmed one
    may only pick up its sword; a salute (free), a feint (a strike's worth, one side, a d6:
    4+ leaves the foe off guard for a round); a bleeding duellist rolls a d6 at the end of
    its side's turn and loses a wound on 1-2."""

    def restrictions(self, conditions: Iterable[str]) -> tuple[Restriction, ...]:
        found: list[Restriction] = []
        for name in conditions:
            if name == "stunned":
                found.append(Restriction(name, Message.verbatim("stunned"), no_actions=True))
            if name == "disarmed":
                found.append(
                    Restriction(
                        name,
                        Message.verbatim("disarmed: picks up the sword first"),
                        actions=frozenset({"pick_up"}),
                        no_reactions=True,
                    )
                )
        return tuple(found)

    def actions(self) -> tuple[ActionInfo, ...]:
        side = Choice("side", Message.verbatim("side"), "choice", ("left", "right"))
        return (
            ActionInfo("salute", Message.verbatim("Salute"), ("free",)),
            ActionInfo(
                "feint", Message.verbatim("Feint"), ("strike",), target=True, inputs=(side,)
            ),
            ActionInfo("pick_up", Message.verbatim("Pick up"), ("strike",)),
        )

    def perform_action(self, request: ActionRequest, source: DiceSource) -> ActionResult:
        name = request.actor.name
        if request.action == "salute":
            step = Step(Message.verbatim("Salute"), Message.verbatim("salutes"))
            return ActionResult((step,), summary=Message.verbatim(f"{name} salutes"))
        if request.action == "pick_up":
            effect = Effect("remove_condition", name, condition="disarmed")
            step = Step(Message.verbatim("Pick up"), Message.verbatim("armed again"))
            return ActionResult((step,), (effect,))
        if request.action == "feint":
            assert request.target is not None
            die = source.roll_die(6, Message.verbatim("feint die"))
            fooled = die.value >= 4
            side = str(request.inputs.get("side", "left"))
            step = Step(
                Message.verbatim("Feint"),
                Message.verbatim("fooled" if fooled else "not fooled"),
                Message.verbatim(f"{die.value} against 4, to the {side}"),
                (die,),
                4,
            )
            off_guard = Effect("condition", request.target.name, condition="off guard", rounds=1)
            return ActionResult((step,), (off_guard,) if fooled else ())
        raise unknown_action(request.action, self.actions())

    def turn_rolls(self, moment: Moment, bearer: Bearer) -> tuple[Due, ...]:
        if moment == "end_of_turn" and "bleeding" in bearer.standing.conditions:
            text = Message.verbatim(f"{bearer.sheet.name} bleeds: 1-2 loses a wound")
            return (Due("bleeding", text, (6,)),)
        return ()

    def roll_due(self, due: Due, bearer: Bearer, source: DiceSource) -> ActionResult:
        if due.rule != "bleeding":
            return super().roll_due(due, bearer, source)
        die = source.roll_die(6, Message.verbatim("bleeding die"))
        lost = die.value <= 2
        step = Step(
            Message.verbatim("Bleeding"),
            Message.verbatim("a wound lost" if lost else "holds"),
            rolls=(die,),
        )
        effects = (Effect("damage", bearer.sheet.name, amount=1),) if lost else ()
        return ActionResult((step,), effects)


TURNS = TurnStructure(
    kind="sides",
    turn_pools={"strikes": 1},
    action_costs={"strike": {"strikes": 1}, "free": {}},
    phases=("fight",),
)

GAME = Game(
    id=GAME_ID,
    title=Message.verbatim("Duel"),
    sheet=Duellist,
    rules=DuelRules(),
    options=DuelOptions,
    offers=DuelOffers(),
    turns=TURNS,
    unit="paces",
    odds=OddsEngine(duel_odds),
    acting=DuelTurns(),
)
