"""The tracker's rows at the table, through its public methods and buttons: Undo / Redo saying
what they take back (and Undo off before anything the GM did), Remove asking first, the
initiative typed in a row's box, the "acted" mark read from the encounter, condition chips
with their rounds and a remove cross, and the marks toggled as classes."""

from __future__ import annotations

import functools
import re

import ipywidgets
import pytest

from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.sheets.base import Sheet
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._tracker import InitiativeTracker, TrackerRow

pytestmark = pytest.mark.usefixtures("english")  # tests/conftest.py: English, then again


@functools.cache
def sheets(game: str) -> tuple[Sheet, ...]:
    return next(r for r in demo_campaign().rosters if r.game == game).sheets


def prepared(game: str, count: int | None = None) -> Encounter:
    """As prep leaves a fight: the roster added, a setting, the set-up note."""
    fight = Encounter(game)
    fight.add_many(sheets(game)[:count])
    fight.set("enemy_wounds", "band")
    fight.note("The cult gathers in the chapel")
    return fight


def tracker_of(made: list[InitiativeTracker], fight: Encounter) -> InitiativeTracker:
    tracker = InitiativeTracker(fight, seed=3)
    made.append(tracker)
    return tracker


def names(tracker: InitiativeTracker) -> list[str]:
    state = tracker.encounter.state
    return [
        state.combatants[row.ident].name
        for row in tracker.rows_box.children
        if isinstance(row, TrackerRow)
    ]


def plain(row: TrackerRow) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", row.html.value).split())


def acted(tracker: InitiativeTracker) -> list[str]:
    """Names of the rows showing the acted mark (the class that shows the tick)."""
    state = tracker.encounter.state
    return [
        state.combatants[row.ident].name
        for row in tracker.rows_box.children
        if isinstance(row, TrackerRow) and "gmkit-done" in row._dom_classes
    ]


# --- Undo and Redo ------------------------------------------------------------------------


def test_undo_is_off_until_the_table_does_something_then_says_what_it_takes_back(made):
    tracker = tracker_of(made, prepared("dark_heresy", 4))
    assert tracker.undo_button.disabled
    assert tracker.undo_button.description == "Undo"
    assert tracker.redo_button.disabled
    tracker.undo()  # a shortcut calling it: refused, the preparation stays
    assert "nothing to undo" in tracker.message
    assert len(tracker.encounter.effective_events) == 6

    tracker.roll_initiative("7, 0, 2, 5")
    assert not tracker.undo_button.disabled
    label = tracker.undo_button.description
    assert label.startswith("Undo: Initiative rolled: Sergeant Varro Tull 10, Ilse Marr 14")
    assert tracker.undo_button.tooltip == label  # the full text where the button clips it
    tracker.undo_button.click()
    assert tracker.undo_button.disabled
    assert tracker.redo_button.description.startswith("Redo: Initiative rolled: ")
    tracker.redo_button.click()
    assert tracker.redo_button.description == "Redo"
    assert tracker.redo_button.disabled
    assert tracker.encounter.state.combatants["ilse-marr"].initiative == 14


def test_an_attack_and_its_action_undo_and_redo_as_one(made):
    fight = prepared("dark_heresy", 6)
    tracker = tracker_of(made, fight)
    tracker.roll_initiative("7, 0, 2, 5, 1, 1")
    tracker.start()
    ilse = fight.state.current
    assert ilse.name == "Ilse Marr"
    before = fight.state
    fight.attack("ilse-marr", "Laspistol", "cultist-ban", EnteredDice([95]), distance=10,
                 spend=True)  # fmt: skip
    after = fight.state
    assert tracker.undo_button.description == ("Undo: Ilse Marr attacks Cultist Ban: Laspistol")
    assert "Actions left 1/2" in plain(tracker.rows["ilse-marr"])
    tracker.undo()
    assert fight.state == before
    assert "Actions left 2/2" in plain(tracker.rows["ilse-marr"])
    assert tracker.redo_button.description == ("Redo: Ilse Marr attacks Cultist Ban: Laspistol")
    tracker.redo()
    assert fight.state is after
    assert "Actions left 1/2" in plain(tracker.rows["ilse-marr"])


def test_undo_and_redo_labels_follow_the_language(made):
    tracker = tracker_of(made, prepared("wfrp2", 2))
    tracker.roll_initiative("3, 9")
    tracker.start()
    LANGUAGE.value = "es"
    assert tracker.undo_button.description.startswith("Deshacer: Empieza el combate")
    tracker.undo()
    assert tracker.redo_button.description.startswith("Rehacer: Empieza el combate")
    LANGUAGE.value = "en"
    assert tracker.redo_button.description.startswith("Redo: The fight begins")


# --- Remove asks first ------------------------------------------------------------------------


def test_remove_asks_then_removes_only_on_the_second_click(made):
    tracker = tracker_of(made, prepared("dark_heresy"))
    ban = tracker.rows["cultist-ban"]
    ban.remove_button.click()
    assert tracker.removing == "cultist-ban"
    assert not tracker.encounter.state.combatants["cultist-ban"].removed
    children = list(tracker.rows_box.children)
    assert children[children.index(ban) + 1] is tracker.confirm_bar  # under its row
    assert tracker.confirm_text.value == "Remove Cultist Ban?"
    assert (tracker.confirm_button.description, tracker.keep_button.description) == (
        "Remove",
        "Keep",
    )
    assert "gmkit-asking" in ban._dom_classes

    tracker.keep_button.click()
    assert tracker.removing == ""
    assert tracker.confirm_bar not in tracker.rows_box.children
    assert "gmkit-asking" not in ban._dom_classes
    assert not tracker.encounter.state.combatants["cultist-ban"].removed

    tracker.remove("Cultist Ban")  # by name too
    tracker.confirm_remove()
    assert tracker.encounter.state.combatants["cultist-ban"].removed
    assert ban not in tracker.rows_box.children
    assert tracker.confirm_bar not in tracker.rows_box.children
    assert tracker.undo_button.description == "Undo: Cultist Ban leaves the fight"


def test_asking_about_another_row_moves_the_question_and_spanish_asks_in_spanish(made):
    tracker = tracker_of(made, prepared("dark_heresy", 3))
    tracker.remove("ilse-marr")
    tracker.remove("adept-cornelius-fenn")
    children = list(tracker.rows_box.children)
    assert children.count(tracker.confirm_bar) == 1
    assert children[children.index(tracker.rows["adept-cornelius-fenn"]) + 1] is (
        tracker.confirm_bar
    )
    LANGUAGE.value = "es"
    tracker.remove("ilse-marr")
    assert tracker.confirm_text.value == "¿Quitar a Ilse Marr?"
    assert (tracker.confirm_button.description, tracker.keep_button.description) == (
        "Quitar",
        "Mantener",
    )
    tracker.confirm_remove()
    assert tracker.encounter.state.combatants["ilse-marr"].removed
    assert not tracker.encounter.state.combatants["adept-cornelius-fenn"].removed


def test_confirming_with_nothing_asked_does_nothing(made):
    tracker = tracker_of(made, prepared("dark_heresy", 2))
    events = tracker.encounter.events
    tracker.confirm_remove()
    tracker.cancel_remove()
    assert tracker.encounter.events == events
    tracker.remove("Nobody")
    assert tracker.removing == ""
    assert "Nobody" in tracker.message


# --- the initiative box -------------------------------------------------------------------


def test_typed_initiative_sets_the_score_and_sorts_the_rows(made):
    tracker = tracker_of(made, prepared("dark_heresy", 3))
    fight = tracker.encounter
    boxes = {ident: row.initiative_box for ident, row in tracker.rows.items()}
    assert all(box is not None and box.value == "" for box in boxes.values())
    boxes["adept-cornelius-fenn"].value = "17"  # what the page sends on Enter
    boxes["ilse-marr"].value = "12"
    boxes["sergeant-varro-tull"].value = " 9 "
    assert {c.id: c.initiative for c in fight.state.present} == {
        "adept-cornelius-fenn": 17,
        "ilse-marr": 12,
        "sergeant-varro-tull": 9,
    }
    assert names(tracker) == ["Adept Cornelius Fenn", "Ilse Marr", "Sergeant Varro Tull"]
    assert fight.effective_events[-1]["entries"] == [
        {"id": "sergeant-varro-tull", "base": 3, "roll": None, "score": 9}
    ]
    assert boxes["sergeant-varro-tull"].value == "9"
    assert tracker.undo_button.description == "Undo: Initiative set: Sergeant Varro Tull 9"
    tracker.start()
    assert fight.state.current.name == "Adept Cornelius Fenn"
    tracker.set_initiative("Sergeant Varro Tull", 20)  # mid-fight: placed again in the order
    assert names(tracker)[0] == "Sergeant Varro Tull"
    assert fight.state.current.name == "Adept Cornelius Fenn"  # the turn stays


def test_a_typed_initiative_that_is_no_number_is_refused_by_name(made):
    tracker = tracker_of(made, prepared("dark_heresy", 2))
    fight = tracker.encounter
    events = fight.events
    box = tracker.rows["ilse-marr"].initiative_box
    box.value = "fourteen"
    assert tracker.message == (
        "Initiative of Ilse Marr: 'fourteen' is neither a total (12) nor a d10 as rolled (d7)"
    )
    assert "gmkit-error" in tracker.message_area.value
    assert fight.events == events
    assert box.value == ""  # the encounter's score shown again
    LANGUAGE.value = "es"
    assert tracker.set_initiative("ilse-marr", "7,5") is False
    assert tracker.message == (
        "Iniciativa de Ilse Marr: «7,5» no es ni un total (12) ni un d10 tal como salió (d7)"
    )
    LANGUAGE.value = "en"
    box.value = "14"
    assert tracker.message == "Ilse Marr: initiative 14, taken as the total"
    assert "gmkit-error" not in tracker.message_area.value
    box.value = ""  # emptied: the score stays, nothing said
    assert box.value == "14"
    assert tracker.message == ""
    assert fight.state.combatants["ilse-marr"].initiative == 14


def test_the_box_takes_the_die_as_rolled_or_the_total_and_says_which(made):
    """Issue 21, item 4: "7" for Ilse (Agility Bonus 4): the d10 or the total? A number is
    the total, and the line says how to type the die; "d7" is the die (7 + 4 = 11, a physical
    d10 in the log); "7+4" a sum. The box's tooltip says so, in the page's language."""
    tracker = tracker_of(made, prepared("dark_heresy", 3))
    fight = tracker.encounter
    box = tracker.rows["ilse-marr"].initiative_box
    assert box.tooltip == (
        "Initiative of Ilse Marr: the total (as a player calls it out), or the d10 as rolled "
        "after a d: d7 is 7 + 4 = 11"
    )
    box.value = "7"
    assert fight.state.combatants["ilse-marr"].initiative == 7
    assert tracker.message == (
        "Ilse Marr: initiative 7, taken as the total; if 7 is the d10 as rolled, type d7 "
        "(7 + 4 = 11)"
    )
    box.value = "d7"
    assert fight.state.combatants["ilse-marr"].initiative == 11
    assert box.value == "11"
    assert tracker.message == "Ilse Marr: initiative 11 = d10 7 + 4"
    roll = fight.effective_events[-1]["entries"][0]["roll"]
    assert (roll["sides"], roll["value"], roll["physical"]) == (10, 7, True)
    tracker.rows["sergeant-varro-tull"].initiative_box.value = "8 + 3"
    assert tracker.message == "Sergeant Varro Tull: initiative 11 (8 + 3), taken as the total"
    box.value = "D12"  # a d10 shows no 12: refused by name, nothing recorded
    assert tracker.message == (
        "initiative: Ilse Marr: 12 cannot come from a d10; type 1 to 10 (0 reads 10)"
    )
    assert fight.state.combatants["ilse-marr"].initiative == 11
    LANGUAGE.value = "es"
    assert box.tooltip.startswith("Iniciativa de Ilse Marr: el total (como lo canta un jugador)")
    box.value = "d0"
    assert tracker.message == "Ilse Marr: iniciativa 14 = d10 10 + 4"


def test_roll_initiative_rolls_the_rest_and_keeps_the_typed_scores(made):
    """Issue 21, item 4: Roll initiative overwrote the players' typed scores without a word.
    Once some rows have a score it reads "Roll the rest" and rolls only the others (the
    dice typed in their order: Fenn's d10 5 + AgB 3), saying whose scores stayed; with every
    row scored it is off."""
    tracker = tracker_of(made, prepared("dark_heresy", 3))
    fight = tracker.encounter
    assert tracker.roll_button.description == "Roll initiative"
    assert not tracker.roll_button.disabled
    tracker.rows["sergeant-varro-tull"].initiative_box.value = "13"  # a player called it out
    tracker.rows["ilse-marr"].initiative_box.value = "d2"
    assert tracker.roll_button.description == "Roll the rest"
    assert tracker.roll_button.tooltip.startswith("Roll for the 1 without a score")
    tracker.dice_values.value = "5"
    tracker.roll_button.click()
    scores = {c.name: c.initiative for c in fight.state.present}
    assert scores == {"Sergeant Varro Tull": 13, "Ilse Marr": 6, "Adept Cornelius Fenn": 8}
    assert tracker.message == (
        "Rolled for the other 1; the scores typed stay: Sergeant Varro Tull and Ilse Marr"
    )
    assert tracker.roll_button.disabled
    assert tracker.roll_button.tooltip == "Everyone has a score; type over one to change it"
    tracker.undo()
    LANGUAGE.value = "es"
    assert tracker.roll_button.description == "Tirar el resto"
    assert not tracker.roll_button.disabled


def test_the_sides_games_have_no_initiative_box(made):
    tracker = tracker_of(made, prepared("necromunda"))
    assert all(row.initiative_box is None for row in tracker.rows.values())
    assert "gmkit-sides" in tracker._dom_classes


# --- the acted mark, the marks as classes -----------------------------------------------------


def test_the_acted_mark_follows_the_turns_in_an_initiative_game(made):
    tracker = tracker_of(made, prepared("dark_heresy", 4))
    tracker.roll_initiative("7, 0, 2, 5")
    tracker.start()
    assert acted(tracker) == []
    tracker.next_turn()
    assert acted(tracker) == ["Ilse Marr"]
    tracker.encounter.spend("sergeant-varro-tull", "full")  # his whole turn spent
    assert acted(tracker) == ["Ilse Marr", "Sergeant Varro Tull"]
    tracker.next_turn()
    tracker.next_turn()
    assert acted(tracker) == ["Ilse Marr", "Sergeant Varro Tull", "Jessa Kell"]
    tracker.next_turn()  # round 2: the marks are gone
    assert acted(tracker) == []
    tracker.undo()
    assert acted(tracker) == ["Ilse Marr", "Sergeant Varro Tull", "Jessa Kell"]


@pytest.mark.parametrize("game", ["necromunda", "wfb6"])
def test_the_acted_mark_shows_who_of_the_side_in_play_has_acted(made, game):
    tracker = tracker_of(made, prepared(game))
    fight = tracker.encounter
    tracker.start()
    side = fight.state.current_side
    members = [c for c in fight.state.present if c.side == side]
    lit = [r for r in tracker.rows.values() if "gmkit-acting" in r._dom_classes]
    assert {r.ident for r in lit} == {c.id for c in members}  # the side's rows, by class
    fight.spend(members[0].id, "move", override="moved on the table")
    assert acted(tracker) == [members[0].name]
    fight.spend(members[1].id, "move", override="moved on the table")
    assert acted(tracker) == [members[0].name, members[1].name]
    assert "gmkit-acting" in tracker.rows[members[0].id]._dom_classes  # still its side's turn


def test_select_and_the_current_actor_are_classes_on_the_rows(made):
    tracker = tracker_of(made, prepared("dark_heresy", 3))
    tracker.roll_initiative("7, 0, 2")
    tracker.start()
    ilse = tracker.rows["ilse-marr"]
    assert ilse.flags == {"gmkit-current", "gmkit-acting"}
    tracker.select("Ilse Marr")
    assert ilse.flags == {"gmkit-current", "gmkit-acting", "gmkit-selected"}
    styles = [c for c in tracker.children if isinstance(c, ipywidgets.HTML) and "<style" in c.value]
    kept = [c.value for c in styles]
    tracker.next_turn()  # the marks move by class: no style is written again
    assert [c.value for c in styles] == kept
    assert ilse.flags == {"gmkit-selected", "gmkit-done"}
    assert tracker.rows["sergeant-varro-tull"].flags == {"gmkit-current", "gmkit-acting"}
    tracker.next_turn()
    assert tracker.rows["adept-cornelius-fenn"].flags == {"gmkit-current", "gmkit-acting"}


# --- condition chips ------------------------------------------------------------------------


def test_condition_chips_show_the_rounds_and_their_cross_removes_the_condition(made):
    tracker = tracker_of(made, prepared("dark_heresy", 3))
    fight = tracker.encounter
    tracker.roll_initiative("7, 0, 2")
    tracker.start()
    fight.add_condition("sergeant-varro-tull", "stunned", rounds=1)
    fight.add_condition("sergeant-varro-tull", "prone")
    row = tracker.rows["sergeant-varro-tull"]
    chips = row.chip_buttons
    assert [b.description for b in chips.values()] == ["Stunned · 1 rd ✕", "Prone ✕"]
    assert chips["stunned"].tooltip == "Remove Stunned"
    assert row.chips in row.children
    chips["stunned"].click()
    assert "stunned" not in fight.state.combatants["sergeant-varro-tull"].conditions
    assert [b.description for b in row.chip_buttons.values()] == ["Prone ✕"]
    assert tracker.undo_button.description == (
        "Undo: Condition Stunned removed from Sergeant Varro Tull"
    )
    tracker.remove_condition("Sergeant Varro Tull", "prone")
    assert row.chip_buttons == {}
    assert row.chips not in row.children  # no empty box left in the row
    assert tracker.remove_condition("Sergeant Varro Tull", "prone") is False  # none left
    assert "gmkit-error" in tracker.message_area.value
    LANGUAGE.value = "es"
    fight.add_condition("ilse-marr", "stunned", rounds=2)
    assert [b.description for b in tracker.rows["ilse-marr"].chip_buttons.values()] == [
        "Aturdido · 2 asaltos ✕"
    ]
