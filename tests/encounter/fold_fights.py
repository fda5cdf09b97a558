"""Scripted fights of the five games, for the fold's equivalence and group-commit tests.

Each is played through the Encounter commands only, with seeded dice: turns, conditions of
every tick, notes, attacks (refusals are part of the script: they record nothing), spends,
undo and redo, a removal and a revival. The same script gives the same log on every run.
"""

from __future__ import annotations

import hashlib
import json
from contextlib import suppress
from typing import Any

from gmkit.demo import demo_campaign
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.encounter._state import EncounterState
from gmkit.errors import GmkitError

GAMES = ("necromunda", "dark_heresy", "deathwatch", "wfrp2", "wfb6")
TICKS = ("end_of_turn", "start_of_turn", "end_of_round", "never")


def _weapons(fight: Encounter, ident: str) -> list[str]:
    sheet = fight.combatant(ident).sheet
    return [weapon.name for weapon in getattr(sheet, "weapons", ())]


def play(game: str, steps: int = 240, fight: Encounter | None = None) -> Encounter:
    """The scripted fight of ``game``: ``steps`` commands tried (a refused one records
    nothing), on ``fight`` if given (one with a store writes every event to it)."""
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    fight = fight if fight is not None else Encounter(game)
    ids = fight.add_many(roster.sheets)
    dice = SeededDice(14)
    with suppress(GmkitError):  # (sides games roll no initiative)
        fight.roll_initiative(SeededDice(1))
    fight.start(SeededDice(2))
    for number in range(steps):
        who = ids[number % len(ids)]
        other = ids[(number * 5 + 3) % len(ids)]
        with suppress(GmkitError):  # refused: nothing recorded
            _step(fight, number, who, other, dice)
    return fight


def _step(fight: Encounter, number: int, who: str, other: str, dice: SeededDice) -> None:
    choice = number % 13
    if choice in (0, 4, 8, 11):
        fight.next_turn()
    elif choice == 1:
        fight.add_condition(who, "stunned", rounds=1 + number % 3, ticks=TICKS[number % 4])
    elif choice == 2:
        current = fight.state.current
        attacker = current.id if current is not None else who
        weapons = _weapons(fight, attacker)
        if weapons and attacker != other:
            weapon = weapons[number % len(weapons)]
            fight.attack(attacker, weapon, other, dice, spend=bool(number % 2))
    elif choice == 3:
        fight.note(f"note {number}", gm_only=bool(number % 2))
    elif choice == 5:
        fight.undo()
    elif choice == 6:
        fight.redo()
    elif choice == 7:
        fight.remove_condition(who, "stunned")
    elif choice == 9:
        fight.remove(other) if number % 26 == 9 else fight.revive(other)
    elif choice == 10:
        fight.add_condition(who, "on fire", ticks="start_of_turn", reminder="burning")
    else:
        fight.previous_turn() if number % 3 else fight.next_turn()


def fingerprint(states: list[EncounterState], events: list[dict[str, Any]]) -> str:
    """A digest of every state and every event (their reprs, the events as sorted JSON)."""
    digest = hashlib.sha256()
    for state in states:
        digest.update(repr(state).encode())
    for event in events:
        digest.update(json.dumps(event, sort_keys=True).encode())
    return digest.hexdigest()[:16]
