"""Necromunda shooting: who may shoot, target choice, range, to hit, ammo (fixed dice)."""

from __future__ import annotations

from itertools import takewhile
from typing import Any

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.systems import necromunda, system
from gmkit.systems.base import Effect
from gmkit.systems.necromunda import (
    SYSTEM,
    Candidate,
    FighterState,
    NecromundaRules,
    OtherTarget,
    Settings,
    shooting_weapons,
    shot_setup,
    target_choice_check,
    to_hit_modifiers,
)

from ..shared.necromunda import GRENADE, fighter, shot, step

JUVE = fighter("Jeb", fighter_type="juve", BS=2, weapons=["laspistol", "knife", "flamer"])


def test_the_seeds_example_needs_a_six_then_four():
    # seed 000: juve BS 2, laspistol at 12" (long, -1), partial cover (-1): 7 - 2 + 1 + 1 = 7
    request = shot(JUVE, "laspistol", distance=12, circumstances={"partial_cover": True})
    setup = shot_setup(request)
    assert setup.band == "long"
    assert [m.value for m in setup.modifiers] == [-1, -1]
    assert setup.needed == 7
    source = EnteredDice([6, 4, 5, 3])  # 6, then 4: hit; ammo 5 (2+); wound 3 (4+): no wound
    result = SYSTEM.resolve_attack(request, source)
    assert result.hits == 1
    assert step(result, "To hit").target == 7
    assert [r.value for r in step(result, "To hit").rolls] == [6, 4]
    assert str(step(result, "Ammo roll").outcome) == "passed"
    assert step(result, "To wound").target == 4
    pinned = Effect("pinned", "Tom", note=Message("necromunda.effect.pinned"))
    assert result.effects == (pinned,)
    assert str(pinned.note) == "hit by a shot: face up"
    assert source.pending == ()


@pytest.mark.parametrize(("dice", "hits"), [([6, 3, 2], 0), ([5], 0), ([1], 0)])
def test_the_seeds_example_misses(dice, hits):
    request = shot(JUVE, "laspistol", distance=12, circumstances={"partial_cover": True})
    source = EnteredDice(dice)
    result = SYSTEM.resolve_attack(request, source)
    assert result.hits == hits
    assert result.effects == ()
    assert source.pending == ()


def test_never_better_than_two_and_a_one_always_misses():
    sharp = fighter("Kal", BS=5, weapons=["laspistol"])
    request = shot(sharp, "laspistol", distance=4)  # 7 - 5 - 2 (short) = 0 -> 2+
    assert shot_setup(request).needed == 2
    assert SYSTEM.resolve_attack(request, EnteredDice([1])).hits == 0
    result = SYSTEM.resolve_attack(request, EnteredDice([2, 1]))
    assert result.hits == 1
    assert str(step(result, "To wound").outcome) == "no wound"


def test_eight_needs_a_six_then_five():
    request = shot(JUVE, "laspistol", distance=12, circumstances={"cover": True})
    assert shot_setup(request).needed == 8
    assert SYSTEM.resolve_attack(request, EnteredDice([6, 4, 2])).hits == 0
    assert SYSTEM.resolve_attack(request, EnteredDice([6, 5, 2, 1])).hits == 1


def test_ten_or_more_cannot_hit_but_the_die_is_rolled_for_ammo():
    novice = fighter("Rat", BS=1, weapons=["laspistol"])
    circumstances = {"cover": True, "fast_moving": True}
    request = shot(novice, "laspistol", distance=12, circumstances=circumstances)
    assert shot_setup(request).needed == 10  # 7 - 1 + 1 (long) + 2 (cover) + 1 (fast)
    source = EnteredDice([6, 1])  # the 6 calls for an ammo roll; 1 fails it
    result = SYSTEM.resolve_attack(request, source)
    assert result.hits == 0
    assert str(step(result, "To hit").outcome) == "miss: needs 10+: cannot hit"
    jam = Effect("jam", "Rat", weapon="laspistol", note=Message("necromunda.effect.ammo_failed"))
    assert result.effects == (jam,)
    assert str(jam.note) == "failed ammo roll: not usable this battle"


def test_out_of_range_misses_but_rolls_for_ammo():
    request = shot(JUVE, "laspistol", distance=17)
    assert shot_setup(request).band == "out of range"
    quiet = EnteredDice([4])
    result = SYSTEM.resolve_attack(request, quiet)
    assert (result.hits, result.effects, quiet.pending) == (0, (), ())
    assert str(step(result, "To hit").outcome) == "miss: out of range"
    six = EnteredDice([6, 2])
    result = SYSTEM.resolve_attack(request, six)
    assert str(step(result, "Ammo roll").outcome) == "passed"
    assert six.pending == ()


def test_a_six_that_hits_takes_an_ammo_roll_and_the_hit_stands():
    source = EnteredDice([6, 3, 1])  # autogun: hit on 6, ammo 3 against 4+ fails, wound 1
    result = SYSTEM.resolve_attack(shot(), source)
    assert result.hits == 1
    assert [e.kind for e in result.effects] == ["pinned", "jam"]
    assert result.effects[1].weapon == "autogun"
    assert result.effects[1].target == "Mordecai"
    assert step(result, "Ammo roll").target == 4


@pytest.mark.parametrize(("setting", "kinds"), [("fail", ["jam"]), ("pass", [])])
def test_an_auto_ammo_roll_follows_the_setting(setting, kinds):
    thrower = fighter("Gren", weapons=[{**GRENADE, "ammo_roll": "auto"}])
    request = shot(thrower, "krak grenade", distance=3, ammo_auto=setting)
    source = EnteredDice([6, 1])  # 6 hits; no die for "auto"; wound roll 1
    result = SYSTEM.resolve_attack(request, source)
    assert [e.kind for e in result.effects if e.kind == "jam"] == kinds
    assert source.pending == ()


def test_a_weapon_without_an_ammo_roll_never_takes_one():
    thrower = fighter("Gren", weapons=[GRENADE])
    source = EnteredDice([6, 1])
    result = SYSTEM.resolve_attack(shot(thrower, "krak grenade", distance=3), source)
    assert [s.title for s in result.steps if str(s.title) == "Ammo roll"] == []
    assert source.pending == ()


@pytest.mark.parametrize(
    ("circumstances", "values"),
    [
        ({"partial_cover": True}, [-1]),
        ({"cover": True}, [-2]),
        ({"charging": True, "appearing": True, "disappearing": True}, [-1]),
        ({"fast_moving": True}, [-1]),
        ({"fast_moving": 10}, [-1]),
        ({"fast_moving": 9.5}, []),
        ({"small": True}, [-1]),
        ({"large": True}, [1]),
        ({"cover": False, "large": True, "fast_moving": True}, [-1, 1]),
    ],
)
def test_the_to_hit_modifier_catalog(circumstances, values):
    assert [m.value for m in to_hit_modifiers(circumstances)] == values


@pytest.mark.parametrize(
    ("circumstances", "message"),
    [
        ({"cover": True, "partial_cover": True}, "cannot both apply"),
        ({"small": True, "large": True}, "cannot both apply"),
        ({"darkness": True}, "'darkness' is not known"),
        ({"cover": 2}, "takes true or false"),
    ],
)
def test_bad_circumstances_are_refused(circumstances, message):
    with pytest.raises(RulesError, match=message):
        to_hit_modifiers(circumstances)


def test_range_modifiers_come_from_the_weapon():
    short = shot_setup(shot(distance=12))  # autogun: 0-12 short +1
    long = shot_setup(shot(distance=13, circumstances={"partial_cover": True}))
    assert (short.band, short.needed) == ("short", 3)
    assert (long.band, long.needed) == ("long", 5)


def test_flesh_wounds_lower_the_shooters_bs():
    request = shot(distance=20, attacker_state=FighterState(flesh_wounds=2))  # BS 1, long 0
    assert shot_setup(request).needed == 6


@pytest.mark.parametrize(
    ("options", "rule"),
    [
        ({"attacker_state": FighterState(engaged=True)}, "engaged"),
        ({"attacker_state": FighterState(moved="run")}, "moved"),
        ({"attacker_state": FighterState(moved="charge")}, "moved"),
        ({"attacker_state": FighterState(down=True)}, "down"),
        ({"attacker_state": FighterState(pinned=True)}, "pinned"),
        ({"in_arc": False}, "in arc"),
        ({"in_sight": False}, "in sight"),
        ({"target_state": FighterState(hidden=True)}, "hidden target"),
        ({"target_is_nearest_or_easier": False}, "target choice"),
    ],
)
def test_who_may_shoot(options, rule):
    source = EnteredDice([5, 5, 3])
    with pytest.raises(RulesError, match=rule):
        SYSTEM.resolve_attack(shot(**options), source)
    assert source.pending == (5, 5, 3)  # refused before any die
    result = SYSTEM.resolve_attack(shot(gm_allows_shot=True, **options), source)
    assert str(step(result, "Who may shoot").outcome) == "allowed by the GM"


@pytest.mark.parametrize(
    "options",
    [
        {"target_state": FighterState(out_of_action=True)},
        {"attacker_state": FighterState(out_of_action=True)},
    ],
)
def test_no_one_shoots_or_is_shot_off_the_table_even_with_the_gm(options):
    with pytest.raises(RulesError, match="on the table"):
        SYSTEM.resolve_attack(shot(gm_allows_shot=True, **options), EnteredDice([5, 5, 3]))


def test_the_nearest_target_rule_with_its_easier_exception():
    # seed 000's diagram: A nearest but in cover; B, C, D farther in the open
    a, b = Candidate("A", 4, 6), Candidate("B", 8, 4)
    c, d = Candidate("C", 10, 4), Candidate("D", 12, 4)
    assert target_choice_check(a, [b, c, d]).passed
    assert target_choice_check(b, [a, c, d]).passed
    assert not target_choice_check(c, [a, b, d]).passed
    assert target_choice_check(Candidate("E", 4, 5), [a]).passed  # as near: equally near


def test_the_request_checks_the_target_choice_or_the_gm_settles_it():
    nearer_in_cover = (OtherTarget("A", 5, {"cover": True}),)
    nearer_open = (OtherTarget("A", 5),)
    source = EnteredDice([2])
    assert SYSTEM.resolve_attack(shot(other_targets=nearer_in_cover), source).hits == 0
    with pytest.raises(RulesError, match="A: nearer and no harder to hit"):
        SYSTEM.resolve_attack(shot(other_targets=nearer_open), EnteredDice([2]))
    request = shot(other_targets=nearer_open, target_is_nearest_or_easier=True)
    assert SYSTEM.resolve_attack(request, EnteredDice([2])).hits == 0


def test_a_hidden_target_is_spotted_within_the_shooters_initiative():
    hidden = FighterState(hidden=True)
    with pytest.raises(RulesError, match='spotting range of 3"'):
        SYSTEM.resolve_attack(shot(distance=4, target_state=hidden), EnteredDice([2]))
    result = SYSTEM.resolve_attack(shot(distance=3, target_state=hidden), EnteredDice([2]))
    assert result.effects == (Effect("remove_condition", "Tom", condition="hidden"),)
    triple = NecromundaRules(Settings(spotting_multiplier=3))
    result = triple.resolve_attack(shot(distance=9, target_state=hidden), EnteredDice([2]))
    assert result.effects[0].condition == "hidden"


def test_shooting_from_hiding_reveals_the_shooter():
    request = shot(attacker_state=FighterState(hidden=True))
    result = SYSTEM.resolve_attack(request, EnteredDice([2]))
    assert result.effects == (Effect("remove_condition", "Mordecai", condition="hidden"),)


def test_a_template_weapon_rolls_no_to_hit_die():
    source = EnteredDice([3, 6])  # flamer S 4 against T 3: 3+; injury 6
    result = SYSTEM.resolve_attack(shot(JUVE, "flamer", distance=None), source)
    assert step(result, "To hit").rolls == ()
    assert result.effects[-1].condition == "out of action"
    assert source.pending == ()


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (shot(JUVE, "knife"), "close combat weapon"),
        (shot(weapon="plasma gun"), "carries no 'plasma gun'"),
        (shot(distance=None), "needs the distance"),
    ],
)
def test_requests_the_rules_refuse(request_, message):
    with pytest.raises(RulesError, match=message):
        SYSTEM.resolve_attack(request_, EnteredDice([4]))


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: FighterState.read({"mood": "grim"}), "unknown field"),
        (lambda: FighterState(moved="fly"), "not one of"),  # type: ignore[arg-type]
        (lambda: FighterState(wounds_left=-1), "must be 0 or more"),
        (lambda: shot(target_state={"down": True}), "option 'target_state'"),
    ],
)
def test_fighter_states_the_rules_refuse(build, message):
    with pytest.raises(RulesError, match=message):
        build()


def test_the_module_docstrings_example_runs(capsys):
    assert necromunda.__doc__ is not None
    block = necromunda.__doc__.split("::\n\n", 1)[1].splitlines()
    lines = takewhile(lambda line: not line or line.startswith("    "), block)
    namespace: dict[str, Any] = {}
    exec("\n".join(line.removeprefix("    ") for line in lines), namespace)
    assert namespace["result"].hits == 1
    assert str(namespace["result"].summary) == "Jeb hits Tom: no wound"
    assert "To hit: hit" in capsys.readouterr().out


def test_shooting_weapons_leave_out_close_combat():
    assert [w.name for w in shooting_weapons(JUVE)] == ["laspistol", "flamer"]


def test_the_registry_serves_the_system():
    assert system("necromunda") is SYSTEM
    assert SYSTEM.game == "necromunda"
    assert SYSTEM.settings == Settings(spotting_multiplier=1, ammo_auto="fail", armour_saves=False)
