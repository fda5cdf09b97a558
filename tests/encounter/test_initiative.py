"""Initiative for the d100 games: 1d10 + Agility Bonus (Dark Heresy, Deathwatch), Agility +
1d10 (WFRP 2e); ties to the higher base, then a roll-off from the dice source; group
initiative; physical dice; scores typed by the GM; late joiners; surprise."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice, SeededDice
from gmkit.encounter import Encounter
from gmkit.errors import DiceValueError
from gmkit.messages import from_json


def names(fight: Encounter) -> list[str]:
    return [fight.state.combatants[i].name for i in fight.state.order]


def in_english(rolls: list[dict]) -> list[dict]:
    """Stored rolls with each die's purpose (message JSON) in English."""
    return [{**roll, "purpose": str(from_json(roll["purpose"]))} for roll in rolls]


def test_dark_heresy_rolls_d10_plus_agility_bonus_with_physical_dice(sheet):
    fight = Encounter("dark_heresy")
    tull = fight.add(sheet("dark_heresy", "Sergeant Varro Tull"))  # Ag 33: AgB 3
    ilse = fight.add(sheet("dark_heresy", "Ilse Marr"))  # Ag 44: AgB 4
    assert fight.state.combatant(tull).initiative_base == 3
    assert fight.state.combatant(ilse).initiative_base == 4

    scores = fight.roll_initiative(EnteredDice([7, "0"]))  # a d10 typed 0 reads 10

    assert scores == {tull: 10, ilse: 14}
    event = fight.effective_events[-1]
    assert event["kind"] == "initiative"
    assert [(e["id"], e["base"], e["score"]) for e in event["entries"]] == [
        (tull, 3, 10),
        (ilse, 4, 14),
    ]
    assert in_english([e["roll"] for e in event["entries"]]) == [
        {"sides": 10, "value": 7, "purpose": "initiative: Sergeant Varro Tull", "physical": True},
        {"sides": 10, "value": 10, "purpose": "initiative: Ilse Marr", "physical": True},
    ]
    fight.start()
    assert names(fight) == ["Ilse Marr", "Sergeant Varro Tull"]
    assert fight.state.current.id == ilse


def test_deathwatch_uses_the_agility_bonus_too(sheet):
    fight = Encounter("deathwatch")
    castor = fight.add(sheet("deathwatch", "Brother Castor", Ag=47))  # AgB 4
    mob = fight.add(sheet("deathwatch", "Ork Boyz mob", Ag=30))  # AgB 3
    assert fight.roll_initiative(EnteredDice([2, 9])) == {castor: 6, mob: 12}


def test_wfrp2_rolls_agility_plus_d10(sheet):
    fight = Encounter("wfrp2")
    gunther = fight.add(sheet("wfrp2", "Gunther Brandauer", Ag=33))
    gor = fight.add(sheet("wfrp2", "Gor Bloodhorn", Ag=30))
    assert fight.roll_initiative(EnteredDice([5, 9])) == {gunther: 38, gor: 39}
    fight.start()
    assert names(fight) == ["Gor Bloodhorn", "Gunther Brandauer"]


def test_digital_dice_are_recorded_as_digital(sheet):
    fight = Encounter("dark_heresy")
    fight.add(sheet("dark_heresy", "Ilse Marr"))
    dice = SeededDice(11)
    (score,) = fight.roll_initiative(dice).values()
    (roll,) = dice.history
    assert score == roll.value + 4
    entry = fight.effective_events[-1]["entries"][0]
    assert entry["roll"]["physical"] is False
    assert fight.log_frame()["dice"].tolist() == ["", "digital"]


def test_a_tie_goes_to_the_higher_base_without_a_roll_off(sheet):
    fight = Encounter("dark_heresy")
    tull = fight.add(sheet("dark_heresy", "Sergeant Varro Tull"))  # AgB 3
    jessa = fight.add(sheet("dark_heresy", "Jessa Kell"))  # AgB 4
    assert fight.roll_initiative(EnteredDice([7, 6])) == {tull: 10, jessa: 10}
    fight.start()  # no dice needed: the bases differ
    assert fight.state.order == (jessa, tull)
    assert fight.effective_events[-1]["rolls"] == []


def test_wfrp2_tie_goes_to_the_higher_agility(sheet):
    fight = Encounter("wfrp2")
    gor = fight.add(sheet("wfrp2", "Gor Bloodhorn", Ag=30))
    ungor = fight.add(sheet("wfrp2", "Ungor Snitch", Ag=35))
    assert fight.roll_initiative(EnteredDice([10, 5])) == {gor: 40, ungor: 40}
    fight.start()
    assert fight.state.order == (ungor, gor)


def test_a_full_tie_needs_a_roll_off_from_the_dice_source(sheet, refused):
    fight = Encounter("dark_heresy")
    tull = fight.add(sheet("dark_heresy", "Sergeant Varro Tull"))  # AgB 3
    fenn = fight.add(sheet("dark_heresy", "Adept Cornelius Fenn"))  # AgB 3
    fight.roll_initiative(EnteredDice([5, 5]))
    refused(fight, fight.start, "Sergeant Varro Tull, Adept Cornelius Fenn are tied")

    fight.start(EnteredDice([4, 9]))

    assert fight.state.order == (fenn, tull)
    started = fight.effective_events[-1]
    assert started["order"] == [fenn, tull]
    assert in_english(started["rolls"]) == [
        {
            "sides": 10,
            "value": 4,
            "purpose": "initiative roll-off: Sergeant Varro Tull",
            "physical": True,
        },
        {
            "sides": 10,
            "value": 9,
            "purpose": "initiative roll-off: Adept Cornelius Fenn",
            "physical": True,
        },
    ]


def test_a_tied_roll_off_is_rolled_again(sheet):
    fight = Encounter("dark_heresy")
    tull = fight.add(sheet("dark_heresy", "Sergeant Varro Tull"))
    fenn = fight.add(sheet("dark_heresy", "Adept Cornelius Fenn"))
    ban = fight.add(sheet("dark_heresy", "Cultist Ban"))  # Ag 30: AgB 3
    fight.roll_initiative(EnteredDice([5, 5, 5]))
    # all three roll 6 first; then 2, 8, 8 (Fenn and Ban still tied); then 3, 1
    dice = EnteredDice([6, 6, 6, 2, 8, 8, 3, 1])
    fight.start(dice)
    assert fight.state.order == (fenn, ban, tull)
    assert dice.pending == ()
    assert [r["value"] for r in fight.effective_events[-1]["rolls"]] == [6, 6, 6, 2, 8, 8, 3, 1]


def test_the_roll_off_takes_its_dice_or_none_of_them(sheet, refused):
    fight = Encounter("dark_heresy")
    fight.add(sheet("dark_heresy", "Sergeant Varro Tull"))
    fight.add(sheet("dark_heresy", "Adept Cornelius Fenn"))
    fight.roll_initiative(EnteredDice([5, 5]))
    dice = EnteredDice([4])
    refused(fight, lambda: fight.start(dice), "roll a d10", error=DiceValueError)
    assert dice.pending == (4,)


def test_group_initiative_rolls_one_die_per_group(sheet):
    fight = Encounter("dark_heresy")
    tull = fight.add(sheet("dark_heresy", "Sergeant Varro Tull"))  # AgB 3
    ban = fight.add(sheet("dark_heresy", "Cultist Ban"), group="cult")  # AgB 3
    lorn = fight.add(sheet("dark_heresy", "Cultist Lorn"), group="cult")  # Ag 28: AgB 2
    ostrava = fight.add(sheet("dark_heresy", "Demagogue Ostrava"), group="cult")  # AgB 3
    dice = EnteredDice([6, 4, 1])

    scores = fight.roll_initiative(dice, by_group=True)

    assert scores == {tull: 9, ban: 7, lorn: 6, ostrava: 7}  # each adds its own base
    assert dice.pending == (1,)  # two dice: Tull's and the cult's
    assert [str(r.purpose) for r in dice.history] == [
        "initiative: Sergeant Varro Tull",
        "initiative: cult",
    ]
    rolls = [e["roll"]["value"] for e in fight.effective_events[-1]["entries"]]
    assert rolls == [6, 4, 4, 4]


def test_without_by_group_every_member_rolls(sheet):
    fight = Encounter("dark_heresy")
    fight.add_many([sheet("dark_heresy", "Cultist Ban"), sheet("dark_heresy", "Cultist Hesk")])
    dice = EnteredDice([2, 9])
    assert sorted(fight.roll_initiative(dice).values()) == [5, 12]
    assert dice.pending == ()


def test_missing_physical_dice_are_refused_consuming_nothing(sheet, refused):
    fight = Encounter("dark_heresy")
    fight.add_many([sheet("dark_heresy", "Sergeant Varro Tull"), sheet("dark_heresy", "Ilse Marr")])
    dice = EnteredDice([7])
    refused(
        fight,
        lambda: fight.roll_initiative(dice),
        "initiative: Ilse Marr: roll a d10",
        error=DiceValueError,
    )
    assert dice.pending == (7,)
    dice.enter(3)
    assert list(fight.roll_initiative(dice).values()) == [10, 7]


def test_set_initiative_types_a_score_and_records_no_roll(sheet):
    fight = Encounter("wfrp2")
    elsa = fight.add(sheet("wfrp2", "Elsa Wendt"))
    gor = fight.add(sheet("wfrp2", "Gor Bloodhorn"))
    fight.set_initiative(elsa, 45)
    fight.set_initiative("Gor Bloodhorn", 47)  # by name too
    assert fight.state.combatant(elsa).initiative == 45
    assert fight.effective_events[2]["entries"][0]["roll"] is None
    fight.start()
    assert fight.state.order == (gor, elsa)
    assert fight.log_frame()["dice"].tolist() == ["", "", "", "", ""]


def test_roll_the_rest_keeps_the_scores_the_players_called_out(sheet, refused):
    """Issue 21, item 4: rolling initiative overwrote the players' typed scores. ``rest``
    rolls only the combatants without one (the typed dice in their order: Ban, then Hesk);
    with everyone scored it is refused, changing nothing."""
    fight = Encounter("dark_heresy")
    tull = fight.add(sheet("dark_heresy", "Sergeant Varro Tull"))  # AgB 3
    ban = fight.add(sheet("dark_heresy", "Cultist Ban"))  # AgB 3
    ilse = fight.add(sheet("dark_heresy", "Ilse Marr"))  # AgB 4
    hesk = fight.add(sheet("dark_heresy", "Cultist Hesk"))
    fight.set_initiative(tull, 13)
    fight.set_initiative(ilse, 6)
    assert fight.roll_initiative(EnteredDice([2, 9]), rest=True) == {ban: 5, hesk: 12}
    scores = {c.id: c.initiative for c in fight.state.present}
    assert scores == {tull: 13, ban: 5, ilse: 6, hesk: 12}
    assert [e["id"] for e in fight.effective_events[-1]["entries"]] == [ban, hesk]
    refused(fight, lambda: fight.roll_initiative(EnteredDice([5]), rest=True), "everyone has")


def test_the_die_as_rolled_is_typed_and_the_base_added(sheet, refused):
    """The initiative box takes the d10 as rolled at the table: Dark Heresy adds the Agility
    Bonus (Ilse's 4: d10 7 is 11), WFRP the Agility (Elsa's 41: d10 0 reads 10, 51); the log
    keeps a physical die. A score is the total as typed; both or neither, or a die a d10
    cannot show, is refused naming the combatant."""
    fight = Encounter("dark_heresy")
    ilse = fight.add(sheet("dark_heresy", "Ilse Marr"))
    assert fight.set_initiative(ilse, die=7) == 11
    assert fight.state.combatant(ilse).initiative == 11
    entry = fight.effective_events[-1]["entries"][0]
    assert (entry["base"], entry["roll"]["value"], entry["roll"]["physical"]) == (4, 7, True)
    assert fight.log_frame()["dice"].tolist()[-1] == "physical"
    assert fight.set_initiative(ilse, 7) == 7  # a number alone is the total
    too_high = "initiative: Ilse Marr: 12 cannot come from a d10"
    refused(fight, lambda: fight.set_initiative(ilse, die=12), too_high, error=DiceValueError)
    refused(fight, lambda: fight.set_initiative(ilse, 7, die=7), "of Ilse Marr: give the score")
    refused(fight, lambda: fight.set_initiative(ilse), "of Ilse Marr: give the score")
    road = Encounter("wfrp2")
    elsa = road.add(sheet("wfrp2", "Elsa Wendt"))
    assert road.set_initiative(elsa, die="0") == 51


def test_start_is_refused_until_everyone_has_a_score(sheet, refused):
    fight = Encounter("dark_heresy")
    refused(fight, fight.start, "no one in the fight")
    fight.add(sheet("dark_heresy", "Ilse Marr"))
    fight.add(sheet("dark_heresy", "Cultist Ban"))
    fight.set_initiative("Ilse Marr", 9)
    refused(fight, fight.start, "not yet rolled for Cultist Ban")
    fight.set_initiative("Cultist Ban", 4)
    fight.start()
    refused(fight, fight.start, "has started already")


def test_sides_games_do_not_roll_initiative(sheet, refused):
    fight = Encounter("necromunda")
    fight.add(sheet("necromunda", "Mordecai"))
    refused(fight, lambda: fight.roll_initiative(SeededDice(1)), "necromunda plays by sides")
    refused(fight, lambda: fight.set_initiative("Mordecai", 5), "necromunda plays by sides")


def started_fight(sheet) -> tuple[Encounter, dict[str, str]]:
    """Ilse 14, Tull 10, Ban 5 (AgB 4, 3, 3), at Tull's turn in round 1."""
    fight = Encounter("dark_heresy")
    ids = {
        "ilse": fight.add(sheet("dark_heresy", "Ilse Marr")),
        "tull": fight.add(sheet("dark_heresy", "Sergeant Varro Tull")),
        "ban": fight.add(sheet("dark_heresy", "Cultist Ban")),
    }
    fight.roll_initiative(EnteredDice([10, 7, 2]))
    fight.start()
    fight.next_turn()
    assert fight.state.current.id == ids["tull"]
    return fight, ids


def test_a_late_joiner_rolls_and_takes_its_place_keeping_the_current_turn(sheet):
    fight, ids = started_fight(sheet)
    dice = EnteredDice([9])
    jessa = fight.add(sheet("dark_heresy", "Jessa Kell"), source=dice)  # 9 + AgB 4 = 13

    assert fight.state.combatant(jessa).initiative == 13
    assert fight.state.order == (ids["ilse"], jessa, ids["tull"], ids["ban"])
    assert fight.state.current.id == ids["tull"]  # still Tull's turn
    assert in_english(fight.effective_events[-1]["rolls"]) == [
        {"sides": 10, "value": 9, "purpose": "initiative: Jessa Kell", "physical": True}
    ]
    fight.next_turn()
    assert fight.state.current.id == ids["ban"]
    fight.next_turn()
    assert (fight.state.round, fight.state.current.id) == (2, ids["ilse"])
    fight.next_turn()
    assert fight.state.current.id == jessa  # Jessa first acts in round 2


def test_a_late_joiner_after_the_current_actor_acts_this_round(sheet):
    fight, ids = started_fight(sheet)
    hesk = fight.add(sheet("dark_heresy", "Cultist Hesk"), initiative=8)
    assert fight.state.order == (ids["ilse"], ids["tull"], hesk, ids["ban"])
    fight.next_turn()
    assert (fight.state.round, fight.state.current.id) == (1, hesk)


def test_a_late_joiner_tied_goes_by_base_then_after_those_placed(sheet):
    fight, ids = started_fight(sheet)
    jessa = fight.add(sheet("dark_heresy", "Jessa Kell"), initiative=10)  # AgB 4 beats Tull's 3
    hesk = fight.add(sheet("dark_heresy", "Cultist Hesk"), initiative=10)  # AgB 3: after Tull
    assert fight.state.order == (ids["ilse"], jessa, ids["tull"], hesk, ids["ban"])


def test_a_late_joiner_needs_a_score_or_dice(sheet, refused):
    fight, _ = started_fight(sheet)
    refused(
        fight,
        lambda: fight.add(sheet("dark_heresy", "Jessa Kell")),
        "late joiner needs a score or dice",
    )
    dice = EnteredDice([])
    refused(
        fight,
        lambda: fight.add(sheet("dark_heresy", "Jessa Kell"), source=dice),
        "initiative: Jessa Kell: roll a d10",
        error=DiceValueError,
    )


def test_a_score_set_mid_fight_moves_the_combatant(sheet):
    fight, ids = started_fight(sheet)
    fight.set_initiative(ids["ban"], 20)
    assert fight.state.order == (ids["ban"], ids["ilse"], ids["tull"])
    assert fight.state.current.id == ids["tull"]
    assert fight.state.combatant(ids["ban"]).initiative == 20


def test_one_removed_before_the_start_and_revived_rejoins_the_order(sheet):
    fight = Encounter("dark_heresy")
    ilse = fight.add(sheet("dark_heresy", "Ilse Marr"))
    ban = fight.add(sheet("dark_heresy", "Cultist Ban"))
    fight.roll_initiative(EnteredDice([1, 8]))  # Ilse 5, Ban 11
    fight.remove(ban)
    fight.start()
    assert fight.state.order == (ilse,)
    fight.revive(ban)
    assert fight.state.order == (ban, ilse)
    assert fight.state.current.id == ilse


@pytest.mark.parametrize("game", ["dark_heresy", "wfrp2"])
def test_surprised_combatants_lose_the_first_round(game, demo_sheets, refused):
    fight = Encounter(game)
    first, second, third = (fight.add(s) for s in demo_sheets[game][:3])
    for ident, score in ((first, 30), (second, 20), (third, 10)):
        fight.set_initiative(ident, score)

    fight.start(surprised=[first, demo_sheets[game][2].name])  # an id and a name

    assert fight.effective_events[-1]["surprised"] == [first, third]
    assert fight.state.current.id == second  # the first in order is surprised
    surprised = fight.state.combatant(first)
    refused(fight, lambda: fight.spend(first, "half"), "surprised and loses the first round")
    refused(fight, lambda: fight.react(first, "dodge"), "surprised and loses the first round")
    assert surprised.surprised
    fight.next_turn()  # third is surprised too: straight into round 2
    assert (fight.state.round, fight.state.current.id) == (2, first)
    fight.spend(first, "full")
    fight.next_turn()
    fight.next_turn()
    assert (fight.state.round, fight.state.current.id) == (2, third)
