"""The turn panel and its form: non-attack actions, the rolls due and the conditions, driven the
way the GM's clicks drive them, on the toy game Duel (tests/plugins/gmkit-duel) and a real game."""

from __future__ import annotations

import warnings

import ipywidgets
import pytest

from gmkit._forms.action import ActionForm
from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.errors import GmkitError, NeedDie
from gmkit.systems.base import Effect
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._turn_panel import TurnPanel


def models() -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # deprecated name, same registry
        return len(ipywidgets.Widget.widgets)


@pytest.fixture
def fight(duel) -> Encounter:
    encounter = Encounter("duel")
    encounter.add(duel.Duellist.build(name="Inigo", side="Montoya", skill=8), ident="inigo")
    encounter.add(duel.Duellist.build(name="Fezzik", side="Montoya"), ident="fezzik")
    encounter.add(duel.Duellist.build(name="Rugen", side="Rugen", skill=6), ident="rugen")
    encounter.start()
    return encounter


@pytest.fixture
def panel(fight):
    made = TurnPanel(fight, seed=3)
    yield made
    made.close()


@pytest.fixture
def spanish():
    LANGUAGE.value = "es"
    yield
    LANGUAGE.value = "en"


def test_the_form_lists_every_action_with_its_permit_and_follows_the_actor(fight):
    form = ActionForm(fight)
    assert form.actor == "inigo"
    assert [(o.info.id, o.allowed) for o in form.offered] == [
        ("salute", True),
        ("feint", True),
        ("pick_up", True),
    ]
    form.select_action("feint")
    assert (form.target, form.inputs) == ("rugen", {})  # the first foe
    form.set_input("side", "left")
    fight.next_turn()  # Rugen's side: the form follows, nothing carried over
    assert (form.actor, form.action, form.target, form.inputs) == ("rugen", "", "", {})
    form.close()


def test_the_form_refuses_what_is_not_offered_by_name(fight):
    form = ActionForm(fight)
    with pytest.raises(GmkitError, match=r"'lunge'.*salute, feint, pick_up"):
        form.select_action("lunge")
    with pytest.raises(GmkitError, match="choose the action first"):
        form.perform()
    form.select_action("feint")
    with pytest.raises(GmkitError, match=r"'sde'.*side"):
        form.set_input("sde", "left")
    with pytest.raises(GmkitError, match=r"'half'.*strike"):
        form.set_type("half")
    with pytest.raises(GmkitError, match="rounds: 'x' is not a whole number"):
        form.add_condition("inigo", "bleeding", "x")
    with pytest.raises(GmkitError, match="condition"):
        form.add_condition("inigo", "  ")
    assert fight.state.combatant("inigo").conditions == {}
    form.close()


def test_a_feint_with_the_tables_die_asks_for_it_then_is_one_event(panel, fight):
    assert panel.select_action("feint")
    events = len(fight.effective_events)
    assert not panel.perform("")  # the table's dice, none typed yet: the panel asks
    assert "feint die" in panel.message
    assert len(fight.effective_events) == events
    controls = panel.action_controls
    assert controls is not None
    assert controls.target.value == "rugen"
    assert controls.target.layout.display == ""
    assert controls.weapon.layout.display == "none"  # a feint needs no weapon
    assert [c.description for c in controls.inputs.children] == ["side"]
    controls.dice.value = "5"
    controls.do.click()
    assert len(fight.effective_events) == events + 1
    assert "off guard" in fight.state.combatant("rugen").conditions
    assert "Feint" in panel.result.value  # the pane's last result, under the controls
    assert "fooled" in panel.result.value
    assert controls.dice.value == ""  # the dice of one action do not carry into the next
    assert controls.action.value == ""  # nor the action itself
    assert controls.do.disabled is True
    labels = {value: label for label, value in controls.action.options}
    assert labels["feint"] == "Feint ⨯"  # Inigo's one strike is spent
    panel.select_action("feint")
    assert "0 left this turn (strikes)" in controls.why.value


def test_too_few_typed_dice_say_which_die_and_record_nothing(fight):
    form = ActionForm(fight)
    form.select_action("feint")
    with pytest.raises(NeedDie):
        form.perform("")  # typed, but no value
    assert form.needed is not None
    assert form.needed.sides == 6
    assert "off guard" not in fight.state.combatant("rugen").conditions
    assert fight.state.combatant("inigo").spent == {}
    form.close()


def test_a_refused_action_is_marked_and_done_anyway_with_the_gms_reason(panel, fight):
    fight.add_condition("inigo", "stunned", rounds=1)
    # a stunned Inigo is no longer the side's next to act (the situation's actor is Fezzik):
    # the GM picks him to act anyway
    assert fight.situation.actor == "fezzik"
    panel.select_actor("inigo")
    panel.open_actions()
    controls = panel.action_controls
    assert controls is not None
    labels = dict((value, label) for label, value in controls.action.options)
    assert labels["salute"].endswith("⨯")  # no action of any kind
    panel.select_action("salute")
    assert controls.do.disabled
    assert controls.anyway.layout.display == ""
    assert "Inigo is stunned" in controls.why.value
    controls.reason.value = "the GM allows a salute"
    controls.anyway.click()
    event = fight.effective_events[-1]
    assert event["kind"] == "action"
    assert event["spent"]["override"] == "the GM allows a salute"


def test_rolls_due_are_listed_rolled_and_dismissed_from_the_panel(panel, fight):
    fight.add_condition("inigo", "bleeding")
    fight.add_condition("fezzik", "bleeding")
    assert panel.due_box.children == ()
    fight.next_turn()  # Montoya's turn ends: both bleed
    assert "Rolls due: 2" in panel.title.value
    first, _ = panel.due_box.children
    assert "Inigo bleeds" in first.children[0].value
    first.children[1].value = "1"  # the table's die
    first.children[2].click()  # Roll
    assert fight.state.combatant("inigo").counters == {"damage": 1}
    assert len(panel.due_box.children) == 1
    panel.due_box.children[0].children[3].click()  # Dismiss Fezzik's
    assert panel.due_box.children == ()
    assert fight.state.combatant("fezzik").counters == {}
    assert panel.title.value == ""
    assert not panel.roll_due(0)
    assert "no roll due at position 0" in panel.message


def test_conditions_are_added_with_rounds_and_removed_by_their_chip(panel, fight):
    panel.open_conditions()
    controls = panel.condition_controls
    assert controls is not None
    assert controls.who.value == "inigo"
    controls.name.value = "winded"
    controls.rounds.value = "2"
    controls.add.click()
    condition = fight.state.combatant("inigo").conditions["winded"]
    assert condition.rounds == 2
    assert [chip.description for chip in controls.chips.children] == ["Winded · 2 ✕"]
    assert controls.name.value == ""  # cleared for the next one
    controls.rounds.value = "0"
    controls.name.value = "dazed"
    controls.add.click()
    assert "rounds: '0'" in panel.message
    assert "dazed" not in fight.state.combatant("inigo").conditions
    controls.chips.children[0].click()
    assert fight.state.combatant("inigo").conditions == {}
    controls.who.value = "rugen"
    fight.add_condition("rugen", "off guard", rounds=1)
    assert [chip.description for chip in controls.chips.children] == ["Off guard · 1 ✕"]


def test_next_skips_the_fallen_unless_the_setting_keeps_them(sheet_dh):
    fight, _, ban, hesk = sheet_dh
    panel = TurnPanel(fight)
    try:
        fight.add_condition(ban, "dead")
        fight.next_turn()
        assert fight.state.current.id == hesk  # Ban is passed over
        panel.open_conditions()
        controls = panel.condition_controls
        assert controls is not None
        assert controls.skip_fallen.value is True
        assert "Dead" in controls.name.options  # by name, as the page's language says it
        controls.skip_fallen.value = False
        assert fight.state.settings["skip_fallen"] is False
        fight.next_turn()
        fight.next_turn()
        assert fight.state.current.id == ban  # kept, for a GM who wants the turn shown
    finally:
        panel.close()


@pytest.fixture
def sheet_dh():
    roster = next(r for r in demo_campaign().rosters if r.game == "dark_heresy")
    sheets = {s.name: s for s in roster.sheets}
    fight = Encounter("dark_heresy")
    tull = fight.add(sheets["Sergeant Varro Tull"])
    ban = fight.add(sheets["Cultist Ban"])
    hesk = fight.add(sheets["Cultist Hesk"])
    for ident, score in ((tull, 20), (ban, 15), (hesk, 10)):
        fight.set_initiative(ident, score)
    fight.start()
    return fight, tull, ban, hesk


def test_the_panel_reads_in_spanish(panel, fight, spanish):
    panel.open_actions()
    panel.open_conditions()
    controls = panel.action_controls
    assert controls is not None
    assert controls.do.description == "Hacerlo"
    assert panel.conditions_toggle.description != "Conditions"
    fight.add_condition("inigo", "bleeding")
    fight.next_turn()
    roll = panel.due_box.children[0].children[2]
    assert roll.description != "Roll"


def test_the_panel_costs_few_widgets_until_opened(fight):
    before = models()
    made = TurnPanel(fight, seed=1)
    try:
        # its parts, and one button per action of the game (on shared looks) and the actor
        # (the box, the actor's name, their looks: 5 models; a button each after)
        assert models() - before <= 14 + 5 + len(fight.actions())
        assert made.action_controls is None
        assert made.condition_controls is None
    finally:
        made.close()


def test_a_critical_no_table_covers_is_a_decision_the_panel_lists_until_decided():
    roster = next(r for r in demo_campaign().rosters if r.game == "deathwatch")
    fight = Encounter("deathwatch")
    fight.add_many(roster.sheets)
    castor = fight.combatant("Brother Castor")
    panel = TurnPanel(fight)
    try:
        wounds = castor.sheet.wounds
        fight.apply_effects([Effect("damage", castor.id, wounds + 2, "head", "Energy")])
        (row,) = panel.due_box.children
        text, decided = row.children  # no die to roll: the GM gives the effect
        assert "2 critical damage (Energy, head)" in text.value
        assert decided.description == "Decided"
        fight.add_condition(castor.id, "stunned", rounds=1)  # the GM's answer
        decided.click()
        assert panel.due_box.children == ()
        assert fight.effective_events[-1]["kind"] == "due_dismissed"
    finally:
        panel.close()


def test_the_actions_are_buttons_for_whoever_acts_now(fight, panel):
    """A button per action of the game for the actor: one that needs nothing but its defaults
    is taken at once, one with inputs of its own opens the controls with it chosen, one not
    allowed now is greyed and says why."""
    buttons = {b.description: b for b in panel.quick_box.children[1:]}
    assert list(buttons) == ["Salute", "Feint", "Pick up"]
    assert "Inigo" in panel.quick_box.children[0].value
    before = len(fight.effective_events)
    buttons["Salute"].click()  # no inputs: taken with gmkit's dice, one event
    assert len(fight.effective_events) == before + 1
    assert fight.effective_events[-1]["kind"] == "action"
    assert fight.effective_events[-1]["action"] == "salute"
    assert panel.action_controls is None  # nothing to fill in: the controls stay folded
    buttons["Feint"].click()  # it has an input: chosen, and the controls open on it
    assert len(fight.effective_events) == before + 1
    assert panel.form.action == "feint"
    assert panel.action_controls is not None
    assert panel.actions_toggle.value
    assert "gmkit-actions-open" in panel._dom_classes  # the buttons fold away meanwhile
    panel.open_actions(False)
    assert "gmkit-actions-open" not in panel._dom_classes
    fight.next_turn()  # the buttons follow the actor, changed in place
    now = fight.combatant(panel.form.actor)  # the first of the side whose turn it is
    assert now.side == fight.state.current_side != "Montoya"
    assert panel.quick_box.children[0].value == f"<b>{now.name}</b>:"
    assert [b.description for b in panel.quick_box.children[1:]] == list(buttons)
    assert panel.quick_box.children[1] is buttons["Salute"]


def test_a_hidden_actor_is_revealed_from_the_turn_panel(duel):
    """Its turn keeps it hidden (the players read "an enemy acts"); the panel offers Reveal."""
    fight = Encounter("duel")
    fight.add(duel.Duellist.build(name="Inigo", side="Montoya"), ident="inigo")
    fight.add(duel.Duellist.build(name="Rugen", side="Rugen"), ident="rugen", hidden=True)
    fight.start()
    while fight.state.current_side != "Rugen":
        fight.next_turn()
    panel = TurnPanel(fight, seed=1)
    try:
        reveal = panel.quick_box.children[1]
        assert reveal.description == "Reveal to the players"
        assert fight.combatant("rugen").hidden
        reveal.click()
        assert not fight.combatant("rugen").hidden
        assert reveal not in panel.quick_box.children  # nothing left to reveal
    finally:
        panel.close()


def test_the_pane_shows_a_result_only_while_it_is_the_last_thing_done(duel):
    """Issue 21 item 11 ("Little Jeb hides" still shown after he shot and lost it): the pane
    shows the last result of the actor's turn, taken with its button or its controls, until
    another command supersedes it (a strike, a condition) or the turn moves on (in a sides
    game the same first fighter follows the side: the result must go all the same)."""
    fight = Encounter("duel")
    fight.add(duel.Duellist.build(name="Inigo", side="Montoya", skill=8), ident="inigo")
    fight.add(duel.Duellist.build(name="Rugen", side="Rugen", skill=6), ident="rugen")
    fight.start()
    panel = TurnPanel(fight, seed=3)
    try:
        panel.take("salute")  # its button: no inputs, taken at once
        assert "Inigo salutes" in panel.result.value
        fight.attack("inigo", "Sword", "rugen", EnteredDice([1, 1]), spend=True)
        assert panel.result.value == ""  # he struck since: the salute is no news
        panel.take("salute")
        assert "Inigo salutes" in panel.result.value
        fight.add_condition("rugen", "off guard", rounds=1)
        assert panel.result.value == ""
        panel.open_actions()
        panel.select_action("salute")
        panel.perform()  # with the controls
        assert "Inigo salutes" in panel.result.value
        fight.next_turn()  # Rugen's side
        fight.next_turn()  # Montoya's again: Inigo is the one followed, as before
        assert panel.form.actor == "inigo"
        assert panel.result.value == ""
    finally:
        panel.close()


def test_a_phase_that_keeps_the_side_clears_the_result_all_the_same():
    """Necromunda: the side keeps the turn through its phases, and the fighter the pane follows
    stays the same; a hide in the movement phase is no news in the shooting phase."""
    roster = next(r for r in demo_campaign().rosters if r.game == "necromunda")
    fight = Encounter("necromunda")
    fight.add_many(roster.sheets)
    fight.start()
    panel = TurnPanel(fight, seed=3)
    try:
        kael = panel.form.actor
        panel.take("hide")  # it has inputs: chosen, its controls opened, taken with Do it
        assert panel.perform()
        assert "Brother Kael" in panel.result.value
        fight.next_turn()  # the shooting phase: the same side, the same fighter followed
        assert panel.form.actor == kael
        assert panel.result.value == ""
    finally:
        panel.close()
