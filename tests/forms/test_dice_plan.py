"""The dice plan: before the first die is typed, which dice an attack needs and what may follow,
worked out from the pure rules of each game by probe dice (issue 12: the GM learned how many
dice were needed only as the prompts arrived). And typed values taken as a whole list."""

from __future__ import annotations

import dataclasses

import pytest

from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.forms import AttackForm
from gmkit.forms.dice import DicePlan, DiceState, PlannedDie, plan_dice
from gmkit.messages import Message, render
from gmkit.sheets.wfb6 import WFB6Character
from gmkit.systems.base import AttackRequest


def form_of(game: str, attacker: str, target: str, distance: float | None = None) -> AttackForm:
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    encounter = Encounter(game)
    for sheet in roster.sheets:
        encounter.add(sheet)
    form = AttackForm(encounter)
    form.select_attacker(attacker)
    form.select_target(next(c.id for c in encounter.state.present if c.name == target))
    if distance is not None:
        form.set_distance(distance)
    assert form.request is not None, form.problem
    return form


def labels(dice: tuple[PlannedDie, ...]) -> list[str]:
    return [die.label() for die in dice]


def kinds(dice: tuple[PlannedDie, ...]) -> list[str]:
    """Each kind of die once, in the order they first come."""
    seen: list[str] = []
    for label in labels(dice):
        if label not in seen:
            seen.append(label)
    return seen


def test_necromunda_a_shot_is_a_d6_to_hit_then_ammo_wound_and_injury():
    form = form_of("necromunda", "Brother Kael", "Grubnose the Scavvy Boss", 6)
    plan = plan_dice("necromunda", form.request)
    assert labels(plan.dice) == ["d6 · to hit"]
    assert labels(plan.later) == ["d6 · ammo roll", "d6 · to wound", "d6 · injury roll"]
    assert (plan.more, plan.open, plan.most) == (True, False, 4)


def test_dark_heresy_one_d100_to_hit_then_up_to_a_d10_and_righteous_fury():
    form = form_of("dark_heresy", "Sergeant Varro Tull", "Cultist Ban")
    plan = plan_dice("dark_heresy", form.request)
    assert plan.dice == (PlannedDie(100, Message("imperial.test.to_hit")),)
    assert plan.later[0] == PlannedDie(
        10, Message("imperial.hit.damage_die", hit=Message("imperial.hit", number=1))
    )
    assert kinds(plan.later) == [
        "d10 · damage (hit 1)",
        "d100 · Righteous Fury confirmation (hit 1)",
        "d10 · Righteous Fury damage (hit 1)",
    ]
    # the chain of fury stops where the rules stop it (20 rounds of confirmation and damage)
    assert plan.most == 2 + 2 * 20
    assert not plan.open


def test_deathwatch_a_bolter_shot_is_a_d100_then_its_damage_dice():
    form = form_of("deathwatch", "Brother Castor", "Ork Boyz mob")
    plan = plan_dice("deathwatch", form.request)
    assert labels(plan.dice) == ["d100 · to hit"]
    assert labels(plan.later[:3]) == [
        "d10 · damage (hit 1) die 1",
        "d10 · damage (hit 1) die 2",
        "d10 · damage (hit 1) die 3",
    ]
    assert "d100 · Righteous Fury confirmation (hit 1)" in kinds(plan.later)


def test_wfrp_a_blow_is_a_ws_test_then_damage_and_ulrics_fury_up_to_its_limit():
    form = form_of("wfrp2", "Gunther Brandauer", "Gor Bloodhorn")
    plan = plan_dice("wfrp2", form.request)
    assert labels(plan.dice) == ["d100 · WS test"]
    assert labels(plan.later[:3]) == [
        "d10 · damage",
        "d100 · Ulric's Fury confirmation",
        "d10 · Ulric's Fury die 1",
    ]
    assert plan.later[-1].label() == "d10 · Ulric's Fury die 20"  # FURY_LIMIT extra dice
    assert plan.most == 1 + 1 + 1 + 20


def test_wfb_a_single_shot_is_a_d6_to_hit_then_wound_and_save():
    form = form_of("wfb6", "Night Goblin Archer", "Swordsman", 30)
    plan = plan_dice("wfb6", form.request)
    assert labels(plan.dice) == ["d6 · to hit, shot 1"]
    assert labels(plan.later) == [
        "d6 · to wound Swordsman, hit 1",
        "d6 · armour save Swordsman, wound 1",
    ]


def test_wfb_several_shots_are_n_d6_to_hit_all_certain():
    form = form_of("wfb6", "Night Goblin Archer", "Swordsman", 30)
    repeater = {"name": "repeater", "range_cm": 60, "strength": 4, "shots": 3}
    shooter = WFB6Character.build(
        name="Shooter", side="Orcs", role="rank and file", unit="Archers", weapons=[repeater]
    )
    target = form.request.target
    plan = plan_dice("wfb6", AttackRequest(shooter, "repeater", target, distance=30))
    assert labels(plan.dice) == [f"d6 · to hit, shot {n}" for n in (1, 2, 3)]
    assert kinds(plan.later)[0] == "d6 · to wound Swordsman, hit 1"
    assert plan.most == 3 + 3 + 3  # every shot hits, wounds and is saved against


def test_a_planned_die_labels_itself_in_spanish():
    die = PlannedDie(100, Message("imperial.test.to_hit"))
    assert die.die == "d100"
    assert die.label("es").startswith("d100 · ")
    assert die.label("es") != die.label("en")


def test_the_plan_gives_the_boxes_asked_so_far_then_the_certain_ones():
    hit = PlannedDie(6, "to hit")
    plan = DicePlan((hit, hit), (PlannedDie(6, "wound"),))
    wound = PlannedDie(6, "wound")
    assert plan.slots() == (hit, hit)
    assert plan.slots((hit,)) == (hit, hit)
    assert plan.slots((hit, hit, wound)) == (hit, hit, wound)
    assert DicePlan((hit,)).more is False
    assert DicePlan((hit,), open=True).most is None


def test_the_state_keeps_the_plan_of_the_same_request():
    form = form_of("dark_heresy", "Sergeant Varro Tull", "Cultist Ban")
    state = DiceState()
    first = state.plan("dark_heresy", form.request)
    assert state.plan("dark_heresy", form.request) is first


@pytest.fixture
def shot() -> AttackForm:
    return form_of("dark_heresy", "Sergeant Varro Tull", "Cultist Ban")


def test_take_resolves_a_whole_list_and_says_the_next_die(shot):
    state = DiceState()
    assert state.take("dark_heresy", shot.request, ["05"]) is None
    assert state.needed is not None
    assert state.needed.sides == 10
    assert labels(state.asked) == ["d100 · to hit", "d10 · damage (hit 1)"]
    result = state.take("dark_heresy", shot.request, ["05", "7", ""])
    assert result is not None
    assert [roll.value for roll in state.used] == [5, 7]
    assert state.refused is None


def test_take_marks_the_value_a_die_cannot_show_and_keeps_those_before(shot):
    state = DiceState()
    assert state.take("dark_heresy", shot.request, ["05", "11", "3"]) is None
    assert state.refused is not None
    index, why = state.refused
    assert index == 1
    assert "11" in str(why)
    assert state.typed == ["05"]
    assert state.needed is not None
    assert state.needed.sides == 10


def test_take_stops_at_the_first_empty_box(shot):
    state = DiceState()
    assert state.take("dark_heresy", shot.request, ["", "7"]) is None
    assert state.typed == []
    assert labels(state.asked) == ["d100 · to hit"]


def test_a_roll_of_two_dice_at_once_asks_for_both_boxes_in_order():
    """An Impact weapon rolls two d10 at once (all typed values or none): with one typed, the
    rules ask for the second before taking the first; both are boxes, in order."""
    from gmkit.sheets.wfrp2 import Weapon

    form = form_of("wfrp2", "Gunther Brandauer", "Gor Bloodhorn")
    great = Weapon(name="Great Weapon", group="Two-handed", damage="SB", qualities=["Impact"])
    attacker = form.request.attacker.model_copy(update={"weapons": [great]})
    request = dataclasses.replace(form.request, attacker=attacker, weapon="Great Weapon")
    plan = plan_dice("wfrp2", request)
    assert labels(plan.later[:2]) == ["d10 · damage die 1", "d10 · damage die 2"]
    state = DiceState()
    assert state.take("wfrp2", request, ["05", "7"]) is None
    assert labels(state.asked) == ["d100 · WS test", "d10 · damage die 1", "d10 · damage die 2"]
    assert state.needed is not None
    assert state.needed.index == 2
    assert state.take("wfrp2", request, ["05", "7", "3"]) is not None
    assert [roll.value for roll in state.used[:3]] == [5, 7, 3]


def test_the_summary_says_what_may_follow_by_kind_in_both_languages():
    form = form_of("dark_heresy", "Sergeant Varro Tull", "Cultist Ban")
    plan = plan_dice("dark_heresy", form.request)
    assert render(plan.summary) == (
        "then, as the rolls fall, up to 41 more: d10 damage (hit 1), d100 Righteous Fury"
        " confirmation (hit 1) and d10 Righteous Fury damage (hit 1)"
    )
    spanish = render(plan.summary, "es")
    assert spanish.startswith("después, según caigan las tiradas, hasta 41 más: d10 ")
    assert DicePlan((PlannedDie(6, "to hit"),)).summary is None
    chain = DicePlan((), (PlannedDie(6, Message("necromunda.purpose.to_hit")),), open=True)
    assert render(chain.summary) == "then, as the rolls fall, more: d6 to hit"
