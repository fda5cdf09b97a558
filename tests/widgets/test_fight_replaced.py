"""An open table whose fight was prepared again (issue 27, item 3): a tab that played it is
told plainly, in the GM's language, and offered the new one; a tab that only watched (a
preheated kernel too) shows the new one with a note; neither shows the old fight as if it were
live. The players' page follows the fight now of its name, or says it is over."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from gmkit import prep
from gmkit.encounter import Encounter
from gmkit.store import CampaignStore
from gmkit.widgets._dashboard import Dashboard
from gmkit.widgets._gone_notice import GoneNotice
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._player import PlayerView

CHAPEL = "The Chapel of the Pale Throne"
INITIATIVE = "9 10 6 7 1 5 4 8"


pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def path(demo_copy: Path) -> Path:
    return demo_copy


def prepare_again(path: Path) -> int:
    """The GM's prep notebook, run again on the played Chapel: its encounter's id."""
    with CampaignStore(path) as store:
        old = [c.sheet for c in Encounter.open(store, CHAPEL).state.combatants.values()]
        fight = prep.encounter(
            store, CHAPEL, "dark_heresy", old, player_sides=["Acolytes"], replace="played"
        )
        assert fight.encounter_id is not None
        return fight.encounter_id


def test_the_tab_that_played_is_told_and_offered_the_new_one(path: Path) -> None:
    with CampaignStore(path) as one, CampaignStore(path) as two:
        played = Dashboard(one, CHAPEL, seed=7, follow=False)
        watching = Dashboard(two, CHAPEL, seed=7, follow=False)
        assert played.tracker is not None
        played.tracker.roll_initiative(INITIATIVE)
        played.tracker.start()
        events = len(played.encounter.events) if played.encounter else 0
        new_id = prepare_again(path)

        assert watching.poll() == 0
        assert watching.encounter is not None
        assert watching.encounter.encounter_id == new_id
        assert watching.message == (
            f'The fight "{CHAPEL}" was prepared again in the campaign file: this is the new one.'
        )
        assert not watching.encounter.state.started

        assert played.poll() == 0
        assert played.encounter is None
        assert played.tracker is None
        assert played.attack is None
        (notice,) = played.left.children
        assert isinstance(notice, GoneNotice)
        assert played.attack_slot.children == ()
        text = notice.text.value
        assert f'The fight "{CHAPEL}" this page showed ({events} events)' in text
        assert "is no longer in the campaign file" in text
        assert notice.open_button.description == f"Open the new {CHAPEL}"
        assert notice.open_button.layout.display == ""
        assert played.poll() == 0  # said once: nothing is read again

        LANGUAGE.value = "es"
        assert "ya no está en el archivo de campaña" in notice.text.value
        assert notice.open_button.description == f"Abrir el nuevo {CHAPEL}"
        notice.open_button.click()
        assert played.encounter is not None
        assert played.encounter.encounter_id == new_id
        assert played.left.children[0] is played.tracker
        assert played.picker.value == CHAPEL
        played.close()
        watching.close()


def test_a_command_on_the_gone_fight_shows_the_notice_and_writes_nothing(path: Path) -> None:
    with CampaignStore(path) as store:
        table = Dashboard(store, CHAPEL, seed=7, follow=False)
        assert table.tracker is not None
        table.tracker.roll_initiative(INITIATIVE)
        prepare_again(path)
        size = path.stat().st_size
        before = [(i.id, i.events) for i in store.encounters()]
        table.set_enemy_wounds("exact")  # a dashboard command, before any poll
        assert isinstance(table.left.children[0], GoneNotice)
        assert [(i.id, i.events) for i in store.encounters()] == before
        assert path.stat().st_size == size
        table.close()


def test_the_players_page_follows_the_new_fight_or_says_it_is_over(path: Path) -> None:
    with CampaignStore(path) as store:
        view = PlayerView(store, CHAPEL, player_sides=("Acolytes",), follow=False)
        old_id = view.encounter.encounter_id
        prepare_again(path)
        assert view.poll() is True
        assert view.encounter.encounter_id not in (None, old_id)
        assert view.seq == view.encounter.last_seq
        store.delete_encounter(CHAPEL)
        assert view.poll() is False
        notice = html.unescape(view.children[3].value)
        assert f'The fight "{CHAPEL}" is over: the GM has taken it out of the campaign' in (notice)
        view.close()
