"""A WFB 6e fight through the Encounter with the table in it (seed 003, centimetres): units and
distances set by command, so no shot needs a situation typed by hand. A shot at a lone
character screened by a friendly unit (refused as not the closest legal target, then allowed
once the unit is engaged), hits shared at random in a unit of fewer than 5, a cannon ball on a
character in a big unit with "Look out, Sir!", and a unit change taken back. Every die is
typed (EnteredDice); the phases are the seed's shooting phase (movement is not covered)."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.games import health
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.systems.wfb6._table import wfb6_table

BOSS = WFB6Character.build(name="Big Boss Gorbag", side="Night Goblins", T=4, W=2)
SHAMAN = WFB6Character.build(name="Shaman Snikkit", side="Night Goblins", T=3, W=1)
REPEATER = {"name": "repeater handgun", "range_cm": 60, "strength": 4, "shots": 3}
ENGINEER = WFB6Character.build(name="Engineer Voss", side="Empire", BS=4, weapons=[REPEATER])
BALL = {"name": "cannon ball", "range_cm": 150, "strength": 10, "special": ["cannon"]}
CANNON = WFB6Character.build(
    name="Great Cannon",
    side="Empire",
    role="rank and file",
    unit="Great Cannon",
    troop_type="war_machine",
    T=7,
    W=3,
    weapons=[BALL],
)


def steps(result) -> list[str]:
    return [str(step) for step in result.steps]


def left(fight: Encounter, ident: str) -> int:
    combatant = fight.combatant(ident)
    return health(combatant.sheet, combatant.counters)[0]


def rank_and_file(fight: Encounter, unit: str) -> int:
    anyone = fight.combatant("engineer-voss")
    table = wfb6_table(fight.state, anyone, anyone)[2]
    return next(found.rank_and_file for found in table.units if found.name == unit)


@pytest.fixture
def fight(demo_sheets) -> Encounter:
    models = {sheet.name: sheet for sheet in demo_sheets["wfb6"]}
    fight = Encounter("wfb6")
    fight.add(models["Night Goblin Archer"].edit(name="Skulkers"))
    fight.add(models["Grik the Boss"])
    fight.add(BOSS)
    fight.add(models["Night Goblin Archer"].edit(name="Spotters", unit="Spotters"))
    fight.add(SHAMAN)
    fight.add(models["Captain Ottilie Hals"])
    fight.add(models["Swordsman"].edit(name="Reikland Swordsmen"))
    fight.add(models["Duellist Brandt"])
    fight.add(models["Father Anselm"])
    fight.add(ENGINEER)
    fight.add(CANNON)
    # the table: two goblin units with their characters, the swordsmen with their captain
    fight.set_unit("Skulkers", rank_and_file=19, characters=["big-boss-gorbag"])
    fight.set_unit("Spotters", rank_and_file=2, characters=["shaman-snikkit"])
    fight.set_unit("Reikland Swordsmen", rank_and_file=15)
    fight.set_distance("Father Anselm", "Reikland Swordsmen", 10)
    fight.set_distance("Skulkers", "Reikland Swordsmen", 30)
    fight.set_distance("Skulkers", "Father Anselm", 35)
    fight.set_distance("Engineer Voss", "Spotters", 25)
    fight.set_distance("Great Cannon", "Skulkers", 80)
    fight.start()
    return fight


def test_units_and_distances_on_the_table_decide_every_shot(fight, refused):
    assert fight.state.sides == ("Night Goblins", "Empire")
    assert fight.phase == "movement"
    refused(fight, lambda: fight.spend("skulkers", "move"), "no movement rules")
    fight.next_turn()
    fight.next_turn()
    assert (fight.state.current_side, fight.phase) == ("Night Goblins", "shooting")

    # --- a lone character near a friendly unit: only as the closest legal target ----------
    screened = fight.attack("skulkers", "short bow", "father-anselm", EnteredDice([]))
    assert str(screened.summary) == (
        "Father Anselm may not be targeted: screened by Reikland Swordsmen, not the closest "
        "legal target: Father Anselm at 35 cm, Reikland Swordsmen at 30 cm"
    )
    assert [effect.kind for effect in screened.effects] == ["note"]
    assert left(fight, "father-anselm") == 2

    # the swordsmen are caught in combat: no longer a legal target, the priest is the closest
    fight.set_engaged("Reikland Swordsmen")
    arrow = fight.attack("grik-the-boss", "short bow", "father-anselm", EnteredDice([6, 5, 1]))
    assert steps(arrow) == [
        "Target Father Anselm: may be targeted (screened by Reikland Swordsmen but no other "
        "legal target there: it is the closest)",
        "To hit: 1 hit of 1 shot (BS 3 needs 6+ [Lone infantry character -1, Long range -1]: "
        "6 against 6+: success)",
        "To wound Father Anselm: 1 wound of 1 hit (S 3 against T 4 needs 5+: 5 against 5+: "
        "success)",
        "Armour save Father Anselm: 0 of 1 saved (5+ [no modifier]: a 1 always fails)",
    ]
    assert left(fight, "father-anselm") == 1
    fight.set_engaged("Reikland Swordsmen", False)

    for _ in range(4):  # close combat; the Empire's movement, magic, shooting
        fight.next_turn()
    assert (fight.state.current_side, fight.phase) == ("Empire", "shooting")

    # --- hits on a unit of fewer than 5: shared, the left-over ones at random (typed d3, d2) -
    volley = fight.attack(
        "engineer-voss", "repeater handgun", "spotters", EnteredDice([5, 2, 6, 3, 1, 4, 5])
    )
    assert steps(volley)[2:] == [
        "Hits on Spotters: 0 on each model, 2 left over (2 rank-and-file models (< 5): 2 hits "
        "shared among 3 models, 0 each, 2 at random among all of them)",
        "Left-over hit 1: on Shaman Snikkit (d3=3 among 1=Spotters (rank and file 1), "
        "2=Spotters (rank and file 2), 3=Shaman Snikkit)",
        "Left-over hit 2: on Spotters (rank and file 1) (d2=1 among 1=Spotters (rank and "
        "file 1), 2=Spotters (rank and file 2))",
        "To wound Spotters (rank and file 1): 1 wound of 1 hit (S 4 against T 3 needs 3+: 4 "
        "against 3+: success)",
        "To wound Shaman Snikkit: 1 wound of 1 hit (S 4 against T 3 needs 3+: 5 against 3+: "
        "success)",
    ]
    assert left(fight, "shaman-snikkit") == 0
    assert rank_and_file(fight, "Spotters") == 1  # one goblin fell: the trooper's wound
    fight.set_distance("Engineer Voss", "Spotters", 25)  # (measured again: the same)
    table = wfb6_table(fight.state, fight.combatant("engineer-voss"), fight.combatant("spotters"))
    spotters = next(unit for unit in table[2].units if unit.name == "Spotters")
    assert (spotters.models, spotters.characters) == (1, ())  # the shaman no longer counts

    # --- a cannon ball on a character in a big unit: "Look out, Sir!" on a typed D6 ---------
    ball = fight.attack("great-cannon", "cannon ball", "big-boss-gorbag", EnteredDice([4, 3]))
    assert steps(ball) == [
        "Target Big Boss Gorbag: may be targeted (a cannon targets a point on the table, not a "
        "model: no restriction)",
        "Template: Big Boss Gorbag is under the template (placement, scatter and other models "
        "under it are the GM's)",
        '"Look out, Sir!" for Big Boss Gorbag: dodged: a rank-and-file model of Skulkers takes '
        "the hit (20 models of its size or larger in Skulkers; 4 against 2+: success; the hit "
        "goes to the rank and file even beyond the unit's number of models)",
        "To wound Skulkers (rank and file): 1 wound of 1 hit (S 10 against T 3 needs 2+: 3 "
        "against 2+: success)",
    ]
    assert left(fight, "big-boss-gorbag") == 2
    assert fight.combatant("skulkers").counters == {"damage": 1}
    assert rank_and_file(fight, "Skulkers") == 18
    # the GM takes it back and rolls at the table: a 1, the boss does not hear the warning
    fight.undo()
    ball = fight.attack("great-cannon", "cannon ball", "big-boss-gorbag", EnteredDice([1, 3]))
    assert steps(ball)[2] == (
        '"Look out, Sir!" for Big Boss Gorbag: failed: it takes the hit (20 models of its size '
        "or larger in Skulkers; a 1 always fails)"
    )
    assert [(e.target, e.amount) for e in ball.effects] == [("Big Boss Gorbag", 1)]
    assert left(fight, "big-boss-gorbag") == 1
    assert rank_and_file(fight, "Skulkers") == 19

    # --- a unit change taken back --------------------------------------------------------------
    before = fight.state
    fight.set_unit("Skulkers", rank_and_file=4)  # a slip of the GM's
    assert rank_and_file(fight, "Skulkers") == 4
    assert fight.undo() == before
    assert rank_and_file(fight, "Skulkers") == 19
    log = fight.log_frame()
    assert list(log["kind"]).count("unit_set") == 3
    assert list(log["kind"]).count("unit_engaged") == 2


def test_a_distance_typed_for_the_shot_and_a_situation_given_win(fight):
    from gmkit.systems.wfb6 import Situation

    for _ in range(2):
        fight.next_turn()
    # the GM measures 28 cm for this shot: the priest is now closer than the swordsmen
    arrow = fight.attack(
        "skulkers", "short bow", "father-anselm", EnteredDice([6, 6, 1]), distance=28
    )
    assert steps(arrow)[0] == (
        "Target Father Anselm: may be targeted (screened by Reikland Swordsmen but the closest "
        "legal target: Father Anselm at 28 cm, Reikland Swordsmen at 30 cm)"
    )
    # a situation given by hand is taken as it is: the table is not read
    alone = fight.attack(
        "skulkers",
        "short bow",
        "father-anselm",
        EnteredDice([6, 6, 1]),
        options={"situation": Situation(distance_cm=15)},
    )
    assert str(alone.steps[0].detail).startswith("no friendly unit of 5+ models")
    assert [str(m) for m in alone.steps[1].modifiers] == ["Lone infantry character -1"]


def test_the_panels_options_still_apply_with_the_table(fight):
    for _ in range(2):
        fight.next_turn()
    # the GM lets the screened priest be shot anyway: the refusal stays in the steps
    allowed = fight.attack(
        "skulkers",
        "short bow",
        "father-anselm",
        EnteredDice([6, 6, 1]),
        options={"gm_allows_shot": True},
    )
    assert [str(step.outcome) for step in allowed.steps[:2]] == [
        "may not be targeted",
        "allowed by the GM",
    ]
    assert [(e.target, e.amount) for e in allowed.effects] == [("Father Anselm", 1)]
