"""Necromunda wounds and injuries: the injury roll, flesh wounds, down, out of action, recovery.

Data: ``injuries.yaml`` (the injury table, and the high-impact table with its Strength) and
``recovery.yaml`` (the recovery table), under ``systems/data/necromunda/``.

- Each wound takes one from the fighter's wounds, never below 0. While wounds are left it
  fights on. The wound that takes it to 0 calls for an injury roll (D6), and so does each wound
  after that, one roll each (a fighter of W 1 taking 3 wounds rolls 3 times).
- Injury roll: 1 flesh wound, 2-5 down, 6 out of action (seed README); weapons of Strength 7+
  (high impact) take the fighter out of action on 5-6.
- Flesh wound: -1 WS and -1 BS for the rest of the battle; the fighter fights on at 0 wounds
  and rolls again when wounded again. Flesh wounds stack; when both WS and BS are 0 the fighter
  is out of action through loss of blood.
- Down: face down, may only crawl 2". A second "down" (in the same attack, or on a fighter
  already down) is ignored; flesh wounds rolled with it still count.
- Out of action: removed from the table.
- Recovery: at the end of its side's recovery phase each down fighter rolls D6 on the injury
  table again: a flesh wound recovers (with the -1) and leaves it pinned for a turn; down stays
  down; out of action removes it.

Choices where the texts are silent:

- Once a roll takes the fighter out of action the remaining injury rolls are not made (nothing
  they could show would change the result).
- Effects: ``damage`` (the wounds lost, never more than were left), then an ``injury`` effect
  per result that changes something (``condition`` "flesh wound", "down", "out of action");
  an ignored "down" gives no effect. A recovering fighter gets ``remove_condition`` "down" and
  ``pinned`` (rounds 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from gmkit.dice import DiceSource
from gmkit.errors import RulesError
from gmkit.sheets.necromunda import NecromundaFighter
from gmkit.systems.base import Effect, Step
from gmkit.systems.necromunda.state import FighterState, bled_out
from gmkit.systems.tables import table

GAME = "necromunda"
Injury = Literal["flesh wound", "down", "out of action"]
INJURIES: tuple[Injury, ...] = ("flesh wound", "down", "out of action")


def _faces(rows: object, name: str) -> dict[int, Injury]:
    if not isinstance(rows, dict) or sorted(rows) != [1, 2, 3, 4, 5, 6]:
        raise RulesError(f"{name}: needs a result for each face 1 to 6")
    for face, result in rows.items():
        if result not in INJURIES:
            raise RulesError(f"{name} face {face}: {result!r} is not one of {INJURIES}")
    return {int(face): result for face, result in rows.items()}


def injury_table(high_impact: bool = False) -> dict[int, Injury]:
    """D6 face -> injury, for ordinary or high-impact weapons (data: ``injuries.yaml``)."""
    key = "high_impact" if high_impact else "normal"
    return _faces(table(GAME, "injuries")[key], f"injuries.yaml {key}")


def recovery_table() -> dict[int, Injury]:
    """D6 face -> result of a down fighter's recovery roll (data: ``recovery.yaml``)."""
    return _faces(table(GAME, "recovery"), "recovery.yaml")


def high_impact_strength() -> int:
    """The Strength from which a weapon is high impact (7 in seed 000)."""
    return int(table(GAME, "injuries")["high_impact_strength"])


def is_high_impact(strength: int) -> bool:
    return strength >= high_impact_strength()


def injury_rolls(wounds: int, wounds_left: int) -> int:
    """How many injury rolls ``wounds`` cause to a fighter with ``wounds_left``."""
    if wounds <= 0 or wounds < wounds_left:
        return 0
    return wounds - max(0, wounds_left - 1)


@dataclass(frozen=True, slots=True)
class WoundOutcome:
    """What wounds (or a recovery roll) did: explained steps, effects, the state after."""

    steps: tuple[Step, ...]
    effects: tuple[Effect, ...]
    state: FighterState

    @property
    def results(self) -> tuple[str, ...]:
        """The injury effects' conditions, in order."""
        return tuple(e.condition or "" for e in self.effects if e.kind == "injury")


def _flesh_effect(name: str, count: int) -> Effect:
    note = f"-1 WS and BS for the rest of the battle ({count} in all)"
    return Effect("injury", name, condition="flesh wound", note=note)


def _out_effect(name: str, why: str) -> Effect:
    return Effect("injury", name, condition="out of action", note=f"{why}: remove the model")


def resolve_wounds(
    fighter: NecromundaFighter,
    state: FighterState,
    wounds: int,
    source: DiceSource,
    *,
    high_impact: bool = False,
) -> WoundOutcome:
    """Apply ``wounds`` to a fighter in ``state``: wounds lost, then one injury roll each."""
    if state.out_of_action:
        raise RulesError(f"{fighter.name}: already out of action")
    left = state.wounds(fighter)
    lost = min(wounds, left)
    rolls = injury_rolls(wounds, left)
    steps = [
        Step(
            "Wounds",
            f"{wounds} wound{'s' * (wounds != 1)}: {left - lost} of {fighter.W} left",
            f"{rolls} injury roll{'s' * (rolls != 1)}" if rolls else "the fighter fights on",
        )
    ]
    effects = [Effect("damage", fighter.name, amount=lost)] if lost else []
    chart = injury_table(high_impact)
    flesh, down, out = state.flesh(fighter), state.down, False
    for number in range(1, rolls + 1):
        purpose = "injury roll" if rolls == 1 else f"injury roll {number}"
        die = source.roll_die(6, purpose)
        result = chart[die.value]
        detail = "high impact: 5-6 out of action" if high_impact else "6 out of action"
        outcome: str = result
        if result == "flesh wound":
            flesh += 1
            effects.append(_flesh_effect(fighter.name, flesh))
            if bled_out(fighter, flesh):
                out = True
                outcome = "flesh wound: WS and BS at 0, out of action through loss of blood"
                effects.append(_out_effect(fighter.name, "loss of blood"))
        elif result == "down":
            if down:
                outcome = "down, ignored: already down"
            else:
                down = True
                effects.append(Effect("injury", fighter.name, condition="down", note="face down"))
        else:
            out = True
            effects.append(_out_effect(fighter.name, "injury roll"))
        steps.append(Step(purpose.capitalize(), outcome, detail, rolls=(die,)))
        if out:
            if number < rolls:
                steps.append(Step("Injury rolls", f"{rolls - number} more not needed"))
            break
    after = state.with_changes(
        wounds_left=left - lost,
        flesh_wounds=flesh,
        down=down and not out,
        out_of_action=out,
        pinned=state.pinned and not down and not out,
    )
    return WoundOutcome(tuple(steps), tuple(effects), after)


def recovery_roll(
    fighter: NecromundaFighter, state: FighterState, source: DiceSource
) -> WoundOutcome:
    """A down fighter's roll at the end of its side's recovery phase."""
    if not state.down or state.out_of_action:
        raise RulesError(f"{fighter.name}: only a down fighter makes a recovery roll")
    die = source.roll_die(6, f"recovery roll ({fighter.name})")
    result = recovery_table()[die.value]
    name = fighter.name
    if result == "down":
        step = Step("Recovery roll", "stays down", rolls=(die,))
        return WoundOutcome((step,), (), state)
    if result == "out of action":
        step = Step("Recovery roll", "out of action", rolls=(die,))
        after = state.with_changes(down=False, out_of_action=True)
        return WoundOutcome((step,), (_out_effect(name, "recovery roll"),), after)
    flesh = state.flesh(fighter) + 1
    if bled_out(fighter, flesh):
        step = Step("Recovery roll", "flesh wound: WS and BS at 0, out of action", rolls=(die,))
        effects = (_flesh_effect(name, flesh), _out_effect(name, "loss of blood"))
        after = state.with_changes(down=False, out_of_action=True, flesh_wounds=flesh)
        return WoundOutcome((step,), effects, after)
    step = Step(
        "Recovery roll",
        "recovers with a flesh wound",
        "face up, pinned for a turn; -1 WS and BS",
        rolls=(die,),
    )
    effects = (
        _flesh_effect(name, flesh),
        Effect("remove_condition", name, condition="down"),
        Effect("pinned", name, rounds=1, note="recovered from down: pinned for a turn"),
    )
    after = state.with_changes(down=False, pinned=True, flesh_wounds=flesh)
    return WoundOutcome((step,), effects, after)


def recovery_phase(
    fighters: Sequence[tuple[NecromundaFighter, FighterState]], source: DiceSource
) -> tuple[WoundOutcome, ...]:
    """The end of a recovery phase: one recovery roll for each down fighter, in the order given.

    Fighters not down roll nothing and are left out of the answer.
    """
    return tuple(
        recovery_roll(fighter, state, source)
        for fighter, state in fighters
        if state.down and not state.out_of_action
    )
