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
from gmkit.sheets.necromunda import NecromundaFighter
from gmkit.systems.base import Effect, Step
from gmkit.systems.necromunda.state import Check, FighterState, MoveKind, failed
from gmkit.systems.tables import table

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


def terrain_cost(terrain: str) -> int | None:
    """Inches of allowance one inch of ``terrain`` costs; None where it is impassable."""
    costs: dict[str, int | None] = _data()["terrain"]
    if terrain not in costs:
        raise RulesError(f"terrain: {terrain!r} is not known; known: {', '.join(costs)}")
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


def move_checks(state: FighterState, kind: MoveKind) -> tuple[Check, ...]:
    """May a fighter in ``state`` make a move of ``kind``?"""
    checks = [Check("on the table", not state.out_of_action, "out of action fighters are gone")]
    if state.down:
        checks.append(Check("down", kind == "crawl", 'a down fighter may only crawl 2"'))
    else:
        checks.append(Check("crawl", kind != "crawl", "only down fighters crawl"))
    checks.append(Check("pinned", not state.pinned, "a pinned fighter does not move"))
    if kind in ("charge", "failed_charge"):
        checks.append(Check("engaged", not state.engaged, "already in close combat"))
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
) -> tuple[float | None, list[str]]:
    """Inches of allowance the path costs (None: impassable), with why."""
    total, why = 0.0, []
    for leg in legs:
        per_inch = terrain_cost(leg.terrain)
        if per_inch is None:
            return None, [*why, f'{leg.inches:g}" of {leg.terrain}: impassable']
        total += leg.inches * per_inch
        if per_inch != 1:
            why.append(f'{leg.inches:g}" of {leg.terrain.replace("_", " ")} costs x{per_inch}')
    climb_share = float(_data()["obstacles"]["climb_cost"])
    for obstacle in obstacles:
        crossing = obstacle_crossing(obstacle)
        if crossing == "impassable":
            return None, [*why, f'obstacle {obstacle.height:g}" high: impassable']
        if crossing == "terrain":
            raise RulesError(
                f'obstacle {obstacle.width:g}" wide: wider than an obstacle; give it as a leg'
            )
        if crossing == "climb":
            total += move_allowance * climb_share
            why.append(f'climbing {obstacle.height:g}" costs half the move')
    return total, why


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
        raise RulesError("move kind: use charge() for a charge")
    state = state or FighterState()
    limit = allowance(fighter, kind)
    steps = [Step("Move", f'{kind}: up to {limit:g}"', f"M {fighter.M}")]
    refused = failed(move_checks(state, kind))
    if kind == "run" and run_stop_at is not None:
        stop = _data()["run_stop_within"]
        legs = truncate(legs, run_stop_at)  # obstacles: those crossed before the stop
        steps.append(Step("Run", f'stops after {run_stop_at:g}"', f'a seen enemy within {stop}"'))
    cost, why = path_cost(legs, obstacles, limit)
    moved = sum(leg.inches for leg in legs)
    legal = not refused and cost is not None and cost <= limit
    verdict = "impassable" if cost is None else f'costs {cost:g}" of {limit:g}"'
    steps.append(Step("Path", verdict, "; ".join(why)))
    steps.extend(Step("Refused", check.rule, check.reason) for check in refused)
    effects = (
        (Effect("condition", fighter.name, condition=kind, rounds=1, note="moved this turn"),)
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
        raise RulesError(f"{fighter.name} may not charge: {refused[0].reason}")
    limit = allowance(fighter, "charge")
    cost, why = path_cost(legs, obstacles, limit)
    reached = cost is not None and cost <= limit
    contact = "a low wall between the bases" if across_low_wall else "base contact"
    declared = Step("Charge", f"declared at {target}", f'up to {limit:g}" (double M {fighter.M})')
    if reached:
        path = Step("Path", f'costs {cost:g}" of {limit:g}"', "; ".join(why))
        result = Step("Charge", f"reaches {target}: both engaged", contact)
        effects = (
            Effect("condition", fighter.name, condition="charging", rounds=1, note=target),
            Effect("condition", fighter.name, condition="engaged", note=f"with {target}"),
            Effect("condition", target, condition="engaged", note=f"with {fighter.name}"),
        )
    else:
        shown = "impassable" if cost is None else f'costs {cost:g}" of {limit:g}"'
        path = Step("Path", shown, "; ".join(why))
        result = Step(
            "Charge",
            "fails",
            f'moves {limit:g}" towards {target} as far as it can; no other action this turn',
        )
        effects = (
            Effect("condition", fighter.name, condition="failed_charge", rounds=1, note=target),
        )
    return ChargeOutcome(target, reached, limit, cost, (declared, path, result), effects)
