"""What a panel may offer, per game, read from the games' own catalogs and rules."""

from __future__ import annotations

from functools import cache

import pytest

from gmkit.demo import demo_campaign
from gmkit.errors import GmkitError
from gmkit.messages import render
from gmkit.systems import _choices as choices
from gmkit.systems.base import AttackRequest, Standing
from gmkit.systems.necromunda._state import FighterState, with_encounter_states


@cache
def campaign():
    return demo_campaign()  # sheets are immutable: one read serves every test


def sheet(game: str, name: str):
    roster = next(r for r in campaign().rosters if r.game == game)
    return next(s for s in roster.sheets if s.name == name)


def ids(items) -> list[str]:
    return [item.id for item in items]


# --- WFRP 2e ----------------------------------------------------------------------------------


def test_wfrp_bow_is_ranged_and_offers_only_the_ranged_attacks():
    elsa = sheet("wfrp2", "Elsa Wendt")
    assert choices.weapons("wfrp2", elsa) == ("Bow", "Dagger", "Unarmed")
    offered = choices.attack_choices("wfrp2", elsa, "Bow")
    assert ids(offered.modes) == ["ranged"]
    assert ids(offered.actions) == ["swift_attack", "standard_attack"]
    assert offered.distance_unit == "m"
    assert ids(offered.reactions) == ["parry", "dodge"]
    assert render(offered.reactions[0].label, "es") == "Parada"
    refused = choices.refused_actions("wfrp2", elsa, "Bow", "ranged")
    assert refused["standard_attack"] == ""
    assert "melee" in str(refused["all_out_attack"])  # the rules' own refusal is the reason


def test_wfrp_hand_weapon_is_melee_with_the_melee_actions():
    gunther = sheet("wfrp2", "Gunther Brandauer")
    offered = choices.attack_choices("wfrp2", gunther, "Hand Weapon")
    assert ids(offered.modes) == ["melee"]
    assert {"all_out_attack", "cautious_attack", "charge_attack"} <= set(ids(offered.actions))
    assert choices.action_types("wfrp2", "standard_attack") == ("half",)
    assert choices.action_types("wfrp2", "all_out_attack") == ("full",)
    assert choices.locations("wfrp2", "standard_attack") == ()  # 002 has no called shots


def test_wfrp_circumstances_come_from_the_catalog_and_follow_the_action():
    every = {c.id: c for c in choices.circumstances("wfrp2")}
    assert every["target_running"].kind == "flag"
    assert "WS +20, BS -20" in str(every["target_running"].help)
    assert every["gm_modifier"].kind == "number"
    assert "aimed" in every
    charging = ids(choices.circumstances("wfrp2", "charge_attack"))
    assert "aimed" not in charging  # aimed goes with standard_attack only
    assert "aimed" in ids(choices.circumstances("wfrp2", "standard_attack"))


def test_wfrp_preview_lists_and_totals_the_modifiers_before_the_dice():
    elsa, ungor = sheet("wfrp2", "Elsa Wendt"), sheet("wfrp2", "Ungor Snitch")
    request = AttackRequest(elsa, "Bow", ungor, mode="ranged", circumstances={"aimed": True})
    preview = choices.attack_preview("wfrp2", request)
    assert preview is not None
    assert (str(preview.title), preview.die, str(preview.base)) == ("BS test", "d100", "BS 43")
    assert [(str(m.source), m.value) for m in preview.modifiers] == [
        ("Aimed (the last half action was Aim)", 10)
    ]
    assert (preview.total, preview.target) == (10, 53)


def test_wfrp_reactions_available_say_why_not():
    gor, gunther = sheet("wfrp2", "Gor Bloodhorn"), sheet("wfrp2", "Gunther Brandauer")
    request = AttackRequest(gor, "Hand Weapon", gunther, mode="melee")
    found = choices.reactions_available("wfrp2", request)
    assert found["dodge"] == ""  # Gunther has Dodge Blow
    assert "parry stance" in str(found["parry"])
    backwards = choices.reactions_available(
        "wfrp2", AttackRequest(gunther, "Hand Weapon", gor, mode="melee")
    )
    assert "Dodge Blow" in str(backwards["dodge"])


def test_wfrp_conditions_imply_their_circumstances():
    found = choices.implied_circumstances("wfrp2", "standard_attack", ["aiming"], ["running"])
    assert found == {"aimed": True, "target_running": True}
    assert choices.implied_circumstances("wfrp2", "charge_attack", ["aiming"], []) == {}


# --- Necromunda -------------------------------------------------------------------------------


def test_necromunda_offers_shooting_weapons_and_the_to_hit_catalog():
    kael = sheet("necromunda", "Brother Kael")
    assert choices.weapons("necromunda", kael) == ("bolt pistol",)  # the sword is close combat
    offered = choices.attack_choices("necromunda", kael, "bolt pistol")
    assert ids(offered.modes) == ["shooting"]
    assert ids(offered.actions) == ["shoot"]
    assert render(offered.actions[0].label, "es") == "Disparar"
    assert offered.reactions == ()
    assert offered.distance_unit == "in"
    found = {c.id: c for c in offered.circumstances}
    assert list(found) == ["partial_cover", "cover", "appearing", "fast_moving", "small", "large"]
    assert found["fast_moving"].kind == "number"  # a threshold: inches moved
    assert "not with cover" in str(found["partial_cover"].help)
    assert choices.action_types("necromunda", "shoot") == ("shoot",)
    assert choices.refused_actions("necromunda", kael, "sword", "shooting")["shoot"]


def test_necromunda_preview_is_the_juve_needing_seven():
    jeb, tom = sheet("necromunda", "Little Jeb"), sheet("necromunda", "Scabby Tom")
    request = AttackRequest(
        jeb, "stub gun", tom, distance=12, circumstances={"partial_cover": True}
    )
    preview = choices.attack_preview("necromunda", request)
    assert preview is not None
    assert (preview.die, str(preview.base), preview.target) == ("D6", "7 - BS 2 = 5", 7)
    assert [m.value for m in preview.modifiers] == [-1, -1]
    assert str(preview.notes[0]) == "long range"


def test_necromunda_state_comes_from_the_encounters_conditions_and_counters():
    jeb, tom = sheet("necromunda", "Little Jeb"), sheet("necromunda", "Scabby Tom")
    hidden = Standing.of(conditions=["hidden"])
    hurt = Standing.of(conditions=["down", "pinned"], counters={"damage": 1})
    request = AttackRequest(
        jeb, "stub gun", tom, distance=12, attacker_standing=hidden, target_standing=hurt
    )
    assert choices.state_options("necromunda", request) == {}  # the rules read the standings
    filled = with_encounter_states(request).options
    assert filled.attacker_state == FighterState(hidden=True)
    assert filled.target_state == FighterState(down=True, pinned=True, wounds_left=0)
    given = AttackRequest(
        jeb,
        "stub gun",
        tom,
        options={"target_state": FighterState()},
        attacker_standing=hidden,
        target_standing=hurt,
    )
    assert with_encounter_states(given).options.target_state == FighterState()  # given: kept


# --- WFB 6e -----------------------------------------------------------------------------------


def test_wfb_offers_missile_weapons_the_shooting_catalog_in_centimetres():
    captain = sheet("wfb6", "Captain Ottilie Hals")
    assert choices.weapons("wfb6", captain) == ("handgun",)
    assert choices.weapons("wfb6", sheet("wfb6", "Swordsman")) == ()
    offered = choices.attack_choices("wfb6", captain, "handgun")
    assert ids(offered.modes) == ["missile"]
    assert ids(offered.actions) == ["shoot"]
    assert offered.distance_unit == "cm"
    found = {c.id: c for c in offered.circumstances}
    assert list(found) == ["moved", "stand_and_shoot", "soft_cover", "hard_cover", "gm"]
    assert found["gm"].kind == "number"
    assert str(found["hard_cover"].help) == "-2 to hit"
    goblin, anselm = sheet("wfb6", "Night Goblin Archer"), sheet("wfb6", "Father Anselm")
    assert choices.attack_preview("wfb6", AttackRequest(goblin, "short bow", anselm)) is None


def test_unknown_game_is_refused_by_name():
    with pytest.raises(GmkitError, match="unknown game 'chess'"):
        choices.attack_choices("chess", sheet("wfb6", "Swordsman"), "sword")


# --- Dark Heresy and Deathwatch (while their rules are being finished) ------------------------


def test_dark_heresy_modes_follow_the_weapons_rate_of_fire():
    pytest.importorskip("gmkit.systems._imperial.modifiers")
    varro = sheet("dark_heresy", "Sergeant Varro Tull")
    assert choices.weapons("dark_heresy", varro) == ("Lasgun", "Knife", "Unarmed")
    offered = choices.attack_choices("dark_heresy", varro, "Lasgun")
    assert ids(offered.modes) == ["single", "semi", "melee"]  # S/3/-: no full auto
    single = choices.attack_choices("dark_heresy", varro, "Lasgun", mode="single")
    assert "standard_attack" in ids(single.actions)
    assert "semi_auto_burst" not in ids(single.actions)
    semi = choices.attack_choices("dark_heresy", varro, "Lasgun", mode="semi")
    assert "semi_auto_burst" in ids(semi.actions)
    assert "standard_attack" not in ids(semi.actions)
    refused = choices.refused_actions("dark_heresy", varro, "Lasgun", "single")
    assert "full-auto" in str(refused["full_auto_burst"])
    assert "not in this panel" in str(refused["grapple"])
    knife = choices.attack_choices("dark_heresy", varro, "Knife")
    assert ids(knife.modes) == ["melee", "thrown"]
    assert choices.default_action("dark_heresy", "semi", ids(semi.actions)) == "semi_auto_burst"


def test_dark_heresy_labels_are_english_and_spanish():
    pytest.importorskip("gmkit.systems._imperial.modifiers")
    varro = sheet("dark_heresy", "Sergeant Varro Tull")
    offered = choices.attack_choices("dark_heresy", varro, "Lasgun")
    found = {c.id: c for c in offered.circumstances}
    darkness = found["darkness"].label
    assert (str(darkness), render(darkness, "es")) == ("Darkness", "Oscuridad")
    assert found["cover"].kind == "number"
    assert found["difficult_terrain"].kind == "choice"
    assert found["difficult_terrain"].options == ("both", "attacker", "target")
    assert found["range_band"].kind == "choice"
    assert found["gm_modifier"].kind == "number"
    reactions = {c.id: c for c in offered.reactions}
    assert set(reactions) == {"dodge", "parry"}
    assert render(reactions["dodge"].label, "es") == "Esquivar"
    assert offered.distance_unit == "m"
    assert choices.action_types("dark_heresy", "standard_attack") == ("half",)
    assert choices.action_types("dark_heresy", "semi_auto_burst") == ("full",)
    assert "body" in choices.locations("dark_heresy", "called_shot")


def test_dark_heresy_preview_and_reactions_come_from_attack_setup():
    pytest.importorskip("gmkit.systems._imperial.modifiers")
    varro, ban = sheet("dark_heresy", "Sergeant Varro Tull"), sheet("dark_heresy", "Cultist Ban")
    request = AttackRequest(varro, "Lasgun", ban, distance=20)
    preview = choices.attack_preview("dark_heresy", request)
    assert preview is not None
    assert (str(preview.base), preview.total, preview.target) == ("BS 42", 10, 52)
    assert [str(m.source) for m in preview.modifiers] == ["Short range"]
    found = choices.reactions_available("dark_heresy", request)
    assert found["dodge"] == ""
    assert "melee" in str(found["parry"])


def test_deathwatch_bolter_fires_single_semi_full_and_suppressing():
    pytest.importorskip("gmkit.systems._imperial.modifiers")
    castor = sheet("deathwatch", "Brother Castor")
    offered = choices.attack_choices("deathwatch", castor, "Astartes Bolter (Godwyn)")
    assert ids(offered.modes) == ["single", "semi", "full", "suppressing", "melee"]
    full = choices.attack_choices("deathwatch", castor, "Astartes Bolter (Godwyn)", mode="full")
    assert ids(full.actions) == ["full_auto_burst", "overwatch"]
    assert "ganging_up" in ids(offered.circumstances)
