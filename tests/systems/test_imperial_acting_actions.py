"""Dark Heresy's and Deathwatch's non-attack actions through the encounter (``fight.act``):
Aim carried into the next attack, Brace, Delay, Run, Stand, Reload, Clear Jam, Put Out Fire."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import RulesError
from gmkit.systems._imperial.acting import DARK_HERESY, DEATHWATCH


def step(result: object, title: str) -> str:
    return next(str(s) for s in result.steps if str(s.title) == title)  # type: ignore[attr-defined]


def test_the_actions_offered_are_the_catalogs_non_attacks() -> None:
    offered = {info.id: info for info in DARK_HERESY.actions()}
    assert list(offered) == [
        "aim",
        "brace_heavy_weapon",
        "defensive_stance",
        "delay",
        "disengage",
        "focus_power",
        "jump",
        "move",
        "ready",
        "reload",
        "stand_mount",
        "run",
        "tactical_advance",
        "use_skill",
        "clear_jam",  # the turn_actions, outside 004's list
        "put_out_fire",
        "engage",
    ]
    assert offered["aim"].types == ("half", "full")
    assert offered["clear_jam"].types == ("full",)
    assert offered["clear_jam"].weapon
    assert offered["reload"].weapon
    assert not offered["aim"].weapon
    assert [choice.id for choice in offered["move"].inputs] == ["engages"]
    assert offered["engage"].target
    assert offered["engage"].types == ("half", "full")
    assert [(c.id, c.kind) for c in offered["put_out_fire"].inputs] == [("modifier", "number")]
    assert [info.id for info in DEATHWATCH.actions()] == list(offered)


@pytest.mark.parametrize(("kind", "bonus"), [("half", 10), ("full", 20)])
def test_aim_carries_its_bonus_into_the_next_attack_which_spends_it(kind, bonus, fight_of) -> None:
    fight = fight_of("dark_heresy", "Sergeant Varro Tull", "Cultist Lorn")
    aimed = fight.act("sergeant-varro-tull", "aim", as_type=kind)
    assert str(aimed.steps[0]).startswith(f"Aim: +{bonus} to the next attack")
    assert str(aimed.summary) == f"Sergeant Varro Tull: Aim ({kind} action)"
    tull = fight.combatant("sergeant-varro-tull")
    assert tull.conditions[f"aimed: {kind}"].rounds == 2
    if kind == "full":  # the shot comes in the next turn
        fight.next_turn()
        fight.next_turn()
        assert f"aimed: {kind}" in fight.combatant("sergeant-varro-tull").conditions
    shot = fight.attack(
        "sergeant-varro-tull", "Lasgun", "cultist-lorn", EnteredDice([30, 5]), distance=20
    )
    assert f"[Aim ({kind}) +{bonus}" in step(shot, "Ballistic Skill test")
    assert "not a rule condition" not in " ".join(str(s) for s in shot.steps)
    assert f"aimed: {kind}" not in fight.combatant("sergeant-varro-tull").conditions


def test_an_unused_full_aim_is_gone_when_the_turn_after_next_begins(fight_of) -> None:
    fight = fight_of("dark_heresy", "Sergeant Varro Tull", "Cultist Lorn")
    fight.act("sergeant-varro-tull", "aim", as_type="full")
    for _ in range(4):
        fight.next_turn()
    assert fight.state.current.id == "sergeant-varro-tull"
    assert "aimed: full" not in fight.combatant("sergeant-varro-tull").conditions


def test_a_reaction_or_another_action_ends_the_aim(fight_of) -> None:
    fight = fight_of("dark_heresy", "Sergeant Varro Tull", "Cultist Lorn")
    fight.act("sergeant-varro-tull", "aim", as_type="half")
    fight.react("sergeant-varro-tull", "dodge")
    assert "aimed: half" not in fight.combatant("sergeant-varro-tull").conditions
    assert DARK_HERESY.lapsed_by_reaction(["aimed: full", "pinned"]) == ("aimed: full",)
    fight.next_turn()
    fight.next_turn()
    fight.act("sergeant-varro-tull", "aim", as_type="half")
    moved = fight.act("sergeant-varro-tull", "move", as_type="half")
    assert [(e.kind, e.condition) for e in moved.effects] == [("remove_condition", "aimed: half")]
    assert "aimed: half" not in fight.combatant("sergeant-varro-tull").conditions


def test_brace_leaves_braced_which_the_attack_reads_and_a_move_ends(fight_of) -> None:
    fight = fight_of("deathwatch", "Brother Varek", "Nob Gritfang")
    fight.act("brother-varek", "brace_heavy_weapon")
    assert "braced" in fight.combatant("brother-varek").conditions
    burst = fight.attack(
        "brother-varek",
        "Astartes Heavy Bolter",
        "nob-gritfang",
        EnteredDice([90]),
        distance=30,
        mode="full",
        action="full_auto_burst",
    )
    assert "unbraced" not in step(burst, "Ballistic Skill test").casefold()
    fight.next_turn()
    fight.next_turn()
    fight.act("brother-varek", "move", as_type="half")
    assert "braced" not in fight.combatant("brother-varek").conditions


def test_delay_ends_the_turn_keeping_a_half_action(fight_of) -> None:
    fight = fight_of("dark_heresy", "Sergeant Varro Tull", "Cultist Lorn")
    fight.act("sergeant-varro-tull", "delay")
    tull = fight.combatant("sergeant-varro-tull")
    assert tull.delayed
    assert tull.spent == {"actions": 1}
    assert fight.state.current.id == "cultist-lorn"
    assert fight.may("sergeant-varro-tull", "half").allowed  # the kept half action


def test_run_and_defensive_stance_leave_their_states_and_stand_up_ends_prone(fight_of) -> None:
    fight = fight_of("dark_heresy", "Sergeant Varro Tull", "Cultist Lorn")
    fight.act("sergeant-varro-tull", "run")
    assert fight.combatant("sergeant-varro-tull").conditions["running"].rounds == 1
    fight.next_turn()
    fight.add_condition("cultist-lorn", "prone")
    stood = fight.act("cultist-lorn", "stand_mount")
    assert str(stood.steps[0]) == "Stand/Mount: no longer prone"
    fight.act("cultist-lorn", "defensive_stance", override="the GM allows it")
    assert "defensive_stance" in fight.combatant("cultist-lorn").conditions
    assert "prone" not in fight.combatant("cultist-lorn").conditions


def test_reload_brings_the_rounds_spent_back_and_takes_the_weapons_reload_time(fight_of) -> None:
    fight = fight_of("dark_heresy", "Ilse Marr", "Cultist Lorn")
    fight.attack("ilse-marr", "Laspistol", "cultist-lorn", EnteredDice([90]), distance=10)
    assert fight.combatant("ilse-marr").counters == {"ammo spent: Laspistol": 1}
    with pytest.raises(RulesError, match="Laspistol is reloaded with the full action"):
        fight.act("ilse-marr", "reload", weapon="Laspistol", as_type="half")
    with pytest.raises(RulesError, match="Reload needs a weapon"):
        fight.act("ilse-marr", "reload")
    reloaded = fight.act("ilse-marr", "reload", weapon="Laspistol", as_type="full")
    assert str(reloaded.steps[0]) == "Reload: Laspistol reloaded: 1 round back"
    assert fight.combatant("ilse-marr").counters == {"ammo spent: Laspistol": 0}
    assert fight.combatant("ilse-marr").spent == {"actions": 2}
    with pytest.raises(RulesError, match="Sword cannot be reloaded"):
        fight.act("ilse-marr", "reload", weapon="Sword", as_type="full", override="test")


def test_a_two_full_actions_reload_is_an_extended_action(fight_of) -> None:
    fight = fight_of("dark_heresy", "Adept Cornelius Fenn", "Cultist Lorn")
    with pytest.raises(RulesError, match="Stub Revolver is reloaded with the extended action"):
        fight.act("adept-cornelius-fenn", "reload", weapon="Stub Revolver", as_type="full")
    done = fight.act("adept-cornelius-fenn", "reload", weapon="Stub Revolver", as_type="extended")
    assert str(done.steps[0]) == (
        "Reload: Stub Revolver is already loaded (2 Full Actions in all: ready once the last is "
        "spent (the GM counts them))"
    )


def test_clear_jam_is_a_ballistic_skill_test_that_lifts_the_jam(fight_of) -> None:
    fight = fight_of("dark_heresy", "Sergeant Varro Tull", "Cultist Lorn")
    with pytest.raises(RulesError, match="Lasgun is not jammed"):
        fight.act("sergeant-varro-tull", "clear_jam", EnteredDice([30]), weapon="Lasgun")
    fight.attack(
        "sergeant-varro-tull",
        "Lasgun",
        "cultist-lorn",
        EnteredDice([100]),  # a Reliable lasgun jams on 100 only
        distance=20,
    )
    assert "jammed: Lasgun" in fight.combatant("sergeant-varro-tull").conditions
    failed = fight.act("sergeant-varro-tull", "clear_jam", EnteredDice([50]), weapon="Lasgun")
    assert str(failed.steps[0]).startswith("Clear jam (full action): still jammed")
    assert "jammed: Lasgun" in fight.combatant("sergeant-varro-tull").conditions
    fight.next_turn()
    fight.next_turn()
    cleared = fight.act("sergeant-varro-tull", "clear_jam", EnteredDice([30]), weapon="Lasgun")
    assert str(cleared.steps[0]).startswith("Clear jam (full action): cleared (BS 42")
    tull = fight.combatant("sergeant-varro-tull")
    assert "jammed: Lasgun" not in tull.conditions
    assert tull.counters == {"ammo spent: Lasgun": 60}  # 001: a las weapon loses its clip
    assert tull.spent == {"actions": 2}


def test_put_out_fire_is_an_agility_test_at_minus_20(fight_of) -> None:
    fight = fight_of("dark_heresy", "Jessa Kell", "Cultist Lorn")
    with pytest.raises(RulesError, match="Jessa Kell is not on fire"):
        fight.act("jessa-kell", "put_out_fire", EnteredDice([5]))
    fight.add_condition("jessa-kell", "on_fire")
    failed = fight.act("jessa-kell", "put_out_fire", EnteredDice([21]))  # Ag 40 -20 = 20
    assert str(failed.steps[0]).startswith("Put Out Fire: failed (Ag 40 -20 = 20")
    assert "on_fire" in fight.combatant("jessa-kell").conditions
    fight.next_turn()
    fight.next_turn()
    put_out = fight.act("jessa-kell", "put_out_fire", EnteredDice([20]))
    assert str(put_out.steps[0]).startswith("Put Out Fire: passed: no longer on fire")
    assert "on_fire" not in fight.combatant("jessa-kell").conditions


def test_put_out_fire_takes_the_gms_modifier(fight_of) -> None:
    """004: the GM makes putting the fire out easier or harder (issue 21, item 7): the number
    typed with the action weighs on the test, and its explanation names it."""
    fight = fight_of("deathwatch", "Brother Castor", "Nob Gritfang")
    fight.add_condition("brother-castor", "on_fire")
    helped = fight.act("brother-castor", "put_out_fire", EnteredDice([40]), inputs={"modifier": 20})
    assert str(helped.steps[0]) == (
        "Put Out Fire: passed: no longer on fire (Ag 40 +0 = 40 [Put Out Fire -20, GM's modifier "
        "+20]; rolled 40: success, 0 degrees of success)"
    )
    spanish = helped.steps[0].render("es")
    assert spanish.startswith(
        "Apagar el fuego: superada: deja de estar en llamas (Ag 40 +0 = 40 [Apagar el fuego -20, "
        "Modificador del DJ +20]"
    )
    fight.undo()
    harder = fight.act(
        "brother-castor", "put_out_fire", EnteredDice([11]), inputs={"modifier": -10}
    )
    assert str(harder.steps[0]).startswith("Put Out Fire: failed (Ag 40 -30 = 10 [")
    fight.undo()
    with pytest.raises(RulesError, match=r"the GM's modifier is a whole number, not 2\.5"):
        fight.act("brother-castor", "put_out_fire", EnteredDice([5]), inputs={"modifier": 2.5})
    with pytest.raises(RulesError, match="GM's modifier: a number"):
        fight.act("brother-castor", "put_out_fire", EnteredDice([5]), inputs={"modifier": "easy"})


def test_attacks_and_reactions_are_not_taken_as_actions_here(fight_of) -> None:
    fight = fight_of("dark_heresy", "Sergeant Varro Tull", "Cultist Lorn")
    with pytest.raises(RulesError, match="standard_attack"):
        fight.act("sergeant-varro-tull", "standard_attack")


def test_a_dodge_made_through_an_attack_ends_the_dodgers_aim(fight_of) -> None:
    fight = fight_of("dark_heresy", "Sergeant Varro Tull", "Cultist Lorn")
    fight.act("sergeant-varro-tull", "aim", as_type="half")
    fight.next_turn()
    knife = fight.attack(
        "cultist-lorn",
        "Knife",
        "sergeant-varro-tull",
        EnteredDice([20, 5]),  # a hit, then Tull's Dodge (Ag 33): 5 negates it
        mode="melee",
        options={"reaction": "dodge"},
    )
    assert step(knife, "Dodge").startswith("Dodge: the attack is negated")
    assert ("remove_condition", "Sergeant Varro Tull", "aimed: half") in [
        (e.kind, e.target, e.condition) for e in knife.effects
    ]
    assert "aimed: half" not in fight.combatant("sergeant-varro-tull").conditions
