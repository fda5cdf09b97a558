"""The log's line for each kind of event (:func:`gmkit.encounter._views.event_text`): what the
event says itself (a summary, a note), else a short description named from the states around
it, in English and in Spanish; without the states, what the event alone tells."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.encounter._terms import condition_name
from gmkit.encounter._views import combat_log, event_text
from gmkit.messages import render
from gmkit.messages._check import english_words
from gmkit.systems.base import Effect


def lines(fight: Encounter, language: str = "en") -> list[str]:
    states = fight._log.states
    return [
        event_text(event, language, before=states[n], after=states[n + 1])
        for n, event in enumerate(fight.effective_events)
    ]


@pytest.fixture
def chapel(sheet) -> Encounter:
    """A Dark Heresy fight where a Spanish-speaking GM gives every command once."""
    fight = Encounter("dark_heresy")
    tull = fight.add(sheet("dark_heresy", "Sergeant Varro Tull"), ident="tull")
    ilse = fight.add(sheet("dark_heresy", "Ilse Marr"), ident="ilse")
    ban = fight.add(sheet("dark_heresy", "Cultist Ban"), ident="ban")
    ostrava = fight.add(sheet("dark_heresy", "Demagogue Ostrava"), hidden=True, ident="ostrava")
    fight.roll_initiative(EnteredDice([7, 4]), ids=[tull, ilse])  # AgB 3 and 4
    fight.set_initiative(ban, 5)
    fight.set_initiative(ostrava, 3)
    fight.start(surprised=[ban])
    fight.spend(tull, "half")
    fight.spend(tull, "full", override="es rápido")
    fight.react(ilse, "dodge")
    fight.ready(tull, "disparar a la puerta")
    fight.declare_trigger(tull, "vigilancia", "la nave")
    fight.declare_trigger(ilse, "vigilancia")
    fight.fire_trigger(0)
    fight.cancel_trigger(0)
    fight.add_condition(ban, "aturdido", rounds=2, reminder="sin acciones")
    fight.add_condition(tull, "bendecido")
    fight.remove_condition(tull, "bendecido")
    fight.note("se apagan las luces")
    fight.rename(ban, "Ban el Traidor")
    fight.reveal(ostrava)
    fight.remove(ostrava)
    fight.revive(ostrava)
    fight.set("player_sides", ["Acolytes"])
    fight.apply_effects([Effect("ammo", ilse, 1, weapon="Laspistol")])
    fight.apply_effects([Effect("ammo", ilse, 1, weapon="Laspistol")], note="el humo")
    fight.next_turn()
    fight.delay(ilse)
    fight.spend(ilse, "half")
    fight.previous_turn()
    fight.next_turn()
    return fight


ENGLISH = [
    "Sergeant Varro Tull joins the fight (Acolytes)",
    "Ilse Marr joins the fight (Acolytes)",
    "Cultist Ban joins the fight (Pale Throne cult)",
    "Demagogue Ostrava joins the fight unseen (Pale Throne cult)",
    "Initiative rolled: Sergeant Varro Tull 10, Ilse Marr 8",
    "Initiative set: Cultist Ban 5",
    "Initiative set: Demagogue Ostrava 3",
    "The fight begins; order: Sergeant Varro Tull, Ilse Marr, Cultist Ban, Demagogue Ostrava; "
    "surprised: Cultist Ban",
    "Sergeant Varro Tull spends a half action",
    "Sergeant Varro Tull spends a full action; allowed by the GM (es rápido) over: Sergeant "
    "Varro Tull has 1 left this turn (actions); the full action needs 2",
    "Ilse Marr spends a reaction: dodge",
    "Sergeant Varro Tull readies: disparar a la puerta",
    "Sergeant Varro Tull declares vigilancia: la nave; until the end of round 2",
    "Ilse Marr declares vigilancia; until the end of round 2",
    "Sergeant Varro Tull: vigilancia fired",
    "Ilse Marr: vigilancia cancelled",
    "Condition aturdido on Cultist Ban (2 rounds); sin acciones",
    "Condition bendecido on Sergeant Varro Tull (until removed)",
    "Condition bendecido removed from Sergeant Varro Tull",
    "se apagan las luces",
    "Cultist Ban is now called Ban el Traidor",
    "Demagogue Ostrava is revealed to the players",
    "Demagogue Ostrava leaves the fight",
    "Demagogue Ostrava is back in the fight",
    "Setting players' sides: Acolytes",
    "Effects applied to Ilse Marr",
    "el humo",
    "Turn: round 1, Ilse Marr",
    "Ilse Marr delays, keeping a half action",
    "Ilse Marr takes the delayed half action",
    "Back to round 1, Ilse Marr",
    "Turn: round 1, Demagogue Ostrava",
]


def test_each_event_has_its_line_in_english(chapel):
    assert lines(chapel) == ENGLISH


def test_each_event_has_its_line_in_spanish_with_no_english(chapel):
    spanish = lines(chapel, "es")
    names = [c.name for c in chapel.state.combatants.values()] + ["Pale Throne cult", "Acolytes"]
    names += ["Cultist Ban", "Laspistol", "player_sides"]
    for line in spanish:
        assert english_words(line, names) == [], line
    assert spanish[7] == (
        "Empieza el combate; orden: Sergeant Varro Tull, Ilse Marr, Cultist Ban, Demagogue "
        "Ostrava; sorprendidos: Cultist Ban"
    )
    assert spanish[9] == (
        "Sergeant Varro Tull gasta una acción completa; permitido por el DJ (es rápido) pese "
        "a: a Sergeant Varro Tull le queda 1 este turno (acciones); la acción completa "
        "necesita 2"
    )
    assert spanish[10] == "Ilse Marr gasta una reacción: esquiva"
    assert spanish[16] == "Estado aturdido en Cultist Ban (2 asaltos); sin acciones"
    assert spanish[-3:] == [
        "Ilse Marr usa su media acción retrasada",
        "Vuelta al asalto 1, Ilse Marr",
        "Turno: asalto 1, Demagogue Ostrava",
    ]


def test_without_the_states_an_event_says_what_it_holds(chapel):
    events = chapel.effective_events
    assert event_text(events[0]) == "Sergeant Varro Tull joins the fight (Acolytes)"
    assert event_text(events[5]) == "Initiative set: ban 5"  # an id for a name
    assert event_text(events[-1]) == "Next turn"
    assert event_text(events[-2], "es") == "Turno anterior"
    assert event_text({"kind": "undo"}, "es") == "Deshacer"
    assert event_text({"kind": "redo"}) == "Redo"
    assert event_text({"kind": "trigger_done", "index": 2, "outcome": "fired"}) == (
        "Declared trigger 2 done"
    )
    assert event_text({"kind": "a later kind"}) == "a later kind"


def test_an_action_of_the_games_data_is_named_in_its_terms(sheet):
    fight = Encounter("wfrp2")
    elsa = fight.add(sheet("wfrp2", "Elsa Wendt"))
    fight.add(sheet("wfrp2", "Ungor Snitch"))
    fight.roll_initiative(EnteredDice([9, 1]))
    fight.start()
    fight.spend(elsa, "half", action="aim")
    fight.spend(elsa, "free", action="shout at the ungor")  # the GM's own words
    assert lines(fight)[-2:] == [
        "Elsa Wendt spends a half action: Aim",
        "Elsa Wendt spends a free action: shout at the ungor",
    ]
    assert lines(fight, "es")[-2] == "Elsa Wendt gasta una acción media: Apuntar"


def test_a_sides_game_names_the_side_and_phase(sheet):
    fight = Encounter("necromunda")
    fight.add(sheet("necromunda", "Brother Kael"))
    fight.add(sheet("necromunda", "Rotgut"))
    fight.start()
    for _ in range(4):
        fight.next_turn()
    fight.previous_turn()
    assert lines(fight)[2:] == [
        "The fight begins; order: The Ashen Brethren, The Sump Scavvies",
        "Turn: round 1, The Ashen Brethren, shooting phase",
        "Turn: round 1, The Ashen Brethren, close combat phase",
        "Turn: round 1, The Ashen Brethren, recovery phase",
        "Turn: round 1, The Sump Scavvies, movement phase",
        "Back to round 1, The Ashen Brethren, recovery phase",
    ]
    assert lines(fight, "es")[4:6] == [
        "Turno: asalto 1, The Ashen Brethren, fase de combate cuerpo a cuerpo",
        "Turno: asalto 1, The Ashen Brethren, fase de recuperación",
    ]


def test_an_attack_reads_its_summary_or_says_who_attacked_whom(sheet):
    fight = Encounter("wfrp2")
    elsa = fight.add(sheet("wfrp2", "Elsa Wendt"))
    ungor = fight.add(sheet("wfrp2", "Ungor Snitch"))
    fight.attack(elsa, "Bow", ungor, EnteredDice([30, 4]), distance=20)
    event = dict(fight.effective_events[-1])
    assert event_text(event) == str(fight.log_frame().iloc[-1]["outcome"])
    assert event_text(event).startswith("Elsa Wendt (Standard Attack, Bow): 1 of 1 hit")
    event["summary"] = ""  # the players' line under a wound band: hit or miss, no numbers
    states = fight._log.states
    assert event_text(event, before=states[-2], after=states[-1]) == (
        "Elsa Wendt attacks Ungor Snitch with Bow: hits"
    )
    assert event_text(event, "es", before=states[-2]).endswith(": impacta")
    told = {key: event[key] for key in ("kind", "attacker", "target", "weapon")}  # Undo's label
    assert event_text(told, before=states[-2]) == "Elsa Wendt attacks Ungor Snitch: Bow"


def test_a_sheet_edit_names_its_field_and_a_setting_its_name_and_value(sheet):
    fight = Encounter("dark_heresy")
    tull = fight.add(sheet("dark_heresy", "Sergeant Varro Tull"))
    fight.edit_sheet(tull, damage=2)
    fight.set("enemy_wounds", "exact")
    assert lines(fight)[1:] == [
        "Sergeant Varro Tull's sheet edited: damage",
        "Setting enemy wounds the players see: exact",
    ]
    assert lines(fight, "es")[1:] == [
        "Hoja de Sergeant Varro Tull editada: damage",  # the sheet's field, as the data names it
        "Ajuste heridas enemigas que ven los jugadores: exactas",
    ]
    fight.set("skip_fallen", False)
    # a key no setting has any more, in a log written before: narrated as typed
    fight._append({"kind": "setting", "key": "darkness", "value": "deep", "visibility": "gm"})
    assert lines(fight, "es")[-2:] == [
        "Ajuste saltar los turnos de los caídos: no",
        "Ajuste darkness: deep",
    ]


# --- conditions by name ---------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_known_condition_of_every_game_shows_by_a_name_without_an_underscore(language):
    from gmkit.encounter._terms import condition_name, known_conditions
    from gmkit.messages import render

    shown = {
        (game, key): render(condition_name(game, key), language)
        for game in ("dark_heresy", "deathwatch", "wfrp2", "necromunda", "wfb6")
        for key in known_conditions(game)
    }
    assert len(shown) > 50
    assert [(key, text) for key, text in shown.items() if "_" in text or not text] == []
    named = {key: shown["wfrp2", key] for key in ("defensive_stance", "all_out_attack")}
    if language == "en":
        assert named == {"defensive_stance": "Defensive Stance", "all_out_attack": "All Out Attack"}
        assert shown["necromunda", "failed_charge"] == "failed charge"
        assert shown["wfrp2", "stunned"] == "stunned"  # kept by its English name: as it is
    else:
        assert named == {"defensive_stance": "Postura defensiva", "all_out_attack": "Ataque total"}
        assert shown["necromunda", "failed_charge"] == "carga fallida"


def test_a_wfrp_stance_reads_by_its_name_in_the_log_and_its_key_stays(sheet):
    fight = Encounter("wfrp2")
    elsa = fight.add(sheet("wfrp2", "Elsa Wendt"), ident="elsa")
    fight.add_condition(elsa, "defensive_stance", rounds=1)
    assert set(fight.combatant(elsa).conditions) == {"defensive_stance"}
    english, spanish = lines(fight)[-1], lines(fight, "es")[-1]
    assert "Defensive Stance" in english, english
    assert "Postura defensiva" in spanish, spanish
    assert "_" not in english + spanish


# --- every outcome a GM says aloud is in the line (issue 21, item 8) ----------------------


def _fight(sheet, game: str, names: tuple[str, ...], players: str) -> Encounter:
    fight = Encounter(game)
    for name in names:
        fight.add(sheet(game, name))
    fight.set("player_sides", [players])
    fight.set("enemy_wounds", "band")
    return fight


def _said(fight: Encounter) -> tuple[str, str, str, str]:
    """The last attack's line in the GM's log (the combat log's outcome), English and Spanish,
    and the players' line under the band, English and Spanish (as their page builds it)."""
    from gmkit.widgets._i18n import LANGUAGE
    from gmkit.widgets._player import public_log

    gm = [
        str(combat_log(fight.effective_events, fight._log.states, lang).iloc[-1]["outcome"])
        for lang in ("en", "es")
    ]
    players = []
    for language in ("en", "es"):
        LANGUAGE.value = language
        try:
            players.append(public_log(fight.effective_events, hidden=[], state=fight.state)[0])
        finally:
            LANGUAGE.value = "en"
    return gm[0], gm[1], players[0], players[1]


def test_a_pin_by_suppressing_fire_is_in_the_line(sheet):
    """004: suppressing fire pins on a failed Willpower test, hit or not (d100 18 misses at
    -20 with the heavy bolter's suppressing fire; Willpower 73: pinned)."""
    fight = _fight(sheet, "deathwatch", ("Brother Varek", "Nob Gritfang"), "Kill-team Aquila")
    fight.attack(
        "Brother Varek",
        "Astartes Heavy Bolter",
        "Nob Gritfang",
        EnteredDice([18, 73]),
        action="suppressing_fire",
        mode="suppressing",
        distance=20,
    )
    gm, gm_es, players, players_es = _said(fight)
    assert gm == (
        "Brother Varek fails to hit Nob Gritfang with Astartes Heavy Bolter; Nob Gritfang: pinned"
    )
    pinned = render(condition_name("deathwatch", "pinned"), "es").lower()
    assert gm_es.endswith(f"; Nob Gritfang: {pinned}")
    assert players == (
        "Brother Varek attacks Nob Gritfang with Astartes Heavy Bolter: misses; "
        "Nob Gritfang: pinned"
    )
    assert players_es.endswith(f": falla; Nob Gritfang: {pinned}")


def test_a_minion_s_death_is_in_the_line_and_the_players_read_hit_not_damage(sheet):
    """001's minion dies at the first critical damage (d100 18: hit, right leg; d10 10 + 3
    Energy against TB 3: 10 damage, Ban's 8 wounds gone; 98: no Righteous Fury)."""
    names = ("Sergeant Varro Tull", "Cultist Ban")
    fight = _fight(sheet, "dark_heresy", names, "Acolytes")
    fight.attack(
        "Sergeant Varro Tull", "Lasgun", "Cultist Ban", EnteredDice([18, 10, 98]), distance=10
    )
    gm, gm_es, players, players_es = _said(fight)
    assert (
        gm == "Sergeant Varro Tull hits Cultist Ban once with Lasgun: 10 damage; Cultist Ban: dead"
    )
    assert gm_es.endswith(": 10 de daño; Cultist Ban: muerto")
    assert players == "Sergeant Varro Tull attacks Cultist Ban with Lasgun: hits; Cultist Ban: dead"
    assert players_es.endswith(": impacta; Cultist Ban: muerto")
    assert not any(digit in players + players_es for digit in "0123456789")


def test_a_parried_blow_reads_parried_not_a_miss(sheet):
    """The target's parry (WS 35 +10, d100 12) stops Ilse's sword (d100 8: hit): the line says
    the parry, to the GM and to the players alike; a plain miss says "misses"."""
    names = ("Ilse Marr", "Demagogue Ostrava")
    fight = _fight(sheet, "dark_heresy", names, "Acolytes")
    fight.attack(
        "Ilse Marr",
        "Sword",
        "Demagogue Ostrava",
        EnteredDice([8, 12]),
        options={"reaction": "parry"},
    )
    gm, gm_es, players, players_es = _said(fight)
    assert (
        gm == players == "Ilse Marr attacks Demagogue Ostrava with Sword: Demagogue Ostrava parries"
    )
    assert gm_es == players_es
    assert gm_es.startswith("Ilse Marr ataca a Demagogue Ostrava con ")
    assert gm_es.endswith(": Demagogue Ostrava lo para")
    fight.attack("Ilse Marr", "Sword", "Demagogue Ostrava", EnteredDice([80]))
    gm, _gm_es, players, players_es = _said(fight)
    assert gm == "Ilse Marr fails to hit Demagogue Ostrava with Sword"
    assert players == "Ilse Marr attacks Demagogue Ostrava with Sword: misses"
    assert players_es.endswith(": falla")
