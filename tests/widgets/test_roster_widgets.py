"""The roster browser, driven through the public methods its controls call."""

from __future__ import annotations

import pytest

from gmkit.demo import demo_campaign
from gmkit.widgets import RosterBrowser, SheetView


def test_sheet_view_shows_the_first_character_then_follows_select():
    roster = demo_campaign().rosters[1]
    view = SheetView(roster)
    assert view.selected == roster.sheets[0].name
    assert roster.sheets[0].name in view.card.value
    last = roster.sheets[-1]
    view.select(last.name)
    assert view.picker.value == last.name
    assert f"{last.name}" in view.card.value
    assert roster.sheets[0].name not in view.card.value


def test_picking_in_the_dropdown_is_the_same_as_select():
    roster = demo_campaign().rosters[0]
    view = SheetView(roster)
    view.picker.value = roster.sheets[2].name
    assert view.selected == roster.sheets[2].name
    assert roster.sheets[2].name in view.card.value


def test_the_card_shows_derived_values_and_the_gm_note():
    roster = next(r for r in demo_campaign().rosters if r.game == "dark_heresy")
    view = SheetView(roster)
    view.select("Demagogue Ostrava")
    assert "wounds remaining" in view.card.value
    assert "hidden stub revolver" in view.card.value  # the GM's own dashboard shows notes


def test_unknown_character_is_refused_by_name():
    view = SheetView(demo_campaign().rosters[0])
    with pytest.raises(KeyError, match="Nobody"):
        view.select("Nobody")


def test_browser_has_a_tab_per_roster_and_show_switches():
    campaign = demo_campaign()
    browser = RosterBrowser(campaign)
    assert len(browser.children) == len(campaign.rosters)
    assert [browser.get_title(i) for i in range(len(campaign.rosters))] == [
        r.title for r in campaign.rosters
    ]
    view = browser.show(campaign.rosters[3].title)
    assert browser.selected_index == 3
    assert view.roster == campaign.rosters[3]


def test_a_players_card_never_carries_gm_notes():
    from gmkit.widgets._render import sheet_html

    roster = next(r for r in demo_campaign().rosters if r.game == "dark_heresy")
    ostrava = next(s for s in roster.sheets if s.name == "Demagogue Ostrava")
    assert "stub revolver under the altar" in sheet_html(ostrava)
    assert "stub revolver under the altar" not in sheet_html(ostrava, show_gm=False)
    assert "notes" not in ostrava.public_view()
