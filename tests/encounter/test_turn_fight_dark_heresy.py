"""A scripted Dark Heresy fight through the Encounter API alone, with the table's typed dice:
the rules of the turn (gmkit.systems._imperial.acting) at work. Initiative; an Aim carried into
the next turn's burst; a stunned cultist refused; an acolyte pinned by suppressing fire, who
fails his Willpower test, takes his one half action and is refused a second, until a charge
brings melee, which ends pinning; a demagogue on fire rolled as due; Next passing over a dead
cultist."""

from __future__ import annotations

from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.messages import render


def step(result: object, title: str) -> str:
    return next(str(s) for s in result.steps if str(s.title) == title)  # type: ignore[attr-defined]


def dues(fight: Encounter) -> list[tuple[str, str]]:
    return [(due.bearer, due.rule) for due in fight.due]


def test_the_chapel_fight_by_the_rules_of_the_turn(demo_sheets, refused) -> None:
    fight = Encounter("dark_heresy")
    fight.add_many(demo_sheets["dark_heresy"])
    # 1d10 + Agility Bonus, typed; ties to the higher Agility Bonus
    assert fight.roll_initiative(EnteredDice([7, 4, 2, 9, 3, 5, 1, 8]))["jessa-kell"] == 13
    fight.start()
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
    assert fight.due == ()

    # --- round 1 -----------------------------------------------------------------------------
    aim = fight.act("jessa-kell", "aim", as_type="full")  # a Full Action: +20
    assert str(aim.steps[0]).startswith("Aim: +20 to the next attack")
    assert fight.combatant("jessa-kell").spent == {"actions": 2}
    fight.next_turn()  # Tull
    fight.next_turn()  # Lorn
    fight.next_turn()  # Ilse
    fight.add_condition("cultist-ban", "stunned", rounds=1)  # the GM's critical effect
    fight.next_turn()  # Ban, stunned: nothing at all
    assert fight.state.current.id == "cultist-ban"
    for kind in ("half", "full", "free"):
        refused(fight, lambda kind=kind: fight.spend("cultist-ban", kind), "Cultist Ban is stunned")
    refused(fight, lambda: fight.act("cultist-ban", "ready"), "stunned: no actions")
    refused(
        fight,
        lambda: fight.attack(
            "cultist-ban", "Knife", "ilse-marr", EnteredDice([5]), mode="melee", spend=True
        ),
        "stunned: no actions",
    )
    assert "Cultist Ban está aturdido: sin acciones" in render(
        fight.may("cultist-ban", "half").why, "es"
    )
    fight.next_turn()  # Ostrava, whose robes catch from a brazier (the GM's call)
    fight.add_condition("demagogue-ostrava", "on_fire")
    fight.next_turn()  # Fenn
    fight.next_turn()  # Hesk's suppressing fire on Tull: he fails the pinning test
    suppress = fight.attack(
        "cultist-hesk",
        "Autogun",
        "sergeant-varro-tull",
        EnteredDice([50, 60]),
        mode="suppressing",
        action="suppressing_fire",
        distance=20,
        spend=True,
    )
    assert step(suppress, "Pinning (Sergeant Varro Tull)").startswith(
        "Pinning (Sergeant Varro Tull): pinned (WP 30 -20 = 10"
    )
    assert set(fight.combatant("sergeant-varro-tull").conditions) == {"pinned"}

    # --- round 2: the round's end burns the demagogue -----------------------------------------
    fight.next_turn()
    assert (fight.state.round, fight.state.current.id) == (2, "jessa-kell")
    assert dues(fight) == [("demagogue-ostrava", "on_fire.end_of_round")]
    burnt = fight.roll_due(0, EnteredDice([6]))
    assert str(burnt.steps[0]) == (
        "On fire: 3 Energy damage (6 rolled - AP 0 - TB 3 = 3; 1 level of fatigue)"
    )
    ostrava = fight.combatant("demagogue-ostrava").sheet
    assert (ostrava.damage, ostrava.fatigue) == (3, 1)  # type: ignore[attr-defined]
    assert fight.due == ()

    # Jessa's aimed burst: the Aim's +20 in the test, and the aim is spent
    assert "aimed: full" in fight.combatant("jessa-kell").conditions
    burst = fight.attack(
        "jessa-kell",
        "Autopistol",
        "cultist-hesk",
        EnteredDice([20, 5, 5, 5, 5, 5, 5]),
        distance=10,
        mode="full",
        action="full_auto_burst",
        spend=True,
    )
    assert step(burst, "Ballistic Skill test") == (
        "Ballistic Skill test: hit, 6 degrees of success: 6 hits (BS 39 +50 = 89 "
        "[Full Auto Burst +20, Aim (full) +20, Short range +10]; rolled 20: success, "
        "6 degrees of success)"
    )
    assert str(burst.summary) == "Jessa Kell hits Cultist Hesk 6 times with Autopistol: 24 damage"
    assert fight.combatant("jessa-kell").conditions == {}
    assert set(fight.combatant("cultist-hesk").conditions) == {"dead"}

    # Tull, still pinned: the Willpower test at the start of his turn (001)
    fight.next_turn()
    assert fight.state.current.id == "sergeant-varro-tull"
    assert dues(fight) == [
        ("sergeant-varro-tull", "pinned.start_of_turn"),
        ("sergeant-varro-tull", "pinned.start_of_turn.bonus"),  # +30 if no longer shot at
    ]
    failed = fight.roll_due(0, EnteredDice([80]))  # shot at last round: +0
    assert str(failed.steps[0]).startswith("Pinned: failed (WP 30 +0 = 30")
    fight.dismiss_due(0)
    assert fight.due == ()
    fight.act("sergeant-varro-tull", "move", as_type="half")  # towards the pews
    refused(
        fight,
        lambda: fight.act("sergeant-varro-tull", "ready"),
        "Sergeant Varro Tull is pinned: one half action a turn",
    )
    refused(
        fight,
        lambda: fight.attack(
            "sergeant-varro-tull",
            "Lasgun",
            "cultist-lorn",
            EnteredDice([30, 5]),
            distance=10,
            spend=True,
        ),
        "pinned: one half action a turn",
    )
    assert fight.combatant("sergeant-varro-tull").spent == {"actions": 1}

    # Lorn charges him: melee ends the pinning (001: entering melee), hit or miss
    fight.next_turn()
    charge = fight.attack(
        "cultist-lorn",
        "Knife",
        "sergeant-varro-tull",
        EnteredDice([90]),
        action="charge",
        mode="melee",
        distance=6,
        spend=True,
    )
    assert step(charge, "Weapon Skill test").startswith(
        "Weapon Skill test: miss (WS 30 +10 = 40 [Charge +10]"
    )
    assert ("remove_condition", "Sergeant Varro Tull", "pinned") in [
        (e.kind, e.target, e.condition) for e in charge.effects
    ]
    assert set(fight.combatant("sergeant-varro-tull").conditions) == {"engaged"}  # a charge
    assert fight.combatant("cultist-lorn").spent == {"actions": 2}

    fight.next_turn()  # Ilse
    fight.next_turn()  # Ban, no longer stunned
    assert fight.combatant("cultist-ban").conditions == {}
    assert fight.may("cultist-ban", "half").allowed
    fight.next_turn()  # Ostrava, on fire: Willpower to act normally, fatigue weighing
    assert dues(fight) == [("demagogue-ostrava", "on_fire.start_of_turn")]
    panic = fight.roll_due(0, EnteredDice([50]))
    assert str(panic.steps[0]).startswith("On fire: failed (WP 42 -10 = 32 [Fatigued -10]")
    fight.next_turn()  # Fenn
    fight.next_turn()  # Hesk is dead: Next passes over him into round 3
    assert (fight.state.round, fight.state.current.id) == (3, "jessa-kell")
    assert dues(fight) == [("demagogue-ostrava", "on_fire.end_of_round")]
    assert [event["kind"] for event in fight.effective_events].count("due_rolled") == 3
