"""Warhammer Fantasy Battle (6th edition): characters shooting and being shot (seed 003).

``SYSTEM`` is the game's :class:`~gmkit.systems.base.GameSystem`. Its rules are pure and take
every die from the source passed in; each answer is a value with explained steps:

- :func:`resolve_attack`: one model's shooting at a target model: may it be designated
  (:func:`may_target`), to hit with BS (:func:`shot_modifiers`, the 7+ chart of
  :mod:`~gmkit.systems._sixes`), who takes the hits (:func:`allocate_hits`, or
  :func:`look_out_sir` for templates), to wound with S against T, armour saves modified by
  Strength; the effects are the unsaved wounds per model (:mod:`gmkit.systems.wfb6._shooting`).
- Targeting: :func:`may_target`, :func:`may_shoot_at` (characters shooting, split fire),
  :func:`screening_units` (:mod:`gmkit.systems.wfb6._targeting`).
- Hits inside units: :func:`allocate_hits`, :func:`look_out_sir`
  (:mod:`gmkit.systems.wfb6._hits`).
- The table around a shot, which no sheet holds: :class:`UnitOnTable` and :class:`Situation`
  (:mod:`gmkit.systems.wfb6._battlefield`), passed as ``request.options.situation``. Through
  the encounter the GM sets units and distances by command (``set_unit``, ``set_distance``,
  ``set_engaged``: :mod:`gmkit.encounter._units`) and every shot reads its situation from them.
- The options a shot takes: :class:`WFB6Options` (:mod:`gmkit.systems.wfb6._options`).
- Data a GM can override: ``targeting.yaml`` and ``shooting.yaml``
  (:mod:`gmkit.systems.wfb6._data`).

>>> from gmkit.dice import EnteredDice
>>> from gmkit.sheets._wfb6 import WFB6Character
>>> from gmkit.systems.base import AttackRequest
>>> goblin = WFB6Character.build(name="Goblin", side="Goblins", role="rank and file",
...     unit="Skulkers", weapons=[{"name": "short bow", "range_cm": 40, "strength": 3}])
>>> priest = WFB6Character.build(name="Anselm", side="Empire", T=4,
...     armour=[{"name": "heavy armour", "save": 5}])
>>> swordsmen = UnitOnTable("Swordsmen", "Empire", rank_and_file=15, distance_cm=10,
...     shooter_distance_cm=30)
>>> ruling = SYSTEM.may_target(priest, Situation((swordsmen,), distance_cm=35))
>>> ruling.allowed, str(ruling.reason)
(False, 'screened by Swordsmen, not the closest legal target: Anselm at 35 cm, Swordsmen at 30 cm')
>>> request = AttackRequest(goblin, "short bow", priest,
...     options={"situation": Situation((swordsmen,), distance_cm=28)})
>>> result = SYSTEM.resolve_attack(request, EnteredDice([6, 6, 1]))
>>> for step in result.steps:
...     print(f"{step.title}: {step.outcome}", [roll.value for roll in step.rolls], step.target)
Target Anselm: may be targeted [] None
To hit: 1 hit of 1 shot [6] 6
To wound Anselm: 1 wound of 1 hit [6] 5
Armour save Anselm: 0 of 1 saved [1] 5
>>> [str(modifier) for modifier in result.steps[1].modifiers]
['Lone infantry character -1', 'Long range -1']
>>> [(effect.kind, effect.target, effect.amount) for effect in result.effects]
[('damage', 'Anselm', 1)]

What is included, and the choices where the texts are silent:

- To hit: ``7 - BS`` less the modifiers, 7+ by the chart (seed README). Modifiers come from
  ``shooting.yaml``: long range (beyond half range, automatic), moving, stand and shoot, soft
  and hard cover, multiple shots (automatic when a weapon fires more than one), the target's
  -1 lone infantry character and +1 large target, and a GM's number (``"gm": -1``).
  A target beyond the weapon's range is missed without a roll; a "move or fire" weapon fires
  nothing after moving.
- Magic missiles and other spells hit automatically with the weapon's ``shots``; templates
  (catapults, cannon, breath, template spells) hit the target model once: their placement,
  scatter and other models under them are the GM's.
- To wound: the S against T chart; armour saves modified by Strength (-1 at S4, one more per
  point) and by "armour piercing"; a save needing more than 6 is not rolled; a 1 always fails.
- Order of dice: the shots, then the random hits of a shared allocation or "Look out, Sir!",
  then, member by member, every roll to wound and then every save.
- Effects: one ``damage`` effect per model that lost wounds; a unit's rank and file and
  champions are named by the unit (the ``note`` says which model), characters by name.
- Through the encounter: :meth:`WFB6System.apply_effect` answers None to every effect. A
  sheet is one model's profile and keeps no wounds: the encounter counts the unsaved wounds
  (``counters["damage"]``) on the combatant the effect names (a character, or the combatant
  standing for a unit: its trooper), and counts a unit's models left from its trooper's
  wounds (:mod:`gmkit.encounter._units`); from Python, the GM keeps them in the ``situation``.
- ``request.mode`` may name a kind of attack (``missile``, ``magic_missile``, ``spell``,
  ``template``, ``cannon``, ``breath``, ``template_spell``); otherwise the weapon's special
  rules decide, else ``missile``. ``options`` (:class:`WFB6Options`): ``situation`` (a
  :class:`Situation`; ``request.distance`` fills its distance), ``look_out_sir`` (True: a
  spell that allows it), ``excess_distinct`` (False: left-over hits may fall twice on one
  model), ``gm_allows_shot`` (True: a refused target is shot at anyway, the refusal kept in
  the steps, with the target's own to-hit modifiers).
- Every text is a :class:`~gmkit.messages.Message` of the ``wfb6`` catalogs (steps, summary,
  notes, dice purposes, refusals): ``result.explain("es")`` reads it in Spanish.
"""

from __future__ import annotations

from gmkit.dice import DiceSource
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.systems.base import AttackRequest, AttackResult, Effect
from gmkit.systems.wfb6._battlefield import Situation, UnitOnTable
from gmkit.systems.wfb6._conditions import BOOK
from gmkit.systems.wfb6._hits import Allocation, LookOutSir, allocate_hits, look_out_sir
from gmkit.systems.wfb6._options import WFB6Options
from gmkit.systems.wfb6._shooting import resolve_attack, shot_modifiers
from gmkit.systems.wfb6._targeting import (
    Ruling,
    may_shoot_at,
    may_target,
    screening_units,
    target_modifiers,
)

__all__ = [
    "SYSTEM",
    "Allocation",
    "LookOutSir",
    "Ruling",
    "Situation",
    "UnitOnTable",
    "WFB6Options",
    "WFB6System",
    "allocate_hits",
    "look_out_sir",
    "may_shoot_at",
    "may_target",
    "resolve_attack",
    "screening_units",
    "shot_modifiers",
    "target_modifiers",
]


class WFB6System:
    """Warhammer Fantasy Battle 6e behind the :class:`~gmkit.systems.base.GameSystem`
    protocol, with the targeting questions as methods (the module's functions)."""

    game = "wfb6"
    may_target = staticmethod(may_target)
    may_shoot_at = staticmethod(may_shoot_at)
    screening_units = staticmethod(screening_units)
    allocate_hits = staticmethod(allocate_hits)
    look_out_sir = staticmethod(look_out_sir)
    shot_modifiers = staticmethod(shot_modifiers)
    target_modifiers = staticmethod(target_modifiers)
    conditions = BOOK  # :mod:`~gmkit.systems.wfb6._conditions`

    def resolve_attack(self, request: AttackRequest, source: DiceSource) -> AttackResult:
        return resolve_attack(request, source)

    def apply_effect(self, sheet: WFB6Character, effect: Effect) -> None:
        """None: no effect is the sheet's business (see the module docstring)."""
        return None


SYSTEM = WFB6System()
"""The rules of Warhammer Fantasy Battle 6e (``gmkit.systems.system("wfb6")``)."""
