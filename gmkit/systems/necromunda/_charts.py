"""Necromunda's D6 charts as data a GM may override: the to-wound chart (``to_wound.yaml``:
Strength less Toughness -> the score needed, or none) and the "7+ to hit" chart
(``to_hit_7plus.yaml``: a needed score above 6 -> the second die's score after a 6), read by
the shooting rules, the resolver and the odds through :mod:`gmkit.systems._sixes`. Values from
the seed README's rulings (the seed's tables were images).
"""

from __future__ import annotations

from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.systems._tables import table

GAME = "necromunda"


def _score(value: object, name: str, row: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise RulesError(
            Message("necromunda.table.score", table=name, row=str(row), got=repr(value))
        )
    return value


def _rows(name: str) -> dict[int, object]:
    data = table(GAME, name)
    if not isinstance(data, dict) or not data:
        raise RulesError(Message("necromunda.table.rows", table=f"{name}.yaml"))
    if any(isinstance(key, bool) or not isinstance(key, int) for key in data):
        raise RulesError(Message("necromunda.table.rows", table=f"{name}.yaml"))
    return {int(key): value for key, value in data.items()}


def to_wound_chart() -> dict[int, int | None]:
    """S - T -> the D6 score needed to wound (None: no wound possible)."""
    return {
        difference: None if value is None else _score(value, "to_wound.yaml", difference)
        for difference, value in _rows("to_wound").items()
    }


def seven_plus_chart() -> dict[int, int]:
    """A needed score above 6 -> the score a second D6 needs after a 6."""
    return {
        needed: _score(value, "to_hit_7plus.yaml", needed)
        for needed, value in _rows("to_hit_7plus").items()
        if needed > 6
    }


def possible(needed: int | None) -> bool:
    """Can a to-hit roll needing ``needed`` succeed at all (6 or less, or on the 7+ chart)?"""
    return needed is not None and (needed <= 6 or needed in seven_plus_chart())


__all__ = ["possible", "seven_plus_chart", "to_wound_chart"]
