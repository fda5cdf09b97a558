"""The situation of the encounter (issue 22): one answer to "who acts now, what may each do",
worked out once per state, and the panels reading it (the attack form's offers, reasons and
budget line, the turn pane's actor, the tracker's actor row).

The cases a GM met, from the issue: a pinned Dark Heresy acolyte (one half action a turn: the
panel said "actions 2", then after his half action the reason "All Out Attack needs a melee
weapon"); a stunned actor ("attack: choose the action first"); Necromunda's three panels each
naming a different fighter; the panel left on a delayed cultist after he interrupted.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gmkit._forms import AttackForm, FormError
from gmkit.campaign import demo_campaign_file, open_campaign
from gmkit.encounter import Encounter
from gmkit.encounter._situation import situation_of
from gmkit.widgets import AttackPanel, InitiativeTracker
from gmkit.widgets._turn_panel import TurnPanel

CHAPEL, SUMP = "The Chapel of the Pale Throne", "Ambush at the Sump Pipes"


@pytest.fixture
def store(tmp_path) -> Iterator[object]:
    with open_campaign(demo_campaign_file(tmp_path)) as opened:
        yield opened


def chapel(store) -> Encounter:
    fight = Encounter.open(store, CHAPEL)
    for place, combatant in enumerate(fight.state.present):
        fight.set_initiative(combatant.id, 30 - place)
    fight.start()
    return fight


def test_the_situation_is_worked_out_once_per_state(store) -> None:
    fight = chapel(store)
    first = fight.situation
    assert fight.situation is first  # no event: the same answer
    assert first.actor == fight.state.current.id  # type: ignore[union-attr]
    fight.next_turn()
    assert fight.situation is not first
    assert fight.situation.actor == fight.state.current.id  # type: ignore[union-attr]
    # the same answer from the state alone (a replayed log gives the same state)
    again = situation_of(fight.state)
    assert again.actor == fight.situation.actor
    assert dict(again.footings) == dict(fight.situation.footings)


def test_a_pinned_acolyte_has_one_half_action_and_the_panel_says_so(store) -> None:
    fight = chapel(store)
    tull = fight.state.current
    assert tull is not None
    fight.add_condition(tull.id, "pinned")
    footing = fight.situation.of(tull.id)
    assert dict(footing.budget) == {"actions": 1}  # not 2: pinned, one half action a turn
    form = AttackForm(fight, follow_actor=True)
    try:
        assert form.attacker == tull.id
        assert "all_out_attack" in form.offered.not_offered  # a full action: refused
        assert "pinned" in str(form.offered.not_offered["all_out_attack"])
        fight.spend(tull.id, "half")
        form.refresh()
        assert dict(fight.situation.of(tull.id).budget) == {"actions": 0}
        assert form.offered.actions == ()
        # the one reason: his condition, not a weapon's limit nor "0 left"
        assert "pinned" in str(form.problem)
        assert "melee weapon" not in str(form.problem)
    finally:
        form.close()
    panel = AttackPanel(fight, follow_actor=True)
    try:
        assert "Actions left: actions 0" in panel.offered_html.value
    finally:
        panel.close()
    tracker = InitiativeTracker(fight)
    try:
        assert "Actions left 0/2" in tracker.rows[tull.id].html.value
    finally:
        tracker.close()


def test_a_stunned_actor_s_reason_is_said_in_words(store) -> None:
    fight = chapel(store)
    actor = fight.state.current
    assert actor is not None
    fight.add_condition(actor.id, "stunned", rounds=1)
    assert "stunned" in str(fight.situation.of(actor.id).why_not)
    form = AttackForm(fight, follow_actor=True)
    try:
        assert "stunned" in str(form.problem)
        assert "choose" not in str(form.problem)
    finally:
        form.close()


def test_necromunda_names_one_fighter_in_the_three_panels(store) -> None:
    fight = Encounter.open(store, SUMP)
    fight.start()
    actor = fight.situation.actor
    assert actor is not None
    assert fight.state.combatants[actor].side == fight.state.current_side
    tracker, panel, turn = InitiativeTracker(fight), AttackPanel(fight, follow_actor=True), None
    turn = TurnPanel(fight)
    try:
        marked = [i for i, row in tracker.rows.items() if "gmkit-current" in row._dom_classes]
        assert marked == [actor]
        assert panel.form.attacker == actor
        assert turn.form.actor == actor
        # his go spent: the next fighter of the side, named alike in the three
        for _ in range(2):
            fight.next_turn()  # into the shooting phase
            if fight.situation.phase == "shooting":
                break
        following = fight.situation.actor
        marked = [i for i, row in tracker.rows.items() if "gmkit-current" in row._dom_classes]
        assert marked == [following]
        assert turn.form.actor == following
    finally:
        tracker.close()
        panel.close()
        if turn is not None:
            turn.close()


def test_the_delayed_combatant_who_interrupts_is_left_for_the_next_actor(store) -> None:
    """The GM picks the delayed one in the attack panel, he shoots with his kept half action;
    the panel then goes back to whoever acts now (it stayed on him, saying he may not act)."""
    fight = chapel(store)
    first = fight.state.current
    assert first is not None
    form = AttackForm(fight, follow_actor=True, seed=7)
    try:
        fight.delay(first.id)
        fight.next_turn()
        second = fight.state.current
        assert second is not None
        assert form.attacker == second.id
        form.select_attacker(first.id)  # he interrupts
        assert form.action  # his kept half action allows an attack
        form.select_target(next(t for t in form.offered.targets if t != second.id))
        form.set_distance(10)
        form.resolve()
        form.apply()
        assert not fight.state.combatants[first.id].delayed
        assert fight.situation.actor == second.id
        assert form.attacker == second.id  # back with whoever acts now
        assert not form.problem
    finally:
        form.close()


WFB = "Arrows over the Reikland Ford"


def goblins_shooting(store) -> Encounter:
    fight = Encounter.open(store, WFB)
    fight.start()
    while not (fight.situation.side == "Night Goblins" and fight.situation.phase == "shooting"):
        fight.next_turn()
    return fight


def test_wfb_never_defaults_to_a_target_the_rules_refuse(store) -> None:
    """The goblins' default target was the captain inside her unit (refused by the rules); the
    panel showed 0% tiles and Apply recorded the refused shot as the goblin's."""
    fight = goblins_shooting(store)
    panel = AttackPanel(fight, follow_actor=True, seed=7)
    try:
        form = panel.form
        assert form.attacker == fight.situation.actor == "night-goblin-archer"
        assert form.target == "swordsman"  # the captain (refused) is passed over
        assert form.request is not None
        assert not form.problem
        panel.select_target("captain-ottilie-hals")  # the GM's pick: kept, refused, said why
        assert form.target == "captain-ottilie-hals"
        assert form.request is None
        assert "Reikland Swordsmen" in str(form.problem)
        assert panel.odds_view.odds is None  # no odds tiles
        assert "Reikland Swordsmen" in panel.preview_html.value
        events = len(fight.events)
        with pytest.raises(FormError):
            form.resolve()
        assert panel.apply_button.disabled
        assert len(fight.events) == events  # nothing recorded
    finally:
        panel.close()


def test_wfb_a_refused_shot_shows_the_reason_no_odds_and_cannot_be_applied(store) -> None:
    """Units on the table: the captain inside the swordsmen may not be targeted (seed 003)."""
    fight = Encounter.open(store, WFB)
    fight.set_unit("Reikland Swordsmen", rank_and_file=15)  # her sheet names the unit
    fight.set_unit("Night Goblin Archers", side="Night Goblins", rank_and_file=20)
    fight.start()
    while not (fight.situation.side == "Night Goblins" and fight.situation.phase == "shooting"):
        fight.next_turn()
    panel = AttackPanel(fight, follow_actor=True, seed=7)
    try:
        form = panel.form
        assert form.target != "captain-ottilie-hals"
        assert form.request is not None
        panel.select_target("captain-ottilie-hals")
        assert "may not be targeted" in str(form.problem)
        assert form.request is None
        assert panel.odds_view.odds is None
        assert "may not be targeted" in panel.preview_html.value
        assert "Refused by the rules" in panel.preview_html.value
        assert panel.apply_button.disabled
        events = len(fight.events)
        with pytest.raises(FormError):
            form.resolve()
        assert len(fight.events) == events
    finally:
        panel.close()


def test_a_condition_in_the_gm_s_words_is_a_note_that_changes_no_rule(store) -> None:
    """ "aimed: at the door" refused every attack of its bearer ("Aim is taken as half or
    full"): a condition carries only what it declares (aimed: half or full); anything else
    is the GM's note, shown and ignored by the rules, and the preview says so."""
    from gmkit.dice import SeededDice
    from gmkit.systems import _choices as choices

    fight = Encounter.open(store, CHAPEL)
    tull, ban = "sergeant-varro-tull", "cultist-ban"
    fight.add_condition(tull, "aimed: at the door")
    assert "aimed: at the door" in fight.state.combatants[tull].conditions  # on the chips
    result = fight.try_attack(tull, "Lasgun", ban, SeededDice(3), distance=20)
    shown = [str(m) for step in result.steps for m in step.modifiers]
    assert shown == ["Short range +10"]  # no Aim bonus, no refusal
    preview = choices.attack_preview("dark_heresy", fight.attack_request(tull, "Lasgun", ban))
    assert preview is not None
    assert any("not a rule condition: 'aimed: at the door'" in str(n) for n in preview.notes)
    fight.add_condition(tull, "aimed: full")  # the Aim the rules know
    preview = choices.attack_preview(
        "dark_heresy", fight.attack_request(tull, "Lasgun", ban, distance=20)
    )
    assert preview is not None
    assert [str(m) for m in preview.modifiers] == ["Aim (full) +20", "Short range +10"]
