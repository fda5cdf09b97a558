"""A scripted fight in a real browser: the GM's dashboard (``gmkit table``) and a player's page
(``gmkit players``, on its own server) side by side.

The fight runs once (a module fixture) and every step waits for what the GM or the players
must see, failing with the step's name when it does not come; the tests then check what was
recorded: wounds and log after an attack with typed dice and with gmkit's seeded dice, undo,
the player view following within seconds, and that no frame the player's page received held
a GM-only value.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.server]

WAIT = 30_000  # ms: generous, for a loaded CI machine
FOLLOW_LIMIT = 3.0  # s: the player view follows the GM within this
# Typed initiative d10s, in the order combatants were added: Tull, Marr, Fenn, Kell, Ostrava,
# Ban, Hesk, Lorn. Scores: Marr 14, Tull 12, Kell 11, Lorn 10, Fenn 9, Ban 8, Hesk 7, Ostrava 4
# (the hidden demagogue acts last: he stays hidden through this fight).
INITIATIVE = "9 10 6 7 1 5 4 8"
REST = "9 6 7 1 5 4 8"  # the same, but Ilse's d10, typed as rolled in her row's box
ORDER = ["Ilse Marr", "Sergeant Varro Tull", "Jessa Kell", "Cultist Lorn"]

# What the players must never receive: the hidden demagogue, GM notes (the sheet's and the
# encounter's), enemy sheets (weapons, talents, profile lines, exact wounds).
GM_ONLY = [
    "Ostrava",
    "Demagogue",
    "Knows the acolytes are coming",
    "stub revolver under the altar",
    "waits behind the altar",
    "Stub Automatic",
    "Autogun",
    "Chainsword",
    "Melee Weapon Training (Chain)",
    "WS 28, BS 25",
    "8/8",
    "6/8",
]


@dataclass
class Fight:
    frames: list[str] = field(default_factory=list)
    follow_seconds: dict[str, float] = field(default_factory=dict)
    seen: dict[str, Any] = field(default_factory=dict)
    player_html: str = ""


def text(page: Any, selector: str) -> str:
    return str(page.locator(selector).first.inner_text())


def wait_text(
    page: Any, selector: str, expected: str, step: str, *, has: str = "", timeout: int = WAIT
) -> float:
    """Wait until the first ``selector`` node (holding ``has``, if given) shows ``expected``;
    returns the seconds it took (polled every 50 ms, so the time is the page's)."""
    start = time.monotonic()
    try:
        page.wait_for_function(
            "([s, h, e]) => { const n = [...document.querySelectorAll(s)]"
            ".find(node => node.innerText.includes(h));"
            " return n !== undefined && n.innerText.includes(e); }",
            arg=[selector, has, expected],
            timeout=timeout,
            polling=50,
        )
    except Exception as error:  # name the step, show what was there
        found = page.locator(selector, has_text=has) if has else page.locator(selector)
        shown = found.first.inner_text() if found.count() else ""
        pytest.fail(f"{step}: {expected!r} never shown in {selector} (shown: {shown!r}): {error}")
    return time.monotonic() - start


def row(page: Any, name: str) -> Any:
    return page.locator(".gmkit-tracker .gmkit-row", has_text=name).first


def attack_control(page: Any, kind: str, label: str) -> Any:
    return page.locator(f".gmkit-attack .widget-{kind}:has(label:text-is('{label}'))").first


def record_frames(page: Any, frames: list[str]) -> None:
    def on_socket(socket: Any) -> None:
        def on_frame(payload: str | bytes) -> None:
            frames.append(
                payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
            )

        socket.on("framereceived", on_frame)

    page.on("websocket", on_socket)


@pytest.fixture(scope="module")
def fight(table_server, players_server, chromium, artifacts: Path):
    table, _ = table_server
    players, _ = players_server
    record = Fight()
    gm = chromium.new_page(viewport={"width": 1600, "height": 1000})
    player = chromium.new_page(viewport={"width": 1100, "height": 800})
    record_frames(player, record.frames)
    try:
        gm.goto(table.url, wait_until="domcontentloaded", timeout=120_000)
        player.goto(players.url, wait_until="domcontentloaded", timeout=120_000)
        gm.locator(".gmkit-tracker .gmkit-row").first.wait_for(timeout=120_000)
        player.locator(".gmkit-player-table").first.wait_for(timeout=120_000)
        record.seen["player_start"] = text(player, ".gmkit-player")

        # Initiative (issue 21, item 4): Ilse's player calls out her d10, typed as rolled in
        # her row's box ("d10": + Agility Bonus 4 = 14), in Spanish; then Roll the rest rolls
        # the others from the table's d10s and keeps her score, saying so.
        gm.locator(".gmkit-dashboard .widget-toggle-button", has_text="Español").click()
        # the GM types once the page has switched (a box's text typed while its labels change
        # is reset by the browser's Text view: the race is said in issue 22's note)
        gm.locator(".gmkit-tracker button", has_text="Tirar iniciativa").wait_for(timeout=WAIT)
        ilse = row(gm, "Ilse Marr").locator(".gmkit-init-box input")
        ilse.fill("d10")
        ilse.press("Enter")
        took = "Ilse Marr: iniciativa 14 = d10 10 + 4"
        wait_text(gm, ".gmkit-tracker", took, "the box took the d10 as rolled (es)")
        rest = gm.locator(".gmkit-tracker button", has_text="Tirar el resto")
        rest.wait_for(timeout=WAIT)
        assert rest.get_attribute("title").startswith("Tira por los 7 sin puntuación")
        record.seen["initiative_die_es"] = text(gm, ".gmkit-tracker")
        gm.screenshot(path=str(artifacts / "fight-initiative-die-es.png"))
        gm.locator(".gmkit-dashboard .widget-toggle-button", has_text="English").click()
        rest = gm.locator(".gmkit-tracker button", has_text="Roll the rest")
        rest.wait_for(timeout=WAIT)
        gm.locator(".gmkit-tracker input[placeholder='7, 4, 9']").fill(REST)
        rest.click()
        kept = "the scores typed stay: Ilse Marr"
        wait_text(gm, ".gmkit-tracker", kept, "Roll the rest keeps the typed score")
        record.seen["initiative_rest_en"] = text(gm, ".gmkit-tracker")
        gm.screenshot(path=str(artifacts / "fight-initiative-rest-en.png"))
        gm.wait_for_function(  # the rows' initiative boxes show the scores
            "() => [...document.querySelectorAll('.gmkit-tracker .gmkit-init-box input')]"
            ".some(box => box.value === '14')",
            timeout=WAIT,
        )
        gm.locator(".gmkit-tracker button", has_text="Start").click()
        wait_text(gm, ".gmkit-tracker .gmkit-header", "Ilse Marr", "round 1 starts")
        record.follow_seconds["start"] = wait_text(
            player, ".gmkit-player-header", "Ilse Marr", "the players see the first turn"
        )
        record.seen["tracker_order"] = [
            gm.locator(".gmkit-tracker .gmkit-row .gmkit-name").nth(n).inner_text()
            for n in range(len(ORDER))
        ]

        # Attack 1: Ilse Marr (the current actor) shoots Cultist Ban; the table's dice typed.
        attack_control(gm, "dropdown", "Target").locator("select").select_option(
            label="Cultist Ban (Pale Throne cult)"
        )
        gm.locator(".gmkit-pane-buttons .widget-toggle-button", has_text="Log").click()
        gm.locator(".gmkit-attack button", has_text="Table's dice").click()
        boxes = gm.locator(".gmkit-attack .gmkit-dice-entry .gmkit-die-input")  # a box per die
        boxes.first.wait_for(timeout=WAIT)
        boxes.nth(0).fill("20")
        boxes.nth(0).press("Tab")
        wait_text(gm, ".gmkit-attack", "damage (hit 1)", "a box for the damage die")
        boxes.nth(1).fill("3")
        boxes.nth(1).press("Tab")
        wait_text(gm, ".gmkit-attack", "2 damage", "typed dice resolved")
        gm.locator(".gmkit-attack button", has_text="Apply").click()
        wait_text(gm, ".gmkit-row", "6/8", "wounds drop", has="Cultist Ban")
        wait_text(gm, ".gmkit-log table", "Ilse Marr hits Cultist Ban", "the log shows it")
        record.seen["log_after_typed"] = text(gm, ".gmkit-log tbody tr")
        record.follow_seconds["typed attack"] = wait_text(
            player,
            ".gmkit-player-log",
            "Ilse Marr attacks Cultist Ban with Laspistol: hits",  # a band: hit, no numbers
            "players see the attack",
        )
        record.seen["player_band_after_typed"] = player.locator(
            ".gmkit-player-table tr", has_text="Cultist Ban"
        ).inner_text()

        # Undo it: the wounds, the log and the players' view go back.
        gm.locator(".gmkit-attack button", has_text="Undo").click()
        wait_text(gm, ".gmkit-row", "8/8", "undo heals", has="Cultist Ban")
        gm.wait_for_function(
            "() => !document.querySelector('.gmkit-log tbody tr').innerText.includes('hits')",
            timeout=WAIT,
        )
        record.seen["log_after_undo"] = text(gm, ".gmkit-log tbody tr")
        start = time.monotonic()
        player.wait_for_function(
            "() => !document.querySelector('.gmkit-player').innerText.includes('attacks Cultist')",
            timeout=WAIT,
            polling=50,
        )
        record.follow_seconds["undo"] = time.monotonic() - start

        # Attack 2: gmkit's seeded dice (GMKIT_SEED=7): the first roll misses, the second hits.
        gm.locator(".gmkit-attack button", has_text="gmkit rolls").click()
        gm.locator(".gmkit-attack button", has_text="Resolve").click()
        wait_text(gm, ".gmkit-attack", "fails to hit", "seeded roll 1")
        gm.locator(".gmkit-attack button", has_text="Resolve").click()
        wait_text(gm, ".gmkit-attack", "6 damage", "seeded roll 2")
        gm.locator(".gmkit-attack button", has_text="Apply").click()
        wait_text(gm, ".gmkit-row", "2/8", "rolled hit", has="Cultist Ban")
        wait_text(gm, ".gmkit-log tbody tr", "6 damage", "the log shows the rolled hit")
        record.seen["log_after_rolled"] = text(gm, ".gmkit-log tbody tr")
        # whose dice: a cell the compact log keeps in the row, hidden (textContent, not shown)
        record.seen["dice_after_rolled"] = (
            gm.locator(".gmkit-log tbody tr .gmkit-dice").first.text_content() or ""
        )
        record.follow_seconds["rolled attack"] = wait_text(
            player, ".gmkit-player-table", "bloodied", "players see Ban bloodied"
        )

        # Next turn: the tracker and the players move on to the sergeant.
        gm.locator(".gmkit-tracker button", has_text="Next").click()
        wait_text(gm, ".gmkit-tracker .gmkit-header", "Sergeant Varro Tull", "next turn")
        record.follow_seconds["next turn"] = wait_text(
            player, ".gmkit-player-header", "Sergeant Varro Tull", "players see the next turn"
        )

        # A secret attack (GM only): the sergeant shoots Cultist Hesk; the players never read it.
        attack_control(gm, "dropdown", "Target").locator("select").select_option(
            label="Cultist Hesk (Pale Throne cult)"
        )
        gm.locator(".gmkit-attack .widget-checkbox", has_text="GM only").locator("input").check()
        gm.locator(".gmkit-attack button", has_text="Resolve").click()
        wait_text(gm, ".gmkit-attack", "Sergeant Varro Tull", "the secret attack resolves")
        gm.locator(".gmkit-attack button", has_text="Apply").click()
        wait_text(gm, ".gmkit-log tbody tr", "Cultist Hesk", "the GM's log shows it")
        record.seen["secret_summary"] = gm.locator(
            ".gmkit-log tbody tr .gmkit-outcome"
        ).first.inner_text()
        gm.locator(".gmkit-tracker button", has_text="Next").click()
        record.follow_seconds["after the secret attack"] = wait_text(
            player, ".gmkit-player-header", "Jessa Kell", "players see Kell's turn"
        )
        # One turn more, public: once the players see it, every frame of the secret attack
        # (read from the campaign file before it, sent on the same websocket) has come.
        gm.locator(".gmkit-tracker button", has_text="Next").click()
        wait_text(gm, ".gmkit-tracker .gmkit-header", "Cultist Lorn", "the turn after Kell's")
        wait_text(player, ".gmkit-player-header", "Cultist Lorn", "players see Lorn's turn")
        record.player_html = player.content()
        gm.screenshot(path=str(artifacts / "dashboard.png"), full_page=False)
        player.screenshot(path=str(artifacts / "players.png"), full_page=True)
        record.seen["tracker_after"] = text(gm, ".gmkit-tracker")

        # The GM's log in Spanish: each attack's line in the reader's language (issue 21, 8).
        gm.locator(".gmkit-dashboard .widget-toggle-button", has_text="Español").click()
        hit = "Ilse Marr impacta a Cultist Ban una vez con"
        wait_text(gm, ".gmkit-log tbody", hit, "the GM's log in Spanish")
        record.seen["log_es"] = text(gm, ".gmkit-log tbody")
        gm.screenshot(path=str(artifacts / "fight-log-es.png"))
        gm.locator(".gmkit-dashboard .widget-toggle-button", has_text="English").click()
        (artifacts / "follow-seconds.json").write_text(json.dumps(record.follow_seconds, indent=1))
    finally:
        gm.close()
        player.close()
    return record


def test_initiative_typed_from_the_table_sets_the_order(fight):
    assert fight.seen["tracker_order"] == ORDER
    # the box took the d10 as rolled and said so; Roll the rest rolled the seven others only
    assert "Tirar el resto" in fight.seen["initiative_die_es"]
    assert (
        "Rolled for the other 7; the scores typed stay: Ilse Marr"
        in (fight.seen["initiative_rest_en"])
    )
    assert "Round –" in fight.seen["player_start"]  # before the start, no round yet


def test_an_attack_with_typed_dice_changes_wounds_and_log_and_undo_takes_it_back(fight):
    assert (
        "Ilse Marr hits Cultist Ban once with Laspistol: 2 damage" in fight.seen["log_after_typed"]
    )
    assert "d100=20*" in fight.seen["log_after_typed"]  # the table's dice, marked
    assert "hurt" in fight.seen["player_band_after_typed"]  # 6/8 is "hurt" to the players
    assert "hits Cultist Ban" not in fight.seen["log_after_undo"]


def test_an_attack_with_gmkit_s_seeded_dice(fight):
    assert (
        "Ilse Marr hits Cultist Ban once with Laspistol: 6 damage" in fight.seen["log_after_rolled"]
    )
    assert fight.seen["dice_after_rolled"] == "digital"  # gmkit's dice, not the table's
    assert "*" not in fight.seen["log_after_rolled"]


def test_the_player_view_follows_the_gm_within_seconds(fight):
    assert set(fight.follow_seconds) >= {"start", "typed attack", "undo", "next turn"}
    slowest = max(fight.follow_seconds.values())
    assert slowest < FOLLOW_LIMIT, fight.follow_seconds


def test_no_gm_only_value_reaches_the_player_s_browser(fight):
    assert len(fight.frames) > 20  # the page really talked to its kernel
    received = "\n".join(fight.frames)
    assert "Ilse Marr attacks Cultist Ban with Laspistol: hits" in received  # public events...
    assert "Cultist Hesk" in received
    secret = fight.seen["secret_summary"]
    assert "Sergeant Varro Tull" in secret
    for value in [*GM_ONLY, secret]:
        assert value not in received, f"{value!r} reached the player's browser"
        assert value not in fight.player_html, f"{value!r} is in the player's page"
