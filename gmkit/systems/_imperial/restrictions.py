"""What a Dark Heresy or Deathwatch condition forbids its bearer: from the conditions of
conditions.yaml (their ``flags`` and ``only_actions``) to the
:class:`~gmkit.systems.acting.Restriction` s of each condition's kind in the game's book
(:mod:`gmkit.systems._imperial.kinds`), which the encounter's permits apply before the action and
the attack's set-up applies to the attack itself (``modifiers.attack_setup``), so the two
never say different things (issue 22: they were coded twice).

``no_actions`` (stunned, unconscious, surprised): nothing at all, free actions included (and no
reaction where ``no_reactions`` is flagged too); ``one_half_action`` (Dark Heresy's pinned,
001): one half action's worth of the turn's ``actions`` pool; ``half_actions_only``
(Deathwatch's pinned, 004): half and free actions only; ``only_actions`` (grappled, broken):
those actions only; ``no_reactions`` alone (helpless, unaware, in a grapple): no Dodge nor
Parry. The game's fallen conditions (flagged ``fallen``: dead) are the permits' own and give
none here, nor do the conditions whose reactions
``systems.percentile_turns.REACTION_CONDITIONS`` counts (All Out Attack). A name the catalog
does not know (the GM's own words) restricts nothing.
"""

from __future__ import annotations

from gmkit.messages import Message
from gmkit.systems._imperial.actions import actions as catalog
from gmkit.systems._imperial.conditions import about, conditions
from gmkit.systems._percentile_turns import REACTION_CONDITIONS
from gmkit.systems.acting import Restriction


def restriction_of(game: str, name: str) -> tuple[Restriction, ...]:
    """What the condition ``name`` (an id of ``game``'s catalog, or ``"id: about"``) forbids
    its bearer; () for a name the catalog does not know (the GM's own)."""
    key = about(name)[0]
    item = conditions(game).get(key)
    if item is None or "fallen" in item.flags:
        return ()
    flags, label = item.flags, item.label
    no_reactions = "no_reactions" in flags and key not in REACTION_CONDITIONS
    if "no_actions" in flags:
        why = Message("imperial.acting.no_actions", condition=label)
        return (Restriction(name, why, no_actions=True, no_reactions=no_reactions),)
    found: list[Restriction] = []
    if "one_half_action" in flags:
        why = Message("imperial.acting.one_half_action", condition=label)
        found.append(Restriction(name, why, caps={"actions": 1}))
    if "half_actions_only" in flags:
        why = Message("imperial.acting.half_actions_only", condition=label)
        found.append(Restriction(name, why, types=frozenset({"half", "free"})))
    if item.only_actions:
        named = tuple(
            catalog(game)[one].label if one in catalog(game) else Message.verbatim(one)
            for one in sorted(item.only_actions)
        )
        why = Message("imperial.acting.only_actions", condition=label, actions=named)
        found.append(Restriction(name, why, actions=frozenset(item.only_actions)))
    if no_reactions:
        why = Message("imperial.acting.no_reactions", condition=label)
        found.append(Restriction(name, why, no_reactions=True))
    return tuple(found)


__all__ = ["restriction_of"]
