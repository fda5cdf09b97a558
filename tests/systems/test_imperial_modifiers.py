"""Actions before the dice (seed 004, 001): the catalog and what attack_setup makes of each."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from gmkit.errors import GmkitError, RulesError
from gmkit.messages import Message, catalogs
from gmkit.systems._imperial import modifiers
from gmkit.systems._imperial.actions import action, actions, jam_from
from gmkit.systems._imperial.conditions import conditions
from gmkit.systems._imperial.modifiers import attack_setup
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems.base import AttackRequest

ARMS = ("Lasgun", "Autogun", "Laspistol", "Stub Pistol", "Heavy Stubber", "Flamer",
        "Frag Grenade", "Sword", "Club", "Knife")  # fmt: skip


@pytest.fixture(scope="session")
def setup(veteran):
    """Tull's attack (with every weapon of ARMS) on a Cultist with a sword, set up."""

    def make(
        weapon: str = "Lasgun",
        game: str = "dark_heresy",
        *,
        target: Any = None,
        attacker: Any = None,
        **request: Any,
    ) -> AttackSetup:
        shooter = attacker or veteran(game, *ARMS)
        victim = target or veteran(game, "Sword", name="Cultist")
        return attack_setup(AttackRequest(shooter, weapon, victim, **request), game)

    return make


def listed(result: AttackSetup) -> list[str]:
    return [str(modifier) for modifier in result.modifiers]


# --- the catalog ---------------------------------------------------------------------------

ALL_004 = {
    "aim": ("half", "full"),
    "all_out_attack": ("full",),
    "brace_heavy_weapon": ("half",),
    "called_shot": ("full",),
    "charge": ("full",),
    "defensive_stance": ("full",),
    "delay": ("half",),
    "dodge": ("reaction",),
    "disengage": ("full",),
    "feint": ("half",),
    "focus_power": ("half", "full", "free", "extended"),
    "full_auto_burst": ("full",),
    "grapple": ("half", "full"),
    "guarded_attack": ("full",),
    "jump": ("full",),
    "knock_down": ("half",),
    "manoeuvre": ("half",),
    "move": ("half", "full"),
    "multiple_attacks": ("full",),
    "overwatch": ("full",),
    "parry": ("reaction",),
    "ready": ("half",),
    "reload": ("half", "full", "extended"),
    "semi_auto_burst": ("full",),
    "standard_attack": ("half",),
    "stun": ("full",),
    "suppressing_fire": ("full",),
    "stand_mount": ("half",),
    "run": ("full",),
    "tactical_advance": ("full",),
    "use_skill": ("half", "full", "extended"),
}


@pytest.mark.parametrize("game", ["deathwatch", "dark_heresy"])
def test_every_004_action_is_in_the_catalog_with_its_types(game):
    found = actions(game)
    assert {key: item.types for key, item in found.items()} == ALL_004
    spanish = catalogs().translations["es"]
    assert all(
        item.name and spanish[f"{game}.action.{item.id}"].translated for item in found.values()
    )


def test_action_subtypes_and_machine_readable_effects():
    stance = action("deathwatch", "defensive_stance")
    assert stance.subtypes == ("concentration", "melee")
    assert stance.effect("extra_reaction") is True
    assert stance.effect("opponents_ws_penalty") == -20
    assert action("deathwatch", "all_out_attack").effect("no_reactions_until_next_turn")
    assert action("deathwatch", "guarded_attack").effect("reactions_bonus") == 10
    assert action("deathwatch", "suppressing_fire").effect("pinning_test") == -20
    assert action("deathwatch", "dodge").test == "Ag"
    assert not action("deathwatch", "run").is_attack
    assert set(action("deathwatch", "grapple").options) == {
        "damage",
        "throw_down",
        "push",
        "ready",
        "stand",
        "break_free",
        "wriggle_free",
        "take_control",
    }


@pytest.mark.parametrize("game", ["deathwatch", "dark_heresy"])
def test_every_gained_state_is_a_condition(game):
    gained = {item.effect("gains") for item in actions(game).values()} - {None}
    assert gained == {
        "all_out_attack",
        "braced",
        "defensive_stance",
        "guarded",
        "overwatch",
        "running",
        "tactical_advance",
    }
    assert gained <= set(conditions(game))


def _rules(found: Any) -> Any:
    """What an action, a spec or an option does, its names as the English they render (each
    game names them with its own catalog's ids)."""
    if isinstance(found, Message):
        return str(found)
    if isinstance(found, tuple | list):
        return tuple(_rules(item) for item in found)
    if isinstance(found, dict):
        return {key: _rules(value) for key, value in found.items()}
    if dataclasses.is_dataclass(found):
        fields = (f.name for f in dataclasses.fields(found) if f.name != "game")
        return {name: _rules(getattr(found, name)) for name in fields}
    return found


def test_dark_heresy_differs_from_deathwatch_only_where_001_says():
    heresy, watch = actions("dark_heresy"), actions("deathwatch")
    differ = [key for key in watch if _rules(heresy[key]) != _rules(watch[key])]
    assert differ == ["brace_heavy_weapon"]
    assert heresy["aim"] != watch["aim"]  # the same rules, named in each game's catalog
    assert heresy["brace_heavy_weapon"].effect("brace_or_unbrace_half")


def test_jam_thresholds_by_mode_and_quality():
    assert jam_from("deathwatch", "single", []) == 96
    assert jam_from("deathwatch", "burst", []) == 94
    assert jam_from("deathwatch", "burst", ["Reliable"]) == 100
    assert jam_from("deathwatch", "single", ["Unreliable"]) == 91
    assert jam_from("deathwatch", "single", ["Flame"]) is None
    assert jam_from("deathwatch", None, []) is None


# --- attack_setup: tests, modes, hits, rounds, jams -------------------------------------------


def test_a_standard_ranged_attack_tests_bs_fires_one_round_and_jams_on_96(setup):
    result = setup("Lasgun", distance=60)
    assert (result.characteristic, result.mode, result.max_hits, result.rounds) == (
        "BS",
        "single",
        1,
        1,
    )
    assert result.jam_from == 96
    assert result.modifiers == ()
    assert not result.can_parry
    assert result.can_dodge


def test_a_melee_attack_tests_ws_spends_nothing_and_cannot_jam(setup):
    result = setup("Sword")
    assert (result.characteristic, result.mode, result.rounds, result.jam_from) == (
        "WS",
        "melee",
        0,
        None,
    )
    assert result.can_parry
    assert result.can_dodge


def test_aim_half_and_full(setup):
    assert listed(setup("Lasgun", distance=60, options={"prepared": {"aim": "half"}})) == [
        "Aim (half) +10"
    ]
    assert listed(setup("Sword", options={"prepared": {"aim": "full"}})) == ["Aim (full) +20"]
    with pytest.raises(RulesError, match=r"options\['prepared'\]\['aim'\].*half or full"):
        setup("Lasgun", options={"prepared": {"aim": True}})


def test_all_out_attack_gives_ws_20_and_leaves_the_attacker_without_reactions(setup):
    result = setup("Sword", action="all_out_attack")
    assert listed(result) == ["All Out Attack +20"]
    assert any(
        note.startswith("the attacker cannot Dodge or Parry until the start")
        for note in map(str, result.notes)
    )
    with pytest.raises(RulesError, match=r"field 'weapon'.*melee weapon or bare hands"):
        setup("Lasgun", action="all_out_attack")


def test_called_shot_is_minus_20_and_skips_the_location_roll(setup):
    result = setup("Lasgun", action="called_shot", called_location="head", distance=60)
    assert listed(result) == ["Called Shot -20"]
    assert result.called_location == "head"
    with pytest.raises(RulesError, match=r"field 'called_location'"):
        setup("Lasgun", action="called_shot", distance=60)
    with pytest.raises(RulesError, match=r"field 'called_location'.*called_shot"):
        setup("Lasgun", called_location="head", distance=60)


def test_charge_gives_ws_10_from_4_metres_to_the_charge_move(setup):
    assert listed(setup("Sword", action="charge", distance=6)) == ["Charge +10"]
    with pytest.raises(RulesError, match=r"field 'distance'.*4 m"):
        setup("Sword", action="charge", distance=3)
    with pytest.raises(RulesError, match=r"field 'distance'.*charge move \(12 m\)"):
        setup("Sword", action="charge", distance=13)
    overruled = setup("Sword", action="charge", distance=3, options={"gm_override": True})
    assert overruled.warnings
    assert "4 m" in str(overruled.warnings[0])


def test_guarded_attack_is_minus_10(setup):
    result = setup("Sword", action="guarded_attack")
    assert listed(result) == ["Guarded Attack -10"]
    assert any(
        note.endswith("Dodge and Parry tests until their next turn (10)")
        for note in map(str, result.notes)
    )


def test_semi_auto_burst_plus_10_capped_at_the_semi_rate_and_jams_on_94(setup):
    result = setup("Autogun", action="semi_auto_burst", distance=60)
    assert listed(result) == ["Semi-Auto Burst +10"]
    assert (result.mode, result.max_hits, result.rounds, result.jam_from) == ("semi", 3, 3, 94)
    moving = setup(
        "Autogun", action="semi_auto_burst", distance=60, options={"move_and_fire": True}
    )
    assert listed(moving) == []


def test_full_auto_burst_plus_20_or_minus_10_on_the_move(setup):
    result = setup("Autogun", action="full_auto_burst", distance=60)
    assert listed(result) == ["Full Auto Burst +20"]
    assert (result.mode, result.max_hits, result.rounds, result.jam_from) == ("full", 10, 10, 94)
    moving = setup(
        "Autogun", action="full_auto_burst", distance=60, options={"move_and_fire": True}
    )
    assert listed(moving) == ["Full Auto Burst (moving) -10"]


def test_illegal_fire_modes_are_refused_naming_the_field(setup):
    with pytest.raises(RulesError, match=r"field 'weapon'.*no full-auto"):
        setup("Lasgun", action="full_auto_burst")
    with pytest.raises(RulesError, match=r"field 'weapon'.*semi fire needs a ranged weapon"):
        setup("Sword", action="semi_auto_burst")
    with pytest.raises(RulesError, match=r"field 'mode'.*Semi-Auto Burst"):
        setup("Lasgun", mode="semi")
    with pytest.raises(RulesError, match=r"field 'mode'.*no single shot"):
        setup("Heavy Stubber", options={"prepared": {"brace_heavy_weapon": True}})


def test_suppressing_fire_minus_20_up_to_the_full_rate(setup):
    result = setup("Autogun", action="suppressing_fire", distance=60)
    assert listed(result) == ["Suppressing Fire -20"]
    assert (result.mode, result.max_hits, result.rounds, result.jam_from) == (
        "suppressing",
        10,
        10,
        94,
    )
    assert any(
        note.endswith("tests Pinning (WP) at this modifier or is pinned (-20)")
        for note in map(str, result.notes)
    )


def test_reliable_unreliable_and_flame_weapons(setup):
    assert setup("Laspistol", distance=10).jam_from == 100
    assert setup("Stub Pistol", action="semi_auto_burst", distance=10).jam_from == 91
    flame = setup("Flamer", distance=10)
    assert (flame.jam_from, flame.auto_hit, flame.can_parry) == (None, True, False)


def test_thrown_weapons_never_jam_and_a_melee_weapon_can_be_thrown(setup):
    grenade = setup("Frag Grenade", distance=10)
    assert (grenade.characteristic, grenade.rounds, grenade.jam_from) == ("BS", 0, None)
    knife = setup("Knife", mode="thrown", distance=1.5)
    assert (knife.characteristic, knife.mode, knife.jam_from) == ("BS", "single", None)
    # range 5: short range 2.5 m is under 3 m, so point blank is 1 m less (004)
    assert listed(knife) == ["Point blank +30"]
    assert listed(setup("Knife", mode="thrown", distance=2)) == ["Short range +10"]
    with pytest.raises(RulesError, match=r"field 'mode'.*thrown"):
        setup("Sword", mode="thrown")


def test_ammunition_empty_is_refused_and_a_short_clip_fires_what_is_left(setup, veteran, weapon):
    shooter = veteran("dark_heresy", "Autogun")
    empty = shooter.edit(weapons=[weapon("Autogun", loaded=0)])
    with pytest.raises(RulesError, match=r"field 'weapon'.*empty"):
        setup("Autogun", attacker=empty)
    low = shooter.edit(weapons=[weapon("Autogun", loaded=2)])
    result = setup("Autogun", attacker=low, action="full_auto_burst", distance=30)
    assert (result.max_hits, result.rounds) == (2, 2)


def test_stun_is_ws_minus_20_and_unarmed_doubles_armour(setup):
    result = setup("unarmed", action="stun")
    assert listed(result) == ["Stun -20", "Unarmed against an armed opponent -20"]
    assert (result.mode, result.primitive_armour_double) == ("stun", True)
    assert not setup("Sword", action="stun").primitive_armour_double
    assert setup("Club").primitive_armour_double


def test_unarmed_attacks_are_minus_20_only_against_an_armed_opponent(setup, veteran):
    bare = veteran("dark_heresy", name="Bare")
    assert listed(setup("unarmed", target=bare)) == []
    assert setup("unarmed", target=bare).primitive_armour_double
    assert listed(setup("Unarmed", options={"target_armed": False})) == []
    with pytest.raises(RulesError, match=r"field 'weapon'.*'Bolter' is not on"):
        setup("Bolter")


def test_knock_down_is_an_opposed_strength_test_helped_by_a_half_move(setup, veteran):
    result = setup("unarmed", action="knock_down", target=veteran(name="Bare"))
    assert (result.characteristic, result.mode, result.can_dodge, result.can_parry) == (
        "S",
        "knock_down",
        False,
        False,
    )
    assert any(note.startswith("opposed") for note in map(str, result.notes))
    moved = setup(
        "unarmed",
        action="knock_down",
        options={"prepared": {"move": "half"}},
        target=veteran(name="Bare"),
    )
    assert listed(moved) == ["Moved before Knock-Down +10"]
    assert listed(setup("Sword", options={"prepared": {"move": "half"}})) == []


def test_feint_and_manoeuvre_are_opposed_ws_and_a_won_feint_blocks_reactions(setup):
    assert setup("Sword", action="feint").mode == "feint"
    assert setup("Sword", action="manoeuvre").characteristic == "WS"
    after = setup("Sword", options={"prepared": {"feint": True}})
    assert (after.can_dodge, after.can_parry) == (False, False)
    lost = setup("Sword", action="all_out_attack", options={"prepared": {"feint": True}})
    assert (lost.can_dodge, lost.can_parry) == (True, True)
    assert any("Feint lost" in note for note in map(str, lost.notes))


def test_grapple_needs_a_grapple_and_an_option(setup):
    held = {"attacker_conditions": ["grappled"]}
    crush = setup("unarmed", action="grapple", options={**held, "grapple_option": "damage"})
    assert (crush.characteristic, crush.mode, crush.called_location) == (
        "S",
        "grapple_damage",
        "body",
    )
    assert crush.primitive_armour_double
    assert not crush.can_dodge
    wriggle = setup("unarmed", action="grapple", options={**held, "grapple_option": "wriggle_free"})
    assert wriggle.characteristic == "Ag"
    with pytest.raises(RulesError, match=r"grapple_option.*makes no test"):
        setup("unarmed", action="grapple", options={**held, "grapple_option": "ready"})
    with pytest.raises(RulesError, match=r"grapple_option.*one of damage"):
        setup("unarmed", action="grapple", options=held)
    with pytest.raises(RulesError, match=r"attacker_conditions.*only used in a grapple"):
        setup("unarmed", action="grapple", options={"grapple_option": "damage"})
    with pytest.raises(RulesError, match=r"conditions.*Tull is in a grapple: only Grapple"):
        setup("Sword", options=held)


def test_an_unarmed_standard_attack_or_charge_may_start_a_grapple(setup):
    assert setup("unarmed", options={"grapple": True}).mode == "grapple"
    assert setup("unarmed", action="charge", distance=5, options={"grapple": True}).mode == (
        "grapple"
    )
    with pytest.raises(RulesError, match=r"options\['grapple'\].*unarmed"):
        setup("Sword", options={"grapple": True})


def test_multiple_attacks_need_a_talent_or_two_weapons(setup, trained, veteran):
    with pytest.raises(RulesError, match=r"field 'action'.*Swift Attack"):
        setup("Sword", action="multiple_attacks")
    swift = veteran("dark_heresy", "Sword", talents=[*trained, "Swift Attack"])
    assert setup("Sword", attacker=swift, action="multiple_attacks").max_hits == 2
    fast = veteran("dark_heresy", "Sword", talents=[*trained, "Lightning Attack"])
    assert setup("Sword", attacker=fast, action="multiple_attacks").max_hits == 3
    twin = veteran("dark_heresy", "Sword", talents=[*trained, "Two-Weapon Wielder (Melee)"])
    both = {"two_weapons": True}
    assert listed(setup("Sword", attacker=twin, action="multiple_attacks", options=both)) == [
        "Two weapons -20"
    ]
    deft = twin.edit(talents=[*twin.talents, "Ambidextrous"])
    assert listed(setup("Sword", attacker=deft, action="multiple_attacks", options=both)) == [
        "Two weapons (ambidextrous) -10"
    ]
    with pytest.raises(RulesError, match=r"Two-Weapon Wielder \(Ballistic\)"):
        setup(
            "Laspistol",
            attacker=veteran(
                "dark_heresy", "Laspistol", talents=[*trained, "Two-Weapon Wielder (Melee)"]
            ),
            action="multiple_attacks",
            options=both,
            distance=10,
        )


def test_overwatch_fires_the_declared_mode(setup):
    result = setup("Autogun", action="overwatch", mode="full", distance=60)
    assert listed(result) == ["Full Auto Burst +20"]
    assert result.max_hits == 10
    assert any(
        note.endswith("tests Pinning (WP) at this modifier or is pinned (-20)")
        for note in map(str, result.notes)
    )
    with pytest.raises(RulesError, match=r"field 'mode'.*semi or full or suppressing"):
        setup("Autogun", action="overwatch", distance=60)


def test_non_attacks_and_unknown_ids_are_refused(setup, veteran):
    with pytest.raises(RulesError, match=r"field 'action'.*Run is not an attack"):
        setup("Sword", action="run")
    with pytest.raises(RulesError, match=r"field 'action'.*unknown action 'smite'"):
        setup("Sword", action="smite")
    with pytest.raises(RulesError, match=r"field 'game'"):
        setup("Sword", game="wfrp2", attacker=veteran(), target=veteran(name="Foe"))
    with pytest.raises(RulesError, match=r"field 'attacker'"):
        attack_setup(
            AttackRequest(veteran("deathwatch", "Sword"), "Sword", veteran()), "dark_heresy"
        )
    with pytest.raises(RulesError, match=r"option 'off_hand': must be true or false"):
        setup("Sword", options={"off_hand": "yes"})
    assert issubclass(modifiers.RulesError, GmkitError)


def test_heavy_weapons_unbraced_in_deathwatch_minus_30(setup):
    stubber = setup("Heavy Stubber", game="deathwatch", action="full_auto_burst", distance=60)
    assert listed(stubber) == ["Full Auto Burst +20", "Heavy weapon unbraced -30"]
    braced = setup(
        "Heavy Stubber",
        game="deathwatch",
        action="full_auto_burst",
        distance=60,
        options={"prepared": {"brace_heavy_weapon": True}},
    )
    assert listed(braced) == ["Full Auto Burst +20"]
    also = setup(
        "Heavy Stubber",
        game="deathwatch",
        action="full_auto_burst",
        distance=60,
        options={"attacker_conditions": ["braced"]},
    )
    assert listed(also) == ["Full Auto Burst +20"]


def test_modifiers_are_listed_uncapped(setup):
    result = setup(
        "Laspistol",
        distance=1,
        options={"prepared": {"aim": "full"}, "target_conditions": ["stunned", "unaware"]},
    )
    assert listed(result) == [
        "Aim (full) +20",
        "Point blank +30",
        "Target stunned +20",
        "Target unaware +30",
    ]
    assert sum(modifier.value for modifier in result.modifiers) == 100
    assert result.modifiers[0].source == Message.term("dark_heresy.modifier.aim_full", "Aim (full)")


def test_reactions_a_target_may_use(setup, veteran):
    assert not setup("Sword", target=veteran(name="Empty-handed")).can_parry
    cultists = {"magnitude_max": 30}
    horde = veteran("deathwatch", "Sword", name="Cultists", wounds=8, tier="troop", horde=cultists)
    mob = setup("Sword", game="deathwatch", target=horde)
    assert (mob.can_dodge, mob.can_parry) == (False, False)
    allowed = setup("Sword", game="deathwatch", target=horde, options={"horde_reacts": True})
    assert (allowed.can_dodge, allowed.can_parry) == (True, True)


def test_helpless_targets_are_hit_automatically_in_melee_with_damage_rolled_twice(setup):
    result = setup("Sword", options={"target_conditions": ["helpless"]})
    assert (result.auto_hit, result.extra_damage_dice) == (True, 1)
    assert (result.can_dodge, result.can_parry) == (False, False)
    shot = setup("Lasgun", distance=60, options={"target_conditions": ["helpless"]})
    assert (shot.auto_hit, shot.extra_damage_dice) == (False, 0)


def test_data_files_can_be_overridden_by_a_gm(tmp_path, monkeypatch, setup):
    folder = tmp_path / "deathwatch"
    folder.mkdir()
    original = modifiers.catalog.table("deathwatch", "actions")
    text = __import__("yaml").safe_dump({**original, "jams": {**original["jams"], "single": 90}})
    (folder / "actions.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    modifiers.clear_caches()
    try:
        assert setup("Lasgun", game="deathwatch", distance=60).jam_from == 90
        assert setup("Lasgun", distance=60).jam_from == 90  # Dark Heresy extends Deathwatch
    finally:
        monkeypatch.delenv("GMKIT_DATA_PATH")
        modifiers.clear_caches()
    assert setup("Lasgun", distance=60).jam_from == 96


@pytest.mark.parametrize(
    ("option", "test", "mode", "opposed"),
    [
        ("damage", "S", "grapple_damage", True),
        ("throw_down", "S", "grapple_throw", True),
        ("push", "S", "grapple_push", True),
        ("stand", "S", "grapple_stand", True),
        ("break_free", "S", "grapple_break_free", True),
        ("wriggle_free", "Ag", "grapple_wriggle", False),
        ("take_control", "S", "grapple_take_control", True),
    ],
)
def test_every_grapple_option(option, test, mode, opposed, setup):
    result = setup(
        "unarmed",
        action="grapple",
        options={"attacker_conditions": ["grappled"], "grapple_option": option},
    )
    assert (result.characteristic, result.mode) == (test, mode)
    assert (result.can_dodge, result.can_parry) == (False, False)
    assert any(note.startswith("opposed") for note in map(str, result.notes)) is opposed
