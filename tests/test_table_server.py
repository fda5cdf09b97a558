"""README's first command: `gmkit table` serves the demo campaign through a real Voila."""

from __future__ import annotations

import pytest

from gmkit.demo import demo_campaign

pytestmark = pytest.mark.server


def test_table_serves_every_demo_roster_and_character(table_server):
    _, page = table_server
    campaign = demo_campaign()
    for roster in campaign.rosters:
        assert roster.title in page
        for sheet in roster.sheets:
            assert sheet.name in page


def test_table_prints_the_url_it_serves(table_server):
    server, _ = table_server
    assert f"serving {server.url}" in server.output()


def test_table_strips_the_notebook_sources(table_server):
    _, page = table_server
    assert "demo_campaign()" not in page  # a code cell's source
    assert "roster_summary_html(" not in page
