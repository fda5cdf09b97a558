"""A whole fight of each of the five games, run from the GM's dashboard with the mouse and the
keyboard only, while a player's page follows it.

One ``gmkit table`` serves its own copy of the demo campaign (one prepared encounter per game)
and one ``gmkit players --light`` per encounter follows it (``demo_fights``). The GM's page
stays open for the module; each game's test picks its encounter in the dashboard's picker, then:

1. starts the fight: initiative typed from the table's dice (Dark Heresy, WFRP 2e) or rolled
   by gmkit (Deathwatch), then Start; the sides games (Necromunda, WFB 6e) start by side;
2. in round 1, an attack with the table's dice, typed die by die as the panel asks, applied:
   the rules' steps, the target's row in the tracker, the log;
3. Next until round 2;
4. an attack with gmkit's dice (seeded by GMKIT_SEED, or a seed the GM types), applied;
5. the attack panel's Undo, which takes the last attack back;
6. then (a test of its own, after the five fights) the same page in Spanish (issue 21, items
   17-19): the dashboard switched to Español, its
   tracker, attack panel (every dropdown's options too), turn and log panes hold no English
   rule word and no data id (``gmkit.messages._check``; the names of the demo's characters,
   sides, encounters and the GM's own notes are the only text left as typed), the weapon list
   names the data's Spanish, a combatant the players do not see is marked in the Target list,
   the log's Kind filter reads in Spanish; and the player's page, switched to Español on a
   360 px phone, with a friend's sheet unfolded (the Spanish books' profile abbreviations);
   on that phone, in Spanish and back in English, nothing is beyond its width (no sideways
   scroll, no element past its edge).

After every step the player's page must show it (round, whose turn or side, the target's
wounds or wound band and conditions, the log) within ``FOLLOW_LIMIT`` seconds, and a hidden
combatant that has not acted must not be on it. Every die is typed or seeded, so every run is
the same; the texts asserted are what the rules produce for those dice.

Each action waits for the dashboard's kernel to have handled it (its busy/idle status on the
page's websocket) before the next, so a dropdown is never picked from options the kernel has
already replaced.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from dashboard_page import (
    OPTIONS,
    PHONE,
    SELECTED,
    T,
    Table,
    inner_text,
    until,
    within_the_phone,
)

pytestmark = [pytest.mark.browser, pytest.mark.server]

FOLLOW_LIMIT = 3.0  # s: the player view follows the GM within this
CASTOR_HITS_TWICE = (
    "Brother Castor attacks Ork Boyz mob with Astartes Bolter (Godwyn): hits 2 times"
)
UNITS = {"necromunda": "in", "wfb6": "cm"}  # the Distance field's unit; "m" in the others


# --- the five fights ------------------------------------------------------------------------


@dataclass(frozen=True)
class Die:
    """A die of the table: the panel's prompt for it, and the value typed."""

    prompt: str
    value: str


@dataclass(frozen=True)
class Attack:
    target: str  # as the Target dropdown lists it: "Name (side)"
    summary: str  # the rules' summary of the result
    players: str = ""  # what the players' log reads of it ("": the summary, whole)
    left: str = ""  # what the GM's log line says after the summary: what the attack left
    steps: tuple[str, ...] = ()  # texts of the rules' explained steps
    attacker: str = ""  # picked in the Attacker dropdown; "" keeps the current actor
    mode: str = ""  # picked in the Mode / Action dropdowns ("" leaves them)
    action: str = ""
    distance: str = ""  # typed, with Enter
    dice: tuple[Die, ...] = ()  # the table's dice, typed; none: gmkit rolls
    seed: str = ""  # typed into the panel's Seed box before gmkit rolls
    applied_before: tuple[str, ...] = ()  # gmkit's rolls resolved and applied first (summaries)

    @property
    def said(self) -> str:
        """The GM's log line: the rules' summary, then what the attack left (a pin...)."""
        return f"{self.summary}; {self.left}" if self.left else self.summary


@dataclass(frozen=True)
class Shown:
    """What the GM's tracker and the players' table show of one combatant."""

    name: str
    tracker: str  # the wounds cell of the tracker row: "Wounds 6/8", "magnitude 28/30"
    badges: tuple[str, ...] | None  # the row's badges (None: not checked)
    players: str  # the players' wounds cell: a band ("hurt") or, for their side, "1/2"
    conditions: str | None = "–"  # the players' conditions cell (None: not checked)


@dataclass(frozen=True)
class Fight:
    game: str
    encounter: str
    initiative: str | None  # typed d10s; "" gmkit rolls; None: a sides game (no initiative)
    order: tuple[str, ...]  # the tracker's rows once started
    started: str  # header text once started: whose turn, or which side and phase
    players_started: str
    typed: Attack
    after_typed: Shown
    round_two: str  # header text once round 2 is reached (after the Next clicks)
    players_round_two: str
    seeded: Attack
    after_seeded: Shown
    after_undo: Shown
    nexts_to_typed: int = 0  # Next clicks from the start to the first attack's phase
    nexts_to_round_two: int = 0  # Next clicks from the first attack to the second's
    hidden: str = ""  # hidden from the players until it acts


FIGHTS = [
    Fight(
        game="dark_heresy",
        encounter="The Chapel of the Pale Throne",
        # d10s in the order the combatants were added: Tull, Marr, Fenn, Kell, Ostrava, Ban,
        # Hesk, Lorn; + Agility Bonus: Marr 14, Tull 12, Kell 11, Lorn 10, Fenn 9, Ban 8...
        initiative="9 10 6 7 1 5 4 8",
        order=(
            "Ilse Marr",
            "Sergeant Varro Tull",
            "Jessa Kell",
            "Cultist Lorn",
            "Adept Cornelius Fenn",
            "Cultist Ban",
            "Cultist Hesk",
            "Demagogue Ostrava",
        ),
        started="Round 1 · Turn: Ilse Marr",
        players_started="Round 1 · Turn: Ilse Marr",
        typed=Attack(
            target="Cultist Ban (Pale Throne cult)",
            players="Ilse Marr attacks Cultist Ban with Laspistol: hits",  # the band: no numbers
            dice=(Die("to hit: roll a d100", "20"), Die("damage (hit 1): roll a d10", "3")),
            summary="Ilse Marr hits Cultist Ban once with Laspistol: 2 damage",
            steps=(
                "BS 36 +0 = 36 [no modifiers]; rolled 20: success, 1 degree of success",
                "20 reversed reads 2",
                "1d10+2: [3] +2 = 5",
                "5 damage - AP 0 - TB 3 = 2",
            ),
        ),
        after_typed=Shown("Cultist Ban", "Wounds 6/8", (), "hurt"),
        nexts_to_round_two=8,
        round_two="Round 2 · Turn: Ilse Marr",
        players_round_two="Round 2 · Turn: Ilse Marr",
        # Round 2: the panel kept the last actor's melee mode (see the report); the GM picks
        # the shot again. gmkit's first roll misses (applied: her first half action), the
        # second hits.
        seeded=Attack(
            target="Cultist Ban (Pale Throne cult)",
            players="Ilse Marr attacks Cultist Ban with Laspistol: hits",  # the band: no numbers
            mode="Single shot",
            action="Standard Attack",
            applied_before=("Ilse Marr fails to hit Cultist Ban with Laspistol",),
            summary="Ilse Marr hits Cultist Ban once with Laspistol: 6 damage",
            steps=("1d10+2: [7] +2 = 9", "9 damage - AP 0 - TB 3 = 6"),
        ),
        after_seeded=Shown("Cultist Ban", "Wounds 0/8", (), "down"),
        after_undo=Shown("Cultist Ban", "Wounds 6/8", (), "hurt"),
        hidden="Demagogue Ostrava",
    ),
    Fight(
        game="necromunda",
        encounter="Ambush at the Sump Pipes",
        initiative=None,
        order=(
            "Brother Kael",
            "Ezekiah the Burner",
            "Mordecai",
            "Silas Vane",
            "Little Jeb",
            "Grubnose the Scavvy Boss",
            "Scabby Tom",
            "Rotgut",
            "Mange",
        ),
        started="Round 1 · Side: The Ashen Brethren · Phase: movement",
        players_started="Round 1 · Side: The Ashen Brethren",
        nexts_to_typed=1,
        typed=Attack(
            attacker="Brother Kael (The Ashen Brethren)",
            target="Rotgut (The Sump Scavvies)",
            # the band: hit or miss and what it left, no numbers; the GM's line adds the pin
            players="Brother Kael attacks Rotgut with bolt pistol: hits; Rotgut: pinned, down",
            left="Rotgut: pinned",
            distance="8",
            dice=(
                Die("to hit: roll a d6", "5"),
                Die("to wound: roll a d6", "5"),
                Die("injury roll: roll a d6", "4"),
            ),
            summary="Brother Kael hits Rotgut: down",
            steps=(
                "7 - BS 4 = 3; short range (bolt pistol) +2; 5 against 2+: success",
                "S 4 against T 3; 5 against 3+: success",
                "1 wound: 0 of 1 left",
            ),
        ),
        after_typed=Shown(
            "Rotgut", "Wounds 0/1", ("Pinned · 1 rd ✕", "Down ✕"), "down", "Down, Pinned (1 turn)"
        ),
        # the rest of round 1 (shooting to recovery, then the Scavvies' four phases), and on
        # to the Brethren's shooting phase of round 2
        nexts_to_round_two=8,
        round_two="Round 2 · Side: The Ashen Brethren · Phase: shooting",
        players_round_two="Round 2 · Side: The Ashen Brethren",
        seeded=Attack(
            attacker="Mordecai (The Ashen Brethren)",
            target="Mange (The Sump Scavvies)",
            players="Mordecai attacks Mange with lasgun: hits; Mange: pinned",  # no numbers
            left="Mange: pinned",
            distance="10",
            summary="Mordecai hits Mange: no wound",
            steps=("7 - BS 3 = 4; short range (lasgun) +1; 3 against 3+: success",),
        ),
        after_seeded=Shown(
            "Mange", "Wounds 1/1", ("Pinned · 1 rd ✕",), "unhurt", "Pinned (1 turn)"
        ),
        after_undo=Shown("Mange", "Wounds 1/1", (), "unhurt"),
        hidden="Scabby Tom",
    ),
    Fight(
        game="deathwatch",
        encounter="The Breach at Vaxanide",
        initiative="",  # gmkit rolls (GMKIT_SEED): Castor 10, Varek 10, Ilarion 7, Nob 5...
        order=(
            "Brother Castor",
            "Brother Varek",
            "Brother Ilarion",
            "Nob Gritfang",
            "Ork Boyz mob",
        ),
        started="Round 1 · Turn: Brother Castor",
        players_started="Round 1 · Turn: Brother Castor",
        typed=Attack(
            target="Ork Boyz mob (Waaagh! Gritfang)",
            players=CASTOR_HITS_TWICE,
            dice=(
                Die("to hit: roll a d100", "30"),
                Die("damage (hit 1) die 1: roll a d10", "7"),
                Die("damage (hit 1) die 2: roll a d10", "8"),
                Die("damage (hit 1) die 3: roll a d10", "2"),
                Die("damage (hit 2) die 1: roll a d10", "5"),
                Die("damage (hit 2) die 2: roll a d10", "4"),
                Die("damage (hit 2) die 3: roll a d10", "3"),
            ),
            summary=(
                "Brother Castor hits Ork Boyz mob 2 times with Astartes Bolter (Godwyn): "
                "magnitude -2"
            ),
            steps=(
                # the ruling's horde size bonus; the mob's flak counts (AP 2, pierced)
                "BS 47 +10 = 57 [Horde size (magnitude 30) +10]; rolled 30: success, "
                "2 degrees of success",
                "2d10+5: [7, 8, ~~2~~] +5 = 20",
                "20 damage - AP 2 (Pen 5: 0) - TB 8 = 12",
                "Explosive damage: one more hit",
                "2d10+5: [5, 4, ~~3~~] +5 = 14",
            ),
        ),
        after_typed=Shown("Ork Boyz mob", "magnitude 28/30", (), "hurt"),
        nexts_to_round_two=5,
        round_two="Round 2 · Turn: Brother Castor",
        players_round_two="Round 2 · Turn: Brother Castor",
        seeded=Attack(
            target="Ork Boyz mob (Waaagh! Gritfang)",
            players=CASTOR_HITS_TWICE,
            mode="Single shot",
            action="Standard Attack",
            summary=(
                "Brother Castor hits Ork Boyz mob 2 times with Astartes Bolter (Godwyn): "
                "magnitude -2"
            ),
            steps=("rolled 42: success, 0 degrees of success", "2d10+5: [3, 7, ~~1~~] +5 = 15"),
        ),
        after_seeded=Shown("Ork Boyz mob", "magnitude 26/30", (), "hurt"),
        after_undo=Shown("Ork Boyz mob", "magnitude 28/30", (), "hurt"),
        hidden="Nob Gritfang",
    ),
    Fight(
        game="wfrp2",
        encounter="Beastmen on the Drakwald Road",
        # d10s in the order added: Gunther, Elsa, Matthias, Gor, Ungor, Vhorlag; + Agility
        initiative="5 9 3 2 4 1",
        order=(
            "Elsa Wendt",
            "Ungor Snitch",
            "Gunther Brandauer",
            "Bray-shaman Vhorlag",
            "Brother Matthias",
            "Gor Bloodhorn",
        ),
        started="Round 1 · Turn: Elsa Wendt",
        players_started="Round 1 · Turn: Elsa Wendt",
        typed=Attack(
            target="Ungor Snitch (Beastmen)",
            players="Elsa Wendt attacks Ungor Snitch with Bow: hits",  # the band: no numbers
            dice=(Die("BS test: roll a d100", "25"), Die("damage: roll a d10", "7")),
            summary=(
                "Elsa Wendt (Standard Attack, Bow): 1 of 1 hit; Ungor Snitch loses 7 wounds "
                "(2 left)"
            ),
            steps=(
                "BS 43 +0 = 43 [no modifiers]; rolled 25: success, 1 degree of success",
                "25 reversed: 52",
                "1d10 (7) + Bow 3",
                "7 lost: 9 -> 2 (seriously wounded)",
            ),
        ),
        after_typed=Shown("Ungor Snitch", "Wounds 2/9", (), "bloodied"),
        nexts_to_round_two=6,
        round_two="Round 2 · Turn: Elsa Wendt",
        players_round_two="Round 2 · Turn: Elsa Wendt",
        seeded=Attack(
            target="Ungor Snitch (Beastmen)",
            players="Elsa Wendt attacks Ungor Snitch with Bow: hits",  # the band: no numbers
            summary=(
                "Elsa Wendt (Standard Attack, Bow): 1 of 1 hit; Ungor Snitch loses 3 wounds "
                "(0 left)"
            ),
            steps=("rolled 42: success, 0 degrees of success", "3 lost: 2 -> 0"),
        ),
        # the critical's condition comes from a placeholder table (criticals.yaml): not checked
        after_seeded=Shown("Ungor Snitch", "Wounds 0/9", None, "down", None),
        after_undo=Shown("Ungor Snitch", "Wounds 2/9", (), "bloodied"),
        hidden="Bray-shaman Vhorlag",
    ),
    Fight(
        game="wfb6",
        encounter="Arrows over the Reikland Ford",
        initiative=None,
        order=(
            "Captain Ottilie Hals",
            "Swordsman",
            "Duellist Brandt",
            "Father Anselm",
            "Night Goblin Archer",
            "Grik the Boss",
        ),
        started="Round 1 · Side: Empire · Phase: movement",
        players_started="Round 1 · Side: Empire",
        # Empire's magic, shooting and close combat, the Goblins' movement and magic: the
        # Goblins' shooting phase. (Their shots at the priest: shots at a unit's models name
        # the unit, which the demo holds under no combatant; see the report.)
        nexts_to_typed=6,
        typed=Attack(
            attacker="Night Goblin Archer (Night Goblins)",
            target="Father Anselm (Empire)",
            dice=(
                Die("to hit, shot 1: roll a d6", "6"),
                Die("to wound Father Anselm, hit 1: roll a d6", "5"),
                Die("armour save Father Anselm, wound 1: roll a d6", "1"),
            ),
            summary="1 hit; unsaved wounds: Father Anselm 1",
            steps=(
                "no friendly unit of 5+ models of its size or larger within 12 cm",
                "BS 3 needs 5+ [Lone infantry character -1]: 6 against 5+: success",
                "S 3 against T 4 needs 5+: 5 against 5+: success",
                "5+ [no modifier]: a 1 always fails",
            ),
        ),
        after_typed=Shown("Father Anselm", "Wounds 1/2", (), "1/2"),
        nexts_to_round_two=8,
        round_two="Round 2 · Side: Night Goblins · Phase: shooting",
        players_round_two="Round 2 · Side: Night Goblins",
        # GMKIT_SEED's first d6 is a 3, a miss at 5+: the GM seeds gmkit's dice with 20
        seeded=Attack(
            attacker="Grik the Boss (Night Goblins)",
            target="Father Anselm (Empire)",
            seed="20",
            summary="1 hit; unsaved wounds: Father Anselm 1",
            steps=("BS 3 needs 5+ [Lone infantry character -1]",),
        ),
        after_seeded=Shown("Father Anselm", "Wounds 0/2", (), "0/2"),
        after_undo=Shown("Father Anselm", "Wounds 1/2", (), "1/2"),
    ),
]


# --- reading the pages ----------------------------------------------------------------------

TRACKER_ORDER = """() => [...document.querySelectorAll('.gmkit-tracker .gmkit-row .gmkit-name')]
  .map(n => n.innerText.trim())"""
PLAYER_ROW = """name => {
  const row = [...document.querySelectorAll('.gmkit-player-table tr')]
    .find(r => r.querySelector('td.gmkit-pc-name')?.innerText.trim().startsWith(name));
  return row ? {wounds: row.querySelector('.gmkit-pc-wounds').innerText.trim(),
                conditions: row.querySelector('.gmkit-pc-conditions').innerText.trim()}
             : null;
}"""
PLAYER_LOG = "() => [...document.querySelectorAll('.gmkit-player-log li')].map(n => n.innerText)"


@dataclass
class Record:
    follow_seconds: dict[str, float] = field(default_factory=dict)


class Players:
    """A player's page; each check records how long after the GM's last action (once the
    dashboard's kernel had handled it) the page showed it: an upper bound, since the GM's own
    checks run in between."""

    def __init__(self, page: Any, table: Table, record: Record) -> None:
        self.page = page
        self.table = table
        self.record = record

    def header(self) -> str:
        return " ".join(inner_text(self.page, ".gmkit-player-header").split())

    def log(self) -> list[str]:
        return self.page.evaluate(PLAYER_LOG)

    def sees(self, step: str, read: Callable[[], T], ok: Callable[[T], bool]) -> None:
        until(self.page, f"players: {step}", read, ok)
        self.record.follow_seconds[step] = time.monotonic() - self.table.done

    def sees_row(self, step: str, shown: Shown) -> None:
        def ok(row: dict[str, str] | None) -> bool:
            if row is None or row["wounds"] != shown.players:
                return False
            return shown.conditions is None or row["conditions"] == shown.conditions

        self.sees(step, lambda: self.page.evaluate(PLAYER_ROW, shown.name), ok)


def tracker_shows(table: Table, step: str, shown: Shown) -> None:
    def ok(row: dict[str, Any] | None) -> bool:
        if row is None or row["wounds"] != shown.tracker:
            return False
        return shown.badges is None or sorted(row["badges"]) == sorted(shown.badges)

    until(table.page, step, lambda: table.row(shown.name), ok)


# --- the fight ------------------------------------------------------------------------------


def attack(table: Table, fight: Fight, spec: Attack, step: str) -> None:
    """Pick, roll (type the dice the panel asks for, or let gmkit roll), check the rules'
    steps, apply."""
    page = table.page
    if spec.attacker:
        table.choose("Attacker", spec.attacker, f"{step}: attacker")
        # the attacker's cascade (weapons, targets) has come back before the next pick
    if spec.mode:
        table.choose("Mode", spec.mode, f"{step}: mode")
    if spec.action:
        table.choose("Action", spec.action, f"{step}: action")
    table.choose("Target", spec.target, f"{step}: target")
    if spec.distance:
        unit = UNITS.get(fight.game, "m")
        # Tab: the distance set, nothing resolved yet (Enter there resolves, with the seeded
        # dice this attack expects from its Resolve)
        table.type_into(f"Distance ({unit})", spec.distance, f"{step}: distance", key="Tab")
    if spec.dice:
        table.toggle("Table's dice", f"{step}: the table's dice")
        table.click(".gmkit-attack", "Resolve", f"{step}: resolve with no die typed")
        for index, die in enumerate(spec.dice):
            until(
                page,
                f"{step}: the panel asks for {die.prompt!r}",
                lambda: table.panel(".gmkit-prompt"),
                lambda text, d=die: d.prompt in text,
            )
            table.type_die(index, die.value, f"{step}: typing {die.value}")
        typed = " ".join(die.value for die in spec.dice)
        until(
            page,
            f"{step}: no die asked for any more",
            lambda: table.panel(".gmkit-prompt"),
            lambda text: "roll a d" not in text and f"Typed so far: {typed}" in text,
        )
    else:
        table.toggle("gmkit rolls", f"{step}: gmkit's dice")
        if spec.seed:
            table.type_into("Seed", spec.seed, f"{step}: seed")
        for summary in spec.applied_before:
            table.click(".gmkit-attack", "Resolve", f"{step}: resolve (before)")
            until(
                page,
                f"{step}: {summary!r}",
                lambda: table.panel(".gmkit-summary"),
                lambda text, s=summary: text == s,
            )
            table.click(".gmkit-attack", "Apply", f"{step}: apply (before)")
        table.click(".gmkit-attack", "Resolve", f"{step}: resolve")
    until(
        page,
        f"{step}: the result",
        lambda: table.panel(".gmkit-summary"),
        lambda text: text == spec.summary,
    )
    shown_steps = table.panel(".gmkit-steps")
    for text in spec.steps:
        assert text in shown_steps, f"{step}: step text {text!r} missing from {shown_steps!r}"
    table.click(".gmkit-attack", "Apply", f"{step}: apply")


def next_turns(table: Table, count: int, step: str) -> None:
    for number in range(count):
        table.click(".gmkit-tracker", "Next", f"{step}: Next {number + 1}")


def run_fight(table: Table, players: Players, fight: Fight, artifacts: Path) -> None:
    gm, page = table, table.page

    # The encounter, picked in the dashboard's picker; the player's page follows it too.
    picker = page.locator(".gmkit-topbar .widget-dropdown select").first
    if picker.evaluate(SELECTED) != fight.encounter:
        with gm.acting("pick the encounter"):
            picker.select_option(label=fight.encounter)
    until(
        page,
        "the encounter's combatants",
        lambda: sorted(page.evaluate(TRACKER_ORDER)),
        lambda names: names == sorted(fight.order),
    )
    assert gm.header().startswith("Round –"), gm.header()
    assert players.header().startswith("Round –"), players.header()

    # Start: initiative typed from the table's d10s or rolled by gmkit, then Start.
    if fight.initiative is not None:
        if fight.initiative:
            with gm.acting("type the initiative dice"):
                page.locator(".gmkit-tracker input[placeholder='7, 4, 9']").fill(fight.initiative)
        gm.click(".gmkit-tracker", "Roll initiative", "roll initiative")
    gm.click(".gmkit-tracker", "Start", "start")
    until(page, "round 1 starts", gm.header, lambda text: text.startswith(fight.started))
    assert page.evaluate(TRACKER_ORDER) == list(fight.order)
    players.sees(
        "the fight starts", players.header, lambda text: text.startswith(fight.players_started)
    )

    # Round 1: an attack with the table's dice, typed as the panel asks.
    next_turns(gm, fight.nexts_to_typed, "to the first attack")
    attack(gm, fight, fight.typed, "attack with typed dice")
    tracker_shows(gm, "the tracker shows the typed attack", fight.after_typed)
    until(
        page,
        "the log shows the typed attack",
        gm.attacks,
        lambda rows: len(rows) == 1 and rows[0]["outcome"] == fight.typed.said,
    )
    page.screenshot(path=str(artifacts / f"five-games-{fight.game}-gm-log-typed.png"))
    newest = gm.attacks()[0]
    assert newest["dice"] == "physical", newest
    marked = [  # every typed die, marked as the table's: "d100=20*"
        re.sub(r".*roll a (d\d+)$", rf"\1={die.value}*", die.prompt) for die in fight.typed.dice
    ]
    assert newest["rolls"].split() == marked, newest
    players.sees_row("the typed attack's wounds", fight.after_typed)
    players.sees(
        "the typed attack in the log",
        players.log,
        lambda lines: lines[:1] == [fight.typed.players or fight.typed.summary],
    )
    if fight.hidden:
        assert fight.hidden not in inner_text(players.page, ".gmkit-player")
        assert fight.hidden in page.evaluate(TRACKER_ORDER)

    # On to round 2.
    next_turns(gm, fight.nexts_to_round_two, "to round 2")
    until(page, "round 2", gm.header, lambda text: text.startswith(fight.round_two))
    players.sees("round 2", players.header, lambda text: text.startswith(fight.players_round_two))

    # Round 2: an attack with gmkit's dice.
    attack(gm, fight, fight.seeded, "attack with gmkit's dice")
    tracker_shows(gm, "the tracker shows the rolled attack", fight.after_seeded)
    count = 2 + len(fight.seeded.applied_before)
    until(
        page,
        "the log shows the rolled attack",
        gm.attacks,
        lambda rows: len(rows) == count and rows[0]["outcome"] == fight.seeded.said,
    )
    newest = gm.attacks()[0]
    assert newest["dice"] == "digital", newest
    assert "*" not in newest["rolls"], newest
    players.sees_row("the rolled attack's wounds", fight.after_seeded)
    players.sees(
        "the rolled attack in the log",
        players.log,
        lambda lines: (
            len(lines) == count and lines[0] == (fight.seeded.players or fight.seeded.summary)
        ),
    )

    # Undo: the attack panel takes the rolled attack back.
    gm.click(".gmkit-attack", "Undo", "undo")
    tracker_shows(gm, "undo: the tracker", fight.after_undo)
    until(page, "undo: the log", gm.attacks, lambda rows: len(rows) == count - 1)
    assert gm.header().startswith(fight.round_two), gm.header()  # undo took the attack only
    players.sees_row("undo: the wounds", fight.after_undo)
    players.sees("undo: the log", players.log, lambda lines: len(lines) == count - 1)
    assert players.header().startswith(fight.players_round_two)

    page.screenshot(path=str(artifacts / f"five-games-{fight.game}-gm.png"))
    players.page.screenshot(
        path=str(artifacts / f"five-games-{fight.game}-players.png"), full_page=True
    )


# --- the same page in Spanish ----------------------------------------------------------------

SPANISH_WEAPONS = {  # the actor's weapons by the data's Spanish names (weapons.yaml name_es)
    "dark_heresy": ("Pistola láser",),
    "necromunda": ("rifle láser", "pistola bólter"),  # Mordecai's, or Kael's (the side's first)
    "deathwatch": ("Bólter Astartes (Godwyn)",),
    "wfrp2": ("Arco",),
    "wfb6": ("arco corto",),
}
PAGE_TEXT = """() => {
  const shown = [document.body.innerText];
  for (const select of document.querySelectorAll('select'))
    shown.push([...select.options].map(o => o.text).join('\\n'));
  for (const input of document.querySelectorAll('input[placeholder], textarea[placeholder]'))
    shown.push(input.placeholder);
  return shown.join('\\n').replace(/\\u00a0/g, ' ');
}"""
OPEN_DETAILS = "() => document.querySelectorAll('details').forEach(d => { d.open = true; })"
RAW_ID = re.compile(r"\b[a-z]+_[a-z_]+\b")


def demo_names() -> set[str]:
    """What the demo campaign names as it was typed: characters, sides, units, encounters, the
    GM's notes and the sheets' notes (English prose the GM wrote, never translated)."""
    from gmkit.campaign import DEMO_FIGHTS
    from gmkit.demo import DEMO_NAME, demo_campaign

    names = {DEMO_NAME, *(fight.encounter for fight in FIGHTS)}
    names |= {fight.gm_note for fight in DEMO_FIGHTS}
    for roster in demo_campaign().rosters:
        names.add(roster.title)
        for sheet in roster.sheets:
            names |= {sheet.name, sheet.side, sheet.notes, str(getattr(sheet, "unit", "") or "")}
    return {name for name in names if name}


def in_spanish(table: Table, players: Players, fight: Fight, artifacts: Path) -> None:
    """The GM's dashboard and the player's phone in Spanish (see the module docstring, 6)."""
    from gmkit.messages._check import english_words

    gm, page = table, table.page
    language = page.locator(".gmkit-dashboard .widget-toggle-button", has_text="Español").first
    with gm.acting("the dashboard in Spanish"):
        language.click()
    until(page, "the header in Spanish", gm.header, lambda text: text.startswith("Asalto"))
    names = demo_names()
    weapon = page.locator(".gmkit-attack .widget-dropdown:has(label:text-is('Arma')) select")
    until(
        page,
        "the weapon list by the data's Spanish names",
        lambda: weapon.first.evaluate(OPTIONS),
        lambda options: bool(set(SPANISH_WEAPONS[fight.game]) & set(options)),
    )
    targets = page.locator(".gmkit-attack .widget-dropdown:has(label:text-is('Objetivo')) select")
    for option in targets.first.evaluate(OPTIONS):
        if fight.hidden and option.startswith(fight.hidden):
            assert option.endswith("· secreto"), option  # marked for the GM
    for pane in ("Turno", "Registro"):
        gm.show_pane(pane)
        shown = page.evaluate(PAGE_TEXT)
        assert english_words(shown, names) == [], (pane, shown[:3000])
        assert RAW_ID.findall(shown) == [], (pane, RAW_ID.findall(shown))
    kinds = page.locator(".widget-dropdown:has(label:text-is('Tipo')) select")  # the log's
    assert any("ataque" in kinds.nth(n).evaluate(OPTIONS) for n in range(kinds.count()))
    page.screenshot(path=str(artifacts / f"five-games-{fight.game}-gm-es.png"))

    phone = players.page
    phone.set_viewport_size(PHONE)
    phone.get_by_role("button", name="Español").click()  # the page's own switch
    until(phone, "the player's page in Spanish", players.header, lambda t: t.startswith("Asalto"))

    def unfolded() -> str:  # a friend's folded sheet opened (again, once the cards are redrawn)
        phone.evaluate(OPEN_DETAILS)
        return str(phone.evaluate(PAGE_TEXT))

    # the header, the cards and the log are three widgets, updated one after the other
    until(
        phone,
        "the cards and the log in Spanish too (the English words left)",
        lambda: english_words(unfolded(), names),
        lambda left: left == [],
    )
    shown = unfolded()
    assert RAW_ID.findall(shown) == [], RAW_ID.findall(shown)
    if fight.game == "necromunda":  # the Spanish books' profile, not WS BS S T
        assert "HA 4, HP 4, F 3, R 3, H 1, I 4, A 1, L 8" in shown, shown[:3000]
    phone.screenshot(
        path=str(artifacts / f"five-games-{fight.game}-players-phone-es.png"), full_page=True
    )
    within_the_phone(phone, "es")
    phone.get_by_role("button", name="English").click()
    until(phone, "the player's page in English", players.header, lambda t: t.startswith("Round"))
    phone.screenshot(path=str(artifacts / f"five-games-{fight.game}-players-phone-en.png"))
    within_the_phone(phone, "en")
    with gm.acting("the dashboard back in English"):
        page.locator(".gmkit-dashboard .widget-toggle-button", has_text="English").first.click()
    until(page, "the header in English", gm.header, lambda text: text.startswith("Round"))
    gm.show_pane("Log")


@pytest.fixture(scope="module")
def table(demo_fights, chromium) -> Iterator[Table]:
    """The GM's dashboard, open for the whole module: each game picks its encounter."""
    page = chromium.new_page(viewport={"width": 1600, "height": 1000})
    gm = Table(page)
    try:
        page.goto(demo_fights.table.url, wait_until="domcontentloaded", timeout=120_000)
        page.locator(".gmkit-tracker .gmkit-row").first.wait_for(timeout=120_000)
        page.locator(".gmkit-attack button", has_text="Resolve").wait_for(timeout=120_000)
        yield gm
    finally:
        page.close()


@pytest.mark.parametrize("fight", FIGHTS, ids=[fight.game for fight in FIGHTS])
def test_a_gm_runs_a_whole_fight_and_the_players_follow(
    fight: Fight, table: Table, demo_fights, chromium, artifacts: Path
) -> None:
    record = Record()
    page = chromium.new_page(viewport={"width": 1100, "height": 900})
    try:
        page.goto(
            demo_fights.players[fight.encounter].url, wait_until="domcontentloaded", timeout=120_000
        )
        page.locator(".gmkit-player-table").first.wait_for(timeout=120_000)
        assert fight.encounter in inner_text(page, ".gmkit-player")
        run_fight(table, Players(page, table, record), fight, artifacts)
    except BaseException:
        table.page.screenshot(path=str(artifacts / f"five-games-{fight.game}-failed.png"))
        raise
    finally:
        page.close()
    seconds = json.dumps(record.follow_seconds, indent=1)
    (artifacts / f"five-games-{fight.game}-follow-seconds.json").write_text(seconds)
    slowest = max(record.follow_seconds.values())
    assert len(record.follow_seconds) >= 8, record.follow_seconds
    assert slowest < FOLLOW_LIMIT, record.follow_seconds


@pytest.mark.parametrize("fight", FIGHTS, ids=[fight.game for fight in FIGHTS])
def test_the_table_and_a_phone_read_in_spanish(
    fight: Fight, table: Table, demo_fights, chromium, artifacts: Path
) -> None:
    """After each game's fight (the tests above, on the same page): its dashboard and a
    player's phone in Spanish (see the module docstring, 6)."""
    page = chromium.new_page(viewport={"width": 1100, "height": 900})
    try:
        page.goto(
            demo_fights.players[fight.encounter].url, wait_until="domcontentloaded", timeout=120_000
        )
        page.locator(".gmkit-player-table").first.wait_for(timeout=120_000)
        picker = table.page.locator(".gmkit-topbar .widget-dropdown select").first
        if picker.evaluate(SELECTED) != fight.encounter:
            with table.acting("pick the encounter"):
                picker.select_option(label=fight.encounter)
        until(
            table.page,
            "the encounter's combatants",
            lambda: sorted(table.page.evaluate(TRACKER_ORDER)),
            lambda names: names == sorted(fight.order),
        )
        in_spanish(table, Players(page, table, Record()), fight, artifacts)
    except BaseException:
        table.page.screenshot(path=str(artifacts / f"five-games-{fight.game}-es-failed.png"))
        raise
    finally:
        page.close()
