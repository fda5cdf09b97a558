"""The dice plan: before the first die is typed, which dice an attack needs and what may follow,
worked out from the pure rules of each game by probe dice (issue 12: the GM learned how many
dice were needed only as the prompts arrived). And typed values taken as a whole list."""

from __future__ import annotations

import dataclasses

import pytest

from gmkit._forms import AttackForm
from gmkit._forms.dice import DicePlan, DiceState, PlannedDie, plan_dice
from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.messages import Message, render
from gmkit.sheets._wfb6 import WFB6Character
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
    from gmkit.sheets._wfrp2 import Weapon

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


def test_the_summary_says_what_is_needed_now_what_may_follow_and_why():
    """Issue 21: the plan said "up to 41 more"; it says what is needed now and, kind by kind,
    what may follow and what brings it (Tull's BS 42, no range given: a hit on 1-42; a 10 on
    the damage die calls Righteous Fury, confirmed by the same test, each 10 again)."""
    form = form_of("dark_heresy", "Sergeant Varro Tull", "Cultist Ban")
    plan = plan_dice("dark_heresy", form.request)
    assert [render(line) for line in plan.lines] == [
        "now: d100 to hit",
        "if the d100 to hit shows 1–42: d10 damage (hit 1)",
        "if the d10 damage (hit 1) shows 10: up to 20 d100 Righteous Fury confirmation (hit 1)",
        "if the d100 Righteous Fury confirmation (hit 1) shows 1–42: up to 20 d10 Righteous "
        "Fury damage (hit 1)",
    ]
    assert render(plan.summary) == "; ".join(render(line) for line in plan.lines)
    assert str(plan) == render(plan.summary)
    assert [render(line, "es") for line in plan.lines][:3] == [
        "ahora: d100 para impactar",
        "si el d100 para impactar saca 1–42: d10 daño (impacto 1)",
        "si el d10 daño (impacto 1) saca 10: hasta 20 d100 Furia Justiciera, confirmación "
        "(impacto 1)",
    ]
    assert render(DicePlan((PlannedDie(6, "to hit"),)).summary) == "now: d6 to hit"
    assert DicePlan(()).summary is None
    chain = DicePlan((), (PlannedDie(6, Message("necromunda.purpose.to_hit")),), open=True)
    assert render(chain.summary) == "and more while the rolls call for them"


def test_the_d6_games_say_which_faces_bring_the_next_die():
    """Necromunda (seed 000 and its ruling): Kael's BS hits on 2+ at 6"; a 6 to hit asks for
    the ammo roll; S 4 against T 3 wounds on 3+ (an injury roll follows). WFB 6e: the night
    goblin archer hits on 5+ at 30 cm; S 3 against T 3 wounds on 4+, then the armour save."""
    kael = form_of("necromunda", "Brother Kael", "Grubnose the Scavvy Boss", 6)
    assert [render(line) for line in plan_dice("necromunda", kael.request).lines] == [
        "now: d6 to hit",
        "if the d6 to hit shows 6: d6 ammo roll",
        "if the d6 to hit shows 2–6: d6 to wound",
        "if the d6 to wound shows 3–6: d6 injury roll",
    ]
    archer = form_of("wfb6", "Night Goblin Archer", "Swordsman", 30)
    assert [render(line) for line in plan_dice("wfb6", archer.request).lines] == [
        "now: d6 to hit, shot 1",
        "if the d6 to hit, shot 1 shows 5–6: d6 to wound Swordsman, hit 1",
        "if the d6 to wound Swordsman, hit 1 shows 4–6: d6 armour save Swordsman, wound 1",
    ]


def test_typed_values_narrow_the_plan_to_what_is_needed_now():
    form = form_of("dark_heresy", "Sergeant Varro Tull", "Cultist Ban")
    hit = plan_dice("dark_heresy", form.request, [15])
    assert labels(hit.needed) == ["d10 · damage (hit 1)"]
    assert labels(hit.dice) == ["d100 · to hit", "d10 · damage (hit 1)"]
    assert render(hit.lines[0]) == "now: d10 damage (hit 1)"
    missed = plan_dice("dark_heresy", form.request, [99])
    assert (missed.needed, missed.more, missed.summary) == ((), False, None)
    fury = plan_dice("dark_heresy", form.request, [15, 10])
    assert labels(fury.needed) == ["d100 · Righteous Fury confirmation (hit 1)"]
    state = DiceState()
    assert state.take("dark_heresy", form.request, ["15"]) is None
    assert state.plan("dark_heresy", form.request) == hit  # the form's plan: after its dice


def test_a_burst_at_a_horde_asks_all_its_damage_dice_once_the_hits_are_known():
    """A full-auto bolter burst at the ork mob: once the d100 is typed (40: BS 47 +20 full
    auto +10 size = 77; 3 degrees: 4 hits, the Explosive one more), every hit's damage is
    certain; the first hit's needs none (its die reads at least the 3 degrees: 3 + 1 + 5 = 9
    against AP 2, Pen 5, and TB 8 still damages, and any damage costs one magnitude, 004)."""
    form = form_of("deathwatch", "Brother Castor", "Ork Boyz mob")
    form.select_mode("full")
    plan = plan_dice("deathwatch", form.request, [40])
    assert labels(plan.needed) == [f"d10 · damage (hit 2) die {n}" for n in (1, 2, 3)]
    assert render(plan.lines[0]) == "now: 3 d10 damage (hit 2)"
    assert render(plan.lines[-1]) == "then: 3 d10 damage (hit 3), and likewise for 2 more"
    assert "if one of the d10 damage (hit 2) shows 10: d100 Righteous Fury confirmation" in (
        render(plan.summary)
    )


def test_a_hordes_damage_dice_are_not_asked_when_every_roll_takes_one_magnitude():
    """Ilarion's chainsword (1d10+3 + SB 8, Pen 3, against the mob's AP 2 and TB 8): its least
    roll, 1 + 3 + 8 = 12, still deals 4, and any damage costs one magnitude (004), so the plan
    is the WS test alone; the bolter's least (1 + 1 + 5 = 7 < TB 8) does not, and asks for its
    damage."""
    form = form_of("deathwatch", "Brother Ilarion", "Ork Boyz mob")
    form.select_weapon("Astartes Chainsword")
    plan = plan_dice("deathwatch", form.request)
    assert labels(plan.dice) == ["d100 · to hit"]
    assert (plan.later, plan.more, render(plan.summary)) == ((), False, "now: d100 to hit")
    bolter = form_of("deathwatch", "Brother Castor", "Ork Boyz mob")
    shot = plan_dice("deathwatch", bolter.request, [50])  # 0 degrees: the dice matter
    assert labels(shot.needed)[0] == "d10 · damage (hit 1) die 1"
