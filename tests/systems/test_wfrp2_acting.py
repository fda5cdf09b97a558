"""WFRP 2e's rules of the turn through the seam (seed 002): the actions offered, what stunned,
helpless and Defensive Stance forbid, Aim and Feint held for the next action only, a stunned
attacker refused by the resolver, and the Ulric's Fury switch."""

from __future__ import annotations

from typing import Any

import pytest

from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice
from gmkit.errors import RulesError
from gmkit.games import game
from gmkit.messages import render
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems.acting import ActionRequest, restriction_problems
from gmkit.systems.base import AttackRequest, Effect, Standing
from gmkit.systems.options import offered_options
from gmkit.systems.wfrp2 import SYSTEM, WFRP2Options
from gmkit.systems.wfrp2._acting import TURN_RULES

SHEETS = {
    s.name: s
    for r in demo_campaign().rosters
    if r.game == "wfrp2"
    for s in r.sheets
    if isinstance(s, WFRP2Character)
}
GUNTHER, ELSA, GOR = SHEETS["Gunther Brandauer"], SHEETS["Elsa Wendt"], SHEETS["Gor Bloodhorn"]


def act(action: str, dice: list[int], *held: str, target: WFRP2Character | None = None) -> Any:
    request = ActionRequest(
        GUNTHER, action, target=target, actor_standing=Standing.of(held) if held else Standing()
    )
    return TURN_RULES.perform_action(request, EnteredDice(dice))


def attack(dice: list[int], attacker_holds: tuple[str, ...] = (), **given: Any) -> Any:
    fields: dict[str, Any] = {"attacker": ELSA, "weapon": "Bow", "target": GOR, **given}
    request = AttackRequest(**fields, attacker_standing=Standing.of(attacker_holds))
    return SYSTEM.resolve_attack(request, EnteredDice(dice))


# --- the registry and the actions offered ----------------------------------------------------


def test_the_registry_entry_holds_the_wfrp_turn_rules() -> None:
    assert game("wfrp2").acting is TURN_RULES


def test_the_actions_offered_are_the_catalogs_non_attacks_with_their_budget_types() -> None:
    offered = {info.id: info for info in TURN_RULES.actions()}
    assert not {"standard_attack", "charge_attack", "bonus_attack"} & set(offered)
    assert offered["aim"].types == ("half",)
    assert offered["defensive_stance"].types == ("full",)
    assert offered["reload"].types == ("half", "full")  # 002: "varies", the GM's choice
    assert (offered["feint"].target, offered["manoeuvre"].target, offered["aim"].target) == (
        True,
        True,
        False,
    )
    assert str(offered["move"].label) == "Move"


# --- restrictions (002: stunned, helpless, defensive stance) ---------------------------------


def test_stunned_forbids_every_action_and_every_reaction() -> None:
    [rule] = TURN_RULES.restrictions(["stunned"])
    assert (rule.no_actions, rule.no_reactions) == (True, True)
    [why] = restriction_problems([rule], "Gor", "free", "ready", {}, {})
    assert str(why) == (
        "Gor is stunned: no action of any kind, not even a free one, and no parry or dodge (002)"
    )
    assert render(why, "es").startswith("Gor está aturdido: no puede realizar ninguna acción")


def test_helpless_forbids_reactions_only_and_defensive_stance_forbids_attacks_only() -> None:
    helpless, stance = TURN_RULES.restrictions(["helpless", "defensive_stance"])
    assert (helpless.no_actions, helpless.no_reactions) == (False, True)
    assert stance.actions is not None
    assert {"aim", "move", "parry_stance"} <= stance.actions
    assert not {"standard_attack", "bonus_attack"} & stance.actions
    assert restriction_problems([stance], "Gunther", "half", "move", {}, {"actions": 1}) == []
    assert restriction_problems([stance], "Gunther", "free", "bonus_attack", {}, {})
    assert TURN_RULES.restrictions(["running", "aiming"]) == ()


# --- actions through the seam ----------------------------------------------------------------


def test_aim_holds_until_the_next_action_at_most_through_the_next_turn() -> None:
    result = act("aim", [])
    assert result.effects == (
        Effect("condition", "Gunther Brandauer", condition="aiming", rounds=2),
    )
    assert str(result.steps[0]) == (
        "Action: Aim (half action) (+10 WS or BS if the actor's next action is a standard attack "
        "(circumstance aimed))"
    )
    assert str(result.summary) == "Gunther Brandauer: Aim"
    assert not result.delays


def test_any_other_action_ends_the_aim_and_the_feint() -> None:
    result = act("move", [], "aiming", "feint", "running")
    assert result.effects[:2] == (
        Effect("remove_condition", "Gunther Brandauer", condition="aiming"),
        Effect("remove_condition", "Gunther Brandauer", condition="feint"),
    )
    assert str(result.steps[-1]) == (
        "Lost: aiming and feint lost (the next action was not a standard attack (002))"
    )
    again = act("aim", [], "aiming")  # aiming again keeps it
    assert [e.kind for e in again.effects] == ["condition"]


def test_a_feint_is_an_opposed_ws_test_against_the_target() -> None:
    won = act("feint", [20, 50], target=GOR)  # WS 41: 20 succeeds; Gor WS 40: 50 fails
    assert won.effects == (Effect("condition", "Gunther Brandauer", condition="feint", rounds=2),)
    assert [r.value for r in won.rolls] == [20, 50]
    assert str(won.summary) == "Gunther Brandauer: Feint against Gor Bloodhorn, won"
    lost = act("feint", [50, 20], target=GOR)
    assert (lost.effects, str(lost.summary)) == (
        (),
        "Gunther Brandauer: Feint against Gor Bloodhorn, not won",
    )


def test_delay_ends_the_turn_the_encounter_keeping_the_half_action() -> None:
    result = act("delay", [])
    assert (result.delays, result.effects) == (True, ())


def test_a_stunned_actor_and_an_attack_as_an_action_are_refused() -> None:
    # the permits' reason, from the same book (systems/wfrp2/_conditions.py)
    with pytest.raises(RulesError, match="is stunned: no action of any kind, not even a free"):
        act("ready", [], "stunned")
    with pytest.raises(RulesError, match=r"unknown action 'standard_attack'.*the actions: run"):
        act("standard_attack", [])


def test_a_reaction_ends_the_aim_and_the_feint() -> None:
    assert TURN_RULES.lapsed_by_reaction(["aiming", "running", "feint"]) == ("aiming", "feint")
    assert TURN_RULES.lapsed_by_reaction(["running"]) == ()


# --- the attack reads and spends the standing -----------------------------------------------


def test_the_aim_in_the_attackers_standing_gives_10_and_the_attack_spends_it() -> None:
    shot = attack([53, 4], ("aiming",))  # BS 43 + 10: 53 hits
    test = next(s for s in shot.steps if str(s.title) == "BS test")
    assert (test.target, str(test.outcome)) == (53, "hit")
    assert shot.effects[-1] == Effect("remove_condition", "Elsa Wendt", condition="aiming")
    assert [str(s.title) for s in shot.steps if str(s.title) == "Lost"] == []
    bare = attack([53], ())  # without it, 53 misses BS 43
    assert (bare.hits, bare.effects) == (0, ())


def test_an_attack_other_than_a_standard_one_loses_the_aim_without_its_bonus() -> None:
    swift = attack([44], ("aiming",), action="swift_attack")  # no +10: 44 misses BS 43
    test = next(s for s in swift.steps if str(s.title) == "BS test")
    assert (test.target, swift.hits) == (43, 0)
    assert swift.effects == (Effect("remove_condition", "Elsa Wendt", condition="aiming"),)
    assert str(swift.steps[-1]) == "Lost: aiming lost (only a standard attack uses it (002))"


def test_a_target_that_parries_loses_its_own_aim() -> None:
    request = AttackRequest(
        attacker=GOR,
        weapon="Hand Weapon",
        target=GUNTHER,
        circumstances={"target_second_weapon": True},
        options={"reaction": "parry"},
        target_standing=Standing.of(["aiming"]),
    )
    result = SYSTEM.resolve_attack(request, EnteredDice([15, 30]))  # hit; parried with 30
    assert result.effects[-2:] == (
        Effect("reaction", "Gunther Brandauer", condition="parry"),
        Effect("remove_condition", "Gunther Brandauer", condition="aiming"),
    )


def test_the_resolver_refuses_a_stunned_attacker() -> None:
    source = EnteredDice([10, 5])
    request = AttackRequest(
        attacker=ELSA, weapon="Bow", target=GOR, attacker_standing=Standing.of(["stunned"])
    )
    with pytest.raises(RulesError) as caught:
        SYSTEM.resolve_attack(request, source)
    # the permits' own reason (one mapping: systems/wfrp2/_conditions.py)
    assert str(caught.value) == (
        "Elsa Wendt is stunned: no action of any kind, not even a free one, and no parry or "
        "dodge (002)"
    )
    assert source.history == []


# --- Ulric's Fury: the book's rule, a switch the panel shows ----------------------------------


def test_ulrics_fury_is_an_offered_switch_on_by_default_saying_it_is_the_books_rule() -> None:
    offered = {info.name: info for info in offered_options(WFRP2Options)}
    fury = offered["ulrics_fury"]
    assert WFRP2Options().ulrics_fury is True
    assert "the WFRP book's rule, not seed 002's" in render(fury.help)
    assert "no del texto 002" in render(fury.help, "es")
    assert str(fury.label) == "Ulric's Fury"
