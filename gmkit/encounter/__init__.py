"""The encounter: an append-only event log whose fold is the state of the fight.

>>> from gmkit.encounter import Encounter
>>> from gmkit.demo import demo_campaign
>>> from gmkit.dice import EnteredDice
>>> fight = Encounter("dark_heresy")
>>> roster = demo_campaign().rosters[1]
>>> ids = fight.add_many(roster.sheets[:2])
>>> fight.roll_initiative(EnteredDice([7, 4]))
{'sergeant-varro-tull': 10, 'ilse-marr': 8}
>>> fight.start()
>>> fight.state.current.name
'Sergeant Varro Tull'
>>> fight.undo().started
False
"""

from collections.abc import Iterable
from typing import Any

import pandas as pd

from gmkit.encounter._arguments import check_commands
from gmkit.encounter._combat import CombatCommands
from gmkit.encounter._overview import odds_frame, overview_frame
from gmkit.encounter._permits import Permit
from gmkit.encounter._state import Combatant, Condition, EncounterState, Trigger
from gmkit.encounter._views import (
    combat_log,
    combatant_summary,
    event_text,
    player_view,
    step_texts,
    units_frame,
    wound_band,
)


@check_commands  # every command's arguments checked on entry (encounter/_arguments.py)
class Encounter(CombatCommands):
    """One fight: commands in, events out, state as their fold (see the package docstring)."""

    def player_view(self, language: str = "en") -> dict[str, object]:
        """The encounter as the players may see it (its words in ``language``)."""
        return player_view(self.state, language=language, situation=self.situation)

    def log_frame(self, language: str = "en") -> pd.DataFrame:
        """The combat log: one row per effective event, its outcomes in ``language``."""
        return combat_log(self.effective_events, self.states, language=language)

    def summary_frame(self) -> pd.DataFrame:
        return combatant_summary(self.effective_events, self.state)

    def overview(self, language: str = "en") -> pd.DataFrame:
        """The fight as prepared: per combatant its side, whether the players run it, hidden,
        wounds, what the players see of them, initiative and conditions."""
        return overview_frame(self.state, language)

    def odds_frame(
        self,
        attackers: Iterable[str] | None = None,
        targets: Iterable[str] | None = None,
        **options: Any,
    ) -> pd.DataFrame:
        """The exact odds of the attackers' weapons against the targets, one row per outcome
        (see :func:`gmkit.encounter._overview.odds_frame`); nothing is recorded."""
        return odds_frame(self, attackers, targets, **options)

    def units_frame(self) -> pd.DataFrame:
        """The units on the table (WFB), one row each: their models left and how they stand."""
        return units_frame(self.state)


__all__ = [
    "Combatant",
    "Condition",
    "Encounter",
    "EncounterState",
    "Permit",
    "Trigger",
    "combat_log",
    "combatant_summary",
    "event_text",
    "player_view",
    "step_texts",
    "units_frame",
    "wound_band",
]
