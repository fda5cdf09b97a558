"""The table page in a real browser: the widgets render and respond to the GM."""

from __future__ import annotations

import pytest

from gmkit.demo import demo_campaign

pytestmark = [pytest.mark.browser, pytest.mark.server]


def test_sheet_browser_renders_and_switches_character(table_server, chromium, tmp_path):
    server, _ = table_server
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(server.url, wait_until="domcontentloaded", timeout=120_000)
        tabs = page.locator(".lm-TabBar-tab")
        tabs.first.wait_for(timeout=120_000)
        campaign = demo_campaign()
        assert tabs.count() == len(campaign.rosters)

        first = campaign.rosters[0]
        card = page.locator(".gmkit-sheet").first
        card.wait_for(timeout=30_000)
        assert first.sheets[0].name in card.inner_text()

        # The GM picks another character: the sheet card follows.
        other = first.sheets[-1].name
        page.locator(".widget-dropdown select").first.select_option(other)
        page.wait_for_function(
            "name => document.querySelector('.gmkit-sheet h3').innerText.includes(name)",
            arg=other,
            timeout=30_000,
        )
        # Another game's tab shows that roster's characters.
        tabs.nth(2).click()
        third = campaign.rosters[2]
        visible = page.locator(".gmkit-sheet:visible").first
        visible.wait_for(timeout=30_000)
        assert third.sheets[0].name in visible.inner_text()
        page.screenshot(path=str(tmp_path / "table.png"), full_page=True)
    finally:
        page.close()
