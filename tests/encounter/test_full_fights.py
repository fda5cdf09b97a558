"""A scripted full fight for each of the five games, through the Encounter API only.

Each fight starts from its demo roster in a campaign file: initiative or sides, surprise where
the game has it, several attacks a round (seeded dice and typed ones), reactions, conditions
ticking, effects applied through the game's rules, someone out of the fight, an attack undone
to the exact state before it; along the way it asserts the rules' numbers (wounds left,
conditions, magnitudes, counters), and at the end that the campaign file replays to exactly
the live state.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from gmkit.dice import EnteredDice, SeededDice
from gmkit.encounter import Condition, Encounter
from gmkit.games import health
from gmkit.messages import from_json
from gmkit.store import CampaignStore
from gmkit.systems import necromunda, system
from gmkit.systems._imperial.hordes import break_check, break_test, horde_rules
from gmkit.systems._tables import table
from gmkit.systems.base import AttackResult
from gmkit.systems.wfb6 import Situation, UnitOnTable


def step(result: AttackResult, title: str) -> str:
    """The step ``title`` as the log reads it."""
    return str(next(s for s in result.steps if str(s.title) == title))


def titled(result: AttackResult) -> list[str]:
    return [str(s) for s in result.steps]


def wounds(fight: Encounter, ident: str) -> tuple[int, int]:
    combatant = fight.combatant(ident)
    return health(combatant.sheet, combatant.counters)


def replays_exactly(path: Path, fight: Encounter) -> None:
    with CampaignStore(path, readonly=True) as reader:
        opened = Encounter.open(reader, fight.name)
        assert opened.events == fight.events
        assert opened.effective_events == fight.effective_events
        assert opened.state == fight.state


# --- WFRP 2e: Beastmen on the Drakwald Road ---------------------------------------------------


def test_wfrp_beastmen_on_the_drakwald_road(tmp_path, demo_sheets, refused):
    path = tmp_path / "campaign.gmkit"
    rules = system("wfrp2")
    # the GM's critical table (the packaged rows as the GM's own: the packaged never apply)
    book = tmp_path / "criticals.yaml"
    book.write_text(yaml.safe_dump({**table("wfrp2", "criticals"), "placeholder": False}))
    criticals = {"critical_table": str(book)}
    with CampaignStore(path, create=True) as store:
        fight = Encounter.create(store, "drakwald", "wfrp2")
        fight.add_many(demo_sheets["wfrp2"])
        # Ag + 1d10, typed from the table's dice
        assert fight.roll_initiative(EnteredDice([5, 7, 2, 9, 8, 1])) == {
            "gunther-brandauer": 38,
            "elsa-wendt": 48,
            "brother-matthias": 32,
            "gor-bloodhorn": 39,
            "ungor-snitch": 43,
            "bray-shaman-vhorlag": 36,
        }
        fight.start(surprised=["Brother Matthias"])  # dozing in the coach
        assert fight.state.order == (
            "elsa-wendt",
            "ungor-snitch",
            "gor-bloodhorn",
            "gunther-brandauer",
            "bray-shaman-vhorlag",
            "brother-matthias",
        )

        # --- round 1 ---------------------------------------------------------------------
        elsa = fight.combatant("elsa-wendt").sheet
        fight.spend("elsa-wendt", "half", action="aim")
        fight.apply_effects(list(rules.perform_action("aim", elsa, EnteredDice([])).effects))
        assert fight.combatant("elsa-wendt").conditions == {
            "aiming": Condition("aiming", 2, "start_of_turn")  # for her next action
        }
        fight.spend("elsa-wendt", "half", action="standard_attack")
        shot = fight.attack("elsa-wendt", "Bow", "ungor-snitch", EnteredDice([53, 4]), distance=20)
        assert step(shot, "BS test").startswith("BS test: hit (BS 43 +10 = 53 [Aimed")
        assert step(shot, "Wounds") == "Wounds: 4 lost: 9 -> 5 (lightly wounded)"
        assert wounds(fight, "ungor-snitch") == (5, 9)
        assert fight.combatant("elsa-wendt").conditions == {}  # the shot spent the aim

        fight.next_turn()  # Ungor Snitch
        spear = fight.attack("ungor-snitch", "Spear", "brother-matthias", SeededDice(7))
        assert step(spear, "Reactions") == (
            "Reactions: parry not available (Target is surprised (loses the first round)); "
            "dodge not available (Target is surprised (loses the first round))"
        )
        assert step(spear, "WS test").startswith("WS test: miss (WS 30 +0 = 30")
        assert spear.rolls[0].value == 42

        fight.next_turn()  # Gor Bloodhorn: Gunther parries with his shield
        blow = fight.attack(
            "gor-bloodhorn",
            "Hand Weapon",
            "gunther-brandauer",
            EnteredDice([30, 20]),
            circumstances={"target_second_weapon": True},
            options={"reaction": "parry"},
        )
        assert step(blow, "Parry") == (
            "Parry: success: the attack is turned aside (WS 41 +10 = 51 [Shield (Defensive) "
            "+10]; rolled 20: success, 3 degrees of success)"
        )
        assert fight.combatant("gunther-brandauer").reactions == {"parry": 1}
        assert wounds(fight, "gunther-brandauer") == (13, 13)

        fight.next_turn()  # Gunther: an all out attack
        fight.spend("gunther-brandauer", "full", action="all_out_attack")
        smash = fight.attack(
            "gunther-brandauer",
            "Hand Weapon",
            "gor-bloodhorn",
            SeededDice(3),
            action="all_out_attack",
        )
        assert titled(smash)[2:] == [
            "WS test: hit (WS 41 +20 = 61 [All Out Attack +20]; rolled 31: success, "
            "3 degrees of success)",
            "Hit location: head (31 reversed: 13)",
            "Damage: 13 (1d10 (10) + Hand Weapon SB = 3)",
            "Ulric's Fury: not confirmed (WS 41 +20 = 61 [All Out Attack +20]; rolled 70: "
            "failure, 0 degrees of failure)",
            "Damage total: 13",
            "Soak: 4 (TB 4 + armour 0 at the head)",
            "Wounds: 9 lost: 11 -> 2 (seriously wounded)",
        ]
        assert wounds(fight, "gor-bloodhorn") == (2, 11)
        assert fight.combatant("gunther-brandauer").conditions == {
            "all_out_attack": Condition("all_out_attack", 1, "start_of_turn")
        }

        fight.next_turn()  # Vhorlag: Gunther can neither parry nor dodge after all out
        claw = fight.attack(
            "bray-shaman-vhorlag",
            "Hand Weapon",
            "gunther-brandauer",
            SeededDice(11),
            circumstances={"target_second_weapon": True},
            options={"reaction": "parry"},
        )
        assert step(claw, "Reactions") == (
            "Reactions: parry not available (Target made an all out attack); "
            "dodge not available (Target made an all out attack)"
        )
        assert step(claw, "WS test").startswith("WS test: miss (WS 35 +0 = 35")

        fight.next_turn()  # Matthias, surprised, loses round 1: round 2 begins with Elsa
        assert (fight.state.round, fight.state.current.id) == (2, "elsa-wendt")
        assert fight.state.reminder_texts() == ()
        assert fight.combatant("gunther-brandauer").reactions == {}  # a new round

        # --- round 2 ---------------------------------------------------------------------
        crit = fight.attack(
            "elsa-wendt", "Bow", "gor-bloodhorn", EnteredDice([21, 8, 40]), options=criticals
        )
        assert step(crit, "Wounds") == (
            "Wounds: 7 lost: 2 -> 0, a critical hit (5 below zero: critical value +5)"
        )
        gor = fight.combatant("gor-bloodhorn")
        assert (gor.sheet.wounds_current, gor.counters) == (0, {"critical": 5})
        assert gor.conditions == {"stunned": Condition("stunned", 2, "end_of_turn")}

        fight.next_turn()  # Ungor at Elsa, who dodges
        jab = fight.attack(
            "ungor-snitch", "Spear", "elsa-wendt", SeededDice(2), options={"reaction": "dodge"}
        )
        assert step(jab, "Dodge") == (
            "Dodge: success: the attack is turned aside (Ag 41 -10 = 31 [Spear (Fast) -10]; "
            "rolled 12: success, 1 degree of success)"
        )
        assert fight.combatant("elsa-wendt").reactions == {"dodge": 1}

        fight.next_turn()  # Gor, stunned, does nothing
        assert fight.state.current.id == "gor-bloodhorn"
        fight.next_turn()  # his stun ticks down; Gunther's all out attack ends as he begins
        assert fight.state.reminder_texts() == ("Gunther Brandauer: All Out Attack ends",)
        assert fight.combatant("gor-bloodhorn").conditions["stunned"].rounds == 1
        assert fight.combatant("gunther-brandauer").conditions == {}

        kill = fight.attack(
            "gunther-brandauer",
            "Hand Weapon",
            "gor-bloodhorn",
            EnteredDice([19, 10, 50, 3, 77]),
            options=criticals,
        )
        assert step(kill, "WS test") == (
            "WS test: hit (WS 41 +20 = 61 [Target is stunned +20]; rolled 19: success, "
            "4 degrees of success)"
        )
        assert step(kill, "Reactions") == (
            "Reactions: parry not available (Target is stunned); "
            "dodge not available (Target is stunned)"
        )
        assert step(kill, "Damage total") == "Damage total: 16"  # 10 + 3, and Ulric's Fury 3
        assert step(kill, "Critical hit").startswith(
            "Critical hit: critical value +10, d100 77: result 10"
        )
        gor = fight.combatant("gor-bloodhorn")
        assert set(gor.conditions) == {"stunned", "dead"}
        assert gor.counters == {"critical": 15}
        fight.remove("gor-bloodhorn")
        assert fight.combatant("gor-bloodhorn").removed

        fight.next_turn()  # Vhorlag at Elsa: she dodged this round already
        before = fight.state
        cut = fight.attack(
            "bray-shaman-vhorlag",
            "Hand Weapon",
            "elsa-wendt",
            SeededDice(1),
            options={"reaction": "dodge"},
        )
        assert step(cut, "Dodge") == "Dodge: not possible: Target has dodged this round"
        assert step(cut, "Wounds") == "Wounds: 9 lost: 11 -> 2 (seriously wounded)"
        assert wounds(fight, "elsa-wendt") == (2, 11)
        assert fight.undo() == before  # the GM takes it back: the table rolls instead
        assert wounds(fight, "elsa-wendt") == (11, 11)
        miss = fight.attack(
            "bray-shaman-vhorlag",
            "Hand Weapon",
            "elsa-wendt",
            EnteredDice([90]),
            options={"reaction": "dodge"},
        )
        assert (miss.hits, miss.effects) == (0, ())

        fight.next_turn()  # Matthias at last
        blow = fight.attack(
            "brother-matthias", "Hand Weapon", "ungor-snitch", SeededDice(8), options=criticals
        )
        assert step(blow, "Wounds") == (
            "Wounds: 6 lost: 5 -> 0, a critical hit (1 below zero: critical value +1)"
        )
        ungor = fight.combatant("ungor-snitch")
        assert (ungor.sheet.wounds_current, ungor.counters) == (0, {"critical": 1})
        assert ungor.conditions == {"stunned": Condition("stunned", 1, "end_of_turn")}

        fight.next_turn()  # two rounds fought
        assert (fight.state.round, fight.state.current.id) == (3, "elsa-wendt")
        assert {c.id: wounds(fight, c.id) for c in fight.state.present} == {
            "gunther-brandauer": (13, 13),
            "elsa-wendt": (11, 11),
            "brother-matthias": (9, 12),
            "ungor-snitch": (0, 9),
            "bray-shaman-vhorlag": (12, 12),
        }
        replays_exactly(path, fight)


# --- Necromunda: Ambush at the Sump Pipes -----------------------------------------------------


def test_necromunda_ambush_at_the_sump_pipes(tmp_path, demo_sheets, refused):
    path = tmp_path / "campaign.gmkit"
    with CampaignStore(path, create=True) as store:
        fight = Encounter.create(store, "sump pipes", "necromunda")
        scavvies = [s for s in demo_sheets["necromunda"] if s.side == "The Sump Scavvies"]
        brethren = [s for s in demo_sheets["necromunda"] if s.side == "The Ashen Brethren"]
        fight.add_many([*scavvies, *brethren])  # the ambushers' side plays first
        fight.start()
        assert fight.state.sides == ("The Sump Scavvies", "The Ashen Brethren")

        # --- round 1, the Scavvies spring the ambush ----------------------------------------
        fight.add_condition("scabby-tom", "hidden")  # movement: behind the pipes
        fight.next_turn()  # shooting
        fight.spend("grubnose-the-scavvy-boss", "shoot")
        slug = fight.attack(
            "grubnose-the-scavvy-boss",
            "shotgun (solid slug)",
            "mordecai",
            EnteredDice([5, 3, 1]),
            distance=10,
        )
        assert titled(slug)[1:] == [
            "To hit: hit (7 - BS 3 = 4; long range (shotgun (solid slug)) -1; 5 against 5+: "
            "success)",
            "Pinned: Mordecai is pinned (every hit pins)",
            "To wound: wounds (S 4 against T 3; 3 against 3+: success)",
            "Wounds: 1 wound: 0 of 1 left (1 injury roll)",
            "Injury roll: flesh wound (6 out of action)",
        ]
        mordecai = fight.combatant("mordecai")
        assert (mordecai.counters, set(mordecai.conditions)) == ({"damage": 1}, {"pinned"})
        assert (mordecai.sheet.flesh_wounds, mordecai.sheet.effective_bs) == (1, 2)
        assert wounds(fight, "mordecai") == (0, 1)

        stub = fight.attack("rotgut", "stub gun", "little-jeb", SeededDice(5), distance=6)
        assert str(stub.summary) == "Rotgut hits Little Jeb: no wound"
        assert set(fight.combatant("little-jeb").conditions) == {"pinned"}
        assert wounds(fight, "little-jeb") == (1, 1)
        for _ in range(3):
            fight.next_turn()  # close combat, recovery, then the Brethren's movement
        assert (fight.state.current_side, fight.state.phase) == ("The Ashen Brethren", 0)
        assert fight.combatant("grubnose-the-scavvy-boss").spent == {}  # a new turn

        # --- round 1, the Brethren answer ---------------------------------------------------
        fight.next_turn()  # shooting
        refused_shot = "Mordecai may not shoot Rotgut: pinned: a pinned fighter does not shoot"
        refused(
            fight,
            lambda: fight.attack("mordecai", "lasgun", "rotgut", EnteredDice([4]), distance=10),
            refused_shot,
        )
        too_far = "hidden, and beyond Brother Kael's spotting range of 4"
        refused(
            fight,
            lambda: fight.attack(
                "brother-kael", "bolt pistol", "scabby-tom", EnteredDice([2]), distance=6
            ),
            too_far,
        )
        spotted = fight.attack(
            "brother-kael", "bolt pistol", "scabby-tom", EnteredDice([2, 4, 3]), distance=4
        )
        assert titled(spotted)[0] == "Hidden: Scabby Tom is spotted (within the spotting range)"
        assert step(spotted, "Injury roll") == "Injury roll: down (6 out of action)"
        tom = fight.combatant("scabby-tom")
        assert (tom.counters, set(tom.conditions)) == ({"damage": 1}, {"pinned", "down"})

        stubber = fight.attack(
            "ezekiah-the-burner", "heavy stubber", "rotgut", EnteredDice([6, 3, 2]), distance=22
        )
        assert step(stubber, "Ammo roll") == (
            "Ammo roll: failed: heavy stubber is out of ammunition (3 against 4+: failure)"
        )
        assert fight.combatant("ezekiah-the-burner").conditions == {
            "jammed: heavy stubber": Condition("jammed: heavy stubber", None, "never")
        }
        assert set(fight.combatant("rotgut").conditions) == {"pinned"}
        refused(
            fight,
            lambda: fight.attack(
                "ezekiah-the-burner", "heavy stubber", "rotgut", EnteredDice([6]), distance=22
            ),
            "heavy stubber failed its ammo roll: not usable again this battle",
        )
        autogun = fight.attack(
            "silas-vane", "autogun", "grubnose-the-scavvy-boss", SeededDice(9), distance=10
        )
        assert str(autogun.summary) == "Silas Vane hits Grubnose the Scavvy Boss: down"
        assert set(fight.combatant("grubnose-the-scavvy-boss").conditions) == {"pinned", "down"}
        for _ in range(3):
            fight.next_turn()  # close combat, recovery, round 2: the Scavvies
        assert (fight.state.round, fight.state.current_side) == (2, "The Sump Scavvies")

        # --- round 2 -------------------------------------------------------------------------
        fight.next_turn()  # shooting: Rotgut gets back up, the GM rules
        fight.remove_condition("rotgut", "pinned")
        finish = fight.attack("rotgut", "stub gun", "mordecai", EnteredDice([5, 4, 6]), distance=6)
        assert step(finish, "Injury roll") == "Injury roll: out of action (6 out of action)"
        assert fight.combatant("mordecai").counters == {"damage": 1}  # no wound left to lose
        assert "out of action" in fight.combatant("mordecai").conditions
        refused(
            fight,
            lambda: fight.attack("rotgut", "stub gun", "mordecai", EnteredDice([5]), distance=6),
            "Mordecai is gone",
        )
        fight.remove("mordecai")

        fight.next_turn()
        fight.next_turn()  # recovery: each down Scavvy rolls on the recovery table
        for ident, die in (("scabby-tom", 1), ("grubnose-the-scavvy-boss", 6)):
            down = fight.combatant(ident)
            state = necromunda.state_from_encounter(down.sheet, down.conditions, down.counters)
            assert (state.down, state.wounds_left) == (True, 0)
            rolled = necromunda.recovery_roll(down.sheet, state, EnteredDice([die]))
            fight.apply_effects(list(rolled.effects), note=f"recovery roll {die}")
        tom = fight.combatant("scabby-tom")
        assert tom.sheet.flesh_wounds == 1  # recovered with a flesh wound...
        assert tom.conditions == {"pinned": Condition("pinned", 2, "start_of_turn")}  # ...pinned
        assert set(fight.combatant("grubnose-the-scavvy-boss").conditions) == {
            "pinned",
            "down",
            "out of action",
        }
        fight.remove("grubnose-the-scavvy-boss")

        fight.next_turn()  # the Brethren's turn
        fight.next_turn()  # shooting
        before = fight.state
        shot = fight.attack("brother-kael", "bolt pistol", "rotgut", SeededDice(1), distance=6)
        assert str(shot.summary) == "Brother Kael hits Rotgut: flesh wound"  # 2, 5, then a 1
        assert fight.combatant("rotgut").sheet.flesh_wounds == 1
        assert fight.undo() == before  # the GM takes the seeded shot back: rolled at the table
        assert fight.combatant("rotgut").sheet.flesh_wounds == 0
        again = fight.attack(
            "brother-kael", "bolt pistol", "rotgut", EnteredDice([2, 5, 3]), distance=6
        )
        assert step(again, "Injury roll") == "Injury roll: down (6 out of action)"
        assert set(fight.combatant("rotgut").conditions) == {"pinned", "down"}
        for _ in range(3):
            fight.next_turn()  # to round 3: Tom, pinned for this turn too
        assert (fight.state.round, fight.state.current_side) == (3, "The Sump Scavvies")
        assert fight.combatant("scabby-tom").conditions == {
            "pinned": Condition("pinned", 1, "start_of_turn")
        }
        fight.next_turn()  # shooting
        refused(
            fight,
            lambda: fight.attack(
                "scabby-tom", "autopistol", "brother-kael", EnteredDice([6]), distance=6
            ),
            "a pinned fighter does not shoot",
        )
        assert {c.id: wounds(fight, c.id) for c in fight.state.present} == {
            "scabby-tom": (0, 1),
            "rotgut": (0, 1),
            "mange": (1, 1),
            "brother-kael": (1, 1),
            "ezekiah-the-burner": (1, 1),
            "silas-vane": (1, 1),
            "little-jeb": (1, 1),
        }
        replays_exactly(path, fight)


# --- WFB 6e: Arrows over the Reikland Ford ----------------------------------------------------


def test_wfb_arrows_over_the_reikland_ford(tmp_path, demo_sheets, refused):
    path = tmp_path / "campaign.gmkit"
    models = {sheet.name: sheet for sheet in demo_sheets["wfb6"]}
    with CampaignStore(path, create=True) as store:
        fight = Encounter.create(store, "ford", "wfb6")
        # a unit is one combatant: its trooper's sheet under the unit's name, so the rules'
        # effects on its rank and file (named by the unit) find it; its counter is its dead
        fight.add(models["Night Goblin Archer"].edit(name="Skulkers"))
        fight.add(models["Grik the Boss"])
        fight.add(models["Captain Ottilie Hals"])
        fight.add(models["Swordsman"].edit(name="Reikland Swordsmen"))
        fight.add(models["Duellist Brandt"])
        fight.add(models["Father Anselm"])
        fight.start()
        assert fight.state.sides == ("Night Goblins", "Empire")

        def dead(ident: str) -> int:
            return fight.combatant(ident).counters.get("damage", 0)

        def swordsmen(**where) -> UnitOnTable:
            members = ("reikland-swordsmen", "duellist-brandt", "captain-ottilie-hals")
            sheets = [fight.combatant(ident).sheet for ident in members]
            return UnitOnTable.of(sheets, rank_and_file=15 - dead("reikland-swordsmen"), **where)

        def skulkers(**where) -> UnitOnTable:
            sheets = [fight.combatant(ident).sheet for ident in ("skulkers", "grik-the-boss")]
            return UnitOnTable.of(sheets, rank_and_file=19 - dead("skulkers"), **where)

        # --- round 1: the goblins loose ------------------------------------------------------
        fight.next_turn()
        fight.next_turn()  # movement, magic, shooting
        assert (fight.state.current_side, fight.state.phase) == ("Night Goblins", 2)
        near = Situation((swordsmen(distance_cm=10, shooter_distance_cm=30),), distance_cm=28)
        arrow = fight.attack(
            "skulkers",
            "short bow",
            "father-anselm",
            EnteredDice([6, 6, 1]),
            options={"situation": near},
        )
        assert titled(arrow) == [
            "Target Father Anselm: may be targeted (screened by Reikland Swordsmen but the "
            "closest legal target: Father Anselm at 28 cm, Reikland Swordsmen at 30 cm)",
            "To hit: 1 hit of 1 shot (BS 3 needs 6+ [Lone infantry character -1, Long range -1]: "
            "6 against 6+: success)",
            "To wound Father Anselm: 1 wound of 1 hit (S 3 against T 4 needs 5+: 6 against 5+: "
            "success)",
            "Armour save Father Anselm: 0 of 1 saved (5+ [no modifier]: a 1 always fails)",
        ]
        assert fight.combatant("father-anselm").counters == {"damage": 1}
        assert wounds(fight, "father-anselm") == (1, 2)

        far = Situation((swordsmen(distance_cm=10, shooter_distance_cm=30),), distance_cm=35)
        screened = fight.attack(
            "grik-the-boss",
            "short bow",
            "father-anselm",
            EnteredDice([]),
            options={"situation": far},
        )
        assert str(screened.summary).startswith("Father Anselm may not be targeted: screened by")
        assert [e.kind for e in screened.effects] == ["note"]
        assert fight.combatant("father-anselm").counters == {"damage": 1}

        at_unit = Situation((swordsmen(shooter_distance_cm=30),), distance_cm=30)
        volley = fight.attack(
            "grik-the-boss",
            "short bow",
            "reikland-swordsmen",
            SeededDice(17),
            options={"situation": at_unit},
        )
        assert str(volley.summary) == "1 hit; unsaved wounds: Reikland Swordsmen (rank and file) 1"
        assert [(e.kind, e.target, e.amount) for e in volley.effects] == [
            ("damage", "Reikland Swordsmen", 1)
        ]
        assert dead("reikland-swordsmen") == 1
        assert swordsmen().rank_and_file == 14

        captain = fight.attack(
            "skulkers",
            "short bow",
            "captain-ottilie-hals",
            EnteredDice([]),
            options={"situation": at_unit},
        )
        assert "is not larger than Reikland Swordsmen (2): shoot at the unit" in str(
            captain.summary
        )
        for _ in range(2):
            fight.next_turn()  # close combat, then the Empire's movement

        # --- round 1: the Empire ---------------------------------------------------------------
        fight.add_condition(
            "reikland-swordsmen", "in the ford", rounds=1, reminder="half move in the river"
        )
        fight.next_turn()
        fight.next_turn()  # magic, shooting
        target = Situation((skulkers(shooter_distance_cm=45),), distance_cm=45)
        moved = fight.attack(
            "captain-ottilie-hals",
            "handgun",
            "skulkers",
            EnteredDice([]),
            circumstances={"moved": True},
            options={"situation": target},
        )
        assert step(moved, "To hit") == "To hit: no shot (the handgun cannot fire after moving)"
        before = fight.state
        seeded = fight.attack(
            "captain-ottilie-hals",
            "handgun",
            "skulkers",
            SeededDice(5),
            options={"situation": target},
        )
        assert str(seeded.summary) == "1 hit; unsaved wounds: Skulkers (rank and file) 1"
        assert dead("skulkers") == 1
        assert fight.undo() == before  # the GM takes it back: she rolls at the table
        typed = fight.attack(
            "captain-ottilie-hals",
            "handgun",
            "skulkers",
            EnteredDice([3, 3]),
            options={"situation": target},
        )
        # BS 5: 2+, -1 long range: 3+; S 4 against T 3: 3+; goblins wear no armour
        assert [str(s) for s in typed.steps[1:]] == [
            "To hit: 1 hit of 1 shot (BS 5 needs 3+ [Long range -1]: 3 against 3+: success)",
            "Hits on Skulkers: 1 on the rank and file (20 rank-and-file models (champions "
            "count, characters do not): 5+ take every hit)",
            "To wound Skulkers (rank and file): 1 wound of 1 hit (S 4 against T 3 needs 3+: "
            "3 against 3+: success)",
        ]
        assert dead("skulkers") == 1
        assert skulkers().rank_and_file == 18
        fight.next_turn()
        fight.next_turn()  # close combat; the Empire's turn ends: round 2
        assert fight.state.reminder_texts() == (
            "Reikland Swordsmen: half move in the river",
            "Reikland Swordsmen: in the ford ends",
        )
        assert (fight.state.round, fight.state.current_side) == (2, "Night Goblins")

        # --- round 2: the goblins again -----------------------------------------------------
        fight.next_turn()
        fight.next_turn()
        near = Situation((swordsmen(distance_cm=10, shooter_distance_cm=30),), distance_cm=28)
        second = fight.attack(
            "skulkers", "short bow", "father-anselm", SeededDice(20), options={"situation": near}
        )
        assert str(second.summary) == "1 hit; unsaved wounds: Father Anselm 1"
        assert wounds(fight, "father-anselm") == (0, 2)
        fight.remove("father-anselm")  # the priest falls in the ford
        at_unit = Situation((swordsmen(shooter_distance_cm=30),), distance_cm=30)
        fight.attack(
            "grik-the-boss",
            "short bow",
            "reikland-swordsmen",
            EnteredDice([5, 4, 1]),
            options={"situation": at_unit},
        )
        assert dead("reikland-swordsmen") == 2
        assert swordsmen().rank_and_file == 13
        assert {c.id: wounds(fight, c.id) for c in fight.state.present} == {
            "skulkers": (0, 1),  # a unit's counter: its dead, 1 of 19 rank and file
            "grik-the-boss": (1, 1),
            "captain-ottilie-hals": (2, 2),
            "reikland-swordsmen": (0, 1),  # 2 of 15
            "duellist-brandt": (1, 1),
        }
        replays_exactly(path, fight)


# --- Dark Heresy: The Chapel of the Pale Throne -----------------------------------------------


def test_dark_heresy_the_chapel_of_the_pale_throne(tmp_path, demo_sheets, refused):
    path = tmp_path / "campaign.gmkit"
    rules = system("dark_heresy")
    with CampaignStore(path, create=True) as store:
        fight = Encounter.create(store, "chapel", "dark_heresy")
        fight.add_many(demo_sheets["dark_heresy"])
        # 1d10 + Agility Bonus, typed
        assert fight.roll_initiative(EnteredDice([7, 4, 2, 9, 3, 5, 1, 8])) == {
            "sergeant-varro-tull": 10,
            "ilse-marr": 8,
            "adept-cornelius-fenn": 5,
            "jessa-kell": 13,
            "demagogue-ostrava": 6,
            "cultist-ban": 8,
            "cultist-hesk": 4,
            "cultist-lorn": 10,
        }
        fight.start(surprised=["Cultist Ban", "Cultist Hesk", "Cultist Lorn"])  # mid-rite
        assert fight.state.order == (
            "jessa-kell",
            "sergeant-varro-tull",
            "cultist-lorn",
            "ilse-marr",
            "cultist-ban",
            "demagogue-ostrava",
            "adept-cornelius-fenn",
            "cultist-hesk",
        )

        # --- round 1 -------------------------------------------------------------------------
        blast = fight.attack(
            "jessa-kell", "Shotgun", "cultist-ban", EnteredDice([20, 9]), distance=10
        )
        assert step(blast, "Ballistic Skill test").startswith(
            "Ballistic Skill test: hit, 5 degrees of success (BS 39 +40 = 79 "
            "[Short range +10, Target unaware +30]"  # surprised: unaware
        )
        assert step(blast, "Soak (hit 1)") == (
            "Soak (hit 1): 10 damage taken (13 damage - AP 0 - TB 3 = 10)"
        )
        ban = fight.combatant("cultist-ban")
        assert (ban.sheet.damage, ban.sheet.critical_damage) == (8, 2)
        assert set(ban.conditions) == {"dead"}  # a minion dies of critical damage
        assert fight.combatant("jessa-kell").counters == {"ammo spent: Shotgun": 1}
        fight.remove("cultist-ban")

        fight.next_turn()  # Tull; Ostrava dodges
        dodged = fight.attack(
            "sergeant-varro-tull",
            "Lasgun",
            "demagogue-ostrava",
            EnteredDice([30, 7]),
            distance=20,
            options={"reaction": "dodge"},
        )
        assert step(dodged, "Dodge") == (
            "Dodge: the attack is negated (Ag 32 +0 = 32 [no modifiers]; rolled 7: success, "
            "2 degrees of success)"
        )
        assert fight.combatant("demagogue-ostrava").reactions == {"reaction": 1}
        refused(
            fight,
            lambda: fight.react("demagogue-ostrava", "parry"),
            "Demagogue Ostrava has no reaction left this round",
        )

        fight.next_turn()  # Lorn is surprised: Ilse
        assert fight.state.current.id == "ilse-marr"
        las = fight.attack(
            "ilse-marr", "Laspistol", "demagogue-ostrava", SeededDice(1), distance=10
        )
        assert step(las, "Soak (hit 1)") == (
            "Soak (hit 1): 6 damage taken (12 damage - AP 3 - TB 3 = 6)"
        )
        assert wounds(fight, "demagogue-ostrava") == (6, 12)

        fight.next_turn()  # Ban is out: Ostrava
        burst = fight.attack(
            "demagogue-ostrava",
            "Autopistol",
            "ilse-marr",
            SeededDice(3),
            distance=10,
            options={"reaction": "dodge"},
        )
        assert step(burst, "Dodge").startswith("Dodge: failed: the attack lands (Ag 44")
        assert wounds(fight, "ilse-marr") == (2, 10)

        fight.next_turn()  # Fenn
        fight.attack(
            "adept-cornelius-fenn", "Stub Revolver", "cultist-hesk", SeededDice(2), distance=15
        )
        assert wounds(fight, "cultist-hesk") == (6, 8)
        fight.next_turn()  # Hesk is surprised: round 2
        assert (fight.state.round, fight.state.current.id) == (2, "jessa-kell")

        # --- round 2 -------------------------------------------------------------------------
        auto = fight.attack(
            "jessa-kell",
            "Autopistol",
            "cultist-hesk",
            SeededDice(1),
            distance=15,
            mode="full",
            action="full_auto_burst",
        )
        assert (
            str(auto.summary) == "Jessa Kell hits Cultist Hesk 5 times with Autopistol: 22 damage"
        )
        hesk = fight.combatant("cultist-hesk")
        assert (hesk.sheet.damage, hesk.sheet.critical_damage, set(hesk.conditions)) == (
            8,
            10,
            {"dead"},
        )
        assert fight.combatant("jessa-kell").counters == {
            "ammo spent: Shotgun": 1,
            "ammo spent: Autopistol": 6,
        }
        fight.remove("cultist-hesk")

        fight.next_turn()  # Tull's Lasgun jams
        jam = fight.attack(
            "sergeant-varro-tull",
            "Lasgun",
            "cultist-lorn",
            EnteredDice([100]),
            distance=15,
            mode="semi",
            action="semi_auto_burst",
        )
        assert step(jam, "Ballistic Skill test").startswith(
            "Ballistic Skill test: jammed: the attack fails"
        )
        tull = fight.combatant("sergeant-varro-tull")
        assert tull.conditions == {"jammed: Lasgun": Condition("jammed: Lasgun", None, "never")}
        assert tull.counters == {"ammo spent: Lasgun": 1}  # a jammed burst spends nothing
        refused(
            fight,
            lambda: fight.attack(
                "sergeant-varro-tull", "Lasgun", "cultist-lorn", EnteredDice([30]), distance=15
            ),
            "Lasgun is jammed: clear it first",
        )

        fight.next_turn()  # Lorn, no longer surprised, knifes Tull, who dodges
        knife = fight.attack(
            "cultist-lorn",
            "Knife",
            "sergeant-varro-tull",
            SeededDice(2),
            mode="melee",
            options={"reaction": "dodge"},
        )
        assert step(knife, "Dodge").startswith("Dodge: the attack is negated (Ag 33")
        assert wounds(fight, "sergeant-varro-tull") == (13, 13)

        fight.next_turn()  # Ilse's all out attack
        cut = fight.attack(
            "ilse-marr",
            "Sword",
            "cultist-lorn",
            SeededDice(3),
            mode="melee",
            action="all_out_attack",
        )
        assert step(cut, "Weapon Skill test").startswith(
            "Weapon Skill test: hit, 3 degrees of success (WS 41 +20 = 61 [All Out Attack +20]"
        )
        assert set(fight.combatant("cultist-lorn").conditions) == {"dead"}
        fight.remove("cultist-lorn")
        # the all out attack leaves its state on her (an effect of the attack), until her turn
        assert [(e.kind, e.target, e.condition, e.rounds) for e in cut.effects][-1] == (
            "condition",
            "Ilse Marr",
            "all_out_attack",
            1,
        )
        assert fight.combatant("ilse-marr").conditions == {
            "all_out_attack": Condition("all_out_attack", 1, "start_of_turn")
        }

        fight.next_turn()  # Ostrava: Ilse can neither dodge nor parry
        before = fight.state
        fury = fight.attack(
            "demagogue-ostrava",
            "Chainsword",
            "ilse-marr",
            SeededDice(1),
            mode="melee",
            options={"reaction": "dodge"},
        )
        assert "Reactions: this attack cannot be dodged" in " ".join(titled(fury))
        assert step(fury, "Soak (hit 1)").startswith("Soak (hit 1): 25 damage taken")
        # 25 against 2 wounds left: 23 critical damage, the tables' 10 at most: dead
        ilse = fight.combatant("ilse-marr")
        assert (ilse.sheet.damage, ilse.sheet.critical_damage) == (10, 10)
        assert set(ilse.conditions) == {"all_out_attack", "dead"}
        follow_ups = fight.effective_events[-1]["follow_ups"]
        assert [str(from_json(e["note"])) for e in follow_ups] == ["past 10 critical damage"]
        assert fight.undo() == before  # the GM takes the seeded roll back
        chain = fight.attack(
            "demagogue-ostrava",
            "Chainsword",
            "ilse-marr",
            SeededDice(2),
            mode="melee",
            options={"reaction": "dodge"},
        )
        assert step(chain, "Soak (hit 1)") == (
            "Soak (hit 1): 4 damage taken (7 damage - AP 0 (Pen 2: 0) - TB 3 = 4)"
        )
        ilse = fight.combatant("ilse-marr")
        assert (ilse.sheet.damage, ilse.sheet.critical_damage) == (10, 2)
        assert wounds(fight, "ilse-marr") == (0, 10)

        fight.next_turn()  # Fenn shoots the demagogue
        fenn = fight.attack(
            "adept-cornelius-fenn",
            "Stub Revolver",
            "demagogue-ostrava",
            SeededDice(3),
            distance=10,
            options={"reaction": "dodge"},
        )
        assert str(fenn.summary) == (
            "Adept Cornelius Fenn hits Demagogue Ostrava once with Stub Revolver: 6 damage"
        )
        assert wounds(fight, "demagogue-ostrava") == (0, 12)

        fight.next_turn()  # round 3
        fight.next_turn()  # Jessa passes; Tull clears his jam (a full action)
        assert fight.state.current.id == "sergeant-varro-tull"
        fight.spend("sergeant-varro-tull", "full", action="clear_jam")
        tull = fight.combatant("sergeant-varro-tull")
        cleared = rules.clear_jam(tull.sheet, "Lasgun", EnteredDice([30]))
        fight.apply_effects(list(cleared.effects), note="clear jam")
        tull = fight.combatant("sergeant-varro-tull")
        assert [(e.kind, e.condition, e.amount) for e in cleared.effects] == [
            ("remove_condition", "jammed", 0),
            ("ammo", None, 60),  # 001: clearing a las weapon's jam costs its clip
        ]
        assert tull.conditions == {}
        assert tull.counters == {"ammo spent: Lasgun": 61}
        assert fight.combatant("ilse-marr").conditions == {
            "all_out_attack": Condition("all_out_attack", 1, "start_of_turn")
        }  # until her turn begins
        assert {c.id: wounds(fight, c.id) for c in fight.state.present} == {
            "sergeant-varro-tull": (13, 13),
            "ilse-marr": (0, 10),
            "adept-cornelius-fenn": (9, 9),
            "jessa-kell": (11, 11),
            "demagogue-ostrava": (0, 12),
        }
        replays_exactly(path, fight)


# --- Deathwatch: The Breach at Vaxanide -------------------------------------------------------


def test_deathwatch_the_breach_at_vaxanide(tmp_path, demo_sheets, refused):
    path = tmp_path / "campaign.gmkit"
    with CampaignStore(path, create=True) as store:
        fight = Encounter.create(store, "breach", "deathwatch")
        fight.add_many(demo_sheets["deathwatch"])
        # 1d10 + Agility Bonus (Unnatural Agility counted), seeded
        assert fight.roll_initiative(SeededDice(12)) == {
            "brother-castor": 12,
            "brother-ilarion": 9,
            "brother-varek": 12,
            "ork-boyz-mob": 9,
            "nob-gritfang": 6,
        }
        fight.start()  # ties go to the higher Agility Bonus: no roll-off needed
        assert fight.state.order == (
            "brother-castor",
            "brother-varek",
            "brother-ilarion",
            "ork-boyz-mob",
            "nob-gritfang",
        )

        def magnitude() -> int:
            return fight.combatant("ork-boyz-mob").sheet.horde.magnitude

        def morale(lost: int, die: int) -> str:
            """The horde's morale at its turn (004), the Willpower die typed."""
            mob = fight.combatant("ork-boyz-mob").sheet
            check = break_check(30, mob.horde.magnitude, lost, horde_rules())
            _, said, effects = break_test(
                mob.name, mob.characteristics.WP, check, EnteredDice([die])
            )
            fight.apply_effects(list(effects), note="horde morale")
            return str(said)

        def volley() -> tuple[str, str]:
            """Castor's semi-auto burst and Varek's full-auto burst into the mob."""
            bolter = fight.attack(
                "brother-castor",
                "Astartes Bolter (Godwyn)",
                "ork-boyz-mob",
                SeededDice(2),
                distance=30,
                mode="semi",
                action="semi_auto_burst",
            )
            fight.next_turn()
            heavy = fight.attack(
                "brother-varek",
                "Astartes Heavy Bolter",
                "ork-boyz-mob",
                SeededDice(2),
                distance=30,
                mode="full",
                action="full_auto_burst",
            )
            fight.next_turn()
            return str(bolter.summary), str(heavy.summary)

        # --- round 1 -------------------------------------------------------------------------
        assert volley() == (
            "Brother Castor hits Ork Boyz mob 3 times with Astartes Bolter (Godwyn): magnitude -3",
            "Brother Varek hits Ork Boyz mob 5 times with Astartes Heavy Bolter: magnitude -5",
        )
        mob = fight.combatant("ork-boyz-mob")
        assert (mob.sheet.horde.magnitude, wounds(fight, "ork-boyz-mob")) == (22, (22, 30))
        assert fight.combatant("brother-varek").counters == {
            "ammo spent: Astartes Heavy Bolter": 10
        }
        chain = fight.attack(
            "brother-ilarion",
            "Astartes Chainsword",
            "nob-gritfang",
            SeededDice(1),
            mode="melee",
            options={"reaction": "parry"},
        )
        assert step(chain, "Parry").startswith(
            "Parry: failed: the attack lands (WS 45 -10 = 35 [Unbalanced (Ork Choppa) -10]"
        )
        assert step(chain, "Soak (hit 1)") == (
            "Soak (hit 1): 6 damage taken (16 damage - AP 0 (Pen 3: 0) - TB 10 = 6)"
        )
        assert wounds(fight, "nob-gritfang") == (19, 25)
        assert fight.combatant("nob-gritfang").reactions == {"reaction": 1}

        fight.next_turn()  # the mob lost 8 of 30 this turn: a Willpower test, typed
        assert morale(30 - magnitude(), 25) == (
            "Horde morale: holds (lost 8 of 30 this turn (>= 25%): Willpower test; WP 30 +0 = "
            "30 [no modifiers]; rolled 25: success, 0 degrees of success)"
        )
        choppa = fight.attack(
            "ork-boyz-mob",
            "Ork Choppa",
            "brother-ilarion",
            SeededDice(3),
            mode="melee",
            options={"reaction": "parry"},
        )
        assert step(choppa, "Soak (hit 1)") == (
            "Soak (hit 1): 2 damage taken (16 damage - AP 8 (Pen 2: 6) - TB 8 = 2)"
        )
        assert wounds(fight, "brother-ilarion") == (19, 21)
        assert fight.combatant("brother-ilarion").reactions == {"reaction": 1}

        fight.next_turn()  # the nob swings at Castor, who tries to dodge
        before = fight.state
        big = fight.attack(
            "nob-gritfang",
            "Ork Choppa",
            "brother-castor",
            SeededDice(3),
            mode="melee",
            options={"reaction": "dodge"},
        )
        assert str(big.summary) == "Nob Gritfang hits Brother Castor once with Ork Choppa: 8 damage"
        assert wounds(fight, "brother-castor") == (12, 20)
        assert fight.undo() == before  # taken back: the table rolls again
        small = fight.attack(
            "nob-gritfang",
            "Ork Choppa",
            "brother-castor",
            SeededDice(1),
            mode="melee",
            options={"reaction": "dodge"},
        )
        assert step(small, "Dodge").startswith("Dodge: failed: the attack lands (Ag 40")
        assert wounds(fight, "brother-castor") == (19, 20)
        fight.next_turn()
        assert (fight.state.round, fight.state.current.id) == (2, "brother-castor")
        assert fight.combatant("brother-ilarion").reactions == {}

        # --- round 2 -------------------------------------------------------------------------
        volley()
        assert magnitude() == 14
        stun = fight.attack(
            "brother-ilarion",
            "Astartes Chainsword",
            "nob-gritfang",
            SeededDice(1),
            mode="melee",
            action="stun",
        )
        assert step(stun, "Stun") == (
            "Stun: stunned for 6 rounds (1d10 10 + SB 8 = 18 against 1d10 2 + TB 10 + head AP 0"
            " = 12)"
        )
        nob = fight.combatant("nob-gritfang")
        assert nob.conditions == {"stunned": Condition("stunned", 6, "end_of_turn")}
        assert nob.sheet.fatigue == 1  # the stun's fatigue, on the sheet

        fight.next_turn()  # the mob lost 8 more, and is under half: it breaks
        assert morale(22 - magnitude(), 25) == (
            "Horde morale: broken (lost 8 of 30 this turn (>= 25%): Willpower test; under 50%: "
            "-10; WP 30 -10 = 20 [Under half magnitude -10]; rolled 25: failure, 0 degrees of "
            "failure)"
        )
        assert set(fight.combatant("ork-boyz-mob").conditions) == {"broken"}
        fight.remove("ork-boyz-mob")  # it flees through the breach

        fight.next_turn()  # the stunned nob can do nothing
        assert fight.state.current.id == "nob-gritfang"
        fight.next_turn()
        assert fight.combatant("nob-gritfang").conditions == {
            "stunned": Condition("stunned", 5, "end_of_turn")
        }
        assert (fight.state.round, fight.state.current.id) == (3, "brother-castor")

        # --- round 3 -------------------------------------------------------------------------
        fight.next_turn()  # Castor holds; Varek lays down suppressing fire on the nob
        suppress = fight.attack(
            "brother-varek",
            "Astartes Heavy Bolter",
            "nob-gritfang",
            SeededDice(1),
            distance=30,
            mode="suppressing",
            action="suppressing_fire",
        )
        assert step(suppress, "Ballistic Skill test").startswith(
            "Ballistic Skill test: hit, 0 degrees of success (BS 45 -20 = 25 [Suppressing Fire "
            "-20, Short range +10, Target stunned +20, Heavy weapon unbraced -30]"
        )
        assert step(suppress, "Pinning (Nob Gritfang)").startswith(
            "Pinning (Nob Gritfang): pinned (WP 40 -30 = 10 [Pinning test (Hard) -20, Fatigued -10]"
        )
        nob = fight.combatant("nob-gritfang")
        # 19 wounds left, 23 taken: 4 critical damage on the sheet; pinned and still stunned
        assert (nob.sheet.damage, nob.sheet.critical_damage) == (25, 4)
        assert nob.conditions == {
            "stunned": Condition("stunned", 5, "end_of_turn"),
            "pinned": Condition("pinned", None, "end_of_turn"),
        }
        assert {c.id: wounds(fight, c.id) for c in fight.state.present} == {
            "brother-castor": (19, 20),
            "brother-ilarion": (19, 21),
            "brother-varek": (20, 20),
            "nob-gritfang": (0, 25),
        }
        assert fight.combatant("brother-varek").counters == {
            "ammo spent: Astartes Heavy Bolter": 30
        }
        replays_exactly(path, fight)
