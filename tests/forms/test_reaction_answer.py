"""A reaction chosen after the hit (issue 23, item 3): the attack resolved again with the same
dice and the reaction's die where the rules roll it gives exactly what choosing the reaction
before the roll with those dice gives; the odds asked are the rules' own, face by face."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gmkit._forms import AttackForm, FormError
from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice, SeededDice
from gmkit.encounter import Encounter
from gmkit.games import game as find_game
from gmkit.systems._reaction_dice import answered, reaction_die, reaction_odds

# attacker, weapon, defender, the typed dice of a hit without a reaction
CASES = {
    # Dark Heresy, a stub automatic at Jessa Kell: 18 hits, 10 damage, 98 her... the rest
    "dark_heresy": ("Cultist Ban", "Stub Automatic", "Jessa Kell"),
    "deathwatch": ("Nob Gritfang", "Ork Choppa", "Brother Ilarion"),
    "wfrp2": ("Gor Bloodhorn", "Hand Weapon", "Gunther Brandauer"),
}


def fight_of(game: str) -> Encounter:
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    encounter = Encounter(game)
    for sheet in roster.sheets:
        encounter.add(sheet)
    return encounter


def a_hit(game: str):
    """The first of gmkit's seeds 1.. whose attack hits, its result (no reaction chosen)."""
    attacker, weapon, target = CASES[game]
    fight = fight_of(game)
    for seed in range(1, 80):
        result = fight.try_attack(attacker, weapon, target, SeededDice(seed))
        if result.hits:
            return fight, result
    raise AssertionError("no hit in 80 seeds")


@pytest.mark.parametrize("game", list(CASES))
@pytest.mark.parametrize("face", [5, 50, 99])
def test_answered_dice_equal_the_reaction_chosen_before_the_roll(game, face):
    _fight, result = a_hit(game)
    rules = find_game(game).rules
    for reaction in ("dodge", "parry"):
        request = result.request.with_options(reaction=reaction)
        after, dice, need = answered(rules, request, result.rolls, face, SeededDice(7))
        assert need is None
        assert after is not None
        before = rules.resolve_attack(request, EnteredDice([roll.value for roll in dice]))
        assert before.hits == after.hits
        assert before.effects == after.effects
        assert [step.outcome for step in before.steps] == [step.outcome for step in after.steps]
        found = reaction_die(rules, request, result.rolls)
        if found is not None:  # the face given is the reaction's die, after the attack's dice
            assert dice[found.at].value == face
            assert [r.value for r in dice[: found.at]] == [r.value for r in result.rolls][
                : found.at
            ]


@pytest.mark.parametrize("game", list(CASES))
def test_the_odds_asked_are_the_faces_that_negate_the_hit(game):
    _fight, result = a_hit(game)
    rules = find_game(game).rules
    request = result.request.with_options(reaction="dodge")
    odds = reaction_odds(rules, request, result.rolls, result.hits)
    assert odds.die is not None
    assert odds.die.sides == 100
    negating = 0
    for face in range(1, 101):
        after, _dice, _need = answered(rules, request, result.rolls, face, SeededDice(1))
        negating += after.hits < result.hits
    assert odds.odds == Fraction(negating, 100)
    assert 0 < odds.odds < 1


def test_dark_heresy_dodge_odds_are_agility_with_its_modifiers():
    """Jessa Kell dodges on Agility (the sheets hold no skills): a face at or under it
    negates the single shot."""
    fight, result = a_hit("dark_heresy")
    rules = find_game("dark_heresy").rules
    request = result.request.with_options(reaction="dodge")
    odds = reaction_odds(rules, request, result.rolls, result.hits)
    agility = fight.combatant("Jessa Kell").sheet.characteristics.Ag
    assert odds.odds == Fraction(agility, 100)


def test_a_failed_reaction_keeps_the_damage_dice():
    _fight, result = a_hit("dark_heresy")
    rules = find_game("dark_heresy").rules
    request = result.request.with_options(reaction="dodge")
    after, dice, _ = answered(rules, request, result.rolls, 100, None)
    assert after.hits == result.hits
    damage = [e for e in result.effects if e.kind == "damage"]
    assert [e for e in after.effects if e.kind == "damage"] == damage
    assert len(dice) == len(result.rolls) + 1


def test_the_table_s_dice_ask_for_a_die_more_when_the_answer_needs_one():
    _fight, result = a_hit("dark_heresy")
    rules = find_game("dark_heresy").rules
    request = result.request.with_options(reaction="dodge")
    after, dice, need = answered(rules, request, result.rolls[:1], 100, None)
    assert after is None
    assert need is not None
    assert need.index == 2
    assert [r.value for r in dice] == [result.rolls[0].value, 100]


@pytest.mark.parametrize("mode", ["seeded", "physical"])
def test_the_form_takes_the_answer_and_applies_one_event(mode):
    fight, result = a_hit("deathwatch")
    attacker, weapon, target = CASES["deathwatch"]
    form = AttackForm(fight, seed=1)
    form.select_attacker(fight.combatant(attacker).id)
    form.select_weapon(weapon)
    form.select_target(fight.combatant(target).id)
    typed = [str(roll.value) for roll in result.rolls]
    if mode == "physical":
        form.take_dice(typed)
    else:  # gmkit's dice: the seed that hit
        hitting = (
            s for s in range(1, 80) if fight.try_attack(*CASES["deathwatch"], SeededDice(s)).hits
        )
        form.set_seed(next(hitting))
        form.resolve()
    assert form.result is not None
    assert form.result.hits == result.hits
    assert [c.id for c in form.offered.reactions] == ["dodge", "parry"]
    answer = form.answer_reaction("parry", 3)
    assert form.reaction == "parry"
    assert answer is not None
    assert answer.hits == 0
    events = len(fight.effective_events)
    form.apply()
    assert len(fight.effective_events) == events + 1
    event = fight.effective_events[-1]
    # the same event as the GM choosing Parry before the roll, with those dice typed
    again = fight_of("deathwatch")
    before = AttackForm(again)
    before.select_attacker(again.combatant(attacker).id)
    before.select_weapon(weapon)
    before.select_target(again.combatant(target).id)
    before.select_reaction("parry")
    before.take_dice([str(roll.value) for roll in answer.rolls])
    before.apply()
    told = again.effective_events[-1]
    assert event["kind"] == told["kind"] == "attack"
    if mode == "seeded":  # gmkit rolled the attack's die (digital), the player typed theirs
        assert [roll["physical"] for roll in event["rolls"]] == [False, True]
        for made in (event, told):
            made["rolls"] = [{**roll, "physical": None} for roll in made["rolls"]]
    volatile = {"at", "seq", "time", "id"}
    assert {k: v for k, v in event.items() if k not in volatile} == {
        k: v for k, v in told.items() if k not in volatile
    }


def test_the_form_refuses_an_answer_without_a_hit_shown_and_takes_it_as_is():
    fight, result = a_hit("wfrp2")
    form = AttackForm(fight)
    with pytest.raises(FormError):
        form.answer_reaction("dodge", 10)
    attacker, weapon, target = CASES["wfrp2"]
    form.select_attacker(fight.combatant(attacker).id)
    form.select_weapon(weapon)
    form.select_target(fight.combatant(target).id)
    form.take_dice([str(roll.value) for roll in result.rolls])
    shown = form.result
    assert form.answer_reaction("") is shown  # takes it: nothing changes
    assert form.reaction == ""
