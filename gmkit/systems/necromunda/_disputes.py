"""Necromunda's disputes at the table, rolled before a shot (seed 000), as the shot's options
(:class:`~gmkit.systems.necromunda._options.NecromundaOptions`):

- ``sight_in_doubt``: the players cannot settle whether the shooter sees its target: a D6,
  1-3 it cannot shoot, 4-6 it can ("Quién puede disparar"; data: ``disputes.yaml``).
- ``disputed``: the players cannot agree whether the target is in ``partial_cover``, in
  ``cover``, or can truly stay ``hidden`` ("Cobertura"): the target's player claims it; each
  player rolls a D6 (the shooter's first), and the higher is right. The claim upheld, the cover
  applies (the other cover does not) or the target stays hidden (and cannot be shot unless the
  shooter is within its spotting range); rejected, the cover does not apply, or the target
  loses its hiding and may be shot normally.

Choices where the texts are silent: a tie rolls again (both dice); a dispute that ends the
shot (no sight, or the target stays hidden beyond the spotting range) is a result with no hit
and no effect, its rolls kept, not a refusal; the sight roll comes first, then the roll-off.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from gmkit.dice import DiceSource
from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.systems._tables import table
from gmkit.systems.base import AttackRequest, Effect, Step
from gmkit.systems.necromunda._hiding import detects
from gmkit.systems.necromunda._shooting import catalog
from gmkit.systems.necromunda._state import FighterState, Settings, fighter_of

GAME = "necromunda"
COVERS = ("partial_cover", "cover")
ROLL_OFF_LIMIT = 50
"""Tied roll-offs rolled again before giving up (a guard: a real table never gets there)."""


@dataclass(frozen=True, slots=True)
class Disputed:
    """What the disputes did to a shot: the request it goes on with, the steps and effects,
    and whether the shot is made at all."""

    request: AttackRequest
    steps: tuple[Step, ...] = ()
    effects: tuple[Effect, ...] = ()
    shoots: bool = True


def sight_score() -> int:
    """The sight roll's score to see (``disputes.yaml``: 4)."""
    return int(table(GAME, "disputes")["sight_roll"])


def _sight(request: AttackRequest, source: DiceSource) -> tuple[Step, bool]:
    shooter = fighter_of(request.attacker, "attacker")
    needed = sight_score()
    die = source.roll_die(6, Message("necromunda.purpose.sight_roll", name=shooter.name))
    sees = die.value >= needed
    outcome = Message("necromunda.sight.can" if sees else "necromunda.sight.cannot")
    detail = Message("necromunda.sight.detail", value=die.value, needed=needed)
    return Step(Message("necromunda.step.sight_roll"), outcome, detail, (die,), needed), sees


def _roll_off(request: AttackRequest, point: str, source: DiceSource) -> tuple[Step, bool]:
    """The roll-off, ties rolled again: the step, and whether the target's player is right."""
    shooter = fighter_of(request.attacker, "attacker")
    target = fighter_of(request.target, "target")
    rolls = []
    for _ in range(ROLL_OFF_LIMIT):
        mine = source.roll_die(6, Message("necromunda.purpose.roll_off", name=shooter.name))
        theirs = source.roll_die(6, Message("necromunda.purpose.roll_off", name=target.name))
        rolls += [mine, theirs]
        if mine.value != theirs.value:
            break
    else:
        raise RulesError(Message("necromunda.roll_off.endless"))
    upheld = theirs.value > mine.value
    claim = catalog()[point].label if point in COVERS else Message("necromunda.roll_off.hidden")
    if upheld:
        outcome = Message("necromunda.roll_off.upheld", claim=claim, name=target.name)
    else:
        outcome = Message("necromunda.roll_off.rejected", claim=claim)
    detail = Message(
        "necromunda.roll_off.detail",
        shooter=shooter.name,
        mine=mine.value,
        target=target.name,
        theirs=theirs.value,
        ties=len(rolls) // 2 - 1,
    )
    return Step(Message("necromunda.step.roll_off"), outcome, detail, tuple(rolls)), upheld


def disputes(
    request: AttackRequest, state: FighterState, source: DiceSource, settings: Settings
) -> Disputed:
    """Roll the shot's disputes (see the module docstring); ``state``: the target's, as the
    encounter knows it."""
    options = request.options
    steps: list[Step] = []
    if options.sight_in_doubt:
        step, sees = _sight(request, source)
        steps.append(step)
        if not sees:
            return Disputed(request, tuple(steps), shoots=False)
    point = options.disputed
    if point is None:
        return Disputed(request, tuple(steps))
    step, upheld = _roll_off(request, point, source)
    steps.append(step)
    if point in COVERS:
        circumstances = {key: value for key, value in request.circumstances.items()}
        for cover in COVERS:
            circumstances.pop(cover, None)
        if upheld:
            circumstances[point] = True
        return Disputed(replace(request, circumstances=circumstances), tuple(steps))
    target = fighter_of(request.target, "target")
    shooter = fighter_of(request.attacker, "attacker")
    if upheld:
        spotted = request.distance is not None and detects(
            shooter, request.distance, settings.spotting_multiplier
        )
        hidden = request.with_options(target_state=state.with_changes(hidden=True))
        return Disputed(hidden, tuple(steps), shoots=spotted)
    lost = Effect("remove_condition", target.name, condition="hidden")
    seen = request.with_options(target_state=state.with_changes(hidden=False))
    return Disputed(seen, tuple(steps), (lost,) if state.hidden else ())


__all__ = ["COVERS", "Disputed", "disputes", "sight_score"]
