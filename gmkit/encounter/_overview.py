"""A prepared fight at a glance, and the odds of its attacks, as pandas DataFrames.

- :func:`overview_frame`: one row per combatant: side, whether the players run it, hidden,
  wounds, what the players see of them, initiative, conditions.
- :func:`odds_frame`: the exact odds of each attacker's weapons, in every mode the rules allow
  them, against each target, tidy (one row per attacker x weapon x mode x target x outcome),
  from the same requests the table resolves: nothing is recorded. What cannot happen is one
  row saying why (a WFB distance not measured; a melee attack on a target out of reach).

Both read the encounter's state and the rules' own functions; the words are the reader's
(``language``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import pandas as pd

from gmkit.encounter._state import Combatant, EncounterState
from gmkit.encounter._views import player_view
from gmkit.errors import GmkitError
from gmkit.games import health
from gmkit.messages import Message, Text, render

if TYPE_CHECKING:
    from gmkit.encounter import Encounter

OVERVIEW_COLUMNS = (
    "name",
    "side",
    "players",
    "hidden",
    "wounds",
    "players see",
    "initiative",
    "conditions",
)
ODDS_COLUMNS = (
    "attacker",
    "weapon",
    "mode",
    "action",
    "target",
    "kind",
    "outcome",
    "label",
    "value",
)


def overview_frame(state: EncounterState, language: str = "en") -> pd.DataFrame:
    """Per combatant present: its side, whether the players run it (``player_sides``), hidden,
    wounds left/total, the wounds as the players see them ("" while hidden), initiative
    (None until rolled) and its conditions."""
    seen = {entry["name"]: entry for entry in player_view(state, language=language)["combatants"]}
    sides = set(state.settings.get("player_sides", ()))
    rows = []
    for combatant in state.combatants.values():
        if combatant.removed:
            continue
        left, total = health(combatant.sheet, combatant.counters)
        shown = seen.get(combatant.name, {}) if not combatant.hidden else {}
        rows.append(
            {
                "name": combatant.name,
                "side": combatant.side,
                "players": combatant.side in sides,
                "hidden": combatant.hidden,
                "wounds": f"{left}/{total}",
                "players see": str(shown.get("wounds", "")),
                "initiative": combatant.initiative,
                "conditions": ", ".join(sorted(combatant.conditions)),
            }
        )
    frame = pd.DataFrame(rows, columns=list(OVERVIEW_COLUMNS))
    frame["initiative"] = frame["initiative"].astype("Int64")  # <NA> until rolled
    return frame


def odds_frame(
    encounter: Encounter,
    attackers: Iterable[str] | None = None,
    targets: Iterable[str] | None = None,
    *,
    weapons: Iterable[str] | None = None,
    distance: float | None = None,
    circumstances: Mapping[str, Any] | None = None,
    language: str = "en",
) -> pd.DataFrame:
    """The odds of every attack of ``attackers`` (names or ids; default: the players' sides,
    else everyone) with each of their weapons (or those named in ``weapons``) in every mode the
    rules allow it (a bolter single, semi-auto, full-auto...; each mode's plain action), against
    each of ``targets`` (default: everyone on another side), at ``distance`` with
    ``circumstances``. Tidy: one row per outcome (see :meth:`gmkit.odds.Odds.rows`: a horde's
    states are the magnitude it loses); ``exact`` holds the Fraction.

    An attack that cannot happen is one row of ``kind`` "refused" saying why: one the rules
    refuse (a WFB distance not measured), and a melee attack on a target beyond reach
    (``MELEE_REACH``: an adjacent foe, 2 m; leave ``distance`` out, or give one in reach, for
    the odds of a melee attack). ``frame.attrs`` holds the ``game`` and the ``language``."""
    from gmkit.odds import odds  # the odds engines load when first asked for
    from gmkit.systems import _choices as choices

    state = encounter.state
    present = [c for c in state.combatants.values() if not c.removed]
    shooters = _pick(encounter, attackers, _default_attackers(state, present))
    wanted = {name.casefold() for name in weapons} if weapons is not None else None
    out_of_reach = _out_of_reach(encounter.game, distance)
    rows: list[dict[str, Any]] = []
    for attacker in shooters:
        victims = _pick(encounter, targets, [c for c in present if c.side != attacker.side])
        for weapon in choices.weapons(encounter.game, attacker.sheet):
            if wanted is not None and weapon.casefold() not in wanted:
                continue
            for mode, action in _legal_modes(encounter.game, attacker, weapon):
                for target in victims:
                    if target.id == attacker.id:
                        continue
                    head = {
                        "attacker": attacker.name,
                        "weapon": weapon,
                        "mode": mode,
                        "action": action,
                        "target": target.name,
                    }
                    if mode in MELEE_MODES and out_of_reach is not None:
                        rows.append({**head, **_refused(out_of_reach, language)})
                        continue
                    try:
                        request = encounter.attack_request(
                            attacker.id,
                            weapon,
                            target.id,
                            action=action,
                            mode=mode,
                            distance=distance,
                            circumstances=dict(circumstances or {}),
                        )
                        found = odds(request).rows(language)
                    except GmkitError as error:  # one the rules refuse (a distance unmeasured)
                        found = [_refused(error.message, language)]
                    rows.extend({**head, **row} for row in found)
    frame = pd.DataFrame(rows, columns=[*ODDS_COLUMNS, "exact"])
    frame.attrs.update(game=encounter.game, language=language)
    return frame


MELEE_MODES = ("melee",)
"""The modes of a melee attack: the target must be within reach."""

MELEE_REACH = {"m": 2.0, "in": 1.0, "cm": 2.0}
"""How far a melee attack reaches, in each game's unit: an adjacent foe (the seeds engage
"adjacent" foes in melee and give no distance; 004 puts point blank at 2 m), base contact."""


def _out_of_reach(game: str, distance: float | None) -> Message | None:
    """Why a melee attack at ``distance`` cannot happen (None: it may, or no distance)."""
    from gmkit.games import game as find_game

    unit = find_game(game).unit
    reach = MELEE_REACH.get(unit, 0.0)
    if distance is None or distance <= reach:
        return None
    return Message("encounter.odds.out_of_reach", distance=distance, reach=reach, unit=unit)


def _refused(why: Text, language: str) -> dict[str, Any]:
    """The row of an attack that cannot happen: ``kind`` "refused", ``label`` why, no value."""
    return {
        "kind": "refused",
        "outcome": "refused",
        "label": render(why, language),
        "value": float("nan"),
        "exact": None,
    }


def _default_attackers(state: EncounterState, present: list[Combatant]) -> list[Combatant]:
    sides = set(state.settings.get("player_sides", ()))
    players = [c for c in present if c.side in sides]
    return players or present


def _pick(
    encounter: Encounter, named: Iterable[str] | None, default: list[Combatant]
) -> list[Combatant]:
    if named is None:
        return default
    if isinstance(named, str):
        named = [named]
    return [encounter.combatant(name) for name in named]


def _legal_modes(game: str, attacker: Combatant, weapon: str) -> list[tuple[str, str]]:
    """Each mode of the weapon with a legal attack, and the action a plain attack in it is."""
    from gmkit.systems import _choices as choices

    found: list[tuple[str, str]] = []
    offered = choices.attack_choices(game, attacker.sheet, weapon)
    for mode in offered.modes:
        legal = choices.attack_choices(game, attacker.sheet, weapon, mode=mode.id)
        action = choices.default_action(game, mode.id, [a.id for a in legal.actions])
        if action:
            found.append((mode.id, action))
    return found


__all__ = [
    "MELEE_MODES",
    "MELEE_REACH",
    "ODDS_COLUMNS",
    "OVERVIEW_COLUMNS",
    "odds_frame",
    "overview_frame",
]
