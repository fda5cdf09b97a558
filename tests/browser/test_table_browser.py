"""The GM's dashboard in a real browser: the language switch, the encounter picker, the sheet
of the selected combatant and its editor (saved as the encounter command ``edit_sheet``).

It works on the Necromunda fight, so the Dark Heresy fight of test_fight_browser is untouched.
"""

from __future__ import annotations

import pytest

from gmkit.encounter import Encounter
from gmkit.store import CampaignStore

pytestmark = [pytest.mark.browser, pytest.mark.server]
AMBUSH = "Ambush at the Sump Pipes"


def test_language_picker_and_sheet_editor(table_server, table_campaign, chromium, artifacts):
    server, _ = table_server
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(server.url, wait_until="domcontentloaded", timeout=120_000)
        page.locator(".gmkit-tracker .gmkit-row").first.wait_for(timeout=120_000)

        # Español, and back: every panel's labels follow.
        page.locator(".gmkit-dashboard .widget-toggle-button", has_text="Español").click()
        page.locator(".gmkit-tracker button", has_text="Siguiente").wait_for(timeout=30_000)
        resolve = page.locator(".gmkit-attack button", has_text="Resolver")
        resolve.wait_for(timeout=30_000)  # each panel relabels itself, one message each
        assert resolve.count() == 1
        tab = page.locator(".lm-TabBar-tab", has_text="Bandeja de dados")
        tab.wait_for(timeout=30_000)
        assert tab.count() == 1
        page.locator(".gmkit-dashboard .widget-toggle-button", has_text="English").click()
        page.locator(".gmkit-tracker button", has_text="Next").wait_for(timeout=30_000)

        # Another encounter: the tracker shows its combatants, hidden ones marked for the GM.
        picker = page.locator(".gmkit-topbar .widget-dropdown select")
        picker.select_option(label=AMBUSH)
        page.locator(".gmkit-tracker .gmkit-row", has_text="Brother Kael").wait_for(timeout=30_000)
        hidden = page.locator(".gmkit-tracker .gmkit-row", has_text="Scabby Tom")
        assert "secret" in hidden.inner_text()  # the GM's secret (not Necromunda's Hide)

        # The sheet of the selected combatant, edited and saved through the encounter.
        page.locator(".gmkit-tracker .gmkit-row", has_text="Mordecai").locator(
            "button", has_text="Sheet"
        ).click()
        card = page.locator(".gmkit-sheet-slot .gmkit-sheet h3")
        page.wait_for_function(
            "() => document.querySelector('.gmkit-sheet-slot h3')?.innerText.includes('Mordecai')",
            timeout=30_000,
        )
        assert "Mordecai" in card.inner_text()
        page.locator(".gmkit-dashboard .widget-toggle-button", has_text="Edit sheet").click()
        bs = page.locator(".widget-text:has(label:text-is('BS')) input").first
        bs.wait_for(timeout=30_000)
        bs.fill("4")
        page.locator(".gmkit-sheet-slot button", has_text="Save").click()
        page.locator(".gmkit-pane-buttons .widget-toggle-button", has_text="Log").click()
        # the row's kind cell is kept, hidden, in the compact log: attached, not visible
        page.locator(".gmkit-log td.gmkit-kind", has_text="sheet edited").wait_for(
            state="attached", timeout=30_000
        )
        page.screenshot(path=str(artifacts / "dashboard-sheet.png"), full_page=True)
    finally:
        page.close()

    with CampaignStore(table_campaign, readonly=True) as store:
        fight = Encounter.open(store, AMBUSH)
    assert fight.combatant("Mordecai").sheet.BS == 4
    assert fight.events[-1]["kind"] == "sheet_edited"
    assert fight.events[-1]["changes"] == {"BS": 4}
