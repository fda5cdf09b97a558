"""Dark Heresy's and Deathwatch's condition books, built from their conditions.yaml.

Each condition of the catalog (:func:`gmkit.systems._imperial.conditions.conditions`) becomes a
:class:`~gmkit.systems._conditions.ConditionKind`: what it ``carries`` (the catalog's), when it
ends (a count of rounds ticking at its ``ticks``; ``until_next_turn``: the start of the bearer's
next turn; the catalog's ``ends``: an Aim at the bearer's next action, which a Delay does not
end), its restrictions (:func:`~gmkit.systems._imperial.restrictions.restriction_of`, from its
flags and ``only_actions``), the kinds that lift them (a condition flagged ``ends_in_melee``
binds no more while one flagged ``engaged`` is held: 001, 004), and whether it takes its bearer
out of the fight (flagged ``fallen``: dead; ``out_of_the_fight``: unconscious).

The book is built once per catalog: a GM's data file read anew (the catalogs' caches cleared)
gives a new book.
"""

from __future__ import annotations

from collections.abc import Mapping

from gmkit.systems._conditions import ConditionBook, ConditionKind, Ending, declared
from gmkit.systems._imperial.conditions import Condition, conditions
from gmkit.systems._imperial.melee import ENGAGED
from gmkit.systems._imperial.restrictions import restriction_of

ENDS_IN_MELEE = "ends_in_melee"
_BUILT: dict[str, tuple[Mapping[str, Condition], ConditionBook]] = {}


_TICKS: dict[str, Ending] = {
    "start_of_turn": "start_of_turn",
    "end_of_turn": "end_of_turn",
    "end_of_round": "end_of_round",
}
_EVENTS: dict[str, Ending] = {
    "when_acts": "when_acts",
    "after_attack": "after_attack",
    "when_hit": "when_hit",
}


def _ends(item: Condition) -> tuple[Ending, ...]:
    found: list[Ending] = []
    if item.duration == "rounds":
        found.append(_TICKS.get(item.ticks or "", "turns"))
    elif item.duration == "until_next_turn":
        found.append("start_of_turn")
    found += [ending for key, ending in _EVENTS.items() if key in item.ends]
    return tuple(found) or ("removed",)


def _kind(game: str, item: Condition, engaging: frozenset[str]) -> ConditionKind:
    return ConditionKind(
        item.id,
        game,
        item.label,
        carries=item.carries,
        ends=_ends(item),
        kept_by=item.kept_by,
        restrictions=restriction_of(game, item.id),
        suspended_by=engaging if ENDS_IN_MELEE in item.flags else frozenset(),
        fallen="fallen" in item.flags,
        out="out_of_the_fight" in item.flags,
    )


def book(game: str) -> ConditionBook:
    """``game``'s conditions as its book declares them (see the module docstring)."""
    catalog = conditions(game)
    built = _BUILT.get(game)
    if built is not None and built[0] is catalog:
        return built[1]
    engaging = frozenset(key for key, item in catalog.items() if ENGAGED in item.flags)
    found = declared(game, (_kind(game, item, engaging) for item in catalog.values()))
    _BUILT[game] = (catalog, found)
    return found


__all__ = ["book"]
