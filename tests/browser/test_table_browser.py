"""The GM's dashboard in a real browser: the language switch, the encounter picker, the sheet
of the selected combatant and its editor (saved as the encounter command ``edit_sheet``); then,
on the WFRP fight, a shield-bearer's parry offered from his sheet and the table's dice saying
what they need now and what may follow, in English and in Spanish (issue 21, items 2 and 13).

It works on the Necromunda and WFRP fights, so the Dark Heresy fight of test_fight_browser is
untouched; nothing is recorded in the WFRP fight (the attack is only resolved).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from dashboard_page import OPTIONS, Table, until

from gmkit.encounter import Encounter
from gmkit.store import CampaignStore

pytestmark = [pytest.mark.browser, pytest.mark.server]
AMBUSH = "Ambush at the Sump Pipes"
DRAKWALD = "Beastmen on the Drakwald Road"
SECOND_WEAPON = {
    "en": "Target holds a weapon in the other hand",
    "es": "El objetivo lleva un arma en la otra mano",
}


def test_language_picker_and_sheet_editor(table_server, table_campaign, chromium, artifacts):
    server, _ = table_server
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    gm = Table(page)  # counts the kernel's busy/idle statuses from the page's first socket
    try:
        page.goto(server.url, wait_until="domcontentloaded", timeout=120_000)
        page.locator(".gmkit-tracker .gmkit-row").first.wait_for(timeout=120_000)

        # Español, and back: every panel's labels follow.
        page.locator(".gmkit-dashboard .widget-toggle-button", has_text="Español").click()
        page.locator(".gmkit-tracker button", has_text="Siguiente").wait_for(timeout=30_000)
        resolve = page.locator(".gmkit-attack button", has_text="Resolver")
        resolve.wait_for(timeout=30_000)  # each panel relabels itself, one message each
        assert resolve.count() == 1
        tab = page.locator(".lm-TabBar-tab", has_text="Bandeja de dados")
        tab.wait_for(timeout=30_000)
        assert tab.count() == 1
        page.locator(".gmkit-dashboard .widget-toggle-button", has_text="English").click()
        page.locator(".gmkit-tracker button", has_text="Next").wait_for(timeout=30_000)

        # Another encounter: the tracker shows its combatants, hidden ones marked for the GM.
        picker = page.locator(".gmkit-topbar .widget-dropdown select")
        picker.select_option(label=AMBUSH)
        page.locator(".gmkit-tracker .gmkit-row", has_text="Brother Kael").wait_for(timeout=30_000)
        hidden = page.locator(".gmkit-tracker .gmkit-row", has_text="Scabby Tom")
        assert "secret" in hidden.inner_text()  # the GM's secret (not Necromunda's Hide)

        # The sheet of the selected combatant, edited and saved through the encounter.
        page.locator(".gmkit-tracker .gmkit-row", has_text="Mordecai").locator(
            "button", has_text="Sheet"
        ).click()
        card = page.locator(".gmkit-sheet-slot .gmkit-sheet h3")
        page.wait_for_function(
            "() => document.querySelector('.gmkit-sheet-slot h3')?.innerText.includes('Mordecai')",
            timeout=30_000,
        )
        assert "Mordecai" in card.inner_text()
        page.locator(".gmkit-dashboard .widget-toggle-button", has_text="Edit sheet").click()
        bs = page.locator(".widget-text:has(label:text-is('BS')) input").first
        bs.wait_for(timeout=30_000)
        bs.fill("4")
        page.locator(".gmkit-sheet-slot button", has_text="Save").click()
        page.locator(".gmkit-pane-buttons .widget-toggle-button", has_text="Log").click()
        # the row's kind cell is kept, hidden, in the compact log: attached, not visible
        page.locator(".gmkit-log td.gmkit-kind", has_text="sheet edited").wait_for(
            state="attached", timeout=30_000
        )
        page.screenshot(path=str(artifacts / "dashboard-sheet.png"), full_page=True)

        shield_bearer_parries_and_the_dice_say_what_they_need(gm, artifacts)
    finally:
        page.close()

    with CampaignStore(table_campaign, readonly=True) as store:
        fight = Encounter.open(store, AMBUSH)
    assert fight.combatant("Mordecai").sheet.BS == 4
    assert fight.events[-1]["kind"] == "sheet_edited"
    assert fight.events[-1]["changes"] == {"BS": 4}


def circumstance_line(gm: Table) -> str:
    """The attack panel's line of the circumstances in effect ("Circumstances: ...")."""
    found = gm.page.locator(".gmkit-attack .widget-html")
    texts = [str(found.nth(n).inner_text()) for n in range(found.count())]
    return next((text for text in texts if text.startswith(("Circumstances", "Circunst"))), "")


def reactions(gm: Table, label: str) -> list[str]:
    select = gm.page.locator(f".gmkit-attack .widget-dropdown:has(label:text-is('{label}')) select")
    return list(select.first.evaluate(OPTIONS))


def dice_note(gm: Table) -> list[str]:
    note = gm.page.locator(".gmkit-attack .gmkit-dice-note")
    return str(note.first.inner_text()).splitlines() if note.count() else []


def shield_bearer_parries_and_the_dice_say_what_they_need(gm: Table, artifacts: Path) -> None:
    """Gor's hand weapon at Gunther (Hand Weapon + Shield): the shield is a weapon in the other
    hand (seed 002), so the circumstance is set from his sheet and Parry offered; the GM turns
    it off and on. With the table's dice, the boxes say what is needed now and what may follow:
    Gor's WS 40 hits on 1-40; a 10 on the damage die calls Ulric's Fury, confirmed by the WS
    test again."""
    page = gm.page
    picker = page.locator(".gmkit-topbar .widget-dropdown select")
    with gm.acting("the WFRP fight"):
        picker.select_option(label=DRAKWALD)
    page.locator(".gmkit-tracker .gmkit-row", has_text="Gunther Brandauer").wait_for(timeout=30_000)
    gm.choose("Attacker", "Gor Bloodhorn (Beastmen)", "Gor attacks")
    gm.choose("Target", "Gunther Brandauer (The party)", "Gunther, his shield on his arm")
    until(
        page,
        "the shield's circumstance",
        lambda: circumstance_line(gm),
        lambda t: SECOND_WEAPON["en"] in t,
    )
    assert reactions(gm, "Reaction") == ["none", "Parry", "Dodge"]
    gm.toggle("Edit circumstances", "open the circumstances")
    box = page.locator(
        f".gmkit-attack .widget-checkbox:has-text('{SECOND_WEAPON['en']}') input"
    ).first
    assert box.is_checked()
    with gm.acting("the GM: his shield is slung"):
        box.uncheck()
    until(page, "no parry", lambda: reactions(gm, "Reaction"), lambda r: "Parry" not in r)
    with gm.acting("the shield back on his arm"):
        box.check()
    until(page, "the parry again", lambda: reactions(gm, "Reaction"), lambda r: "Parry" in r)
    gm.toggle("Table's dice", "the table's dice")
    lines = [
        "now: d100 WS test",
        "if the d100 WS test shows 1–40: d10 damage",
        "if the d10 damage shows 10: d100 Ulric's Fury confirmation",
    ]
    until(page, "the dice plan's words", lambda: dice_note(gm)[:3], lambda shown: shown == lines)
    page.screenshot(path=str(artifacts / "dice-plan-shield-en.png"), full_page=True)
    gm.type_die(0, "25", "a hit: 25 against WS 40")
    until(
        page,
        "what is needed after the hit",
        lambda: dice_note(gm)[:2],
        lambda shown: (
            shown
            == ["now: d10 damage", "if the d10 damage shows 10: d100 Ulric's Fury confirmation"]
        ),
    )
    with gm.acting("the dashboard in Spanish"):
        page.locator(".gmkit-dashboard .widget-toggle-button", has_text="Español").first.click()
    until(
        page,
        "the shield's circumstance in Spanish",
        lambda: circumstance_line(gm),
        lambda t: SECOND_WEAPON["es"] in t,
    )
    assert "Parada" in reactions(gm, "Reacción")
    until(
        page,
        "the dice plan in Spanish",
        lambda: dice_note(gm)[:2],
        lambda shown: (
            shown
            == ["ahora: d10 daño", "si el d10 daño saca 10: d100 confirmación de la Furia de Ulric"]
        ),
    )
    page.screenshot(path=str(artifacts / "dice-plan-shield-es.png"), full_page=True)
    with gm.acting("the dashboard back in English"):
        page.locator(".gmkit-dashboard .widget-toggle-button", has_text="English").first.click()
