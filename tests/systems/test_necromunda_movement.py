"""Necromunda movement and hiding: allowances, terrain, obstacles, runs, charges, crawling."""

from __future__ import annotations

import pytest

from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems.base import Effect
from gmkit.systems.necromunda import (
    FighterState,
    Leg,
    Obstacle,
    allowance,
    charge,
    detects,
    hide,
    hide_checks,
    hiding_lost,
    obstacle_crossing,
    plan_move,
    run_must_stop,
    spotting_range,
    terrain_cost,
)

GANGER = NecromundaFighter.build(name="Tom")
SCAVVY = NecromundaFighter.build(name="Mange", I=3)
QUICK = NecromundaFighter.build(name="Kael", I=5)


@pytest.mark.parametrize(
    ("kind", "inches"),
    [("move", 4), ("run", 8), ("charge", 8), ("failed_charge", 8), ("compulsory", 4), ("crawl", 2)],
)
def test_allowances(kind, inches):
    assert allowance(GANGER, kind) == inches


def test_terrain_costs():
    assert [terrain_cost(t) for t in ("open", "difficult", "very_difficult")] == [1, 2, 4]
    assert terrain_cost("impassable") is None
    with pytest.raises(RulesError, match="'lava' is not known"):
        terrain_cost("lava")


def test_the_seeds_terrain_examples():
    algae = plan_move(GANGER, "move", [Leg(1.5, "difficult")])
    assert algae.cost == 3  # 1 1/2" of a pool of mutant algae costs 3"
    assert algae.legal
    slope = plan_move(GANGER, "move", [Leg(2.5, "difficult")])
    assert (slope.cost, slope.legal) == (5, False)  # only 2" of a slope in a 4" move
    run = plan_move(GANGER, "run", [Leg(4, "difficult")])
    assert (run.cost, run.legal) == (8, True)  # running up a slope: 4" instead of 8"
    tar = plan_move(GANGER, "move", [Leg(1, "very_difficult")])
    assert (tar.cost, tar.legal) == (4, True)
    wall = plan_move(GANGER, "move", [Leg(1), Leg(0.5, "impassable")])
    assert (wall.cost, wall.legal, str(wall.steps[-1].outcome)) == (None, False, "impassable")
    assert str(wall.steps[-1].detail) == '0.5" of impassable: impassable'
    assert str(slope.steps[-1].detail) == '2.5" of difficult costs x2'
    assert str(tar.steps[-1]) == 'Path: costs 4" of 4" (1" of very difficult costs x4)'


@pytest.mark.parametrize(
    ("height", "width", "crossing"),
    [
        (0.5, 0.5, "free"),
        (0.99, 1, "free"),
        (1, 1, "climb"),
        (1.5, 0.5, "climb"),
        (2, 0.5, "climb"),
        (2.5, 0.5, "impassable"),
        (0.5, 3, "terrain"),
    ],
)
def test_obstacles(height, width, crossing):
    assert obstacle_crossing(Obstacle(height, width)) == crossing


def test_climbing_costs_half_the_move():
    over = plan_move(GANGER, "move", [Leg(2)], [Obstacle(1.5)])
    assert (over.cost, over.legal) == (4, True)  # 4" move: 2" on, half the move climbing
    too_far = plan_move(GANGER, "move", [Leg(2.5)], [Obstacle(1.5)])
    assert (too_far.cost, too_far.legal) == (4.5, False)
    running = plan_move(GANGER, "run", [Leg(4)], [Obstacle(1.5)])
    assert (running.cost, running.legal) == (8, True)
    assert plan_move(GANGER, "move", [Leg(1)], [Obstacle(0.5)]).cost == 1
    assert plan_move(GANGER, "move", [Leg(1)], [Obstacle(3)]).cost is None
    with pytest.raises(RulesError, match="wider than an obstacle"):
        plan_move(GANGER, "move", [Leg(1)], [Obstacle(0.5, 2)])


def test_a_runner_may_not_shoot_and_stops_near_a_seen_enemy():
    move = plan_move(GANGER, "move", [Leg(4)])
    assert (move.may_shoot, move.may_hide, move.effects) == (True, True, ())
    run = plan_move(GANGER, "run", [Leg(8)])
    assert (run.may_shoot, run.may_hide) == (False, False)
    moved = Message("necromunda.effect.moved")
    assert run.effects == (Effect("condition", "Tom", condition="run", rounds=1, note=moved),)
    assert str(moved) == "moved this turn"
    assert (run_must_stop(8), run_must_stop(8.5)) == (True, False)
    stopped = plan_move(GANGER, "run", [Leg(3), Leg(5)], run_stop_at=5)
    assert (stopped.moved, stopped.cost, stopped.legal) == (5, 5, True)
    assert str(stopped.steps[1].outcome) == 'stops after 5"'


def test_a_down_fighter_only_crawls_two_inches():
    down = FighterState(down=True, wounds_left=0)
    crawl = plan_move(GANGER, "crawl", [Leg(2)], state=down)
    assert (crawl.allowance, crawl.legal, crawl.may_shoot) == (2, True, False)
    assert not plan_move(GANGER, "crawl", [Leg(2.5)], state=down).legal
    refused = plan_move(GANGER, "move", [Leg(2)], state=down)
    assert not refused.legal
    assert str(refused.steps[-1].detail) == 'a down fighter may only crawl 2"'
    assert str(refused.steps[-1]) == 'Refused: down (a down fighter may only crawl 2")'
    assert not plan_move(GANGER, "crawl", [Leg(1)]).legal  # only down fighters crawl
    with pytest.raises(RulesError, match="may only crawl"):
        charge(GANGER, "Mange", [Leg(3)], state=down)


def test_pinned_and_out_of_action_fighters_do_not_move():
    assert not plan_move(GANGER, "move", [Leg(1)], state=FighterState(pinned=True)).legal
    assert not plan_move(GANGER, "move", [Leg(1)], state=FighterState(out_of_action=True)).legal


def test_a_charge_that_reaches_engages_both():
    outcome = charge(GANGER, "Mange", [Leg(6), Leg(1, "difficult")])
    assert (outcome.reached, outcome.allowance, outcome.cost) == (True, 8, 8)
    assert [(e.target, e.condition) for e in outcome.effects] == [
        ("Tom", "charging"),
        ("Tom", "engaged"),
        ("Mange", "engaged"),
    ]
    assert str(outcome.steps[-1].detail) == "base contact"
    assert [str(e.note) for e in outcome.effects] == ["Mange", "with Mange", "with Tom"]
    wall = charge(GANGER, "Mange", [Leg(7)], across_low_wall=True)
    assert wall.reached
    assert str(wall.steps[-1].detail) == "a low wall between the bases"


def test_a_failed_charge_moves_as_far_as_it_can_and_ends_the_fighters_turn():
    outcome = charge(GANGER, "Mange", [Leg(9)])
    assert (outcome.reached, outcome.cost) == (False, 9)
    assert outcome.effects == (
        Effect(
            "condition", "Tom", condition="failed_charge", rounds=1, note=Message.verbatim("Mange")
        ),
    )
    assert "no other action this turn" in str(outcome.steps[-1].detail)
    with pytest.raises(RulesError, match="already in close combat"):
        charge(GANGER, "Mange", [Leg(1)], state=FighterState(engaged=True))


def test_spotting_range_is_initiative_times_the_setting():
    assert spotting_range(SCAVVY) == 3
    assert spotting_range(SCAVVY, multiplier=3) == 9
    assert (detects(SCAVVY, 3), detects(SCAVVY, 3.5)) == (True, False)
    assert detects(SCAVVY, 9, multiplier=3)


def test_who_may_hide():
    assert all(check.passed for check in hide_checks(FighterState(moved="move"), True))
    ran = hide_checks(FighterState(moved="run"), True)
    assert [c.rule for c in ran if not c.passed] == ["moved fast"]
    charged = hide_checks(FighterState(moved="charge"), True)
    assert [c.rule for c in charged if not c.passed] == ["moved fast"]
    open_ground = hide_checks(FighterState(), False)
    assert [c.rule for c in open_ground if not c.passed] == ["behind cover"]
    near = hide_checks(FighterState(), True, [(SCAVVY, 2), (QUICK, 6)])
    assert [str(c.reason) for c in near if not c.passed] == ["within the spotting range of Mange"]
    assert all(c.passed for c in hide_checks(FighterState(moved="crawl", down=True), True))


def test_hiding_and_losing_it():
    step, effects = hide(GANGER, FighterState(), True, [(SCAVVY, 4)])
    counter = Message("necromunda.effect.hidden")
    assert (str(step.outcome), effects) == (
        "hidden",
        (Effect("condition", "Tom", condition="hidden", note=counter),),
    )
    assert str(counter) == "hidden counter"
    step, effects = hide(GANGER, FighterState(moved="run"), True)
    assert (str(step.outcome), effects) == ("may not hide", ())
    assert str(step.detail) == "no hiding in a turn the fighter ran or charged"
    assert hiding_lost(GANGER, spotters=[(SCAVVY, 4)]) == (hiding_lost(GANGER)[0], ())
    for reason in ("shot", "seen_moving", "enemy_view"):
        step, effects = hiding_lost(GANGER, **{reason: True})
        assert effects == (Effect("remove_condition", "Tom", condition="hidden"),)
    step, effects = hiding_lost(GANGER, spotters=[(QUICK, 5)])
    assert str(step.detail) == 'Kael is 5" away, within 5"'
    assert len(effects) == 1
