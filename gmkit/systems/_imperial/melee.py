"""In melee: what being engaged does to the conditions that end in melee (pinned).

004: a character in melee is no longer obliged to take cover (pinned); 001: a pinned character
who enters melee recovers at once. The encounter keeps "in melee" as a condition flagged
``engaged`` (conditions.yaml ``engaged``; a grapple's ``grappled`` is one too), and the attack's
``engaged_in_melee`` circumstance names it for that attack:

- :func:`engaged`: whether a combatant is in melee. :func:`freed`: while it is, its
  conditions flagged ``ends_in_melee`` bind it no more (no half-action limit, no -20 to BS, no
  roll due): :func:`bound` is what its conditions still are to the rules.
- :func:`engagement`: entering melee (a Move into melee, the actor's or a foe's; a Charge)
  ends those conditions and leaves the combatant engaged.
- :func:`left`: the actions a condition names in ``ended_by`` (Disengage, a Move that does not
  engage, Run) end it for their actor.
"""

from __future__ import annotations

from collections.abc import Iterable

from gmkit.messages import Message, Text
from gmkit.systems._imperial.conditions import conditions, gain, lose, split_names
from gmkit.systems.base import Effect, Step

ENGAGED = "engaged"
Outcome = tuple[list[Step], list[Effect]]


def engaged(game: str, names: Iterable[str] | None) -> bool:
    """Whether a combatant bearing ``names`` is in melee: one of them is flagged ``engaged``
    (``engaged``, ``grappled``)."""
    return any(ENGAGED in conditions(game)[key].flags for key in split_names(game, names)[0])


def freed(game: str, names: Iterable[str] | None) -> frozenset[str]:
    """The ids among ``names`` (a combatant's conditions) that bind it no more: those flagged
    ``ends_in_melee`` while another it bears is flagged ``engaged``."""
    if not engaged(game, names):
        return frozenset()
    held = [conditions(game)[key] for key in split_names(game, names)[0]]
    return frozenset(item.id for item in held if "ends_in_melee" in item.flags)


def bound(game: str, names: Iterable[str] | None) -> list[str]:
    """The ids of ``game``'s conditions among ``names`` that bind their bearer now."""
    listed = list(names or ())
    let_go = freed(game, listed)
    return [key for key in split_names(game, listed)[0] if key not in let_go]


def engagement(game: str, title: Text, name: str, names: Iterable[str] | None) -> Outcome:
    """``name`` (bearing ``names``) enters melee: its conditions flagged ``ends_in_melee`` end,
    each with a step saying so, and it is engaged (unless it was)."""
    ids = split_names(game, names)[0]
    steps: list[Step] = []
    effects: list[Effect] = []
    for key in ids:
        item = conditions(game)[key]
        if "ends_in_melee" in item.flags:
            effects.append(lose(game, name, key))
            ended = Message("imperial.acting.melee_ends_named", name=name, condition=item.label)
            steps.append(Step(title, ended))
    if ENGAGED not in ids and ENGAGED in conditions(game):
        effects.append(gain(game, name, ENGAGED))
    return steps, effects


def left(game: str, action: str, name: str, names: Iterable[str] | None) -> list[Effect]:
    """The conditions of ``name`` that its action ``action`` ends (their ``ended_by``)."""
    ids = split_names(game, names)[0]
    return [lose(game, name, key) for key in ids if action in conditions(game)[key].ended_by]


__all__ = ["ENGAGED", "bound", "engaged", "engagement", "freed", "left"]
