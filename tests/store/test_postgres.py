"""What a campaign in PostgreSQL does beyond the suite the file shares with it: the doorbell
(a quiet reader asks the database nothing), a server restarted mid-fight (the GM and the
phones connect again; no event lost or applied twice), a commit cut off before its answer, the
checks on open, and ``gmkit copy`` between a file and PostgreSQL both ways.

Each test has its own campaign (a schema) on the session's server; the restart test its own
server, so no other test sees it go down."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice, SeededDice
from gmkit.encounter import Encounter
from gmkit.store import CampaignStore, StoreError
from gmkit.widgets import PlayerView

CHAPEL = demo_campaign().rosters[1]  # Dark Heresy


def within(seconds: float, condition: Callable[[], bool]) -> bool:
    """Whether ``condition()`` comes true within ``seconds`` (checked every 10 ms)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture
def url(postgres: Any, request: pytest.FixtureRequest) -> str:
    return f"{postgres.url('gmkit')}#t_{request.node.name[5:40].lower()}"


def prepared(url: str) -> tuple[CampaignStore, Encounter]:
    store = CampaignStore(url, create=True)
    store.save_campaign(demo_campaign())
    fight = Encounter.create(store, "chapel", CHAPEL.game)
    fight.add_many(CHAPEL.sheets)
    fight.roll_initiative(SeededDice(5))
    fight.start()
    return store, fight


class Counted:
    """A connection's ``execute`` counted: how many statements a reader sent."""

    def __init__(self, store: CampaignStore) -> None:
        self.sent = 0
        connection = store._pg  # type: ignore[attr-defined]
        real = connection.execute

        def execute(*args: Any, **kwargs: Any) -> Any:
            self.sent += 1
            return real(*args, **kwargs)

        connection.execute = execute


def test_a_quiet_reader_asks_nothing_and_a_ring_brings_the_event(url: str) -> None:
    store, fight = prepared(url)
    with CampaignStore(url, readonly=True) as reader:
        follower = Encounter.open(reader, "chapel")
        follower.refresh()
        counted = Counted(reader)
        for _ in range(200):  # a minute of a phone's polls at 0.3 s
            assert follower.refresh() == 0
        assert counted.sent == 0
        fight.next_turn()
        assert within(10, lambda: follower.refresh() == 1)
        assert follower.events == fight.events
        assert counted.sent >= 1
    store.close()


@pytest.fixture
def own_server() -> Iterator[Any]:
    """A server of this test's own: it is stopped and started again mid-fight."""
    import postgres_server

    found = postgres_server.find_bin()
    if found is None:
        pytest.skip("no PostgreSQL server installed")
    server = postgres_server.started(found)
    try:
        yield server
    finally:
        postgres_server.removed(server)


def test_a_restart_mid_fight_is_survived_by_the_gm_and_the_phones(own_server: Any) -> None:
    url = own_server.create_database("club") + "#night"
    store, fight = prepared(url)
    phones = [
        PlayerView(CampaignStore(url, readonly=True), "chapel", ["Acolytes"], follow=False)
        for _ in range(3)
    ]
    fight.next_turn()
    for phone in phones:  # the bell rings a moment after the commit
        assert within(
            10, lambda phone=phone: (phone.poll() or True) and phone.seq == fight.last_seq
        )

    own_server.stop()
    with pytest.raises(StoreError) as lost:  # said, and nothing half written
        fight.next_turn()
    assert "the connection to the database was lost" in lost.value.render("en")
    assert "se perdió la conexión con la base de datos" in lost.value.render("es")
    assert "was not saved" in lost.value.render("en")
    for phone in phones:
        with pytest.raises(StoreError):
            phone.poll()
    own_server.start()

    fight.next_turn()  # the GM's next click connects again
    fight.note("after the restart", gm_only=False)
    for phone in phones:
        assert within(
            15, lambda phone=phone: (phone.poll() or True) and phone.seq == fight.last_seq
        )
        assert phone.encounter.events == fight.events  # none lost, none applied twice
        assert phone.encounter.state.turn == fight.state.turn
    with CampaignStore(url, readonly=True) as reader:
        stored = reader.events(fight.encounter_id or 0)
        assert [event.seq for event in stored] == list(range(1, fight.last_seq + 1))
    for phone in phones:
        phone.close()
        phone.encounter.store.close()
    store.close()


def test_a_commit_cut_off_before_its_answer_is_kept_once(url: str) -> None:
    """The server commits, then the connection goes before the answer reaches the GM: the
    write is looked up once connected again, found whole, and not written a second time."""
    import psycopg

    store, fight = prepared(url)
    connection = store._pg  # type: ignore[attr-defined]
    real = connection.execute
    cut = []

    def execute(query: Any, *args: Any, **kwargs: Any) -> Any:
        result = real(query, *args, **kwargs)
        if query == "COMMIT" and not cut:
            cut.append(True)
            connection.close()
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        return result

    connection.execute = execute
    before = fight.last_seq
    fight.note("the lights go out", gm_only=False)
    assert cut == [True]
    assert fight.last_seq == before + 1
    with CampaignStore(url, readonly=True) as reader:
        texts = [e.payload.get("text") for e in reader.events(fight.encounter_id or 0)]
    assert texts.count("the lights go out") == 1
    assert len(texts) == fight.last_seq
    store.close()


def test_what_is_not_a_gmkit_campaign_is_refused_and_left_untouched(postgres: Any) -> None:
    import psycopg

    base = postgres.url("gmkit")
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute("CREATE SCHEMA payroll")
        connection.execute("CREATE TABLE payroll.salaries (who TEXT, amount INTEGER)")
    with pytest.raises(StoreError) as refused:
        CampaignStore(f"{base}#payroll", create=True)
    assert "is not a gmkit campaign (it holds salaries)" in refused.value.render("en")
    assert "no es una campaña de gmkit" in refused.value.render("es")
    with psycopg.connect(base) as connection:
        tables = connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'payroll'"
        ).fetchall()
    assert tables == [("salaries",)]

    with CampaignStore(f"{base}#newer", create=True):
        pass
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute("UPDATE newer.meta SET value = '9' WHERE key = 'schema'")
    with pytest.raises(StoreError, match=r"newer gmkit \(campaign schema 9; this gmkit reads"):
        CampaignStore(f"{base}#newer")

    with pytest.raises(StoreError, match="no campaign there"):
        CampaignStore(f"{base}#nobody_here", readonly=True)
    with pytest.raises(StoreError) as named:
        CampaignStore(f"{base}#Bad-Name", create=True)
    assert "cannot name a campaign in PostgreSQL" in named.value.render("en")
    with pytest.raises(StoreError, match="cannot name a campaign"):
        CampaignStore(f"{base}#pg_catalog", create=True)  # PostgreSQL's own


def test_a_reader_cannot_write(url: str) -> None:
    store, fight = prepared(url)
    with CampaignStore(url, readonly=True) as reader:
        with pytest.raises(StoreError, match="opened read-only"):
            reader.append_event(fight.encounter_id or 0, {"kind": "note"}, seq=fight.last_seq + 1)
        with pytest.raises(StoreError), reader._reading() as connection:
            connection.execute("DELETE FROM events")  # its session refuses a write
    assert len(CampaignStore(url, readonly=True).events(fight.encounter_id or 0)) == len(
        fight.events
    )
    store.close()


def test_damaged_events_are_refused_on_open(url: str) -> None:
    import psycopg

    from gmkit._store_pg import split_url

    store, _ = prepared(url)
    store.close()
    address, schema, _ = split_url(url)
    with psycopg.connect(address, autocommit=True) as connection:
        connection.execute(f"DELETE FROM {schema}.events WHERE seq = 2")
    with pytest.raises(StoreError, match="damaged"):
        CampaignStore(url)


def test_a_campaign_copied_to_postgresql_and_back_loses_nothing(
    tmp_path: Path, postgres: Any
) -> None:
    from gmkit._store_copy import copy_location

    source = tmp_path / "club.gmk"
    with CampaignStore(source, create=True) as store:
        store.save_campaign(demo_campaign())
        fight = Encounter.create(store, "chapel", CHAPEL.game)
        fight.add_many(CHAPEL.sheets)
        fight.roll_initiative(EnteredDice([9, 2, 3, 4, 1, 5, 6, 7, 8][: len(CHAPEL.sheets)]))
        fight.start()
        fight.next_turn()
        fight.undo()
        fight.note("kept as written", gm_only=True)
        Encounter.create(store, "not yet played", "necromunda")
        exported = store.export_campaign()
    url = f"{postgres.url('gmkit')}#copied_club"
    assert copy_location(str(source), url) == url
    back = tmp_path / "back.gmk"
    copy_location(url, str(back))
    for location in (url, str(back)):
        with CampaignStore(location, readonly=True) as copy:
            assert copy.export_campaign() == exported
            assert [(i.id, i.name, i.game) for i in copy.encounters()] == [
                (1, "chapel", CHAPEL.game),
                (2, "not yet played", "necromunda"),
            ]
            again = Encounter.open(copy, "chapel")
            assert again.events == fight.events  # the undo marker too
            assert again.state == fight.state
    with pytest.raises(StoreError) as full:
        copy_location(str(source), url)
    assert "holds a campaign already" in full.value.render("en")
    with pytest.raises(StoreError, match="exists already"):
        copy_location(url, str(back))
    assert json.loads(json.dumps(exported)) == exported


def test_the_commands_take_a_campaign_in_postgresql(
    tmp_path: Path,
    postgres: Any,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: Any,
) -> None:
    """``gmkit copy`` both ways, ``gmkit table`` and ``gmkit players`` on a PostgreSQL
    address (Voila's start is recorded, not run: the environment it would be given is what
    is checked); no password ever printed."""
    import socket

    from gmkit._cli import main
    from gmkit.campaign import create_demo_store

    with socket.socket() as probe:  # a port no server holds: gmkit checks it before serving
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    monkeypatch.setenv("GMKIT_STATE_DIR", str(tmp_path / "state"))
    served: list[dict[str, str]] = []
    monkeypatch.setattr(
        "gmkit._cli.serve_voila", lambda notebook, env, **options: served.append(env) or 0
    )
    demo = tmp_path / "demo.gmk"
    create_demo_store(demo)
    secret = postgres.url("gmkit").replace("postgres@", "postgres:hunter2@") + "#club_cli"
    assert main(["copy", str(demo), secret]) == 0
    said = capsys.readouterr().out
    assert "gmkit copy: " in said
    assert "club_cli" in said
    assert "hunter2" not in said

    assert main(["table", secret, "--no-browser", "--port", port]) == 0
    said = capsys.readouterr().out
    assert "gmkit table: campaign in PostgreSQL postgresql://postgres@127.0.0.1:" in said
    assert "hunter2" not in said
    assert served[-1]["GMKIT_CAMPAIGN"] == secret  # the page opens it, password and all

    assert main(["players", "--no-browser", "--port", port]) == 0  # the table's, remembered
    said = capsys.readouterr().out
    assert "gmkit players: campaign in PostgreSQL" in said
    assert "hunter2" not in said
    assert served[-1]["GMKIT_CAMPAIGN"] == secret
    with CampaignStore(secret, readonly=True) as store:
        assert served[-1]["GMKIT_ENCOUNTER"] == store.encounters()[0].name

    back = tmp_path / "back.gmk"
    assert main(["copy", secret, str(back)]) == 0
    capsys.readouterr()
    with CampaignStore(back, readonly=True) as copy, CampaignStore(demo, readonly=True) as first:
        assert copy.export_campaign() == first.export_campaign()
    assert main(["copy", str(demo), secret]) == 2
    assert "holds a campaign already" in capsys.readouterr().err
    assert main(["table", secret.replace("#club_cli", "#nobody"), "--no-browser"]) == 2
    assert "no campaign there" in capsys.readouterr().err
