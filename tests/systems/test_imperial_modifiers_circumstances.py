"""Circumstances (004, 001), range bands, cover, shooting into melee, Dark Heresy's house rules."""

from __future__ import annotations

from typing import Any

import pytest

from gmkit.errors import RulesError
from gmkit.systems._imperial.circumstances import circumstances, miss_hits_ally, range_band
from gmkit.systems._imperial.cover import Cover, cover_after_hit, cover_of, cover_points
from gmkit.systems._imperial.modifiers import attack_setup, defence_modifiers
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems.base import AttackRequest, Modifier

ARMS = ("Lasgun", "Laspistol", "Autopistol", "Heavy Bolter", "Shotgun", "Grenade Launcher", "Sword")


@pytest.fixture(scope="session")
def sheet(veteran):
    """Kell, carrying every weapon of ARMS unless told which."""

    def make(game: str = "dark_heresy", *weapons: str, name: str = "Kell", **fields: Any) -> Any:
        return veteran(game, *(weapons or ARMS), name=name, **fields)

    return make


@pytest.fixture(scope="session")
def request_of(sheet):
    """Kell's attack with ``weapon`` on a Heretic with a sword (or the attacker, target given)."""

    def make(weapon: str = "Lasgun", game: str = "dark_heresy", **fields: Any) -> AttackRequest:
        attacker = fields.pop("attacker", None) or sheet(game)
        target = fields.pop("target", None) or sheet(game, "Sword", name="Heretic")
        return AttackRequest(attacker, weapon, target, **fields)

    return make


@pytest.fixture(scope="session")
def setup(request_of):
    """What attack_setup makes of ``request_of``'s request."""

    def make(weapon: str = "Lasgun", game: str = "dark_heresy", **fields: Any) -> AttackSetup:
        return attack_setup(request_of(weapon, game, **fields), game)

    return make


def listed(result: AttackSetup) -> list[str]:
    return [str(modifier) for modifier in result.modifiers]


# --- range bands ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("distance", "band", "value"),
    [
        (0, "point_blank", 30),
        (2, "point_blank", 30),
        (2.5, "short", 10),
        (40, "short", 10),
        (49.9, "short", 10),
        (50, "normal", 0),
        (200, "normal", 0),
        (201, "long", -10),
        (300, "long", -10),
        (301, "extreme", -30),
    ],
)
def test_lasgun_range_bands(distance, band, value):
    found = range_band(distance, 100)
    assert (found.id, found.value) == (band, value)


def test_point_blank_of_weapons_with_a_short_range_under_3_metres():
    assert range_band(1, 4).id == "point_blank"  # short range 2 m: point blank 1 m
    assert range_band(1.5, 4).id == "short"
    assert range_band(2, 6).id == "point_blank"  # short range 3 m: the usual 2 m


def test_range_modifiers_in_the_setup_with_their_sources(setup):
    assert listed(setup(distance=2)) == ["Point blank +30"]
    assert listed(setup(distance=40)) == ["Short range +10"]
    assert listed(setup(distance=250)) == ["Long range -10"]
    assert listed(setup(distance=350)) == ["Extreme range -30"]
    assert listed(setup(circumstances={"range_band": "long"})) == ["Long range -10"]
    assert any(note.startswith("range: no distance") for note in map(str, setup().notes))
    with pytest.raises(RulesError, match=r"circumstances\['range_band'\]"):
        setup(circumstances={"range_band": "near"})


def test_no_point_blank_bonus_against_the_foe_one_is_engaged_with(setup):
    result = setup("Laspistol", distance=1, circumstances={"engaged_in_melee": True})
    assert listed(result) == []
    assert any("no bonus when engaged" in note for note in map(str, result.notes))


# --- circumstances ----------------------------------------------------------------------------


def test_circumstance_catalog_ids():
    assert {item.id for item in circumstances("deathwatch").values()} == {
        "cover",
        "darkness",
        "fog",
        "weather",
        "difficult_terrain",
        "arduous_terrain",
        "engaged_in_melee",
        "shooting_into_melee",
        "melee_has_helpless",
        "ganging_up",
        "higher_ground",
        "attacker_prone",
        "attacker_fatigued",
        "attacker_pinned",
        "target_prone",
        "target_stunned",
        "target_unaware",
        "target_helpless",
        "target_running",
        "target_grappled",
        "size",
        "gm_modifier",
        "range_band",
    }
    heresy = {item.id for item in circumstances("dark_heresy").values()}
    assert "outnumbering" in heresy
    assert "ganging_up" not in heresy
    assert circumstances("dark_heresy")["ganging_up"].id == "outnumbering"  # an alias


def test_darkness_is_minus_20_ws_and_minus_30_bs_unless_the_attacker_sees_in_the_dark(setup, sheet):
    dark = {"darkness": True}
    assert listed(setup("Sword", circumstances=dark)) == ["Darkness -20"]
    assert listed(setup(distance=60, circumstances=dark)) == ["Darkness -30"]
    seer = sheet("dark_heresy", traits=["Dark Sight"])
    result = setup(distance=60, circumstances=dark, attacker=seer)
    assert listed(result) == []
    assert "Darkness cancelled by Dark Sight" in list(map(str, result.notes))


def test_fog_in_deathwatch_is_minus_20_bs_and_in_dark_heresy_counts_as_darkness(setup):
    fog = {"fog": True}
    assert listed(setup(game="deathwatch", distance=60, circumstances=fog)) == [
        "Fog, mist or shadow -20"
    ]
    assert listed(setup("Sword", game="deathwatch", circumstances=fog)) == []
    assert listed(setup(distance=60, circumstances=fog)) == ["Fog, mist or shadow -30"]
    assert listed(setup("Sword", circumstances=fog)) == ["Fog, mist or shadow -20"]


def test_weather_higher_ground_size_and_the_gms_own(setup):
    assert listed(setup("Sword", circumstances={"weather": True})) == [
        "Weather, smoke or unnatural conditions -20"
    ]
    assert listed(setup("Sword", circumstances={"higher_ground": True})) == ["Higher ground +10"]
    assert listed(setup(distance=60, circumstances={"higher_ground": True})) == []
    assert listed(setup(distance=60, circumstances={"size": 10, "gm_modifier": -15})) == [
        "Size +10",
        "Other (GM) -15",
    ]


def test_terrain_weighs_on_whoever_stands_in_it(request_of, setup):
    assert listed(setup("Sword", circumstances={"difficult_terrain": True})) == [
        "Difficult terrain -10"
    ]
    assert listed(setup("Sword", circumstances={"arduous_terrain": "attacker"})) == [
        "Arduous terrain -30"
    ]
    assert listed(setup("Sword", circumstances={"arduous_terrain": "target"})) == []
    dodge = defence_modifiers(
        request_of("Sword", circumstances={"arduous_terrain": "target"}), "dark_heresy", "dodge"
    )
    assert [str(modifier) for modifier in dodge] == ["Arduous terrain -30"]
    with pytest.raises(RulesError, match=r"circumstances\['difficult_terrain'\]"):
        setup("Sword", circumstances={"difficult_terrain": 2})


def test_ganging_up_in_deathwatch_and_outnumbering_in_dark_heresy(setup, veteran):
    watch = [
        listed(setup("Sword", game="deathwatch", circumstances={"ganging_up": n}))
        for n in (1, 2, 3, 5)
    ]
    assert watch == [[], ["Ganging up +10"], ["Ganging up +20"], ["Ganging up +20"]]
    assert (
        listed(
            setup(
                "Laspistol",
                game="deathwatch",
                distance=1,
                circumstances={"ganging_up": 3, "engaged_in_melee": True},
            )
        )
        == []
    )
    heresy = [listed(setup("Sword", circumstances={"outnumbering": n})) for n in (2, 3, 4)]
    assert heresy == [["Outnumbering +10"], ["Outnumbering +20"], ["Outnumbering +30"]]
    assert listed(
        setup("Laspistol", distance=1, circumstances={"ganging_up": 4, "engaged_in_melee": True})
    ) == ["Outnumbering +30"]
    horde = veteran("deathwatch", name="Mob", wounds=8, tier="troop", horde={"magnitude_max": 20})
    result = setup("Sword", game="deathwatch", target=horde, circumstances={"ganging_up": 3})
    assert listed(result) == []
    assert "Ganging up: no bonus against a horde" in list(map(str, result.notes))
    with pytest.raises(RulesError, match=r"circumstances\['outnumbering'\].*whole number"):
        setup("Sword", circumstances={"outnumbering": True})


def test_prone_attacker_and_target_by_game(setup):
    assert listed(setup("Sword", circumstances={"attacker_prone": True})) == ["Prone -10"]
    assert listed(setup(distance=60, circumstances={"attacker_prone": True})) == ["Prone -10"]
    assert (
        listed(setup(game="deathwatch", distance=60, circumstances={"attacker_prone": True})) == []
    )
    assert listed(setup("Sword", circumstances={"target_prone": True})) == ["Target prone +10"]
    assert listed(setup(game="deathwatch", distance=60, circumstances={"target_prone": True})) == [
        "Target prone -10"
    ]
    assert listed(setup(game="deathwatch", distance=2, circumstances={"target_prone": True})) == [
        "Point blank +30"
    ]
    assert listed(setup(distance=60, circumstances={"target_prone": True})) == []


def test_stunned_unaware_helpless_targets(setup):
    assert listed(setup(distance=60, circumstances={"target_stunned": True})) == [
        "Target stunned +20"
    ]
    unaware = setup("Sword", circumstances={"target_unaware": True})
    assert listed(unaware) == ["Target unaware +30"]
    assert (unaware.can_dodge, unaware.can_parry, unaware.auto_hit) == (False, False, False)
    leave = setup(
        "Sword", circumstances={"target_unaware": True}, options={"unaware_auto_hit": True}
    )
    assert leave.auto_hit
    with pytest.raises(RulesError, match=r"'unaware_auto_hit': unknown option"):  # 001's only
        setup(
            "Sword",
            game="deathwatch",
            circumstances={"target_unaware": True},
            options={"unaware_auto_hit": True},
        )
    assert setup("Sword", circumstances={"target_helpless": True}).auto_hit


def test_a_condition_named_twice_counts_once(setup, sheet):
    tired = sheet("dark_heresy", fatigue=2)
    result = setup(
        "Sword",
        attacker=tired,
        circumstances={"attacker_fatigued": True},
        options={"attacker_conditions": ["fatigued"]},
    )
    assert listed(result) == ["Fatigued -10"]
    both = setup(
        "Sword", circumstances={"target_stunned": True}, options={"target_conditions": ["stunned"]}
    )
    assert listed(both) == ["Target stunned +20"]


def test_a_pinned_attacker_shoots_at_minus_20_and_takes_half_actions_only(setup):
    assert listed(setup(distance=60, circumstances={"attacker_pinned": True})) == ["Pinned -20"]
    with pytest.raises(RulesError, match=r"conditions.*Kell is pinned: one half action a turn"):
        setup(action="semi_auto_burst", distance=60, circumstances={"attacker_pinned": True})


def test_unknown_circumstances_and_bad_values_are_refused(setup):
    with pytest.raises(RulesError, match=r"circumstances\['fire'\].*unknown circumstance"):
        setup(circumstances={"fire": True})
    with pytest.raises(RulesError, match=r"circumstances\['darkness'\].*true or false"):
        setup(circumstances={"darkness": "yes"})
    with pytest.raises(RulesError, match=r"circumstances\['cover'\]"):
        setup(circumstances={"cover": {"points": 4, "locations": ["tail"]}})


# --- shooting into and in melee -----------------------------------------------------------


def test_shooting_into_melee_minus_20_waived_when_a_combatant_is_helpless(setup):
    into = {"shooting_into_melee": True}
    assert listed(setup(distance=60, circumstances=into)) == ["Shooting into melee -20"]
    waived = setup(distance=60, circumstances={**into, "target_stunned": True})
    assert listed(waived) == ["Target stunned +20"]
    other = setup(distance=60, circumstances={**into, "melee_has_helpless": True})
    assert listed(other) == []
    blast = setup("Grenade Launcher", distance=60, circumstances=into)
    assert listed(blast) == []
    assert any("hits every ally in its area" in note for note in map(str, blast.notes))
    assert listed(
        setup("Grenade Launcher", game="deathwatch", distance=60, circumstances=into)
    ) == ["Shooting into melee -20"]


def test_a_miss_caused_only_by_the_into_melee_penalty_hits_an_ally():
    penalty = [Modifier("Shooting into melee", -20), Modifier("Short range", 10)]
    # BS 40: target 30 with the penalty, 50 without it
    assert miss_hits_ally(35, 40, penalty)
    assert miss_hits_ally(50, 40, penalty)
    assert not miss_hits_ally(51, 40, penalty)  # would have missed anyway
    assert not miss_hits_ally(30, 40, penalty)  # a hit
    assert not miss_hits_ally(35, 40, penalty[1:])  # no penalty, no ally
    assert not miss_hits_ally(35, 40, penalty, game="deathwatch")  # 004 has no such rule
    assert not miss_hits_ally(97, 100, penalty, jam_from=96)
    capped = [
        Modifier("Shooting into melee", -20),
        Modifier("Aim", 20),
        Modifier("PB", 30),
        Modifier("Unaware", 30),
    ]  # +60 with the penalty; +80 capped to +60 without
    assert not miss_hits_ally(95, 30, capped)


def test_house_rule_called_shot_into_melee_cannot_hit_an_ally(setup):
    into = {"shooting_into_melee": True}
    called = setup(action="called_shot", called_location="head", distance=60, circumstances=into)
    assert listed(called) == [
        "Called Shot -20",
        "Shooting into melee -20",
        "Called shot into melee -10",
    ]
    assert not miss_hits_ally(15, 40, called.modifiers)
    scatter = setup(
        "Shotgun", action="called_shot", called_location="head", distance=20, circumstances=into
    )
    assert listed(scatter) == ["Called Shot -20", "Shooting into melee -20"]
    assert miss_hits_ally(15, 40, scatter.modifiers)
    off = setup(
        action="called_shot",
        called_location="head",
        distance=60,
        circumstances=into,
        options={"house_rules": {"called_shot_into_melee": False}},
    )
    assert listed(off) == ["Called Shot -20", "Shooting into melee -20"]


def test_only_pistols_shoot_while_engaged_and_dark_heresy_allows_basic_weapons(setup):
    engaged = {"engaged_in_melee": True}
    assert setup("Laspistol", game="deathwatch", distance=1, circumstances=engaged)
    with pytest.raises(RulesError, match=r"field 'weapon'.*only pistol weapons may shoot"):
        setup("Lasgun", game="deathwatch", distance=1, circumstances=engaged)
    basic = setup("Lasgun", distance=1, circumstances=engaged)
    assert any(note.startswith("free_attack_unparriable") for note in map(str, basic.notes))
    with pytest.raises(RulesError, match=r"only basic, pistol weapons may shoot"):
        setup(
            "Heavy Bolter",
            distance=1,
            circumstances=engaged,
            options={"prepared": {"brace_heavy_weapon": True}},
        )
    with pytest.raises(RulesError, match=r"only pistol weapons"):
        setup(
            "Lasgun",
            distance=1,
            circumstances=engaged,
            options={"house_rules": {"basic_in_melee": False}},
        )


# --- cover ------------------------------------------------------------------------------------


def test_cover_is_armour_at_the_covered_locations_against_shots(request_of, setup):
    shot = request_of(distance=60, circumstances={"cover": 8})
    assert [cover_points(shot, place) for place in ("head", "body", "left_leg", "right_arm")] == [
        0,
        8,
        8,
        0,
    ]
    chosen = request_of(
        distance=60, circumstances={"cover": {"points": 12, "locations": ["head", "arms"]}}
    )
    assert [cover_points(chosen, place) for place in ("head", "left_arm", "body")] == [12, 12, 0]
    listed_apart = request_of(
        distance=60, circumstances={"cover": 6}, options={"covered_locations": ["head"]}
    )
    assert (cover_points(listed_apart, "head"), cover_points(listed_apart, "body")) == (6, 0)
    assert cover_points(request_of("Sword", circumstances={"cover": 8}), "body") == 0
    assert cover_points(request_of(distance=60), "body") == 0
    assert listed(setup(distance=60, circumstances={"cover": 8})) == []  # no modifier to hit


def test_cover_wears_down_by_one_for_each_hit_that_beats_it():
    assert cover_after_hit(8, 9) == 7
    assert cover_after_hit(8, 8) == 8
    assert cover_after_hit(8, 3) == 8
    assert cover_after_hit(0, 5) == 0


def test_one_cover_for_the_whole_attack_worn_where_it_stands(request_of):
    cover = cover_of(request_of(distance=60, circumstances={"cover": 8}))
    assert cover == Cover(8, ("body", "right_leg", "left_leg"), wear=1)  # the catalog's
    worn = cover.after_hit("body", 9).after_hit("left_leg", 12)
    assert (worn.points, worn.at("right_leg"), worn.at(None)) == (6, 6, 0)
    assert cover.after_hit("head", 30) == cover  # a hit it does not cover leaves it whole
    assert Cover(8, ("body",), wear=2).after_hit("body", 9).points == 6  # a GM's tougher wear
    assert cover_of(request_of("Sword", circumstances={"cover": 8})) == Cover()


# --- Dark Heresy's house rules -------------------------------------------------------------


def test_untrained_minus_20_both_games_and_a_house_rule_that_can_be_switched_off(setup, sheet):
    green = sheet("dark_heresy", talents=[])
    assert listed(setup(distance=60, attacker=green)) == ["Untrained -20"]
    assert listed(
        setup(distance=60, attacker=sheet("deathwatch", talents=[]), game="deathwatch")
    ) == ["Untrained -20"]
    off = setup(distance=60, attacker=green, options={"house_rules": {"untrained": False}})
    assert listed(off) == []
    with pytest.raises(RulesError, match=r"options\['house_rules'\]\['fury'\]"):
        setup(distance=60, options={"house_rules": {"fury": True}})
    with pytest.raises(RulesError, match=r"'house_rules': unknown option"):  # 004 has none
        setup(game="deathwatch", distance=60, options={"house_rules": {"untrained": False}})


@pytest.mark.parametrize("game", ["dark_heresy", "deathwatch"])
def test_universal_training_trains_every_weapon_of_its_class(setup, sheet, game):
    def untrained(*talents: str) -> list[str]:
        shooter = sheet(game, "Lasgun", talents=list(talents))  # a Las weapon
        return listed(setup(distance=60, game=game, attacker=shooter))

    assert untrained("Basic Weapon Training (Universal)") == []
    assert untrained("Basic Weapon Training (Las)") == []
    assert untrained("Basic Weapon Training (SP)") == ["Untrained -20"]
    assert untrained("Pistol Training (Universal)") == ["Untrained -20"]


def test_a_basic_weapon_in_one_hand_is_minus_20_and_a_heavy_one_needs_two(setup):
    assert listed(setup(distance=60, options={"one_handed": True})) == [
        "Basic weapon in one hand -20"
    ]
    assert listed(setup(game="deathwatch", distance=60, options={"one_handed": True})) == []
    with pytest.raises(RulesError, match=r"options\['one_handed'\].*both hands"):
        setup("Heavy Bolter", distance=60, options={"one_handed": True})


def test_heavy_weapons_unbraced_minus_30_and_single_shots_only(setup):
    assert listed(setup("Heavy Bolter", distance=60)) == ["Heavy weapon unbraced -30"]
    with pytest.raises(RulesError, match=r"field 'mode'.*single shots only"):
        setup("Heavy Bolter", action="full_auto_burst", distance=60)
    braced = setup(
        "Heavy Bolter",
        action="full_auto_burst",
        distance=60,
        options={"prepared": {"brace_heavy_weapon": True}},
    )
    assert listed(braced) == ["Full Auto Burst +20"]
    overruled = setup(
        "Heavy Bolter", action="full_auto_burst", distance=60, options={"gm_override": True}
    )
    assert listed(overruled) == ["Full Auto Burst +20", "Heavy weapon unbraced -30"]
    assert any("single shots only" in warning for warning in map(str, overruled.warnings))


def test_the_off_hand_is_minus_20_unless_ambidextrous(setup, sheet, trained):
    assert listed(setup("Laspistol", distance=20, options={"off_hand": True})) == ["Off hand -20"]
    deft = sheet("dark_heresy", talents=[*trained, "Ambidextrous"])
    assert listed(setup("Laspistol", distance=20, attacker=deft, options={"off_hand": True})) == []
    assert listed(
        setup("Laspistol", game="deathwatch", distance=20, options={"off_hand": True})
    ) == ["Off hand -20"]


def test_carrying_limits_and_two_weapon_fighting_are_warnings(setup, sheet, trained):
    result = setup(distance=60)  # the sheet carries two basic, one heavy and two pistols
    assert any("more than one pistol" in warning for warning in map(str, result.warnings))
    mixed = setup(
        "Laspistol",
        distance=10,
        attacker=sheet("dark_heresy", "Laspistol", "Sword"),
        options={"second_weapon": "Sword"},
    )
    assert any("only one of them" in warning for warning in map(str, mixed.warnings))
    wielder = sheet(
        "dark_heresy",
        "Laspistol",
        "Sword",
        talents=[*trained, "Two-Weapon Wielder (Melee/Ballistic)"],
    )
    assert (
        setup(
            "Laspistol", distance=10, attacker=wielder, options={"second_weapon": "Sword"}
        ).warnings
        == ()
    )
    quiet = setup(distance=60, options={"house_rules": {"carrying_limits": False}})
    assert quiet.warnings == ()
