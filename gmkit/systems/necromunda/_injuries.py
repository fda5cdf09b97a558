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
from gmkit.messages import Message
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems._tables import table
from gmkit.systems.base import Effect, Step
from gmkit.systems.necromunda._state import FighterState, bled_out

GAME = "necromunda"
Injury = Literal["flesh wound", "down", "out of action"]
INJURIES: tuple[Injury, ...] = ("flesh wound", "down", "out of action")
OutReason = Literal["loss_of_blood", "injury_roll", "recovery_roll"]


def injury_term(result: str) -> Message:
    """An injury result's words (the tables' own: ``necromunda.injury.<result>``)."""
    return Message.term(f"necromunda.injury.{result.replace(' ', '_')}", result)


def _faces(rows: object, name: str) -> dict[int, Injury]:
    if not isinstance(rows, dict) or sorted(rows) != [1, 2, 3, 4, 5, 6]:
        raise RulesError(Message("necromunda.table.faces", table=name))
    for face, result in rows.items():
        if result not in INJURIES:
            choices = tuple(repr(injury) for injury in INJURIES)
            raise RulesError(
                Message(
                    "necromunda.table.result",
                    table=name,
                    face=int(face),
                    result=repr(result),
                    choices=choices,
                )
            )
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
    note = Message("necromunda.effect.flesh_wound", count=count)
    return Effect("injury", name, condition="flesh wound", note=note)


def _out_effect(name: str, why: OutReason) -> Effect:
    note = Message("necromunda.effect.out_of_action", why=Message(f"necromunda.out_reason.{why}"))
    return Effect("injury", name, condition="out of action", note=note)


def already_out(fighter: NecromundaFighter) -> RulesError:
    """The refusal of wounds on a fighter already out of action."""
    return RulesError(Message("necromunda.already_out", name=fighter.name))


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
        raise already_out(fighter)
    left = state.wounds(fighter)
    lost = min(wounds, left)
    rolls = injury_rolls(wounds, left)
    taken = Message("necromunda.wounds.taken", wounds=wounds, left=left - lost, total=fighter.W)
    if rolls:
        why = Message("necromunda.wounds.injury_rolls", rolls=rolls)
    else:
        why = Message("necromunda.wounds.fights_on")
    steps = [Step(Message("necromunda.step.wounds"), taken, why)]
    effects = [Effect("damage", fighter.name, amount=lost)] if lost else []
    chart = injury_table(high_impact)
    flesh, down, out = state.flesh(fighter), state.down, False
    detail = Message(
        "necromunda.injury_roll.high_impact" if high_impact else "necromunda.injury_roll.normal"
    )
    for number in range(1, rolls + 1):
        if rolls == 1:
            purpose = Message("necromunda.purpose.injury_roll")
            title = Message("necromunda.step.injury_roll")
        else:
            purpose = Message("necromunda.purpose.injury_roll_n", number=number)
            title = Message("necromunda.step.injury_roll_n", number=number)
        die = source.roll_die(6, purpose)
        result = chart[die.value]
        outcome = injury_term(result)
        if result == "flesh wound":
            flesh += 1
            effects.append(_flesh_effect(fighter.name, flesh))
            if bled_out(fighter, flesh):
                out = True
                outcome = Message("necromunda.injury_roll.bled_out")
                effects.append(_out_effect(fighter.name, "loss_of_blood"))
        elif result == "down":
            if down:
                outcome = Message("necromunda.injury_roll.down_ignored")
            else:
                down = True
                face_down = Message("necromunda.effect.down")
                effects.append(Effect("injury", fighter.name, condition="down", note=face_down))
        else:
            out = True
            effects.append(_out_effect(fighter.name, "injury_roll"))
        steps.append(Step(title, outcome, detail, rolls=(die,)))
        if out:
            if number < rolls:
                more = Message("necromunda.injury_roll.not_needed", count=rolls - number)
                steps.append(Step(Message("necromunda.step.injury_rolls"), more))
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
        raise RulesError(Message("necromunda.recovery.only_down", name=fighter.name))
    die = source.roll_die(6, Message("necromunda.purpose.recovery_roll", name=fighter.name))
    result = recovery_table()[die.value]
    name = fighter.name
    title = Message("necromunda.step.recovery_roll")
    if result == "down":
        step = Step(title, Message("necromunda.recovery.stays_down"), rolls=(die,))
        return WoundOutcome((step,), (), state)
    if result == "out of action":
        step = Step(title, injury_term(result), rolls=(die,))
        after = state.with_changes(down=False, out_of_action=True)
        return WoundOutcome((step,), (_out_effect(name, "recovery_roll"),), after)
    flesh = state.flesh(fighter) + 1
    if bled_out(fighter, flesh):
        step = Step(title, Message("necromunda.recovery.bled_out"), rolls=(die,))
        effects: tuple[Effect, ...] = (
            _flesh_effect(name, flesh),
            _out_effect(name, "loss_of_blood"),
        )
        after = state.with_changes(down=False, out_of_action=True, flesh_wounds=flesh)
        return WoundOutcome((step,), effects, after)
    step = Step(
        title,
        Message("necromunda.recovery.recovers"),
        Message("necromunda.recovery.recovers_detail"),
        rolls=(die,),
    )
    effects = (
        _flesh_effect(name, flesh),
        Effect("remove_condition", name, condition="down"),
        Effect("pinned", name, rounds=1, note=Message("necromunda.effect.recovered_pinned")),
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
