"""Units on the table (WFB 6e, seed 003): set_unit, remove_unit, set_engaged, set_distance as
one event each (plain JSON, undoable, replayed from the store), their refusals by name, their
log lines in English and Spanish, and the table the encounter reads for a shot."""

from __future__ import annotations

import json

import pytest

from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.encounter._narration import event_text
from gmkit.encounter._state import Unit
from gmkit.encounter._table import unit_of
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.store import CampaignStore
from gmkit.systems.base import Effect
from gmkit.systems.wfb6._table import wfb6_table

BOSS = WFB6Character.build(name="Big Boss Gorbag", side="Night Goblins", T=4, W=2)
SHAMAN = WFB6Character.build(name="Shaman Snikkit", side="Night Goblins")


@pytest.fixture
def fight(demo_sheets) -> Encounter:
    models = {sheet.name: sheet for sheet in demo_sheets["wfb6"]}
    fight = Encounter("wfb6")
    fight.add(models["Night Goblin Archer"].edit(name="Skulkers"))
    fight.add(models["Grik the Boss"])
    fight.add(models["Captain Ottilie Hals"])
    fight.add(models["Swordsman"].edit(name="Reikland Swordsmen"))
    fight.add(models["Duellist Brandt"])
    fight.add(models["Father Anselm"])
    fight.add(BOSS)
    fight.add(SHAMAN)
    return fight


def test_a_new_unit_takes_its_trooper_characters_and_champions_from_the_sheets(fight):
    swordsmen = fight.set_unit("Reikland Swordsmen", rank_and_file=15)
    assert swordsmen == Unit(
        "Reikland Swordsmen",
        "Empire",
        rank_and_file=15,
        champions=1,  # Duellist Brandt's sheet names the unit
        troop_type="infantry",
        characters=("captain-ottilie-hals",),  # her sheet names it
        trooper="reikland-swordsmen",  # the combatant named as the unit
    )
    event = fight.events[-1]
    assert event["kind"] == "unit_set"
    assert json.loads(json.dumps(event)) == event  # plain JSON
    assert fight.state.units == {"Reikland Swordsmen": swordsmen}


def test_setting_a_unit_again_changes_only_what_is_given(fight):
    fight.set_unit("Skulkers", rank_and_file=19, characters=["big-boss-gorbag"])
    changed = fight.set_unit("Skulkers", visible=False, troop_type="swarm")
    assert (changed.rank_and_file, changed.champions, changed.characters) == (
        19,
        1,
        ("big-boss-gorbag",),
    )
    assert (changed.visible, changed.troop_type) == (False, "swarm")
    fight.undo()
    assert fight.state.units["Skulkers"].visible is True
    fight.redo()
    assert fight.state.units["Skulkers"].troop_type == "swarm"


def test_a_character_joins_one_unit_at_a_time(fight):
    fight.set_unit("Skulkers", rank_and_file=19, characters=["big-boss-gorbag"])
    fight.set_unit(
        "Spotters", side="Night Goblins", rank_and_file=2, characters=["Big Boss Gorbag"]
    )
    assert fight.state.units["Skulkers"].characters == ()
    assert fight.state.units["Spotters"].characters == ("big-boss-gorbag",)
    assert unit_of(fight.state, fight.combatant("big-boss-gorbag")).name == "Spotters"


def test_remove_unit_and_set_engaged(fight):
    fight.set_unit("Reikland Swordsmen", rank_and_file=15)
    fight.set_distance("Reikland Swordsmen", "father-anselm", 10)
    fight.set_engaged("Reikland Swordsmen")
    assert fight.state.units["Reikland Swordsmen"].engaged is True
    fight.set_engaged("Reikland Swordsmen", False)
    assert fight.state.units["Reikland Swordsmen"].engaged is False
    fight.remove_unit("Reikland Swordsmen")
    assert fight.state.units == {}
    assert fight.state.distances == {}  # its distances go with it
    fight.undo()
    assert fight.state.distance("father-anselm", "Reikland Swordsmen") == 10


def test_distances_are_symmetric_and_name_units_or_combatants(fight):
    fight.set_unit("Skulkers", rank_and_file=19)
    fight.set_distance("Father Anselm", "Skulkers", 35)  # a combatant by name
    assert fight.state.distances == {("Skulkers", "father-anselm"): 35.0}
    assert fight.distance_between("Skulkers", "father-anselm") == 35
    assert fight.distance_between("father-anselm", "Skulkers") == 35
    # Grik is in the Skulkers: measured from his unit when nothing is measured from him
    assert fight.distance_between("grik-the-boss", "Father Anselm") == 35
    fight.set_distance("skulkers", "father-anselm", 28)  # the trooper, by id
    assert fight.distance_between("Skulkers", "Father Anselm") == 35  # the unit's own first
    assert fight.distance_between("skulkers", "Father Anselm") == 28


@pytest.mark.parametrize(
    ("command", "match"),
    [
        (lambda f: f.set_unit("Skulkers", troop_type="goblins"), "no troop type 'goblins'"),
        (lambda f: f.set_unit("Skulkers", rank_and_file=-1), "not -1"),
        (lambda f: f.set_unit("Bats"), "unit Bats: give its side"),
        (lambda f: f.set_unit("  "), "a unit needs a name"),
        (
            lambda f: f.set_unit("Skulkers", characters=["grik-the-boss"]),
            "Grik the Boss is not a character",
        ),
        (lambda f: f.set_unit("Skulkers", trooper="father-anselm"), "Father Anselm is a character"),
        (lambda f: f.set_unit("Skulkers", characters=["nobody"]), "no one called 'nobody'"),
        (lambda f: f.remove_unit("Bats"), "no unit 'Bats' on the table; units: Skulkers"),
        (lambda f: f.set_engaged("Bats"), "no unit 'Bats'"),
        (lambda f: f.set_distance("Skulkers", "father-anselm", -5), "-5 is not a distance"),
        (lambda f: f.set_distance("Skulkers", "Bats", 5), "'Bats' is neither a unit"),
        (lambda f: f.set_distance("Skulkers", "Skulkers", 5), "Skulkers to itself"),
    ],
)
def test_refusals_are_named_and_change_nothing(fight, refused, command, match):
    fight.set_unit("Skulkers", rank_and_file=19)
    refused(fight, lambda: command(fight), match)


def test_no_unit_in_a_game_without_units(demo_sheets, refused):
    fight = Encounter("dark_heresy")
    refused(fight, lambda: fight.set_unit("Squad", side="Imperium"), "hold no units")


def test_log_lines_in_english_and_spanish(fight):
    fight.set_unit("Reikland Swordsmen", rank_and_file=15)
    fight.set_distance("Reikland Swordsmen", "father-anselm", 10)
    fight.set_engaged("Reikland Swordsmen")
    fight.remove_unit("Reikland Swordsmen")
    lines = [
        (event_text(e, "en", before=before, after=after), event_text(e, "es", after=after))
        for e, before, after in zip(
            fight.effective_events[-4:],
            fight._log.states[-5:-1],
            fight._log.states[-4:],
            strict=True,
        )
    ]
    assert lines == [
        (
            "Unit Reikland Swordsmen (Empire): 15 rank and file, 1 champion, infantry; "
            "joined by Captain Ottilie Hals",
            "Unidad Reikland Swordsmen (Empire): 15 miniaturas de tropa, 1 campeón, infantería; "
            "con Captain Ottilie Hals",
        ),
        (
            "Distance Reikland Swordsmen to Father Anselm: 10 cm",
            "Distancia de Reikland Swordsmen a Father Anselm: 10 cm",
        ),
        ("Reikland Swordsmen is engaged in combat", "Reikland Swordsmen queda trabada en combate"),
        (
            "Unit Reikland Swordsmen leaves the table",
            "La unidad Reikland Swordsmen sale de la mesa",
        ),
    ]


def test_the_units_replay_from_the_store(tmp_path, demo_sheets):
    path = tmp_path / "campaign.gmkit"
    models = {sheet.name: sheet for sheet in demo_sheets["wfb6"]}
    with CampaignStore(path, create=True) as store:
        fight = Encounter.create(store, "ford", "wfb6")
        fight.add(models["Swordsman"].edit(name="Reikland Swordsmen"))
        fight.add(models["Captain Ottilie Hals"])
        fight.add(models["Father Anselm"])
        fight.set_unit("Reikland Swordsmen", rank_and_file=15)
        fight.set_distance("Reikland Swordsmen", "father-anselm", 10)
        fight.set_engaged("Reikland Swordsmen")
    with CampaignStore(path, readonly=True) as reader:
        opened = Encounter.open(reader, "ford")
        assert opened.state == fight.state
        assert opened.state.units["Reikland Swordsmen"].characters == ("captain-ottilie-hals",)


def test_the_table_a_shot_reads(fight):
    fight.set_unit("Reikland Swordsmen", rank_and_file=15)
    fight.set_unit("Skulkers", rank_and_file=19)
    fight.set_distance("Reikland Swordsmen", "father-anselm", 10)
    fight.set_distance("Skulkers", "Reikland Swordsmen", 30)
    fight.set_distance("Skulkers", "father-anselm", 35)
    grik, anselm = fight.combatant("grik-the-boss"), fight.combatant("father-anselm")
    shooter, target, situation = wfb6_table(fight.state, grik, anselm)
    assert (shooter.unit, target.unit, situation.distance_cm) == ("Skulkers", "", 35)
    swordsmen = next(unit for unit in situation.units if unit.name == "Reikland Swordsmen")
    assert (swordsmen.distance_cm, swordsmen.shooter_distance_cm) == (10, 30)
    assert [c.name for c in swordsmen.characters] == ["Captain Ottilie Hals"]
    assert (swordsmen.trooper.name, swordsmen.troops) == ("Reikland Swordsmen", 16)
    # the GM joins the priest to the swordsmen: his sheet follows the table
    fight.set_unit("Reikland Swordsmen", characters=["captain-ottilie-hals", "father-anselm"])
    _, target, situation = wfb6_table(fight.state, grik, fight.combatant("father-anselm"))
    assert target.unit == "Reikland Swordsmen"
    # and the captain leaves it: alone, whatever her sheet says
    captain = fight.combatant("captain-ottilie-hals")
    fight.set_unit("Reikland Swordsmen", characters=["father-anselm"])
    _, target, _ = wfb6_table(fight.state, grik, captain)
    assert (captain.sheet.unit, target.unit) == ("Reikland Swordsmen", "")


def test_models_lost_are_counted_from_the_troopers_wounds(fight):
    fight.set_unit("Skulkers", rank_and_file=19)
    fight.apply_effects([Effect("damage", "Skulkers", amount=3)])
    shooter = fight.combatant("captain-ottilie-hals")
    skulkers = fight.combatant("skulkers")
    table = wfb6_table(fight.state, shooter, skulkers)[2]
    assert table.units[0].rank_and_file == 16
    fight.set_unit("Skulkers", rank_and_file=12)  # the GM counts again: losses from now on
    table = wfb6_table(fight.state, shooter, skulkers)[2]
    assert table.units[0].rank_and_file == 12


def test_hits_on_the_rank_and_file_fall_on_a_trooper_of_another_name(demo_sheets):
    models = {sheet.name: sheet for sheet in demo_sheets["wfb6"]}
    fight = Encounter("wfb6")
    archer = fight.add(models["Night Goblin Archer"])  # named "Night Goblin Archer"
    captain = fight.add(models["Captain Ottilie Hals"].edit(unit=""))
    fight.set_unit("Skulkers", trooper=archer, rank_and_file=19)
    fight.set_distance("Skulkers", captain, 45)
    fight.start()
    for _ in range(6):  # the goblins' turn, then the Empire's shooting
        fight.next_turn()
    shot = fight.attack(captain, "handgun", archer, EnteredDice([3, 3]))
    assert [(e.target, e.amount) for e in shot.effects] == [("Skulkers", 1)]
    assert fight.combatant(archer).counters == {"damage": 1}
    assert fight.units_frame().to_dict("records") == [
        {
            "unit": "Skulkers",
            "side": "Night Goblins",
            "troop type": "infantry",
            "rank and file": 18,
            "set": 19,
            "champions": 0,
            "characters": "",
            "trooper": "Night Goblin Archer",
            "engaged": False,
            "visible": True,
        }
    ]


def test_a_unit_or_distance_naming_a_hidden_combatant_is_the_gms(fight):
    ambusher = fight.add(
        WFB6Character.build(name="Snotling Lurker", side="Night Goblins"), hidden=True
    )
    fight.set_unit("Skulkers", rank_and_file=19)
    assert fight.events[-1]["visibility"] == "public"
    fight.set_unit("Skulkers", characters=[ambusher])
    fight.set_distance(ambusher, "father-anselm", 20)
    assert [event["visibility"] for event in fight.events[-2:]] == ["gm", "gm"]


def test_what_the_table_lacks_for_a_shot_is_asked_for_by_command(fight, refused):
    fight.set_unit("Reikland Swordsmen", rank_and_file=15)
    fight.set_unit("Skulkers", rank_and_file=19)
    fight.set_distance("Reikland Swordsmen", "father-anselm", 10)
    fight.start()
    fight.next_turn()
    fight.next_turn()
    dice = EnteredDice([6, 6, 1])
    shot = lambda: fight.attack("skulkers", "short bow", "father-anselm", dice)  # noqa: E731
    refused(
        fight,
        shot,
        r"Father Anselm is screened by Reikland Swordsmen: measure the distance from the "
        r"shooter to Father Anselm \(set_distance, or type it for the shot\)",
    )
    fight.set_distance("Skulkers", "father-anselm", 35)
    refused(fight, shot, "measure the distance from the shooter to Reikland Swordsmen")
    assert dice.pending == (6, 6, 1)  # no die was used


def test_a_unit_without_a_trooper_cannot_take_a_hit_on_its_rank_and_file(fight, refused):
    ball = {"name": "cannon ball", "range_cm": 150, "strength": 10, "special": ["cannon"]}
    fight.add(WFB6Character.build(name="Great Cannon", side="Empire", weapons=[ball]))
    fight.set_unit(
        "Wolf Pack", side="Night Goblins", rank_and_file=5, characters=["Big Boss Gorbag"]
    )
    fight.start()
    refused(
        fight,
        lambda: fight.attack("great-cannon", "cannon ball", "big-boss-gorbag", EnteredDice([4])),
        "Wolf Pack: name its trooper, the combatant whose sheet is its rank and file",
    )
