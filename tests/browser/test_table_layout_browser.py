"""A fight of each game on the GM's dashboard at 1366x768, as a GM with players waiting plays
it: what is on screen, how many clicks an attack takes, and that nothing of one attack carries
into the next actor's.

One ``gmkit table`` serves its own copy of the demo campaign; the page stays open for the
module and each game picks its encounter. For each game the test:

1. starts the fight (gmkit rolls initiative where the game has it, then Start) and presses
   Next until the actor may attack (Necromunda's shooting phase, WFB's shooting phase);
2. attacks with the panel's defaults (the actor's first weapon and mode, the standard attack,
   the nearest visible enemy): Resolve, Apply; it counts the clicks (at most 3) and checks that
   Resolve, the result's summary and the odds are inside the 1366x768 viewport with nothing
   scrolled (window and columns);
3. sets a distance and a circumstance, then Next until another combatant acts: the distance
   is empty, no circumstance is set, the attacker is the new actor and the target is not on
   its side;
4. switches to Spanish and resolves again: the page holds none of the rules' English words
   (the names of people, sides, weapons and armour are the data's and are left out); back to
   English;
5. opens the players' page of that fight on a 360x740 phone, in English and in Spanish: no
   element beyond the viewport's width;
6. (Dark Heresy) types 20 of the table's dice at 30 ms intervals, Tab between, into the dice
   boxes: a shot at 05 whose damage rolls 10 after 10 (Righteous Fury confirmed each time)
   asks for every one of them, and all 20 reach the kernel, in order.

Screenshots of each step go to the artifacts folder (``test-artifacts/``) in both languages;
``docs/screenshots/`` holds a copy of those a reader sees in the README (``table-<game>-*``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from dashboard_page import SELECTED, Table, inner_text, until

pytestmark = [pytest.mark.browser, pytest.mark.server]

VIEWPORT = {"width": 1366, "height": 768}
MAX_CLICKS = 3

# The rules' and the panels' English words a Spanish page must not show (whole words).
ENGLISH = (
    "hit", "hits", "miss", "misses", "damage", "wounds", "wounded", "round", "turn", "roll",
    "rolled", "success", "failure", "degrees", "degree", "test", "target", "attacker",
    "weapon", "resolve", "apply", "undo", "redo", "next", "previous", "unharmed", "odds",
    "none", "circumstances", "options", "reaction", "modifier", "modifiers", "actions",
    "left", "log", "sheet", "remove", "needed", "step", "outcome", "why", "dice", "mode",
    "action", "distance", "chance", "expected", "injury", "pinned", "save", "armour",
)  # fmt: skip
WORD = re.compile(r"[A-Za-zÁÉÍÓÚÜÑáéíóúüñ]+")

ATTACKER = """() => {
  const s = [...document.querySelectorAll('.gmkit-attack .widget-dropdown')]
    .find(d => d.querySelector('label')?.innerText.trim() === 'Attacker')?.querySelector('select');
  return s ? (s.options[s.selectedIndex]?.text ?? '').replace(/\\u00a0/g, ' ') : '';
}"""
IN_VIEW = """selectors => selectors.map(sel => {
  const el = document.querySelector(sel);
  if (!el) return [sel, null];
  const r = el.getBoundingClientRect();
  return [sel, r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight
                 && r.right <= innerWidth];
})"""
SCROLLED = """() => [window.scrollY,
  ...[...document.querySelectorAll('.gmkit-column')].map(c => c.scrollTop)]"""


@dataclass(frozen=True)
class Game:
    game: str
    encounter: str
    initiative: bool  # gmkit rolls initiative before Start (the sides games have none)
    distance: str = ""  # the games whose shots need the distance the GM measures (typed)
    unit: str = "m"


GAMES = [
    Game("dark_heresy", "The Chapel of the Pale Throne", True),
    Game("necromunda", "Ambush at the Sump Pipes", False, distance="8", unit="in"),
    Game("deathwatch", "The Breach at Vaxanide", True),
    Game("wfrp2", "Beastmen on the Drakwald Road", True),
    Game("wfb6", "Arrows over the Reikland Ford", False, distance="30", unit="cm"),
]


def data_names(encounter: str, campaign: Path) -> set[str]:
    """The words of the data's names in the encounter (people, sides, weapons, armour, the
    campaign's and the encounter's names) and the GM's own notes: English words a Spanish page
    may show."""
    from gmkit.encounter import Encounter
    from gmkit.store import CampaignStore

    words: set[str] = set()
    with CampaignStore(campaign, readonly=True) as store:
        fight = Encounter.open(store, encounter)
        texts = [store.name, encounter]
        for combatant in fight.state.combatants.values():
            sheet = combatant.sheet
            texts += [combatant.name, combatant.side, sheet.notes]  # notes: the GM's words
            for part in ("weapons", "armour", "talents", "traits", "skills"):
                for item in getattr(sheet, part, ()) or ():
                    texts.append(str(getattr(item, "name", item)))
    for text in texts:
        words.update(word.lower() for word in WORD.findall(text))
    return words


class Fight:
    """The dashboard page, counting the GM's clicks."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.page = table.page
        self.clicks = 0

    def click(self, scope: str, label: str, step: str) -> None:
        self.clicks += 1
        self.table.click(scope, label, step)

    def summary(self) -> str:
        return self.table.panel(".gmkit-summary")

    def resolvable(self) -> bool:
        """Whether the actor may attack now: an attack action is chosen (the rest are the
        panel's defaults, and the distance the GM measures where the game needs it)."""
        action = self.page.locator(
            ".gmkit-attack .widget-dropdown:has(label:text-is('Action')) select"
        ).first
        return bool(action.evaluate(SELECTED))

    def shot(self, artifacts: Path, name: str) -> None:
        self.page.screenshot(path=str(artifacts / f"table-{name}.png"))


def start(fight: Fight, game: Game) -> None:
    page = fight.page
    picker = page.locator(".gmkit-topbar .widget-dropdown select").first
    if picker.evaluate(SELECTED) != game.encounter:
        with fight.table.acting("pick the encounter"):
            picker.select_option(label=game.encounter)
    until(page, "the encounter", fight.table.header, lambda text: text.startswith("Round"))
    if game.initiative:
        fight.table.click(".gmkit-tracker", "Roll initiative", "roll initiative")
    fight.table.click(".gmkit-tracker", "Start", "start")
    until(page, "round 1", fight.table.header, lambda text: text.startswith("Round 1"))


def next_until_an_attack(fight: Fight, step: str, *, other_than: str = "") -> None:
    """Next until the actor may attack (and, with ``other_than``, is someone else)."""
    for _ in range(12):
        attacker = fight.page.evaluate(ATTACKER)
        if fight.resolvable() and attacker and attacker != other_than:
            return
        fight.table.click(".gmkit-tracker", "Next", f"{step}: Next")
        fight.page.wait_for_timeout(300)
    pytest.fail(f"{step}: no attack offered after 12 Next (attacker {attacker!r})")


def side_of(option: str) -> str:
    found = re.search(r"\(([^()]*)\)\s*$", option)
    return found.group(1) if found else ""


def attack_with_defaults(fight: Fight, artifacts: Path, game: Game) -> None:
    page = fight.page
    fight.clicks = 0
    if game.distance:  # measured on the table, typed: counted as a click
        fight.clicks += 1
        fight.table.type_into(f"Distance ({game.unit})", game.distance, "the distance")
    fight.click(".gmkit-attack", "Resolve", "resolve with the defaults")
    until(page, "the result", fight.summary, bool)
    scrolled = page.evaluate(SCROLLED)
    assert not any(scrolled), f"the page or a column scrolled: {scrolled}"
    shown = dict(page.evaluate(IN_VIEW, [
        ".gmkit-attack .mod-primary",  # Resolve
        ".gmkit-attack .gmkit-summary",
        ".gmkit-attack .gmkit-odds-tiles",
        ".gmkit-tracker .gmkit-header",
    ]))  # fmt: skip
    assert all(shown.values()), f"not inside the 1366x768 viewport: {shown}"
    fight.shot(artifacts, f"{game.game}-en-resolved")
    fight.click(".gmkit-attack", "Apply", "apply")
    until(
        page,
        "applied",
        lambda: page.locator(".gmkit-attack .mod-success").first.is_disabled(),
        bool,
    )
    assert fight.clicks <= MAX_CLICKS, fight.clicks


def nothing_carries(fight: Fight, game: Game, artifacts: Path) -> None:
    page, table = fight.page, fight.table
    before = page.evaluate(ATTACKER)
    unit = game.unit
    table.type_into(f"Distance ({unit})", "7", "a distance")

    def folds() -> str:
        return " ".join(table.panel(".gmkit-folds").split())

    # a circumstance, where the actor still has an attack to set it for (WFB: the one gun of
    # the Empire has fired, nobody is left to shoot this phase)
    edit = page.locator(".gmkit-attack button", has_text="Edit circumstances")
    ticked = bool(edit.count()) and edit.first.is_visible()
    if ticked:
        table.click(".gmkit-attack", "Edit circumstances", "open the circumstances")
        first = page.locator(".gmkit-attack .gmkit-fold-grid .widget-checkbox input").first
        with table.acting("tick a circumstance"):
            first.check()
        until(page, "a circumstance set", folds, lambda text: "Circumstances: none" not in text)
    else:
        assert game.game == "wfb6", "no circumstance to set"
    next_until_an_attack(fight, "to the next actor", other_than=before)
    attacker = page.evaluate(ATTACKER)
    distance = page.locator(
        f".gmkit-attack .widget-text:has(label:text-is('Distance ({unit})')) input"
    ).first
    assert distance.input_value() == "", f"the distance carried over to {attacker}"
    if ticked:
        assert "Circumstances: none" in folds(), f"a circumstance carried over to {attacker}"
    target = page.locator(
        ".gmkit-attack .widget-dropdown:has(label:text-is('Target')) select"
    ).first.evaluate(SELECTED)
    assert side_of(target), target
    assert side_of(target) != side_of(attacker), (attacker, target)
    fight.shot(artifacts, f"{game.game}-en-next-actor")


TWENTY = ["05", *["10"] * 18, "3"]  # to hit; 10s: fury confirmed (10 hits) and 10 again; 3


def twenty_dice_arrive(fight: Fight, artifacts: Path) -> None:
    page, table = fight.page, fight.table  # the actor's own gun (a d10 for damage)
    table.toggle("Table's dice", "the table's dice")
    first = page.locator(".gmkit-attack .gmkit-dice-entry .gmkit-die-input").first
    first.wait_for(timeout=30_000)
    first.click()
    with table.acting("20 dice typed at 30 ms"):
        for value in TWENTY:
            page.keyboard.type(value, delay=30)
            page.keyboard.press("Tab", delay=30)
    until(
        page,
        "all 20 dice in the kernel",
        lambda: " ".join(table.panel(".gmkit-prompt").split()),
        lambda text: f"Typed so far: {' '.join(TWENTY)}" in text,
    )
    until(page, "their result", fight.summary, lambda text: " damage" in text)
    fight.shot(artifacts, "dark_heresy-en-twenty-dice")
    table.toggle("gmkit rolls", "back to gmkit's dice")


def spanish_page_has_no_english(fight: Fight, game: Game, campaign: Path, artifacts: Path) -> None:
    page, table = fight.page, fight.table
    with table.acting("Spanish"):
        page.locator(".gmkit-topbar .widget-toggle-button", has_text="Español").click()
    # Resolve in Spanish: a result, or (WFB: a character whose unit the GM has not put on the
    # table yet) the refusal saying so; either is Spanish
    if game.distance:
        table.type_into(f"Distancia ({game.unit})", game.distance, "la distancia")
    page.locator(".gmkit-attack button", has_text="Resolver").first.click()
    until(
        page,
        "the Spanish result or refusal",
        lambda: fight.summary() or inner_text(page, ".gmkit-attack .gmkit-error"),
        bool,
    )
    fight.shot(artifacts, f"{game.game}-es-resolved")
    text = page.locator(".gmkit-dashboard").first.inner_text()
    names = data_names(game.encounter, campaign)
    found = sorted(
        {w for w in WORD.findall(text) if w.lower() in ENGLISH and w.lower() not in names}
    )
    page.locator(".gmkit-topbar .widget-toggle-button", has_text="English").click()
    until(page, "back in English", fight.table.header, lambda text: text.startswith("Round"))
    assert not found, f"English words on the Spanish page: {found}"


PHONE = {"width": 360, "height": 740}
OVERFLOW = """() => [document.documentElement.scrollWidth,
  [...document.querySelectorAll('.gmkit-player *')]
    .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
    .map(e => e.className.toString() || e.tagName).slice(0, 5)]"""


def players_on_a_phone(url: str, chromium: Any, game: Game, artifacts: Path) -> None:
    page = chromium.new_page(viewport=PHONE)
    try:
        page.goto(url, wait_until="domcontentloaded", timeout=120_000)
        page.locator(".gmkit-player-header").first.wait_for(timeout=120_000)
        for language, label in (("en", "English"), ("es", "Español")):
            page.locator(".gmkit-player-languages .widget-toggle-button", has_text=label).click()
            until(
                page,
                f"the players' page in {label}",
                lambda: page.locator(".gmkit-player-header").first.inner_text(),
                lambda text, lang=language: text.startswith("Round" if lang == "en" else "Asalto"),
            )
            page.screenshot(path=str(artifacts / f"table-{game.game}-phone-{language}.png"))
            width, beyond = page.evaluate(OVERFLOW)
            assert width <= PHONE["width"], f"sideways scroll at 360 px ({language}): {width}"
            assert not beyond, f"beyond the phone's width ({language}): {beyond}"
    finally:
        page.close()


@pytest.fixture(scope="module")
def campaign(demo_fights) -> Path:
    return Path(demo_fights.campaign)


@pytest.fixture(scope="module")
def fight(demo_fights, chromium: Any) -> Iterator[Fight]:
    page = chromium.new_page(viewport=VIEWPORT)
    table = Table(page)  # before goto: it listens to the page's websocket
    try:
        page.goto(demo_fights.table.url, wait_until="domcontentloaded", timeout=120_000)
        page.locator(".gmkit-attack button", has_text="Resolve").wait_for(timeout=120_000)
        yield Fight(table)
    finally:
        page.close()


@pytest.mark.parametrize("game", GAMES, ids=[game.game for game in GAMES])
def test_a_fight_fits_the_screen_and_nothing_carries_to_the_next_actor(
    game: Game, fight: Fight, campaign: Path, demo_fights, chromium: Any, artifacts: Path
) -> None:
    try:
        start(fight, game)
        fight.shot(artifacts, f"{game.game}-en-started")
        next_until_an_attack(fight, "to the first attack")
        attack_with_defaults(fight, artifacts, game)
        nothing_carries(fight, game, artifacts)
        spanish_page_has_no_english(fight, game, campaign, artifacts)
        players_on_a_phone(demo_fights.players[game.encounter].url, chromium, game, artifacts)
        if game.game == "dark_heresy":
            twenty_dice_arrive(fight, artifacts)
    except BaseException:
        fight.shot(artifacts, f"{game.game}-failed")
        raise
