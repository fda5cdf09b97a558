"""Warhammer Fantasy Roleplay (2nd edition) combat rules, from seed 002 (``SYSTEM``).

Pure and data-driven: every die comes from the dice source passed in; every resolution is a
value with ordered, explained steps and the effects to apply; no sheet is ever changed (apply
the effects with :func:`apply_effects`, which returns a new sheet).

>>> from gmkit.dice import EnteredDice
>>> from gmkit.sheets._wfrp2 import WFRP2Character
>>> from gmkit.systems.base import AttackRequest
>>> from gmkit.systems.wfrp2 import SYSTEM, apply_effects
>>> profile = {"WS": 35, "BS": 55, "S": 31, "T": 30, "Ag": 34, "Int": 30, "WP": 30, "Fel": 30}
>>> bow = {"name": "Bow", "damage": "3", "range_short": 24, "range_long": 48, "reload": "Half"}
>>> archer = WFRP2Character.build(
...     name="Archer", characteristics=profile, secondary={"W": 11}, weapons=[bow]
... )
>>> thug = WFRP2Character.build(name="Thug", characteristics=profile, secondary={"W": 10})
>>> result = SYSTEM.resolve_attack(
...     AttackRequest(attacker=archer, weapon="Bow", target=thug), EnteredDice([53, 4])
... )
>>> print(result.explain())  # doctest: +NORMALIZE_WHITESPACE
Action: Standard Attack (half action), ranged, Bow (1 attack)
Reactions: parry not available (ranged attacks can be neither parried nor dodged);
  dodge not available (ranged attacks can be neither parried nor dodged)
BS test: hit (BS 55 +0 = 55 [no modifiers]; rolled 53: success, 0 degrees of success)
Hit location: right arm (53 reversed: 35)
Damage: 7 (1d10 (4) + Bow 3)
Soak: 3 (TB 3 + armour 0 at the right arm)
Wounds: 4 lost: 10 -> 6 (lightly wounded)
>>> apply_effects(thug, result.effects).sheet.wounds_current
6

The parts, each its own module:

- :mod:`~gmkit.systems.wfrp2._catalogs`: actions (``actions.yaml``: type full/half/free/varies,
  modifiers, conditions granted), circumstances (``circumstances.yaml``: modifiers, reactions
  they allow or rule out, automatic hits, extra damage) and weapon qualities
  (``qualities.yaml``); :func:`turn_problems` checks a turn's actions.
- :mod:`~gmkit.systems.wfrp2._setup`: :func:`attack_setup` (the attack before the dice) and
  :func:`reactions_available` (what the defender may do: offer it before resolving).
- :mod:`~gmkit.systems.wfrp2._resolve`: :func:`resolve_attack`.
- :mod:`~gmkit.systems.wfrp2._damage`: damage, Ulric's Fury, soak.
- :mod:`~gmkit.systems.wfrp2._criticals`: :func:`roll_critical` on the GM's table (a path, the
  option ``critical_table``), else a :class:`CriticalPrompt` asking the GM for the effect
  (``criticals.yaml`` is the format; its placeholder rows never apply).
- :mod:`~gmkit.systems.wfrp2._acting`: the rules of the turn (``TURN_RULES``: stunned, the
  actions through the encounter's seam, aim and feint spent by the next action).
- :mod:`~gmkit.systems.wfrp2._effects`: :func:`apply_effects`.
- :mod:`~gmkit.systems.wfrp2._round`: :func:`initiative` (Ag + 1d10, surprise) and
  :func:`perform_action` (movement, stances, feint, manoeuvre...).
- :mod:`~gmkit.systems.wfrp2._options`: :class:`WFRP2Options`, the options an attack takes
  (``reaction``, ``parry_weapon``, ``ulrics_fury``).
- :mod:`~gmkit.systems.wfrp2._terms`: the rules' own words as messages (every text is a
  :class:`~gmkit.messages.Message`: ``result.explain("es")`` is the Spanish).

Where seed 002 is silent, each module's docstring records the choice made. In short: no
modifier cap and no automatic success or failure on the d100 (002 gives neither); Ulric's Fury
and the weapon qualities follow the book, not 002 (and can be switched off: the option
``ulrics_fury`` and ``covered: false`` in ``qualities.yaml``); circumstances 002 does not price
(outnumbering, higher ground, darkness, range, cover, prone) are left to ``gm_modifier``; the
critical table is the GM's (none: the GM is asked); conditions are returned for the encounter
to keep, since the sheet has no field for them.

Through the encounter (:meth:`WFRP2System.resolve_attack`): the combatants' conditions
(``request.attacker_standing.conditions`` and ``request.target_standing.conditions``) set the
circumstances whose ``condition`` the catalog names, for the bearer it names (a stunned target:
+20 WS and no parry or dodge; a helpless one: hit automatically, +1d10 damage; a surprised one,
a running one, an aiming attacker...), and the reactions the target spent this round
(``request.target_standing.reactions``: ``{"parry": 1}``) rule out another of the same (002: one
parry and one dodge a round). The target's sheet sets those whose ``sheet`` the catalog
names (:mod:`~gmkit.systems.wfrp2._carried`: a shield or a second one-handed melee weapon
carried is a weapon in the other hand, so the target may parry, 002). A circumstance the
request gives, even as False, is the GM's word and stays. Conditions the catalog does not
price (prone: 002 gives no modifier) change nothing; ``gm_modifier`` is for them.
:meth:`WFRP2System.apply_effect` applies one effect to a sheet for the encounter
(:func:`~gmkit.systems.wfrp2._effects.apply_effect`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from gmkit.dice import DiceSource
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems._conditions import ConditionBook
from gmkit.systems.base import AttackRequest, AttackResult, Effect
from gmkit.systems.wfrp2._acting import attack_effects, refuse_unable
from gmkit.systems.wfrp2._catalogs import (
    Action,
    Circumstance,
    Quality,
    actions,
    circumstances,
    qualities,
    sheet_circumstances,
    turn_problems,
)
from gmkit.systems.wfrp2._conditions import book as condition_book
from gmkit.systems.wfrp2._criticals import (
    Critical,
    CriticalPrompt,
    load_critical_table,
    roll_critical,
)
from gmkit.systems.wfrp2._damage import Damage, roll_damage, soak
from gmkit.systems.wfrp2._effects import Applied, apply_effect, apply_effects
from gmkit.systems.wfrp2._options import WFRP2Options
from gmkit.systems.wfrp2._resolve import WFRP2AttackResult, resolve_attack
from gmkit.systems.wfrp2._round import ActionResult, InitiativeResult, initiative, perform_action
from gmkit.systems.wfrp2._setup import (
    AttackSetup,
    ReactionOption,
    attack_setup,
    reactions_available,
)

__all__ = [
    "SYSTEM",
    "Action",
    "ActionResult",
    "Applied",
    "AttackSetup",
    "Circumstance",
    "Critical",
    "CriticalPrompt",
    "Damage",
    "InitiativeResult",
    "Quality",
    "ReactionOption",
    "WFRP2AttackResult",
    "WFRP2Options",
    "WFRP2System",
    "actions",
    "apply_effect",
    "apply_effects",
    "attack_setup",
    "circumstances",
    "encounter_circumstances",
    "initiative",
    "load_critical_table",
    "perform_action",
    "qualities",
    "reactions_available",
    "resolve_attack",
    "roll_critical",
    "roll_damage",
    "soak",
    "turn_problems",
]


REACTION_CIRCUMSTANCES = {"parry": "target_parried", "dodge": "target_dodged"}
"""The circumstance a reaction the target spent this round sets (002: one of each a round)."""


def encounter_circumstances(request: AttackRequest) -> dict[str, Any]:
    """The circumstances the encounter's standings and the target's sheet in ``request`` set
    (see the module docstring); those the request gives are left out."""
    held = {
        "attacker": set(request.attacker_standing.conditions),
        "target": set(request.target_standing.conditions),
    }
    found: dict[str, Any] = {}
    for item in circumstances().values():
        if item.condition is None or item.condition not in held[item.bearer]:
            continue
        if item.actions and request.action not in item.actions:
            continue
        found[item.id] = True
    spent = request.target_standing.reactions
    for reaction, circumstance in REACTION_CIRCUMSTANCES.items():
        if int(spent.get(reaction, 0) or 0) > 0:
            found[circumstance] = True
    found.update(sheet_circumstances(request.target))
    return {key: value for key, value in found.items() if key not in request.circumstances}


def with_encounter_state(request: AttackRequest) -> AttackRequest:
    """``request`` with the circumstances the encounter's state sets added."""
    found = encounter_circumstances(request)
    if not found:
        return request
    return replace(request, circumstances={**request.circumstances, **found})


class WFRP2System:
    """The WFRP 2e rules behind :class:`~gmkit.systems.base.GameSystem`."""

    game = "wfrp2"

    @property
    def conditions(self) -> ConditionBook:
        """WFRP 2e's conditions (:mod:`~gmkit.systems.wfrp2._conditions`)."""
        return condition_book()

    def resolve_attack(self, request: AttackRequest, source: DiceSource) -> AttackResult:
        """Resolve an attack (:func:`~gmkit.systems.wfrp2._resolve.resolve_attack`).

        ``request.action`` is an id of :func:`actions`, ``request.circumstances`` keys of
        :func:`circumstances`, ``request.mode`` "melee" or "ranged" (else: the weapon's own),
        ``request.options.reaction`` the defender's choice ("parry", "dodge", None, or one per
        attack). The encounter's conditions and reactions spent add circumstances
        (:func:`encounter_circumstances`); the result's request is the one resolved. A stunned
        attacker is refused (002: no action of any kind); the attack spends the attacker's aim
        and feint, and a reaction the target's
        (:func:`~gmkit.systems.wfrp2._acting.attack_effects`).
        """
        refuse_unable(request.attacker.name, request.attacker_standing.conditions, request.action)
        resolved = with_encounter_state(request)
        return attack_effects(resolved, resolve_attack(resolved, source))

    def reactions_available(self, request: AttackRequest) -> dict[str, ReactionOption]:
        """What the defender may do against ``request`` (before any die), the encounter's
        state counted as :meth:`resolve_attack` counts it."""
        return reactions_available(with_encounter_state(request))

    def initiative(
        self,
        combatants: Sequence[WFRP2Character],
        source: DiceSource,
        *,
        surprised: Iterable[str] = (),
    ) -> InitiativeResult:
        """Ag + 1d10 each, the order, and the surprised losing their first round."""
        return initiative(combatants, source, surprised=surprised)

    def perform_action(
        self,
        action_id: str,
        actor: WFRP2Character,
        source: DiceSource,
        *,
        target: WFRP2Character | None = None,
    ) -> ActionResult:
        """Take an action that is not an attack (move, run, stances, feint, manoeuvre...)."""
        return perform_action(action_id, actor, source, target=target)

    def apply_effect(
        self, sheet: WFRP2Character, effect: Effect
    ) -> tuple[WFRP2Character, tuple[Effect, ...]] | None:
        """One effect on ``sheet`` for the encounter: damage lowers ``wounds_current`` (below
        zero, the critical follow-up); the other kinds are the encounter's (None)."""
        return apply_effect(sheet, effect)

    def apply_effects(self, sheet: WFRP2Character, effects: Iterable[Effect]) -> Applied:
        """A new sheet with ``effects`` applied, and what is left for the encounter."""
        return apply_effects(sheet, effects)

    def actions(self) -> dict[str, Action]:
        """The action catalog."""
        return actions()

    def circumstances(self) -> dict[str, Circumstance]:
        """The circumstance catalog."""
        return circumstances()


SYSTEM = WFRP2System()
"""The WFRP 2e rules, as :func:`gmkit.systems.system` returns them."""
