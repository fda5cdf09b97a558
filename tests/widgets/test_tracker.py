"""The initiative tracker, driven through its public methods and buttons against real
encounters of the demo rosters (initiative games and sides games), with seeded or typed dice."""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable, Iterator

import ipywidgets
import pytest

from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice, SeededDice
from gmkit.encounter import Encounter
from gmkit.sheets.base import Sheet
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._tracker import MODELS_PER_ROW, InitiativeTracker, TrackerRow, parse_values

Track = Callable[..., InitiativeTracker]


pytestmark = pytest.mark.usefixtures("english")  # tests/conftest.py: English, then again


@pytest.fixture
def track() -> Iterator[Track]:
    """A tracker on an encounter, closed after the test."""
    made: list[InitiativeTracker] = []

    def make(fight: Encounter, **options: object) -> InitiativeTracker:
        tracker = InitiativeTracker(fight, **options)
        made.append(tracker)
        return tracker

    yield make
    for tracker in made:
        tracker.close()


@functools.cache
def sheets(game: str) -> tuple[Sheet, ...]:
    """The demo roster's sheets (read once: sheets are immutable)."""
    return next(r for r in demo_campaign().rosters if r.game == game).sheets


def fight_of(game: str, count: int | None = None) -> Encounter:
    fight = Encounter(game)
    fight.add_many(sheets(game)[:count])
    return fight


def models() -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # deprecated name, same registry
        return len(ipywidgets.Widget.widgets)


def row_of(tracker: InitiativeTracker, name: str) -> TrackerRow:
    ident = tracker.encounter.combatant(name).id
    return tracker.rows[ident]


def flagged(tracker: InitiativeTracker, flag: str) -> list[str]:
    """Ids of the rows (in the order shown) carrying the class ``flag``."""
    return [
        row.ident
        for row in tracker.rows_box.children
        if isinstance(row, TrackerRow) and flag in row._dom_classes
    ]


def current_rows(tracker: InitiativeTracker) -> list[str]:
    """Names of the rows marked as acting now (checked against ``highlighted``)."""
    state = tracker.encounter.state
    names = [state.combatants[i].name for i in flagged(tracker, "gmkit-acting")]
    assert {state.combatants[i].name for i in tracker.highlighted} == set(names)
    marked = [r.ident for r in tracker.rows.values() if "gmkit-current" in r._dom_classes]
    actor = tracker.encounter.situation.actor  # the one who acts now (a side's next)
    assert marked == ([actor] if actor is not None else [])
    if state.current is not None:
        assert actor == state.current.id
    return names


def selected_rows(tracker: InitiativeTracker) -> list[str]:
    return flagged(tracker, "gmkit-selected")


def plain(row: TrackerRow) -> str:
    """The row's text as the page shows it (tags dropped, spaces kept)."""
    return " ".join(re.sub(r"<[^>]+>", " ", row.html.value).split())


def started_dark_heresy(track: Track) -> InitiativeTracker:
    """Tull (AgB 3), Ilse (4), Fenn (3), Jessa (4), typed 7, 0, 2, 5: 10, 14, 5, 9."""
    tracker = track(fight_of("dark_heresy", 4))
    tracker.dice_values.value = "7, 0, 2, 5"
    tracker.roll_button.click()
    tracker.start_button.click()
    return tracker


# --- initiative games ---------------------------------------------------------------------


def test_physical_initiative_then_start_shows_the_order_and_highlights_the_actor(track):
    tracker = track(fight_of("dark_heresy", 4))
    assert "–" in tracker.header.value  # not started
    assert tracker.next_button.disabled
    tracker.dice_values.value = "7, 0, 2, 5"
    tracker.roll_button.click()
    assert tracker.dice_values.value == ""  # the typed dice were used
    scores = {row.ident: row.initiative_box.value for row in tracker.rows.values()}
    assert scores["ilse-marr"] == "14"
    assert scores["sergeant-varro-tull"] == "10"
    assert all(e["roll"]["physical"] for e in tracker.encounter.effective_events[-1]["entries"])

    tracker.start_button.click()

    names = [tracker.encounter.state.combatants[r.ident].name for r in tracker.rows_box.children]
    assert names == ["Ilse Marr", "Sergeant Varro Tull", "Jessa Kell", "Adept Cornelius Fenn"]
    assert current_rows(tracker) == ["Ilse Marr"]
    assert "Round <span class='gmkit-now'>1</span>" in tracker.header.value
    assert "Turn: <span class='gmkit-now'>Ilse Marr</span>" in tracker.header.value
    assert tracker.start_button.disabled
    assert tracker.roll_button.disabled  # no second roll for the whole table mid-fight
    assert not tracker.next_button.disabled


def test_next_previous_undo_redo_move_the_highlight_and_the_round(track):
    tracker = started_dark_heresy(track)
    tracker.next_button.click()
    assert current_rows(tracker) == ["Sergeant Varro Tull"]
    tracker.next_turn()
    tracker.next_turn()
    tracker.next_turn()  # past Fenn, the last: round 2 begins with Ilse
    assert current_rows(tracker) == ["Ilse Marr"]
    assert "Round <span class='gmkit-now'>2</span>" in tracker.header.value
    tracker.previous_button.click()
    assert current_rows(tracker) == ["Adept Cornelius Fenn"]
    assert "Round <span class='gmkit-now'>1</span>" in tracker.header.value
    tracker.undo_button.click()
    assert current_rows(tracker) == ["Ilse Marr"]
    assert "Round <span class='gmkit-now'>2</span>" in tracker.header.value
    tracker.redo_button.click()
    assert current_rows(tracker) == ["Adept Cornelius Fenn"]
    assert tracker.redo_button.disabled
    assert tracker.message == ""


def test_the_budget_shows_actions_and_reactions_left(track):
    tracker = started_dark_heresy(track)
    fight = tracker.encounter
    ilse, tull = row_of(tracker, "Ilse Marr"), row_of(tracker, "Sergeant Varro Tull")
    assert "Actions left 2/2" in ilse.html.value
    assert "Reactions left 1/1" in ilse.html.value
    assert current_rows(tracker) == ["Ilse Marr"]  # her budget is the one shown
    assert "gmkit-reactions'" in tull.html.value  # shown only while it is Tull's turn
    fight.spend("ilse-marr", "half")
    assert "Actions left 1/2" in ilse.html.value
    assert "Actions left" not in tracker.header.value  # on her row, not repeated above
    fight.react("sergeant-varro-tull", "dodge")  # out of turn: shown once spent
    assert "gmkit-reactions gmkit-spent'>Reactions left 0/1" in tull.html.value
    assert current_rows(tracker) == ["Ilse Marr"]


def test_wfrp_shows_each_reaction_pool(track):
    tracker = track(fight_of("wfrp2", 2))
    tracker.roll_initiative("3, 9")
    tracker.start()
    current = tracker.encounter.state.current
    assert current is not None
    tracker.encounter.react(current.id, "parry")
    assert "parry 0/1, dodge 1/1" in tracker.rows[current.id].html.value


def test_condition_badges_count_down_and_reminders_show_after_the_turn_change(track):
    tracker = started_dark_heresy(track)
    fight = tracker.encounter
    fight.add_condition("ilse-marr", "on fire", rounds=2, reminder="1d10 damage, WP test")
    fight.add_condition("jessa-kell", "stunned")
    ilse = row_of(tracker, "Ilse Marr")
    chip = ilse.chip_buttons["on fire"]
    # capitalised, whatever the key's case; "on fire" typed in words is the GM's note (the
    # rules' condition is the id on_fire): marked, and why on hover, before the reminder
    assert chip.description == "On fire · 2 rd (note) ✕"
    assert chip.tooltip.startswith("Remove on fire ('on fire' is no condition of this game")
    assert chip.tooltip.endswith("a note, no rule reads it) (1d10 damage, WP test)")
    assert "gmkit-badge" in chip._dom_classes
    # the condition id "stunned" shown by the game's catalog name, no rounds: no duration
    assert row_of(tracker, "Jessa Kell").chip_buttons["stunned"].description == "Stunned ✕"
    assert tracker.reminder_area.value == ""
    tracker.next_turn()
    assert ilse.chip_buttons["on fire"].description == "On fire · 1 rd (note) ✕"
    assert "Ilse Marr: 1d10 damage, WP test" in tracker.reminder_area.value
    tracker.next_turn()  # the next turn change has nothing to remind
    assert tracker.reminder_area.value == ""


def test_delayed_readied_and_overwatch_markers(track):
    tracker = started_dark_heresy(track)
    fight = tracker.encounter
    fight.declare_trigger("jessa-kell", "overwatch", "the door", rounds=1)
    fight.ready("sergeant-varro-tull", "shoot the first through the door")
    tracker.encounter.delay("ilse-marr")
    assert "overwatch: the door (≤ Round 2)" in row_of(tracker, "Jessa Kell").html.value
    assert "readied: shoot the first" in row_of(tracker, "Sergeant Varro Tull").html.value
    assert ">delayed<" in row_of(tracker, "Ilse Marr").html.value
    assert current_rows(tracker) == ["Sergeant Varro Tull"]


def test_surprised_combatants_are_marked_in_round_one(track):
    tracker = track(fight_of("dark_heresy", 4))
    tracker.roll_initiative("7, 0, 2, 5")
    tracker.start(surprised=["Jessa Kell"])
    assert ">surprised<" in row_of(tracker, "Jessa Kell").html.value
    for _ in range(3):
        tracker.next_turn()
    assert tracker.encounter.state.round == 2
    assert "surprised" not in row_of(tracker, "Jessa Kell").html.value


def test_horde_magnitude_and_wounds(track):
    tracker = track(fight_of("deathwatch"))
    mob = plain(row_of(tracker, "Ork Boyz mob"))
    assert "magnitude 30/30" in mob
    assert "Wounds" not in mob
    assert "Wounds 20/20" in plain(row_of(tracker, "Brother Castor"))


def test_hidden_combatants_are_shown_to_the_gm_marked(track):
    tracker = track(fight_of("dark_heresy", 2))
    ident = tracker.add(sheets("dark_heresy")[4], hidden=True)
    assert ident == "demagogue-ostrava"
    row = tracker.rows[ident]
    assert "<div class='gmkit-line gmkit-hidden'>" in row.html.value
    assert ">secret<" in row.html.value  # the GM's secret, a word apart from a game's Hide
    tracker.encounter.reveal(ident)
    assert "hidden" not in row.html.value
    assert "secret" not in row.html.value


def test_add_mid_fight_appends_one_row_and_keeps_the_others(track):
    tracker = started_dark_heresy(track)
    before = dict(tracker.rows)
    ident = tracker.add(sheets("dark_heresy")[5], initiative=12)
    assert ident == "cultist-ban"
    assert set(tracker.rows) == {*before, ident}
    assert all(tracker.rows[i] is row for i, row in before.items())
    names = [tracker.encounter.state.combatants[r.ident].name for r in tracker.rows_box.children]
    assert names[:2] == ["Ilse Marr", "Cultist Ban"]  # placed by its score


def test_a_late_joiner_rolls_with_typed_dice(track):
    tracker = started_dark_heresy(track)
    tracker.dice_values.value = "6"
    ident = tracker.add(sheets("dark_heresy")[7])  # Cultist Lorn, AgB 2
    assert ident is not None
    assert tracker.encounter.state.combatants[ident].initiative == 8
    assert tracker.dice_values.value == ""


def test_remove_button_drops_the_row_and_undo_brings_the_same_row_back(track):
    tracker = started_dark_heresy(track)
    jessa = row_of(tracker, "Jessa Kell")
    jessa.remove_button.click()
    assert not tracker.encounter.state.combatants["jessa-kell"].removed  # asked, not done
    tracker.confirm_button.click()
    assert tracker.encounter.state.combatants["jessa-kell"].removed
    assert jessa not in tracker.rows_box.children
    assert len(tracker.rows_box.children) == 3
    tracker.undo()
    assert tracker.rows_box.children[2] is jessa


def test_select_sets_the_trait_and_marks_the_row(track):
    tracker = started_dark_heresy(track)
    seen = []
    tracker.observe(lambda change: seen.append(change["new"]), names="selected")
    assert selected_rows(tracker) == []
    row_of(tracker, "Jessa Kell").select_button.click()
    assert tracker.selected == "jessa-kell"
    assert selected_rows(tracker) == ["jessa-kell"]
    tracker.select("Ilse Marr")  # a name does too
    assert seen == ["jessa-kell", "ilse-marr"]
    assert selected_rows(tracker) == ["ilse-marr"]
    tracker.select("Nobody")
    assert tracker.selected == "ilse-marr"
    assert "Nobody" in tracker.message_area.value
    assert "gmkit-error" in tracker.message_area.value


def test_the_default_dice_are_seeded(track):
    first = track(fight_of("dark_heresy"), seed=42)
    second = track(fight_of("dark_heresy"), seed=42)
    assert first.roll_initiative() == second.roll_initiative()
    assert all(not roll.physical for roll in first.dice.history)


def test_unused_typed_values_are_reported(track):
    tracker = track(fight_of("dark_heresy", 2))
    assert tracker.roll_initiative("3, 4, 9") is not None
    assert "9" in tracker.message
    assert "gmkit-error" not in tracker.message_area.value


def test_typed_values_wait_for_a_command_that_rolls(track):
    tracker = track(fight_of("dark_heresy", 2))
    tracker.dice_values.value = "7, 4"
    assert tracker.add(sheets("dark_heresy")[2], initiative=5) is not None  # no roll before start
    assert tracker.dice_values.value == "7, 4"
    assert tracker.message == ""


def test_parse_values_reads_commas_and_spaces():
    assert parse_values(" 7, 4 9;00 ") == ["7", "4", "9", "00"]
    assert parse_values("") == []


# --- sides games ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "phases"),
    [
        ("necromunda", ["movement", "shooting", "close combat", "recovery"]),
        ("wfb6", ["movement", "magic", "shooting", "close combat"]),
    ],
)
def test_sides_games_show_side_and_phase_and_highlight_the_side(track, game, phases):
    tracker = track(fight_of(game))
    fight = tracker.encounter
    assert tracker.roll_button not in tracker.toolbar.children
    tracker.start()
    first, second = fight.state.sides
    assert f"Side: <span class='gmkit-now'>{first}</span>" in tracker.header.value
    assert f"Phase: <span class='gmkit-now'>{phases[0]}</span>" in tracker.header.value
    members = {c.name for c in fight.state.present if c.side == first}
    assert set(current_rows(tracker)) == members
    some = next(c for c in fight.state.present if c.side == first)
    assert "Actions left move 1/1, shoot 1/1, fight 1/1" in tracker.rows[some.id].html.value
    fight.spend(some.id, "move", override="moved on the table")  # WFB: the seed has no movement
    assert "move 0/1, shoot 1/1, fight 1/1" in tracker.rows[some.id].html.value
    tracker.next_turn()
    assert f"Phase: <span class='gmkit-now'>{phases[1]}</span>" in tracker.header.value
    for _ in range(len(phases) - 1):
        tracker.next_turn()
    assert f"Side: <span class='gmkit-now'>{second}</span>" in tracker.header.value
    assert set(current_rows(tracker)) == {c.name for c in fight.state.present if c.side == second}
    assert some.id not in tracker.highlighted
    assert "move 1/1, shoot 1/1, fight 1/1" in tracker.rows[some.id].html.value  # reset


# --- refusals ---------------------------------------------------------------------------


def unchanged(tracker: InitiativeTracker, command: Callable[[], object], match: str) -> None:
    fight = tracker.encounter
    state, events = fight.state, fight.events
    html = {ident: row.html.value for ident, row in tracker.rows.items()}
    assert command() is None
    assert fight.state is state
    assert fight.events == events
    assert {ident: row.html.value for ident, row in tracker.rows.items()} == html
    assert match in tracker.message_area.value
    assert "gmkit-error" in tracker.message_area.value
    assert match in tracker.message


def test_refused_commands_show_a_message_and_change_nothing(track):
    empty = track(Encounter("dark_heresy"))
    unchanged(empty, empty.undo, "nothing to undo")
    tracker = track(fight_of("dark_heresy", 2))
    unchanged(tracker, tracker.redo, "nothing to redo")
    unchanged(tracker, tracker.next_turn, "has not started")
    unchanged(tracker, tracker.start, "not yet rolled")
    unchanged(tracker, lambda: tracker.remove("Nobody"), "Nobody")


def test_a_die_value_a_d10_cannot_show_is_refused_and_the_typed_text_kept(track):
    tracker = track(fight_of("dark_heresy", 2))
    tracker.dice_values.value = "7, 11"
    unchanged(tracker, tracker.roll_initiative, "11")
    assert tracker.dice_values.value == "7, 11"  # kept, to be corrected
    unchanged(tracker, lambda: tracker.roll_initiative("7"), "roll a d10")


def test_initiative_is_refused_in_a_sides_game(track):
    tracker = track(fight_of("necromunda", 3))
    unchanged(tracker, tracker.roll_initiative, "plays by sides")


def test_a_success_clears_the_last_refusal(track):
    tracker = track(fight_of("dark_heresy", 2))
    tracker.redo()
    assert tracker.message_area.value != ""
    tracker.roll_initiative("3, 4")
    assert tracker.message_area.value == ""


# --- rows are updated in place ------------------------------------------------------------


def test_rows_are_updated_in_place_and_only_changed_rows_get_a_value(track):
    tracker = started_dark_heresy(track)
    rows = dict(tracker.rows)
    parts = {i: (r.html, r.select_button, r.remove_button) for i, r in rows.items()}
    changed: list[str] = []
    for ident, row in rows.items():
        row.html.observe(lambda _change, i=ident: changed.append(i), names="value")
    count = models()
    tracker.next_turn()  # Ilse -> Tull: neither text changed, only the marks (classes) move
    assert changed == []
    assert tracker.rows["ilse-marr"].flags == {"gmkit-done"}  # acted: a class
    assert current_rows(tracker) == ["Sergeant Varro Tull"]
    changed.clear()
    tracker.encounter.spend("sergeant-varro-tull", "half")
    assert changed == ["sergeant-varro-tull"]
    changed.clear()
    tracker.encounter.add_condition("jessa-kell", "prone")
    assert changed == []  # a chip of its own, the text as it was
    assert list(tracker.rows["jessa-kell"].chip_buttons) == ["prone"]
    for _ in range(10):
        tracker.next_turn()
    tracker.undo()
    assert models() == count + 2  # no widget was built but the chips' box and the chip
    assert dict(tracker.rows) == rows
    assert all(
        (r.html, r.select_button, r.remove_button) == parts[i] for i, r in tracker.rows.items()
    )


@pytest.mark.parametrize(("game", "per_row"), [("dark_heresy", MODELS_PER_ROW), ("necromunda", 4)])
def test_each_row_is_five_widget_models_at_most(track, game, per_row):
    tracker = track(Encounter(game))
    count = models()
    roster = sheets(game)
    for n in range(20):
        tracker.add(roster[n % len(roster)])
    assert len(tracker.rows) == 20
    assert (models() - count) / 20 == per_row <= 5


def test_a_200_combatant_fight(track):
    roster = sheets("dark_heresy")
    fight = Encounter("dark_heresy")
    fight.add_many([roster[n % len(roster)] for n in range(200)])
    count = models()
    tracker = track(fight, seed=5)
    assert len(tracker.rows_box.children) == 200
    assert (models() - count) / 200 < 5.5  # the rows, plus the tracker's own few widgets
    tracker.roll_initiative()
    tracker.start()
    assert tracker.message == ""
    first = tracker.encounter.state.current
    for _ in range(200):
        tracker.next_turn()
    assert tracker.encounter.state.round == 2
    assert tracker.encounter.state.current.id == first.id  # once round the order
    assert current_rows(tracker) == [tracker.encounter.state.current.name]
    assert len(tracker.rows) == 200


# --- language and lifetime ----------------------------------------------------------------


def test_spanish_labels_after_switching_the_language(track):
    tracker = started_dark_heresy(track)
    LANGUAGE.value = "es"
    assert tracker.next_button.description == "Siguiente"
    assert tracker.roll_button.description == "Tirar iniciativa"
    assert "Asalto" in tracker.header.value
    ilse = row_of(tracker, "Ilse Marr")
    assert "Heridas 10/10" in plain(ilse)
    assert "Acciones restantes 2/2" in plain(ilse)
    assert ilse.remove_button.tooltip == "Quitar"
    assert tracker.undo_button.description.startswith("Deshacer: Empieza el combate")
    LANGUAGE.value = "en"
    assert tracker.next_button.description == "Next"
    assert "Wounds 10/10" in plain(ilse)
    assert tracker.undo_button.description.startswith("Undo: The fight begins")


def test_close_stops_following_the_encounter_and_the_language():
    fight = fight_of("dark_heresy", 2)
    tracker = InitiativeTracker(fight)
    row = next(iter(tracker.rows.values()))
    text = row.html.value
    tracker.close()
    tracker.close()  # twice is harmless
    fight.roll_initiative(EnteredDice([3, 4]))
    LANGUAGE.value = "es"
    assert row.html.value == text
    assert tracker.next_button.description == "Next"


def test_a_seeded_source_can_be_given(track):
    dice = SeededDice(9)
    tracker = track(fight_of("wfrp2", 3), dice=dice)
    tracker.roll_initiative()
    assert tracker.dice is dice
    assert len(dice.history) == 3
