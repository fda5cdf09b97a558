"""WFRP 2e's conditions (seed 002), declared: what each forbids and when it ends.

The book (:data:`BOOK`, the rules' ``conditions``) is the one mapping from a condition to its
restrictions that the encounter's permits (:meth:`~gmkit.systems.wfrp2._acting.WFRP2TurnRules.
restrictions`) and the resolvers (:func:`~gmkit.systems.wfrp2._acting.refuse_unable`: an attack
or an action its bearer may not take) both read:

- ``dead``: out of the fight (the encounter passes over its turns).
- ``stunned`` (a critical's, for its rounds): no action of any kind, not even a free one, and
  no parry or dodge (002).
- ``helpless`` (a critical's): it cannot defend itself, no parry or dodge (002).
- ``defensive_stance``: the character does not attack that round (002): every action of the
  catalog but the attacks.
- ``aiming`` and ``feint`` hold for the bearer's next action only, at most to the start of its
  turn after next (``rounds: 2`` in actions.yaml): the next action of any kind ends them (an
  attack uses them; a dodge or a parry, 002's free actions, loses them).
- The states the actions leave until the start of the bearer's next turn (actions.yaml
  ``grants``: cautious and all out attack, running, the stances, a delayed half action); All
  Out Attack's "no parry or dodge" is counted with the reactions (``systems.turns``).
- ``surprised``: the first round, as the encounter counts it (002 gives no more).

A condition's rounds ending ``turns`` are counted on the bearer's turns by the encounter's rule
(a critical's stun from a foe costs the bearer its next turn). 002 names nothing a condition
carries after a colon: a name with one is the GM's note.
"""

from __future__ import annotations

from gmkit.systems._conditions import ConditionBook, ConditionKind, Ending, declared, kind
from gmkit.systems.wfrp2._catalogs import actions

GAME = "wfrp2"
_NEXT_TURN: tuple[Ending, ...] = ("start_of_turn",)
_NEXT_ACTION: tuple[Ending, ...] = ("start_of_turn", "when_acts")
_BUILT: list[tuple[object, ConditionBook]] = []


def _kinds() -> tuple[ConditionKind, ...]:
    others = frozenset(item.id for item in actions().values() if not item.is_attack)
    return (
        kind(GAME, "dead", fallen=True),
        kind(
            GAME,
            "stunned",
            why="wfrp2.restriction.stunned",
            no_actions=True,
            no_reactions=True,
            ends=("turns",),
        ),
        kind(
            GAME, "helpless", why="wfrp2.restriction.helpless", no_reactions=True, ends=("turns",)
        ),
        kind(
            GAME,
            "defensive_stance",
            why="wfrp2.restriction.defensive_stance",
            actions=others,
            ends=("start_of_turn",),
        ),
        kind(GAME, "surprised", ends=("turns",)),
        kind(GAME, "aiming", ends=_NEXT_ACTION),
        kind(GAME, "feint", ends=_NEXT_ACTION),
        kind(GAME, "cautious_attack", ends=_NEXT_TURN),
        kind(GAME, "all_out_attack", ends=_NEXT_TURN),
        kind(GAME, "running", ends=_NEXT_TURN),
        kind(GAME, "parry_stance", ends=_NEXT_TURN),
        kind(GAME, "delayed_half_action", ends=_NEXT_TURN),
    )


def book() -> ConditionBook:
    """WFRP 2e's conditions (built again when the action catalog is read anew: the defensive
    stance's allowed actions are the catalog's)."""
    catalog = actions()
    if not _BUILT or _BUILT[0][0] is not catalog:
        _BUILT[:] = [(catalog, declared(GAME, _kinds()))]
    return _BUILT[0][1]


__all__ = ["GAME", "book"]
