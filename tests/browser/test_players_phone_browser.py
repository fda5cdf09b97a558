"""The players' page on a phone, in a real browser: ``gmkit players`` serves its own copy of the
demo campaign (Dark Heresy's chapel, whose demagogue hides, and WFRP's Drakwald road, whose
shaman hides), the GM's side plays from Python (typed dice: every run is the same) and the page
follows. At 360x740 and 390x844 nothing is wider than the screen (no sideways scroll), every
visible combatant's Wounds and Conditions are on it, a hidden combatant's name is nowhere in
the page, in English and in Spanish (the page's own switch). Screenshots, phone and 1366x768,
go to test-artifacts/."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from dashboard_page import steady, until

from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.store import CampaignStore

pytestmark = [pytest.mark.browser, pytest.mark.server]

CHAPEL = "The Chapel of the Pale Throne"
DRAKWALD = "Beastmen on the Drakwald Road"
HIDDEN = {CHAPEL: "Demagogue Ostrava", DRAKWALD: "Bray-shaman Vhorlag"}
SLUGS = {CHAPEL: "chapel", DRAKWALD: "drakwald"}  # in the screenshots' names
PHONES = [(360, 740), (390, 844)]
CONDITIONS = {  # a combatant's conditions, as the page shows them
    CHAPEL: {
        "en": ("Cultist Ban", "On fire, Stunned (2 rounds)"),
        "es": ("Cultist Ban", "En llamas, Aturdido (2 asaltos)"),
    },
    DRAKWALD: {
        "en": ("Gunther Brandauer", "All Out Attack (1 round)"),
        "es": ("Gunther Brandauer", "Ataque total (1 asalto)"),
    },
}
HEADERS = {  # the round and whose turn, word by word
    CHAPEL: {
        "en": ["Round", "1", "Turn:", "Ilse", "Marr"],
        "es": ["Asalto", "1", "Turno:", "Ilse", "Marr"],
    },
    DRAKWALD: {
        "en": ["Round", "1", "Turn:", "Elsa", "Wendt"],
        "es": ["Asalto", "1", "Turno:", "Elsa", "Wendt"],
    },
}
LANGUAGES = {"en": ("English", "Round", "Wounds"), "es": ("Español", "Asalto", "Heridas")}

# every element's right edge beyond the viewport (a zero-sized one, as <style>, is not shown)
TOO_WIDE = """() => [...document.querySelectorAll('body *')]
  .map(e => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.width > 0 && r.height > 0 && r.right > window.innerWidth + 0.5)
  .map(([e, r]) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} ${r.right}`)"""
CARDS = """() => [...document.querySelectorAll('.gmkit-player-table tr:not(.gmkit-player-heads)')]
  .map(row => {
    const cell = css => row.querySelector(css);
    const box = css => cell(css).getBoundingClientRect();
    return {name: cell('.gmkit-pc-name').firstChild.textContent.trim(),
            wounds: cell('.gmkit-pc-wounds').innerText.trim(),
            conditions: cell('.gmkit-pc-conditions').innerText.trim(),
            boxes: ['.gmkit-pc-wounds', '.gmkit-pc-conditions'].map(css => {
              const r = box(css); return [r.left, r.right, r.width, r.height]; })};
  })"""


@dataclass
class Pages:
    campaign: Path
    urls: dict[str, str]  # the players' page of each encounter


def play(campaign: Path) -> None:
    """The GM's side: both fights started, an attack, conditions that last and one that does
    not; the hidden combatants not yet acting."""
    with CampaignStore(campaign) as store:
        chapel = Encounter.open(store, CHAPEL)
        # typed d10s in the order added: Marr 14, Tull 12, Kell 11, Lorn 10, Fenn 9, Ban 8...
        chapel.roll_initiative(EnteredDice([9, 10, 6, 7, 1, 5, 4, 8]))
        chapel.start()
        chapel.attack("Ilse Marr", "Laspistol", "Cultist Ban", EnteredDice([20, 3]))
        chapel.add_condition("Cultist Ban", "stunned", rounds=2)
        chapel.add_condition("Cultist Ban", "on_fire")
        chapel.add_condition("Sergeant Varro Tull", "all_out_attack", rounds=1)
        road = Encounter.open(store, DRAKWALD)
        road.roll_initiative(EnteredDice([10, 9, 8, 7, 6, 1]))
        road.start()
        road.add_condition("Gunther Brandauer", "all_out_attack", rounds=1)
        road.add_condition("Elsa Wendt", "defensive_stance", rounds=1)


@pytest.fixture(scope="module")
def players(tmp_path_factory: pytest.TempPathFactory, serve_players: Any) -> Pages:
    """The players' page of each fight (its url, by encounter), the GM's play done."""
    from gmkit.campaign import demo_campaign_file

    campaign = demo_campaign_file(tmp_path_factory.mktemp("players-phone") / "campaign")
    play(campaign)
    urls = {encounter: serve_players(campaign, encounter, light=True).url for encounter in HIDDEN}
    return Pages(campaign, urls)


LAYOUT = """() => {
  const box = document.querySelector('.gmkit-player-table').getBoundingClientRect();
  const root = document.documentElement;
  return [document.fonts.status === 'loaded', root.scrollWidth, root.scrollHeight,
          box.x, box.y, box.width, box.height];
}"""


def open_page(chromium: Any, url: str, size: tuple[int, int], language: str) -> Any:
    width, height = size
    page = chromium.new_page(viewport={"width": width, "height": height})
    page.goto(url, wait_until="domcontentloaded", timeout=120_000)
    page.locator(".gmkit-player-table").wait_for(timeout=120_000)
    label, round_word, wounds = LANGUAGES[language]
    if language != "en":
        page.get_by_role("button", name=label).click()  # the page's language switch
    until(
        page,
        f"the page in {label}",
        lambda: page.locator(".gmkit-player-table th").all_inner_texts(),
        lambda heads: wounds in heads,  # the table is drawn again in the language picked
    )
    assert page.locator(".gmkit-player-header").inner_text().startswith(round_word)
    # the last layout done (the fonts loaded, the table drawn again): the page's width and
    # height, and where the table stands, hold from one drawn frame to the next
    steady(page, f"the page in {label} laid out", lambda: page.evaluate(LAYOUT), lambda at: at[0])
    return page


def shot(page: Any, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
@pytest.mark.parametrize("encounter", list(HIDDEN), ids=list(SLUGS.values()))
def test_the_phone_shows_everything_within_its_width(
    players, chromium, artifacts, encounter, size, language
):
    width, _height = size
    page = open_page(chromium, players.urls[encounter], size, language)
    try:
        shot(page, artifacts, f"players-phone-{SLUGS[encounter]}-{width}-{language}")
        scroll_width = page.evaluate("() => document.documentElement.scrollWidth")
        assert scroll_width <= width, f"the page scrolls sideways: {scroll_width} px"
        assert page.evaluate(TOO_WIDE) == []
        cards = page.evaluate(CARDS)
        assert len(cards) == {CHAPEL: 7, DRAKWALD: 5}[encounter]  # every visible combatant
        for card in cards:
            for left, right, box_width, box_height in card["boxes"]:
                assert left >= 0, card  # Wounds and Conditions in sight
                assert right <= width, card
                assert box_width > 0, card
                assert box_height > 0, card
            assert card["wounds"], card
            assert card["conditions"], card
        hidden = HIDDEN[encounter]
        assert hidden not in page.inner_text("body")
        assert hidden not in page.content()
        shown = {card["name"]: card for card in cards}
        name, conditions = CONDITIONS[encounter][language]
        assert shown[name]["conditions"].endswith(conditions)  # after its label
        header = page.locator(".gmkit-player-header").inner_text().split()
        assert header == HEADERS[encounter][language]
    finally:
        page.close()


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_tv_layout_is_a_table(players, chromium, artifacts, language):
    page = open_page(chromium, players.urls[CHAPEL], (1366, 768), language)
    try:
        shot(page, artifacts, f"players-tv-chapel-1366-{language}")
        header = " ".join(page.locator(".gmkit-player-header").inner_text().split())
        assert header == (
            "Round 1 · Turn: Ilse Marr" if language == "en" else "Asalto 1 · Turno: Ilse Marr"
        )
        heads = page.locator(".gmkit-player-heads th")
        assert heads.count() == 4  # a table with its heads
        assert heads.first.is_visible()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 1366
        rows = page.locator(".gmkit-player-table tr:not(.gmkit-player-heads)")
        tops = {round(rows.nth(n).locator("td").first.bounding_box()["y"]) for n in range(3)}
        assert len(tops) == 3
        box = page.locator(".gmkit-player-table").bounding_box()
        assert box["y"] + box["height"] <= 768  # the whole chapel without scrolling
    finally:
        page.close()


def test_a_hidden_combatant_s_turn_reads_an_enemy_acts(players, chromium, artifacts):
    """Last: it moves the chapel on to the demagogue's turn, where he readies (issue 21, item
    3: a Ready put a hidden Nob's name on the phones; only an attack gives him away)."""
    with CampaignStore(players.campaign) as store:
        chapel = Encounter.open(store, CHAPEL)
        while chapel.state.current is None or chapel.state.current.name != HIDDEN[CHAPEL]:
            chapel.next_turn()
        chapel.act(HIDDEN[CHAPEL], "ready")
    for language, acts in (("en", "An enemy acts"), ("es", "Actúa un enemigo")):
        page = open_page(chromium, players.urls[CHAPEL], PHONES[0], language)
        try:
            shot(page, artifacts, f"players-phone-chapel-hidden-turn-360-{language}")
            assert acts in page.locator(".gmkit-player-header").inner_text()
            assert HIDDEN[CHAPEL] not in page.content()
            assert page.evaluate(TOO_WIDE) == []
        finally:
            page.close()


# the demagogue's shot at Tull (d100 15: hit, body; d10 9 + 2 against armour and TB: 3 damage)
SHOT = {
    "en": "Demagogue Ostrava hits Sergeant Varro Tull once with Autopistol: 3 damage",
    "es": "Demagogue Ostrava impacta a Sergeant Varro Tull una vez con ",
}
BAN = {"en": "Ilse Marr attacks Cultist Ban with Laspistol: hits", "es": ": impacta"}


def test_the_hidden_attacker_s_shot_names_him_and_the_log_tells_it(players, chromium, artifacts):
    """After the last: his shot gives him away (issue 21, item 3). The phone names him, and its
    log tells the shot as their own side's wounds are told (exactly), the earlier shot at a
    banded enemy as hit or miss with no number (item 8), in English and Spanish."""
    with CampaignStore(players.campaign) as store:
        chapel = Encounter.open(store, CHAPEL)
        chapel.attack(
            HIDDEN[CHAPEL],
            "Autopistol",
            "Sergeant Varro Tull",
            EnteredDice([15, 9]),
            distance=10,
            spend=True,
        )
    for language in LANGUAGES:
        page = open_page(chromium, players.urls[CHAPEL], PHONES[0], language)
        try:
            log = page.locator(".gmkit-player-log li")
            until(
                page,
                f"the shot in the log ({language})",
                log.all_inner_texts,
                lambda lines, lang=language: len(lines) == 2 and lines[0].startswith(SHOT[lang]),
            )
            shot(page, artifacts, f"players-phone-chapel-revealed-360-{language}")
            log.first.scroll_into_view_if_needed()  # the page scrolls inside: show the log
            page.screenshot(
                path=str(artifacts / f"players-phone-chapel-revealed-log-360-{language}.png")
            )
            lines = log.all_inner_texts()
            assert lines[0].endswith(": 3 de daño" if language == "es" else "3 damage")
            assert lines[1] == BAN["en"] if language == "en" else lines[1].endswith(BAN["es"])
            header = page.locator(".gmkit-player-header").inner_text()
            assert HIDDEN[CHAPEL] in header  # his turn, named now
            cards = {card["name"]: card for card in page.evaluate(CARDS)}
            assert HIDDEN[CHAPEL] in cards  # his card, his wounds as a band
            assert page.evaluate(TOO_WIDE) == []
        finally:
            page.close()
