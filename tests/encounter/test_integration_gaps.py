"""Gaps between the encounter and the rules, closed: names on combatants the 40k rules do not
know, the reactions the rules count from what the encounter says was spent, the states an
action leaves on its actor applied through the attack, and effects naming no combatant."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gmkit.dice import EnteredDice
from gmkit.encounter import Condition, Encounter
from gmkit.encounter._effects import application
from gmkit.encounter._views import step_texts
from gmkit.errors import RulesError
from gmkit.games import health
from gmkit.messages import from_json
from gmkit.store import CampaignStore
from gmkit.systems import _choices as choices
from gmkit.systems._imperial.conditions import gain
from gmkit.systems._imperial.resolve import action_gains
from gmkit.systems.base import Effect
from gmkit.systems.turns import reaction_problems, reactions_allowed
from gmkit.systems.wfb6 import Situation, UnitOnTable


def chapel(sheet, *names: str) -> tuple[Encounter, list[str]]:
    """A Dark Heresy fight of ``names`` (demo sheets), in that order of initiative; started."""
    fight = Encounter("dark_heresy")
    ids = [fight.add(sheet("dark_heresy", name)) for name in names]
    for score, ident in enumerate(reversed(ids), start=1):
        fight.set_initiative(ident, score * 10)
    fight.start()
    return fight, ids


def lines(result, *titles: str) -> list[str]:
    return [str(step) for step in result.steps if str(step.title) in titles]


def wounds(fight: Encounter, ident: str) -> tuple[int, int]:
    combatant = fight.combatant(ident)
    return health(combatant.sheet, combatant.counters)


# --- 1. names the rules do not know ------------------------------------------------------------


def test_a_gms_own_condition_never_refuses_an_attack_and_is_shown(sheet):
    fight, (tull, ostrava) = chapel(sheet, "Sergeant Varro Tull", "Demagogue Ostrava")
    fight.add_condition(tull, "behind the pews")
    fight.add_condition(ostrava, "hidden")  # Necromunda's word
    fight.add_condition(ostrava, "prone")  # the rules' own: still counted
    request = fight.attack_request(tull, "Lasgun", ostrava, distance=20)
    preview = choices.attack_preview("dark_heresy", request)
    assert preview is not None
    assert tuple(str(note) for note in preview.notes[:2]) == (
        "not a rule condition: 'behind the pews' (Sergeant Varro Tull, the attacker): "
        "the rules ignore it",
        "not a rule condition: 'hidden' (Demagogue Ostrava, the target): the rules ignore it",
    )
    # 30 against BS 42 +10 (short range): hit; the dodge, Ag 32 - 20 (prone) = 12: 7 negates
    shot = fight.attack(
        tull, "Lasgun", ostrava, EnteredDice([30, 7]), distance=20, options={"reaction": "dodge"}
    )
    assert lines(shot, "Note", "Ballistic Skill test", "Dodge") == [
        "Note: not a rule condition: 'behind the pews' (Sergeant Varro Tull, the attacker): "
        "the rules ignore it",
        "Note: not a rule condition: 'hidden' (Demagogue Ostrava, the target): the rules ignore it",
        "Ballistic Skill test: hit, 2 degrees of success (BS 42 +10 = 52 [Short range +10]; "
        "rolled 30: success, 2 degrees of success)",
        "Dodge: the attack is negated (Ag 32 -20 = 12 [Prone -20]; rolled 7: success, 0 degrees "
        "of success)",
    ]
    assert step_texts(fight.effective_events[-1])[0].startswith("Note: not a rule condition")
    assert fight.combatant(ostrava).reactions == {"reaction": 1}


def test_the_rules_own_condition_ids_still_fail_loudly():
    with pytest.raises(RulesError, match=r"unknown condition 'behind the pews'"):
        gain("dark_heresy", "Ilse Marr", "behind the pews")


# --- 2. reactions: one rule, the encounter's budget and the resolver's count -------------------


def test_the_round_pools_under_the_conditions_are_one_rule():
    assert reactions_allowed("dark_heresy") == {"reaction": 1}
    assert reactions_allowed("deathwatch", ["defensive_stance"]) == {"reaction": 2}
    assert reactions_allowed("dark_heresy", ["all_out_attack", "defensive_stance"]) == {
        "reaction": 0
    }
    # 002: Defensive Stance's effect is the attackers' -20, not a reaction more
    assert reactions_allowed("wfrp2", {"defensive_stance": None}) == {"parry": 1, "dodge": 1}
    assert reactions_allowed("wfrp2", ["all_out_attack"]) == {"parry": 0, "dodge": 0}
    assert reactions_allowed("necromunda", ["defensive_stance"]) == {}
    assert [
        str(p) for p in reaction_problems("dark_heresy", "Ban", ["all_out_attack"], {}, "dodge")
    ] == ["Ban made an all out attack: no dodge until their turn"]
    assert [
        str(p) for p in reaction_problems("dark_heresy", "Ban", [], {"reaction": 1}, "parry")
    ] == ["Ban has no reaction left this round"]
    assert (
        reaction_problems("dark_heresy", "Ban", ["defensive_stance"], {"reaction": 1}, "parry")
        == []
    )


def test_a_second_dodge_in_the_round_is_not_offered_by_the_rules(sheet, refused):
    fight, (tull, jessa, ostrava) = chapel(
        sheet, "Sergeant Varro Tull", "Jessa Kell", "Demagogue Ostrava"
    )
    # 30 against BS 42 +10: hit; the dodge, 7 against Ag 32: negated
    fight.attack(
        tull, "Lasgun", ostrava, EnteredDice([30, 7]), distance=20, options={"reaction": "dodge"}
    )
    assert fight.combatant(ostrava).reactions == {"reaction": 1}
    fight.next_turn()
    # 20 against BS 39 +10: hit, head (02); the dodge is not taken: 1d10 [5] + 2 - TB 3 = 4
    pistol = fight.attack(
        jessa,
        "Autopistol",
        ostrava,
        EnteredDice([20, 5]),
        distance=10,
        options={"reaction": "dodge"},
    )
    assert lines(pistol, "Dodge", "Soak (hit 1)") == [
        "Dodge: not taken (no reaction left this round)",
        "Soak (hit 1): 4 damage taken (7 damage - AP 0 - TB 3 = 4)",
    ]
    assert [e.kind for e in pistol.effects] == ["ammo", "damage"]  # no reaction spent
    assert fight.combatant(ostrava).reactions == {"reaction": 1}
    assert wounds(fight, ostrava) == (8, 12)
    refused(fight, lambda: fight.react(ostrava, "dodge"), "Demagogue Ostrava has no reaction")
    fight.next_turn()
    fight.next_turn()  # round 2: the reaction is back
    assert (fight.state.round, fight.combatant(ostrava).reactions) == (2, {})
    again = fight.attack(
        tull, "Lasgun", ostrava, EnteredDice([30, 7]), distance=20, options={"reaction": "dodge"}
    )
    assert again.hits == 0


def test_a_defensive_stance_gives_the_rules_a_second_dodge(sheet):
    fight, (tull, jessa, ostrava) = chapel(
        sheet, "Sergeant Varro Tull", "Jessa Kell", "Demagogue Ostrava"
    )
    # the state of a Defensive Stance (an action that is no attack), as the rules give it
    stance = action_gains("dark_heresy", "defensive_stance", "Demagogue Ostrava")
    assert [replace(e, note=str(e.note)) for e in stance] == [
        Effect("condition", "Demagogue Ostrava", condition="defensive_stance", rounds=1,
               note="until the start of their next turn"),
    ]  # fmt: skip
    fight.apply_effects(list(stance))
    dodge = {"reaction": "dodge"}
    first = fight.attack(tull, "Lasgun", ostrava, EnteredDice([30, 7]), distance=20, options=dodge)
    fight.next_turn()
    second = fight.attack(
        jessa, "Autopistol", ostrava, EnteredDice([20, 7]), distance=10, options=dodge
    )
    assert (first.hits, second.hits) == (0, 0)
    assert fight.combatant(ostrava).reactions == {"reaction": 2}
    # the GM lets Jessa fire again: no third reaction; 1d10 [5] + 2 - TB 3 = 4
    third = fight.attack(
        jessa, "Autopistol", ostrava, EnteredDice([20, 5]), distance=10, options=dodge
    )
    assert lines(third, "Dodge", "Soak (hit 1)") == [
        "Dodge: not taken (no reaction left this round)",
        "Soak (hit 1): 4 damage taken (7 damage - AP 0 - TB 3 = 4)",
    ]
    assert fight.combatant(ostrava).reactions == {"reaction": 2}


# --- 3. the states an action leaves on its actor -----------------------------------------------


def test_an_all_out_attack_leaves_its_state_through_the_attack_until_the_next_turn(sheet):
    fight, (ilse, ostrava) = chapel(sheet, "Ilse Marr", "Demagogue Ostrava")
    # WS 41 +20 = 61: 80 misses; the state is hers all the same
    fight.attack(ilse, "Sword", ostrava, EnteredDice([80]), mode="melee", action="all_out_attack")
    assert fight.combatant(ilse).conditions == {
        "all_out_attack": Condition("all_out_attack", 1, "start_of_turn")
    }
    generic = fight.effective_events[-1]["generic"]
    assert [(g["target"], g["condition"], g["rounds"], g["ticks"]) for g in generic] == [
        ("ilse-marr", "all_out_attack", 1, "start_of_turn")
    ]
    fight.next_turn()
    # WS 35: 20 hits the head (02); no dodge after an all out attack;
    # Chainsword 1d10+2 + SB 3, Tearing [5, 3]: 10 - TB 3 = 7
    chain = fight.attack(
        ostrava, "Chainsword", ilse, EnteredDice([20, 5, 3]), mode="melee",
        options={"reaction": "dodge"},
    )  # fmt: skip
    assert lines(chain, "Reactions", "Dodge", "Soak (hit 1)") == [
        "Reactions: this attack cannot be dodged (as the action and circumstances have it)",
        "Reactions: this attack cannot be parried (as the action and circumstances have it)",
        "Soak (hit 1): 7 damage taken (10 damage - AP 0 (Pen 2: 0) - TB 3 = 7)",
    ]
    fight.next_turn()  # Ilse's turn begins: the state ends
    assert fight.combatant(ilse).conditions == {}
    assert "Ilse Marr: All Out Attack ends" in fight.state.reminder_texts()


def test_a_guarded_attack_leaves_the_guard_and_overwatch_is_not_doubled(sheet):
    fight, (ilse, ostrava) = chapel(sheet, "Ilse Marr", "Demagogue Ostrava")
    guarded = fight.attack(
        ilse, "Sword", ostrava, EnteredDice([80]), mode="melee", action="guarded_attack"
    )
    assert [(e.kind, e.condition, e.rounds) for e in guarded.effects] == [
        ("condition", "guarded", 1)
    ]
    assert fight.combatant(ilse).conditions == {"guarded": Condition("guarded", 1, "start_of_turn")}
    fight.next_turn()
    watch = fight.attack(
        ostrava, "Autopistol", ilse, EnteredDice([]), mode="full", action="overwatch",
        options={"trigger": "anyone crosses the nave"},
    )  # fmt: skip
    assert [(e.kind, e.condition) for e in watch.effects] == [("condition", "overwatch")]
    assert set(fight.combatant(ostrava).conditions) == {"overwatch"}


# --- 4. effects naming no combatant ------------------------------------------------------------


def test_an_effect_on_a_unit_the_encounter_does_not_hold_is_kept_not_applied(demo_sheets, tmp_path):
    models = {sheet.name: sheet for sheet in demo_sheets["wfb6"]}
    path = tmp_path / "campaign.gmkit"
    with CampaignStore(path, create=True) as store:
        fight = Encounter.create(store, "ford", "wfb6")
        fight.add(models["Night Goblin Archer"].edit(name="Skulkers"))
        trooper = fight.add(models["Swordsman"])  # not renamed to its unit, Reikland Swordsmen
        fight.start()
        fight.next_turn()
        fight.next_turn()  # movement, magic, shooting
        before = fight.state
        unit = UnitOnTable.of([fight.combatant(trooper).sheet], rank_and_file=15,
                              shooter_distance_cm=30)  # fmt: skip
        # BS 3, long range: 5+; S 3 against T 3: 4+; the 5+ save fails on a 3
        volley = fight.attack(
            "skulkers", "short bow", trooper, EnteredDice([5, 4, 3]),
            options={"situation": Situation((unit,), distance_cm=30)},
        )  # fmt: skip
        assert [(e.kind, e.target, e.amount) for e in volley.effects] == [
            ("damage", "Reikland Swordsmen", 1)
        ]
        event = fight.effective_events[-1]
        assert event["effects"] == []
        (stray,) = event["unapplied"]
        texts = {key: str(from_json(stray[key])) for key in ("note", "reason")}
        assert {k: v for k, v in stray.items() if k not in texts} == {
            "kind": "damage",
            "target": "Reikland Swordsmen",
            "amount": 1,
            "location": None,
            "damage_type": None,
            "condition": None,
            "rounds": None,
            "weapon": None,
        }
        assert texts == {
            "note": "Reikland Swordsmen (rank and file)",
            "reason": "no combatant 'Reikland Swordsmen'",
        }
        assert stray["reason"] == {
            "id": "encounter.no_combatant",
            "params": {"target": "'Reikland Swordsmen'"},
        }
        assert fight.log_frame().iloc[-1]["outcome"] == (
            "1 hit; unsaved wounds: Reikland Swordsmen (rank and file) 1; "
            "not applied: no combatant 'Reikland Swordsmen'"
        )
        assert fight.combatant(trooper).counters == {}
        with CampaignStore(path, readonly=True) as reader:
            assert Encounter.open(reader, "ford").state == fight.state
        assert fight.undo() == before
        later = fight.attack(
            "skulkers", "short bow", trooper, EnteredDice([5, 4, 3]), apply=False,
            options={"situation": Situation((unit,), distance_cm=30)},
        )  # fmt: skip
        assert later.hits == 1
        assert str(from_json(fight.effective_events[-1]["unapplied"][0]["reason"])) == (
            "no combatant 'Reikland Swordsmen'"
        )


def test_an_attack_applies_what_it_can_and_keeps_the_rest(sheet):
    fight, (tull, ostrava) = chapel(sheet, "Sergeant Varro Tull", "Demagogue Ostrava")
    state = fight.state
    effects = [
        Effect("ammo", tull, 1, weapon="Lasgun"),
        Effect("damage", "Demagog Ostrava", 4, location="head"),  # a typo
        Effect("damage", ostrava, 4, location="head"),
    ]
    applied = application(state, effects, lenient=True)
    assert [ident for ident, _ in applied.changes] == ["demagogue-ostrava"]
    assert [(e.kind, e.target) for e, _ in applied.generic] == [("ammo", tull)]
    assert [(e.target, str(reason)) for e, reason in applied.unapplied] == [
        ("Demagog Ostrava", "no combatant 'Demagog Ostrava'")
    ]
    reason = applied.record()["unapplied"][0]["reason"]
    assert str(from_json(reason)) == "no combatant 'Demagog Ostrava'"
    assert "unapplied" not in application(state, effects[:1]).record()
    with pytest.raises(RulesError, match="no combatant 'Demagog Ostrava'"):
        application(state, effects)  # effects the GM types are refused


# --- 5. the attack as one command: its action spent in the same event -------------------------


def test_an_attack_that_spends_its_action_folds_it_and_undoes_it_whole(sheet, tmp_path):
    path = tmp_path / "campaign.gmkit"
    with CampaignStore(path, create=True) as store:
        fight = Encounter.create(store, "road", "wfrp2")
        elsa = fight.add(sheet("wfrp2", "Elsa Wendt"))
        ungor = fight.add(sheet("wfrp2", "Ungor Snitch"))
        fight.roll_initiative(EnteredDice([9, 1]))  # Elsa 50, Ungor 36
        fight.start()
        before = fight.state
        fight.attack(elsa, "Bow", ungor, EnteredDice([30, 4]), distance=20, spend=True)
        event = fight.effective_events[-1]
        assert event["spent"]["pools"] == {"actions": 1}  # a standard attack: a half action
        assert fight.combatant(elsa).spent == {"actions": 1}
        assert wounds(fight, ungor) == (5, 9)
        with CampaignStore(path, readonly=True) as reader:
            assert Encounter.open(reader, "road").state == fight.state
        assert fight.undo() == before
        assert fight.combatant(elsa).spent == {}
