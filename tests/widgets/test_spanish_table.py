"""A Spanish-speaking GM reads the whole fight in Spanish: a fight of each game played on the
tracker, the attack panel (with its odds) and the log in Spanish, and every word those widgets
show (labels, options, steps, refusals, odds, log lines, reminders) holds no English rule
word. Names (characters, weapons, sides) are the only text left as typed."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import ipywidgets as widgets
import pytest

from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.messages._check import english_words
from gmkit.widgets._attack import AttackPanel
from gmkit.widgets._combat_log import CombatLog
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._tracker import InitiativeTracker

GAMES = ("dark_heresy", "deathwatch", "wfrp2", "necromunda", "wfb6")


@pytest.fixture(autouse=True)
def spanish() -> Iterator[None]:
    LANGUAGE.value = "es"
    yield
    LANGUAGE.value = "en"


def shown_text(root: widgets.Widget) -> str:
    """Every text a widget tree shows: values, descriptions, options' labels, tooltips, with
    the HTML's tags and attributes taken out (an attribute holds keys, not words)."""
    parts: list[str] = []
    todo = [root]
    while todo:
        part = todo.pop()
        todo.extend(getattr(part, "children", ()))
        texts = ("description", "tooltip", "placeholder")
        if isinstance(part, widgets.HTML | widgets.Label | widgets.Text | widgets.Textarea):
            texts = ("value", *texts)  # a selection's value is a key, not a word
        for name in texts:
            value = getattr(part, name, None)
            if isinstance(value, str):
                parts.append(value)
        for option in getattr(part, "options", ()) or ():
            parts.append(str(option[0] if isinstance(option, tuple) else option))
    text = "\n".join(parts)
    text = re.sub(r"<style.*?</style>", " ", text, flags=re.S)
    text = re.sub(r"<[^>]*>", " ", text)
    return html.unescape(text)


def names_of(encounter: Encounter) -> set[str]:
    """The names typed by whoever made the fight: its characters, sides and ids. The data's
    names (weapons, armour, talents) are not among them: they show in Spanish (issue 21)."""
    found = set()
    for combatant in encounter.state.combatants.values():
        found |= {combatant.name, combatant.side, combatant.id}
    return found


def fight_of(game: str) -> Encounter:
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    encounter = Encounter(game, name=roster.title)
    encounter.add_many(roster.sheets)
    return encounter


def play(game: str, panel: AttackPanel, tracker: InitiativeTracker) -> list[str]:
    """A few turns: initiative or sides, attacks with gmkit's dice and the table's, a refused
    choice, the circumstances opened, a condition with its reminder, turns passing. Returns
    the panel's text as each result was shown (its steps and effects), before applying it."""
    seen: list[str] = []
    encounter = panel.encounter
    if encounter.structure.kind == "initiative":
        tracker.roll_initiative()
    tracker.start()
    for turn in range(4):
        to_the_shooting_phase(tracker)
        choose_actor(panel)
        panel.set_distance(8)
        panel.edit_circumstances(True)
        panel.edit_options(True)
        panel.resolve()
        if panel.result is not None:
            seen.append(shown_text(panel))
            panel.apply()
        panel.select_weapon("No such weapon")  # refused: the error is shown, in Spanish
        current = encounter.state.current
        if turn == 1 and current is not None:
            encounter.add_condition(current.id, "stunned", rounds=1, reminder="")
        tracker.next_turn()
    panel.set_dice_mode("physical")
    to_the_shooting_phase(tracker)
    state = encounter.state
    who = [state.current] if state.current is not None else state.present
    for combatant in who:
        if combatant is None or combatant.side != (state.current_side or combatant.side):
            continue
        panel.select_attacker(combatant.id)
        for target in panel.targets:
            panel.select_target(target)
            panel.set_distance(8)
            panel.resolve("")  # the table's dice: the panel asks for the first die
            if panel.prompt:
                return seen
    return seen


def to_the_shooting_phase(tracker: InitiativeTracker) -> None:
    """Sides games: Next until the shooting phase (the only one where the seeds shoot)."""
    while tracker.encounter.phase not in ("", "shooting"):
        tracker.next_turn()


def choose_actor(panel: AttackPanel) -> None:
    """In the sides games (no single actor to follow), a fighter of the side whose turn it is
    that has a weapon to shoot."""
    state = panel.encounter.state
    if state.current is not None or state.current_side is None:
        return
    for combatant in state.present:
        if combatant.side == state.current_side:
            panel.select_attacker(combatant.id)
            panel.set_distance(8)
            if panel.form.request is not None:  # one whose shot the rules take
                return


@pytest.mark.parametrize("game", GAMES)
def test_a_fight_reads_in_spanish_without_an_english_rule_word(game):
    encounter = fight_of(game)
    tracker = InitiativeTracker(encounter, seed=5)
    panel = AttackPanel(encounter, seed=11, follow_actor=True)
    log = CombatLog(encounter)
    try:
        results = play(game, panel, tracker)
        assert results  # some attack was shown
        assert len(encounter.effective_events) > len(encounter.state.combatants) + 3
        assert panel.prompt  # a die asked for, in Spanish
        names = names_of(encounter)
        for text in results:  # the steps and effects of each attack shown
            assert english_words(text, names) == [], text[:3000]
        for widget in (tracker, panel, log):
            text = shown_text(widget)
            assert english_words(text, names) == [], (type(widget).__name__, text[:3000])
        for _, row in encounter.log_frame("es").iterrows():
            assert english_words(str(row["outcome"]), names) == [], row["outcome"]
    finally:
        for widget in (tracker, panel, log):
            widget.close()


@pytest.mark.parametrize("game", GAMES)
def test_notes_conditions_and_the_compact_log_read_in_spanish(game):
    """After the fight: a burst's notes (Deathwatch), every condition the game knows on a
    combatant (named on the tracker and in the log), the log with a round's turns folded into
    one line and with every turn shown: no English rule word, no data id."""
    from gmkit.encounter._terms import known_conditions

    encounter = fight_of(game)
    tracker = InitiativeTracker(encounter, seed=5)
    panel = AttackPanel(encounter, seed=11, follow_actor=True)
    log = CombatLog(encounter)
    try:
        names = names_of(encounter)
        if game == "deathwatch":  # before the fight, with every action left
            panel.select_attacker("brother-castor")
            panel.select_target("ork-boyz-mob")
            panel.select_mode("full")
            panel.set_distance(8)
            panel.resolve()
            assert panel.result is not None, panel.error
            text = shown_text(panel)
            assert "impactos extra" in text  # the burst's own note, in Spanish
            assert english_words(text, names) == [], text[:3000]
            panel.apply()
        play(game, panel, tracker)
        names = names_of(encounter)
        bearer = encounter.state.present[-1]
        keys = known_conditions(game)
        for key in keys:
            encounter.add_condition(bearer.id, key, rounds=2)
        assert set(keys) <= set(encounter.combatant(bearer.id).conditions)
        for every_turn in (False, True):
            log.show_turn_events(every_turn)
            for widget in (tracker, log):
                text = shown_text(widget)
                assert english_words(text, names) == [], (every_turn, text[:3000])
                assert re.findall(r"\b[a-z]+_[a-z_]+\b", text) == [], text[:3000]
            folded = "Turnos:" in shown_text(log)  # a round's turns in one line
            assert folded == (not every_turn)
        if game == "wfrp2":
            assert "Postura defensiva" in shown_text(tracker)
            assert "Postura defensiva" in shown_text(log)
    finally:
        for widget in (tracker, panel, log):
            widget.close()
