"""What the tracker's rows were last drawn from, so a render works out again only the rows whose
inputs changed (:class:`Drawn`).

A row's text, initiative box and chips are a function of its combatant (an immutable value of
the state: unchanged, it is the same object or an equal one), whether the fight has started,
whether it is round 1 (surprise), the combatant's triggers and the language; the order of the
rows, of the combatants present, their side or score, the state's order of play and the order
they joined in. :meth:`Drawn.changes` compares those with the last render's, at one dict look-up
a combatant when the fold kept the unchanged ones (a turn change), one comparison of their
fields when it made new equal ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gmkit.encounter import Combatant, EncounterState, Trigger

__all__ = ["Changes", "Drawn", "by_owner", "same"]


def same(old: Combatant, new: Combatant) -> bool:
    """Whether two combatants are equal (field by field, as ``==``; the same object at once)."""
    if old is new:
        return True
    if type(old) is type(new) and hasattr(old, "__dict__") and hasattr(new, "__dict__"):
        return bool(old.__dict__ == new.__dict__)  # the fields, compared in C
    return bool(old == new)


def by_owner(triggers: tuple[Trigger, ...]) -> dict[str, list[Trigger]]:
    """The triggers of each combatant, in the state's order."""
    owned: dict[str, list[Trigger]] = {}
    for trigger in triggers:
        owned.setdefault(trigger.owner, []).append(trigger)
    return owned


@dataclass(frozen=True)
class Changes:
    """What to render again: the ids of the rows to draw (present or not; all of them when
    ``everything``), and whether the order of the rows may have changed."""

    ids: frozenset[str]
    reorder: bool
    everything: bool = False


class Drawn:
    """The inputs of the last render (see the module docstring)."""

    def __init__(self) -> None:
        self.forget()

    def forget(self) -> None:
        """Draw every row and order them again at the next render."""
        self._combatants: Mapping[str, Combatant] = {}
        self._keys: tuple[str, ...] = ()
        self._context: tuple[object, ...] | None = None
        self._order: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        self._triggers: tuple[Trigger, ...] = ()

    def changes(self, state: EncounterState, language: str) -> Changes:
        """What changed since the last call (which it then remembers as drawn)."""
        context = (state.started, state.round == 1, language)
        combatants = state.combatants
        keys = tuple(combatants)
        order = (state.order, state.sides)
        if context != self._context:
            ids: set[str] = set(combatants)
            reorder = everything = True
        else:
            everything = False
            old = self._combatants
            if combatants is old:
                ids = set()
            else:
                ids = {
                    ident
                    for ident, combatant in combatants.items()
                    if (before := old.get(ident)) is not combatant
                    and (before is None or not same(before, combatant))
                }
            reorder = keys != self._keys or order != self._order
            if not reorder:
                for ident in ids:
                    before, now = old.get(ident), combatants[ident]
                    if before is None or (before.removed, before.side, before.initiative) != (
                        now.removed,
                        now.side,
                        now.initiative,
                    ):
                        reorder = True
                        break
            if state.triggers != self._triggers:
                before_by, now_by = by_owner(self._triggers), by_owner(state.triggers)
                owners = before_by.keys() | now_by.keys()
                ids |= {o for o in owners if before_by.get(o) != now_by.get(o)}
        self._combatants = combatants
        self._keys = keys
        self._context = context
        self._order = order
        self._triggers = state.triggers
        return Changes(frozenset(ids), reorder, everything)
