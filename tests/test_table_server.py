"""README's commands: `gmkit table` and `gmkit players` serve the apps through a real Voila."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from gmkit.campaign import DEMO_FIGHTS
from gmkit.demo import demo_campaign
from gmkit.store import CampaignStore

pytestmark = pytest.mark.server


def test_table_serves_the_demo_campaign_file_with_a_prepared_fight_per_game(
    table_server, table_campaign
):
    server, page = table_server
    assert "application/vnd.jupyter.widget-view+json" in page  # the dashboard's output
    assert table_campaign.suffix == ".gmk"
    with CampaignStore(table_campaign, readonly=True) as store:
        encounters = store.encounters()
        assert [roster.title for roster in store.rosters()] == [
            roster.title for roster in demo_campaign().rosters
        ]
    assert {info.game for info in encounters} == {fight.game for fight in DEMO_FIGHTS}
    assert encounters[0].game == "dark_heresy"  # the fight the dashboard opens on
    assert "the demo campaign, written to" in server.output()


def test_table_prints_the_url_it_serves(table_server):
    server, _ = table_server
    assert f"serving {server.url}" in server.output()


def test_table_strips_the_notebook_sources(table_server):
    _, page = table_server
    assert "open_campaign(" not in page  # a code cell's source
    assert "GMKIT_CAMPAIGN" not in page


def test_the_campaign_file_is_not_inside_the_served_folder(table_server, table_campaign):
    server, page = table_server
    assert str(table_campaign) not in page
    for path in (f"voila/files/{table_campaign.name}", f"files/{table_campaign.name}"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(server.url + path, timeout=30)
        assert refused.value.code in (403, 404)


def test_table_runs_voila_with_a_preheated_kernel(table_server):
    server, _ = table_server
    output = server.output()
    assert "Kernel pool of table.ipynb is filled with 1 kernel" in output
    assert "Using pre-heated kernel" in output  # the page came from it, campaign and all


def test_players_serves_the_player_view_on_every_interface(players_server, table_campaign):
    server, page = players_server
    output = server.output()
    assert "application/vnd.jupyter.widget-view+json" in page
    assert f"serving {server.url}" in output
    assert "on the local network: http://" in output or "no local network address" in output
    assert f"campaign file {table_campaign}" in output
    assert "encounter The Chapel of the Pale Throne" in output
    assert "open_campaign(" not in page  # the sources are stripped
    assert "GMKIT_ENCOUNTER" not in page
    assert "Kernel pool of players.ipynb is filled with 1 kernel" in output
