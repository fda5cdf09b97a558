"""The situation's default attack (issue 22, items 1 and 3): of whoever acts, a legal weapon,
mode, action and target, with the request and the preview the roll then uses; never a target
the rules refuse (none, and the reason, when they refuse every enemy); no attack, and the one
reason, when the footing allows none (a sides game's movement phase)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gmkit.campaign import demo_campaign_file, open_campaign
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.encounter._default_attack import default_attack
from gmkit.messages import Message, render
from gmkit.systems import _choices as choices

DEMO_FIGHTS = {
    "necromunda": "Ambush at the Sump Pipes",
    "dark_heresy": "The Chapel of the Pale Throne",
    "deathwatch": "The Breach at Vaxanide",
    "wfrp2": "Beastmen on the Drakwald Road",
    "wfb6": "Arrows over the Reikland Ford",
}


@pytest.fixture
def store(tmp_path) -> Iterator[Any]:
    with open_campaign(demo_campaign_file(tmp_path)) as opened:
        yield opened


def started(fight: Encounter) -> Encounter:
    if fight.structure.kind == "initiative":
        for place, combatant in enumerate(fight.state.present):
            fight.set_initiative(combatant.id, 30 - place)
    fight.start()
    return fight


@pytest.mark.parametrize("game", ["dark_heresy", "deathwatch", "wfrp2"])
def test_whoever_acts_gets_a_legal_attack_and_the_preview_the_roll_uses(store, game):
    fight = started(Encounter.open(store, DEMO_FIGHTS[game]))
    for _ in range(len(fight.state.present)):  # each combatant's turn in the first round
        default = fight.situation.default_attack
        assert default is not None
        assert default.attacker == fight.situation.actor
        actor = fight.state.combatants[default.attacker]
        assert default.weapon == choices.weapons(game, actor.sheet)[0]
        assert default.action in fight.situation.of(actor.id).attacks_allowed
        target = fight.state.combatants[default.target]
        assert target.side != actor.side
        assert not target.hidden
        assert default.request is not None
        assert not choices.target_refusal(game, default.request)
        assert default.preview is not None
        result = fight.try_attack(
            actor.id, default.weapon, target.id, SeededDice(7), **default.args
        )
        rolled = [step.target for step in result.steps if step.target is not None]
        assert default.preview.target == rolled[0]  # "Needed" is the number rolled against
        assert fight.situation.default_attack is default  # worked out once a state
        fight.next_turn()


@pytest.mark.parametrize("game", ["necromunda", "wfb6"])
def test_a_sides_game_outside_its_shooting_phase_has_no_attack_and_says_why(store, game):
    fight = started(Encounter.open(store, DEMO_FIGHTS[game]))
    assert fight.situation.phase == "movement"
    default = fight.situation.default_attack
    assert default is not None
    assert (default.action, default.target, default.request, default.preview) == (
        "",
        "",
        None,
        None,
    )
    assert isinstance(default.refusal, Message)
    assert default.refusal.id == "turns.permit.wrong_phase"
    assert "shooting phase" in render(default.refusal)


def test_wfb_never_defaults_to_a_target_the_rules_refuse(store):
    """The demo's goblins shoot at the Empire line: Captain Ottilie Hals stands inside the
    swordsmen's unit, which WFB 6e refuses as a target (she may not be picked out)."""
    fight = started(Encounter.open(store, DEMO_FIGHTS["wfb6"]))
    while (fight.situation.side, fight.situation.phase) != ("Night Goblins", "shooting"):
        assert fight.situation.round < 3
        fight.next_turn()
    tried = 0
    for shooter in fight.state.present:
        if shooter.side != fight.situation.side or not choices.weapons("wfb6", shooter.sheet):
            continue
        default = fight.situation.default_attack_of(shooter.id)
        if not default.action:
            continue
        tried += 1
        if default.target:
            assert default.request is not None
            assert not choices.target_refusal("wfb6", default.request)
            assert fight.state.combatants[default.target].name == "Swordsman"  # not Ottilie
        else:
            assert default.refusal
    assert tried >= 1


def test_no_weapon_no_attack_and_the_reason(store):
    fight = started(Encounter.open(store, DEMO_FIGHTS["dark_heresy"]))
    actor = fight.state.combatants[fight.situation.actor or ""]
    unarmed = actor.sheet.edit(weapons=[])
    bare = type(actor)(**{**actor.__dict__, "sheet": unarmed})
    found = default_attack(fight.state, bare, {}, fight.offers)
    if choices.weapons("dark_heresy", unarmed):  # the game offers "Unarmed": still an attack
        assert found.weapon == choices.weapons("dark_heresy", unarmed)[0]
        return
    assert found.refusal == Message("form.no_weapon", name=actor.name)
