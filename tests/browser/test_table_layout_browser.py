"""A fight of each game on the GM's dashboard at 1366x768, as a GM with players waiting plays
it: what is on screen, how many clicks an attack takes, and that nothing of one attack carries
into the next actor's.

One ``gmkit table`` serves its own copy of the demo campaign; the page stays open for the
module and each game picks its encounter (the players' pages of these fights, at 360 px in
both languages, are test_five_games_browser's). For each game the test:

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
5. (Dark Heresy) types 20 of the table's dice at 30 ms intervals, Tab between, into the dice
   boxes: a shot at 05 whose damage rolls 10 after 10 (Righteous Fury confirmed each time)
   asks for every one of them, and all 20 reach the kernel, in order.

And what issue 21 found losing the thread at 1366x768 (items 9, 10, 12): with the fight's log
grown, at 1366x768 and 1920x1080 in English and at 1366x768 in Spanish (the longer labels),
in each state the GM meets (the Turn pane, the Log pane, the turn's forms open with the
action of most inputs chosen, the Remove question), every row of the tracker, the actor's
row and every button the GM must press there (Next, Previous, Undo, the rows' buttons, the
panes' buttons, the attack's commands, Do it, Add condition, Remove and Keep) is wholly
inside the window and inside every box that clips it, and the page is no taller than the
window. The distance typed and Enter resolves; Esc leaves the box and R resolves. Dark
Heresy's fight then grows to 10 combatants (every row still in view) and to 20 (the rows
scroll): the rows scrolled to the bottom, N brings the actor's row back into view.

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
from dashboard_page import OPTIONS, SELECTED, Table, inner_text, steady, until

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

WINDOWS = {"1366x768": VIEWPORT, "1920x1080": {"width": 1920, "height": 1080}}
# each selector's elements shown (display not none) and those not wholly inside the window and
# every box that clips them (overflow other than visible); the page's height and scroll
OFF_SCREEN = """selectors => {
  function inside(el) {
    const r = el.getBoundingClientRect();
    let top = 0, left = 0, bottom = innerHeight, right = innerWidth;
    for (let box = el.parentElement; box; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const b = box.getBoundingClientRect();
      top = Math.max(top, b.top); left = Math.max(left, b.left);
      bottom = Math.min(bottom, b.bottom); right = Math.min(right, b.right);
    }
    return r.top >= top - 1 && r.left >= left - 1 && r.bottom <= bottom + 1
      && r.right <= right + 1;
  }
  const found = {};
  for (const sel of selectors) {
    const shown = [...document.querySelectorAll(sel)].filter(el => el.getClientRects().length);
    found[sel] = [shown.length, shown.filter(el => !inside(el))
      .map(el => (el.innerText || el.value || el.className).trim().slice(0, 40))];
  }
  return {found, height: document.documentElement.scrollHeight, scrolled: scrollY};
}"""
ROWS = ".gmkit-tracker .gmkit-row"
ACTOR_ROW = ".gmkit-tracker .gmkit-row.gmkit-acting"
ALWAYS = (  # in every state: the rows and what the GM presses to run the fight
    ".gmkit-topbar select", ".gmkit-topbar .widget-toggle-button",
    ".gmkit-tracker .gmkit-header", ".gmkit-tracker .gmkit-next",
    ".gmkit-tracker .gmkit-previous", ".gmkit-tracker .gmkit-undo", ROWS, ACTOR_ROW,
    ".gmkit-tracker .gmkit-row button", ".gmkit-pane-buttons .widget-toggle-button",
)  # fmt: skip
IF_ANY = (  # the initiative boxes (none in a sides game), the attack's commands
    ".gmkit-tracker .gmkit-row input", ".gmkit-attack .gmkit-commands > .jupyter-button",
)  # fmt: skip
TURN = ".gmkit-turn-panel"
FOLDS = f"{TURN} > .widget-hbox .widget-toggle-button"  # Actions, Conditions
PANES = ".gmkit-pane-buttons .widget-toggle-button"  # Turn, Log (Units)
DO_IT = f"{TURN} .gmkit-do"
DO_LINE = f"{TURN} .gmkit-do-line button"  # Do it, and Do it anyway when refused
ADD_CONDITION = f"{TURN} .gmkit-add-condition"
CONFIRM = ".gmkit-tracker .gmkit-confirm button"  # Remove, Keep


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
        # the kernel has answered; the tracker and the panel drawn for the new actor hold
        steady(
            fight.page,
            f"{step}: the turn after Next",
            lambda: (fight.table.header(), fight.page.evaluate(ATTACKER), fight.resolvable()),
        )
    pytest.fail(f"{step}: no attack offered after 12 Next (attacker {attacker!r})")


def side_of(option: str) -> str:
    found = re.search(r"\(([^()]*)\)\s*$", option)
    return found.group(1) if found else ""


def attack_with_defaults(fight: Fight, artifacts: Path, game: Game) -> None:
    page = fight.page
    fight.clicks = 0
    if game.distance:  # measured on the table, typed (counted as a click), Enter: resolved
        fight.clicks += 1
        type_distance(fight, game.distance, "Enter", f"Distance ({game.unit})")
    else:
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
    type_distance(fight, "7", "Escape", f"Distance ({unit})")

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
    target_box = page.locator(".gmkit-attack .widget-dropdown:has(label:text-is('Target')) select")
    target = target_box.first.evaluate(SELECTED)
    shown = folds()
    if ticked and "Circumstances: none" not in shown:
        # one the new target's sheet implies (WFRP: a shield, a parry), or one carried over:
        # the target picked again shows its own defaults, which must be what was shown
        other = next(o for o in target_box.first.evaluate(OPTIONS) if o != target)
        table.choose("Target", other, "another target")
        table.choose("Target", target, "the target again")
        assert folds() == shown, f"a circumstance carried over to {attacker}: {shown}"
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
        type_distance(fight, game.distance, "Escape", f"Distancia ({game.unit})")
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


def type_distance(fight: Fight, value: str, key: str, label: str) -> None:
    """Type ``value`` in the attack's box ``label`` (the distance), then ``key``: Enter (the
    box left, resolved) or Escape (the box left, its value sent); the focus is out of it."""
    page = fight.page
    box = page.locator(f".gmkit-attack .widget-text:has(label:text-is('{label}')) input").first
    box.click()
    if key == "Escape" and box.input_value() == value:  # nothing new to send
        box.press(key)
    else:
        with fight.table.acting(f"{label}: {value}, {key}"):
            box.fill(value)
            box.press(key)
    until(page, f"{key} leaves the box", lambda: box.evaluate(FOCUSED), lambda f: not f)


FOCUSED = "el => el === document.activeElement"


def keys_resolve(fight: Fight, game: Game) -> None:
    """Issue 21 item 12: a distance typed, Esc, then R resolves, no mouse between."""
    page = fight.page
    assert not fight.summary(), "a result carried over to the new actor"
    type_distance(fight, game.distance or "10", "Escape", f"Distance ({game.unit})")
    refusal = ".gmkit-attack .gmkit-error"
    assert not inner_text(page, refusal).strip()
    page.keyboard.press("r")
    # a result, or (WFB: a character whose unit is not on the table yet) the rules' refusal
    until(page, "R resolved", lambda: fight.summary() or inner_text(page, refusal), bool)
    if not fight.summary():  # the refusal goes with the panel's next command
        type_distance(fight, "", "Escape", f"Distance ({game.unit})")


def most_inputs(campaign: Path, encounter: str, language: str) -> str:
    """The label of the game's action with the most to fill in ("" for none), in
    ``language``: the turn's form at its tallest."""
    from gmkit.encounter import Encounter
    from gmkit.messages import render
    from gmkit.store import CampaignStore

    with CampaignStore(campaign, readonly=True) as store:
        actions = Encounter.open(store, encounter).actions()
    if not actions:
        return ""
    tallest = max(actions, key=lambda a: len(a.inputs) + a.target + a.weapon)
    return render(tallest.label, language)


def pressed(fight: Fight, selector: str, index: int, on: bool, step: str) -> None:
    """The toggle ``selector``'s ``index``-th button pressed (``on``) or not."""
    button = fight.page.locator(selector).nth(index)
    if ("mod-active" in (button.get_attribute("class") or "")) != on:
        with fight.table.acting(step):
            button.click()


def nothing_off_screen(
    fight: Fight, game: Game, campaign: Path, artifacts: Path, window: str, language: str
) -> None:
    """Issue 21 items 9 and 10, in the window ``window`` (the page in ``language``): in each
    state the GM meets, every row, the actor's row and every button to press is in view."""
    page, table = fight.page, fight.table
    page.set_viewport_size(WINDOWS[window])
    height = WINDOWS[window]["height"]
    name = f"{game.game}-{language}-{window}"

    def check(state: str, *must: str) -> None:
        wanted = [*ALWAYS, *must]
        selectors = [*wanted, *IF_ANY]

        def fits(seen: dict[str, Any]) -> bool:
            found = seen["found"]
            return (
                seen["height"] <= height
                and not seen["scrolled"]
                and all(found[one][0] for one in wanted)
                and not any(found[one][1] for one in selectors)
            )

        until(
            page,
            f"{name}, {state}: every row and button inside the window",
            lambda: page.evaluate(OFF_SCREEN, selectors),
            fits,
        )
        fight.shot(artifacts, f"{name}-{state}")

    pressed(fight, PANES, 0, True, "the Turn pane")
    check("turn")
    pressed(fight, PANES, 1, True, "the Log pane")
    page.locator(".gmkit-log").first.wait_for(timeout=30_000)  # long: it scrolls in its pane
    check("log")
    pressed(fight, PANES, 0, True, "the Turn pane again")
    pressed(fight, FOLDS, 0, True, "open the actions")
    label = most_inputs(campaign, game.encounter, language)
    action = page.locator(f"{TURN} .gmkit-action-controls .widget-dropdown select").nth(1)
    if label:  # the action with most inputs: Do it at its lowest
        options = action.evaluate(OPTIONS)
        chosen = next(o for o in options if o in (label, f"{label} ⨯"))
        if action.evaluate(SELECTED) != chosen:  # chosen in an earlier window, it stays
            with table.acting(f"choose {chosen}"):
                action.select_option(label=chosen)
    pressed(fight, FOLDS, 1, True, "open the conditions")
    check("forms", DO_IT, DO_LINE, ADD_CONDITION, FOLDS)
    remove = page.locator(".gmkit-tracker .gmkit-row .gmkit-remove").last
    with table.acting("Remove the last row"):
        remove.click()
    check("remove", CONFIRM)
    with table.acting("Keep"):
        page.locator(CONFIRM).nth(1).click()
    pressed(fight, FOLDS, 1, False, "fold the conditions")
    pressed(fight, FOLDS, 0, False, "fold the actions")
    page.set_viewport_size(VIEWPORT)


def in_spanish(fight: Fight, spanish: bool) -> None:
    page = fight.page
    label, ok = ("Español", "Round") if spanish else ("English", "Round")
    with fight.table.acting(label):
        page.locator(".gmkit-topbar .widget-toggle-button", has_text=label).click()
    until(page, label, fight.table.header, lambda text: text.startswith(ok) != spanish)


def join(campaign: Path, encounter: str, count: int, first: int) -> None:
    """``count`` more cultists join the fight (written to the campaign file from outside: the
    dashboard follows it), with initiatives spread through the order."""
    from gmkit.demo import demo_campaign
    from gmkit.encounter import Encounter
    from gmkit.store import CampaignStore

    roster = next(r for r in demo_campaign().rosters if r.game == "dark_heresy")
    cultist = next(s for s in roster.sheets if s.name == "Cultist Ban")
    with CampaignStore(campaign) as store:
        fight = Encounter.open(store, encounter)
        for n in range(first, first + count):
            fight.add(cultist.model_copy(update={"name": f"Cultist {n}"}), initiative=n % 12)


NEXT_HIDDEN = """() => {
  // the row after the actor's (the first after the last), and the rows scrolled to the end
  // that leaves it out of view
  const rows = [...document.querySelectorAll('.gmkit-tracker .gmkit-rows > .gmkit-row')];
  const at = rows.findIndex(r => r.classList.contains('gmkit-acting'));
  const next = (at + 1) % rows.length;
  const box = document.querySelector('.gmkit-tracker .gmkit-rows');
  box.scrollTop = next < rows.length / 2 ? box.scrollHeight : 0;
  const r = rows[next].getBoundingClientRect(), b = box.getBoundingClientRect();
  return [box.scrollHeight > box.clientHeight, r.bottom <= b.top + 1 || r.top >= b.bottom - 1];
}"""


def a_long_fight_keeps_the_actor_in_view(
    fight: Fight, game: Game, campaign: Path, artifacts: Path
) -> None:
    """Ten combatants: every row in view in every state; twenty: the rows scroll, and N
    brings the next actor's row into view wherever the GM had scrolled them."""
    page = fight.page
    join(campaign, game.encounter, 2, 1)
    until(page, "10 rows", lambda: page.locator(ROWS).count(), (10).__eq__)
    nothing_off_screen(fight, game, campaign, artifacts, "1366x768", "en")
    join(campaign, game.encounter, 10, 3)
    until(page, "20 rows", lambda: page.locator(ROWS).count(), (20).__eq__)
    scrolls, hidden = page.evaluate(NEXT_HIDDEN)
    assert scrolls, "20 rows fit: nothing to scroll"
    assert hidden, "the next actor's row is in view before N"
    with fight.table.acting("N"):
        page.keyboard.press("n")
    until(
        page,
        "the actor's row scrolled into view",
        lambda: page.evaluate(OFF_SCREEN, [ACTOR_ROW])["found"][ACTOR_ROW],
        lambda found: found[0] > 0 and not found[1],
    )
    fight.shot(artifacts, f"{game.game}-en-20-rows-next")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, serve_table: Any) -> tuple[Path, Any]:
    """The demo campaign in a file of the module's own, served by ``gmkit table`` (the
    players' pages of these fights are checked at 360 px in test_five_games_browser)."""
    from gmkit.campaign import demo_campaign_file

    campaign = demo_campaign_file(tmp_path_factory.mktemp("layout") / "campaign")
    return campaign, serve_table(campaign)


@pytest.fixture(scope="module")
def campaign(served: tuple[Path, Any]) -> Path:
    return served[0]


@pytest.fixture(scope="module")
def fight(served: tuple[Path, Any], chromium: Any) -> Iterator[Fight]:
    page = chromium.new_page(viewport=VIEWPORT)
    table = Table(page)  # before goto: it listens to the page's websocket
    try:
        page.goto(served[1].url, wait_until="domcontentloaded", timeout=120_000)
        page.locator(".gmkit-attack button", has_text="Resolve").wait_for(timeout=120_000)
        yield Fight(table)
    finally:
        page.close()


@pytest.mark.parametrize("game", GAMES, ids=[game.game for game in GAMES])
def test_a_fight_fits_the_screen_and_nothing_carries_to_the_next_actor(
    game: Game, fight: Fight, campaign: Path, artifacts: Path
) -> None:
    try:
        start(fight, game)
        fight.shot(artifacts, f"{game.game}-en-started")
        next_until_an_attack(fight, "to the first attack")
        attack_with_defaults(fight, artifacts, game)
        nothing_carries(fight, game, artifacts)
        keys_resolve(fight, game)
        for window in WINDOWS:
            nothing_off_screen(fight, game, campaign, artifacts, window, "en")
        in_spanish(fight, True)
        nothing_off_screen(fight, game, campaign, artifacts, "1366x768", "es")
        in_spanish(fight, False)
        spanish_page_has_no_english(fight, game, campaign, artifacts)
        if game.game == "dark_heresy":
            twenty_dice_arrive(fight, artifacts)
            a_long_fight_keeps_the_actor_in_view(fight, game, campaign, artifacts)
    except BaseException:
        fight.shot(artifacts, f"{game.game}-failed")
        raise
