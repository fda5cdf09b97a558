"""The phones' server (``gmkit players --light``, no kernel per phone) in a real browser: a
player's seat on a 360x740 phone and a watcher's phone beside it, the GM playing from Python.

The seat's phone shows "Your turn", chooses a target and sends an attack with the table's dice;
the request reaches the seats file as chosen; the GM's hit asks the phone to react and the
Dodge comes back; the watcher's phone follows the GM's turn; in English and Spanish nothing is
wider than the phone and no hidden name is in either page. Screenshots go to
test-artifacts/phones-light-*.png."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gmkit.campaign import create_demo_store
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.messages import Message
from gmkit.seats import SeatsFile
from gmkit.seats._questions import ReactionChoice
from gmkit.store import CampaignStore

pytestmark = [pytest.mark.browser, pytest.mark.server]

CHAPEL = "The Chapel of the Pale Throne"
WAIT = 30_000
GMKIT = Path(sys.executable).with_name("gmkit")


def port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def light(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("light")
    path = folder / "demo.gmk"
    create_demo_store(path)
    gm = CampaignStore(path)
    fight = Encounter.open(gm, CHAPEL)
    fight.roll_initiative(SeededDice(7))
    fight.start(SeededDice(7))
    while fight.state.combatants[fight.situation.actor].side != "Acolytes":
        fight.next_turn()
    seats = SeatsFile.of_campaign(path)
    seat = seats.give(CHAPEL, "Ana", [fight.situation.actor])
    log = folder / "server.log"
    with log.open("w") as out:
        command = [str(GMKIT), "players", str(path), "--light", "--no-browser"]
        server = subprocess.Popen(
            [*command, "--port", str(port())],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "GMKIT_STATE_DIR": str(folder / "state")},
        )
    deadline = time.monotonic() + 120
    url = None
    while url is None:
        found = re.search(r"gmkit players: serving (\S+)", log.read_text())
        url = found.group(1) if found else None
        if url is None:
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
    yield {"url": url, "fight": fight, "seats": seats, "seat": seat}
    server.terminate()
    server.wait(30)
    seats.close()
    gm.close()


TOO_WIDE = """() => [...document.querySelectorAll('body *')]
  .map(e => e.getBoundingClientRect()).filter(r => r.width > 0 && r.right > innerWidth + 0.5)
  .length"""


def test_a_seat_and_a_watcher_play_on_phones_without_kernels(
    light: dict[str, Any], chromium: Any, artifacts: Path
) -> None:
    fight, seats, seat = light["fight"], light["seats"], light["seat"]
    actor = fight.situation.actor
    name = fight.state.combatants[actor].name
    context = chromium.new_context(viewport={"width": 360, "height": 740})
    phone = context.new_page()
    watcher = chromium.new_context(viewport={"width": 360, "height": 740}).new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.goto(f"{light['url']}?seat={seat.key}")
    watcher.goto(light["url"])
    phone.locator(".gmkit-your-turn", has_text=name).wait_for(timeout=WAIT)
    watcher.locator(".gmkit-player-header", has_text=name).wait_for(timeout=WAIT)
    assert watcher.locator(".gmkit-seat").count() == 0  # a watcher has no controls
    phone.screenshot(path=str(artifacts / "phones-light-seat-turn.png"), full_page=True)

    targets = phone.locator("select[data-field=target] option").all_inner_texts()
    assert "Demagogue Ostrava" not in targets
    last = len(targets) - 1
    phone.select_option("select[data-field=target]", index=last)
    phone.wait_for_function(
        "(n) => document.querySelector('select[data-field=target]').selectedIndex === n",
        arg=last,
        timeout=WAIT,
    )
    phone.locator("input[data-typed=dice]").fill("12 5")
    phone.locator("button.gmkit-send").click()
    phone.locator(".gmkit-seat-answers", has_text="waiting for the GM").wait_for(timeout=WAIT)
    sent = seats.pending(CHAPEL)[-1].payload
    assert (sent["kind"], sent["combatant"], sent["dice"]) == ("attack", actor, [12, 5])
    assert fight.state.combatants[sent["target"]].name == targets[last]
    phone.screenshot(path=str(artifacts / "phones-light-seat-sent.png"), full_page=True)

    hit = Message("seats.question.hit", attacker="Cultist Ban", target=name, hits=1)
    dodge = ReactionChoice("dodge", Message("dark_heresy.action.dodge"), 0.42, 100)
    seats.questions.ask(seat.key, CHAPEL, actor, hit, (dodge,), 60.0)
    phone.locator("button[data-language=es]").click()
    phone.locator(".gmkit-seat-react", has_text="impacta a").wait_for(timeout=WAIT)
    phone.locator(".gmkit-your-turn", has_text="Tu turno").wait_for(timeout=WAIT)
    phone.screenshot(path=str(artifacts / "phones-light-seat-react-es.png"), full_page=True)
    assert phone.evaluate(TOO_WIDE) == 0
    phone.locator(".gmkit-seat-react button.gmkit-info").click()
    phone.wait_for_function(
        "() => !document.querySelector('.gmkit-seat-react button.gmkit-info')", timeout=WAIT
    )
    reply = seats.questions.latest(seat.key).reply
    assert reply is not None
    assert reply.reaction == "dodge"

    fight.next_turn()  # the GM passes the turn: both phones follow
    now = fight.state.combatants[fight.situation.actor].name if fight.situation.actor else ""
    watcher.locator(".gmkit-player-header", has_text=now).wait_for(timeout=WAIT)
    phone.locator(".gmkit-player-header", has_text=now).wait_for(timeout=WAIT)
    watcher.screenshot(path=str(artifacts / "phones-light-watcher-en.png"), full_page=True)
    for page in (phone, watcher):
        assert page.evaluate(TOO_WIDE) == 0
        assert "Ostrava" not in page.content()
    assert errors == []
    context.close()
