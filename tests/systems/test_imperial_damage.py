"""Damage in the 40k games: dice by dice, Righteous Fury, soak, cover (typed dice only)."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import GmkitError, RulesError
from gmkit.systems._imperial.damage import DamageRules, roll_damage
from gmkit.systems._imperial.damage_soak import Soak, toughness_bonus
from gmkit.systems._imperial.resolve import resolve_attack
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems.base import AttackRequest, Modifier

SINGLE = AttackSetup("BS", (), "single", rounds=1, jam_from=96)


# --- the worked example of 001 ---------------------------------------------------------------


def test_seed_001_worked_example_ten_minus_carapace_five_minus_tb_three_is_two():
    soak = Soak(damage=10, armour=5, toughness=3)
    assert soak.wounds == 2
    assert str(soak.explain()) == "10 damage - AP 5 - TB 3 = 2"


def test_seed_001_worked_example_through_a_whole_attack(acolyte):
    shooter = acolyte("Acolyte", weapons=["Laspistol"])
    heretic = acolyte("Heretic", armour_points={"right_leg": 5})  # T 35: TB 3; carapace greaves
    result = resolve_attack(
        AttackRequest(shooter, "Laspistol", heretic), EnteredDice([18, 8]), SINGLE
    )
    # 18 reversed is 81: right leg; 1d10 8 + 2 = 10; 10 - 5 - 3 = 2
    damage = [effect for effect in result.effects if effect.kind == "damage"]
    assert [(e.amount, e.location, e.damage_type) for e in damage] == [(2, "right_leg", "Energy")]
    assert any(str(step.detail) == "10 damage - AP 5 - TB 3 = 2" for step in result.steps)
    assert str(result.summary) == "Acolyte hits Heretic once with Laspistol: 2 damage"


# --- rolling damage --------------------------------------------------------------------------


def test_degrees_of_success_raise_the_lowest_die():
    assert roll_damage("1d10+4", EnteredDice([2]), "damage", degrees=3).total == 7
    assert roll_damage("1d10+4", EnteredDice([5]), "damage", degrees=3).total == 9
    rolled = roll_damage("2d10+5", EnteredDice([1, 8]), "damage", degrees=4)
    assert rolled.total == 4 + 8 + 5
    assert str(rolled.explain()) == "2d10+5: [1->4, 8] +5 = 17"


def test_degrees_of_success_never_lift_a_die_above_its_sides():
    assert roll_damage("1d10", EnteredDice([1]), "damage", degrees=12).total == 10


def test_tearing_rolls_one_more_die_and_drops_the_lowest_then_degrees_apply():
    rolled = roll_damage("2d10+5", EnteredDice([3, 9, 1]), "damage", degrees=4, tearing=True)
    assert [die.kept for die in rolled.dice] == [True, True, False]
    assert rolled.total == 4 + 9 + 5


def test_a_d5_is_a_d10_halved_rounding_up_and_its_ten_calls_fury():
    names = {"SB": 4}
    assert roll_damage("1d5-3+SB", EnteredDice([7]), "damage", names=names).total == 4 - 3 + 4
    ten = roll_damage("1d5-3+SB", EnteredDice([10]), "damage", names=names)
    assert (ten.total, ten.tens) == (5 - 3 + 4, 1)
    assert str(ten.dice[0].roll.purpose) == "damage (d10 halved for a d5)"


def test_a_d5_can_be_rolled_as_a_d5_when_the_rules_say_so():
    rules = DamageRules(d5_from_d10=False)
    rolled = roll_damage("1d5", EnteredDice([5]), "damage", rules=rules)
    assert (rolled.total, rolled.tens, rolled.dice[0].roll.sides) == (5, 0, 5)


def test_proven_extra_rolls_and_keep_highest():
    assert roll_damage("2d10", EnteredDice([1, 8]), "damage", proven=3).total == 11
    assert roll_damage("1d10+2", EnteredDice([4, 6]), "damage", extra_rolls=1).total == 12
    assert roll_damage("2d10kh1", EnteredDice([3, 8]), "damage").total == 8


def test_each_die_has_its_purpose():
    source = EnteredDice([4, 6])
    roll_damage("2d10", source, "damage (hit 1)")
    assert [str(roll.purpose) for roll in source.history] == [
        "damage (hit 1) die 1",
        "damage (hit 1) die 2",
    ]


def test_products_of_dice_are_refused():
    with pytest.raises(GmkitError, match="sum of dice"):
        roll_damage("2d10*2", EnteredDice([1, 1]), "damage")
    assert roll_damage("1d10+2*3", EnteredDice([1]), "damage").total == 7


def test_deathwatch_gives_degrees_to_the_first_hit_only_dark_heresy_to_none():
    deathwatch, dark_heresy = DamageRules.of("deathwatch"), DamageRules.of("dark_heresy")
    assert (deathwatch.degrees_for_hit(3, 1), deathwatch.degrees_for_hit(3, 2)) == (3, 0)
    assert DamageRules(True, "every").degrees_for_hit(3, 2) == 3
    assert dark_heresy.degrees_for_hit(3, 1) == 0


# --- soak -------------------------------------------------------------------------------------


def test_penetration_lowers_armour_never_below_zero():
    assert Soak(12, 6, 4, pen=4).wounds == 12 - 2 - 4
    assert str(Soak(12, 3, 4, pen=5).explain()) == "12 damage - AP 3 (Pen 5: 0) - TB 4 = 8"


def test_armour_counting_double_is_doubled_before_pen():
    assert Soak(8, 3, 3, armour_multiplier=2).wounds == 0
    assert Soak(12, 3, 3, pen=2, armour_multiplier=2).wounds == 12 - 4 - 3


def test_cover_soaks_first_and_wears_down_only_when_beaten():
    beaten = Soak(14, 4, 3, cover=8)
    assert (beaten.through_cover, beaten.cover_worn, beaten.wounds) == (6, True, 0)
    held = Soak(8, 0, 3, cover=8)
    assert (held.cover_worn, held.wounds) == (False, 0)
    assert Soak(20, 2, 3, cover=8).wounds == 20 - 8 - 2 - 3


def test_toughness_bonus_takes_the_unnatural_multiplier_less_felling(marine):
    brother = marine("Brother", chars={"T": 43}, unnatural={"T": 2})
    assert toughness_bonus(brother) == 8
    assert toughness_bonus(brother, felling=1) == 4
    assert toughness_bonus(brother, felling=5) == 4


def test_cover_in_an_attack_wears_down_a_point_per_beating_hit(acolyte):
    shooter = acolyte("Acolyte", weapons=["Lasgun"])
    target = acolyte("Heretic")
    setup = AttackSetup("BS", (Modifier("Semi-auto", 10),), "semi", max_hits=3, rounds=3,
                        jam_from=94)  # fmt: skip
    request = AttackRequest(shooter, "Lasgun", target, mode="semi", circumstances={"cover": 8})
    # 13 vs 50: 3 degrees -> 2 hits; 13 reversed 31: body, and body again (Multiple Hits)
    result = resolve_attack(request, EnteredDice([13, 9, 9]), setup)
    assert result.hits == 2
    cover = [effect for effect in result.effects if effect.kind == "cover"]
    assert [(e.amount, e.location) for e in cover] == [(1, "body"), (1, "body")]
    damage = [(e.amount, e.location) for e in result.effects if e.kind == "damage"]
    # 12 - cover 8 - TB 3 = 1; the cover is down to 7: 12 - 7 - 3 = 2
    assert damage == [(1, "body"), (2, "body")]


def test_cover_protects_only_the_covered_locations(acolyte):
    shooter = acolyte("Acolyte", weapons=["Lasgun"])
    target = acolyte("Heretic")
    options = {"covered_locations": ["body", "right_leg", "left_leg"]}
    request = AttackRequest(shooter, "Lasgun", target, circumstances={"cover": 8}, options=options)
    result = resolve_attack(request, EnteredDice([21, 9]), SINGLE)  # 21 -> 12: right arm
    assert [(e.amount, e.location) for e in result.effects if e.kind == "damage"] == [
        (9, "right_arm")
    ]
    assert not [effect for effect in result.effects if effect.kind == "cover"]


def test_cover_given_with_its_locations_stands_where_it_says(acolyte):
    shooter = acolyte("Acolyte", weapons=["Lasgun"])
    wall = {"cover": {"points": 6, "locations": ["arms"]}}  # a ledge hiding the arms only
    request = AttackRequest(shooter, "Lasgun", acolyte("Heretic"), circumstances=wall)
    result = resolve_attack(request, EnteredDice([21, 9]), SINGLE)  # 21 -> 12: right arm
    # 9 + 3 = 12 - cover 6 - TB 3 = 3; 12 beats the cover: it wears down by 1
    assert [(e.kind, e.amount, e.location) for e in result.effects if e.kind != "ammo"] == [
        ("cover", 1, "right_arm"),
        ("damage", 3, "right_arm"),
    ]
    soak = next(step for step in result.steps if str(step.title).startswith("Soak"))
    assert str(soak.detail) == "12 damage - cover 6 - AP 0 - TB 3 = 3"


def test_cover_stops_shots_not_blows(acolyte):
    swordsman = acolyte("Acolyte", weapons=["Sword"])
    request = AttackRequest(swordsman, "Sword", acolyte("Heretic"), circumstances={"cover": 8})
    melee = AttackSetup("WS", (), "melee")
    result = resolve_attack(request, EnteredDice([13, 9]), melee)  # 13 -> 31: body, covered
    assert [(e.kind, e.amount, e.location) for e in result.effects] == [
        ("damage", 9 + 3 - 3, "body")  # SB 3 added, TB 3: no cover in melee
    ]


# --- Righteous Fury ---------------------------------------------------------------------------


def test_dark_heresy_fury_adds_the_weapon_damage_again_each_time_confirmed(acolyte):
    shooter = acolyte("Acolyte", weapons=["Lasgun"])
    target = acolyte("Heretic", chars={"T": 30})
    # hit 21; damage 10 (Fury) -> confirm 30 -> damage 10 again (Fury) -> confirm 35 -> 4
    dice = EnteredDice([21, 10, 30, 10, 35, 4])
    result = resolve_attack(AttackRequest(shooter, "Lasgun", target), dice, SINGLE)
    damage = [effect.amount for effect in result.effects if effect.kind == "damage"]
    assert damage == [13 + 13 + 7 - 3]
    assert dice.pending == ()
    titles = [
        str(step.outcome) for step in result.steps if str(step.title).startswith("Righteous Fury")
    ]
    assert titles == ["confirmed", "+13 damage", "confirmed", "+7 damage"]


def test_an_unconfirmed_fury_adds_nothing(acolyte):
    shooter = acolyte("Acolyte", weapons=["Lasgun"])
    target = acolyte("Heretic", chars={"T": 30})
    result = resolve_attack(
        AttackRequest(shooter, "Lasgun", target), EnteredDice([21, 10, 55]), SINGLE
    )
    assert [effect.amount for effect in result.effects if effect.kind == "damage"] == [13 - 3]
    assert any(str(step.outcome) == "not confirmed" for step in result.steps)


def test_dark_heresy_house_rule_deals_1d5_critical_without_confirmation(acolyte):
    shooter = acolyte("Acolyte", weapons=["Lasgun"])
    target = acolyte("Heretic", chars={"T": 30})
    request = AttackRequest(shooter, "Lasgun", target, options={"righteous_fury_house_rule": True})
    result = resolve_attack(request, EnteredDice([21, 10, 3]), SINGLE)  # d5 3: no confirmation
    kinds = [(e.kind, e.amount, e.location) for e in result.effects if e.kind != "ammo"]
    assert kinds == [("critical", 3, "right_arm"), ("damage", 10, "right_arm")]


def test_deathwatch_fury_adds_a_die_and_keeps_going_on_tens_without_new_tests(marine):
    brother = marine("Castor", weapons=["Bolter"])
    target = marine("Traitor")
    setup = AttackSetup("BS", (), "single", rounds=1, jam_from=96)
    # 27 vs 47: 2 degrees; dice 10, 1 -> 1 reads 2; confirm 30; extra 10 (again), extra 3
    dice = EnteredDice([27, 10, 1, 30, 10, 3])
    result = resolve_attack(AttackRequest(brother, "Bolter", target), dice, setup)
    damage = [(e.amount, e.location) for e in result.effects if e.kind == "damage"]
    assert damage == [(10 + 2 + 5 + 10 + 3 - 4, "right_leg")]  # 72: right leg; TB 4, AP 0
    assert dice.pending == ()


def test_deathwatch_helpless_target_two_tens_confirm_without_a_test(marine):
    brother = marine("Castor", weapons=["Chainsword"])
    sleeper = marine("Sleeper")
    setup = AttackSetup("WS", (), "melee", auto_hit=True, extra_damage_dice=1)
    # location d100 50 -> 05: head; Tearing 1d10 -> 2 dice keep 1, rolled twice: 10, 2, 10, 1
    dice = EnteredDice([50, 10, 2, 10, 1, 4])
    result = resolve_attack(AttackRequest(brother, "Chainsword", sleeper), dice, setup)
    assert dice.pending == ()
    damage = [(e.amount, e.location) for e in result.effects if e.kind == "damage"]
    assert damage == [(10 + 10 + 2 + 4 + 4 - 4, "head")]  # + SB 4, + Fury die 4, - TB 4
    fury = [str(s.detail) for s in result.steps if str(s.title).startswith("Righteous Fury")]
    assert fury[0] == "2 natural 10s on a helpless target"


def test_deathwatch_has_no_fury_house_rule(marine):
    brother = marine("Castor", weapons=["Bolter"])
    target = marine("Traitor")
    # Deathwatch's options do not have Dark Heresy's house rule: the request is refused
    with pytest.raises(RulesError, match=r"'righteous_fury_house_rule': unknown option"):
        AttackRequest(brother, "Bolter", target, options={"righteous_fury_house_rule": True})
    setup = AttackSetup("BS", (), "single", rounds=1, jam_from=96)
    request = AttackRequest(brother, "Bolter", target)
    result = resolve_attack(request, EnteredDice([27, 10, 1, 80]), setup)  # 80: not confirmed
    assert [str(s.outcome) for s in result.steps if str(s.title).startswith("Righteous")] == [
        "not confirmed"
    ]
    assert not [effect for effect in result.effects if effect.kind == "critical"]
