"""A player's phone is their seat, in a real browser (issue 23): ``gmkit players`` serves its
own copy of the demo campaign (Dark Heresy's chapel), the GM's side plays from Python. Three
seats: Ana plays Ilse Marr (whose turn it is), Bruno plays Sergeant Varro Tull, Carla's seat is
revoked. On Ana's 360x740 phone: "Your turn", the attack offered with its odds; she types her
dice and sends it; the GM's inbox accepts it as his own command; her phone says it was
accepted and the log tells the attack. The GM lets ends of turn through as they come; Ana ends
hers from the phone and the turn passes to Bruno's sergeant, on his phone; Carla's link opens
the plain players' page, saying her seat is closed. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from dashboard_page import until

from gmkit.campaign import demo_campaign_file
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.seats import Inbox, SeatsFile
from gmkit.seats._links import seat_link
from gmkit.store import CampaignStore

pytestmark = [pytest.mark.browser, pytest.mark.server]

CHAPEL = "The Chapel of the Pale Throne"


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory, serve_players: Any) -> tuple[Path, str]:
    campaign = demo_campaign_file(tmp_path_factory.mktemp("seats") / "campaign")
    with CampaignStore(campaign) as store:
        chapel = Encounter.open(store, CHAPEL)
        # typed d10s in the order added: Marr 14, Tull 12, Kell 11, Lorn 10, Fenn 9, Ban 8...
        chapel.roll_initiative(EnteredDice([9, 10, 6, 7, 1, 5, 4, 8]))
        chapel.start()
    return campaign, serve_players(campaign, CHAPEL).url


@pytest.fixture(scope="module")
def gm_server(table: tuple[Path, str], serve_table: Any) -> Any:
    """The GM's table (``gmkit table``) on the chapel's campaign file."""
    return serve_table(table[0])


def gm_table(chromium: Any, server: Any) -> Any:
    """The GM's table at 1366x768 on the chapel."""
    page = chromium.new_page(viewport={"width": 1366, "height": 768})
    page.goto(server.url, wait_until="domcontentloaded", timeout=120_000)
    page.locator(".gmkit-tracker .gmkit-row").first.wait_for(timeout=120_000)
    picker = page.locator(".gmkit-topbar .widget-dropdown select").first
    if picker.evaluate("s => s.options[s.selectedIndex].text") != CHAPEL:
        picker.select_option(label=CHAPEL)
    until(page, "the chapel", lambda: text_of(page, ".gmkit-tracker"), lambda t: "Ilse Marr" in t)
    return page


VIBRATE = """window.gmkitVibrated = [];
navigator.vibrate = (pattern) => { window.gmkitVibrated.push(pattern); return true; };"""
"""What an Android phone's browser offers (headless Chromium has no vibration): recorded."""


def phone(chromium: Any, url: str) -> Any:
    page = chromium.new_page(viewport={"width": 360, "height": 740})
    page.add_init_script(VIBRATE)
    page.goto(url, wait_until="domcontentloaded", timeout=120_000)
    page.locator(".gmkit-player-table").wait_for(timeout=120_000)
    return page


def text_of(page: Any, selector: str) -> str:
    found = page.locator(selector)
    return " ".join(found.all_inner_texts()) if found.count() else ""


def test_a_player_sends_an_attack_the_gm_accepts_and_the_phone_says_so(
    table, chromium, artifacts, gm_server
):
    campaign, url = table
    store = CampaignStore(campaign)
    fight = Encounter.open(store, CHAPEL)
    seats = SeatsFile.of_campaign(campaign)
    try:
        ilse = fight.combatant("Ilse Marr").id
        assert fight.situation.actor == ilse
        ana = seats.give(CHAPEL, "Ana", [ilse])
        bruno = seats.give(CHAPEL, "Bruno", [fight.combatant("Sergeant Varro Tull").id])
        carla = seats.give(CHAPEL, "Carla", [fight.combatant("Jessa Kell").id])
        seats.revoke(carla.key)

        page = phone(chromium, seat_link(url, ana.key))
        until(page, "Ana's turn", lambda: text_of(page, ".gmkit-your-turn"), bool)
        assert text_of(page, ".gmkit-your-turn") == "Your turn: Ilse Marr"
        until(page, "the odds", lambda: text_of(page, ".gmkit-seat-odds"), lambda t: "%" in t)
        page.screenshot(path=str(artifacts / "seat-1-your-turn-360.png"), full_page=True)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 360, f"the seat's page scrolls sideways: {width} px"
        page.locator(".gmkit-seat-target select").select_option(label="Cultist Ban")
        page.get_by_placeholder("table's dice (empty: gmkit rolls)").fill("20 3")
        page.get_by_role("button", name="Send attack").click()
        until(page, "sent", lambda: text_of(page, ".gmkit-seat-answers"), lambda t: "waiting" in t)
        page.screenshot(path=str(artifacts / "seat-2-sent-360.png"), full_page=True)

        (asked,) = Inbox(fight, seats).asked()
        assert (asked.seat.player, asked.intent.target, asked.intent.dice) == (
            "Ana",
            fight.combatant("Cultist Ban").id,
            (20, 3),
        )
        before = len(fight.events)
        gm = gm_table(chromium, gm_server)  # the GM's table, on the same file
        inbox = gm.locator(".gmkit-inbox")
        until(
            gm,
            "Ana's request in the inbox",
            lambda: text_of(gm, ".gmkit-inbox"),
            lambda t: "Ana" in t,
        )
        assert "Ilse Marr: Standard Attack with Laspistol at Cultist Ban" in text_of(
            gm, ".gmkit-inbox"
        )
        gm.screenshot(path=str(artifacts / "seat-gm-inbox-1366.png"))
        inbox.get_by_role("button", name="Accept").click()
        after = Encounter.open(store, CHAPEL)

        def events_now() -> int:
            after.refresh()
            return len(after.events)

        until(gm, "the attack applied", events_now, lambda n: n == before + 1)
        assert after.events[-1]["kind"] == "attack"
        assert after.events[-1]["hits"] == 1  # a laspistol hit on the cultist, the table's dice
        gm.get_by_role("tab", name="Players").click()
        until(gm, "the seats listed", lambda: text_of(gm, ".gmkit-seats"), lambda t: "Bruno" in t)
        gm.screenshot(path=str(artifacts / "seat-gm-seats-1366.png"))
        until(
            page,
            "the GM's answer",
            lambda: text_of(page, ".gmkit-seat-answers"),
            lambda t: "accepted" in t,
        )
        until(page, "the log", lambda: text_of(page, ".gmkit-player-log"), lambda t: "Ban" in t)
        page.screenshot(path=str(artifacts / "seat-3-accepted-360.png"), full_page=True)

        # the GM lets ends of turn through as they come; Ana ends hers from the phone
        gm.get_by_role("tab", name="Sheet").click()
        gm.locator(".gmkit-inbox").get_by_text("end of turn as it comes").click()
        page.get_by_role("button", name="End turn").click()
        until(
            gm,
            "Tull's turn",
            lambda: text_of(gm, ".gmkit-tracker").split("\n")[0],
            lambda t: "Sergeant Varro Tull" in t,
        )
        until(page, "not her turn", lambda: text_of(page, ".gmkit-your-turn"), lambda t: t == "")
        until(
            page,
            "the end of turn accepted",
            lambda: text_of(page, ".gmkit-seat-answers"),
            lambda t: "End of turn: accepted" in t,
        )
        page.screenshot(path=str(artifacts / "seat-5-turn-passed-360.png"), full_page=True)

        other = phone(chromium, seat_link(url, bruno.key))  # the turn passed: his
        until(other, "Bruno's turn", lambda: text_of(other, ".gmkit-your-turn"), bool)
        assert text_of(other, ".gmkit-your-turn") == "Your turn: Sergeant Varro Tull"
        assert other.get_by_role("button", name="Send attack").is_visible()
        assert page.get_by_role("button", name="Send attack").is_hidden()  # Ana's: not hers
        other.screenshot(path=str(artifacts / "seat-4-his-turn-360.png"), full_page=True)
        other.get_by_role("button", name="Español").click()  # his page, in Spanish
        until(
            other,
            "su turno en español",
            lambda: text_of(other, ".gmkit-your-turn"),
            lambda t: t == "Tu turno: Sergeant Varro Tull",
        )
        until(
            other,
            "its buttons in Spanish",
            lambda: text_of(other, ".gmkit-seat button"),
            lambda t: "Enviar ataque" in t and "Terminar turno" in t and "Apuntar" in t,
        )
        until(
            other,
            "the header in Spanish",
            lambda: text_of(other, ".gmkit-player-header"),
            lambda t: "Asalto" in t,
        )
        other.screenshot(path=str(artifacts / "seat-4-his-turn-360-es.png"), full_page=True)

        revoked = phone(chromium, seat_link(url, carla.key))
        until(
            revoked,
            "the closed seat said",
            lambda: text_of(revoked, ".gmkit-player-notice"),
            lambda t: "this seat is closed" in t,
        )
        assert revoked.locator(".gmkit-seat").count() == 0
        assert "Jessa Kell" in text_of(revoked, ".gmkit-player-table")  # the players' view
    finally:
        seats.close()
        store.close()


def turn_of(fight: Encounter, name: str) -> None:
    """Pass turns (the GM's, from Python) until ``name`` acts."""
    for _ in range(12):
        fight.refresh()
        if fight.state.combatants[fight.situation.actor].name == name:
            return
        fight.next_turn()
    raise AssertionError(f"{name}'s turn never came")


def test_two_phones_aim_then_attack_a_stale_request_a_dodge_and_the_gm_deciding(
    table, chromium, artifacts, gm_server
):
    """Dana plays Ilse Marr, Eli the sergeant and the adept (two 360x740 phones), the GM's
    table at 1366x768. Eli's Aim, then his attack with typed dice, accepted at the table: the
    attack has the Aim's +10. His adept's attack waits while the GM passes the turn: refused as
    stale, with why. Cultist Lorn's knife hits Ilse: Dana's phone asks Dodge or Parry with her
    odds; she types 7 and dodges; the GM's panel has it and applies it. Cultist Ban's shot hits
    the sergeant: Eli does not answer; after the table's 12 seconds the GM decides."""
    campaign, url = table
    store = CampaignStore(campaign)
    fight = Encounter.open(store, CHAPEL)
    seats = SeatsFile.of_campaign(campaign)
    try:
        for seat in seats.seats(CHAPEL):  # the last test's seats closed: these two only
            seats.revoke(seat.key)
        seats.set_ask_seconds(120)  # Dana has all the time she needs; Ban's shot below waits less
        ilse, tull, fenn = (
            fight.combatant(name).id
            for name in ("Ilse Marr", "Sergeant Varro Tull", "Adept Cornelius Fenn")
        )
        dana = seats.give(CHAPEL, "Dana", [ilse])
        eli = seats.give(CHAPEL, "Eli", [tull, fenn])
        turn_of(fight, "Sergeant Varro Tull")
        gm = gm_table(chromium, gm_server)
        gm.get_by_role("tab", name="Sheet").click()
        inbox = gm.locator(".gmkit-inbox")
        dana_s = phone(chromium, seat_link(url, dana.key))
        eli_s = phone(chromium, seat_link(url, eli.key))
        until(eli_s, "Eli's turn", lambda: text_of(eli_s, ".gmkit-your-turn"), bool)
        assert text_of(eli_s, ".gmkit-your-turn") == "Your turn: Sergeant Varro Tull"
        until(
            eli_s,
            "his turn buzzes",
            lambda: eli_s.evaluate("() => window.gmkitVibrated.length"),
            lambda made: made >= 1,
        )

        # Aim, then the attack: each accepted at the table
        eli_s.locator(".gmkit-seat button", has_text="Aim").first.click()
        until(gm, "the Aim in the inbox", lambda: text_of(gm, ".gmkit-inbox"), lambda t: "Aim" in t)
        inbox.get_by_role("button", name="Accept").click()
        until(
            eli_s,
            "the Aim accepted",
            lambda: text_of(eli_s, ".gmkit-seat-answers"),
            lambda t: "Action: accepted" in t,
        )
        eli_s.locator(".gmkit-seat-target select").select_option(label="Cultist Ban")
        eli_s.get_by_placeholder("table's dice (empty: gmkit rolls)").fill("20 3")
        eli_s.get_by_role("button", name="Send attack").click()
        until(gm, "the attack asked", lambda: text_of(gm, ".gmkit-inbox"), lambda t: "Lasgun" in t)
        events = len(fight.events)
        inbox.get_by_role("button", name="Accept").click()

        def newest() -> dict[str, Any]:
            fight.refresh()
            return fight.events[-1] if len(fight.events) > events else {}

        until(gm, "the aimed attack", newest, lambda e: e.get("kind") == "attack")
        test = next(step for step in newest()["steps"] if step.get("target"))
        assert test["target"] == 52  # BS 42 and the Aim's +10
        eli_s.screenshot(path=str(artifacts / "seat-6-aimed-attack-360.png"), full_page=True)

        # Cultist Lorn's knife at Ilse: Dana is asked, types her die and dodges
        turn_of(fight, "Cultist Lorn")
        until(
            gm,
            "Lorn attacks",
            lambda: text_of(gm, ".gmkit-tracker .gmkit-header"),
            lambda t: "Cultist Lorn" in t,
        )
        hit_with_typed_dice(gm, "Cultist Lorn", "Ilse Marr (Acolytes)")
        box = dana_s.locator(".gmkit-seat-react")
        until(
            dana_s,
            "Dana asked",
            lambda: text_of(dana_s, ".gmkit-seat-react"),
            lambda t: "Cultist Lorn hits Ilse Marr (hits: 1)" in t,
        )
        until(
            dana_s,
            "her phone vibrates",
            lambda: dana_s.evaluate("() => window.gmkitVibrated"),
            lambda made: [200, 100, 200] in made,
        )
        buttons = text_of(dana_s, ".gmkit-seat-react button")
        assert "Dodge" in buttons
        assert "Parry" in buttons
        assert "Take it" in buttons
        assert "%" in buttons
        width = dana_s.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 360, f"the question scrolls sideways: {width} px"
        dana_s.screenshot(path=str(artifacts / "seat-8-asked-to-dodge-360.png"), full_page=True)
        gm.screenshot(path=str(artifacts / "seat-gm-asking-1366.png"))
        box.get_by_placeholder("your die (empty: gmkit rolls)").fill("7")
        box.locator("button", has_text="Dodge").click()
        until(
            gm,
            "the dodge in the GM's panel",
            lambda: text_of(gm, ".gmkit-asking"),
            lambda t: "Dana: Dodge, die 7" in t,
        )
        gm.screenshot(path=str(artifacts / "seat-gm-dodged-1366.png"))
        events = len(fight.events)
        gm.locator(".gmkit-attack button", has_text="Apply").click()
        until(gm, "the dodged attack", newest, lambda e: e.get("kind") == "attack")
        dodged = newest()
        assert dodged["hits"] == 0
        assert [r["value"] for r in dodged["rolls"]] == [5, 7]  # the GM's 5, Dana's 7
        assert any(e["kind"] == "reaction" for e in dodged["effects"])

        # the adept's attack waits while the turn passes: stale, never applied
        turn_of(fight, "Adept Cornelius Fenn")
        until(
            eli_s,
            "the adept's turn",
            lambda: text_of(eli_s, ".gmkit-your-turn"),
            lambda t: "Fenn" in t,
        )
        eli_s.locator(".gmkit-seat-target select").select_option(label="Cultist Hesk")
        eli_s.get_by_placeholder("table's dice (empty: gmkit rolls)").fill("20 3")
        eli_s.get_by_role("button", name="Send attack").click()
        until(
            gm,
            "the adept's attack asked",
            lambda: text_of(gm, ".gmkit-inbox"),
            lambda t: "Stub Revolver" in t,
        )
        events = len(fight.events)
        gm.locator(".gmkit-tracker button", has_text="Next").click()  # the GM moves on
        until(
            eli_s,
            "refused as stale",
            lambda: text_of(eli_s, ".gmkit-seat-answers"),
            lambda t: "Attack: too late" in t,
        )
        fight.refresh()
        assert [e["kind"] for e in fight.events[events:]] == ["turn"]  # no attack applied
        eli_s.screenshot(path=str(artifacts / "seat-7-stale-360.png"), full_page=True)

        # Cultist Ban's shot at the sergeant: Eli does not answer; the GM decides
        turn_of(fight, "Cultist Ban")
        until(
            gm,
            "Ban attacks",
            lambda: text_of(gm, ".gmkit-tracker .gmkit-header"),
            lambda t: "Cultist Ban" in t,
        )
        eli_s.get_by_role("button", name="Español").click()  # Eli reads his page in Spanish
        until(
            eli_s,
            "en español",
            lambda: text_of(eli_s, ".gmkit-player-header"),
            lambda t: "Asalto" in t,
        )
        seats.set_ask_seconds(12)  # long enough to be seen on a loaded machine, short to wait out
        hit_with_typed_dice(gm, "Cultist Ban", "Sergeant Varro Tull (Acolytes)")
        until(
            eli_s,
            "Eli asked, in Spanish",
            lambda: text_of(eli_s, ".gmkit-seat-react"),
            lambda t: "Cultist Ban impacta a Sergeant Varro Tull (impactos: 1)" in t,
        )
        until(
            eli_s,
            "the answers' buttons, in Spanish",
            lambda: text_of(eli_s, ".gmkit-seat-react button"),
            lambda t: "Encajarlo" in t,
        )
        spanish = text_of(eli_s, ".gmkit-seat-react button")
        assert "Esquiva" in spanish, spanish
        assert "Encajarlo" in spanish, spanish
        eli_s.screenshot(path=str(artifacts / "seat-9-asked-360-es.png"), full_page=True)
        until(
            gm,
            "the table's wait over",
            lambda: text_of(gm, ".gmkit-asking"),
            lambda t: "No reaction from Eli in time" in t,
        )
        until(eli_s, "the question gone", lambda: box_shown(eli_s), lambda shown: not shown)
        gm.screenshot(path=str(artifacts / "seat-gm-decides-1366.png"))
    finally:
        seats.close()
        store.close()


def hit_with_typed_dice(gm: Any, attacker: str, target: str) -> None:
    """The GM's attack panel, once it shows ``attacker`` (the turn passed from Python reaches the
    panel a moment after the tracker: a target picked before would be picked among the last
    attacker's choices), at ``target`` with the table's dice: 5 to hit, 3 damage."""

    def chosen(label: str) -> str:
        select = gm.locator(f".gmkit-attack .widget-dropdown:has(label:text-is('{label}')) select")
        shown = select.first.evaluate(
            "s => s.selectedIndex < 0 ? '' : s.options[s.selectedIndex].text"
        )
        return str(shown).replace("\xa0", " ")  # ipywidgets draws an option's spaces unbroken

    until(
        gm, f"{attacker} in the attack panel", lambda: chosen("Attacker"), lambda t: attacker in t
    )
    select = gm.locator(".gmkit-attack .widget-dropdown:has(label:text-is('Target')) select")
    select.first.select_option(label=target)
    until(gm, f"{target} the target", lambda: chosen("Target"), lambda t: t == target)
    toggle = gm.locator(".gmkit-attack .widget-toggle-button", has_text="Table's dice").first
    if "mod-active" not in (toggle.get_attribute("class") or ""):
        toggle.click()
    boxes = gm.locator(".gmkit-attack .gmkit-dice-entry .gmkit-die-input")
    boxes.first.wait_for(timeout=60_000)
    boxes.nth(0).fill("5")
    boxes.nth(0).press("Tab")
    until(gm, "a box for the damage", boxes.count, lambda n: n >= 2)
    boxes.nth(1).fill("3")
    boxes.nth(1).press("Tab")


def box_shown(page: Any) -> bool:
    found = page.locator(".gmkit-seat-react")
    return bool(found.count()) and found.first.is_visible()
