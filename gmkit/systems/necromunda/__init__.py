"""Necromunda (1st edition) rules: the turn, movement, hiding, shooting, wounds and injuries.

Pure and data-driven: every die comes from the dice source passed in, every resolution is a
value (ordered, explained steps and the effects for the encounter to apply) and no sheet is
ever changed. Tables are data under ``systems/data/necromunda/`` (``injuries``, ``recovery``,
``to_hit_modifiers``, ``to_wound``, ``to_hit_7plus``, ``disputes``, ``turn``, ``movement``,
``settings``) that a GM can replace through
``GMKIT_DATA_PATH``. Sources: seed 000 and the seed README's rulings.

Resolve a shot (the seed's example: a juve, BS 2, with a laspistol at 12" against a target in
partial cover needs 7 - 2 + 1 + 1 = 7: a 6, then 4+)::

    from gmkit.dice import EnteredDice
    from gmkit.sheets._necromunda import NecromundaFighter
    from gmkit.systems.base import AttackRequest
    from gmkit.systems._catalogs import catalog
    from gmkit.systems.necromunda import SYSTEM

    laspistol = catalog("necromunda", "weapons")["laspistol"]
    juve = NecromundaFighter.build(name="Jeb", fighter_type="juve", BS=2, weapons=[laspistol])
    ganger = NecromundaFighter.build(name="Tom")
    request = AttackRequest(juve, "laspistol", ganger, distance=12,
                            circumstances={"partial_cover": True})
    result = SYSTEM.resolve_attack(request, EnteredDice([6, 4, 5, 3]))
    # 6 then 4: hit; 6 on the to-hit die: ammo roll 5 (2+) passes; 3 against T 3 (4+): no wound
    print(result.explain())   # result.effects: the target is pinned

The parts, each its own module (all re-exported here):

- :mod:`~gmkit.systems.necromunda._state`: :class:`FighterState` (wounds left, flesh wounds,
  pinned, down, hidden, engaged, how the fighter moved: built from the request's standings, or
  given in ``request.options.target_state`` / ``.attacker_state``), :class:`Settings`, checks.
- :mod:`~gmkit.systems.necromunda._options`: :class:`NecromundaOptions`, the options a shot
  takes (the registry entry's ``options``).
- :mod:`~gmkit.systems.necromunda._turn`: phases, the order of moves, :class:`TurnPosition`.
- :mod:`~gmkit.systems.necromunda._movement`: moves, runs, charges, crawling, terrain,
  obstacles.
- :mod:`~gmkit.systems.necromunda._hiding`: who may hide, losing it, detection.
- :mod:`~gmkit.systems.necromunda._shooting`: who may shoot, target choice, range, modifiers.
- :mod:`~gmkit.systems.necromunda._resolve`: the dice of a shot.
- :mod:`~gmkit.systems.necromunda._injuries`: wounds, injury rolls, recovery rolls.
- :mod:`~gmkit.systems.necromunda._charts`: the to-wound and 7+ charts (data).
- :mod:`~gmkit.systems.necromunda._disputes`: the sight roll and the cover roll-off of a shot.
- :mod:`~gmkit.systems.necromunda._acting`, :mod:`~gmkit.systems.necromunda._moves`: the rules
  of the turn (restrictions, the movement actions, the rolls due).

Request conventions for :meth:`NecromundaRules.resolve_attack`: ``distance`` in inches;
``circumstances`` ids of ``to_hit_modifiers.yaml`` (``partial_cover``, ``cover``,
``appearing`` / ``charging`` / ``disappearing``, ``fast_moving`` (true, or the inches the
target moved), ``small``, ``large``); ``options`` (:class:`NecromundaOptions`, validated):
``attacker_state``, ``target_state`` (:class:`FighterState`), ``wounds_left`` (shorthand for
the target's), ``in_arc`` and ``in_sight`` (the GM's reading of the table, true by default),
``target_is_nearest_or_easier`` (the GM settles the target choice) or ``other_targets`` (a
tuple of :class:`OtherTarget`: the rules check it), ``gm_allows_shot`` (go ahead despite a
refusal), ``ammo_auto`` and ``armour_saves`` (settings for this shot). Every text of a result
is a message (``necromunda.*``): ``result.explain()`` is the English, ``result.explain("es")``
the Spanish.

Through the encounter: :meth:`NecromundaRules.apply_effect` applies one effect to a sheet. An
``injury`` flesh wound raises the sheet's ``flesh_wounds`` (-1 WS and BS for the rest of the
battle; the sheet refuses more than the fighter can bear, so they stop there). Everything else
is the encounter's (None): the wounds a ``damage`` effect takes are its ``damage`` counter;
``hidden`` and the ``down`` and ``out of action`` injuries its conditions (a fighter pinned
before going down keeps the ``pinned`` condition: the rules read ``down`` first); a failed ammo
roll its jam. A pin lasts through the fighter's next turn of its own side and ends at the end
of it (seed README): a shot's ``pinned`` (no rounds, dealt in the enemy's turn) is the
``pinned`` condition for rounds 1, which the encounter ticks at the end of the bearer's turns;
a recovered fighter's ``pinned`` for a turn (rounds 1, gained in its own recovery phase) is the
condition for rounds 2: the encounter counts the rounds of a condition gained in one's own turn
from the start of the next turn, and the fighter stays pinned through that turn.

The rules of the turn (the registry entry's ``acting``,
:mod:`~gmkit.systems.necromunda._acting`): move, run, charge, crawl and hide as actions, what
pinned, down, running and charging forbid, the pin escape and recovery rolls as rolls due.
When the request gives no ``attacker_state`` / ``target_state``, the shot reads them from the
request's standings, their conditions and counters
(:func:`~gmkit.systems.necromunda._state.state_from_encounter`).

Left out, because seed 000 does not hold them: close combat, broken fighters and rallying,
overwatch, template placement, weapons' special rules (sustained fire...), armour saves
(available as an opt-in setting).
"""

from __future__ import annotations

from dataclasses import replace

from gmkit.dice import DiceSource
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems._conditions import ConditionBook
from gmkit.systems.base import AttackRequest, AttackResult, Effect
from gmkit.systems.necromunda._conditions import BOOK
from gmkit.systems.necromunda._hiding import (
    detects,
    hide,
    hide_checks,
    hiding_lost,
    spotting_range,
)
from gmkit.systems.necromunda._injuries import (
    WoundOutcome,
    injury_rolls,
    injury_table,
    is_high_impact,
    recovery_phase,
    recovery_roll,
    recovery_table,
    resolve_wounds,
)
from gmkit.systems.necromunda._movement import (
    ChargeOutcome,
    Leg,
    MovePlan,
    Obstacle,
    allowance,
    charge,
    obstacle_crossing,
    plan_move,
    run_must_stop,
    terrain_cost,
)
from gmkit.systems.necromunda._options import NecromundaOptions, OtherTarget
from gmkit.systems.necromunda._resolve import resolve_shot
from gmkit.systems.necromunda._shooting import (
    Candidate,
    ShotSetup,
    shooting_weapons,
    shot_setup,
    target_choice_check,
    to_hit_modifiers,
)
from gmkit.systems.necromunda._state import (
    CONDITION_FIELDS,
    Check,
    FighterState,
    Settings,
    state_from_encounter,
    with_encounter_states,
)
from gmkit.systems.necromunda._turn import (
    Phase,
    TurnPosition,
    advance,
    move_order_check,
    order_moves,
    phases,
    sequence,
    start,
)

__all__ = [
    "CONDITION_FIELDS",
    "SYSTEM",
    "Candidate",
    "ChargeOutcome",
    "Check",
    "FighterState",
    "Leg",
    "MovePlan",
    "NecromundaOptions",
    "NecromundaRules",
    "Obstacle",
    "OtherTarget",
    "Phase",
    "Settings",
    "ShotSetup",
    "TurnPosition",
    "WoundOutcome",
    "advance",
    "allowance",
    "apply_effect",
    "charge",
    "detects",
    "hide",
    "hide_checks",
    "hiding_lost",
    "injury_rolls",
    "injury_table",
    "is_high_impact",
    "move_order_check",
    "obstacle_crossing",
    "order_moves",
    "phases",
    "plan_move",
    "recovery_phase",
    "recovery_roll",
    "recovery_table",
    "resolve_shot",
    "resolve_wounds",
    "run_must_stop",
    "sequence",
    "shooting_weapons",
    "shot_setup",
    "spotting_range",
    "start",
    "state_from_encounter",
    "target_choice_check",
    "terrain_cost",
    "to_hit_modifiers",
    "with_encounter_states",
]


def apply_effect(
    sheet: NecromundaFighter, effect: Effect
) -> tuple[NecromundaFighter, tuple[Effect, ...]] | None:
    """One effect on ``sheet`` for the encounter (see the module docstring), whatever its
    target names: only a flesh wound is the sheet's; a pin (a shot's, or a recovered
    fighter's "pinned for a turn") comes back as the ``pinned`` condition that lasts through
    the fighter's next turn and ends at its end."""
    if effect.kind == "pinned":
        pinned = Effect("condition", effect.target, condition="pinned", note=effect.note)
        if effect.rounds is None:
            # a shot's pin, dealt in the enemy's turn: the encounter ticks it at the end of the
            # bearer's turns, so one round keeps it through its next turn and ends it there
            return sheet, (replace(pinned, rounds=1),)
        # pinned "for a turn" by a recovery roll, in the fighter's own recovery phase: the
        # encounter counts rounds gained in one's own turn from the start of the next one, so
        # one more keeps it pinned through that turn
        return sheet, (replace(pinned, rounds=effect.rounds + 1),)
    if effect.kind != "injury" or effect.condition != "flesh wound":
        return None
    most = max(sheet.WS, sheet.BS, 1)
    return sheet.edit(flesh_wounds=min(sheet.flesh_wounds + 1, most)), ()


class NecromundaRules:
    """Necromunda behind the :class:`~gmkit.systems.base.GameSystem` protocol.

    ``settings`` defaults to ``settings.yaml`` (read when the system is made); pass
    ``NecromundaRules(Settings(spotting_multiplier=3))`` for the text's "triple" reading.
    """

    game: str = "necromunda"

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings.packaged()

    @property
    def conditions(self) -> ConditionBook:
        """Necromunda's conditions (:mod:`~gmkit.systems.necromunda._conditions`)."""
        return BOOK

    def resolve_attack(self, request: AttackRequest, source: DiceSource) -> AttackResult:
        """Resolve a shot (see :func:`~gmkit.systems.necromunda._resolve.resolve_shot`)."""
        return resolve_shot(request, source, self.settings)

    def apply_effect(
        self, sheet: NecromundaFighter, effect: Effect
    ) -> tuple[NecromundaFighter, tuple[Effect, ...]] | None:
        """One effect on ``sheet`` for the encounter (:func:`apply_effect`)."""
        return apply_effect(sheet, effect)


SYSTEM = NecromundaRules()
"""The rules the registry serves: ``gmkit.systems.system("necromunda")``."""
