"""Necromunda's rules of the turn beyond shots (:class:`~gmkit.systems.acting.TurnRules`): what
pinned, down, running and charging forbid, the movement-phase actions, and the rolls the turn
asks for (the pin escape, the recovery roll). The registry entry's ``acting``.

- Restrictions: the game's condition book (:mod:`~gmkit.systems.necromunda._conditions`, which
  the shooting and movement rules read too): a down fighter may only crawl (a move of the
  movement budget, seed 000); a pinned one does nothing at all in its turn, no move, no shot
  (seed README); a runner or charger does not shoot that turn; a failed charge does nothing
  else that turn (seed 000); one engaged in close combat neither shoots, charges nor hides.
- Actions: move, run, charge, crawl, hide (:mod:`~gmkit.systems.necromunda._moves`).
- Rolls due: at the start of its side's turn a pinned fighter (not down) may roll a D6 to
  escape the pin, at or under its Initiative (the seed README's optional rule, the
  ``pin_escape`` setting, on by default): optional, for the GM dismisses it when no friend
  within 2" is neither pinned nor down (the encounter does not know distances). At the start of
  its side's recovery phase each down fighter makes its recovery roll, a D6 on the recovery
  table (:func:`~gmkit.systems.necromunda._injuries.recovery_roll`): stays down, recovers with
  a flesh wound and pinned for its next turn, or out of action. The seed rolls them at the
  end of the phase; they are listed at its start, and nothing else happens in it (rallying
  broken fighters is not in the seed), so the GM rolls them whenever the phase is played.
- A runner's ``run`` (a charger's ``charging``...) gained in its own turn lasts until its side's
  next turn begins (the encounter ticks it then): through the enemy's turn it still says how
  the fighter moved, which the enemy's fast-moving modifier asks about.

How long a pin lasts (seed README: through the fighter's next turn of its own side, ending at
its end) is the ``pinned`` condition's rounds (:func:`gmkit.systems.necromunda.apply_effect`):
1 for a shot's pin, dealt in the enemy's turn and ticking at the end of the bearer's turns; 2
for a recovery's, gained in its own turn and ticking at the start of them.
"""

from __future__ import annotations

from collections.abc import Iterable

from gmkit.dice import DiceSource
from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.sheets._necromunda import NecromundaFighter
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
from gmkit.systems.base import Effect, Step
from gmkit.systems.necromunda._conditions import BOOK
from gmkit.systems.necromunda._injuries import recovery_roll
from gmkit.systems.necromunda._moves import MOVE_ACTIONS, perform_move
from gmkit.systems.necromunda._state import Settings, state_from_encounter

RECOVERY_PHASE = "recovery"
"""The phase of the turn structure whose start asks for the recovery rolls."""


def _fighter(bearer: Bearer) -> NecromundaFighter:
    sheet = bearer.sheet
    if not isinstance(sheet, NecromundaFighter):
        raise RulesError(Message("necromunda.not_a_fighter.target", kind=type(sheet).__name__))
    return sheet


class NecromundaTurns(NoTurnRules):
    """Necromunda's :class:`~gmkit.systems.acting.TurnRules` (see the module docstring).

    ``settings`` default to ``settings.yaml`` read at each use (a GM's copy on
    ``GMKIT_DATA_PATH`` counts from the next ``table.cache_clear()``)."""

    rolls_need_conditions = True  # pinned (escape), down (recovery): nothing else

    def __init__(self, settings: Settings | None = None) -> None:
        self._settings = settings

    @property
    def settings(self) -> Settings:
        return self._settings or Settings.packaged()

    def restrictions(self, conditions: Iterable[str]) -> tuple[Restriction, ...]:
        return BOOK.restrictions(conditions)

    def actions(self) -> tuple[ActionInfo, ...]:
        return MOVE_ACTIONS

    def perform_action(self, request: ActionRequest, source: DiceSource) -> ActionResult:
        if request.action in {info.id for info in MOVE_ACTIONS}:
            return perform_move(request)
        raise unknown_action(request.action, self.actions())

    def turn_rolls(self, moment: Moment, bearer: Bearer) -> tuple[Due, ...]:
        held = set(bearer.standing.conditions)
        if moment == "start_of_turn" and "pinned" in held and "down" not in held:
            if not self.settings.pin_escape:
                return ()
            initiative = _fighter(bearer).I
            text = Message("necromunda.due.pin_escape", initiative=initiative)
            return (Due("pin_escape", text, (6,), optional=True),)
        if moment == "start_of_phase" and bearer.phase == RECOVERY_PHASE and "down" in held:
            return (Due("recovery_roll", Message("necromunda.due.recovery_roll"), (6,)),)
        return ()

    def roll_due(self, due: Due, bearer: Bearer, source: DiceSource) -> ActionResult:
        fighter = _fighter(bearer)
        standing = bearer.standing
        if due.rule == "recovery_roll":
            state = state_from_encounter(fighter, standing.conditions, standing.counters)
            outcome = recovery_roll(fighter, state, source)
            result = outcome.steps[-1].outcome
            summary = Message("necromunda.summary.recovery", name=fighter.name, result=result)
            return ActionResult(outcome.steps, outcome.effects, summary)
        if due.rule == "pin_escape":
            return pin_escape(fighter, standing.conditions, source)
        return super().roll_due(due, bearer, source)


def pin_escape(
    fighter: NecromundaFighter, conditions: Iterable[str], source: DiceSource
) -> ActionResult:
    """The pin escape: a D6 at or under the fighter's Initiative ends the pin (the GM has
    checked the friend within 2" who is neither pinned nor down)."""
    if "pinned" not in set(conditions):
        raise RulesError(Message("necromunda.pin_escape.not_pinned", name=fighter.name))
    die = source.roll_die(6, Message("necromunda.purpose.pin_escape", name=fighter.name))
    escapes = die.value <= fighter.I
    detail = Message("necromunda.pin_escape.detail", value=die.value, initiative=fighter.I)
    outcome = Message("necromunda.pin_escape.escapes" if escapes else "necromunda.pin_escape.stays")
    step = Step(Message("necromunda.step.pin_escape"), outcome, detail, (die,), fighter.I)
    effects = (Effect("remove_condition", fighter.name, condition="pinned"),) if escapes else ()
    key = "necromunda.summary.escapes" if escapes else "necromunda.summary.still_pinned"
    return ActionResult((step,), effects, Message(key, name=fighter.name))


TURN_RULES = NecromundaTurns()
"""The rules of the turn the registry serves (``gmkit.games.game("necromunda").acting``)."""

__all__ = ["TURN_RULES", "NecromundaTurns", "pin_escape"]
