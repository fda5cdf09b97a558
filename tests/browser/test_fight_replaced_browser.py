"""A GM's prep cell run again while the table is open (issue 27, item 3), in real Chromium at
1366x768: the GM rolls initiative and starts the Chapel; ``prep.encounter`` without a word
refuses to replace the played fight; with ``replace="played"`` it does, and the open table
says so plainly (in English, then in Spanish) instead of showing the old fight as if it were
live, and opens the new one when asked."""

from __future__ import annotations

from pathlib import Path

import pytest
from dashboard_page import Table, until

from gmkit import prep
from gmkit.campaign import demo_campaign_file
from gmkit.encounter import Encounter
from gmkit.encounter._played import PlayedEncounterError
from gmkit.store import CampaignStore

pytestmark = [pytest.mark.browser, pytest.mark.server]
CHAPEL = "The Chapel of the Pale Throne"


def prepare_again(campaign: Path, replace: object) -> None:
    with CampaignStore(campaign) as store:
        sheets = [c.sheet for c in Encounter.open(store, CHAPEL).state.combatants.values()]
        prep.encounter(
            store, CHAPEL, "dark_heresy", sheets, player_sides=["Acolytes"], replace=replace
        )


def test_the_open_table_says_its_fight_was_replaced_and_opens_the_new_one(
    serve_table, chromium, artifacts, tmp_path
):
    campaign = demo_campaign_file(tmp_path)
    server = serve_table(campaign)
    page = chromium.new_page(viewport={"width": 1366, "height": 768})
    gm = Table(page)
    try:
        page.goto(server.url, wait_until="domcontentloaded", timeout=120_000)
        page.locator(".gmkit-tracker .gmkit-row").first.wait_for(timeout=120_000)
        gm.click(".gmkit-tracker", "Roll initiative", "roll initiative")
        gm.click(".gmkit-tracker", "Start", "start")
        until(page, "round 1 starts", gm.header, lambda text: text.startswith("Round 1"))

        with pytest.raises(PlayedEncounterError, match="has been played"):
            prepare_again(campaign, True)  # the cell run again, as it was written
        assert gm.header().startswith("Round 1")  # nothing changed at the table
        prepare_again(campaign, "played")  # the GM's word

        notice = page.locator(".gmkit-gone-notice")
        notice.wait_for(timeout=30_000)
        text = notice.inner_text()
        assert f'The fight "{CHAPEL}" this page showed' in text
        assert "is no longer in the campaign file" in text
        assert page.locator(".gmkit-tracker").count() == 0  # the old fight is not shown live
        page.screenshot(path=str(artifacts / "fight-replaced-notice.png"))

        page.locator(".gmkit-dashboard .widget-toggle-button", has_text="Español").click()
        page.locator(".gmkit-gone-notice", has_text="ya no está en el archivo").wait_for(
            timeout=30_000
        )
        page.screenshot(path=str(artifacts / "fight-replaced-notice-es.png"))
        page.locator(".gmkit-gone-notice button", has_text=f"Abrir el nuevo {CHAPEL}").click()
        page.locator(".gmkit-tracker .gmkit-row").first.wait_for(timeout=30_000)
        assert page.locator(".gmkit-gone-notice").count() == 0
        assert not gm.header().startswith("Ronda 1")  # the new fight, not yet started
        page.screenshot(path=str(artifacts / "fight-replaced-new-one.png"))

        # a page opened now comes from a preheated kernel that had loaded the old fight: it
        # shows the new one (nothing of the old was written there), saying it was prepared again
        second = chromium.new_page(viewport={"width": 1366, "height": 768})
        try:
            second.goto(server.url, wait_until="domcontentloaded", timeout=120_000)
            second.locator(".gmkit-tracker .gmkit-row").first.wait_for(timeout=120_000)
            header = second.locator(".gmkit-tracker .gmkit-header").first.inner_text()
            assert not header.startswith("Round 1"), header
            assert second.locator(".gmkit-gone-notice").count() == 0
            # the kernel (preheated on the old fight) finds it gone at its next poll: on a
            # loaded machine that poll can come well after the page has drawn
            said = second.locator(".gmkit-message", has_text="was prepared again").first
            said.wait_for(timeout=120_000)
            assert "in the campaign file: this is the new one" in said.inner_text()
            second.screenshot(path=str(artifacts / "fight-replaced-fresh-page.png"))
        finally:
            second.close()
    finally:
        page.close()
