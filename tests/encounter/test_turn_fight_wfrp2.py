"""A scripted WFRP 2e fight through the Encounter API with the table's dice (seed 002): the
initiative, Aim carried into the next attack and spent by it, a critical hit asking the GM for
its effect, a stunned attacker refused (action and attack), Defensive Stance's -20 and no extra
parry, a feint won."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gmkit.dice import EnteredDice
from gmkit.encounter import Condition, Encounter
from gmkit.errors import RulesError
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.sheets.base import Sheet
from gmkit.systems.base import AttackResult
from gmkit.systems.wfrp2 import CriticalPrompt, WFRP2AttackResult

SheetFactory = Callable[..., Sheet]
Refused = Callable[..., Exception]

NAMES = ("Gunther Brandauer", "Elsa Wendt", "Gor Bloodhorn", "Ungor Snitch")


def step(result: AttackResult, title: str) -> str:
    return next(str(s) for s in result.steps if str(s.title) == title)


def fighters(sheet: SheetFactory) -> Encounter:
    fight = Encounter("wfrp2")
    for name in NAMES:
        fight.add(sheet("wfrp2", name, **({"wounds_current": 3} if name == "Ungor Snitch" else {})))
    return fight


def test_a_wfrp_fight_by_the_rules_of_the_turn(sheet: SheetFactory, refused: Refused) -> None:
    fight = fighters(sheet)
    # Ag + 1d10: Gunther 33 + 9, Elsa 41 + 5, Gor 30 + 8, Ungor 35 + 1
    assert fight.roll_initiative(EnteredDice([9, 5, 8, 1])) == {
        "gunther-brandauer": 42,
        "elsa-wendt": 46,
        "gor-bloodhorn": 38,
        "ungor-snitch": 36,
    }
    fight.start()
    assert fight.state.order == ("elsa-wendt", "gunther-brandauer", "gor-bloodhorn", "ungor-snitch")

    # --- round 1: Elsa aims (a half action), then shoots with the +10 -----------------------
    aim = fight.act("elsa-wendt", "aim")
    assert str(aim.summary) == "Elsa Wendt: Aim"
    assert fight.combatant("elsa-wendt").conditions == {
        "aiming": Condition("aiming", 2, "start_of_turn")
    }
    assert fight.combatant("elsa-wendt").spent == {"actions": 1}
    shot = fight.attack("elsa-wendt", "Bow", "ungor-snitch", EnteredDice([53, 9]), spend=True)
    assert step(shot, "BS test") == (
        "BS test: hit (BS 43 +10 = 53 [Aimed (the last half action was Aim) +10]; rolled 53: "
        "success, 0 degrees of success)"
    )
    assert fight.combatant("elsa-wendt").conditions == {}  # the attack spent the aim
    assert fight.combatant("elsa-wendt").spent == {"actions": 2}
    # 9 + Bow 3 - TB 3 = 9 lost from 3: 6 below zero, and no critical table: the GM is asked
    assert step(shot, "Wounds") == (
        "Wounds: 9 lost: 3 -> 0, a critical hit (6 below zero: critical value +6)"
    )
    assert isinstance(shot, WFRP2AttackResult)
    assert shot.prompts == (CriticalPrompt("Ungor Snitch", 6, "right_arm", 9),)
    ungor = fight.combatant("ungor-snitch")
    assert isinstance(ungor.sheet, WFRP2Character)
    assert (ungor.sheet.wounds_current, ungor.counters, ungor.conditions) == (
        0,
        {"critical": 6},
        {},
    )
    fight.add_condition("ungor-snitch", "stunned", rounds=1)  # the GM's answer from the book
    owed = [(due.rule, due.bearer, due.dice) for due in fight.due]
    assert owed == [("critical", "ungor-snitch", ())]  # listed until the GM marks it decided
    assert "critical" in str(fight.due[0].text)

    # --- Gunther: Defensive Stance (a full action): no attack, not even a bonus one ------------
    fight.next_turn()
    assert ("critical", "ungor-snitch") in [(due.rule, due.bearer) for due in fight.due]
    fight.act("gunther-brandauer", "defensive_stance")
    assert fight.combatant("gunther-brandauer").spent == {"actions": 2}
    fight.next_turn()  # Gor
    bonus = fight.may_take("gunther-brandauer", "bonus_attack")
    assert not bonus.allowed
    assert "Gunther Brandauer is in a defensive stance: no attack this round (002)" in str(
        bonus.why
    )

    # --- Gor attacks him twice: -20 WS each time; he parries once, and only once ---------------
    shield = {"target_second_weapon": True}
    first = fight.attack(
        "gor-bloodhorn",
        "Hand Weapon",
        "gunther-brandauer",
        EnteredDice([15, 30]),
        spend=True,
        circumstances=shield,
        options={"reaction": "parry"},
    )
    assert step(first, "WS test") == (
        "WS test: hit (WS 40 -20 = 20 [Target in a defensive stance -20]; rolled 15: success, "
        "0 degrees of success)"
    )
    assert step(first, "Parry").startswith("Parry: success: the attack is turned aside")
    assert fight.combatant("gunther-brandauer").reactions == {"parry": 1}
    second = fight.attack(
        "gor-bloodhorn",
        "Hand Weapon",
        "gunther-brandauer",
        EnteredDice([12, 5]),
        spend=True,
        circumstances=shield,
        options={"reaction": "parry"},
    )
    assert step(second, "WS test").startswith("WS test: hit (WS 40 -20 = 20 [Target in a defens")
    assert step(second, "Reactions") == (
        "Reactions: parry not available (Target has parried this round); dodge available (Ag 33)"
    )
    assert step(second, "Parry") == "Parry: not possible: Target has parried this round"
    assert step(second, "Wounds") == "Wounds: 4 lost: 13 -> 9 (lightly wounded)"  # 5 + 4 - 5
    assert fight.combatant("gunther-brandauer").reactions == {"parry": 1}

    # --- Ungor, stunned: no action, no attack -------------------------------------------------
    fight.next_turn()
    current = fight.state.current
    assert current is not None
    assert current.id == "ungor-snitch"
    move = fight.may_do("ungor-snitch", "move")
    assert str(move.why) == (
        "Ungor Snitch is stunned: no action of any kind, not even a free one, and no parry or "
        "dodge (002)"
    )
    refused(fight, lambda: fight.act("ungor-snitch", "move"), "Ungor Snitch is stunned")
    refused(
        fight,
        lambda: fight.attack("ungor-snitch", "Spear", "elsa-wendt", EnteredDice([10, 5])),
        "Ungor Snitch is stunned: no action of any kind",  # the resolver gives the permit's reason
    )
    assert not fight.may_react("ungor-snitch", "dodge").allowed

    # --- round 2: Gunther's stance is over; his feint wins and Gor can neither parry nor dodge -
    fight.next_turn()
    current = fight.state.current
    assert current is not None
    assert (fight.state.round, current.id) == (2, "elsa-wendt")
    assert fight.state.reminder_texts() == ("Ungor Snitch: stunned ends",)
    fight.next_turn()
    assert fight.combatant("gunther-brandauer").conditions == {}
    feint = fight.act("gunther-brandauer", "feint", EnteredDice([20, 50]), target="gor-bloodhorn")
    assert [str(s) for s in feint.steps[1:]] == [
        "Feint: Gunther Brandauer: success (WS 41 +0 = 41 [no modifiers]; rolled 20: success, "
        "2 degrees of success)",
        "Feint: Gor Bloodhorn: failure (WS 40 +0 = 40 [no modifiers]; rolled 50: failure, "
        "1 degree of failure)",
        "Feint: Gunther Brandauer wins",
    ]
    assert str(feint.summary) == "Gunther Brandauer: Feint against Gor Bloodhorn, won"
    blow = fight.attack(
        "gunther-brandauer",
        "Hand Weapon",
        "gor-bloodhorn",
        EnteredDice([30, 4]),
        spend=True,
        circumstances=shield,
        options={"reaction": "parry"},
    )
    assert step(blow, "Reactions") == (
        "Reactions: parry not available (Feint won (the last half action)); "
        "dodge not available (Feint won (the last half action))"
    )
    assert step(blow, "Wounds") == "Wounds: 3 lost: 11 -> 8 (lightly wounded)"  # 4 + 3 - 4
    assert fight.combatant("gunther-brandauer").conditions == {}  # the feint is spent
    assert fight.combatant("gunther-brandauer").spent == {"actions": 2}


def test_a_reaction_through_the_encounter_ends_the_aim(sheet: SheetFactory) -> None:
    fight = fighters(sheet)
    fight.roll_initiative(EnteredDice([9, 5, 8, 1]))
    fight.start()
    fight.act("elsa-wendt", "aim")
    fight.react("elsa-wendt", "dodge")  # 002: a dodge is a free action, not a standard attack
    assert fight.combatant("elsa-wendt").conditions == {}
    assert fight.combatant("elsa-wendt").reactions == {"dodge": 1}


def test_defensive_stance_gives_no_second_parry_through_react(sheet: SheetFactory) -> None:
    fight = fighters(sheet)
    fight.roll_initiative(EnteredDice([9, 5, 8, 1]))
    fight.start()
    fight.next_turn()
    fight.act("gunther-brandauer", "defensive_stance")
    fight.react("gunther-brandauer", "parry")
    with pytest.raises(RulesError):
        fight.react("gunther-brandauer", "parry")


def test_a_stunned_combatant_may_take_no_action_in_its_own_turn(sheet: SheetFactory) -> None:
    fight = fighters(sheet)
    fight.roll_initiative(EnteredDice([9, 5, 8, 1]))
    fight.start()
    fight.add_condition("elsa-wendt", "stunned", rounds=1)
    assert not fight.may_do("elsa-wendt", "aim").allowed
    with pytest.raises(RulesError, match="Elsa Wendt is stunned"):
        fight.act("elsa-wendt", "aim")


def test_delay_keeps_a_half_action_and_a_feint_needs_its_target(
    sheet: SheetFactory, refused: Refused
) -> None:
    fight = fighters(sheet)
    fight.roll_initiative(EnteredDice([9, 5, 8, 1]))
    fight.start()
    refused(fight, lambda: fight.act("elsa-wendt", "feint", EnteredDice([20, 50])), "target")
    delayed = fight.act("elsa-wendt", "delay")
    assert delayed.delays
    current = fight.state.current
    assert current is not None
    assert current.id == "gunther-brandauer"  # her turn ended at once
    assert fight.combatant("elsa-wendt").delayed
    assert fight.combatant("elsa-wendt").conditions == {}  # the encounter keeps the half action
    fight.act("elsa-wendt", "aim")  # the kept half action, out of her turn
    assert not fight.combatant("elsa-wendt").delayed
    assert set(fight.combatant("elsa-wendt").conditions) == {"aiming"}
