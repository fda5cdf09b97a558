"""Necromunda's movement-phase actions as the encounter takes them: move, run, charge, crawl and
hide, from flat inputs (inches of each terrain, obstacles climbed, the GM's readings of the
table), resolved by :mod:`~gmkit.systems.necromunda._movement` and
:mod:`~gmkit.systems.necromunda._hiding`.

- Each action's path is its inputs: ``inches`` of open ground, ``difficult`` and
  ``very_difficult`` inches (each inch costs 2" and 4"), ``climbs`` (obstacles 1" to 2" high
  climbed: half the move each). The steps say the allowance (M, double M running or charging,
  2" crawling) and what the path costs of it; a path beyond the allowance is refused.
- Run: ``stop_at`` the inches after which the runner came within 8" of an enemy it sees (the
  run ends there). Charge: at the action's target; ``low_wall`` when a low wall between the
  bases engages them.
- Effects: the movement rules' own: a runner gets the ``run`` condition, a charger
  ``charging`` (or ``failed_charge``), a crawler ``crawl``, each for rounds 1 (the encounter
  ends it before the fighter's next turn); the shooting rules read them (no shot that turn).

Choices where the texts are silent:

- Hiding is declared at the end of a move (seed 000: "si concluye su movimiento tras una
  columna..."), and a fighter may also stay where it is (no move at all) and hide. So hiding is
  the move's ``hide`` input, or the ``hide`` action of the move budget (a move of 0"): either
  way it uses the fighter's movement, in the movement phase. ``no_cover``: the GM rules the spot
  would not hide a person; ``enemy_near``: an enemy is within its spotting range (Initiative x
  the ``spotting_multiplier`` setting) and sees it anyway. Both refuse the hiding.
- Hidden is a condition (``hidden``), not the encounter's hidden flag: the counter is on the
  table for both players to see (the flag is the GM's secret, kept from the players' view).
  Running or charging loses it (the fighter moves too fast to stay hidden); a move with
  ``in_view`` (it ends where an enemy can see it) loses it; a move without it keeps it (the
  fighter moved behind its cover); shooting loses it (the shot's resolver).
- A down fighter only crawls (seed 000: "no podrá llevar a cabo ninguna acción excepto
  arrastrarse"; "no podrá hacer nada más durante el turno"): no hiding, which is more than
  crawling. A pinned fighter that went down crawls: the rules read down first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems.acting import ActionInfo, ActionRequest, ActionResult
from gmkit.systems.base import Choice, Effect, Step
from gmkit.systems.necromunda._hiding import hide_checks, hiding_lost
from gmkit.systems.necromunda._movement import Leg, MovePlan, Obstacle, charge, plan_move
from gmkit.systems.necromunda._state import Check, FighterState, failed, state_from_encounter

CLIMB_HEIGHT = 1.5
"""The height an obstacle the ``climbs`` input counts is taken as (any of 1" to 2" costs the
same: half the move)."""


def _number(name: str) -> Choice:
    return Choice(name, Message(f"necromunda.input.{name}"), "number")


def _flag(name: str) -> Choice:
    return Choice(name, Message(f"necromunda.input.{name}"), "flag")


PATH = (_number("inches"), _number("difficult"), _number("very_difficult"), _number("climbs"))
HIDING = (_flag("no_cover"), _flag("enemy_near"))


def label(action: str) -> Message:
    """An action's name (``necromunda.action.<id>``)."""
    return Message(f"necromunda.action.{action}")


MOVE_ACTIONS: tuple[ActionInfo, ...] = (
    ActionInfo(
        "move",
        label("move"),
        ("move",),
        help=Message("necromunda.action_help.move"),
        inputs=(*PATH, _flag("hide"), *HIDING, _flag("in_view")),
        phase="movement",
    ),
    ActionInfo(
        "run",
        label("run"),
        ("run",),
        help=Message("necromunda.action_help.run"),
        inputs=(*PATH, _number("stop_at")),
        phase="movement",
    ),
    ActionInfo(
        "charge",
        label("charge"),
        ("charge",),
        help=Message("necromunda.action_help.charge"),
        target=True,
        inputs=(*PATH, _flag("low_wall")),
        phase="movement",
    ),
    ActionInfo(
        "crawl",
        label("crawl"),
        ("move",),
        help=Message("necromunda.action_help.crawl"),
        inputs=PATH,
        phase="movement",
    ),
    ActionInfo(
        "hide",
        label("hide"),
        ("move",),
        help=Message("necromunda.action_help.hide"),
        inputs=HIDING,
        phase="movement",
    ),
)


def actor_state(request: ActionRequest) -> tuple[NecromundaFighter, FighterState]:
    """The actor as a Necromunda fighter and its state from the encounter's standing, its pin
    left out: the encounter's restriction refuses a pinned fighter's actions, and a GM's
    override of it lets the action go ahead (a down fighter's old pin does not count anyway:
    the rules read down first)."""
    actor = request.actor
    if not isinstance(actor, NecromundaFighter):
        raise RulesError(Message("necromunda.not_a_fighter.attacker", kind=type(actor).__name__))
    standing = request.actor_standing
    state = state_from_encounter(actor, standing.conditions, standing.counters)
    return actor, state.with_changes(pinned=False)


def path(inputs: Mapping[str, Any]) -> tuple[tuple[Leg, ...], tuple[Obstacle, ...]]:
    """The path the inputs give: legs of open, difficult and very difficult ground, and the
    obstacles climbed."""
    legs = tuple(
        Leg(float(inputs[name]), terrain)
        for name, terrain in (
            ("inches", "open"),
            ("difficult", "difficult"),
            ("very_difficult", "very_difficult"),
        )
        if inputs.get(name)
    )
    for leg in legs:
        if leg.inches < 0:
            raise RulesError(Message("necromunda.act.negative", inches=leg.inches))
    climbs = int(inputs.get("climbs") or 0)
    if climbs < 0:
        raise RulesError(Message("necromunda.act.negative", inches=climbs))
    return legs, tuple(Obstacle(CLIMB_HEIGHT) for _ in range(climbs))


def refused(actor: NecromundaFighter, action: str, reasons: tuple[Message, ...]) -> RulesError:
    """ "<name> may not <action>: <reasons>"."""
    joined = Message("common.join", parts=reasons)
    return RulesError(
        Message("necromunda.act.refused", name=actor.name, action=label(action), reasons=joined)
    )


def _plan_refusal(actor: NecromundaFighter, action: str, plan: MovePlan) -> RulesError:
    checks = [
        step.detail for step in plan.steps if step.title == Message("necromunda.step.refused")
    ]
    reasons = tuple(m for m in checks if isinstance(m, Message))
    if not reasons:
        reasons = (Message("necromunda.act.too_far", cost=plan.cost or 0, limit=plan.allowance),)
        if plan.cost is None:
            reasons = (Message("necromunda.path.impassable"),)
    return refused(actor, action, reasons)


def _hiding(
    actor: NecromundaFighter, state: FighterState, inputs: Mapping[str, Any], action: str
) -> tuple[Step, Effect]:
    """The hiding declared (the step and the ``hidden`` condition), or the refusal."""
    checks = [
        check
        for check in hide_checks(state, not inputs.get("no_cover", False))
        if check.rule != "too close"
    ]
    if inputs.get("enemy_near"):
        checks.append(Check("too close", False, Message("necromunda.reason.enemy_spots")))
    not_passed = failed(tuple(checks))
    if not_passed:
        raise refused(actor, action, tuple(check.reason for check in not_passed))
    step = Step(
        Message("necromunda.step.hide"),
        Message("necromunda.hide.hidden"),
        Message("necromunda.hide.unseen"),
    )
    note = Message("necromunda.effect.hidden")
    return step, Effect("condition", actor.name, condition="hidden", note=note)


def _loses_hiding(actor: NecromundaFighter, why: str) -> tuple[Step, Effect]:
    step = Step(Message("necromunda.step.hidden"), Message("necromunda.hidden.lost"), Message(why))
    return step, Effect("remove_condition", actor.name, condition="hidden")


def perform_move(request: ActionRequest) -> ActionResult:
    """Resolve one of :data:`MOVE_ACTIONS` (see the module docstring)."""
    actor, state = actor_state(request)
    action, inputs = request.action, request.inputs
    if action == "hide":
        step, effect = _hiding(actor, state, inputs, action)
        summary = Message("necromunda.summary.hides", name=actor.name)
        return ActionResult((step,), (effect,), summary)
    legs, obstacles = path(inputs)
    steps: list[Step] = []
    effects: list[Effect] = []
    if action == "charge":
        if request.target is None:
            raise RulesError(Message("turns.action_needs_target", action=label(action)))
        outcome = charge(
            actor,
            request.target.name,
            legs,
            obstacles,
            state,
            across_low_wall=bool(inputs.get("low_wall", False)),
        )
        steps += outcome.steps
        effects += outcome.effects
        key = "charges" if outcome.reached else "charge_fails"
        summary = Message(f"necromunda.summary.{key}", name=actor.name, target=outcome.target)
    else:
        stop = inputs.get("stop_at")
        plan = plan_move(
            actor,
            "run" if action == "run" else "crawl" if action == "crawl" else "move",
            legs,
            obstacles,
            state,
            run_stop_at=float(stop) if stop is not None and action == "run" else None,
        )
        if not plan.legal:
            raise _plan_refusal(actor, action, plan)
        steps += plan.steps
        effects += plan.effects
        summary = Message(
            f"necromunda.summary.{action}s" if action != "crawl" else "necromunda.summary.crawls",
            name=actor.name,
            inches=plan.moved,
        )
    if state.hidden and action in ("run", "charge"):
        step, effect = _loses_hiding(actor, "necromunda.hidden.lost_ran")
        steps.append(step)
        effects.append(effect)
    elif state.hidden and inputs.get("in_view"):
        step, lost = hiding_lost(actor, seen_moving=True)
        steps.append(step)
        effects += lost
    elif state.hidden:
        steps.append(Step(Message("necromunda.step.hidden"), Message("necromunda.hidden.stays")))
    if action == "move" and inputs.get("hide"):
        step, effect = _hiding(actor, state, inputs, action)
        steps.append(step)
        effects.append(effect)
    return ActionResult(tuple(steps), tuple(effects), summary)


__all__ = ["MOVE_ACTIONS", "actor_state", "path", "perform_move"]
