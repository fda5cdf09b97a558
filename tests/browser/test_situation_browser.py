"""One picture of the table (issue 22), played on the GM's dashboard in real Chromium: the cases
a GM met, each now answered once by the encounter's situation and shown the same everywhere.

- Necromunda: the tracker's actor row, the attack panel's attacker and the turn pane's actor
  are one fighter.
- Dark Heresy, a pinned acolyte: "Actions left 1/2" on his row and "actions 1" in the panel;
  after his half action, the panel's reason is his condition (not a weapon's limit).
- Dark Heresy, a stunned actor: the panel says so in words (not "choose the action first").
- Dark Heresy, a delayed cultist interrupts from the attack panel: the panel goes back to whoever
  acts now.
- WFB: the goblins' default target is one the rules allow; the captain inside her unit, picked
  by the GM, shows the rules' refusal, no odds tiles, and Apply stays disabled.
- Deathwatch: at the magnitude-30 ork mob the preview's Needed is the number rolled against.

One ``gmkit table`` serves its own copy of the demo campaign, prepared from Python (the GM's
prep: initiative, start, the conditions); gmkit's seeded dice roll. A screenshot of each step
goes to test-artifacts/situation-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dashboard_page import OPTIONS, SELECTED, Table, inner_text, until

from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.store import CampaignStore

pytestmark = [pytest.mark.browser, pytest.mark.server]

CHAPEL = "The Chapel of the Pale Throne"
SUMP = "Ambush at the Sump Pipes"
BREACH = "The Breach at Vaxanide"
FORD = "Arrows over the Reikland Ford"
PINNED = "Pinned in the Nave"
DELAYED = "The Cultist Waits"
TURN = ".gmkit-turn-panel"
ATTACK = ".gmkit-attack"


def prepare(campaign: Path) -> None:
    """The GM's prep: two small Dark Heresy fights made from the Chapel's sheets, and the
    demo's fights started where each case begins."""
    with CampaignStore(campaign) as store:
        chapel = Encounter.open(store, CHAPEL)
        sheets = {c.name: c.sheet for c in chapel.state.present}
        pinned = Encounter.create(store, PINNED, "dark_heresy")
        kell = pinned.add(sheets["Jessa Kell"])
        ban = pinned.add(sheets["Cultist Ban"])
        pinned.set_initiative(kell, 12)
        pinned.set_initiative(ban, 5)
        pinned.start()
        pinned.add_condition(kell, "pinned")
        waits = Encounter.create(store, DELAYED, "dark_heresy")
        lorn = waits.add(sheets["Cultist Lorn"])
        fenn = waits.add(sheets["Adept Cornelius Fenn"])
        waits.set_initiative(lorn, 14)
        waits.set_initiative(fenn, 9)
        waits.start()
        waits.delay(lorn)  # Lorn waits: Fenn's turn
        assert waits.state.current is not None
        assert waits.state.current.id == fenn
        # the Chapel: Marr 20 acts first, then Tull 19; Tull stunned for his coming turn
        chapel.roll_initiative(EnteredDice([7, 10, 1, 2, 3, 4, 5, 6]))
        chapel.start()
        chapel.add_condition("Sergeant Varro Tull", "stunned", rounds=2)
        Encounter.open(store, SUMP).start()
        ford = Encounter.open(store, FORD)
        ford.set_unit("Reikland Swordsmen", rank_and_file=15)
        ford.set_unit("Night Goblin Archers", side="Night Goblins", rank_and_file=20)
        ford.start()
        while not (ford.situation.side == "Night Goblins" and ford.situation.phase == "shooting"):
            ford.next_turn()
        breach = Encounter.open(store, BREACH)
        breach.roll_initiative(EnteredDice([5, 10, 3, 2, 1]))
        breach.start()


@pytest.fixture(scope="module")
def table(tmp_path_factory, serve_table, chromium) -> Iterator[Table]:
    from gmkit.campaign import demo_campaign_file

    campaign = demo_campaign_file(tmp_path_factory.mktemp("situation") / "campaign")
    prepare(campaign)
    server = serve_table(campaign)
    page = chromium.new_page(viewport={"width": 1366, "height": 768})
    gm = Table(page)
    try:
        page.goto(server.url, wait_until="domcontentloaded", timeout=120_000)
        page.locator(".gmkit-tracker .gmkit-row").first.wait_for(timeout=120_000)
        yield gm
    finally:
        page.close()


def opened(gm: Table, name: str) -> Any:
    page = gm.page
    picker = page.locator(".gmkit-topbar .widget-dropdown select").first
    until(page, f"{name} offered", lambda: picker.evaluate(OPTIONS), lambda o: name in o)
    if picker.evaluate(SELECTED) != name:
        with gm.acting(f"pick {name}"):
            picker.select_option(label=name)
    until(page, f"{name} shown", lambda: picker.evaluate(SELECTED), name.__eq__)
    gm.show_pane("Turn")
    return page


def snap(gm: Table, artifacts: Path, name: str) -> None:
    gm.page.screenshot(path=str(artifacts / f"situation-{name}.png"))


def selected(gm: Table, label: str) -> str:
    select = gm.page.locator(f"{ATTACK} .widget-dropdown:has(label:text-is('{label}')) select")
    return str(select.first.evaluate(SELECTED))


CURRENT_ROW = """() => [...document.querySelectorAll('.gmkit-tracker .gmkit-row.gmkit-current')]
  .map(r => r.querySelector('.gmkit-name')?.innerText.trim())"""


def current_rows(gm: Table) -> list[str]:
    return list(gm.page.evaluate(CURRENT_ROW))


def turn_actor(gm: Table) -> str:
    """The name the turn pane's actions are for ("Mordecai:" above its buttons)."""
    text = inner_text(gm.page, f"{TURN} .gmkit-quick-name")
    return text.strip().rstrip(":").strip()


def test_necromunda_one_fighter_in_the_three_panels(table: Table, artifacts: Path) -> None:
    opened(table, SUMP)
    until(table.page, "the tracker's actor row", lambda: current_rows(table), lambda r: len(r) == 1)
    (actor,) = current_rows(table)
    until(
        table.page,
        "the attack panel's attacker is the tracker's actor",
        lambda: selected(table, "Attacker"),
        lambda shown: shown.startswith(actor),
    )
    until(table.page, "the turn pane's actor", lambda: turn_actor(table), actor.__eq__)
    snap(table, artifacts, "necromunda-one-actor")


def test_a_pinned_acolyte_s_budget_and_reason(table: Table, artifacts: Path) -> None:
    page = opened(table, PINNED)
    until(
        page,
        "Kell's row: one half action left of two",
        lambda: str(table.row("Jessa Kell")),
        lambda row: row != "None",
    )
    row = page.locator(".gmkit-tracker .gmkit-row", has_text="Jessa Kell").first
    until(page, "Kell's budget on her row", row.inner_text, lambda t: "1/2" in t)
    until(
        page,
        "the panel's budget line",
        lambda: table.panel(".gmkit-offered"),
        lambda t: "Actions left: actions 1" in t,
    )
    snap(table, artifacts, "pinned-1-budget")
    table.click(ATTACK, "Resolve", "resolve her shot (gmkit's dice)")
    table.click(ATTACK, "Apply", "apply it: her half action")
    until(page, "Kell's row: none left", row.inner_text, lambda t: "0/2" in t)
    until(
        page,
        "the panel's reason: pinned",
        lambda: inner_text(page, f"{ATTACK} .gmkit-preview-area") + table.panel(".gmkit-offered"),
        lambda t: "pinned" in t and "melee weapon" not in t,
    )
    snap(table, artifacts, "pinned-2-reason")


def test_a_stunned_actor_s_reason_in_words(table: Table, artifacts: Path) -> None:
    page = opened(table, CHAPEL)
    table.click(".gmkit-tracker", "Next", "Next: Tull's turn")
    until(page, "Tull acts", table.header, lambda h: "Sergeant Varro Tull" in h)
    until(
        page,
        "the panel says he is stunned",
        lambda: page.locator(ATTACK).first.inner_text(),
        lambda t: "stunned" in t and "choose the action first" not in t,
    )
    snap(table, artifacts, "stunned")


def test_the_panel_goes_back_to_the_actor_after_a_delayed_one_interrupts(
    table: Table, artifacts: Path
) -> None:
    page = opened(table, DELAYED)
    until(page, "Fenn's turn", table.header, lambda h: "Adept Cornelius Fenn" in h)
    table.choose("Attacker", "Cultist Lorn (Pale Throne cult)", "Lorn interrupts")
    table.click(ATTACK, "Resolve", "his shot (gmkit's dice)")
    table.click(ATTACK, "Apply", "apply it: his kept half action")
    until(
        page,
        "the panel back with Fenn",
        lambda: selected(table, "Attacker"),
        lambda shown: shown.startswith("Adept Cornelius Fenn"),
    )
    snap(table, artifacts, "delayed-back-to-fenn")


def test_wfb_a_refused_target_is_never_the_default_and_never_applied(
    table: Table, artifacts: Path
) -> None:
    page = opened(table, FORD)
    until(
        page,
        "the goblins shoot at an allowed target",
        lambda: (selected(table, "Attacker"), selected(table, "Target")),
        lambda s: (
            s[0].startswith("Night Goblin Archer")
            and bool(s[1])
            and not s[1].startswith("Captain Ottilie Hals")
        ),
    )
    snap(table, artifacts, "wfb-1-default-target")
    target = page.locator(f"{ATTACK} .widget-dropdown:has(label:text-is('Target')) select").first
    captain = next(o for o in target.evaluate(OPTIONS) if o.startswith("Captain Ottilie Hals"))
    table.choose("Target", captain, "the GM picks the captain")
    until(
        page,
        "the rules' refusal shown",
        lambda: page.locator(ATTACK).first.inner_text(),
        lambda t: "may not be targeted" in t,
    )
    assert page.locator(f"{ATTACK} .gmkit-odds-tile").count() == 0  # no odds tiles
    apply = page.locator(f"{ATTACK} button", has_text="Apply").first
    assert apply.is_disabled()
    snap(table, artifacts, "wfb-2-refused")


NEEDED = re.compile(r"(\d+) or less")


def test_deathwatch_the_horde_s_needed_is_the_number_rolled_against(
    table: Table, artifacts: Path
) -> None:
    page = opened(table, BREACH)
    table.choose("Attacker", "Brother Ilarion (Kill-team Aquila)", "Ilarion (his turn) attacks")
    mob = page.locator(f"{ATTACK} .widget-dropdown:has(label:text-is('Target')) select").first
    ork = next(o for o in mob.evaluate(OPTIONS) if o.startswith("Ork Boyz mob"))  # magnitude 30
    table.choose("Target", ork, "the ork mob")
    table.type_into("Distance (m)", "10", "10 m", key="Tab")
    preview = page.locator(f"{ATTACK} .gmkit-preview")
    until(page, "the preview's Needed", lambda: NEEDED.findall(preview.inner_text()), bool)
    needed = int(NEEDED.findall(preview.inner_text())[0])
    assert "magnitude 30" in preview.inner_text()  # the size bonus among its modifiers
    table.click(ATTACK, "Resolve", "resolve (gmkit's dice)")
    steps = page.locator(f"{ATTACK} .gmkit-steps tr")
    until(page, "the resolved test", steps.count, lambda n: n > 1)
    first = steps.nth(1).locator("td").last.inner_text().strip()
    assert int(first) == needed
    snap(table, artifacts, "deathwatch-needed")
