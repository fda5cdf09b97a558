"""Necromunda movement: moves, runs, charges, a down fighter's crawl, terrain and obstacles.

Data: ``movement.yaml`` (allowances, terrain costs, obstacle heights). The GM measures the
table; the rules turn the measured path into a verdict and the effects to record.

- Move: up to M inches. Run: double, no shooting that turn, and the run stops as soon as the
  runner comes within 8" of an enemy it can see. Charge: double, at a declared enemy; reaching
  base contact (or a low wall between the bases) engages both; a charge that falls short moves
  as far as it can towards the target and the fighter does nothing else that turn.
- A down fighter may only crawl, 2" as if its M were 2; it may not run or charge.
- Terrain: each inch of difficult ground costs 2", very difficult 4"; impassable cannot be
  crossed. Obstacles up to 1" wide: under 1" high free; 1" to 2" high, climbing costs half the
  move; above 2" impassable.

Choices where the texts are silent:

- A path is a list of :class:`Leg` (inches of one terrain) and :class:`Obstacle` crossings;
  legs' costs add up (terrain halves a run just as it halves a move). Climbing an obstacle costs
  half of the move's allowance (half of 8" when running), each climb again.
- An obstacle exactly 1" high is climbed (the text: "under 1" is free; 1" to 2" climbs); one
  exactly 2" high is climbed too; one wider than 1" is terrain, not an obstacle: give it as a
  leg (the GM judges it).
- ``run_stop_at``: how far along the path the runner came within 8" of a seen enemy (the GM
  measures it); the run ends there. A charge does not stop so (it is declared at an enemy).
- A pinned fighter does not move (the seed's own pinning section is lost; this is the
  published rule); out of action fighters are off the table. A failed charge is a move of kind
  ``failed_charge``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems._tables import table
from gmkit.systems.base import Effect, Step
from gmkit.systems.necromunda._conditions import BOOK
from gmkit.systems.necromunda._state import Check, FighterState, MoveKind, failed

GAME = "necromunda"
Crossing = Literal["free", "climb", "impassable", "terrain"]


def _data() -> dict[str, Any]:
    data: dict[str, Any] = table(GAME, "movement")
    return data


@dataclass(frozen=True, slots=True)
class Leg:
    """``inches`` of one kind of ``terrain`` (open, difficult, very_difficult, impassable)."""

    inches: float
    terrain: str = "open"


@dataclass(frozen=True, slots=True)
class Obstacle:
    """A wall, pipe or rubble crossed on the way: its height and width in inches."""

    height: float
    width: float = 0.5


def terrain_term(terrain: str, english: str | None = None) -> Message:
    """A terrain's words (``necromunda.terrain.<id>``; English: the id with spaces, or
    ``english``)."""
    return Message.term(f"necromunda.terrain.{terrain}", english or terrain.replace("_", " "))


def move_kind(kind: str) -> Message:
    """A kind of move's words: move, run, charge, failed_charge, crawl, compulsory."""
    return Message.term(f"necromunda.move_kind.{kind}", kind)


def terrain_cost(terrain: str) -> int | None:
    """Inches of allowance one inch of ``terrain`` costs; None where it is impassable."""
    costs: dict[str, int | None] = _data()["terrain"]
    if terrain not in costs:
        raise RulesError(
            Message("necromunda.terrain.unknown", terrain=repr(terrain), known=tuple(costs))
        )
    return costs[terrain]


def obstacle_crossing(obstacle: Obstacle) -> Crossing:
    """How an obstacle is crossed: free, climb (half the move), impassable, or terrain."""
    rules: dict[str, float] = _data()["obstacles"]
    if obstacle.width > rules["obstacle_width"]:
        return "terrain"
    if obstacle.height < rules["free_below"]:
        return "free"
    return "climb" if obstacle.height <= rules["climb_up_to"] else "impassable"


def allowance(fighter: NecromundaFighter, kind: MoveKind) -> float:
    """Inches a move of ``kind`` allows: M, double M running or charging, 2" crawling."""
    data = _data()
    if kind == "crawl":
        return float(data["crawl_inches"])
    multiples: dict[str, float] = data["allowance"]
    basis = "charge" if kind == "failed_charge" else "move" if kind == "compulsory" else kind
    return fighter.M * multiples[basis]


def run_must_stop(distance_to_seen_enemy: float) -> bool:
    """Must a runner stop here, this close to an enemy it can see (within 8")?"""
    return distance_to_seen_enemy <= float(_data()["run_stop_within"])


MOVE_TYPES: dict[str, tuple[str, str]] = {
    "move": ("move", "move"),
    "run": ("run", "run"),
    "charge": ("charge", "charge"),
    "failed_charge": ("charge", "charge"),
    "crawl": ("move", "crawl"),
    "compulsory": ("move", "compulsory"),
}
"""Each kind of move as the budget's type and the action the condition book weighs it as."""


def move_checks(state: FighterState, kind: MoveKind) -> tuple[Check, ...]:
    """May a fighter in ``state`` make a move of ``kind``? What its conditions bar, the
    condition book says (the permits' restrictions: down, pinned, engaged)."""
    barred = BOOK.barring(state.names(), *MOVE_TYPES[kind])
    gone = Message("necromunda.reason.gone")
    checks = [Check("on the table", not state.out_of_action, gone)]
    if state.down:
        crawls = Message("necromunda.reason.down_crawls_2")
        checks.append(Check("down", "down" not in barred, crawls))
    else:
        only_down = Message("necromunda.reason.only_down_crawl")
        checks.append(Check("crawl", kind != "crawl", only_down))
    pinned = Message("necromunda.reason.pinned_moves")
    checks.append(Check("pinned", "pinned" not in barred, pinned))
    if kind in ("charge", "failed_charge"):
        engaged = Message("necromunda.reason.already_engaged")
        checks.append(Check("engaged", "engaged" not in barred, engaged))
    return tuple(checks)


@dataclass(frozen=True, slots=True)
class MovePlan:
    """A move measured against the rules: what it allows, what the path costs, the verdict."""

    kind: MoveKind
    allowance: float
    cost: float | None  # None: the path crosses something impassable
    moved: float  # inches of the path actually covered
    legal: bool
    steps: tuple[Step, ...]
    effects: tuple[Effect, ...]
    may_shoot: bool
    may_hide: bool


def path_cost(
    legs: Sequence[Leg], obstacles: Sequence[Obstacle], move_allowance: float
) -> tuple[float | None, list[Message]]:
    """Inches of allowance the path costs (None: impassable), with why."""
    total, why = 0.0, list[Message]()
    for leg in legs:
        per_inch = terrain_cost(leg.terrain)
        if per_inch is None:
            terrain = terrain_term(leg.terrain, leg.terrain)
            blocked = Message("necromunda.path.impassable_leg", inches=leg.inches, terrain=terrain)
            return None, [*why, blocked]
        total += leg.inches * per_inch
        if per_inch != 1:
            terrain = terrain_term(leg.terrain)
            why.append(
                Message(
                    "necromunda.path.leg_cost", inches=leg.inches, terrain=terrain, cost=per_inch
                )
            )
    climb_share = float(_data()["obstacles"]["climb_cost"])
    for obstacle in obstacles:
        crossing = obstacle_crossing(obstacle)
        if crossing == "impassable":
            too_high = Message("necromunda.path.obstacle_too_high", height=obstacle.height)
            return None, [*why, too_high]
        if crossing == "terrain":
            raise RulesError(Message("necromunda.path.obstacle_too_wide", width=obstacle.width))
        if crossing == "climb":
            total += move_allowance * climb_share
            why.append(Message("necromunda.path.climb", height=obstacle.height))
    return total, why


def _costs(cost: float | None, limit: float) -> Message:
    """The path's verdict: impassable, or what it costs of the allowance."""
    if cost is None:
        return Message("necromunda.path.impassable")
    return Message("necromunda.path.costs", cost=cost, limit=limit)


def _why(reasons: Sequence[Message]) -> Message:
    return Message("common.join", parts=tuple(reasons))


def truncate(legs: Sequence[Leg], inches: float) -> tuple[Leg, ...]:
    """The first ``inches`` of a path."""
    kept: list[Leg] = []
    for leg in legs:
        if inches <= 0:
            break
        kept.append(Leg(min(leg.inches, inches), leg.terrain))
        inches -= leg.inches
    return tuple(kept)


def plan_move(
    fighter: NecromundaFighter,
    kind: MoveKind,
    legs: Sequence[Leg] = (),
    obstacles: Sequence[Obstacle] = (),
    state: FighterState | None = None,
    *,
    run_stop_at: float | None = None,
) -> MovePlan:
    """Measure a move (``move``, ``run``, ``compulsory``, ``crawl``) along a path."""
    if kind in ("charge", "failed_charge"):
        raise RulesError(Message("necromunda.move.use_charge"))
    state = state or FighterState()
    limit = allowance(fighter, kind)
    up_to = Message("necromunda.move.up_to", kind=move_kind(kind), limit=limit)
    if kind == "crawl":
        basis = Message("necromunda.move.crawl_m", inches=limit)
    elif kind == "run":
        basis = Message("necromunda.move.double_m", m=fighter.M)
    else:
        basis = Message("necromunda.move.m", m=fighter.M)
    steps = [Step(Message("necromunda.step.move"), up_to, basis)]
    refused = failed(move_checks(state, kind))
    if kind == "run" and run_stop_at is not None:
        stop = _data()["run_stop_within"]
        legs = truncate(legs, run_stop_at)  # obstacles: those crossed before the stop
        stops = Message("necromunda.run.stops", inches=run_stop_at)
        seen = Message("necromunda.run.seen_enemy", within=stop)
        steps.append(Step(Message("necromunda.step.run"), stops, seen))
    cost, why = path_cost(legs, obstacles, limit)
    moved = sum(leg.inches for leg in legs)
    legal = not refused and cost is not None and cost <= limit
    steps.append(Step(Message("necromunda.step.path"), _costs(cost, limit), _why(why)))
    steps.extend(
        Step(Message("necromunda.step.refused"), check.name, check.reason) for check in refused
    )
    moved_note = Message("necromunda.effect.moved")
    effects = (
        (Effect("condition", fighter.name, condition=kind, rounds=1, note=moved_note),)
        if legal and kind != "move"
        else ()
    )
    return MovePlan(
        kind,
        limit,
        cost,
        moved,
        legal,
        tuple(steps),
        effects,
        may_shoot=legal and kind == "move",
        may_hide=legal and kind in ("move", "crawl"),
    )


@dataclass(frozen=True, slots=True)
class ChargeOutcome:
    """A declared charge: whether it reached, the steps and the effects (engaged / failed)."""

    target: str
    reached: bool
    allowance: float
    cost: float | None
    steps: tuple[Step, ...]
    effects: tuple[Effect, ...]


def charge(
    fighter: NecromundaFighter,
    target: str,
    legs: Sequence[Leg],
    obstacles: Sequence[Obstacle] = (),
    state: FighterState | None = None,
    *,
    across_low_wall: bool = False,
) -> ChargeOutcome:
    """A charge declared at ``target`` along the path to base contact (the GM measures it).

    ``across_low_wall``: the path ends at a low wall or obstacle between the bases, which still
    engages the two fighters.
    """
    state = state or FighterState()
    refused = failed(move_checks(state, "charge"))
    if refused:
        raise RulesError(
            Message("necromunda.charge.refused", name=fighter.name, reason=refused[0].reason)
        )
    limit = allowance(fighter, "charge")
    cost, why = path_cost(legs, obstacles, limit)
    reached = cost is not None and cost <= limit
    contact = Message(
        "necromunda.charge.low_wall" if across_low_wall else "necromunda.charge.contact"
    )
    title = Message("necromunda.step.charge")
    declared = Step(
        title,
        Message("necromunda.charge.declared", target=target),
        Message("necromunda.charge.allowance", limit=limit, m=fighter.M),
    )
    path = Step(Message("necromunda.step.path"), _costs(cost, limit), _why(why))
    named = Message.verbatim(target)
    if reached:
        result = Step(title, Message("necromunda.charge.reaches", target=target), contact)
        effects: tuple[Effect, ...] = (
            Effect("condition", fighter.name, condition="charging", rounds=1, note=named),
            Effect(
                "condition",
                fighter.name,
                condition="engaged",
                note=Message("necromunda.effect.engaged_with", name=target),
            ),
            Effect(
                "condition",
                target,
                condition="engaged",
                note=Message("necromunda.effect.engaged_with", name=fighter.name),
            ),
        )
    else:
        result = Step(
            title,
            Message("necromunda.charge.fails"),
            Message("necromunda.charge.falls_short", limit=limit, target=target),
        )
        effects = (
            Effect("condition", fighter.name, condition="failed_charge", rounds=1, note=named),
        )
    return ChargeOutcome(target, reached, limit, cost, (declared, path, result), effects)
