"""The player projection: hidden combatants absent, GM-only sheet fields and notes absent,
enemy wounds as the GM's ``enemy_wounds`` setting says; events about hidden combatants are the
GM's."""

from __future__ import annotations

import json

import pytest

from gmkit.encounter import Encounter, wound_band

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
