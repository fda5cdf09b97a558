"""The marks the tracker's rows carry as classes (:data:`~gmkit.widgets._tracker_row.FLAGS`),
as one value: who is the current actor, who acts now, who has acted, the selected row and the
row asked to be removed. :meth:`Marks.changed` names the rows whose classes may differ between
two of them, so a turn change sends a class change to those rows only (at 1,000 combatants, the
one that was current and the new one), not a look at every row.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NO_MARKS", "Marks"]


@dataclass(frozen=True)
class Marks:
    """What the rows' classes show (ids of combatants; ``""`` / None for nobody)."""

    current: str | None = None
    acting: frozenset[str] = frozenset()
    done: frozenset[str] = frozenset()
    selected: str = ""
    asking: str = ""

    def flags(self, ident: str) -> frozenset[str]:
        """The classes of the row of ``ident``."""
        flags = set()
        if ident == self.current:
            flags.add("gmkit-current")
        if ident in self.acting:
            flags.add("gmkit-acting")
        if ident in self.done:
            flags.add("gmkit-done")
        if ident == self.selected:
            flags.add("gmkit-selected")
        if ident == self.asking:
            flags.add("gmkit-asking")
        return frozenset(flags)

    def changed(self, before: Marks) -> set[str]:
        """Ids whose classes may differ from ``before``'s (a superset of those that do)."""
        if before is self:
            return set()
        ids = {self.current, before.current, self.selected, before.selected}
        ids |= {self.asking, before.asking}
        if self.acting is not before.acting:
            ids |= self.acting ^ before.acting
        if self.done is not before.done:
            ids |= self.done ^ before.done
        ids.discard(None)
        ids.discard("")
        return {ident for ident in ids if ident is not None}


NO_MARKS = Marks()
"""What a row carries when it is made: no mark."""
