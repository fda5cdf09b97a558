"""Pinned and melee (issue 21, item 7a). 004: a character in melee is no longer pinned; 001: a
pinned character who enters melee recovers at once. The encounter keeps "in melee" as the
condition ``engaged`` that a Move into melee (the actor's or a foe's) or a Charge leaves on
both; while a combatant bears it, pinning binds it no more."""

from __future__ import annotations

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import RulesError
from gmkit.systems._imperial.acting import DARK_HERESY, DEATHWATCH
from gmkit.systems._imperial.conditions import conditions
from gmkit.systems._imperial.modifiers import attack_setup
from gmkit.systems.acting import Bearer
from gmkit.systems.base import AttackRequest, Standing


def held(fight, ident: str) -> set[str]:
    return set(fight.combatant(ident).conditions)


def test_a_pinned_brother_already_engaged_may_make_an_all_out_attack(fight_of) -> None:
    fight = fight_of("deathwatch", "Brother Castor", "Nob Gritfang")
    fight.next_turn()  # the nob moves into melee with Castor, and attacks no one
    fight.act("nob-gritfang", "engage", target="brother-castor", as_type="half")
    assert {"engaged"} <= held(fight, "brother-castor") & held(fight, "nob-gritfang")
    fight.add_condition("brother-castor", "pinned")  # suppressing fire from further off
    fight.next_turn()  # Castor's turn, still in melee with the nob
    assert fight.state.current.id == "brother-castor"
    assert fight.may_take("brother-castor", "all_out_attack").allowed
    assert DEATHWATCH.restrictions(["pinned", "engaged"]) == ()
    fight.next_turn()  # the end of his turn asks no Willpower test of one in melee
    assert [due.rule for due in fight.due if due.bearer == "brother-castor"] == []
    fight.undo()
    struck = fight.attack(
        "brother-castor",
        "Astartes Combat Knife",
        "nob-gritfang",
        EnteredDice([99]),
        action="all_out_attack",
        mode="melee",
        spend=True,
    )
    assert "pinned" not in held(fight, "brother-castor")  # the melee attack ends it
    assert fight.combatant("brother-castor").spent == {"actions": 2}
    assert "Pinned" not in " ".join(str(step) for step in struck.steps)


def test_the_rules_lift_pinning_for_an_attacker_engaged_in_melee(veteran) -> None:
    brother = veteran("deathwatch", "Sword", "Laspistol", name="Castor")
    ork = veteran("deathwatch", "Sword", name="Ork")
    pinned = Standing.of(["pinned"])
    alone = AttackRequest(brother, "Sword", ork, action="all_out_attack", attacker_standing=pinned)
    with pytest.raises(RulesError, match="Castor is pinned: half actions only"):
        attack_setup(alone, "deathwatch")
    engaged = AttackRequest(
        brother,
        "Sword",
        ork,
        action="all_out_attack",
        attacker_standing=pinned,
        circumstances={"engaged_in_melee": True},
    )
    assert [str(m) for m in attack_setup(engaged, "deathwatch").modifiers] == ["All Out Attack +20"]
    in_melee = Standing.of(["pinned", "engaged"])
    shot = AttackRequest(brother, "Laspistol", ork, distance=1, attacker_standing=in_melee)
    assert "Pinned -20" not in [str(m) for m in attack_setup(shot, "deathwatch").modifiers]


def test_a_pinned_acolyte_an_enemy_moves_into_contact_with_recovers(fight_of) -> None:
    fight = fight_of("dark_heresy", "Cultist Lorn", "Jessa Kell")
    fight.add_condition("jessa-kell", "pinned")
    moved = fight.act("cultist-lorn", "engage", target="jessa-kell", as_type="half")
    assert "Move into melee: Jessa Kell in melee: no longer pinned" in moved.explain()
    assert "Jessa Kell en cuerpo a cuerpo: deja de estar acobardado" in moved.explain("es")
    assert "pinned" not in held(fight, "jessa-kell")
    assert {"engaged"} <= held(fight, "jessa-kell") & held(fight, "cultist-lorn")
    fight.next_turn()  # Jessa's turn: no pinned test, and her pistol shot takes no -20
    assert [due.rule for due in fight.due] == []
    shot = fight.try_attack(
        "jessa-kell", "Autopistol", "cultist-lorn", EnteredDice([99]), distance=1
    )
    assert "Pinned" not in str(shot.steps[0])


def test_a_move_into_melee_from_python_names_the_foe_as_its_target(fight_of) -> None:
    fight = fight_of("dark_heresy", "Cultist Lorn", "Jessa Kell")
    fight.add_condition("jessa-kell", "pinned")
    fight.act("cultist-lorn", "move", target="jessa-kell", as_type="half", inputs={"engages": True})
    assert "pinned" not in held(fight, "jessa-kell")
    with pytest.raises(RulesError, match="Move into melee needs a target"):
        fight.act("cultist-lorn", "engage", as_type="half")


def test_pinning_gained_while_engaged_binds_no_more(demo_sheet) -> None:
    jessa = demo_sheet("dark_heresy", "Jessa Kell")
    both = Bearer(jessa, Standing.of(["pinned", "engaged"]))
    assert DARK_HERESY.turn_rolls("start_of_turn", both) == ()
    assert DARK_HERESY.restrictions(["pinned", "engaged"]) == ()
    assert [r.condition for r in DARK_HERESY.restrictions(["pinned"])] == ["pinned"]
    assert DARK_HERESY.restrictions(["pinned", "grappled"])[0].condition == "grappled"


def test_a_charge_leaves_both_engaged_and_leaving_melee_ends_it(fight_of) -> None:
    fight = fight_of("dark_heresy", "Cultist Lorn", "Jessa Kell")
    fight.attack("cultist-lorn", "Knife", "jessa-kell", EnteredDice([99]), action="charge")
    assert {"engaged"} <= held(fight, "cultist-lorn") & held(fight, "jessa-kell")
    fight.next_turn()
    fight.act("jessa-kell", "disengage")
    assert "engaged" not in held(fight, "jessa-kell")
    assert "engaged" in held(fight, "cultist-lorn")  # he may be engaged with others: the GM's
    fight.next_turn()
    fight.act("cultist-lorn", "move", as_type="half")  # moving off ends it too
    assert "engaged" not in held(fight, "cultist-lorn")
    assert conditions("dark_heresy")["engaged"].ended_by == {"disengage", "move", "run"}
