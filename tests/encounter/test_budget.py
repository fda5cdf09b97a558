"""The action budget: full, half and free actions per turn, reactions per round (one in Dark
Heresy and Deathwatch, one parry and one dodge in WFRP 2e), All Out Attack and Defensive
Stance, GM overrides, and Delay (a half action kept for later; opposed Agility on a clash)."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.messages import from_json


def three(sheet, game: str = "dark_heresy") -> tuple[Encounter, str, str, str]:
    """Ilse (30), Tull (20), Ban (10) in Dark Heresy; round 1, Ilse's turn."""
    fight = Encounter(game)
    names = {
        "dark_heresy": ("Ilse Marr", "Sergeant Varro Tull", "Cultist Ban"),
        "wfrp2": ("Elsa Wendt", "Gunther Brandauer", "Gor Bloodhorn"),
        "deathwatch": ("Brother Ilarion", "Brother Castor", "Nob Gritfang"),
    }[game]
    a, b, c = (fight.add(sheet(game, name)) for name in names)
    for ident, score in ((a, 30), (b, 20), (c, 10)):
        fight.set_initiative(ident, score)
    fight.start()
    return fight, a, b, c


def test_two_half_actions_or_one_full_per_turn(sheet, refused):
    fight, ilse, tull, _ = three(sheet)
    fight.spend(ilse, "half", action="move")
    refused(
        fight,
        lambda: fight.spend(ilse, "full"),
        "over budget: Ilse Marr has 1 left this turn \\(actions\\); the full action needs 2",
    )
    fight.spend(ilse, "half", action="standard attack")
    refused(
        fight,
        lambda: fight.spend(ilse, "half"),
        "over budget: Ilse Marr has 0 left this turn \\(actions\\); the half action needs 1",
    )
    for _ in range(5):
        fight.spend(ilse, "free", action="shout")
    assert fight.state.combatant(ilse).spent == {"actions": 2}
    fight.next_turn()
    fight.spend(tull, "full", action="all out attack")
    refused(
        fight,
        lambda: fight.spend(tull, "extended"),
        "Sergeant Varro Tull has 0 left this turn \\(actions\\)",
    )
    fight.next_turn()
    fight.next_turn()
    assert fight.state.combatant(ilse).spent == {}  # a fresh budget on her next turn


def test_spending_is_refused_out_of_turn_and_before_the_start(sheet, refused):
    fight = Encounter("dark_heresy")
    ilse = fight.add(sheet("dark_heresy", "Ilse Marr"))
    refused(fight, lambda: fight.spend(ilse, "half"), "spend: the encounter has not started")
    refused(fight, lambda: fight.react(ilse, "dodge"), "react: the encounter has not started")
    fight, ilse, tull, _ = three(sheet)
    refused(
        fight,
        lambda: fight.spend(tull, "half"),
        "over budget: it is Ilse Marr's turn, not Sergeant Varro Tull's",
    )
    fight.spend(tull, "free", action="speak")
    refused(fight, lambda: fight.spend(ilse, "sprint"), "'sprint' is not one of full, half, free")


def test_a_gm_override_is_recorded_with_what_it_overrode(sheet):
    fight, ilse, *_ = three(sheet)
    fight.spend(ilse, "full")
    fight.spend(ilse, "half", action="reload", override="Quick Draw talent")
    event = fight.effective_events[-1]
    assert event["override"] == "Quick Draw talent"
    assert [str(from_json(problem)) for problem in event["problems"]] == [
        "Ilse Marr has 0 left this turn (actions); the half action needs 1"
    ]
    assert fight.state.combatant(ilse).spent == {"actions": 3}
    fight.spend(ilse, "half", override="")
    assert fight.effective_events[-1]["override"] == "GM's call"


@pytest.mark.parametrize("game", ["dark_heresy", "deathwatch"])
def test_one_reaction_per_round_in_the_40k_games(game, sheet, refused):
    fight, _a, _b, c = three(sheet, game)
    fight.react(c, "dodge")
    name = fight.state.combatant(c).name
    refused(fight, lambda: fight.react(c, "parry"), f"{name} has no reaction left this round")
    refused(fight, lambda: fight.react(c, "dodge"), f"{name} has no reaction left this round")
    refused(fight, lambda: fight.react(c, "duck"), "'duck' is not one of dodge, parry")
    fight.react(c, "parry", override="Step Aside")
    assert fight.effective_events[-1]["override"] == "Step Aside"
    assert fight.state.combatant(c).reactions == {"reaction": 2}
    fight.next_turn()
    fight.next_turn()
    refused(fight, lambda: fight.react(c, "dodge"), "no reaction left this round")
    fight.next_turn()  # round 2: reactions are back
    assert fight.state.combatant(c).reactions == {}
    fight.react(c, "dodge")


def test_wfrp2_has_one_parry_and_one_dodge_per_round(sheet, refused):
    fight, elsa, _, gor = three(sheet, "wfrp2")
    fight.react(gor, "parry")
    fight.react(gor, "dodge")
    refused(fight, lambda: fight.react(gor, "parry"), "Gor Bloodhorn has no parry left this round")
    refused(fight, lambda: fight.react(gor, "dodge"), "Gor Bloodhorn has no dodge left this round")
    assert fight.state.combatant(gor).reactions == {"parry": 1, "dodge": 1}
    fight.react(elsa, "dodge")
    refused(fight, lambda: fight.react(elsa, "dodge"), "Elsa Wendt has no dodge left")
    fight.react(elsa, "parry")


def test_defensive_stance_gives_an_extra_reaction(sheet, refused):
    fight, _ilse, _, ban = three(sheet)
    fight.add_condition(ban, "defensive_stance", rounds=1, ticks="start_of_turn")
    fight.react(ban, "dodge")
    fight.react(ban, "parry")
    refused(fight, lambda: fight.react(ban, "dodge"), "Cultist Ban has no reaction left")


def test_all_out_attack_forbids_reactions_until_the_next_turn(sheet, refused):
    fight, ilse, _tull, _ = three(sheet, "wfrp2")
    fight.spend(ilse, "full", action="all out attack")
    fight.add_condition(ilse, "all_out_attack", rounds=1, ticks="start_of_turn")
    for reaction in ("parry", "dodge"):
        refused(
            fight,
            lambda r=reaction: fight.react(ilse, r),
            f"Elsa Wendt made an all out attack: no {reaction} until their turn",
        )
    fight.next_turn()
    fight.next_turn()
    refused(fight, lambda: fight.react(ilse, "dodge"), "all out attack")
    fight.next_turn()  # Elsa's turn begins: the condition ends
    assert "all_out_attack" not in fight.state.combatant(ilse).conditions
    assert "Elsa Wendt: All Out Attack ends" in fight.state.reminder_texts()
    fight.react(ilse, "dodge")


def test_sides_games_have_no_reactions(demo_sheets, refused):
    fight = Encounter("necromunda")
    ident = fight.add(demo_sheets["necromunda"][0])
    fight.start()
    refused(fight, lambda: fight.react(ident, "dodge"), "'dodge' is not one of none")


# --- delay -------------------------------------------------------------------------------


def test_delay_ends_the_turn_keeping_a_half_action(sheet, refused):
    fight, ilse, tull, _ban = three(sheet)
    refused(fight, lambda: fight.delay(tull), "delay: it is not Sergeant Varro Tull's turn")
    fight.spend(ilse, "half", action="move")

    fight.delay(ilse)

    assert fight.state.current.id == tull  # her turn ended
    assert fight.state.combatant(ilse).delayed
    assert fight.state.combatant(ilse).spent == {"actions": 2}  # Delay is a half action
    refused(
        fight,
        lambda: fight.spend(ilse, "full"),
        "Ilse Marr's delayed action is a half action, not a full action",
    )
    fight.spend(ilse, "half", action="standard attack")  # during Tull's turn
    event = fight.effective_events[-1]
    assert event["delayed_action"] is True
    assert not fight.state.combatant(ilse).delayed
    refused(fight, lambda: fight.spend(ilse, "half"), "it is Sergeant Varro Tull's turn")
    fight.undo()  # one command, one undo
    assert fight.state.combatant(ilse).delayed
    fight.undo()
    assert fight.state.current.id == ilse
    assert not fight.state.combatant(ilse).delayed
    assert fight.state.combatant(ilse).spent == {"actions": 1}


def test_delay_needs_a_half_action_left(sheet, refused):
    fight, ilse, *_ = three(sheet)
    fight.spend(ilse, "full")
    refused(fight, lambda: fight.delay(ilse), "delay: Ilse Marr has no half action left to delay")


def test_an_unused_delayed_action_is_lost_at_the_next_turn(sheet, refused):
    fight, ilse, _tull, _ban = three(sheet)
    fight.delay(ilse)
    fight.next_turn()
    fight.next_turn()
    assert fight.state.current.id == ilse
    assert fight.state.round == 2
    assert not fight.state.combatant(ilse).delayed
    assert fight.state.combatant(ilse).spent == {}
    fight.next_turn()
    refused(fight, lambda: fight.spend(ilse, "half"), "it is Sergeant Varro Tull's turn")


def test_delay_is_for_initiative_games(demo_sheets, refused):
    fight = Encounter("wfb6")
    ident = fight.add(demo_sheets["wfb6"][0])
    fight.start()
    refused(fight, lambda: fight.delay(ident), "delay: wfb6 plays by sides")


@pytest.mark.parametrize(
    ("rolls", "first", "why"),
    [
        ((10, 20), "Ilse Marr", "3 degrees of success beat 1"),
        ((50, 20), "Sergeant Varro Tull", "a success beats a failure"),
        ((40, 30), "Ilse Marr", "0 degrees each: the higher Agility"),
        ((90, 95), "Ilse Marr", "both fail: the higher Agility"),
    ],
)
def test_two_delayed_actions_at_once_go_by_opposed_agility(sheet, refused, rolls, first, why):
    fight, ilse, tull, ban = three(sheet)  # Ilse Ag 44, Tull Ag 33
    fight.delay(ilse)
    fight.delay(tull)
    assert fight.state.current.id == ban
    dice = EnteredDice(rolls)

    winner = fight.delayed_first(ilse, tull, dice)

    assert fight.state.combatant(winner).name == first, why
    event = fight.effective_events[-1]
    assert event["kind"] == "note"
    assert str(from_json(event["text"])) == f"{first} acts first (opposed Agility)"
    assert [{**roll, "purpose": str(from_json(roll["purpose"]))} for roll in event["rolls"]] == [
        {"sides": 100, "value": rolls[0], "purpose": "delayed action: Ilse Marr", "physical": True},
        {
            "sides": 100,
            "value": rolls[1],
            "purpose": "delayed action: Sergeant Varro Tull",
            "physical": True,
        },
    ]
    assert fight.log_frame().iloc[-1]["rolls"] == f"d100={rolls[0]}* d100={rolls[1]}*"
    # both still hold their half action: each spends it, in either order
    fight.spend(winner, "half")
    fight.spend(ilse if winner == tull else tull, "half")


def test_a_delay_clash_needs_two_delayed_combatants(sheet, refused):
    fight, ilse, tull, _ = three(sheet)
    fight.delay(ilse)
    dice = EnteredDice([10, 20])
    refused(
        fight,
        lambda: fight.delayed_first(ilse, tull, dice),
        "Sergeant Varro Tull has no delayed action waiting",
    )
    refused(fight, lambda: fight.delayed_first(ilse, ilse, dice), "cannot collide")
    assert dice.pending == (10, 20)
