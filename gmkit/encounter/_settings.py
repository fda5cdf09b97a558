"""The table settings an encounter knows, each with the values it takes.

``Encounter.set(key, value)`` refuses a name not declared here (``"enemy_wound"`` names the
nearest) and a value the setting does not take; the fold checks the values again when it reads
a log, and passes over a name it does not know (a log written before a setting was retired
still opens).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from gmkit.errors import RulesError
from gmkit.messages import Message

WOUNDS_SHOWN = ("exact", "band", "hidden")


@dataclass(frozen=True)
class Setting:
    """One setting: its name, what it does, and its default."""

    key: str
    help: str
    default: Any


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "enemy_wounds",
        "how the players see their enemies' wounds: exact, band (unhurt/hurt/bloodied/down) "
        "or hidden",
        "band",
    ),
    Setting("player_sides", "the sides the players run: they see these sheets whole", []),
    Setting("skip_fallen", "the turn passes over combatants who are down or out", True),
)
KEYS = tuple(setting.key for setting in SETTINGS)


def setting_name(key: str) -> str:
    """``key`` if it names a setting; else a RulesError naming the nearest (a command's check:
    ``Encounter.set("enemy_wound", ...)`` is refused before anything is written)."""
    if not key:
        raise RulesError(Message("encounter.setting_blank"))
    if key not in KEYS:
        near = difflib.get_close_matches(key, KEYS, n=1, cutoff=0.5)
        if not near:
            raise RulesError(Message("encounter.unknown_setting_far", key=repr(key), known=KEYS))
        raise RulesError(
            Message("encounter.unknown_setting", key=repr(key), nearest=near[0], known=KEYS)
        )
    return key


def setting_value(key: str, value: Any) -> Any:
    """``value`` if the setting ``key`` takes it, else a RulesError naming both (the fold's
    check: a name it does not know passes, a log may hold a retired setting)."""
    if not key:
        raise RulesError(Message("encounter.setting_blank"))
    if key == "enemy_wounds" and value not in WOUNDS_SHOWN:
        raise RulesError(
            Message("encounter.enemy_wounds_choice", value=repr(value), choices=WOUNDS_SHOWN)
        )
    if key == "player_sides" and (
        not isinstance(value, list) or not all(isinstance(v, str) for v in value)
    ):
        raise RulesError(Message("encounter.player_sides_list", value=repr(value)))
    if key == "skip_fallen" and not isinstance(value, bool):
        raise RulesError(Message("encounter.setting_true_false", key=key, value=repr(value)))
    return value


__all__ = ["KEYS", "SETTINGS", "WOUNDS_SHOWN", "Setting", "setting_name", "setting_value"]
