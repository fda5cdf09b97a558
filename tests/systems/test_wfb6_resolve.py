"""WFB 6e shooting resolution: targeting, to hit with the modifier catalog and the 7+ chart,
hits shared inside units, "Look out, Sir!" for templates, to wound, armour saves by Strength."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice, SeededDice
from gmkit.errors import GmkitError, RulesError
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.systems.base import AttackRequest
from gmkit.systems.wfb6 import Situation, UnitOnTable, resolve_attack, shot_modifiers

from ..shared.wfb6 import BOW, CROSSBOW, HANDGUN, REPEATER, ROCK, bretonnian

MISSILE = {
    "name": "fireball",
    "range_cm": 60,
    "strength": 4,
    "shots": 7,
    "special": ["magic missile"],
}
SHIELDED = [{"name": "light armour", "save": 6}, {"name": "shield", "improves": 1}]


def shooter(*weapons: dict, **fields) -> WFB6Character:
    fields.setdefault("BS", 3)
    return WFB6Character.build(
        name="Shooter",
        side="Orcs",
        role="rank and file",
        unit="Archers",
        weapons=list(weapons),
        **fields,
    )


SWORDSMAN = WFB6Character.build(
    name="Swordsman", side="Empire", role="rank and file", unit="Swordsmen", armour=SHIELDED
)
CAPTAIN = WFB6Character.build(
    name="Captain Hals", side="Empire", unit="Swordsmen", T=4, armour=[{"name": "plate", "save": 4}]
)
SWORDSMEN = UnitOnTable.of([SWORDSMAN, CAPTAIN], rank_and_file=15, shooter_distance_cm=30)


def shoot(attacker, weapon, target, dice, *, situation=None, **request):
    options = {"situation": situation} if situation else {}
    options |= request.pop("options", {})
    return resolve_attack(AttackRequest(attacker, weapon, target, options=options, **request), dice)


def test_multiple_shots_at_a_big_unit_to_hit_to_wound_and_save():
    dice = EnteredDice([5, 4, 6, 4, 2, 5])
    result = shoot(
        shooter(REPEATER), "repeater", SWORDSMAN, dice, situation=Situation((SWORDSMEN,))
    )
    titles = [str(step.title) for step in result.steps]
    assert titles == [
        "Target Swordsman",
        "To hit",
        "Hits on Swordsmen",
        "To wound Swordsmen (rank and file)",
        "Armour save Swordsmen (rank and file)",
    ]
    to_hit = result.steps[1]
    assert (to_hit.target, [m.value for m in to_hit.modifiers]) == (5, [-1])  # multiple shots
    assert [roll.value for roll in to_hit.rolls] == [5, 4, 6]
    assert result.hits == 2
    assert str(result.steps[2].outcome) == "2 on the rank and file"
    assert result.steps[3].target == 3  # S4 against T3
    assert str(result.steps[3].outcome) == "1 wound of 2 hits"
    assert result.steps[4].target == 6  # 5+ save, -1 for Strength 4
    assert [(e.kind, e.target, e.amount, str(e.note)) for e in result.effects] == [
        ("damage", "Swordsmen", 1, "Swordsmen (rank and file)")
    ]
    assert str(result.summary) == "2 hits; unsaved wounds: Swordsmen (rank and file) 1"
    assert dice.pending == ()


def test_armour_piercing_and_strength_can_leave_no_save():
    dice = EnteredDice([4, 3])
    result = shoot(shooter(HANDGUN), "handgun", SWORDSMAN, dice, distance=20)
    save = result.steps[-1]
    assert (str(save.title), str(save.outcome)) == ("Armour save Swordsman", "no save possible")
    assert [(str(m.source), m.value) for m in save.modifiers] == [
        ("Strength 4", -1),
        ("armour piercing", -1),
    ]
    assert result.effects[0].amount == 1
    assert dice.pending == ()


def test_seven_plus_chart_with_cover_and_moving():
    dice = EnteredDice([6, 5, 1])
    result = shoot(
        shooter(BOW, BS=2),
        "bow",
        SWORDSMAN,
        dice,
        distance=10,
        circumstances={"hard_cover": True, "moved": True},
    )
    to_hit = result.steps[1]
    assert to_hit.target == 8
    assert [roll.value for roll in to_hit.rolls] == [6, 5]
    assert result.hits == 1
    assert result.effects == ()  # the roll to wound was a 1


@pytest.mark.parametrize(
    ("distance", "circumstances", "values"),
    [
        (30, {}, []),
        (31, {}, [-1]),
        (50, {"long_range": False}, []),
        (10, {"long_range": True, "soft_cover": True}, [-1, -1]),
        (10, {"gm": 2, "stand_and_shoot": True, "hard_cover": False}, [2, -1]),
    ],
)
def test_shot_modifiers_from_the_catalog(distance, circumstances, values):
    found = shot_modifiers(
        WFB6Character.build(name="x", weapons=[BOW]).weapons[0], distance, circumstances
    )
    assert [m.value for m in found] == values


def test_unknown_or_automatic_circumstances_are_refused():
    weapon = WFB6Character.build(name="x", weapons=[BOW]).weapons[0]
    with pytest.raises(GmkitError, match="unknown circumstance 'fog'; known: long_range, moved"):
        shot_modifiers(weapon, 10, {"fog": True})
    with pytest.raises(GmkitError, match="unknown circumstance 'large_target'"):
        shot_modifiers(weapon, 10, {"large_target": True})
    with pytest.raises(GmkitError, match="takes true/false or a number"):
        shot_modifiers(weapon, 10, {"moved": "yes"})


def test_out_of_range_and_move_or_fire_roll_nothing():
    dice = EnteredDice()
    far = shoot(shooter(BOW), "bow", SWORDSMAN, dice, distance=61)
    assert (far.hits, str(far.steps[-1].outcome)) == (0, "out of range: every shot misses")
    moved = shoot(shooter(CROSSBOW), "crossbow", SWORDSMAN, dice, circumstances={"moved": True})
    assert str(moved.steps[-1].detail) == "the crossbow cannot fire after moving"
    assert (moved.hits, str(moved.summary), dice.history) == (0, "crossbow: no hit", [])


def test_a_screened_lone_character_is_refused_with_a_note_and_no_dice():
    priest = WFB6Character.build(name="Anselm", side="Empire")
    near = UnitOnTable(
        "Swordsmen", "Empire", rank_and_file=15, distance_cm=10, shooter_distance_cm=30
    )
    dice = EnteredDice([6])
    result = shoot(shooter(BOW), "bow", priest, dice, situation=Situation((near,)), distance=40)
    assert result.hits == 0
    assert [(e.kind, e.target) for e in result.effects] == [("note", "Anselm")]
    assert str(result.summary).startswith("Anselm may not be targeted: screened by Swordsmen")
    assert dice.pending == (6,)


def test_a_shooter_that_shoots_into_combat_may_target_an_engaged_character():
    priest = WFB6Character.build(name="Anselm", side="Empire", T=4)
    fighting = Situation(engaged=True, distance_cm=10)
    refused = shoot(shooter(BOW), "bow", priest, EnteredDice(), situation=fighting)
    assert str(refused.summary) == "Anselm may not be targeted: Anselm is engaged in combat"
    skaven = shooter(BOW, special_rules=["Shoots into combat"])
    result = shoot(skaven, "bow", priest, EnteredDice([5, 6]), situation=fighting)
    assert result.hits == 1  # 4+ with -1 for a lone infantry character: 5+
    assert [(e.target, e.amount) for e in result.effects] == [("Anselm", 1)]


def test_a_large_target_is_easier_to_hit():
    dragon = WFB6Character.build(
        name="Lord", side="Empire", troop_type="monster", mount="dragon", T=6
    )
    result = shoot(shooter(BOW), "bow", dragon, EnteredDice([3, 6]), distance=20)
    assert (result.steps[1].target, result.hits) == (3, 1)
    assert result.steps[2].target == 6  # S3 against T6
    assert result.effects[0].target == "Lord"


def test_the_seed_example_through_the_resolver_seven_magic_missile_hits():
    knight = bretonnian(
        armour=[
            {"name": "heavy armour", "save": 5},
            {"name": "shield", "improves": 1},
            {"name": "barding", "improves": 1},
        ],
    )
    lord = knight.edit(name="Lord", role="character", T=4, armour=[{"name": "plate", "save": 2}])
    paladin = lord.edit(name="Paladin", T=3)
    unit = UnitOnTable.of([knight, lord, paladin], rank_and_file=3, shooter_distance_cm=40)
    left_over = [4, 1]  # d5=4 the lord, d4=1 the first knight
    knight_1 = [3, 2, 4]  # 2 hits at 3+ (S4 v T3): 1 wound; save 4+ (3+ at -1): saved
    knight_2 = [6, 1]  # wounded, the save fails
    knight_3 = [1]  # no wound
    lord_dice = [4, 4, 3, 2]  # S4 v T4 4+: 2 wounds; saves 3+ (2+ at -1): one saved
    paladin_dice = [5, 6]  # wounded at 3+, saved
    dice = EnteredDice([*left_over, *knight_1, *knight_2, *knight_3, *lord_dice, *paladin_dice])
    result = shoot(shooter(MISSILE), "fireball", knight, dice, situation=Situation((unit,)))
    assert result.hits == 7
    assert str(result.steps[1].outcome) == "7 automatic hits"
    assert str(result.steps[2].outcome) == "1 on each model, 2 left over"
    assert [(e.target, e.amount, str(e.note)) for e in result.effects] == [
        ("Knights", 1, "Knights (rank and file 2)"),
        ("Lord", 1, ""),
    ]
    shown = [(str(s.title), str(s.outcome)) for s in result.steps]
    wound_steps = {title: outcome for title, outcome in shown if title.startswith("To wound")}
    assert wound_steps == {
        "To wound Knights (rank and file 1)": "1 wound of 2 hits",
        "To wound Knights (rank and file 2)": "1 wound of 1 hit",
        "To wound Knights (rank and file 3)": "0 wounds of 1 hit",
        "To wound Lord": "2 wounds of 2 hits",
        "To wound Paladin": "1 wound of 1 hit",
    }
    assert dice.pending == ()


def test_a_character_larger_than_its_unit_takes_the_shots_aimed_at_it():
    knight = WFB6Character.build(
        name="Sir Aldo", side="Empire", unit="Swordsmen", troop_type="cavalry", mount="horse", T=4
    )
    unit = UnitOnTable(
        "Swordsmen", "Empire", rank_and_file=20, characters=(knight,), trooper=SWORDSMAN
    )
    result = shoot(shooter(BOW), "bow", knight, EnteredDice([4, 5]), situation=Situation((unit,)))
    assert str(result.steps[2].outcome) == "1 on Sir Aldo"
    assert [(e.target, e.amount) for e in result.effects] == [("Sir Aldo", 1)]


def test_a_character_in_a_big_unit_cannot_be_shot_directly():
    result = shoot(shooter(BOW), "bow", CAPTAIN, EnteredDice(), situation=Situation((SWORDSMEN,)))
    assert result.effects[0].kind == "note"
    assert result.hits == 0


@pytest.mark.parametrize(
    ("dice", "target", "note"),
    [
        ([2, 5], "Swordsmen", "Swordsmen (rank and file)"),  # dodged; S8 leaves no save
        ([1, 5, 6], "Captain Hals", ""),  # taken: wound 2+; 4+ at -5, no save (the 6 stays)
    ],
)
def test_a_template_on_a_character_in_a_unit_look_out_sir(dice, target, note):
    entered = EnteredDice(dice)
    result = shoot(shooter(ROCK), "rock", CAPTAIN, entered, situation=Situation((SWORDSMEN,)))
    assert str(result.steps[0].detail).endswith(
        "targets a point on the table, not a model: no restriction"
    )
    assert str(result.steps[1].title) == "Template"
    assert str(result.steps[2].title) == '"Look out, Sir!" for Captain Hals'
    assert [(e.target, e.amount, str(e.note)) for e in result.effects] == [(target, 1, note)]
    assert entered.pending == tuple(dice[2:])


def test_a_template_on_a_champion_and_on_a_lone_character():
    champion = SWORDSMAN.edit(name="Brandt", role="champion")
    unit = UnitOnTable.of([SWORDSMAN, champion], rank_and_file=4)
    result = shoot(
        shooter(ROCK), "rock", champion, EnteredDice([3, 5]), situation=Situation((unit,))
    )
    assert [(e.target, str(e.note)) for e in result.effects] == [
        ("Swordsmen", "Swordsmen (rank and file)")
    ]
    lone = CAPTAIN.edit(unit="")
    result = shoot(shooter(ROCK), "rock", lone, EnteredDice([5]))
    assert [str(step.title) for step in result.steps] == [
        "Target Captain Hals",
        "Template",
        "To wound Captain Hals",
        "Armour save Captain Hals",
    ]
    assert [(e.target, e.amount) for e in result.effects] == [("Captain Hals", 1)]


def test_a_spell_that_says_so_allows_look_out_sir_through_options():
    spell = {"name": "curse", "range_cm": 60, "strength": 4, "special": ["spell"]}
    result = shoot(
        shooter(spell),
        "curse",
        CAPTAIN,
        EnteredDice([2, 6, 1]),
        situation=Situation((SWORDSMEN,)),
        mode="template_spell",
    )
    assert result.effects[0].target == "Swordsmen"


def test_seeded_dice_resolve_to_exact_numbers():
    dice = SeededDice(2024)
    result = shoot(shooter(REPEATER), "repeater", SWORDSMAN, dice, distance=40)
    assert [roll.value for roll in result.rolls] == [4, 2, 6, 5, 3]
    assert result.rolls == tuple(dice.history)
    assert result.steps[1].target == 6  # 4+, long range -1, multiple shots -1
    assert result.hits == 1
    assert result.steps[3].target == 6  # 5+ save at -1 for Strength 4; the 3 fails
    assert [(e.target, e.amount, str(e.note)) for e in result.effects] == [
        ("Swordsmen", 1, "Swordsman")
    ]


def test_wrong_sheets_and_weapons_are_refused():
    fighter = NecromundaFighter.build(name="Ganger")
    with pytest.raises(GmkitError, match="must be a Warhammer Fantasy Battle 6e sheet"):
        shoot(fighter, "bow", SWORDSMAN, EnteredDice())
    with pytest.raises(GmkitError, match="no weapon 'sling'"):
        shoot(shooter(BOW), "sling", SWORDSMAN, EnteredDice())
    with pytest.raises(GmkitError, match="not a missile weapon"):
        shoot(shooter({"name": "axe"}), "axe", SWORDSMAN, EnteredDice())
    with pytest.raises(RulesError, match="option 'situation': must be a Situation"):
        shoot(shooter(BOW), "bow", SWORDSMAN, EnteredDice(), options={"situation": "here"})
