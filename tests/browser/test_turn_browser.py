"""The turn panel and the units panel in a real browser, driven with the mouse and the keyboard
on the GM's dashboard: conditions added with their rounds and removed by their chip, the rolls
a turn asks for rolled with the table's die, non-attack actions taken (and a refused one shown
with its reason), Necromunda's movement, phases and recovery roll, and WFB's units and
distances set on the table. One ``gmkit table`` serves its own copy of the demo campaign, its
fights started from Python first (the GM's prep); every die is typed, so every run is the same.
A screenshot of each step goes to test-artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dashboard_page import SELECTED, Table, until

from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.store import CampaignStore

pytestmark = [pytest.mark.browser, pytest.mark.server]

CHAPEL = "The Chapel of the Pale Throne"
SUMP = "Ambush at the Sump Pipes"
BREACH = "The Breach at Vaxanide"
FORD = "Arrows over the Reikland Ford"
DRAKWALD = "Beastmen on the Drakwald Road"
TURN = ".gmkit-turn-panel"
UNITS = ".gmkit-units-panel"


def prepare(campaign: Path) -> None:
    """The GM's prep: initiative and the start of three fights; a Necromunda fighter down."""
    with CampaignStore(campaign) as store:
        chapel = Encounter.open(store, CHAPEL)
        # d10s in the order added: Marr 20 acts first, then Tull 19 (Agility Bonus added)
        chapel.roll_initiative(EnteredDice([7, 10, 1, 2, 3, 4, 5, 6]))
        chapel.start()
        sump = Encounter.open(store, SUMP)
        sump.add_condition("Mordecai", "down")
        sump.start()
        drakwald = Encounter.open(store, DRAKWALD)
        drakwald.roll_initiative(EnteredDice([10, 1, 2, 3, 4, 5, 6, 7, 8, 9]))
        drakwald.start()
        # Ilarion 14 acts first, then Castor 9 (in power armour), set alight by a burna
        breach = Encounter.open(store, BREACH)
        breach.roll_initiative(EnteredDice([5, 10, 3, 2, 1]))
        breach.start()
        breach.add_condition("Brother Castor", "on_fire")


@pytest.fixture(scope="module")
def turn_table(tmp_path_factory, serve_table, chromium) -> Iterator[tuple[Table, Path]]:
    from gmkit.campaign import demo_campaign_file

    campaign = demo_campaign_file(tmp_path_factory.mktemp("turns") / "campaign")
    prepare(campaign)
    server = serve_table(campaign)
    page = chromium.new_page(viewport={"width": 1600, "height": 1000})
    gm = Table(page)  # listening to the page's websocket before it opens
    try:
        page.goto(server.url, wait_until="domcontentloaded", timeout=120_000)
        page.locator(".gmkit-tracker .gmkit-row").first.wait_for(timeout=120_000)
        yield gm, campaign
    finally:
        page.close()


def opened(turn_table: tuple[Table, Path], name: str) -> tuple[Table, Any, Path]:
    """The dashboard on the encounter ``name`` (picked in the top bar's picker)."""
    gm, campaign = turn_table
    page = gm.page
    picker = page.locator(".gmkit-topbar .widget-dropdown select").first
    if picker.evaluate(SELECTED) != name:
        with gm.acting(f"pick {name}"):
            picker.select_option(label=name)
    page.locator(TURN).wait_for(timeout=30_000)
    return gm, page, campaign


def roll_due(gm: Table, value: str, step: str) -> None:
    """Type the table's die for the first roll due, Roll it, and see the list empty."""
    fill(gm, f'{TURN} input[placeholder="table\'s dice"]', value, f"{step}: the die")
    gm.click(TURN, "Roll", step)
    titles = gm.page.locator(f"{TURN} .gmkit-slot-title")
    until(gm.page, f"{step}: no roll due left", titles.count, (0).__eq__)


def fill(gm: Table, selector: str, value: str, step: str) -> None:
    with gm.acting(step):
        field_ = gm.page.locator(selector).first
        field_.fill(value)
        field_.press("Enter")


def shows(gm: Table, selector: str, text: str, step: str) -> None:
    until(
        gm.page,
        step,
        lambda: gm.page.locator(selector).all_inner_texts(),
        lambda t: any(text in one for one in t),
    )


def snap(gm: Table, artifacts: Path, name: str) -> None:
    gm.page.screenshot(path=str(artifacts / f"turn-{name}.png"), full_page=True)


def language(gm: Table, name: str) -> None:
    """Switch the dashboard to ``name`` ("Español", "English")."""
    gm.click(".gmkit-dashboard", name, f"the page in {name}")


def test_dark_heresy_conditions_rolls_due_and_actions(turn_table, artifacts):
    gm, page, campaign = opened(turn_table, CHAPEL)
    # Conditions: on fire for the next to act (Tull), added with the panel
    gm.toggle("Conditions", "open the conditions", scope=TURN)
    gm.choose("Character", "Sergeant Varro Tull", "whose conditions", scope=TURN)
    fill(gm, f"{TURN} input[placeholder='condition']", "on_fire", "type the condition")
    gm.click(TURN, "Add condition", "add on fire")
    shows(gm, f"{TURN} .gmkit-chip", "On fire", "the chip of on fire")
    snap(gm, artifacts, "dh-1-condition")
    # Next: Tull's turn begins; his Willpower test against the fire is due
    gm.click(".gmkit-tracker", "Next", "next turn")
    shows(gm, f"{TURN} .gmkit-slot-title", "Rolls due: 1", "the roll due")
    shows(gm, TURN, "Sergeant Varro Tull", "whose roll is due")
    snap(gm, artifacts, "dh-2-due")
    roll_due(gm, "12", "roll the Willpower test")
    snap(gm, artifacts, "dh-3-rolled")
    # Actions: a full Aim, then Tull stunned: his actions refused with the reason
    gm.toggle("Actions besides attacks", "open the actions", scope=TURN)
    gm.choose("Action", "Aim", "choose Aim", scope=TURN)
    with gm.acting("take it as a full action"):
        page.locator(f"{TURN} .widget-toggle-button", has_text="full").first.click()
    gm.click(TURN, "Do it", "aim")
    shows(gm, f"{TURN} .gmkit-summary", "Aim", "the aim's result")
    snap(gm, artifacts, "dh-4-aimed")
    fill(gm, f"{TURN} input[placeholder='condition']", "stunned", "type stunned")
    fill(gm, f"{TURN} input[placeholder='rounds']", "1", "for a round")
    gm.click(TURN, "Add condition", "add stunned")
    gm.choose("Action", "Ready ⨯", "a refused action", scope=TURN)
    shows(gm, f"{TURN} .gmkit-warning", "is stunned: no actions", "why it is refused")
    shows(gm, f"{TURN} .gmkit-warning", "the half action needs 1", "Ready's own budget")
    assert page.locator(f"{TURN} .widget-toggle-buttons").first.is_hidden()  # one type only
    assert page.locator(f"{TURN} button", has_text="Do it").first.is_disabled()
    snap(gm, artifacts, "dh-5-stunned")
    with CampaignStore(campaign, readonly=True) as store:
        fight = Encounter.open(store, CHAPEL)
    tull = fight.combatant("Sergeant Varro Tull")
    kinds = [e["kind"] for e in fight.effective_events]
    assert kinds[-5:] == ["condition", "turn", "due_rolled", "action", "condition"]
    assert "aimed: full" in tull.conditions
    assert tull.conditions["stunned"].rounds == 1
    assert fight.effective_events[-2]["type"] == "full"


def test_necromunda_movement_phases_and_the_recovery_roll(turn_table, artifacts):
    gm, _, campaign = opened(turn_table, SUMP)
    gm.toggle("Actions besides attacks", "open the actions", scope=TURN)
    gm.choose("Actor", "Brother Kael", "Kael acts", scope=TURN)
    gm.choose("Action", "Run", "choose Run", scope=TURN)
    fill(gm, f"{TURN} .widget-text:has(label:text-is('open ground (inches)')) input", "7", "7 in")
    gm.click(TURN, "Do it", "run")
    shows(gm, f"{TURN} .gmkit-summary", "Brother Kael", "the run's result")
    snap(gm, artifacts, "nec-1-run")
    # issue 21 item 11: the next phase (the same side, the same fighter followed) takes the
    # run's result away: the pane shows only what is still news
    gm.click(".gmkit-tracker", "Next", "the shooting phase")
    summaries = gm.page.locator(f"{TURN} .gmkit-summary")
    until(gm.page, "the run's result gone", summaries.count, (0).__eq__)
    snap(gm, artifacts, "nec-1b-shooting")
    gm.choose("Actor", "Mordecai", "the down fighter", scope=TURN)
    shows(gm, f"{TURN} select", "⨯", "a down fighter's refused actions")
    for _ in range(2):  # close combat, recovery
        gm.click(".gmkit-tracker", "Next", "next phase")
    shows(gm, ".gmkit-tracker .gmkit-header", "recovery", "the recovery phase")
    shows(gm, f"{TURN} .gmkit-slot-title", "Rolls due: 1", "Mordecai's recovery roll")
    snap(gm, artifacts, "nec-2-recovery-due")
    roll_due(gm, "1", "roll the recovery: a flesh wound")
    snap(gm, artifacts, "nec-3-recovered")
    with CampaignStore(campaign, readonly=True) as store:
        fight = Encounter.open(store, SUMP)
    mordecai = fight.combatant("Mordecai")
    assert "down" not in mordecai.conditions
    assert "pinned" in mordecai.conditions  # recovered with a flesh wound: pinned
    assert any(e["kind"] == "action" and e["action"] == "run" for e in fight.effective_events)


def test_wfrp_defensive_stance_is_a_condition_the_attacks_read(turn_table, artifacts):
    gm, _, campaign = opened(turn_table, DRAKWALD)
    gm.toggle("Actions besides attacks", "open the actions", scope=TURN)
    gm.choose("Action", "Defensive Stance", "choose Defensive Stance", scope=TURN)
    gm.click(TURN, "Do it", "take the stance")
    gm.toggle("Conditions", "open the conditions", scope=TURN)
    shows(gm, f"{TURN} .gmkit-chip", "Defensive Stance", "the stance's chip")  # by name
    snap(gm, artifacts, "wfrp-1-stance")
    with CampaignStore(campaign, readonly=True) as store:
        fight = Encounter.open(store, DRAKWALD)
    actor = fight.effective_events[-1]["id"]
    assert "defensive_stance" in fight.combatant(actor).conditions


def test_wfb_units_and_distances_set_on_the_table(turn_table, artifacts):
    gm, page, campaign = opened(turn_table, FORD)
    gm.show_pane("Units")  # under the tracker, beside the turn and the log
    page.locator(UNITS).wait_for(timeout=30_000)
    fill(gm, f"{UNITS} input[placeholder='unit']", "Reikland Swordsmen", "the unit")
    fill(gm, f"{UNITS} .widget-inline-hbox:has(label:text-is('Rank and file')) input", "15", "15")
    gm.choose("Profile", "Swordsman", "its profile", scope=UNITS)
    gm.click(UNITS, "Set unit", "set the unit")
    shows(gm, f"{UNITS} .gmkit-units", "15/15", "the unit on the table")
    shows(gm, f"{UNITS} .gmkit-units", "Captain Ottilie Hals", "her sheet's unit kept")
    gm.choose("From", "Father Anselm", "from the priest", scope=UNITS)
    gm.choose("To", "Reikland Swordsmen", "to the swordsmen", scope=UNITS)
    fill(gm, f"{UNITS} .widget-inline-hbox:has(label:text-is('Distance')) input", "10", "10 cm")
    gm.click(UNITS, "Set distance", "set the distance")
    shows(gm, f"{UNITS} .gmkit-distances", "10 cm", "the distance")
    snap(gm, artifacts, "wfb-1-units")
    with CampaignStore(campaign, readonly=True) as store:
        fight = Encounter.open(store, FORD)
    unit = fight.state.units["Reikland Swordsmen"]
    assert (unit.rank_and_file, unit.troop_type) == (15, "infantry")
    assert unit.characters == (fight.combatant("Captain Ottilie Hals").id,)
    assert fight.distance_between("Father Anselm", "Reikland Swordsmen") == 10


def test_deathwatch_fire_in_sealed_armour_put_out_fire_and_size_by_name(turn_table, artifacts):
    """Issue 21, items 5, 6 and 7: Castor burns in power armour (his Willpower test passes
    without a die), puts the fire out with the GM's modifier, and shoots at a target whose
    size the GM picks by name; each screen in English and in Spanish."""
    gm, _, campaign = opened(turn_table, BREACH)
    gm.click(".gmkit-tracker", "Next", "Castor's turn")
    passes = "On fire: test passed without a die (sealed armour); nothing to roll"
    shows(gm, TURN, passes, "the roll due says it needs no die")
    snap(gm, artifacts, "dw-1-fire-due-en")
    language(gm, "Español")
    pasa = "En llamas: tirada superada sin dado (armadura sellada); no hay nada que tirar"
    shows(gm, TURN, pasa, "the roll due in Spanish")
    snap(gm, artifacts, "dw-1-fire-due-es")
    language(gm, "English")
    gm.click(TURN, "Roll", "roll it: no die asked")
    shows(gm, f"{TURN} .gmkit-summary", "passed without a die: sealed armour", "passed")
    snap(gm, artifacts, "dw-2-fire-passed-en")
    # the attack panel: the target's size by name, from the circumstances' dropdown
    gm.choose("Target", "Nob Gritfang (Waaagh! Gritfang) · secret", "at the nob")
    gm.choose("Mode", "Single shot", "a single shot")
    gm.choose("Action", "Standard Attack", "a standard attack")
    gm.click(".gmkit-attack", "Edit circumstances", "open the circumstances")
    gm.choose("Size", "Hulking", "the target is hulking")
    shows(gm, ".gmkit-attack", "Size: Hulking\t+10", "the size's modifier (BS 47 +10)")
    shows(gm, ".gmkit-attack", "Needed\t57 or less", "the number needed")
    shows(gm, ".gmkit-attack", "Circumstances: Size Hulking", "the line names it")
    snap(gm, artifacts, "dw-3-size-en")
    language(gm, "Español")
    shows(gm, ".gmkit-attack", "Circunstancias: Tamaño Corpulento", "the size in Spanish")
    shows(gm, ".gmkit-attack", "Tamaño: Corpulento\t+10", "its modifier in Spanish")
    snap(gm, artifacts, "dw-3-size-es")
    language(gm, "English")
    # Put Out Fire, made easier by the GM (+20): its number typed with the action
    gm.toggle("Actions besides attacks", "open the actions", scope=TURN)
    gm.choose("Action", "Put Out Fire", "choose Put Out Fire", scope=TURN)
    language(gm, "Español")
    shows(gm, f"{TURN} .widget-text label", "modificador del DJ", "its input in Spanish")
    snap(gm, artifacts, "dw-4-put-out-input-es")
    language(gm, "English")
    modifier = f"""{TURN} .widget-text:has(label:text-is("GM's modifier")) input"""
    fill(gm, modifier, "20", "the GM's modifier")
    snap(gm, artifacts, "dw-4-put-out-input-en")
    fill(gm, f'{TURN} input[placeholder="table\'s dice"]', "40", "the table's die")
    gm.click(TURN, "Do it", "put the fire out")
    shows(gm, f"{TURN} .gmkit-steps", "Put Out Fire -20, GM's modifier +20", "the modifier")
    shows(gm, f"{TURN} .gmkit-steps", "no longer on fire", "the fire is out")
    snap(gm, artifacts, "dw-5-put-out-en")
    language(gm, "Español")
    shows(gm, f"{TURN} .gmkit-steps", "Modificador del DJ +20", "the modifier in Spanish")
    snap(gm, artifacts, "dw-5-put-out-es")
    language(gm, "English")
    with CampaignStore(campaign, readonly=True) as store:
        fight = Encounter.open(store, BREACH)
    castor = fight.combatant("Brother Castor")
    rolled, acted = [e for e in fight.effective_events if e["kind"] in ("due_rolled", "action")]
    assert (rolled["rule"], rolled["rolls"]) == ("on_fire.start_of_turn", [])
    assert (acted["action"], acted["inputs"]) == ("put_out_fire", {"modifier": 20.0})
    assert "on_fire" not in castor.conditions
