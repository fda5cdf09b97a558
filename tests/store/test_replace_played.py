"""Re-running a prep cell never deletes a played fight without the GM's word (issue 27, item
3): ``prep.encounter`` replaces an encounter that is only set up, refuses one that has been
played with what would be lost and how to keep it (the file byte for byte as it was), and
replaces it when told ``replace="played"``. A writer still open on the replaced fight is told
plainly that it is gone; a stale tab is told another tab changed the fight, in words."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gmkit import prep
from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.encounter._played import SETUP_KINDS, PlayedEncounterError, played
from gmkit.errors import GmkitError
from gmkit.sheets.base import Sheet
from gmkit.store import CampaignStore, EncounterGone, StoreError

NAME = "Chapel raid"


def chapel() -> tuple[Sheet, ...]:
    return demo_campaign().rosters[1].sheets


def rows(store: CampaignStore) -> list[tuple[int, int, str]]:
    """Every event of the campaign, read by a reader of its own."""
    with CampaignStore(store.location, readonly=True) as reader:
        return [
            (info.id, event.seq, json.dumps(event.payload, sort_keys=True))
            for info in reader.encounters()
            for event in reader.events(info.id)
        ]


def prepare(store: CampaignStore, **kwargs: object) -> Encounter:
    return prep.encounter(
        store, NAME, "dark_heresy", list(chapel()), player_sides=["Acolytes"], **kwargs
    )


def play_a_round(fight: Encounter) -> None:
    """Initiative, the start and one lasgun shot of the sergeant's at the demagogue."""
    fight.roll_initiative(EnteredDice([9, 2, 3, 4, 1, 5, 6, 7, 8][: len(fight.state.combatants)]))
    fight.start()
    actor = fight.situation.actor
    assert actor is not None
    fight.attack("Sergeant Varro Tull", "Lasgun", "Demagogue Ostrava", EnteredDice([15, 7]))


@pytest.fixture
def store(campaign_at: Callable[..., str]) -> Iterator[CampaignStore]:
    opened = CampaignStore(campaign_at(), create=True)
    yield opened
    opened.close()


def test_the_set_up_alone_is_replaced_again_and_again(store: CampaignStore) -> None:
    first = prepare(store)
    assert played(first.events) is None
    second = prepare(store)
    assert second.encounter_id != first.encounter_id
    assert [(i.name, i.events) for i in store.encounters()] == [(NAME, len(second.events))]


def test_a_played_fight_is_kept_and_the_refusal_says_what_would_be_lost(
    store: CampaignStore,
) -> None:
    fight = prepare(store)
    play_a_round(fight)
    lost = played(fight.events)
    assert lost is not None
    assert lost.attacks == 1
    assert lost.events == sum(1 for e in fight.events if e["kind"] not in SETUP_KINDS)
    before = rows(store)
    with pytest.raises(PlayedEncounterError) as refused:
        prepare(store)
    said = str(refused.value)
    assert f"the encounter 'Chapel raid' has been played ({lost.events} events" in said
    assert "1 of them attacks" in said
    assert "give the new encounter another name" in said
    assert 'store.backup("before.gmk")' in said
    assert 'replace="played"' in said
    spanish = refused.value.render("es")
    assert "ya se ha jugado" in spanish
    assert "no cambió nada" in spanish
    assert rows(store) == before  # not one event touched
    assert Encounter.open(store, NAME).state == fight.state


def test_replace_played_deletes_it_on_the_gms_word(store: CampaignStore) -> None:
    fight = prepare(store)
    play_a_round(fight)
    new = prepare(store, replace="played")
    assert played(new.events) is None
    assert [(i.id, i.events) for i in store.encounters()] == [(new.encounter_id, len(new.events))]


def test_replace_false_refuses_any_name_in_use_and_a_wrong_word_is_named(
    store: CampaignStore,
) -> None:
    prepare(store)
    before = rows(store)
    with pytest.raises(StoreError, match="exists already"):
        prepare(store, replace=False)
    with pytest.raises(GmkitError, match="replace: 'yes' is not one of True"):
        prepare(store, replace="yes")
    assert rows(store) == before


def test_an_undo_is_play_too(store: CampaignStore) -> None:
    """A GM who rolled initiative and took it back has been at the table."""
    fight = prepare(store)
    fight.roll_initiative(EnteredDice([9, 2, 3, 4, 1, 5, 6, 7, 8][: len(fight.state.combatants)]))
    fight.undo()
    with pytest.raises(PlayedEncounterError, match=r"\(2 events after its set-up, 0 of them"):
        prepare(store)


def test_a_table_still_on_the_replaced_fight_is_told_it_is_gone(
    store: CampaignStore, tmp_path: Path
) -> None:
    fight = prepare(store)
    play_a_round(fight)
    with CampaignStore(store.location) as table_file:
        table = Encounter.open(table_file, NAME)
        prepare(store, replace="played")
        before = rows(store)
        with pytest.raises(EncounterGone) as gone:
            table.refresh()
        assert "the fight 'Chapel raid' this page shows is no longer in the campaign file" in (
            str(gone.value)
        )
        with pytest.raises(EncounterGone) as refused:
            table.next_turn()
        assert "nothing of this command was saved" in str(refused.value)
        assert "no se guardó nada de esta orden" in refused.value.render("es")
        assert rows(store) == before  # never written into the new fight
