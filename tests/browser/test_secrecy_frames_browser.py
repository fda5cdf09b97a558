"""Every frame a players' page receives, across a scripted fight of each game under each wound
display (issue 13, item 7): ``gmkit players`` serves each game's demo encounter; the GM plays
from Python on the campaign file (attacks with typed dice on the hidden combatant and on an
enemy the players see, effects typed onto the hidden one with a note, a GM note, an enemy's
attack on the players' side) while a real players' page is open in Chromium. Every websocket
frame the page receives (Playwright's ``framereceived``), every document and fetch it loads and
its text at the end hold no GM-only value: no hidden combatant's name or id, no GM note, no
sheet's notes, no text of a GM-only event and, with enemy wounds shown as a band or hidden,
no enemy's exact wounds and no log line telling an enemy's damage. The settings go from the
strictest (hidden, band, exact): each page shows the whole fight so far under its setting.
With ``exact`` the enemy's wounds and damage do show (the check can fail)."""

from __future__ import annotations

import html
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from dashboard_page import holds_for, until

from gmkit.campaign import DEMO_FIGHTS, DemoFight
from gmkit.dice import EnteredDice, SeededDice
from gmkit.encounter import Encounter
from gmkit.encounter._narration import event_text
from gmkit.encounter._state import Combatant
from gmkit.encounter._views import told_to_players
from gmkit.errors import GmkitError
from gmkit.store import CampaignStore
from gmkit.systems.base import Effect
from gmkit.widgets._player import POLL_SECONDS

pytestmark = [pytest.mark.browser, pytest.mark.server]

SETTINGS = ("hidden", "band", "exact")  # the strictest first: see the module docstring
WOUNDING = {"damage", "critical", "injury", "magnitude"}
ROW = re.compile(
    r"<td class='gmkit-pc-name'[^>]*>(?P<name>[^<]*)(?P<rest>.*?)</td>.*?"
    r"<td class='gmkit-pc-wounds'[^>]*>(?P<wounds>.*?)</td>"
)
EXACT = re.compile(r"\d+/\d+")


@dataclass
class Seen:
    """What one page received: websocket frames, documents and fetches, its text at the end."""

    frames: list[str] = field(default_factory=list)
    bodies: list[str] = field(default_factory=list)
    text: str = ""
    content: str = ""
    bytes: int = 0

    def all(self) -> list[str]:
        return [*self.frames, *self.bodies, self.text, self.content]


@dataclass
class Fight:
    demo: DemoFight
    name: str  # the encounter's
    url: str = ""
    server: Any = None  # its players' server (conftest's Server)
    seconds: dict[str, float] = field(default_factory=dict)
    checked: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # frames, bytes


def variants(value: str) -> set[str]:
    """``value`` as a frame or a page may hold it: as is, JSON-escaped, HTML-escaped."""
    found = {value, html.escape(value), html.escape(value, quote=False)}
    return found | {json.dumps(v)[1:-1] for v in found}


def typed_attack(
    fight: Encounter, attacker: Combatant, target: Combatant
) -> tuple[str, list[int], dict[str, Any]] | None:
    """A weapon of ``attacker`` and the dice that wound ``target`` with it: found by trying
    ``SeededDice(1..40)`` (``try_attack`` records nothing), to be typed as ``EnteredDice``.
    None wounds (the target is down already): the first attack the rules allow, whatever its
    outcome; None if none is allowed."""
    allowed = None
    for weapon in [w.name for w in getattr(attacker.sheet, "weapons", ())]:
        for request in ({}, {"distance": 6}):
            for seed in range(1, 40):
                try:
                    result = fight.try_attack(
                        attacker.name, weapon, target.name, SeededDice(seed), **request
                    )
                except GmkitError:
                    break
                dice = [roll.value for roll in result.rolls]
                if any(e.kind in WOUNDING and e.amount > 0 for e in result.effects):
                    return weapon, dice, request
                allowed = allowed or (weapon, dice, request)
    return allowed


def attack(fight: Encounter, attacker: Combatant, target: Combatant) -> dict[str, Any] | None:
    found = typed_attack(fight, attacker, target)
    if found is None:
        return None
    weapon, dice, request = found
    fight.attack(attacker.name, weapon, target.name, EnteredDice(dice), **request)
    return fight.effective_events[-1]


@dataclass
class Round:
    """What the GM did under one setting, and what the players must and must not read."""

    secrets: set[str]  # never on the page
    enemy_told: list[str]  # the GM's texts of public attacks on enemies (exact only)
    shown: list[str]  # on the page at the end
    enemies: list[str]  # the visible enemies' names
    friends: list[str]
    public: list[str]  # the kinds of the events touching a hidden one that are public


def show_wounds(campaign: Path, fight: Fight, setting: str) -> None:
    """The GM sets how the players see enemy wounds (before the page opens: all it receives
    is under the setting)."""
    with CampaignStore(campaign) as store:
        Encounter.open(store, fight.name).set("enemy_wounds", setting)


def play(campaign: Path, fight: Fight, setting: str, number: int) -> Round:
    """The GM's side under ``setting`` (round ``number`` of the script)."""
    demo = fight.demo
    with CampaignStore(campaign) as store:
        gm = Encounter.open(store, fight.name)
        combatants = list(gm.state.combatants.values())
        friends = [c for c in combatants if c.side in demo.player_sides]
        enemies = [c for c in combatants if c.side not in demo.player_sides and not c.hidden]
        hidden = [c for c in combatants if c.hidden]
        armed = [c for c in friends if getattr(c.sheet, "weapons", ())]
        secrets = {c.name for c in hidden} | {c.id for c in hidden}
        secrets |= {c.sheet.notes for c in combatants if getattr(c.sheet, "notes", "")}
        if demo.gm_note:
            secrets.add(demo.gm_note)
        gm_only: list[dict[str, Any]] = []
        for target in hidden:
            event = attack(gm, armed[0], target)
            if event is not None:
                gm_only.append(event)
            else:  # out of action already: no attack is allowed on him any more
                assert number > 1, f"no attack on {target.name} is allowed"
            # an action of his that is no attack keeps him hidden (issue 21, item 3: a hidden
            # Nob's Ready put his name on the phones)
            try:
                gm.act(target.name, "hide" if demo.game == "necromunda" else "ready")
                gm_only.append(gm.effective_events[-1])
            except GmkitError:  # out of action already: he takes no action any more
                assert number > 1, f"{target.name} could not act"
            note = f"GM: {target.name} bleeds where no one sees ({number})"
            gm.apply_effects([Effect("damage", target.name, amount=1)], note=note)
            gm_only.append(gm.effective_events[-1])
            secrets.add(note)
        # the first visible enemy the players' side may still attack (after rounds of wounding
        # attacks the first may be out of action, or the first attacker down)
        told = next(
            (
                event
                for attacker in armed
                for enemy in enemies
                if (event := attack(gm, attacker, enemy)) is not None
            ),
            None,
        )
        assert told is not None, f"no attack on any of {[e.name for e in enemies]} is allowed"
        gm_note = f"The GM alone knows the vault code {number}-{demo.game}"
        gm.note(gm_note)
        secrets.add(gm_note)
        for enemy in [e for e in enemies if getattr(e.sheet, "weapons", ())][:1]:
            attack(gm, enemy, friends[0])  # the players' own side: told exactly
        last = gm.effective_events[-1]
        for event in gm_only:
            secrets |= {event_text(event, language) for language in ("en", "es")}
        enemy_told = [event_text(told, language, after=gm.state) for language in ("en", "es")]
        target = gm.state.combatants[told["target"]].name
        attacker = gm.state.combatants[told["attacker"]].name
        # under a band or hidden wounds: who attacked whom with what, hit or miss, no number
        seen = told_to_players(told, "band", ())
        shown = [event_text(seen, "en", after=gm.state)]
        assert shown[0].startswith(f"{attacker} attacks {target} with {told['weapon']}: ")
        if setting == "exact":
            shown = [enemy_told[0]]
        if last["visibility"] == "public" and last is not told:
            shown.append(event_text(last, "en", after=gm.state))
    kinds = [event["kind"] for event in gm_only if event["visibility"] != "gm"]
    names = ([e.name for e in enemies], [f.name for f in friends])
    return Round(secrets, enemy_told, shown, *names, public=kinds)


def open_players(chromium: Any, url: str, seen: Seen) -> tuple[Any, list[Any]]:
    """The players' page open, recording into ``seen``; and the responses it loads."""
    page = chromium.new_page(viewport={"width": 1366, "height": 900})
    responses: list[Any] = []

    def on_frame(payload: str | bytes) -> None:
        text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
        seen.frames.append(text)
        seen.bytes += len(payload)

    page.on("websocket", lambda socket: socket.on("framereceived", on_frame))
    page.on("response", lambda response: responses.append(response))
    page.goto(url, wait_until="domcontentloaded", timeout=120_000)
    # the view drawn whole (its header, table and log): its widgets' state has come
    for part in (".gmkit-player-header", ".gmkit-player-table", ".gmkit-player-log"):
        page.locator(part).first.wait_for(state="attached", timeout=120_000)
    return page, responses


def all_received(page: Any, campaign: Path, fight: Fight, step: str) -> None:
    """A public note written after all the GM did, and waited for on the page: every frame the
    page's kernel sent for what came before it (read from the file in order, sent on the same
    websocket) has been received and recorded."""
    marker = f"The bell tolls: {step}"
    with CampaignStore(campaign) as store:
        Encounter.open(store, fight.name).note(marker, gm_only=False)
    log = page.locator(".gmkit-player-log")
    until(page, f"{step}: the page read the last note", log.inner_text, lambda t: marker in t)


def check(seen: Seen, played: Round, setting: str) -> None:
    everything = seen.all()
    assert seen.frames, "no websocket frame recorded"
    for secret in played.secrets:
        for value in variants(secret):
            for text in everything:
                assert value not in text, f"GM-only {secret!r} reached the page ({setting})"
    if setting != "exact":
        for told in played.enemy_told:
            for value in variants(told):
                assert all(value not in text for text in everything), (setting, told)
    rows = [row for text in [*seen.frames, seen.content] for row in ROW.finditer(text)]
    enemy_rows = [row for row in rows if html.unescape(row["name"]) in played.enemies]
    friend_rows = [row for row in rows if html.unescape(row["name"]) in played.friends]
    assert enemy_rows, "no enemy's row seen"
    assert friend_rows, "no friend's row seen"
    assert all(EXACT.search(row["wounds"]) for row in friend_rows)  # their own, exactly
    exact = [row["wounds"] for row in enemy_rows if EXACT.search(row["wounds"])]
    if setting == "exact":
        assert exact, "exact enemy wounds were not shown"
        assert played.enemy_told[0] in seen.text  # and the damage told
    else:
        assert exact == [], f"an enemy's exact wounds reached the page ({setting}): {exact}"
    if setting == "hidden":
        assert all(row["wounds"] in ("–", "\\u2013") for row in enemy_rows)


@pytest.fixture(scope="module")
def fights(demo_players: Any) -> tuple[Path, list[Fight]]:
    """The demo campaign in a file of the module's own, a players' server for each game (all
    started side by side: the ``demo_players`` fixture)."""
    names = list(demo_players.players)
    found = [Fight(demo, name) for demo, name in zip(DEMO_FIGHTS, names, strict=True)]
    for fight in found:
        fight.server = demo_players.players[fight.name]
        fight.url = fight.server.url
    return demo_players.campaign, found


@pytest.mark.parametrize("game", [fight.game for fight in DEMO_FIGHTS])
def test_no_frame_of_a_players_page_holds_a_gm_only_value(fights, chromium, artifacts, game):
    campaign, found = fights
    fight = next(f for f in found if f.demo.game == game)
    for number, setting in enumerate(SETTINGS, start=1):
        started = time.monotonic()
        seen = Seen()
        show_wounds(campaign, fight, setting)
        # The kernel waiting in the pool, the page's to be, reads the setting at its next poll;
        # nothing the test can see marks a pooled kernel's poll (it has no page yet), so two of
        # the players' polls pass, its server running all along.
        holds_for(
            2 * POLL_SECONDS,
            f"{game} ({setting}): the players' server runs",
            lambda: fight.server.process.poll() is None,
        )
        page, responses = open_players(chromium, fight.url, seen)
        try:
            played = play(campaign, fight, setting, number)
            log = page.locator(".gmkit-player-log")
            for line in played.shown:  # the page followed the whole round
                until(
                    page,
                    f"{game} ({setting}): the log shows {line!r}",
                    log.inner_text,
                    lambda text, line=line: line in text,
                )
            all_received(page, campaign, fight, f"{game} ({setting})")
            seen.text = page.inner_text("body")
            seen.content = page.content()
            for response in responses:
                if response.request.resource_type in ("document", "xhr", "fetch"):
                    try:
                        seen.bodies.append(response.text())
                    except Exception:  # a redirect or a body the browser kept no copy of
                        continue
            page.screenshot(path=str(artifacts / f"secrecy-{game}-{setting}.png"), full_page=True)
        finally:
            page.close()
        check(seen, played, setting)
        assert played.public == [], f"events touching a hidden one are public: {played.public}"
        loaded = sum(len(body.encode()) for body in seen.bodies)
        fight.checked[setting] = (len(seen.frames), seen.bytes, loaded)
        fight.seconds[setting] = time.monotonic() - started
    print(f"\n{game}:", end=" ")
    for setting in SETTINGS:
        frames, size, loaded = fight.checked[setting]
        took = fight.seconds[setting]
        print(f"{setting}: {frames} frames ({size} B), loads {loaded} B, {took:.1f} s;", end=" ")


@pytest.mark.parametrize("game", [fight.game for fight in DEMO_FIGHTS])
def test_a_seat_s_page_shows_its_own_and_no_gm_only_value(fights, chromium, game):
    """Issue 23: a player's seat page (a friend's link) under the band setting, through a round
    of the script: no GM-only value in any frame; the seat's own combatant shows exactly (the
    positive control), as do the players' sides."""
    from gmkit.seats import Inbox, SeatsFile
    from gmkit.seats._links import seat_link

    campaign, found = fights
    fight = next(f for f in found if f.demo.game == game)
    show_wounds(campaign, fight, "band")
    with CampaignStore(campaign) as store:
        gm = Encounter.open(store, fight.name)
        own, friend = [
            c for c in gm.state.present if c.side in fight.demo.player_sides and not c.hidden
        ][:2]
        with SeatsFile.of_campaign(campaign) as seats:
            seat = seats.give(fight.name, "Ana", [own.id])
            # another seat's private value: the GM's word back to Bruno's request
            other = seats.give(fight.name, "Bruno", [friend.id])
            asked = seats.send(other.key, {"kind": "end_turn", "combatant": friend.id})
            word = f"Bruno alone reads this: wait for the bell ({game})"
            Inbox(gm, seats).refuse(asked, word)
    seen = Seen()
    page, _responses = open_players(chromium, seat_link(fight.url, seat.key), seen)
    try:
        until(page, f"{game}: the seat", lambda: page.locator(".gmkit-seat").count(), bool)
        played = play(campaign, fight, "band", 4)
        log = page.locator(".gmkit-player-log")
        until(page, f"{game}: the log", log.inner_text, lambda t: played.shown[0] in t)
        all_received(page, campaign, fight, f"{game}: the seat")
        seen.text = page.inner_text("body")
        seen.content = page.content()
    finally:
        page.close()
    played.secrets.add(word)  # never on Ana's page...
    check(seen, played, "band")
    theirs = Seen()  # ...and on Bruno's (the positive control)
    page, _responses = open_players(chromium, seat_link(fight.url, other.key), theirs)
    try:
        answers = page.locator(".gmkit-seat-answers")
        until(page, f"{game}: Bruno's answer", answers.inner_text, lambda t: word in t)
    finally:
        page.close()
    rows = [row for text in [*seen.frames, seen.content] for row in ROW.finditer(text)]
    mine = [row for row in rows if html.unescape(row["name"]) == own.name]
    assert mine, "the seat's own row was not seen"
    assert all(EXACT.search(row["wounds"]) for row in mine)  # its own wounds, exactly
