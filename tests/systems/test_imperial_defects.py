"""Issue 11's d100 defects: Multiple Attacks' degrees, a shot into melee hitting an ally, two
helmets, and hordes (size bonus, armour, magnitude odds). Typed dice only.

Numbers from the profiles of ``tests/systems/conftest.py`` (a marine WS 44, SB 4, TB 4; an
acolyte BS 40) and the seeds: 004 step four (the degrees of success are the least one damage
die reads, for every attack test), 001 (a miss caused only by the -20 of shooting into melee
hits an ally; one helmet), and the seeds' README ruling on a horde's size bonus.
"""

from __future__ import annotations

import pytest

from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice
from gmkit.messages import render
from gmkit.odds._imperial import ImperialAttackOdds, imperial_odds
from gmkit.sheets._deathwatch import HordeRules
from gmkit.systems._imperial import hordes
from gmkit.systems._imperial.resolve import resolve_attack
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems._tables import table
from gmkit.systems.base import AttackRequest


@pytest.fixture(scope="module")
def swift(marine, trained):
    return marine("Castor", ["Sword"], talents=[*trained, "Swift Attack"])


def damage_steps(result):
    return [str(step) for step in result.steps if str(step).startswith("Damage")]


# --- 1. Multiple Attacks: each attack's own degrees ------------------------------------------


def test_each_swift_attack_uses_its_own_degrees_as_the_damage_minimum(swift, marine):
    target = marine("Varn")  # no armour, TB 4
    request = AttackRequest(swift, "Sword", target, action="multiple_attacks", mode="melee")
    # attack 1: 14 against WS 44, 3 degrees: the d10's 1 reads 3, +SB 4 = 7, 3 past TB 4
    # attack 2: 23, 2 degrees: its own d10's 1 reads 2 (it read 1 before the fix): 6, 2 past
    result = resolve_attack(request, EnteredDice([14, 1, 23, 1]))
    assert damage_steps(result) == [
        "Damage (hit 1): 7 at body (1d10+SB: [1->3] +4 = 7)",
        "Damage (hit 2): 6 at body (1d10+SB: [1->2] +4 = 6)",
    ]
    assert [effect.amount for effect in result.effects if effect.kind == "damage"] == [3, 2]


def test_lightning_attack_three_tests_three_minimums(marine, trained):
    fast = marine("Castor", ["Sword"], talents=[*trained, "Lightning Attack"])
    request = AttackRequest(fast, "Sword", marine("Varn"), action="multiple_attacks", mode="melee")
    # 04: 4 degrees (the 2 reads 4); 34: 1 degree (the 1 reads 1); 43: 0 degrees
    result = resolve_attack(request, EnteredDice([4, 2, 34, 1, 43, 1]))
    assert [step.partition(" (1d10")[0] for step in damage_steps(result)] == [
        "Damage (hit 1): 8 at body",
        "Damage (hit 2): 5 at body",
        "Damage (hit 3): 5 at body",
    ]


def test_the_odds_give_each_swift_attack_its_own_degrees(swift, marine):
    """Two separate attacks, no reaction (the target holds no weapon), no cover: the wounds of
    the pair are those of one attack twice over, the second using its own degrees too."""
    target = marine("Varn")
    request = AttackRequest(swift, "Sword", target, action="multiple_attacks", mode="melee")
    one = imperial_odds(request, setup=AttackSetup("WS", (), "melee", max_hits=1))
    two = imperial_odds(request, setup=AttackSetup("WS", (), "melee", max_hits=2))
    assert one.expected_wounds > 0
    assert two.expected_wounds == 2 * one.expected_wounds


def test_a_burst_still_gives_the_degrees_to_its_first_hit_only(marine, trained):
    shooter = marine("Castor", ["Bolter"], talents=list(trained))
    request = AttackRequest(
        shooter, "Bolter", marine("Varn"), action="semi_auto_burst", mode="semi"
    )
    # 47 + 10 = 57, rolled 13: 4 degrees, 1 + 4 // 2 = 3 hits, RoF semi 2: 2 hits (one test)
    result = resolve_attack(request, EnteredDice([13, 1, 1, 1, 1]))
    assert damage_steps(result) == [
        "Damage (hit 1): 10 at body (2d10+5: [1->4, 1] +5 = 10)",
        "Damage (hit 2): 7 at body (2d10+5: [1, 1] +5 = 7)",
    ]


# --- 2. Dark Heresy: a shot into melee that misses by the penalty hits an ally ---------------


@pytest.fixture(scope="module")
def fenn(acolyte, trained):
    return acolyte("Fenn", ["Lasgun"], talents=list(trained))


def into_melee(fenn, target, **options):
    circumstances = {"shooting_into_melee": True}
    return AttackRequest(fenn, "Lasgun", target, circumstances=circumstances, options=options)


def test_a_miss_only_by_the_melee_penalty_hits_the_named_ally(fenn, acolyte):
    # BS 40 -20 = 20; rolled 30: a miss the -20 alone caused (30 <= 40)
    result = resolve_attack(
        into_melee(fenn, acolyte("Cultist"), engaged_ally="Ilse"), EnteredDice([30])
    )
    assert str(result.summary) == "Fenn misses Cultist with Lasgun and hits Ilse instead"
    test = next(str(step) for step in result.steps if render(step.title) == "Ballistic Skill test")
    assert test.startswith(
        "Ballistic Skill test: miss, only because of the shooting-into-melee penalty: "
        "the shot hits Ilse instead"
    )
    noted = [effect for effect in result.effects if effect.kind == "note"]
    assert [(effect.target, str(effect.note)) for effect in noted] == [
        ("Ilse", "hit by Fenn's shot into melee with Lasgun: the GM resolves the hit")
    ]
    assert result.hits == 0


def test_without_a_named_ally_the_result_still_says_an_ally_is_hit(fenn, acolyte):
    result = resolve_attack(into_melee(fenn, acolyte("Cultist")), EnteredDice([30]))
    assert str(result.summary) == (
        "Fenn misses Cultist with Lasgun and hits an ally engaged with Cultist instead"
    )
    assert not [effect for effect in result.effects if effect.kind == "note"]


def test_a_miss_beyond_the_penalty_or_a_jam_hits_no_ally(fenn, acolyte):
    cultist = acolyte("Cultist")
    wide = resolve_attack(into_melee(fenn, cultist, engaged_ally="Ilse"), EnteredDice([41]))
    assert str(wide.summary) == "Fenn fails to hit Cultist with Lasgun"
    jam = resolve_attack(into_melee(fenn, cultist, engaged_ally="Ilse"), EnteredDice([97]))
    assert str(jam.summary) == "Fenn's Lasgun jams"
    assert not [effect for effect in (*wide.effects, *jam.effects) if effect.kind == "note"]


def test_deathwatch_has_no_ally_hit(marine):
    shooter = marine("Castor", ["Bolter"])
    request = AttackRequest(
        shooter,
        "Bolter",
        marine("Varn"),
        circumstances={"shooting_into_melee": True},
        options={"engaged_ally": "Ilarion"},
    )
    result = resolve_attack(request, EnteredDice([40]))  # 47 - 20 = 27: missed by the penalty
    assert str(result.summary) == "Castor fails to hit Varn with Bolter"


# --- 3. Dark Heresy: two helmets ---------------------------------------------------------------


def test_two_helmets_are_a_carrying_warning(acolyte):
    helmet = {"name": "Flak Helmet", "kind": "flak", "points": {"head": 2}}
    carapace = {"name": "Carapace Helm", "kind": "carapace", "points": {"head": 4}}
    vest = {"name": "Flak Vest", "kind": "flak", "points": {"body": 3}}
    coat = {"name": "Mesh Coat", "kind": "mesh", "points": {"body": 3, "arms": 3}}
    two = acolyte(armour=[helmet, carapace])
    assert [str(warning) for warning in two.house_rule_warnings] == [
        "more than one armour piece at head (a second helmet)"
    ]
    assert [str(w) for w in two.derived()["house_rule_warnings"]] == [
        "more than one armour piece at head (a second helmet)"
    ]
    assert acolyte(armour=[helmet, vest, coat]).house_rule_warnings == []  # two body layers


# --- 4. Hordes: size bonus, armour, magnitude odds ---------------------------------------------


@pytest.mark.parametrize(
    ("magnitude", "bonus"), [(29, 0), (30, 10), (59, 10), (60, 20), (90, 30), (120, 40), (500, 40)]
)
def test_the_size_bonus_by_current_magnitude(magnitude, bonus):
    found = hordes.size_bonus(magnitude, hordes.horde_rules())
    assert (found.value if found else 0) == bonus


def test_a_gm_overrides_the_size_table():
    rules = HordeRules(size_bonus=((10, 5), (20, 15)))
    assert [rules.size_bonus_at(m) for m in (9, 10, 25)] == [0, 5, 15]
    assert HordeRules.model_validate({"size_bonus": [[40, 10]]}).size_bonus_at(45) == 10


def test_the_size_table_is_read_from_a_gm_data_file(tmp_path, monkeypatch):
    folder = tmp_path / "deathwatch"
    folder.mkdir()
    (folder / "hordes.yaml").write_text("size_bonus: [[10, 5], [50, 25]]\n", encoding="utf-8")
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    table.cache_clear()
    try:
        rules = hordes.horde_rules()
        assert [rules.size_bonus_at(m) for m in (9, 30, 60)] == [0, 5, 25]
    finally:
        monkeypatch.delenv("GMKIT_DATA_PATH")
        table.cache_clear()
    assert hordes.horde_rules().size_bonus_at(30) == 10


@pytest.fixture(scope="module")
def mob(marine):
    def make(magnitude: int, **horde: int):
        data = {"magnitude_max": 130, "magnitude": magnitude, **horde}
        return marine("Ork mob", wounds=12, tier="troop", horde=data, chars={"T": 30})

    return make


def test_attacks_on_a_horde_show_its_size_bonus_as_a_modifier(marine, mob, trained):
    shooter = marine("Castor", ["Bolter"], talents=list(trained))
    horde = mob(60, armour=0)
    result = resolve_attack(AttackRequest(shooter, "Bolter", horde), EnteredDice([66, 5, 5, 5, 5]))
    test = next(step for step in result.steps if render(step.title) == "Ballistic Skill test")
    assert str(test).endswith(
        "(BS 47 +20 = 67 [Horde size (magnitude 60) +20]; rolled 66: success, 0 degrees of success)"
    )
    assert [(str(m.source), m.value) for m in test.modifiers] == [("Horde size (magnitude 60)", 20)]
    small = resolve_attack(AttackRequest(shooter, "Bolter", mob(29)), EnteredDice([66]))
    assert str(small.summary) == "Castor fails to hit Ork mob with Bolter"  # 47: no bonus


def test_a_horde_without_its_own_armour_value_wears_its_members_armour(demo_sheets_dw):
    boyz = demo_sheets_dw["Ork Boyz mob"]
    assert boyz.horde.armour is None
    assert boyz.horde_armour == 2  # Ork Flak: 2 at the body
    castor = demo_sheets_dw["Brother Castor"]
    weapon = "Astartes Bolter (Godwyn)"  # 2d10+5 Tearing, Pen 5, Explosive
    # 47 +10 size (magnitude 30) = 57; 53: 0 degrees (with more, the least roll already
    # damages and none is rolled). [~~1~~, 3, 5] +5 = 13 against the flak's AP 2 (Pen 5
    # leaves 0) and TB 8 (T 45, Unnatural x2): 5; Explosive: one more hit
    result = resolve_attack(
        AttackRequest(castor, weapon, boyz), EnteredDice([53, 1, 3, 5] + [5] * 3)
    )
    soak = next(str(step) for step in result.steps if str(step).startswith("Soak"))
    assert soak == "Soak (hit 1): 5 damage taken (13 damage - AP 2 (Pen 5: 0) - TB 8 = 5)"
    assert boyz.edit(horde={**boyz.horde.model_dump(), "armour": 5}).horde_armour == 5


def test_the_odds_give_the_magnitude_a_horde_loses(marine, mob, trained):
    shooter = marine("Castor", ["Lasgun"], talents=list(trained))
    odds = imperial_odds(AttackRequest(shooter, "Lasgun", mob(30, armour=0)))
    assert isinstance(odds, ImperialAttackOdds)
    assert odds.expected_damage == 0  # a horde takes no damage...
    # ...it loses magnitude: BS 47 +10 = 57 to hit; 1d10+3 beats TB 3 on 1 or more: always
    assert odds.magnitude_lost is not None
    assert odds.magnitude_lost.p(1) == odds.hit
    assert odds.expected_magnitude_lost == odds.hit == pytest.approx(0.57)
    assert odds.as_float()["expected_magnitude_lost"] == pytest.approx(0.57)
    plain = imperial_odds(AttackRequest(shooter, "Lasgun", marine("Varn")))
    assert plain.magnitude_lost is None
    assert plain.expected_magnitude_lost == 0


@pytest.fixture(scope="module")
def demo_sheets_dw():
    roster = next(r for r in demo_campaign().rosters if r.game == "deathwatch")
    return {sheet.name: sheet for sheet in roster.sheets}
