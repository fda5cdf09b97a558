"""The log in the reader's language: events keep their texts as messages (a log written before
messages, as strings, still folds and reads), the log's lines, an attack's steps and the
reminders of a turn change render in Spanish with no English rule word, in a short fight of
each game; the encounter's catalog has no problem."""

from __future__ import annotations

from typing import Any

import pytest

from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.encounter._log import EventLog
from gmkit.encounter._views import (
    combat_log,
    event_message,
    event_text,
    player_view,
    step_texts,
)
from gmkit.messages import Message, from_json, problems, render
from gmkit.messages._check import english_words
from gmkit.systems.base import AttackResult
from gmkit.systems.wfb6 import Situation, UnitOnTable

SHEETS = {roster.game: {s.name: s for s in roster.sheets} for roster in demo_campaign().rosters}


def lines(fight: Encounter, language: str) -> list[str]:
    """Each effective event's line, named from the states around it."""
    states = fight._log.states
    return [
        event_text(event, language, before=states[n], after=states[n + 1])
        for n, event in enumerate(fight.effective_events)
    ]


def names_of(fight: Encounter, *more: str) -> list[str]:
    """The names a Spanish text keeps as they are: combatants', sides', and ``more``."""
    state = fight.state
    found = [c.name for c in state.combatants.values()] + [
        c.side for c in state.combatants.values()
    ]
    return [*found, *state.sides, *more]


# --- a log written before messages -----------------------------------------------------


def old_log() -> list[dict[str, Any]]:
    """Events as gmkit wrote them before messages: every text a plain English string."""
    tull = SHEETS["dark_heresy"]["Sergeant Varro Tull"].model_dump(mode="json")
    ban = SHEETS["dark_heresy"]["Cultist Ban"].model_dump(mode="json")
    roll = {"sides": 10, "value": 7, "purpose": "initiative: Sergeant Varro Tull", "physical": True}
    return [
        {"kind": "added", "id": "tull", "sheet": tull, "side": "Acolytes", "hidden": False,
         "group": "", "visibility": "public"},
        {"kind": "added", "id": "ban", "sheet": ban, "side": "Cult", "hidden": False,
         "group": "", "visibility": "public"},
        {"kind": "initiative", "visibility": "public", "entries": [
            {"id": "tull", "base": 3, "roll": roll, "score": 10},
            {"id": "ban", "base": 3, "roll": None, "score": 4},
        ]},
        {"kind": "started", "surprised": [], "order": ["tull", "ban"], "rolls": [],
         "visibility": "public"},
        {"kind": "condition", "id": "ban", "name": "on fire", "rounds": 1,
         "ticks": "end_of_turn", "reminder": "1d10 damage, WP test to act",
         "visibility": "public"},
        {"kind": "attack", "attacker": "tull", "target": "ban", "weapon": "Lasgun",
         "action": "standard_attack", "mode": "single", "hits": 1,
         "summary": "Sergeant Varro Tull hits Cultist Ban once", "applied": False,
         "steps": ["Ballistic Skill test: hit (rolled 30)", "Damage: 8 (1d10 (5) + 3)"],
         "rolls": [{"sides": 100, "value": 30, "purpose": "BS test", "physical": True}],
         "effects": [], "unapplied": [
             {"kind": "damage", "target": "Cult Band", "amount": 2, "location": None,
              "damage_type": None, "condition": None, "rounds": None, "weapon": None,
              "note": "", "reason": "no combatant 'Cult Band'"}],
         "visibility": "public"},
        {"kind": "note", "text": "the lights go out", "visibility": "public"},
        {"kind": "turn", "direction": 1, "visibility": "public"},
        {"kind": "turn", "direction": 1, "visibility": "public"},
    ]  # fmt: skip


def test_a_log_written_before_messages_still_folds_and_reads():
    log = EventLog("dark_heresy")
    for event in old_log():
        log.replay(event)
    state = log.state
    assert (state.round, state.current.name) == (2, "Sergeant Varro Tull")
    assert state.combatant("ban").conditions == {}  # on fire for 1 round: ended
    # the reminders are the old strings, with the bearer's name, in either language
    expected = ("Cultist Ban: 1d10 damage, WP test to act", "Cultist Ban: on fire ends")
    assert state.reminder_texts() == expected
    assert state.reminder_texts("es") == (
        "Cultist Ban: 1d10 damage, WP test to act",  # the GM's words, as typed
        "Cultist Ban: termina el estado on fire",
    )
    attack = log.done[5]
    assert step_texts(attack) == step_texts(attack, "es") == attack["steps"]
    assert event_text(attack, "es") == "Sergeant Varro Tull hits Cultist Ban once"
    frame = combat_log(tuple(log.done), log.states, "es")
    assert frame.loc[5, "outcome"] == "Sergeant Varro Tull hits Cultist Ban once"
    assert frame.loc[6, "outcome"] == "the lights go out"
    assert frame.loc[2, "outcome"] == ""  # the frame's outcome is the event's own text
    assert lines_of(log, "en")[2:5] == [
        "Initiative rolled: Sergeant Varro Tull 10, Cultist Ban 4",
        "The fight begins; order: Sergeant Varro Tull, Cultist Ban",
        "Condition on fire on Cultist Ban (1 round); 1d10 damage, WP test to act",
    ]
    assert lines_of(log, "es")[7:] == [
        "Turno: asalto 1, Cultist Ban",
        "Turno: asalto 2, Sergeant Varro Tull",
    ]


def lines_of(log: EventLog, language: str) -> list[str]:
    return [
        event_text(event, language, before=log.states[n], after=log.states[n + 1])
        for n, event in enumerate(log.done)
    ]


def test_old_and_new_reasons_not_applied_read_alike():
    from gmkit.encounter._effects import no_combatant, not_applied

    old = [{"reason": "no combatant 'Cult Band'"}, {"reason": "no combatant 'Cult Band'"}]
    new = [{"reason": no_combatant("Cult Band").to_json()}]
    assert str(not_applied(old)) == str(not_applied(new)) == "not applied: no combatant 'Cult Band'"
    assert render(not_applied(new), "es") == "sin aplicar: no hay ningún combatiente 'Cult Band'"
    assert render(not_applied(old), "es") == "sin aplicar: no combatant 'Cult Band'"
    assert not_applied([]) == ""


def test_a_reminder_stored_as_a_message_reads_in_the_readers_language(demo_sheets):
    fight = Encounter("dark_heresy")
    ids = fight.add_many(demo_sheets["dark_heresy"][:2])
    for score, ident in enumerate(reversed(ids), start=1):
        fight.set_initiative(ident, score * 10)
    fight.start()
    event = {
        "kind": "condition",
        "id": ids[0],
        "name": "pinned",
        "rounds": None,
        "ticks": "end_of_turn",
        "reminder": Message("encounter.event.next_turn").to_json(),  # any message will do
        "visibility": "public",
    }
    fight._append(event)
    condition = fight.combatant(ids[0]).conditions["pinned"]
    assert condition.reminder == Message("encounter.event.next_turn")
    fight.next_turn()
    assert fight.state.reminder_texts() == ("Sergeant Varro Tull: Next turn",)
    assert fight.state.reminder_texts("es") == ("Sergeant Varro Tull: Turno siguiente",)


# --- a short fight of each game, read in Spanish ---------------------------------------


def wfrp2() -> tuple[Encounter, list[str]]:
    fight = Encounter("wfrp2")
    elsa = fight.add(SHEETS["wfrp2"]["Elsa Wendt"])
    ungor = fight.add(SHEETS["wfrp2"]["Ungor Snitch"])
    fight.roll_initiative(EnteredDice([5, 7]))  # Ag 41 + 5, Ag 35 + 7
    fight.start()
    fight.attack(elsa, "Bow", ungor, EnteredDice([30, 4]), distance=20)
    fight.add_condition(ungor, "en llamas", rounds=1, reminder="1d10 de daño")
    fight.next_turn()
    fight.next_turn()  # Ungor's turn ends: the fire ticks
    return fight, ["Bow", "en llamas"]


def dark_heresy() -> tuple[Encounter, list[str]]:
    fight = Encounter("dark_heresy")
    tull = fight.add(SHEETS["dark_heresy"]["Sergeant Varro Tull"])
    ostrava = fight.add(SHEETS["dark_heresy"]["Demagogue Ostrava"])
    fight.roll_initiative(EnteredDice([7, 4]))
    fight.start()
    fight.attack(tull, "Lasgun", ostrava, EnteredDice([30, 5]), distance=20)
    fight.add_condition(ostrava, "ardiendo", rounds=1, reminder="1d10 de daño")
    fight.next_turn()
    fight.next_turn()
    return fight, ["Lasgun", "ardiendo"]


def deathwatch() -> tuple[Encounter, list[str]]:
    fight = Encounter("deathwatch")
    castor = fight.add(SHEETS["deathwatch"]["Brother Castor"])
    nob = fight.add(SHEETS["deathwatch"]["Nob Gritfang"])
    fight.roll_initiative(EnteredDice([7, 4]))
    fight.start()
    fight.attack(castor, "Astartes Bolter (Godwyn)", nob, EnteredDice([30, 5, 5, 5]), distance=20)
    fight.add_condition(nob, "ardiendo", rounds=1, reminder="1d10 de daño")
    fight.next_turn()
    fight.next_turn()
    return fight, ["Astartes Bolter (Godwyn)", "ardiendo"]


def necromunda() -> tuple[Encounter, list[str]]:
    fight = Encounter("necromunda")
    kael = fight.add(SHEETS["necromunda"]["Brother Kael"])
    rotgut = fight.add(SHEETS["necromunda"]["Rotgut"])
    fight.start()
    fight.next_turn()  # movement, shooting
    fight.attack(kael, "bolt pistol", rotgut, EnteredDice([2, 5, 3]), distance=6)
    fight.add_condition(rotgut, "en el humo", rounds=1, reminder="-1 para impactar")
    for _ in range(7):  # close combat, recovery, then the Scavvies' turn to its end: it ticks
        fight.next_turn()
    return fight, ["bolt pistol", "en el humo"]


def wfb6() -> tuple[Encounter, list[str]]:
    fight = Encounter("wfb6")
    fight.add(SHEETS["wfb6"]["Night Goblin Archer"].edit(name="Skulkers"))
    trooper = fight.add(SHEETS["wfb6"]["Swordsman"])  # not named as its unit: not applied
    fight.start()
    fight.next_turn()
    fight.next_turn()  # movement, magic, shooting
    unit = UnitOnTable.of(
        [fight.combatant(trooper).sheet], rank_and_file=15, shooter_distance_cm=30
    )
    fight.attack(
        "skulkers",
        "short bow",
        trooper,
        EnteredDice([5, 4, 3]),
        options={"situation": Situation((unit,), distance_cm=30)},
    )
    fight.add_condition(trooper, "en el vado", rounds=1, reminder="medio movimiento")
    for _ in range(6):  # close combat, then the Empire's turn to its end: the ford ticks
        fight.next_turn()
    return fight, ["short bow", "en el vado", "Reikland Swordsmen"]


FIGHTS = {
    "wfrp2": wfrp2,
    "dark_heresy": dark_heresy,
    "deathwatch": deathwatch,
    "necromunda": necromunda,
    "wfb6": wfb6,
}


@pytest.fixture(scope="module", params=sorted(FIGHTS))
def fought(request) -> tuple[Encounter, list[str], AttackResult]:
    fight, more = FIGHTS[request.param]()
    attack = next(e for e in fight.effective_events if e["kind"] == "attack")
    return fight, names_of(fight, *more), attack


def test_the_encounters_own_texts_hold_no_english_in_spanish(fought):
    fight, names, _ = fought
    reminders = fight.state.reminder_texts("es")
    condition = next(e for e in fight.effective_events if e["kind"] == "condition")
    bearer = fight.combatant(condition["id"]).name
    gms = [text for text in reminders if condition["name"] in text or condition["reminder"] in text]
    assert gms == [
        f"{bearer}: {condition['reminder']}",  # the GM's words, as typed
        f"{bearer}: termina el estado {condition['name']}",
    ]
    # the rules' own conditions ending at the same moment (Necromunda: the shot's pin)
    assert set(reminders) - set(gms) == (
        {f"{bearer}: termina el estado aturdido"} if fight.game == "necromunda" else set()
    )
    own = [
        line
        for event, line in zip(fight.effective_events, lines(fight, "es"), strict=True)
        if event["kind"] != "attack"
    ]
    for text in [*reminders, *own]:
        assert english_words(text, names) == [], text
    assert lines(fight, "es") != lines(fight, "en")


def test_an_attacks_stored_texts_read_as_the_live_result(fought):
    """The summary and steps the event keeps render as the rules' result rendered them, in
    English (byte for byte) and in Spanish (with no English rule word)."""
    fight, names, attack = fought
    for text in [render(from_json(attack["summary"]), "es"), *step_texts(attack, "es")]:
        assert english_words(text, names) == [], text  # every game's rules speak Spanish now
    rules_steps = [from_json(step["title"]) for step in attack["steps"]]
    assert len(step_texts(attack)) == len(step_texts(attack, "es")) == len(rules_steps) > 0
    number = fight.effective_events.index(attack)
    frame = combat_log(fight.effective_events, fight._log.states, "es")
    # the outcome is the log's line: the summary, then what the attack left (a pin...)
    assert frame.loc[number, "outcome"] == lines(fight, "es")[number]
    assert frame.loc[number, "outcome"].startswith(render(from_json(attack["summary"]), "es"))
    english = combat_log(fight.effective_events, fight._log.states)
    assert english.loc[number, "outcome"] == lines(fight, "en")[number]
    assert english.loc[number, "outcome"].startswith(str(from_json(attack["summary"])))
    assert isinstance(event_message(attack), Message)


def test_the_log_says_in_spanish_what_could_not_be_applied():
    fight, _ = wfb6()
    attack = next(e for e in fight.effective_events if e["kind"] == "attack")
    assert str(from_json(attack["summary"])).endswith(
        "; not applied: no combatant 'Reikland Swordsmen'"
    )
    assert render(from_json(attack["summary"]), "es").endswith(
        "; sin aplicar: no hay ningún combatiente 'Reikland Swordsmen'"
    )


def test_a_replayed_attack_reads_the_same(fought, tmp_path):
    from gmkit.store import CampaignStore

    fight, _, _ = fought
    path = tmp_path / "campaign.gmkit"
    with CampaignStore(path, create=True) as store:
        copy = Encounter.create(store, "copy", fight.game)
        for event in fight.effective_events:
            copy._append(dict(event))
    with CampaignStore(path, readonly=True) as reader:
        opened = Encounter.open(reader, "copy")
        assert opened.state == fight.state
        assert lines(opened, "es") == lines(fight, "es")
        assert opened.state.reminder_texts("es") == fight.state.reminder_texts("es")


# --- the players' view ------------------------------------------------------------------


def test_the_players_view_in_spanish(sheet):
    fight = Encounter("dark_heresy")
    tull = fight.add(sheet("dark_heresy", "Sergeant Varro Tull"))
    ban = fight.add(sheet("dark_heresy", "Cultist Ban"))
    fight.set("player_sides", ["Acolytes"])
    fight.edit_sheet(ban, damage=5)  # 3 of 8 left
    fight.add_condition(ban, "en llamas")
    english = player_view(fight.state)
    spanish = player_view(fight.state, language="es")
    assert english["combatants"][1]["wounds"] == "bloodied"
    assert spanish["combatants"][1]["wounds"] == "malherido"
    assert english["combatants"][1]["conditions"] == ["en llamas"]  # the GM's own, as typed
    assert spanish["combatants"][0]["wounds"] == english["combatants"][0]["wounds"] == "13/13"
    fight.edit_sheet(ban, damage=8)
    assert player_view(fight.state, language="es")["combatants"][1]["wounds"] == "abatido"
    assert fight.combatant(tull).name == "Sergeant Varro Tull"


# --- the catalog ------------------------------------------------------------------------


def test_the_encounter_catalog_has_no_problem():
    assert [p for p in problems() if p.startswith("encounter.")] == []
