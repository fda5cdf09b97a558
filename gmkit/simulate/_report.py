"""What many simulated fights came to: each side's chance to win, a draw, the rounds, who fell.

Every chance is a share of the fights (counts kept beside it, so the sides' wins and the draws
add up to the number of fights exactly); ``error`` gives its standard error.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass, field
from math import sqrt
from typing import Any

import pandas as pd


@dataclass(frozen=True)
class CombatantResult:
    """One combatant's fate over the fights, and the attack the policy picked against each foe
    at the start (foe name -> "weapon (mode)")."""

    id: str
    name: str
    side: str
    taken_out: float
    attacks: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SimulationReport:
    """The result of :func:`gmkit.simulate.simulate` (see its docstring for the policy)."""

    game: str
    fights: int
    seed: int | str
    policy: str
    simplifications: tuple[str, ...]
    sides: tuple[str, ...]
    win_counts: Mapping[str, int]
    draw_count: int
    rounds: float  # expected rounds (a draw counts the limit)
    rounds_error: float
    rounds_limit: int
    distance: float
    unit: str
    initiative: str
    combatants: tuple[CombatantResult, ...]
    notes: tuple[str, ...] = ()
    seconds: Mapping[str, float] = field(default_factory=dict, compare=False)

    # --- reading ----------------------------------------------------------------------------

    @property
    def wins(self) -> dict[str, float]:
        """Side -> chance to win (the last side standing)."""
        return {side: count / self.fights for side, count in self.win_counts.items()}

    @property
    def draw(self) -> float:
        """The chance that more than one side still stands at the round limit."""
        return self.draw_count / self.fights

    @property
    def taken_out(self) -> dict[str, float]:
        """Combatant name -> chance to be taken out (ids where names repeat)."""
        names = [c.name for c in self.combatants]
        return {
            (c.name if names.count(c.name) == 1 else c.id): c.taken_out for c in self.combatants
        }

    def error(self, chance: float) -> float:
        """The standard error of a chance estimated from these fights."""
        return sqrt(max(chance * (1 - chance), 0.0) / self.fights)

    def win_error(self, side: str) -> float:
        return self.error(self.wins[side])

    def summary(self) -> dict[str, Any]:
        """The numbers as plain values (no timings)."""
        return {
            "game": self.game,
            "fights": self.fights,
            "wins": self.wins,
            "draw": self.draw,
            "rounds": self.rounds,
            "taken_out": self.taken_out,
            "policy": self.policy,
        }

    def frame(self) -> pd.DataFrame:
        """One row per combatant: side, chance to be taken out, its standard error."""
        return pd.DataFrame(
            [
                {
                    "id": c.id,
                    "name": c.name,
                    "side": c.side,
                    "taken_out": c.taken_out,
                    "error": self.error(c.taken_out),
                }
                for c in self.combatants
            ]
        ).set_index("id")

    # --- showing ----------------------------------------------------------------------------

    def to_html(self) -> str:
        """The report as an HTML table (sides, draw, rounds, then each combatant)."""
        e = html.escape
        rows = [
            f"<tr><th>{e(side)}</th><td>{_pc(self.wins[side])}</td>"
            f"<td>± {_pc(self.win_error(side))}</td></tr>"
            for side in self.sides
        ]
        rows.append(
            f"<tr><th>draw (round {self.rounds_limit})</th><td>{_pc(self.draw)}</td>"
            f"<td>± {_pc(self.error(self.draw))}</td></tr>"
        )
        rows.append(
            f"<tr><th>rounds</th><td>{self.rounds:.2f}</td><td>± {self.rounds_error:.2f}</td></tr>"
        )
        people = []
        for c in self.combatants:
            attacks = "; ".join(f"{e(foe)}: {e(how)}" for foe, how in c.attacks.items())
            people.append(
                f"<tr><td>{e(c.name)}</td><td>{e(c.side)}</td><td>{_pc(c.taken_out)}</td>"
                f"<td class='gmkit-sim-attacks'>{attacks or '—'}</td></tr>"
            )
        items = "".join(f"<li>{e(text)}</li>" for text in (*self.simplifications, *self.notes))
        timing = ""
        if self.seconds:
            total = sum(self.seconds.values())
            timing = f" in {total:.2f} s"
        return (
            f"<div class='gmkit-simulation'>{_CSS}"
            f"<p><b>{self.fights:,}</b> fights ({e(self.game)}), seed {e(str(self.seed))}"
            f"{timing}</p>"
            "<table class='gmkit-sim-sides'><tr><th></th><th>chance</th><th>std. error</th></tr>"
            f"{''.join(rows)}</table>"
            "<table class='gmkit-sim-combatants'><tr><th>combatant</th><th>side</th>"
            "<th>taken out</th><th>attack at the start (target: weapon)</th></tr>"
            f"{''.join(people)}</table>"
            f"<p><b>Policy</b>: {e(self.policy)}</p>"
            f"<details><summary>Simplifications</summary><ul>{items}</ul></details>"
            "</div>"
        )

    def _repr_html_(self) -> str:
        return self.to_html()


_CSS = (
    "<style>.gmkit-simulation table{border-collapse:collapse;margin:0.4em 0}"
    ".gmkit-simulation th,.gmkit-simulation td{padding:0.15em 0.6em;text-align:left}"
    ".gmkit-simulation tr+tr{border-top:1px solid rgba(128,128,128,0.35)}"
    ".gmkit-simulation .gmkit-sim-attacks{font-size:0.85em;opacity:0.8}</style>"
)


def _pc(value: float) -> str:
    return f"{value * 100:.1f}%"
