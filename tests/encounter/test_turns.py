"""Rounds and turns: next and previous in initiative order, sides and phases for Necromunda and
WFB 6e, removed combatants skipped, hidden combatants kept hidden until revealed."""

from __future__ import annotations

import pytest

from gmkit.encounter import Encounter
from gmkit.messages import from_json
from gmkit.systems.turns import turn_structure


def initiative_fight(sheet, *, game: str = "dark_heresy") -> tuple[Encounter, list[str]]:
    """Three combatants with scores 30, 20, 10, started (round 1, the first one's turn)."""
    fight = Encounter(game)
    names = {
        "dark_heresy": ["Ilse Marr", "Sergeant Varro Tull", "Cultist Ban"],
        "deathwatch": ["Brother Castor", "Brother Ilarion", "Nob Gritfang"],
        "wfrp2": ["Elsa Wendt", "Gunther Brandauer", "Gor Bloodhorn"],
    }[game]
    ids = [fight.add(sheet(game, name)) for name in names]
    for ident, score in zip(ids, (30, 20, 10), strict=True):
        fight.set_initiative(ident, score)
    fight.start()
    return fight, ids


def position(fight: Encounter) -> tuple[int, str]:
    return fight.state.round, fight.state.current.id


@pytest.mark.parametrize("game", ["dark_heresy", "deathwatch", "wfrp2"])
def test_turns_follow_the_order_and_count_rounds(game, sheet):
    fight, (a, b, c) = initiative_fight(sheet, game=game)
    seen = [position(fight)]
    for _ in range(6):
        fight.next_turn()
        seen.append(position(fight))
    assert seen == [(1, a), (1, b), (1, c), (2, a), (2, b), (2, c), (3, a)]


def test_turns_are_refused_before_the_start(sheet, refused):
    fight = Encounter("dark_heresy")
    fight.add(sheet("dark_heresy", "Ilse Marr"))
    refused(fight, fight.next_turn, "has not started")
    refused(fight, fight.previous_turn, "has not started")


def test_previous_turn_steps_back_into_the_previous_round(sheet, refused):
    fight, (a, b, c) = initiative_fight(sheet)
    refused(fight, fight.previous_turn, "no turn before the first one of round 1")
    fight.next_turn()
    fight.next_turn()
    fight.next_turn()
    assert position(fight) == (2, a)
    fight.previous_turn()
    assert position(fight) == (1, c)
    assert fight.state.reminder_texts() == ()
    fight.previous_turn()
    assert position(fight) == (1, b)
    fight.next_turn()
    assert position(fight) == (1, c)


def test_previous_turn_skips_who_could_not_act(sheet, refused):
    fight = Encounter("dark_heresy")
    a, b, c = (
        fight.add(sheet("dark_heresy", name))
        for name in ("Ilse Marr", "Sergeant Varro Tull", "Cultist Ban")
    )
    for ident, score in ((a, 30), (b, 20), (c, 10)):
        fight.set_initiative(ident, score)
    fight.start(surprised=[a])
    assert position(fight) == (1, b)
    refused(fight, fight.previous_turn, "no turn before the first one of round 1")
    fight.next_turn()
    fight.remove(b)
    fight.next_turn()
    assert position(fight) == (2, a)
    fight.previous_turn()
    assert position(fight) == (1, c)
    fight.next_turn()
    fight.next_turn()
    assert position(fight) == (2, c)  # b is skipped
    fight.previous_turn()
    assert position(fight) == (2, a)


def test_removed_combatants_are_skipped_and_revived_ones_come_back(sheet, refused):
    fight, (a, b, c) = initiative_fight(sheet)
    fight.remove(b)
    fight.next_turn()
    assert position(fight) == (1, c)
    fight.revive(b)
    fight.next_turn()
    fight.next_turn()
    assert position(fight) == (2, b)
    refused(fight, lambda: fight.revive(b), "Sergeant Varro Tull is still in the fight")
    for ident in (a, b, c):
        fight.remove(ident)
    refused(fight, fight.next_turn, "no one in the initiative order can act")
    refused(fight, lambda: fight.remove(a), "Ilse Marr has been removed")


def test_renaming_mid_fight_keeps_the_place(sheet, refused):
    fight, (a, b, _) = initiative_fight(sheet)
    fight.rename(b, "Sergeant Tull (wounded)")
    fight.next_turn()
    assert fight.state.current.name == "Sergeant Tull (wounded)"
    assert fight.combatant("Sergeant Tull (wounded)").id == b
    error = refused(fight, lambda: fight.rename(a, "   "), "name")
    assert "at least 1 character" in str(error)


def test_a_hidden_combatant_stays_hidden_on_its_turn_until_the_gm_reveals_it(sheet):
    fight = Encounter("dark_heresy")
    ilse = fight.add(sheet("dark_heresy", "Ilse Marr"))
    ostrava = fight.add(sheet("dark_heresy", "Demagogue Ostrava"), hidden=True)
    fight.set_initiative(ilse, 12)
    fight.set_initiative(ostrava, 8)
    fight.start()
    assert fight.state.combatant(ostrava).hidden
    assert [c["name"] for c in fight.player_view()["combatants"]] == ["Ilse Marr"]
    fight.next_turn()
    assert fight.state.combatant(ostrava).hidden  # the players read "an enemy acts"
    assert fight.player_view()["current"] is None
    assert fight.player_view()["hidden_turn"] is True
    fight.reveal(ostrava)
    assert fight.player_view()["current"] == "Demagogue Ostrava"
    fight.undo()
    assert fight.state.combatant(ostrava).hidden


def test_a_hidden_combatant_first_in_order_stays_hidden_at_the_start(sheet):
    fight = Encounter("dark_heresy")
    ostrava = fight.add(sheet("dark_heresy", "Demagogue Ostrava"), hidden=True)
    fight.set_initiative(ostrava, 8)
    fight.start()
    assert fight.state.combatant(ostrava).hidden
    assert fight.player_view()["hidden_turn"] is True


def test_reveal_by_command(sheet, refused):
    fight = Encounter("wfrp2")
    snitch = fight.add(sheet("wfrp2", "Ungor Snitch"), hidden=True)
    assert fight.effective_events[-1]["visibility"] == "gm"
    fight.reveal(snitch)
    assert not fight.state.combatant(snitch).hidden
    assert fight.player_view()["combatants"][0]["name"] == "Ungor Snitch"
    refused(fight, lambda: fight.reveal("nobody"), "no one called 'nobody'")


# --- sides and phases --------------------------------------------------------------------


def sides_fight(game: str, demo_sheets) -> tuple[Encounter, list[str]]:
    fight = Encounter(game)
    ids = fight.add_many(demo_sheets[game])
    fight.start()
    return fight, ids


def where(fight: Encounter) -> tuple[int, str, str]:
    phases = turn_structure(fight.game).phases
    return fight.state.round, fight.state.current_side, phases[fight.state.phase]


def test_necromunda_sides_run_four_phases_each(demo_sheets):
    fight, _ = sides_fight("necromunda", demo_sheets)
    assert fight.state.sides == ("The Ashen Brethren", "The Sump Scavvies")
    assert fight.state.current is None
    seen = [where(fight)]
    for _ in range(8):
        fight.next_turn()
        seen.append(where(fight))
    brethren, scavvies = "The Ashen Brethren", "The Sump Scavvies"
    assert seen == [
        (1, brethren, "movement"),
        (1, brethren, "shooting"),
        (1, brethren, "close combat"),
        (1, brethren, "recovery"),
        (1, scavvies, "movement"),
        (1, scavvies, "shooting"),
        (1, scavvies, "close combat"),
        (1, scavvies, "recovery"),
        (2, brethren, "movement"),
    ]
    assert fight.player_view()["current_side"] == brethren


def test_wfb6_sides_run_movement_magic_shooting_close_combat(demo_sheets, refused):
    fight, _ = sides_fight("wfb6", demo_sheets)
    seen = [where(fight)]
    for _ in range(8):
        fight.next_turn()
        seen.append(where(fight))
    assert [phase for _, _, phase in seen[:5]] == [
        "movement",
        "magic",
        "shooting",
        "close combat",
        "movement",
    ]
    assert seen[4] == (1, "Night Goblins", "movement")
    assert seen[8] == (2, "Empire", "movement")
    # and back again, across the round
    fight.previous_turn()
    assert where(fight) == (1, "Night Goblins", "close combat")
    for _ in range(7):
        fight.previous_turn()
    assert where(fight) == (1, "Empire", "movement")
    refused(fight, fight.previous_turn, "no phase before the first one of round 1")


def test_a_side_that_joins_mid_fight_takes_the_last_turn(sheet):
    fight = Encounter("necromunda")
    fight.add(sheet("necromunda", "Mordecai"))
    fight.add(sheet("necromunda", "Rotgut"))
    fight.start()
    fight.add(sheet("necromunda", "Mange", side="Redemptionists"))
    assert fight.state.sides == ("The Ashen Brethren", "The Sump Scavvies", "Redemptionists")
    for _ in range(8):
        fight.next_turn()
    assert where(fight) == (1, "Redemptionists", "movement")
    for _ in range(4):
        fight.next_turn()
    assert where(fight) == (2, "The Ashen Brethren", "movement")


def test_sides_budget_per_side_turn(sheet, refused):
    fight = Encounter("necromunda")
    kael = fight.add(sheet("necromunda", "Brother Kael"))
    tom = fight.add(sheet("necromunda", "Scabby Tom"))
    refused(fight, lambda: fight.spend(kael, "move"), "has not started")
    fight.start()
    fight.spend(kael, "run")  # move and shoot
    fight.next_turn()
    assert fight.phase == "shooting"
    refused(
        fight,
        lambda: fight.spend(kael, "shoot"),
        "Brother Kael has 0 left this turn \\(shoot\\); the shoot action needs 1",
    )
    refused(
        fight,
        lambda: fight.spend(tom, "shoot"),
        "it is The Ashen Brethren's turn, not The Sump Scavvies'",
    )
    fight.spend(tom, "free")
    fight.spend(tom, "shoot", override="snap shot house rule")
    event = fight.effective_events[-1]
    assert event["override"] == "snap shot house rule"
    assert [str(from_json(problem)) for problem in event["problems"]] == [
        "it is The Ashen Brethren's turn, not The Sump Scavvies'"
    ]
    fight.next_turn()
    assert fight.phase == "close combat"
    refused(fight, lambda: fight.spend(kael, "fight"), "the seed gives no close combat rules")
    fight.spend(kael, "fight", override="fought by the book")
    assert fight.state.combatant(kael).spent == {"move": 1, "shoot": 1, "fight": 1}
    for _ in range(2):
        fight.next_turn()
    assert (fight.phase, fight.state.current_side) == ("movement", "The Sump Scavvies")
    assert fight.state.combatant(kael).spent == {}
    assert fight.state.combatant(tom).spent == {}  # a fresh budget for the Scavvies' turn
    fight.spend(tom, "charge")
    assert fight.state.combatant(tom).spent == {"move": 1, "shoot": 1}


def test_wfb6_phases_the_seed_does_not_cover_say_what_to_do_and_casting_costs_no_pool(
    sheet, refused
):
    fight = Encounter("wfb6")
    anselm = fight.add(sheet("wfb6", "Father Anselm"))
    fight.start()
    refused(fight, lambda: fight.spend(anselm, "march"), "the seed gives no movement rules")
    fight.spend(anselm, "march", override="marched on the table")
    refused(fight, lambda: fight.spend(anselm, "move"), "0 left this turn \\(move\\)")
    fight.next_turn()
    assert fight.phase == "magic"
    refused(fight, lambda: fight.spend(anselm, "cast"), "the seed gives no magic rules")
    fight.spend(anselm, "cast", override="by the book")
    fight.spend(anselm, "cast", override="by the book")
    assert fight.state.combatant(anselm).spent == {"move": 1, "shoot": 1}
    refused(fight, lambda: fight.spend(anselm, "shoot"), "belongs to the shooting phase")
    refused(fight, lambda: fight.spend(anselm, "parry"), "'parry' is not one of move, march")


def test_a_hidden_fighter_in_a_sides_game_is_revealed_when_it_acts(sheet):
    fight = Encounter("necromunda")
    fight.add(sheet("necromunda", "Mordecai"))
    tom = fight.add(sheet("necromunda", "Scabby Tom"), hidden=True)
    fight.start()
    for _ in range(5):
        fight.next_turn()
    assert fight.phase == "shooting"
    assert fight.state.combatant(tom).hidden  # the side's turn alone does not give it away
    fight.spend(tom, "free")
    assert fight.state.combatant(tom).hidden
    assert fight.effective_events[-1]["visibility"] == "gm"
    fight.spend(tom, "shoot")
    assert not fight.state.combatant(tom).hidden


def test_surprised_fighters_in_a_sides_game_lose_the_first_round(sheet, refused):
    fight = Encounter("necromunda")
    kael = fight.add(sheet("necromunda", "Brother Kael"))
    fight.add(sheet("necromunda", "Rotgut"))
    fight.start(surprised=["Brother Kael"])
    refused(fight, lambda: fight.spend(kael, "move"), "surprised and loses the first round")
    for _ in range(8):
        fight.next_turn()
    assert fight.state.round == 2
    fight.spend(kael, "move")
