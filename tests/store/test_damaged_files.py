"""Damaged and tampered campaign files are refused at open, never served.

A file can pass SQLite's quick check and still be damaged (a bit flipped inside an event's
text) or tampered with (a trigger that deletes the GM's commands as they are written, an extra
table, a dropped column, a gap in an encounter's events, a payload that is not an event). Each
one is refused when opened with a StoreError naming the file and the problem, or opens and is
read without error; what the notebooks do after opening (``Encounter.open``, its fold, the
players' view) raises nothing but gmkit's errors, and ``gmkit table`` (``resolve_campaign``)
refuses at launch whatever would fail later. The players' view follows by the last seq it
applied, so a missing event never makes it apply the next one twice.

Budget: the whole module takes about 16 s of CPU (the bit flips 8 s, the generated tamperings
6 s); on the 2-core CI under the suite's load, under 60 s.
"""

from __future__ import annotations

import copy
import json
import random
import shutil
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest

from gmkit.campaign import demo_campaign_file, open_campaign, resolve_campaign
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.errors import GmkitError
from gmkit.store import CampaignStore, StoreError
from gmkit.widgets._player import PlayerView, public_log

CHAPEL = "The Chapel of the Pale Throne"


def play(store: CampaignStore) -> None:
    """A few rounds of the chapel fight, attacks included, so its log holds every common
    kind of event (added, setting, note, initiative, start, turn, attack)."""
    fight = Encounter.open(store, CHAPEL)
    fight.roll_initiative(SeededDice(3))
    fight.start()
    dice = SeededDice(11)
    for _ in range(8):
        actor = fight.state.current
        enemies = [c for c in fight.state.present if actor and c.side != actor.side]
        if actor is not None and enemies and actor.sheet.weapons:
            weapon = actor.sheet.weapons[0].name
            with suppress(GmkitError):  # a weapon the rules refuse here: the fight goes on
                fight.attack(actor.id, weapon, enemies[0].id, dice, spend=True, distance=10)
        fight.next_turn()
    fight.note("the altar cracks", gm_only=False)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = demo_campaign_file(tmp_path_factory.mktemp("played"))
    with CampaignStore(path) as store:
        play(store)
    return path


@pytest.fixture
def campaign(played: Path, tmp_path: Path) -> Path:
    path = tmp_path / "campaign.gmk"
    shutil.copyfile(played, path)
    return path


def tamper(path: Path, *statements: str) -> None:
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA synchronous = OFF")  # a test's file: no need to wait for disk
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()


def read_all(store: CampaignStore, only: str | None = None) -> None:
    """What the notebooks do with an open campaign: the rosters and each encounter opened and
    folded, the players' view of it in both languages (``only``: that encounter alone)."""
    if only is None:
        store.campaign()
    for info in store.encounters():
        if only is None or info.name == only:
            fight = Encounter.open(store, info.name)
            fight.player_view()
            fight.player_view("es")


def outcome(path: Path, only: str | None = None) -> str:
    """ "refused at open", "refused when read" (a gmkit error after opening) or "served";
    anything else raised is a crash and fails the test. The file is never written."""
    before = path.read_bytes()
    try:
        store = open_campaign(path, readonly=True)
    except StoreError:
        assert path.read_bytes() == before
        return "refused at open"
    try:
        read_all(store, only)
    except GmkitError:
        return "refused when read"
    finally:
        store.close()
        assert path.read_bytes() == before
    return "served"


def launched(path: Path) -> bool:
    """``gmkit table FILE``: refused (StoreError) or everything reads with no error at all."""
    try:
        resolve_campaign(path)
    except StoreError:
        return False
    with CampaignStore(path) as store:  # no error of any kind: what launched is whole
        for info in store.encounters():  # (the launch read the rosters and folded each)
            read_all(store, info.name)
    return True


# --- one-bit flips ----------------------------------------------------------------------------


def test_100_one_bit_flips_are_refused_or_served_whole(played, tmp_path):
    data = played.read_bytes()
    positions = random.Random(2026).sample(range(len(data) * 8), 100)
    counts: Counter[str] = Counter()
    for number, bit in enumerate(positions):
        flipped = bytearray(data)
        flipped[bit // 8] ^= 1 << (bit % 8)
        path = tmp_path / f"flip-{number}.gmk"
        path.write_bytes(bytes(flipped))
        counts[outcome(path)] += 1
        copy_ = tmp_path / f"launch-{number}.gmk"
        copy_.write_bytes(bytes(flipped))
        counts["launched" if launched(copy_) else "refused at launch"] += 1
    print(f"100 one-bit flips: {dict(counts)}")
    assert counts["refused at open"] + counts["refused when read"] + counts["served"] == 100
    assert counts["launched"] + counts["refused at launch"] == 100
    assert counts["refused at launch"] >= counts["refused at open"] + counts["refused when read"]
    assert counts["refused at open"] > 0  # the flips hit what the checks read


# --- SQL tamperings -----------------------------------------------------------------------------

EVENT = 'SELECT min(seq) FROM events WHERE encounter = 1 AND payload LIKE \'%"kind": "{}"%\''

REFUSED: dict[str, tuple[list[str], str]] = {
    "a trigger that deletes the GM's commands": (
        [
            "CREATE TRIGGER gm_loses AFTER INSERT ON events "
            "BEGIN DELETE FROM events WHERE encounter = NEW.encounter AND seq = NEW.seq; END"
        ],
        "not a gmkit campaign, or damaged: it holds the trigger 'gm_loses', which a gmkit "
        "campaign does not have",
    ),
    "an extra table": (
        ["CREATE TABLE loot (item TEXT)"],
        "it holds the table 'loot', which a gmkit campaign does not have",
    ),
    "an extra index": (
        ["CREATE INDEX by_payload ON events (payload)"],
        "it holds the index 'by_payload', which a gmkit campaign does not have",
    ),
    "a view": (
        ["CREATE VIEW gm_notes AS SELECT payload FROM events"],
        "it holds the view 'gm_notes', which a gmkit campaign does not have",
    ),
    "a dropped column": (
        ["ALTER TABLE encounters DROP COLUMN created"],
        "the table 'encounters' differs from gmkit's schema",
    ),
    "a dropped table": (["DROP TABLE meta"], "it lacks the table 'meta'"),
    "a gap in seq": (
        ["DELETE FROM events WHERE encounter = 1 AND seq = 3"],
        f"the encounter '{CHAPEL}' has no event 3 (its events are numbered 1, 2, 3... without "
        "a gap)",
    ),
    "events that start at 0": (
        ["UPDATE events SET seq = 0 WHERE encounter = 2 AND seq = 1"],
        "has no event 1",
    ),
    "a payload that is not JSON": (
        ['UPDATE events SET payload = \'{"kind": "note", \' WHERE encounter = 1 AND seq = 2'],
        f"event 2 of the encounter '{CHAPEL}' is not JSON",
    ),
    "a payload with NaN": (
        ['UPDATE events SET payload = \'{"kind": "note", "x": NaN}\' WHERE seq = 2'],
        "event 2 of the encounter",
    ),
    "a payload nested past recursion": (
        [
            'UPDATE events SET payload = \'{"kind": "note", "x": \' || '
            "replace(printf('%.*c', 100000, 'x'), 'x', '[') || "
            "replace(printf('%.*c', 100000, 'x'), 'x', ']') || '}' WHERE seq = 1"
        ],
        "is not JSON",
    ),
    "an integer past Python's digits": (
        [
            'UPDATE events SET payload = \'{"kind": "note", "n": \' || '
            "replace(printf('%.*c', 5000, 'x'), 'x', '9') || '}' WHERE seq = 1"
        ],
        "is not JSON",
    ),
    "a payload that is a list": (
        ["UPDATE events SET payload = '[1, 2]' WHERE encounter = 1 AND seq = 2"],
        f"event 2 of the encounter '{CHAPEL}' is not an event (a JSON object with a kind)",
    ),
    "a payload without a kind": (
        ['UPDATE events SET payload = \'{"what": "note"}\' WHERE seq = 4'],
        "is not an event (a JSON object with a kind)",
    ),
    "a kind that is a number": (
        ["UPDATE events SET payload = '{\"kind\": 5}' WHERE seq = 4"],
        "is not an event",
    ),
    "a payload stored as a blob": (
        ["UPDATE events SET payload = CAST(payload AS BLOB) WHERE seq = 1"],
        "a value in the column payload of the table events is not text",
    ),
    "text that is not UTF-8": (
        ["UPDATE events SET payload = CAST(x'7b226b696e64223a20ff7d' AS TEXT) WHERE seq = 1"],
        "is not JSON",
    ),
    "a seq that is text": (
        ["UPDATE events SET seq = 'two' WHERE encounter = 1 AND seq = 2"],
        "a value in the column seq of the table events is not a whole number",
    ),
    "events of no encounter": (
        ['INSERT INTO events (encounter, seq, payload) VALUES (99, 1, \'{"kind": "note"}\')'],
        "1 event belongs to no encounter",
    ),
    "a game that is not a game id": (
        ["UPDATE encounters SET game = 'wfb6; DROP TABLE events' WHERE id = 1"],
        f"the encounter '{CHAPEL}' names no game gmkit knows",
    ),
    "a roster that is not JSON": (
        ["UPDATE rosters SET document = 'roster!' WHERE position = 0"],
        "the roster 'Ambush at the Sump Pipes' is not a JSON object",
    ),
    "a long hostile name": (
        [
            'CREATE TABLE "' + "A" * 5000 + '" (x)',
        ],
        "it holds the table '" + "A" * 40 + "…', which",
    ),
}


@pytest.mark.parametrize("name", list(REFUSED))
@pytest.mark.parametrize("readonly", [False, True])
def test_a_tampered_file_is_refused_at_open(campaign, name, readonly):
    statements, expected = REFUSED[name]
    tamper(campaign, *statements)
    before = campaign.read_bytes()
    with pytest.raises(StoreError) as caught:
        CampaignStore(campaign, readonly=readonly)
    message = str(caught.value)
    assert message.startswith(f"{campaign}: not a gmkit campaign, or damaged: ")
    assert expected in message
    assert len(message) < 400  # a hostile name is never shown whole
    assert f"{campaign}: no es una campaña de gmkit, o está dañada: " in caught.value.render("es")
    assert campaign.read_bytes() == before
    with pytest.raises(StoreError):
        resolve_campaign(campaign)


def test_a_trigger_never_deletes_the_gms_first_command(campaign):
    """The trigger deleted each command as it was written: the GM saw it on the screen, the
    file lost it. Whatever opens the file, every command shown is in the file."""
    tamper(campaign, REFUSED["a trigger that deletes the GM's commands"][0][0])
    try:
        store = CampaignStore(campaign)
    except StoreError as error:
        refused = str(error)
    else:
        with store:  # (the store before this fix opened it)
            fight = Encounter.open(store, CHAPEL)
            fight.note("the GM's first command")
            with CampaignStore(campaign, readonly=True) as reader:
                assert Encounter.open(reader, CHAPEL).events == fight.events
        refused = ""
    assert "the trigger 'gm_loses'" in refused


REPLAY_REFUSED = {
    "an attack without its parts": 'UPDATE events SET payload = \'{"kind": "attack"}\' '
    f"WHERE encounter = 1 AND seq = ({EVENT.format('attack')})",
    "an unknown kind": 'UPDATE events SET payload = \'{"kind": "teleport"}\' WHERE seq = 3',
    "a combatant added twice": "UPDATE events SET payload = (SELECT payload FROM events "
    "WHERE encounter = 1 AND seq = 1) WHERE encounter = 1 AND seq = 2",
    "an unknown game": "UPDATE encounters SET game = 'chess' WHERE id = 1",
}


@pytest.mark.parametrize("name", list(REPLAY_REFUSED))
def test_an_event_that_does_not_replay_is_refused_at_launch(campaign, name):
    tamper(campaign, REPLAY_REFUSED[name])
    store = CampaignStore(campaign, readonly=True)  # its shape is an event's: it opens
    with store, pytest.raises(GmkitError) as caught:
        Encounter.open(store, CHAPEL)
    if name != "an unknown game":
        assert isinstance(caught.value, StoreError)
        assert str(caught.value).startswith(f"{campaign}: event ")
        assert f"of the encounter '{CHAPEL}' cannot be replayed: " in str(caught.value)
    with pytest.raises(GmkitError):
        resolve_campaign(campaign)


def mutations(event: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``event`` with one value somewhere inside it changed: deleted, or made None, a string,
    a number, a list, an object, a boolean."""
    changed = copy.deepcopy(event)
    places: list[tuple[Any, Any]] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                if key != "kind":
                    places.append((value, key))
                walk(inner)
        elif isinstance(value, list):
            for index, inner in enumerate(value):
                places.append((value, index))
                walk(inner)

    walk(changed)
    if not places:
        changed["x"] = None
        return changed
    holder, key = rng.choice(places)
    replacement = rng.choice(["delete", None, "zz", -7, 10**6, [], {}, True, 1.5])
    if replacement == "delete" and isinstance(holder, dict):
        del holder[key]
    else:
        holder[key] = None if replacement == "delete" else replacement
    return changed


def test_400_generated_tamperings_of_events_crash_nothing(campaign):
    """Every event of the played fight, one value inside it changed at a time (400 in all,
    seeded): each is refused (a gmkit error) or served; no other exception."""
    connection = sqlite3.connect(campaign)
    rows = connection.execute(
        "SELECT encounter, seq, payload FROM events WHERE encounter = 1 ORDER BY seq"
    ).fetchall()
    connection.close()
    rng = random.Random(13)
    counts: Counter[str] = Counter()
    for _ in range(400):
        encounter, seq, payload = rng.choice(rows)
        changed = json.dumps(mutations(json.loads(payload), rng))
        tamper(
            campaign,
            f"UPDATE events SET payload = {sql_text(changed)} "
            f"WHERE encounter = {encounter} AND seq = {seq}",
        )
        counts[outcome(campaign, CHAPEL)] += 1
        tamper(
            campaign,
            f"UPDATE events SET payload = {sql_text(payload)} "
            f"WHERE encounter = {encounter} AND seq = {seq}",
        )
    print(f"400 generated tamperings: {dict(counts)}")
    assert sum(counts.values()) == 400
    assert counts["refused when read"] > 0
    assert counts["served"] > 0


def sql_text(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def test_a_tampered_attack_does_not_crash_the_players_log(campaign):
    tamper(
        campaign,
        "UPDATE events SET payload = json_set(payload, '$.effects', json('true')) "
        f"WHERE encounter = 1 AND seq = ({EVENT.format('attack')} "
        'AND payload LIKE \'%"visibility": "public"%\')',  # one the players' log tells
    )
    with CampaignStore(campaign, readonly=True) as store:
        fight = Encounter.open(store, CHAPEL)
        assert fight.state.started
        hidden = [c.id for c in fight.state.combatants.values() if c.hidden]
        with suppress(GmkitError):  # refused is fine: only another exception is a crash
            public_log(fight.effective_events, hidden=hidden, state=fight.state)


# --- the players' view follows by seq --------------------------------------------------------


@pytest.fixture
def view(campaign: Path) -> Iterator[tuple[PlayerView, Callable[[int, str], None]]]:
    store = CampaignStore(campaign, readonly=True)
    made = PlayerView(store, CHAPEL, follow=False)

    def write(seq: int, text: str) -> None:
        payload = json.dumps({"kind": "note", "text": text, "visibility": "public"})
        tamper(
            campaign,
            f"INSERT INTO events (encounter, seq, payload) VALUES (1, {seq}, {sql_text(payload)})",
        )

    yield made, write
    made.close()
    store.close()


def test_the_players_view_never_applies_an_event_twice(view):
    """Another program writes event N+2 with N+1 missing: the view used to take it as N+1,
    then again at the next poll (it counted events instead of tracking the last seq)."""
    player, write = view
    last = player.events
    write(last + 2, "the altar cracks again")
    for _ in range(3):
        with pytest.raises(StoreError, match=f"has no event {last + 1} but has later ones"):
            player.poll()
        assert (player.events, player.seq) == (last, last)
    write(last + 1, "a cultist runs")  # the gap filled: both follow, once each, in order
    assert player.poll() is True
    assert (player.seq, player.events) == (last + 2, last + 2)
    assert player.log_lines[:2] == ["the altar cracks again", "a cultist runs"]
    assert player.poll() is False
    assert player.seq == last + 2
