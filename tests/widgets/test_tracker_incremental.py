"""The tracker renders only what changed (issue 14): after every command of a fight, each row
shows exactly what a tracker made afresh on the same encounter shows (text, marks, initiative
box, chips, order), and a turn change sends the header first, then a class change to the row
that was current and the new one, and no row text."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import ipywidgets
import pytest

from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice, SeededDice
from gmkit.encounter import Encounter
from gmkit.sheets.base import Sheet
from gmkit.systems.base import Effect
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._tracker import InitiativeTracker, TrackerRow
from gmkit.widgets._tracker_drawn import same
from gmkit.widgets._tracker_marks import NO_MARKS, Marks

pytestmark = pytest.mark.usefixtures("english")  # tests/conftest.py: English, then again


@functools.cache
def sheets(game: str) -> tuple[Sheet, ...]:
    return next(r for r in demo_campaign().rosters if r.game == game).sheets


def looks(tracker: InitiativeTracker) -> list[tuple[Any, ...]]:
    """Everything the rows shown show, in the order shown."""
    shown: list[tuple[Any, ...]] = []
    for row in tracker.rows_box.children:
        if not isinstance(row, TrackerRow):
            shown.append(("confirm", row.text.value))
            continue
        box = row.initiative_box.value if row.initiative_box is not None else None
        chips = tuple((b.description, b.tooltip) for b in row.chip_buttons.values())
        shown.append((row.ident, row.html.value, tuple(row._dom_classes), box, chips))
    return shown


def fresh_looks(tracker: InitiativeTracker) -> list[tuple[Any, ...]]:
    """What a tracker made now on the same encounter shows (every row drawn from scratch),
    with the same selection and removal asked (its rows numbered as the tracker's)."""
    other = InitiativeTracker(tracker.encounter, seed=3)
    try:
        for ident, row in tracker.rows.items():  # the same row classes (gmkit-r<n>, sides)
            if ident in other.rows:
                theirs = other.rows[ident]
                theirs.css_class, theirs.side_class = row.css_class, row.side_class
                theirs.flag(theirs.flags)
        other.selected = tracker.selected
        other.removing = tracker.removing
        return looks(other)
    finally:
        other.close()


def checked(tracker: InitiativeTracker, step: str) -> None:
    assert looks(tracker) == fresh_looks(tracker), step


def actor(fight: Encounter) -> str:
    current = fight.state.current
    assert current is not None
    return current.id


def steps_dark_heresy(tracker: InitiativeTracker) -> list[tuple[str, Callable[[], object]]]:
    fight = tracker.encounter
    ids = [c.id for c in fight.state.present]
    return [
        ("roll", lambda: tracker.roll_initiative("7, 0, 2, 5, 9, 1, 4, 8")),
        ("type a score", lambda: tracker.rows[ids[2]].initiative_box.__setattr__("value", "12")),
        ("type a word", lambda: tracker.rows[ids[3]].initiative_box.__setattr__("value", "x")),
        ("start", lambda: tracker.start(surprised=[ids[7]])),
        ("select", lambda: tracker.select(ids[1])),
        ("next", tracker.next_turn),
        ("stunned", lambda: fight.add_condition(ids[4], "stunned", rounds=2)),
        ("damage", lambda: fight.apply_effects([Effect("damage", ids[5], 3, "body", "Impact")])),
        ("next", tracker.next_turn),
        ("trigger", lambda: fight.declare_trigger(actor(fight), "overwatch")),
        ("delay", lambda: fight.delay(actor(fight))),
        ("remove asked", lambda: tracker.remove(ids[6])),
        ("remove", tracker.confirm_remove),
        ("undo", tracker.undo),
        ("redo", tracker.redo),
        ("chip's cross", lambda: tracker.remove_condition(ids[4], "stunned")),
        ("Spanish", lambda: LANGUAGE.set_trait("value", "es")),
        *[("next", tracker.next_turn) for _ in range(9)],  # a round's end: all marks again
        ("English", lambda: LANGUAGE.set_trait("value", "en")),
        ("previous", tracker.previous_turn),
        ("late joiner", lambda: tracker.add(sheets("dark_heresy")[0], initiative=3)),
        ("killed", lambda: fight.apply_effects([Effect("damage", ids[0], 40, "head", "Impact")])),
        ("next", tracker.next_turn),
    ]


def test_every_step_of_an_initiative_fight_shows_what_a_fresh_tracker_shows(
    made: list[InitiativeTracker],
) -> None:
    fight = Encounter("dark_heresy")
    fight.add_many(sheets("dark_heresy"))
    tracker = InitiativeTracker(fight, seed=3)
    made.append(tracker)
    checked(tracker, "prepared")
    for step, command in steps_dark_heresy(tracker):
        command()
        checked(tracker, step)
    assert any("gmkit-down" in row.html.value for row in tracker.rows.values())  # it ran


@pytest.mark.parametrize("game", ["necromunda", "wfb6"])
def test_every_step_of_a_sides_fight_shows_what_a_fresh_tracker_shows(
    made: list[InitiativeTracker], game: str
) -> None:
    fight = Encounter(game)
    fight.add_many(sheets(game))
    tracker = InitiativeTracker(fight, seed=3)
    made.append(tracker)
    ids = [c.id for c in fight.state.present]
    tracker.start()
    checked(tracker, "start")
    for number in range(12):  # phases, both sides, round ends
        if number == 2:
            fight.spend(ids[0], "move", override="moved on the table")
        if number == 5:
            fight.add_condition(ids[1], "pinned", rounds=1)
        tracker.next_turn()
        checked(tracker, f"next {number + 1}")
    tracker.select(ids[2])
    checked(tracker, "select")


def sent_by(action: Callable[[], object]) -> list[tuple[ipywidgets.Widget, tuple[str, ...]]]:
    """The widget messages ``action`` sends, in order: (widget, the traits updated)."""
    sent: list[tuple[ipywidgets.Widget, tuple[str, ...]]] = []
    original = ipywidgets.Widget._send

    def record(widget: ipywidgets.Widget, msg: dict[str, Any], buffers: Any = None) -> None:
        sent.append((widget, tuple(msg.get("state", {}))))
        original(widget, msg, buffers)

    ipywidgets.Widget._send = record
    try:
        action()
    finally:
        ipywidgets.Widget._send = original
    return sent


def test_a_turn_change_at_60_combatants_sends_the_header_then_two_row_classes(
    made: list[InitiativeTracker],
) -> None:
    fight = Encounter("dark_heresy")
    roster = sheets("dark_heresy")
    for number in range(60):
        fight.add(roster[number % len(roster)].model_copy(update={"name": f"Fighter {number}"}))
    tracker = InitiativeTracker(fight, seed=3)
    made.append(tracker)
    fight.roll_initiative(SeededDice(2))
    fight.start(SeededDice(3))
    tracker.next_turn()
    was = fight.state.current
    assert was is not None
    sent = sent_by(tracker.next_turn)
    now = fight.state.current
    assert now is not None
    assert now.id != was.id
    assert sent[0] == (tracker.header, ("value",))  # what the GM looks at, first
    assert "Fighter" in tracker.header.value
    assert now.name in tracker.header.value
    rows = [(w.ident, keys) for w, keys in sent if isinstance(w, TrackerRow)]
    assert rows == [(now.id, ("_dom_classes",)), (was.id, ("_dom_classes",))]
    texts = [w for w, _ in sent if any(w is r.html for r in tracker.rows.values())]
    assert texts == []  # no row's text: a turn change leaves it as it was
    assert tracker.rows[now.id].flags == {"gmkit-current", "gmkit-acting"}
    assert tracker.rows[was.id].flags == {"gmkit-done"}


def test_a_wound_redraws_the_wounded_row_alone(made: list[InitiativeTracker]) -> None:
    fight = Encounter("dark_heresy")
    fight.add_many(sheets("dark_heresy"))
    tracker = InitiativeTracker(fight, seed=3)
    made.append(tracker)
    tracker.roll_initiative("7, 0, 2, 5, 9, 1, 4, 8")
    tracker.start()
    target = fight.state.present[3]
    htmls = {row.html: ident for ident, row in tracker.rows.items()}
    sent = sent_by(lambda: fight.apply_effects([Effect("damage", target.id, 2, "body", "Impact")]))
    assert [htmls[w] for w, _ in sent if w in htmls] == [target.id]


def test_a_score_typed_and_refused_is_put_back_at_the_next_render(
    made: list[InitiativeTracker],
) -> None:
    fight = Encounter("dark_heresy")
    fight.add_many(sheets("dark_heresy")[:3])
    tracker = InitiativeTracker(fight, seed=3)
    made.append(tracker)
    tracker.roll_initiative("7, 0, 2")
    tracker.start()
    row = next(iter(tracker.rows.values()))
    score = fight.state.combatants[row.ident].initiative
    assert row.initiative_box is not None
    row.initiative_box.value = "30"  # after the start: the rules refuse, nothing is appended
    if fight.state.combatants[row.ident].initiative == score:
        assert row.initiative_box.value == "30"  # shown as typed until the next render
        tracker.next_turn()
        assert row.initiative_box.value == str(score)
    else:  # the rules took it: the box shows the encounter's score
        assert row.initiative_box.value == "30"


def test_marks_changed_names_every_row_whose_classes_differ() -> None:
    before = Marks("a", frozenset({"a"}), frozenset({"b", "c"}), "d", "")
    after = Marks("e", frozenset({"e"}), frozenset({"a", "b", "c"}), "d", "c")
    everyone = {"a", "b", "c", "d", "e", "f"}
    differ = {i for i in everyone if before.flags(i) != after.flags(i)}
    assert differ == {"a", "c", "e"}
    assert differ <= after.changed(before)
    assert after.changed(after) == set()
    assert NO_MARKS.flags("a") == frozenset()
    assert after.flags("c") == {"gmkit-done", "gmkit-asking"}


def test_same_is_equality_of_the_fields() -> None:
    fight = Encounter("dark_heresy")
    fight.add_many(sheets("dark_heresy")[:2])
    first, second = fight.state.present
    assert same(first, first)
    assert not same(first, second)
    wounded = first.counted("damage", 1)
    assert not same(first, wounded)
    assert same(wounded, wounded.counted("damage", 0))  # a new object, equal fields
    assert wounded == wounded.counted("damage", 0)


def test_entered_dice_still_typed_in_the_field_are_used(made: list[InitiativeTracker]) -> None:
    fight = Encounter("dark_heresy")
    fight.add_many(sheets("dark_heresy")[:3])
    tracker = InitiativeTracker(fight, seed=3, dice=EnteredDice([]))
    made.append(tracker)
    tracker.dice_values.value = "7, 0, 2"
    scores = tracker.roll_initiative()
    assert scores is not None
    assert len(scores) == 3
    boxes = {r.initiative_box.value for r in tracker.rows.values() if r.initiative_box}
    assert boxes == {str(score) for score in scores.values()}
