"""WFB 6e options: the declared model (refusals by name, types), the encounter's keys moved to
the standings, and each option's effect on the rules: the GM allowing a refused shot, a spell
allowing "Look out, Sir!", left-over hits falling twice."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gmkit.dice import EnteredDice
from gmkit.errors import RulesError
from gmkit.games import game
from gmkit.messages import Message
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.systems._tables import table
from gmkit.systems.base import AttackRequest, Standing
from gmkit.systems.options import offered_options
from gmkit.systems.wfb6 import Situation, UnitOnTable, WFB6Options, resolve_attack

from ..shared.wfb6 import BOW, bretonnian

SPELL = {"name": "curse", "range_cm": 60, "strength": 4, "special": ["spell"]}
SHOOTER = WFB6Character.build(
    name="Shooter", side="Orcs", role="rank and file", unit="Archers", BS=3, weapons=[BOW, SPELL]
)
PRIEST = WFB6Character.build(
    name="Anselm", side="Empire", T=4, armour=[{"name": "heavy armour", "save": 5}]
)
SCREEN = UnitOnTable(
    "Swordsmen", "Empire", rank_and_file=15, distance_cm=10, shooter_distance_cm=30
)
VALID = "valid options: situation, look_out_sir, excess_distinct, gm_allows_shot"


def request(**options) -> AttackRequest:
    return AttackRequest(SHOOTER, "bow", PRIEST, options=options)


def test_the_registry_declares_the_model_and_what_a_panel_offers():
    assert game("wfb6").options is WFB6Options
    built = request()
    assert isinstance(built.options, WFB6Options)
    given = (built.options.situation, built.options.look_out_sir, built.options.excess_distinct)
    assert (given, built.options.gm_allows_shot) == ((None, False, True), False)
    offered = [info.name for info in offered_options(WFB6Options)]
    assert offered == ["look_out_sir", "excess_distinct", "gm_allows_shot"]
    assert all(info.help for info in offered_options(WFB6Options))


def test_an_unknown_option_is_refused_naming_it_the_nearest_and_the_valid_ones():
    with pytest.raises(RulesError) as refused:
        request(look_out_sirr=True)
    text = str(refused.value)
    assert text == (
        "wfb6 attack options: option 'look_out_sirr': unknown option (did you mean "
        f"look_out_sir?); {VALID}"
    )
    assert isinstance(refused.value.message, Message)
    assert refused.value.message.id == "options.refused"
    with pytest.raises(RulesError, match=f"option 'fog': unknown option; {VALID}"):
        request(fog=1)


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"excess_distinct": "no"}, "option 'excess_distinct': must be true or false (got 'no')"),
        ({"look_out_sir": 1}, "option 'look_out_sir': must be true or false (got 1)"),
        ({"gm_allows_shot": None}, "option 'gm_allows_shot': must be true or false (got None)"),
        (
            {"situation": "here"},
            "option 'situation': must be a Situation (got 'here')",
        ),
    ],
)
def test_a_value_of_the_wrong_type_is_refused(options, problem):
    with pytest.raises(RulesError) as refused:
        request(**options)
    assert str(refused.value) == f"wfb6 attack options: {problem}"


def test_changing_options_validates_again_and_keeps_the_situation_itself():
    situation = Situation((SCREEN,), distance_cm=35)
    built = request(situation=situation)
    assert built.options.situation is situation
    changed = built.with_options(gm_allows_shot=True)
    assert (changed.options.gm_allows_shot, changed.options.situation) == (True, situation)
    with pytest.raises(RulesError, match="option 'gm_allows_shot': must be true or false"):
        built.with_options(gm_allows_shot="yes")


def test_the_encounters_keys_go_to_the_standings_not_the_options():
    built = request(target_conditions=["fleeing"], attacker_counters={"damage": 1}, round=2)
    assert built.target_standing == Standing.of(conditions=["fleeing"])
    assert built.attacker_standing.counters == {"damage": 1}
    assert built.round == 2
    assert "target_conditions" not in WFB6Options.model_fields
    assert built.options == WFB6Options()


# --- what each option changes --------------------------------------------------------------


def test_the_gm_may_allow_a_shot_at_a_screened_character():
    situation = Situation((SCREEN,), distance_cm=35)
    refused = resolve_attack(request(situation=situation), EnteredDice([6]))
    assert (refused.hits, [e.kind for e in refused.effects]) == (0, ["note"])
    dice = EnteredDice([6, 6, 1])
    allowed = resolve_attack(request(situation=situation, gm_allows_shot=True), dice)
    assert [str(step) for step in allowed.steps[:2]] == [
        "Target Anselm: may not be targeted (screened by Swordsmen, not the closest legal "
        "target: Anselm at 35 cm, Swordsmen at 30 cm)",
        "Target Anselm: allowed by the GM (screened by Swordsmen, not the closest legal "
        "target: Anselm at 35 cm, Swordsmen at 30 cm)",
    ]
    to_hit = allowed.steps[2]
    # BS 3: 4+; the lone infantry character's -1 and long range (35 of 60 cm) -1: 6+
    assert (to_hit.target, [str(m) for m in to_hit.modifiers]) == (
        6,
        ["Lone infantry character -1", "Long range -1"],
    )
    assert [(e.kind, e.target, e.amount) for e in allowed.effects] == [("damage", "Anselm", 1)]
    assert str(allowed.summary) == "1 hit; unsaved wounds: Anselm 1"
    assert dice.pending == ()


def test_the_gm_allowing_a_shot_at_a_character_in_a_big_unit_still_hits_the_unit():
    trooper = WFB6Character.build(name="Swordsman", side="Empire", role="rank and file", unit="S")
    captain = WFB6Character.build(name="Captain", side="Empire", unit="S", T=4)
    unit = UnitOnTable.of([trooper, captain], rank_and_file=10)
    built = AttackRequest(
        SHOOTER,
        "bow",
        captain,
        distance=10,
        options={"situation": Situation((unit,)), "gm_allows_shot": True},
    )
    result = resolve_attack(built, EnteredDice([4, 4]))
    assert [str(step.title) for step in result.steps[1:4]] == [
        "Target Captain",
        "To hit",
        "Hits on S",
    ]
    assert str(result.steps[3].outcome) == "1 on the rank and file"
    assert [(e.target, str(e.note)) for e in result.effects] == [("S", "S (rank and file)")]


@pytest.mark.parametrize(("allowed", "target"), [(False, "Captain Hals"), (True, "Swordsmen")])
def test_a_spell_that_says_so_allows_look_out_sir(gm_data: Path, allowed, target):
    # A GM's table where template spells allow no "Look out, Sir!" of their own: only a spell
    # that says so (the option) does.
    packaged = table("wfb6", "targeting")
    kinds = packaged["attack_kinds"]
    kinds = {**kinds, "template_spell": {**kinds["template_spell"], "look_out_sir": False}}
    gm_data.joinpath("targeting.yaml").write_text(
        yaml.safe_dump({**packaged, "attack_kinds": kinds})
    )
    table.cache_clear()
    captain = WFB6Character.build(name="Captain Hals", side="Empire", unit="Swordsmen", T=3)
    trooper = captain.edit(name="Swordsman", role="rank and file")
    swordsmen = UnitOnTable.of([trooper, captain], rank_and_file=8)
    options = {"situation": Situation((swordsmen,)), "look_out_sir": allowed}
    built = AttackRequest(SHOOTER, "curse", captain, mode="template_spell", options=options)
    dice = EnteredDice([2, 6] if allowed else [6])  # "Look out, Sir!" rolled only when allowed
    result = resolve_attack(built, dice)
    check = result.steps[2]
    assert isinstance(check.title, Message)
    assert check.title.id == "wfb6.look_out_sir.title"
    assert [roll.value for roll in check.rolls] == ([2] if allowed else [])
    assert [e.target for e in result.effects] == [target]
    assert dice.pending == ()


@pytest.mark.parametrize(("distinct", "dice", "lord_hits"), [(True, [4, 4], 2), (False, [4, 4], 3)])
def test_left_over_hits_fall_on_different_models_unless_told(distinct, dice, lord_hits):
    knight = bretonnian()
    lord = knight.edit(name="Lord", role="character")
    paladin = knight.edit(name="Paladin", role="character")
    unit = UnitOnTable.of([knight, lord, paladin], rank_and_file=3)
    fireball = {
        "name": "fireball",
        "range_cm": 60,
        "strength": 4,
        "shots": 7,
        "special": ["magic missile"],
    }
    mage = SHOOTER.edit(weapons=[fireball])
    options = {"situation": Situation((unit,)), "excess_distinct": distinct}
    result = resolve_attack(
        AttackRequest(mage, "fireball", knight, options=options), EnteredDice([*dice, *[1] * 9])
    )
    wound_steps = {
        str(step.title.arguments["member"]): step.outcome.arguments["hits"]
        for step in result.steps
        if isinstance(step.title, Message) and step.title.id == "wfb6.to_wound.title"
    }
    assert wound_steps["Lord"] == lord_hits
    assert sum(wound_steps.values()) == 7
