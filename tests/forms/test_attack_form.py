"""The attack form below the panel: defaults, resets, pins, validation, the typed dice signal,
and one command per applied attack (issue: the table's wrong rolls came from settings carried
from one attack into the next)."""

from __future__ import annotations

import pytest

from gmkit._forms import AttackForm, FormError
from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.errors import NeedDie, RulesError
from gmkit.messages import render


def fight_of(game: str, *, hidden: tuple[str, ...] = ()) -> Encounter:
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    encounter = Encounter(game)
    for sheet in roster.sheets:
        encounter.add(sheet, hidden=sheet.name in hidden)
    return encounter


def started(encounter: Encounter) -> Encounter:
    """Initiative typed so the order is the roster's, then round 1."""
    for place, combatant in enumerate(encounter.state.present):
        encounter.set_initiative(combatant.id, 30 - place)
    encounter.start()
    return encounter


@pytest.fixture
def wfrp() -> Encounter:
    return started(fight_of("wfrp2"))


def ids(choices) -> list[str]:
    return [choice.id for choice in choices]


def test_a_new_attacker_takes_its_defaults_and_the_first_visible_enemy():
    fight = fight_of("dark_heresy", hidden=("Demagogue Ostrava",))
    form = AttackForm(fight)
    form.select_attacker("Sergeant Varro Tull")
    assert (form.weapon, form.mode, form.action) == ("Lasgun", "single", "standard_attack")
    target = fight.combatant(form.target)
    assert target.side != "Acolytes"  # never one of its own
    assert not target.hidden  # the hidden demagogue is no default
    assert target.name == "Cultist Ban"
    assert form.circumstances == {}
    assert form.distance is None
    assert form.reaction == ""


def test_nothing_of_one_attack_carries_into_the_next_actor(wfrp):
    form = AttackForm(wfrp, follow_actor=True, seed=3)
    first = form.attacker
    melee = next(w for w in form.offered.weapons if "ranged" not in ids(form.offered.modes))
    form.select_weapon(melee)
    form.set_circumstance(form.offered.circumstances[0].id, True)
    form.set_distance(2)
    form.resolve()
    form.apply()
    wfrp.next_turn()  # the turn passes: the form follows
    assert form.attacker != first
    assert form.circumstances == {}
    assert form.distance is None
    assert form.result is None
    own = wfrp.combatant(form.attacker)
    # its own first weapon in that weapon's own mode, not the last actor's melee
    assert form.weapon == next(iter(form.offered.weapons))
    assert form.mode == form.offered.modes[0].id
    assert form.action == "standard_attack"
    assert wfrp.combatant(form.target).side != own.side


def test_another_target_clears_what_belonged_to_the_last_but_a_pinned_setting(wfrp):
    form = AttackForm(wfrp)
    flags = [c.id for c in form.offered.circumstances if c.kind == "flag"]
    kept, dropped = flags[0], flags[1]
    form.set_circumstance(kept, True)
    form.pin(kept)
    form.set_circumstance(dropped, True)
    form.set_distance("12")
    others = [t for t in form.offered.targets if t != form.target]
    form.select_target(others[0])
    assert form.circumstances == {kept: True}  # the pinned one stays
    assert form.distance is None
    form.select_attacker(form.offered.attackers[-1])
    assert form.circumstances == {kept: True}  # through a new attacker too
    form.pin(kept, False)
    form.select_attacker(form.offered.attackers[0])
    assert form.circumstances == {}


def test_what_is_not_offered_is_refused_by_name(wfrp):
    form = AttackForm(wfrp)
    with pytest.raises(FormError, match=r"weapon 'Laser Cannon' is not offered; offered: "):
        form.select_weapon("Laser Cannon")
    with pytest.raises(FormError, match="circumstance 'no_such' is not offered"):
        form.set_circumstance("no_such", True)
    with pytest.raises(FormError, match="distance: must not be negative"):
        form.set_distance(-3)
    with pytest.raises(FormError, match="distance: 'far' is not a number"):
        form.set_distance("far")
    with pytest.raises(RulesError, match=r"option 'ulric_fury': unknown option"):
        form.set_option("ulric_fury", False)
    assert form.options == {}


def test_spanish_refusals_name_the_field_in_spanish(wfrp):
    form = AttackForm(wfrp)
    with pytest.raises(FormError) as refused:
        form.select_weapon("Laser Cannon")
    assert render(refused.value.message, "es").startswith("arma 'Laser Cannon' no se ofrece")


def test_the_table_dice_are_asked_for_with_a_typed_signal(wfrp):
    form = AttackForm(wfrp)
    assert form.resolve("") is None  # physical dice, none typed yet
    needed = form.dice.needed
    assert isinstance(needed, NeedDie)
    assert needed.sides == 100
    assert needed.index == 0
    assert form.enter(31) is None or form.result is not None
    while form.result is None:
        assert form.dice.needed is not None
        form.enter(1 if form.dice.needed.sides < 100 else 50)
    assert form.dice.typed[0] == "31"


def test_an_applied_attack_is_one_command_with_its_action(wfrp):
    form = AttackForm(wfrp, seed=5)
    attacker = form.attacker
    before = len(wfrp.events)
    form.resolve()
    form.apply()
    assert len(wfrp.events) == before + 1
    event = wfrp.events[-1]
    assert event["kind"] == "attack"
    assert event["spent"]["id"] == attacker
    assert dict(wfrp.state.combatants[attacker].spent) == {"actions": 1}
    form.undo()
    assert len(wfrp.effective_events) == before
    assert dict(wfrp.state.combatants[attacker].spent) == {}
    form.redo()
    assert dict(wfrp.state.combatants[attacker].spent) == {"actions": 1}


def test_apply_refuses_a_result_the_encounter_no_longer_gives(wfrp):
    form = AttackForm(wfrp)
    form.resolve("5 7")  # a hit that wounds
    assert form.result is not None
    assert form.result.hits == 1
    target = form.target
    wfrp.add_condition(target, "stunned", rounds=1)  # the target changed since the roll
    form_result = form.result
    with pytest.raises((FormError, RulesError), match="changed since the roll"):
        form.apply()
    assert wfrp.events[-1]["kind"] == "condition"  # nothing recorded
    assert form_result is form.result


def test_apply_records_the_shown_result_when_nothing_changed_and_resolves_again_otherwise(
    wfrp, monkeypatch
):
    """The rules are pure: the same request and dice give the same result, so Apply records
    the result shown without resolving it again; once the attack's own request changed (its
    target stunned since the roll), it is resolved again, and refused when the result differs."""
    form = AttackForm(wfrp, seed=3)
    shown = form.resolve()
    resolved: list[object] = []
    original = type(wfrp)._resolve

    def counting(self, request, source):
        resolved.append(request)
        return original(self, request, source)

    monkeypatch.setattr(type(wfrp), "_resolve", counting)
    assert form.apply() is shown
    assert resolved == []
    form.undo()
    shown = form.resolve()
    others = [c.id for c in wfrp.state.present if c.id not in (form.attacker, form.target)]
    wfrp.add_condition(others[0], "prone")  # someone else changed: the same request
    assert form.apply() is shown
    assert resolved == []
    form.undo()
    form.resolve("5 7")  # a hit that wounds
    wfrp.add_condition(form.target, "stunned", rounds=1)  # the target changed since the roll
    with pytest.raises((FormError, RulesError), match="changed since the roll"):
        form.apply()
    assert len(resolved) == 1  # resolved again, and refused


def test_the_form_offers_exactly_what_the_encounter_allows(wfrp):
    """The budget: every action offered is one the encounter's permit allows, and every one
    refused carries the permit's reason."""
    form = AttackForm(wfrp, follow_actor=True)
    for _ in range(6):
        for choice in form.offered.actions:
            assert wfrp.may_take(form.attacker, choice.id).allowed
        for action, why in form.offered.not_offered.items():
            permit = wfrp.may_take(form.attacker, action) if action else None
            if permit is not None and not permit.allowed:
                assert render(permit.why) in render(why)
        wfrp.spend(form.attacker, "half")
        for choice in form.offered.actions:
            assert wfrp.may_take(form.attacker, choice.id).allowed
        wfrp.next_turn()


def test_a_side_shoots_fighter_by_fighter_the_next_ready_once_one_has_shot():
    """Necromunda: in the shooting phase the form takes the first of the side who has not shot
    and whom nothing holds back; once its shot is applied, the next one, with the result just
    applied still shown and the typed dice forgotten (never read for the next shot)."""
    fight = fight_of("necromunda")
    fight.start()
    fight.next_turn()  # the Brethren's shooting phase
    form = AttackForm(fight, follow_actor=True)
    side = [c.id for c in fight.state.present if c.side == fight.state.current_side]
    assert form.attacker == side[0]
    form.set_dice_mode("physical")
    form.set_distance(8)
    form.take_dice(["5", "5", "4"])
    shot = form.apply()
    assert form.attacker == side[1]
    assert form.action == "shoot"
    assert form.result is shot
    assert form.applied
    assert form.dice.typed == []
    assert form.distance is None  # measured again for this fighter
    fight.next_turn()  # close combat, a new phase: the first of the side who may act in it
    assert form.attacker == side[0]


def test_a_shield_bearer_may_parry_by_default_and_the_gm_may_turn_it_off(wfrp):
    """Issue 21: Gunther (Hand Weapon + Shield) read "parry not possible" unless the GM ticked
    "Target holds a weapon in the other hand" on every attack: the sheet sets it now."""
    form = AttackForm(wfrp)
    form.select_attacker("Gor Bloodhorn")
    form.select_target("Gunther Brandauer")
    assert form.in_effect == {"target_second_weapon": True}
    assert "parry" in ids(form.offered.reactions)
    form.select_reaction("parry")
    result = form.resolve("20 20")  # hit; Gunther parries with his shield: WS 41 + 10
    assert result is not None
    assert result.hits == 0
    form.set_circumstance("target_second_weapon", False)  # the GM: his shield is slung
    assert form.in_effect == {}
    assert "parry" not in ids(form.offered.reactions)
    assert "parry" in form.offered.reactions_refused
    result = form.resolve("20 5")
    assert result is not None
    assert result.hits == 1
    reactions = next(s for s in result.steps if str(s.title) == "Reactions")
    assert str(reactions.outcome).startswith("parry not available (needs a parry stance")


def test_an_implied_circumstance_the_gm_turns_off_stays_off_when_resolved(wfrp):
    """A running target (+20 WS, implied by his condition) turned off by the GM: the preview
    said WS 41 while the resolution, reading the condition again, gave 61."""
    wfrp.add_condition("Gor Bloodhorn", "running", rounds=1)
    form = AttackForm(wfrp)
    form.select_attacker("Gunther Brandauer")
    form.select_target("Gor Bloodhorn")
    assert form.in_effect == {"target_running": True, "target_second_weapon": True}
    form.set_circumstance("target_running", False)
    assert form.preview is not None
    assert form.preview.target == 41
    result = form.resolve("50 5")
    assert result is not None
    test = next(s for s in result.steps if str(s.title) == "WS test")
    assert test.target == 41
    assert result.hits == 0  # 50 misses WS 41 (it hit 61 before)
