"""The player projection: hidden combatants absent, GM-only sheet fields and notes absent,
enemy wounds as the GM's ``enemy_wounds`` setting says; events about hidden combatants are the
GM's."""

from __future__ import annotations

import json

import pytest

from gmkit.campaign import DEMO_FIGHTS, DemoFight
from gmkit.encounter import Encounter, wound_band
from gmkit.encounter._state import EncounterState, evolve
from gmkit.encounter._views import kept_hidden, player_view, public_events
from gmkit.widgets._player import player_html

SECRET = "the demagogue is a psyker"


def chapel(sheet) -> tuple[Encounter, dict[str, str]]:
    fight = Encounter("dark_heresy")
    ids = {
        "tull": fight.add(sheet("dark_heresy", "Sergeant Varro Tull", notes="owes the cult")),
        "ban": fight.add(sheet("dark_heresy", "Cultist Ban", notes="the informant")),
        "ostrava": fight.add(sheet("dark_heresy", "Demagogue Ostrava"), hidden=True),
    }
    fight.set("player_sides", ["Acolytes"])
    return fight, ids


def view_text(fight: Encounter) -> str:
    return json.dumps(fight.player_view(), ensure_ascii=False)


def test_hidden_combatants_and_secrets_are_absent(sheet):
    fight, ids = chapel(sheet)
    fight.note(SECRET)
    fight.set_initiative(ids["tull"], 12)
    fight.set_initiative(ids["ban"], 9)
    fight.set_initiative(ids["ostrava"], 3)
    fight.add_condition(ids["ostrava"], "warp sight", reminder="sees the hidden door")
    fight.start()
    view = fight.player_view()
    text = view_text(fight)
    assert "Ostrava" not in text
    assert "owes the cult" not in text
    assert "the informant" not in text
    assert SECRET not in text
    assert "warp sight" not in text
    assert view["order"] == ["Sergeant Varro Tull", "Cultist Ban"]
    assert view["current"] == "Sergeant Varro Tull"
    assert [c["name"] for c in view["combatants"]] == ["Sergeant Varro Tull", "Cultist Ban"]
    friendly, enemy = view["combatants"]
    assert "notes" not in friendly["sheet"]
    assert friendly["sheet"]["name"] == "Sergeant Varro Tull"
    assert friendly["sheet"]["characteristics"]["BS"] == 42
    assert enemy["sheet"] == {"name": "Cultist Ban"}  # no enemy profile


def test_gm_events_about_hidden_combatants(sheet):
    fight, ids = chapel(sheet)
    ostrava = ids["ostrava"]
    fight.add_condition(ostrava, "concealed")
    fight.rename(ostrava, "The Pale Prophet")
    fight.set_initiative(ostrava, 4)
    assert [e["visibility"] for e in fight.effective_events[-3:]] == ["gm"] * 3
    fight.reveal(ostrava)
    assert fight.effective_events[-1]["visibility"] == "public"
    fight.add_condition(ostrava, "exposed")
    assert fight.effective_events[-1]["visibility"] == "public"
    assert "The Pale Prophet" in view_text(fight)


@pytest.mark.parametrize(
    ("setting", "enemy", "friend"),
    [
        ("exact", "3/8", "8/13"),
        ("band", "bloodied", "8/13"),
        ("hidden", None, "8/13"),
    ],
)
def test_enemy_wounds_as_the_gm_sets(sheet, setting, enemy, friend):
    fight, ids = chapel(sheet)
    fight.edit_sheet(ids["ban"], damage=5)  # 3 of 8 left
    fight.edit_sheet(ids["tull"], damage=5)  # 8 of 13 left
    fight.set("enemy_wounds", setting)
    tull, ban = fight.player_view()["combatants"]
    assert tull["wounds"] == friend  # friends always see their own
    assert ban.get("wounds") == enemy
    if setting == "hidden":
        assert "wounds" not in ban


def test_band_is_the_default(sheet):
    fight, _ids = chapel(sheet)
    assert fight.player_view()["combatants"][1]["wounds"] == "unhurt"


def test_without_player_sides_everyone_is_an_enemy(demo_sheets):
    fight = Encounter("wfrp2")
    fight.add_many(demo_sheets["wfrp2"])
    fight.set("enemy_wounds", "hidden")
    view = fight.player_view()
    assert all(set(c) == {"name", "side", "conditions", "sheet"} for c in view["combatants"])
    assert all(c["sheet"] == {"name": c["name"]} for c in view["combatants"])


@pytest.mark.parametrize(
    ("left", "total", "band"),
    [
        (10, 10, "unhurt"),
        (12, 10, "unhurt"),
        (6, 10, "hurt"),
        (5, 10, "bloodied"),
        (1, 10, "bloodied"),
        (0, 10, "down"),
        (-3, 10, "down"),
        (0, 0, "unhurt"),
    ],
)
def test_wound_bands(left, total, band):
    assert wound_band(left, total) == band


def test_sides_games_show_d6_wounds_from_the_damage_counter(demo_sheets):
    fight = Encounter("wfb6")
    ident = fight.add(demo_sheets["wfb6"][0])  # Captain Ottilie Hals, W 2
    fight.set("enemy_wounds", "exact")
    assert fight.player_view()["combatants"][0]["wounds"] == "2/2"
    assert fight.state.combatant(ident).counters == {}


def test_a_horde_shows_its_magnitude(sheet):
    fight = Encounter("deathwatch")
    mob = sheet("deathwatch", "Ork Boyz mob")
    fight.add(mob.edit(horde=mob.horde.model_copy(update={"magnitude": 12})))
    fight.set("enemy_wounds", "exact")
    assert fight.player_view()["combatants"][0]["wounds"] == "12/30"
    fight.set("enemy_wounds", "band")
    assert fight.player_view()["combatants"][0]["wounds"] == "bloodied"


# --- a hidden combatant's turn: "an enemy acts" --------------------------------------------

HIDING = [fight for fight in DEMO_FIGHTS if fight.hidden]


def demo_fight(demo_sheets, fight: DemoFight) -> Encounter:
    """The demo's encounter of ``fight.game``, prepared as the demo does, started: initiative
    typed in roster order (the first highest), so every run is the same."""
    encounter = Encounter(fight.game)
    sheets = demo_sheets[fight.game]
    for sheet in sheets:
        encounter.add(sheet, hidden=sheet.name in fight.hidden)
    encounter.set("player_sides", list(fight.player_sides))
    if not encounter.state.sides:
        for number, sheet in enumerate(sheets):
            encounter.set_initiative(encounter.combatant(sheet.name).id, 30 - number)
    encounter.start()
    return encounter


def at_hidden_turn(fight: Encounter, name: str) -> EncounterState:
    """The state at the turn of ``name``, still hidden (in a sides game: its side's turn)."""
    state = fight.state
    hidden = fight.combatant(name)
    if state.sides:
        return evolve(state, turn=state.sides.index(hidden.side))
    turn = state.order.index(hidden.id)
    return evolve(state, turn=turn).with_combatant(evolve(hidden, hidden=True))


@pytest.mark.parametrize("fight", HIDING, ids=[f.game for f in HIDING])
def test_a_hidden_combatant_s_turn_is_an_enemy_acting(demo_sheets, fight):
    encounter = demo_fight(demo_sheets, fight)
    (name,) = fight.hidden
    state = at_hidden_turn(encounter, name)
    hidden = encounter.combatant(name)
    for language, acts in (("en", "An enemy acts"), ("es", "Actúa un enemigo")):
        view = player_view(state, language=language)
        text = json.dumps(view, ensure_ascii=False)
        header, table = player_html(view, language)
        for shown in (text, header, table):
            assert name not in shown
            assert hidden.id not in shown
        assert name not in json.dumps(public_events(encounter.effective_events))
        if state.sides:  # a side's turn: the side is no secret, nor is "an enemy"
            assert view["current"] is None
            assert view["hidden_turn"] is False
            assert view["current_side"] == hidden.side
            assert f"<span class='gmkit-now'>{hidden.side}</span>" in header
            continue
        assert view["current"] is None
        assert view["hidden_turn"] is True
        assert acts in header
        assert "gmkit-current" not in table  # no visible row is taken for the one acting
        assert hidden.side not in header  # not even its side


def test_the_turn_of_a_revealed_combatant_names_it(demo_sheets):
    encounter = demo_fight(demo_sheets, DEMO_FIGHTS[0])
    state = at_hidden_turn(encounter, "Demagogue Ostrava")
    revealed = state.with_combatant(evolve(state.combatant("demagogue-ostrava"), hidden=False))
    view = player_view(revealed)
    assert view["current"] == "Demagogue Ostrava"
    assert view["hidden_turn"] is False
    header, _table = player_html(view, "en")
    assert "Turn: <span class='gmkit-now'>Demagogue Ostrava</span>" in header
    assert "An enemy acts" not in header


def test_the_fold_keeps_a_hidden_combatant_hidden_on_its_turn(demo_sheets):
    encounter = demo_fight(demo_sheets, DEMO_FIGHTS[0])
    while encounter.state.current.name != "Demagogue Ostrava":
        encounter.next_turn()
    view = encounter.player_view()
    assert "Ostrava" not in json.dumps(view)
    assert view["hidden_turn"] is True
    encounter.reveal("Demagogue Ostrava")
    assert encounter.player_view()["current"] == "Demagogue Ostrava"


def test_public_events_hold_no_id_of_a_hidden_combatant(sheet):
    fight, ids = chapel(sheet)
    fight.set_initiative(ids["tull"], 12)
    fight.set_initiative(ids["ban"], 9)
    fight.set_initiative(ids["ostrava"], 3)
    fight.start(surprised=[ids["ostrava"]])
    started = fight.effective_events[-1]
    assert ids["ostrava"] in started["order"]  # the GM's log keeps the whole order
    assert started["visibility"] == "public"
    shown = public_events(fight.effective_events)
    assert ids["ostrava"] not in json.dumps(shown)
    assert shown[-1]["order"] == [ids["tull"], ids["ban"]]
    assert shown[-1]["surprised"] == []
    fight.reveal(ids["ostrava"])
    shown = public_events(fight.effective_events)  # revealed: the events say so from now on
    assert shown[-1] == {"kind": "revealed", "id": ids["ostrava"], "visibility": "public"}
    assert public_events(fight.effective_events, hidden=[])[-2]["order"] == [
        ids["tull"],
        ids["ban"],
        ids["ostrava"],
    ]


def test_an_event_naming_a_hidden_combatant_is_left_out_even_when_public():
    events = (
        {"kind": "added", "id": "x", "hidden": True, "visibility": "gm"},
        {"kind": "effects", "effects": [{"target": "x", "kind": "damage"}], "summary": "s"},
        {"kind": "attack", "attacker": "a", "target": "b", "summary": "A hits B"},
        {"kind": "undo"},
    )
    assert kept_hidden(events) == {"x"}
    assert public_events(events) == [events[2]]
    assert public_events(events, hidden=[]) == [events[1], events[2]]


# --- conditions by name -------------------------------------------------------------------


def conditions_of(fight: Encounter, name: str, language: str) -> list[str]:
    view = player_view(fight.state, language=language)
    return next(c["conditions"] for c in view["combatants"] if c["name"] == name)


def test_wfrp_conditions_show_by_name_with_their_rounds(sheet):
    fight = Encounter("wfrp2")
    fight.add(sheet("wfrp2", "Gunther Brandauer"))
    fight.add(sheet("wfrp2", "Elsa Wendt"))
    fight.add_condition("Gunther Brandauer", "all_out_attack", rounds=1)
    fight.add_condition("Elsa Wendt", "defensive_stance", rounds=2)
    fight.add_condition("Elsa Wendt", "delayed_half_action")
    assert conditions_of(fight, "Gunther Brandauer", "en") == ["All Out Attack (1 round)"]
    assert conditions_of(fight, "Gunther Brandauer", "es") == ["Ataque total (1 asalto)"]
    assert conditions_of(fight, "Elsa Wendt", "en") == [
        "Defensive Stance (2 rounds)",
        "Delayed Half Action",
    ]
    assert conditions_of(fight, "Elsa Wendt", "es") == [
        "Postura defensiva (2 asaltos)",
        "Media acción en reserva",
    ]
    for language in ("en", "es"):
        _header, table = player_html(player_view(fight.state, language=language), language)
        assert "all_out_attack" not in table
        assert "defensive_stance" not in table
    assert "Ataque total (1 asalto)" in table


def test_40k_conditions_show_by_name_with_their_rounds(sheet):
    fight = Encounter("dark_heresy")
    fight.add(sheet("dark_heresy", "Cultist Ban"))
    fight.add_condition("Cultist Ban", "stunned", rounds=2)
    fight.add_condition("Cultist Ban", "on_fire")
    assert conditions_of(fight, "Cultist Ban", "en") == ["On fire", "Stunned (2 rounds)"]
    assert conditions_of(fight, "Cultist Ban", "es") == ["En llamas", "Aturdido (2 asaltos)"]


def test_a_sides_game_counts_a_condition_in_turns(sheet):
    fight = Encounter("necromunda")
    fight.add(sheet("necromunda", "Mordecai"))
    fight.add_condition("Mordecai", "pinned", rounds=1)
    assert conditions_of(fight, "Mordecai", "en") == ["pinned (1 turn)"]
    assert conditions_of(fight, "Mordecai", "es")[0].endswith(" (1 turno)")
    _header, table = player_html(player_view(fight.state), "en")
    assert "Pinned (1 turn)" in table  # a name begins in capitals on the page
