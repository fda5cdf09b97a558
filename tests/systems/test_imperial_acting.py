"""Dark Heresy's and Deathwatch's rules of the turn (gmkit.systems._imperial.acting): what the
conditions forbid, through the encounter's permits and commands (seeds 001 and 004)."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import RulesError
from gmkit.games import game
from gmkit.messages import render
from gmkit.systems._imperial.acting import DARK_HERESY, DEATHWATCH, ImperialTurns


def test_the_registry_holds_one_shared_class_per_game() -> None:
    assert game("dark_heresy").acting is DARK_HERESY
    assert game("deathwatch").acting is DEATHWATCH
    assert isinstance(DARK_HERESY, ImperialTurns)
    assert (DARK_HERESY.game, DEATHWATCH.game) == ("dark_heresy", "deathwatch")


def test_restrictions_come_from_the_conditions_flags() -> None:
    (stunned,) = DARK_HERESY.restrictions(["stunned"])
    assert (stunned.no_actions, stunned.no_reactions) == (True, True)
    assert render(stunned.why) == "stunned: no actions"
    assert render(stunned.why, "es") == "aturdido: sin acciones"
    (pinned,) = DARK_HERESY.restrictions(["pinned"])  # 001: one half action in its turn
    assert (dict(pinned.caps), pinned.types, pinned.no_actions) == ({"actions": 1}, None, False)
    assert render(pinned.why, "es") == "acobardado: una sola media acción por turno"
    (marine,) = DEATHWATCH.restrictions(["pinned"])  # 004: half actions only
    assert (marine.types, dict(marine.caps)) == (frozenset({"half", "free"}), {})
    assert render(marine.why) == "pinned: half actions only"
    only, no_reactions = DEATHWATCH.restrictions(["grappled"])
    assert only.actions == frozenset({"grapple"})
    assert render(only.why) == "in a grapple: only Grapple"
    assert no_reactions.no_reactions
    assert not no_reactions.no_actions
    (broken,) = DEATHWATCH.restrictions(["broken"])
    assert broken.actions == frozenset({"run"})
    # the GM's own names, the fallen (the permits' own) and All Out Attack (counted by the
    # reaction rule) give none
    assert DARK_HERESY.restrictions(["behind the pews", "dead", "all_out_attack"]) == ()
    assert DARK_HERESY.restrictions(["jammed: Lasgun"]) == ()


@pytest.mark.parametrize("game_id", ["dark_heresy", "deathwatch"])
def test_a_stunned_combatant_is_refused_every_action_and_reaction(
    game_id, fight_of, demo_sheet
) -> None:
    names = {
        "dark_heresy": ("Sergeant Varro Tull", "Cultist Lorn"),
        "deathwatch": ("Brother Castor", "Nob Gritfang"),
    }[game_id]
    fight = fight_of(game_id, *names)
    me, foe = fight.state.order
    fight.add_condition(me, "stunned", rounds=1)
    for kind in ("half", "full", "free"):
        permit = fight.may(me, kind)
        assert not permit.allowed
        assert f"{names[0]} is stunned: no actions" in render(permit.why)
        with pytest.raises(RulesError, match="is stunned: no actions"):
            fight.spend(me, kind)
    with pytest.raises(RulesError, match="is stunned: no actions"):
        fight.act(me, "aim")
    assert "está aturdido: sin acciones" in render(fight.may_do(me, "ready").why, "es")
    weapon = demo_sheet(game_id, names[0]).weapons[0].name  # type: ignore[attr-defined]
    with pytest.raises(RulesError, match="is stunned: no actions"):
        fight.attack(me, weapon, foe, EnteredDice([30, 5]), distance=10, spend=True)
    assert not fight.may_react(me, "dodge").allowed
    assert fight.combatant(me).spent == {}


def test_a_pinned_acolyte_takes_one_half_action_and_no_more(fight_of) -> None:
    fight = fight_of("dark_heresy", "Sergeant Varro Tull", "Cultist Lorn")
    fight.add_condition("sergeant-varro-tull", "pinned")
    assert not fight.may("sergeant-varro-tull", "full").allowed
    assert fight.may("sergeant-varro-tull", "free").allowed
    fight.act("sergeant-varro-tull", "move", as_type="half")
    assert fight.combatant("sergeant-varro-tull").spent == {"actions": 1}
    refused = fight.may("sergeant-varro-tull", "half")
    assert "Sergeant Varro Tull is pinned: one half action a turn" in render(refused.why)
    with pytest.raises(RulesError, match="pinned: one half action a turn"):
        fight.act("sergeant-varro-tull", "ready")
    with pytest.raises(RulesError, match="pinned: one half action a turn"):
        fight.attack(
            "sergeant-varro-tull", "Lasgun", "cultist-lorn", EnteredDice([30, 5]), spend=True
        )
    fight.spend("sergeant-varro-tull", "free")  # free actions besides


def test_a_pinned_marine_takes_half_actions_but_no_full_one(fight_of) -> None:
    fight = fight_of("deathwatch", "Brother Castor", "Nob Gritfang")
    fight.add_condition("brother-castor", "pinned")
    with pytest.raises(RulesError, match="Brother Castor is pinned: half actions only"):
        fight.spend("brother-castor", "full")
    with pytest.raises(RulesError, match="pinned: half actions only"):
        fight.act("brother-castor", "defensive_stance")  # a Full Action
    with pytest.raises(RulesError, match="pinned"):  # the attack's own rule says so too
        fight.attack(
            "brother-castor",
            "Astartes Bolter (Godwyn)",
            "nob-gritfang",
            EnteredDice([30]),
            mode="full",
            action="full_auto_burst",
            spend=True,
        )
    fight.act("brother-castor", "aim", as_type="half")
    fight.act("brother-castor", "move", as_type="half")  # two half actions: allowed
    assert fight.combatant("brother-castor").spent == {"actions": 2}


def test_a_grappled_marine_may_take_only_grapple(fight_of) -> None:
    fight = fight_of("deathwatch", "Brother Castor", "Nob Gritfang")
    fight.add_condition("brother-castor", "grappled")
    permit = fight.may_do("brother-castor", "aim")
    assert "Brother Castor is in a grapple: only Grapple" in render(permit.why)
    assert fight.may("brother-castor", "half", action="grapple").allowed
    assert "in a grapple: no reactions" in render(fight.may_react("brother-castor", "dodge").why)


def test_a_melee_attack_ends_pinning_of_the_attacker_and_of_the_target(fight_of) -> None:
    fight = fight_of("dark_heresy", "Ilse Marr", "Cultist Lorn", "Sergeant Varro Tull")
    fight.add_condition("ilse-marr", "pinned")
    fight.add_condition("cultist-lorn", "pinned")
    fight.add_condition("sergeant-varro-tull", "pinned")
    cut = fight.attack("ilse-marr", "Sword", "cultist-lorn", EnteredDice([90]), mode="melee")
    removed = [(e.target, e.condition) for e in cut.effects if e.kind == "remove_condition"]
    assert removed == [("Ilse Marr", "pinned"), ("Cultist Lorn", "pinned")]  # a miss too
    assert "pinned" not in fight.combatant("ilse-marr").conditions
    assert "pinned" not in fight.combatant("cultist-lorn").conditions
    # a shot is no melee: the pinned target stays pinned
    fight.add_condition("cultist-lorn", "pinned")
    fight.attack("sergeant-varro-tull", "Lasgun", "cultist-lorn", EnteredDice([90]), distance=20)
    assert "pinned" in fight.combatant("cultist-lorn").conditions
    assert "pinned" in fight.combatant("sergeant-varro-tull").conditions


def test_moving_into_melee_ends_pinning(fight_of) -> None:
    fight = fight_of("deathwatch", "Brother Castor", "Nob Gritfang")
    fight.add_condition("brother-castor", "pinned")
    moved = fight.act("brother-castor", "move", as_type="half", inputs={"engages": True})
    assert "Move: Brother Castor in melee: no longer pinned" in moved.explain()
    assert "pinned" not in fight.combatant("brother-castor").conditions
    assert "engaged" in fight.combatant("brother-castor").conditions
    with pytest.raises(RulesError, match="into melee: yes or no"):
        fight.act("brother-castor", "move", as_type="half", inputs={"engages": "yes"})
