"""Hordes (Deathwatch, seed 004): hits by weapon, magnitude, breaking; typed dice only."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.sheets._deathwatch import HORDE_RULES, DeathwatchCharacter, Weapon
from gmkit.systems._imperial import hordes
from gmkit.systems._imperial.resolve import resolve_attack
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems.base import AttackRequest

RULES = hordes.horde_rules()


@pytest.fixture(scope="session")
def armed(weapon):
    """An armoury weapon as the sheets validate it: ``armed("Flamer", range=10)``."""
    return lambda name, **changes: Weapon.model_validate(weapon(name, **changes))


@pytest.fixture(scope="session")
def mob(marine):
    def make(magnitude: int = 30, armour: int = 0) -> DeathwatchCharacter:
        horde = {"magnitude_max": 30, "magnitude": magnitude, "armour": armour}
        return marine("Ork mob", wounds=12, tier="troop", horde=horde)

    return make


@pytest.fixture(scope="session")
def brother(marine):
    return marine("Castor", ["Bolter", "Lasgun", "Power Sword", "Frag Grenade", "Flamer"])


def test_the_packaged_rules_are_the_sheets_defaults():
    assert RULES == HORDE_RULES


def test_blast_hits_a_horde_as_many_times_as_its_blast(armed):
    found = hordes.horde_hits(armed("Frag Grenade"), False, 3, 1, EnteredDice([]), RULES)
    assert (found.hits, str(found.reason)) == (4, "Blast(4): 4 hits")


def test_flame_hits_a_quarter_of_its_range_rounded_up_plus_1d5(armed):
    found = hordes.horde_hits(armed("Flamer"), False, 0, 1, EnteredDice([3]), RULES)
    assert found.hits == 5 + 3
    odd = armed("Flamer", range=10)
    assert hordes.horde_hits(odd, False, 0, 1, EnteredDice([1]), RULES).hits == 3 + 1


def test_melee_one_more_hit_per_two_degrees_and_one_for_a_power_field(armed):
    found = hordes.horde_hits(armed("Power Sword"), True, 5, 1, EnteredDice([]), RULES)
    assert found.hits == 1 + 2 + 1


def test_ranged_fire_keeps_its_own_hits_and_explosive_damage_adds_one(armed):
    assert hordes.horde_hits(armed("Lasgun"), False, 4, 3, EnteredDice([]), RULES).hits == 3
    assert hordes.explosive_extra_hits(armed("Bolter"), RULES) == 1
    assert hordes.explosive_extra_hits(armed("Lasgun"), RULES) == 0


def test_psychic_powers_hit_per_psy_rating_and_1d10_more_for_an_area():
    assert hordes.psychic_hits(3, False, EnteredDice([]), RULES).hits == 3
    area = hordes.psychic_hits(3, True, EnteredDice([7]), RULES)
    assert (area.hits, len(area.rolls)) == (10, 1)


def test_magnitude_loss_is_one_per_damaging_hit():
    assert hordes.magnitude_loss(5, RULES) == 5


@pytest.mark.parametrize(
    ("magnitude", "lost", "test", "modifier", "broken"),
    [
        (26, 4, False, 0, False),  # 4 of 30 is under 25 %
        (22, 8, True, 0, False),  # 8 of 30 is 25 % or more: a Willpower test
        (14, 2, False, -10, False),  # under half: -10 to its tests
        (14, 8, True, -10, False),
        (7, 1, False, 0, True),  # under a quarter: it breaks
    ],
)
def test_break_checks(magnitude, lost, test, modifier, broken):
    check = hordes.break_check(30, magnitude, lost, RULES)
    assert (check.test_needed, check.willpower_modifier, check.broken) == (test, modifier, broken)


def test_fearless_hordes_never_break():
    assert not hordes.break_check(30, 2, 20, RULES, fearless=True).broken


def test_the_break_test_rolls_willpower_with_its_penalty():
    check = hordes.break_check(30, 14, 8, RULES)
    test, step, fled = hordes.break_test("Ork mob", 30, check, EnteredDice([25]))
    assert test is not None
    assert test.target == 20
    assert str(step.outcome) == "broken"
    assert [(e.kind, e.condition) for e in fled] == [("condition", "broken")]
    held = hordes.break_test("Ork mob", 30, check, EnteredDice([15]))
    assert (str(held[1].outcome), held[2]) == ("holds", ())
    routed = hordes.break_test("Ork mob", 30, hordes.break_check(30, 5, 1, RULES), EnteredDice([]))
    assert routed[0] is None
    assert str(routed[1].outcome) == "broken"


# --- through an attack ------------------------------------------------------------------------


def test_melee_on_a_horde_has_no_locations_and_loses_magnitude_per_damaging_hit(brother, mob):
    # the set-up holds the horde's size bonus (modifiers.attack_setup adds it: one set-up for the
    # preview and the roll); a hand-made one names it
    size = hordes.size_bonus(30, RULES)
    assert size is not None
    assert size.value == 10
    setup = AttackSetup("WS", (size,), "melee")
    # 4 vs 44: 4 degrees -> 1 + 2 + Power Field 1 = 4 hits; 1d10+5+SB 4 each, AP 2 (Pen 6), TB 4:
    # the least roll (a 1, or the degrees as its minimum) still deals damage, so none is asked
    dice = EnteredDice([4])
    result = resolve_attack(AttackRequest(brother, "Power Sword", mob(armour=2)), dice, setup)
    assert dice.pending == ()
    assert result.hits == 4
    assert [(e.kind, e.amount) for e in result.effects] == [("magnitude", 4)]
    damage = [str(step.outcome) for step in result.steps if str(step.title).startswith("Damage")]
    least = "not rolled: any roll deals damage (at least {} after armour and Toughness)"
    # 4 against 44 + 10 for the horde's size: 5 degrees; the first hit's die reads at least 5
    # (004): 5 + 5 + SB 4 - TB 4 = 10; the rest 1 + 5 + 4 - 4 = 6 (AP 2 pierced by Pen 6)
    assert damage == [least.format(10), *[least.format(6)] * 3]
    assert not any(str(step.title) == "Hit location" for step in result.steps)
    assert str(result.summary) == "Castor hits Ork mob 4 times with Power Sword: magnitude -4"


def test_hits_that_deal_no_damage_cost_no_magnitude(brother, mob):
    setup = AttackSetup("BS", (), "single", rounds=1, jam_from=96)
    # 10 + 3 = 13 (its 10 calls Fury; 80 fails to confirm) against armour 10 and TB 4: nothing
    result = resolve_attack(
        AttackRequest(brother, "Lasgun", mob(armour=10)), EnteredDice([30, 10, 80]), setup
    )
    assert result.hits == 1
    assert not [effect for effect in result.effects if effect.kind == "magnitude"]
    assert str(result.summary) == "Castor hits Ork mob once with Lasgun: no magnitude lost"


def test_a_grenade_hits_four_times_and_explodes_once_more(brother, mob):
    setup = AttackSetup("BS", (), "single")
    dice = EnteredDice([30, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5])  # 2d10 each: 15 - TB 4 = 11
    result = resolve_attack(AttackRequest(brother, "Frag Grenade", mob()), dice, setup)
    assert dice.pending == ()
    assert result.hits == 5
    assert [(e.kind, e.amount) for e in result.effects] == [("magnitude", 5)]


def test_hordes_do_not_dodge_unless_the_gm_allows_it(brother, mob):
    setup = AttackSetup("BS", (), "single", rounds=1, jam_from=96)
    request = AttackRequest(brother, "Lasgun", mob(), options={"reaction": "dodge"})
    result = resolve_attack(request, EnteredDice([30, 5]), setup)
    assert any("hordes do not dodge" in str(step.detail) for step in result.steps)
    allowed = AttackRequest(
        brother, "Lasgun", mob(), options={"reaction": "dodge", "horde_reacts": True}
    )
    dodged = resolve_attack(allowed, EnteredDice([30, 20]), setup)  # Ag 40: 20 succeeds
    assert dodged.hits == 0
