"""A scripted Necromunda fight through the Encounter API only, the turn's rules included: three
turns of each side, every phase (movement, shooting, close combat, recovery), typed dice.

Along the way: a runner refused its shot, a hidden fighter giving itself away by shooting, a
shot pinning a fighter that then does nothing through its next turn and stands up at its end,
escape rolls (one failed, one made, one dismissed), a fighter going down, crawling and rolling
to recover in its side's recovery phase (recovering pinned, and staying down), close combat
refused with what to do instead; at the end the campaign file replays to the live state.
"""

from __future__ import annotations

from pathlib import Path

from gmkit.dice import EnteredDice
from gmkit.encounter import Condition, Encounter
from gmkit.store import CampaignStore

BRETHREN, SCAVVIES = "The Ashen Brethren", "The Sump Scavvies"
CLOSE_COMBAT = "the seed gives no close combat rules for Necromunda"


def phase_is(fight: Encounter, round_: int, side: str, phase: str) -> None:
    assert (fight.state.round, fight.state.current_side, fight.phase) == (round_, side, phase)


def dues(fight: Encounter) -> list[tuple[str, str]]:
    return [(due.bearer, due.rule) for due in fight.due]


def due_of(fight: Encounter, bearer: str) -> int:
    return next(index for index, due in enumerate(fight.due) if due.bearer == bearer)


def conditions(fight: Encounter, ident: str) -> set[str]:
    return set(fight.combatant(ident).conditions)


def replays_exactly(path: Path, fight: Encounter) -> None:
    with CampaignStore(path, readonly=True) as reader:
        opened = Encounter.open(reader, fight.name)
        assert opened.effective_events == fight.effective_events
        assert opened.state == fight.state


def test_three_turns_a_side_through_every_phase(tmp_path, demo_sheets, refused):
    path = tmp_path / "campaign.gmkit"
    with CampaignStore(path, create=True) as store:
        fight = Encounter.create(store, "sump pipes turns", "necromunda")
        fight.add_many(demo_sheets["necromunda"])  # the Brethren first: they play first
        fight.start()
        assert fight.state.sides == (BRETHREN, SCAVVIES)

        # --- round 1, the Brethren ------------------------------------------------------------
        phase_is(fight, 1, BRETHREN, "movement")
        assert fight.due == ()
        ran = fight.act("mordecai", "run", inputs={"inches": 7, "difficult": 0.5})
        assert [str(step) for step in ran.steps] == [
            'Move: run: up to 8" (double M 4)',
            'Path: costs 8" of 8" (0.5" of difficult costs x2)',
        ]
        fight.act("silas-vane", "move", inputs={"inches": 3, "hide": True})  # behind the pipes
        assert conditions(fight, "silas-vane") == {"hidden"}
        fight.act("brother-kael", "move", inputs={"inches": 4})
        refused(
            fight,
            lambda: fight.act("brother-kael", "run", inputs={"inches": 2}),
            "Brother Kael has 0 left this turn \\(move\\)",
        )
        fight.next_turn()  # shooting

        phase_is(fight, 1, BRETHREN, "shooting")
        refused(
            fight,
            lambda: fight.attack(
                "mordecai", "lasgun", "rotgut", EnteredDice([4]), distance=10, spend=True
            ),
            "Mordecai is running this turn: no shooting",
        )
        refused(  # the rules say so too, without the budget
            fight,
            lambda: fight.attack("mordecai", "lasgun", "rotgut", EnteredDice([4]), distance=10),
            "Mordecai may not shoot Rotgut: moved: no shooting in a turn the fighter ran or "
            "charged",
        )
        pin = fight.attack(
            "brother-kael", "bolt pistol", "rotgut", EnteredDice([4, 1]), distance=6, spend=True
        )
        assert str(pin.summary) == "Brother Kael hits Rotgut: no wound"  # 2+, then a 1
        assert fight.combatant("rotgut").conditions == {
            "pinned": Condition("pinned", 1, "end_of_turn")  # through Rotgut's next turn
        }
        down = fight.attack(
            "ezekiah-the-burner",
            "heavy stubber",
            "grubnose-the-scavvy-boss",
            EnteredDice([5, 4, 3]),
            distance=22,
            spend=True,
        )
        assert str(down.summary) == "Ezekiah the Burner hits Grubnose the Scavvy Boss: down"
        assert conditions(fight, "grubnose-the-scavvy-boss") == {"pinned", "down"}
        fight.next_turn()  # close combat

        phase_is(fight, 1, BRETHREN, "close combat")
        refused(fight, lambda: fight.spend("brother-kael", "fight"), CLOSE_COMBAT)
        refused(fight, lambda: fight.spend("mange", "fight"), CLOSE_COMBAT)  # both sides fight
        fight.next_turn()  # recovery: no Brethren fighter is down
        phase_is(fight, 1, BRETHREN, "recovery")
        assert fight.due == ()
        fight.next_turn()

        # --- round 1, the Scavvies ------------------------------------------------------------
        phase_is(fight, 1, SCAVVIES, "movement")
        assert "run" in conditions(fight, "mordecai")  # seen by the enemy's turn (fast moving?)
        assert dues(fight) == [("rotgut", "pin_escape")]  # Grubnose is down: no escape roll
        assert fight.due[0].optional
        stays = fight.roll_due(0, EnteredDice([5]))  # I 3: a 5 fails
        assert str(stays.summary) == "Rotgut stays pinned"
        refused(
            fight,
            lambda: fight.act("rotgut", "move", inputs={"inches": 2}),
            "Rotgut is pinned: no move, no shot this turn",
        )
        refused(
            fight,
            lambda: fight.act("grubnose-the-scavvy-boss", "move", inputs={"inches": 2}),
            'Grubnose the Scavvy Boss is down: it may only crawl 2"',
        )
        crawl = fight.act("grubnose-the-scavvy-boss", "crawl", inputs={"inches": 2})
        assert str(crawl.summary) == 'Grubnose the Scavvy Boss crawls 2"'
        fight.act("scabby-tom", "move", inputs={"inches": 4})
        fight.next_turn()  # shooting

        refused(
            fight,
            lambda: fight.attack("rotgut", "stub gun", "mordecai", EnteredDice([5]), distance=6),
            "Rotgut may not shoot Mordecai: pinned: a pinned fighter does not shoot",
        )
        fight.attack(
            "scabby-tom", "autopistol", "mordecai", EnteredDice([3, 2]), distance=6, spend=True
        )  # 3+: a hit, then a 2 against 4+: no wound
        assert fight.combatant("mordecai").conditions["pinned"] == (
            Condition("pinned", 1, "end_of_turn")
        )
        fight.next_turn()  # close combat
        fight.next_turn()  # recovery: Grubnose rolls
        phase_is(fight, 1, SCAVVIES, "recovery")
        assert dues(fight) == [("grubnose-the-scavvy-boss", "recovery_roll")]
        assert "pinned" in conditions(fight, "rotgut")  # still its own turn
        recovered = fight.roll_due(0, EnteredDice([1]))
        assert str(recovered.summary) == (
            "Grubnose the Scavvy Boss's recovery roll: recovers with a flesh wound"
        )
        grubnose = fight.combatant("grubnose-the-scavvy-boss")
        assert grubnose.sheet.flesh_wounds == 1
        assert grubnose.conditions == {
            "pinned": Condition("pinned", 2, "start_of_turn"),  # through its next turn
            "crawl": Condition("crawl", 1, "start_of_turn"),
        }
        fight.next_turn()

        # --- round 2, the Brethren ------------------------------------------------------------
        phase_is(fight, 2, BRETHREN, "movement")
        assert "pinned" not in conditions(fight, "rotgut")  # stood up at the end of its turn
        assert "run" not in conditions(fight, "mordecai")  # over before its side's next turn
        assert dues(fight) == [("mordecai", "pin_escape")]
        escaped = fight.roll_due(0, EnteredDice([2]))  # I 3: a 2 escapes
        assert str(escaped.summary) == "Mordecai escapes the pin"
        fight.act("mordecai", "move", inputs={"inches": 4})  # acts normally
        fight.next_turn()  # shooting

        revealed = fight.attack(
            "silas-vane", "autogun", "scabby-tom", EnteredDice([2]), distance=10, spend=True
        )
        assert str(revealed.steps[0]) == "Hidden: Silas Vane shoots and is no longer hidden"
        assert str(revealed.summary) == "Silas Vane misses"
        assert "hidden" not in conditions(fight, "silas-vane")
        fight.next_turn()
        fight.next_turn()  # recovery
        phase_is(fight, 2, BRETHREN, "recovery")
        fight.next_turn()

        # --- round 2, the Scavvies ------------------------------------------------------------
        phase_is(fight, 2, SCAVVIES, "movement")
        assert dues(fight) == [("grubnose-the-scavvy-boss", "pin_escape")]
        fight.dismiss_due(0, 'no friend within 2"')
        assert fight.due == ()
        refused(
            fight,
            lambda: fight.act("grubnose-the-scavvy-boss", "hide"),
            "Grubnose the Scavvy Boss is pinned",  # pinned through this turn too
        )
        fight.act("rotgut", "move", inputs={"inches": 4})  # the pin is over: it moves
        fight.next_turn()  # shooting
        fight.attack(
            "rotgut", "stub gun", "little-jeb", EnteredDice([5, 1]), distance=6, spend=True
        )
        assert "pinned" in conditions(fight, "little-jeb")
        for _ in range(3):
            fight.next_turn()  # close combat, recovery, the Brethren's round 3

        # --- round 3, the Brethren ------------------------------------------------------------
        phase_is(fight, 3, BRETHREN, "movement")
        assert dues(fight) == [("little-jeb", "pin_escape")]
        fight.dismiss_due(due_of(fight, "little-jeb"))
        fight.next_turn()  # shooting
        tom_down = fight.attack(
            "brother-kael", "bolt pistol", "scabby-tom", EnteredDice([5, 4, 2]), distance=6
        )
        assert str(tom_down.summary) == "Brother Kael hits Scabby Tom: down"
        for _ in range(3):
            fight.next_turn()  # close combat, recovery, the Scavvies' round 3

        # --- round 3, the Scavvies ------------------------------------------------------------
        phase_is(fight, 3, SCAVVIES, "movement")
        assert "pinned" not in conditions(fight, "grubnose-the-scavvy-boss")  # over, no roll
        assert dues(fight) == []  # Tom is down (his pin does not ask for an escape roll)
        fight.act("scabby-tom", "crawl", inputs={"inches": 1.5})
        fight.act("grubnose-the-scavvy-boss", "move", inputs={"inches": 4})
        fight.next_turn()
        fight.next_turn()
        fight.next_turn()  # recovery
        assert dues(fight) == [("scabby-tom", "recovery_roll")]
        still = fight.roll_due(0, EnteredDice([3]))
        assert str(still.summary) == "Scabby Tom's recovery roll: stays down"
        assert conditions(fight, "scabby-tom") == {"pinned", "down", "crawl"}
        replays_exactly(path, fight)
