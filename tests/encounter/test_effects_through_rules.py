"""Effects applied through each game's rules by the encounter: what the event records, replay
that never runs the rules again, follow-ups, the generic effects, the state the rules read
from the encounter, and how hurt everyone is (``health``)."""

from __future__ import annotations

import pytest
import yaml

from gmkit.dice import EnteredDice
from gmkit.encounter import Condition, Encounter
from gmkit.errors import RulesError
from gmkit.games import health
from gmkit.sheets.base import Sheet
from gmkit.store import CampaignStore
from gmkit.systems import system
from gmkit.systems._tables import table
from gmkit.systems.base import Effect
from gmkit.systems.wfrp2 import WFRP2System


def wfrp(sheet) -> Encounter:
    fight = Encounter("wfrp2")
    for name in ("Elsa Wendt", "Ungor Snitch", "Gor Bloodhorn", "Gunther Brandauer"):
        fight.add(sheet("wfrp2", name))
    return fight


def the_seed_shot(fight: Encounter) -> None:
    """Elsa's aimed bow shot at Ungor Snitch: 53 hits the right arm, 4 + 3 - TB 3: 4 lost."""
    fight.attack(
        "elsa-wendt",
        "Bow",
        "ungor-snitch",
        EnteredDice([53, 4]),
        distance=20,
        circumstances={"aimed": True},
    )


# --- the event records the application ----------------------------------------------------


def test_an_applied_attack_records_the_sheets_it_changed(sheet):
    fight = wfrp(sheet)
    before = fight.state
    the_seed_shot(fight)
    ungor = fight.combatant("ungor-snitch")
    assert (ungor.sheet.wounds_current, ungor.sheet.wound_state) == (5, "lightly wounded")
    assert ungor.counters == {}  # WFRP keeps the wounds on the sheet
    event = fight.effective_events[-1]
    assert [change["id"] for change in event["changes"]] == ["ungor-snitch"]
    assert event["changes"][0]["sheet"]["wounds_current"] == 5
    assert (event["generic"], event["follow_ups"]) == ([], [])
    assert fight.undo() == before  # one command, one undo, the state exactly
    assert fight.combatant("ungor-snitch").sheet.wounds_current == 9


def test_an_attack_recorded_without_applying_applies_nothing(sheet):
    fight = wfrp(sheet)
    result = fight.attack(
        "elsa-wendt",
        "Bow",
        "ungor-snitch",
        EnteredDice([53, 4]),
        apply=False,
        distance=20,
        circumstances={"aimed": True},
    )
    event = fight.effective_events[-1]
    assert event["applied"] is False
    assert "changes" not in event
    assert fight.combatant("ungor-snitch").sheet.wounds_current == 9
    fight.apply_effects(list(result.effects), note="the GM confirms")  # 7 - 3: 4 lost
    assert fight.combatant("ungor-snitch").sheet.wounds_current == 5
    assert fight.effective_events[-1]["changes"][0]["id"] == "ungor-snitch"


def test_replay_sets_what_was_recorded_whatever_the_rules_say_now(sheet, tmp_path, monkeypatch):
    path = tmp_path / "campaign.gmkit"
    with CampaignStore(path, create=True) as store:
        fight = wfrp(sheet)
        live = Encounter.create(store, "road", "wfrp2")
        for combatant in fight.state.combatants.values():
            live.add(combatant.sheet)
        the_seed_shot(live)

        def wrong(self, sheet: Sheet, effect: Effect):
            raise AssertionError("a replay must not run the rules")

        monkeypatch.setattr(WFRP2System, "apply_effect", wrong)
        with CampaignStore(path, readonly=True) as reader:
            opened = Encounter.open(reader, "road")
            assert opened.state == live.state
            assert opened.combatant("ungor-snitch").sheet.wounds_current == 5

        def doubled(self, sheet: Sheet, effect: Effect):
            if effect.kind != "damage":
                return None
            return sheet.edit(wounds_current=max(0, sheet.wounds_current - 2 * effect.amount)), ()

        monkeypatch.setattr(WFRP2System, "apply_effect", doubled)  # the rules "fixed" later
        live.apply_effects([Effect("damage", "ungor-snitch", 2)])  # a new command: new rules
        assert live.combatant("ungor-snitch").sheet.wounds_current == 1
        monkeypatch.undo()
        with CampaignStore(path, readonly=True) as reader:
            opened = Encounter.open(reader, "road")
            assert opened.state == live.state  # each event as its command applied it
            assert opened.combatant("ungor-snitch").sheet.wounds_current == 1


def test_an_event_from_before_the_record_folds_through_the_rules(sheet, tmp_path):
    path = tmp_path / "campaign.gmkit"
    with CampaignStore(path, create=True) as store:
        fight = Encounter.create(store, "old", "wfrp2")
        fight.add(sheet("wfrp2", "Ungor Snitch"))
        damage = {
            "kind": "damage",
            "target": "ungor-snitch",
            "amount": 4,
            "location": "right_arm",
            "damage_type": None,
            "condition": None,
            "rounds": None,
            "weapon": "Bow",
            "note": "",
        }
        old = {"kind": "effects", "effects": [damage], "note": "", "visibility": "public"}
        store.append_event(fight.encounter_id, old, seq=2)
        assert fight.refresh() == 1
        assert fight.combatant("ungor-snitch").sheet.wounds_current == 5
        with CampaignStore(path, readonly=True) as reader:
            assert Encounter.open(reader, "old").state == fight.state


def test_effects_the_rules_refuse_refuse_the_command(sheet, refused):
    fight = wfrp(sheet)
    refused(
        fight,
        lambda: fight.apply_effects([Effect("damage", "Ungor Snitch", -3)]),
        "damage: Ungor Snitch: damage of -3",
    )
    refused(fight, lambda: fight.apply_effects([Effect("damage", "Nobody", 3)]), "Nobody")


# --- follow-ups ---------------------------------------------------------------------------


def test_the_critical_the_resolver_rolled_is_applied_once(sheet, tmp_path):
    fight = wfrp(sheet)
    fight.edit_sheet("gor-bloodhorn", wounds_current=2)
    # the GM's own table (the packaged rows, placeholder: false): the packaged ones never apply
    mine = tmp_path / "criticals.yaml"
    mine.write_text(yaml.safe_dump({**table("wfrp2", "criticals"), "placeholder": False}))
    # 21 hits the head (12); 8 + 3 = 11 - TB 4: 7 lost, 5 below zero; d100 40: result 3
    fight.attack(
        "elsa-wendt",
        "Bow",
        "gor-bloodhorn",
        EnteredDice([21, 8, 40]),
        distance=20,
        options={"critical_table": str(mine)},
    )
    gor = fight.combatant("gor-bloodhorn")
    assert gor.sheet.wounds_current == 0
    assert gor.counters == {"critical": 5}  # the resolver's critical, not the follow-up too
    assert gor.conditions == {"stunned": Condition("stunned", 2, "end_of_turn")}
    event = fight.effective_events[-1]
    assert event["follow_ups"] == []
    assert [(e["kind"], e["amount"]) for e in event["generic"]] == [
        ("critical", 5),
        ("condition", 0),
    ]


def test_damage_typed_by_hand_below_zero_brings_its_critical(sheet):
    fight = wfrp(sheet)
    fight.apply_effects([Effect("damage", "Ungor Snitch", 12, "body")])
    ungor = fight.combatant("ungor-snitch")
    assert (ungor.sheet.wounds_current, ungor.counters) == (0, {"critical": 3})
    follow = fight.effective_events[-1]["follow_ups"]
    assert [(e["kind"], e["target"], e["amount"], e["location"]) for e in follow] == [
        ("critical", "ungor-snitch", 3, "body")
    ]


def test_forty_k_follow_ups_are_applied_and_recorded(sheet):
    fight = Encounter("dark_heresy")
    fight.add(sheet("dark_heresy", "Cultist Ban"))  # a minion: critical damage kills it
    fight.apply_effects([Effect("damage", "Cultist Ban", 10, "head", "Impact")])
    ban = fight.combatant("cultist-ban")
    assert (ban.sheet.damage, ban.sheet.critical_damage, ban.sheet.wounds_remaining) == (8, 2, 0)
    assert set(ban.conditions) == {"dead"}
    event = fight.effective_events[-1]
    assert [(e["kind"], e["condition"]) for e in event["follow_ups"]] == [("condition", "dead")]
    assert health(ban.sheet, ban.counters) == (0, 8)


# --- the generic effects ------------------------------------------------------------------


def test_a_forty_k_dodge_spends_the_one_reaction_of_the_round(sheet, refused):
    fight = Encounter("dark_heresy")
    tull = fight.add(sheet("dark_heresy", "Sergeant Varro Tull"))
    ostrava = fight.add(sheet("dark_heresy", "Demagogue Ostrava"))
    fight.set_initiative(tull, 10)
    fight.set_initiative(ostrava, 6)
    fight.start()
    # 30 against BS 42 +10 (short range): hit; the dodge, 7 against Ag 32: negated
    fight.attack(
        tull, "Lasgun", ostrava, EnteredDice([30, 7]), distance=20, options={"reaction": "dodge"}
    )
    assert fight.combatant(ostrava).reactions == {"reaction": 1}
    assert fight.combatant(tull).counters == {"ammo spent: Lasgun": 1}
    refused(fight, lambda: fight.react(ostrava, "parry"), "Demagogue Ostrava has no reaction")


def test_a_cleared_jam_lifts_the_weapons_jam(sheet):
    fight = Encounter("dark_heresy")
    tull = fight.add(sheet("dark_heresy", "Sergeant Varro Tull"))
    fight.apply_effects([Effect("jam", tull, weapon="Lasgun")])
    assert fight.combatant(tull).conditions == {
        "jammed: Lasgun": Condition("jammed: Lasgun", None, "never")
    }
    fight.apply_effects([Effect("remove_condition", tull, condition="jammed", weapon="Lasgun")])
    assert fight.combatant(tull).conditions == {}


def test_a_condition_gained_in_ones_own_turn_lasts_until_the_next(sheet):
    fight = wfrp(sheet)
    for ident, score in (("elsa-wendt", 48), ("ungor-snitch", 43), ("gor-bloodhorn", 39)):
        fight.set_initiative(ident, score)
    fight.set_initiative("gunther-brandauer", 38)
    fight.start()
    stance = system("wfrp2").perform_action(
        "defensive_stance", fight.combatant("elsa-wendt").sheet, EnteredDice([])
    )
    fight.apply_effects(list(stance.effects))  # Elsa's own turn: until her next one
    dealt = Effect("condition", "ungor-snitch", condition="stunned", rounds=1)
    fight.apply_effects([dealt])  # on a foe: costs it its next turn
    assert fight.combatant("elsa-wendt").conditions == {
        "defensive_stance": Condition("defensive_stance", 1, "start_of_turn")
    }
    assert fight.combatant("ungor-snitch").conditions == {
        "stunned": Condition("stunned", 1, "end_of_turn")
    }
    assert fight.effective_events[-1]["generic"][0]["ticks"] == "end_of_turn"
    request = fight.attack_request("elsa-wendt", "Bow", "ungor-snitch")
    assert request.attacker_standing.conditions == ("defensive_stance",)
    fight.next_turn()  # Ungor's turn ends: stunned ends; Elsa still in her stance
    fight.next_turn()
    assert "Ungor Snitch: stunned ends" in fight.state.reminder_texts()
    assert set(fight.combatant("elsa-wendt").conditions) == {"defensive_stance"}
    fight.next_turn()
    fight.next_turn()  # round 2, Elsa's turn begins: the stance is over
    assert fight.state.reminder_texts() == ("Elsa Wendt: Defensive Stance ends",)
    assert fight.combatant("elsa-wendt").conditions == {}


# --- what the rules read from the encounter -----------------------------------------------


def test_the_request_carries_surprise_conditions_counters_and_reactions(sheet):
    fight = wfrp(sheet)
    for ident, score in (("elsa-wendt", 48), ("ungor-snitch", 43)):
        fight.set_initiative(ident, score)
    fight.set_initiative("gor-bloodhorn", 39)
    fight.set_initiative("gunther-brandauer", 38)
    fight.start(surprised=["Gunther Brandauer"])
    fight.apply_effects([Effect("reaction", "Gor Bloodhorn", condition="parry")])
    fight.add_condition("gunther-brandauer", "prone")
    request = fight.attack_request("ungor-snitch", "Spear", "gunther-brandauer")
    assert request.target_standing.conditions == ("prone", "surprised")
    assert request.attacker_standing.conditions == ()
    against_gor = fight.attack_request("gunther-brandauer", "Hand Weapon", "gor-bloodhorn")
    assert against_gor.target_standing.reactions == {"parry": 1}
    assert against_gor.round == 1
    reactions = system("wfrp2").reactions_available(request)
    assert str(reactions["dodge"].reason) == "Target is surprised (loses the first round)"
    for _ in range(4):
        fight.next_turn()  # round 2: the surprise is over
    assert fight.state.round == 2
    request = fight.attack_request("ungor-snitch", "Spear", "gunther-brandauer")
    assert request.target_standing.conditions == ("prone",)
    assert request.target_standing.reactions == {}


def test_necromunda_reads_wounds_and_conditions_from_the_encounter(sheet, refused):
    fight = Encounter("necromunda")
    tom = fight.add(sheet("necromunda", "Scabby Tom"))
    kael = fight.add(sheet("necromunda", "Brother Kael"))
    # 2 hits (short range +2: 2+); pinned; 3 wounds (S 4 against T 3); injury roll 1: flesh
    fight.attack(kael, "bolt pistol", tom, EnteredDice([2, 3, 1]), distance=6)
    scabby = fight.combatant(tom)
    assert scabby.counters == {"damage": 1}
    assert scabby.sheet.flesh_wounds == 1  # on the sheet: -1 WS and BS for the battle
    assert (scabby.sheet.effective_ws, scabby.sheet.effective_bs) == (1, 1)
    assert set(scabby.conditions) == {"pinned"}
    assert health(scabby.sheet, scabby.counters) == (0, 1)
    refused(
        fight,
        lambda: fight.attack(tom, "autopistol", kael, EnteredDice([6]), distance=6),
        "a pinned fighter does not shoot",
    )
    # at 0 wounds, the next wound goes straight to an injury roll: 6, out of action
    result = fight.attack(kael, "bolt pistol", tom, EnteredDice([2, 3, 6]), distance=6)
    assert "Wounds: 1 wound: 0 of 1 left (1 injury roll)" in [str(s) for s in result.steps]
    scabby = fight.combatant(tom)
    assert scabby.counters == {"damage": 1}  # nothing left to lose
    assert set(scabby.conditions) == {"pinned", "out of action"}
    refused(
        fight,
        lambda: fight.attack(kael, "bolt pistol", tom, EnteredDice([2]), distance=6),
        "Scabby Tom is gone",
    )


# --- health ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "name", "effect", "expected"),
    [
        ("wfrp2", "Brother Matthias", Effect("damage", "x", 4), (5, 12)),
        ("dark_heresy", "Ilse Marr", Effect("damage", "x", 3, "body"), (7, 10)),
        ("deathwatch", "Ork Boyz mob", Effect("magnitude", "x", 7), (23, 30)),
        ("deathwatch", "Brother Castor", Effect("damage", "x", 5, "body"), (15, 20)),
        ("necromunda", "Brother Kael", Effect("damage", "x", 1), (0, 1)),
        ("wfb6", "Captain Ottilie Hals", Effect("damage", "x", 1), (1, 2)),
    ],
)
def test_health_after_effects_applied_through_the_encounter(sheet, game, name, effect, expected):
    fight = Encounter(game)
    ident = fight.add(sheet(game, name))
    fight.apply_effects([Effect(effect.kind, ident, effect.amount, effect.location)])
    combatant = fight.combatant(ident)
    assert health(combatant.sheet, combatant.counters) == expected


def test_health_counts_damage_the_encounter_counted_on_a_d100_sheet(sheet):
    matthias = sheet("wfrp2", "Brother Matthias")  # 9 of 12
    assert health(matthias, {"damage": 4}) == (5, 12)
    assert health(matthias, {"damage": 40}) == (0, 12)
    mob = sheet("deathwatch", "Ork Boyz mob")
    assert health(mob, {"magnitude": 5}) == (25, 30)


def test_an_effect_on_a_removed_combatant_names_it(sheet):
    fight = wfrp(sheet)
    fight.remove("ungor-snitch")
    with pytest.raises(RulesError, match="removed"):
        fight.attack("elsa-wendt", "Bow", "ungor-snitch", EnteredDice([53, 4]))
